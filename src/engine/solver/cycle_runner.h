// The unit of work the solver hands to a device: one full CCD cycle.
//
// A CycleRunner owns the device-side state of one fit (eta, running sums, and for a device
// implementation also beta, bounds and flags). The solver calls runCycle() once per cycle and
// reads back a few scalars, so a CUDA runner can keep everything resident and do a whole
// cycle without host round trips. The CPU runner (likelihood_cycle_runner.h) is a loop over
// coordinates; makeCycleRunner (solver/compute_device.h, defined in device/dispatch.cpp) is
// the one place that picks an implementation.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/likelihood.h"
#include "priors/prior.h"

namespace argus {

class BoundSteps;  // solver/bound_steps.h

// What a cycle reads and writes besides the data. `fixed` coordinates never move.
struct CycleState {
  std::vector<double> beta;
  std::vector<double> bound;  // trust-region half-widths, MODELS.md §4
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  // After the coordinate loop, try one step along the whole cycle's move (see
  // likelihood_cycle_runner.h): kept only when it raises the log posterior.
  bool extrapolate = true;
  // After the coordinate loop, take a Newton step on the block of solver/block_newton.h.
  bool blockNewton = true;
  // The readouts report eta's change per cycle (the "zhang" rule): reset() and rebuild() then
  // mark eta. Off, they skip that O(N) pass and its N-double copy (perf: 5% of an SCCS
  // fit's samples; the fit's time moved within noise).
  bool tracksEtaChange = true;
};

// What one cycle visits: `coordinates` in order, each taking an exact Newton step with its
// trust region (MODELS.md §4). After every coordinate that moves, `follower` (the intercept;
// -1 for none) takes a Newton step from the likelihood's O(1) running estimate of its g, h
// (Likelihood::gradHessEstimate), within its trust region (followerStep in priors/prior.h): columns
// with x >= 0 all correlate with an intercept, and without this plain cyclic order zig-zags
// between the intercept and the rest. A runner ignores a follower whose g, h it cannot
// estimate in O(1). The follower should also be among `coordinates`, where its exact visit
// keeps the fit exact.
struct CyclePlan {
  std::vector<std::int32_t> coordinates;
  std::int32_t follower = -1;
};

// Scalars read back once per cycle (and after reset) for convergence checks and reports.
struct CycleReadout {
  double logLikelihood = 0.0;
  double weightedOutcomeEta = 0.0;  // sum_r w_r y_r eta_r ("gradient" criterion)
  double sumAbsEta = 0.0;           // sum_r |eta_r|               ("zhang" criterion)
  double sumAbsEtaChange = 0.0;     // sum_r |eta_r - eta_r before the cycle|
  std::int64_t coordinatesMoved = 0;
};

// Which readouts a caller needs: each costs an O(N) pass, so a cycle computes only these.
struct ReadoutNeeds {
  bool logLikelihood = true;
  bool weightedOutcomeEta = true;
  bool etaChange = true;  // sumAbsEta and sumAbsEtaChange
};

// The first-order optimality check of a fit (priors/optimality.h), from a fresh full gradient.
struct OptimalityReport {
  double maxViolation = 0.0;  // largest optimalityViolation over the free coordinates
  std::int32_t worst = -1;    // the coordinate where it is reached (-1: none free)
};

class CycleRunner {
 public:
  virtual ~CycleRunner() = default;
  // Returns the runner to the state of a new one for the same data and weights, forgetting
  // what the last fit taught it (the Newton block's admitted columns, its step count), so
  // that the next fit, which starts with reset(), runs to the bit as on a new runner. False
  // where the runner cannot (the caller then makes a new one): solver/refit_session.h lends
  // one runner to many fits.
  virtual bool restart() { return false; }
  // Loads beta and recomputes everything from scratch; reads out everything.
  virtual CycleReadout reset(const CycleState& state) = 0;
  // reset() for a beta whose linear predictor the caller has formed (eta = offset + X beta
  // up to rounding): O(N) where reset() recomputes X beta. The default ignores eta.
  virtual CycleReadout resetToEta(const CycleState& state, const std::vector<double>& /*eta*/) {
    return reset(state);
  }
  // Recomputes every running sum from the current linear predictor, which runCycle() keeps
  // equal to offset + X state.beta up to the rounding of its updates (~1e-15 relative): the
  // fit's final readout without the drift of the sums, O(N) where reset() recomputes X beta
  // (a tenth of an SCCS fit). Call after runCycle() or reset(). The default is reset().
  virtual CycleReadout rebuild(const CycleState& state) { return reset(state); }
  // Runs one cycle of `plan`, updating state.beta and state.bound.
  virtual CycleReadout runCycle(CycleState& state, const CyclePlan& plan,
                                const ReadoutNeeds& needs) = 0;
  // The log-likelihood where the runner stands (after runCycle() or reset()), from its
  // running sums, touching nothing else: solver/overshoot_guard.h asks after a cycle of large
  // moves.
  virtual double logLikelihood(const CycleState& state) = 0;
  // g_j, h_j of the log-likelihood at the current beta (tests, diagnostics, active sets).
  virtual GradHess gradHess(std::int32_t j) = 0;
  // eta = offset + X beta as of the last reset(), copied to the host.
  virtual std::vector<double> linearPredictor() = 0;
  // Checks first-order optimality over the free coordinates from the full gradient at
  // state.beta, where the runner must stand (after runCycle() or reset()). Not a reset: the
  // sums are refreshed every cycle and their drift (~1e-14 relative) is far below the
  // tolerance, while a reset's O(N) exp() calls cost as much as the check on sparse data.
  virtual OptimalityReport checkOptimality(const CycleState& state) = 0;
  // Likelihood::exactCycleCost of the runner's likelihood.
  virtual Likelihood::ExactCycleCost exactCycleCost() const { return {}; }
  // The likelihood's per-row score and curvature bound at the current beta (after reset()):
  // Likelihood::rowScores, copied to the host. False where the runner does not offer them.
  virtual bool rowScores(std::vector<double>* /*score*/, std::vector<double>* /*curvature*/) {
    return false;
  }
  // The majorized start's steps where the runner's state lives (solver/bound_steps.h: a
  // device's all-coordinates steps), or null: then the host's sweeps over rowScores() serve.
  virtual std::unique_ptr<BoundSteps> boundSteps();  // (majorized_start.cpp)
  // The Hessian of the log-likelihood over `columns` (row-major k x k, each column taken as
  // x - shifts[a]; shifts empty: as is) at the current beta (after reset()), where the
  // likelihood forms it exactly in one pass (the GLMs: -X' W X; Likelihood::blockGradHess).
  // False where it does not: inference then differences the gradient (solver/inference.h).
  virtual bool exactHessian(const std::vector<std::int32_t>& /*columns*/, const std::vector<double>& /*shifts*/,
                            std::vector<double>* /*h*/) {
    return false;
  }
  // The free coordinates under a flat prior that the data cannot identify at state.beta:
  // without curvature (no information), or collinear with earlier ones (block_newton.h), or
  // duplicates of earlier columns. Increasing column order; call after reset().
  virtual std::vector<std::int32_t> aliasedColumns(const CycleState& state) = 0;
};

}  // namespace argus
