// A start for the exact CCD cycles, by proximal Newton steps on a separable quadratic model in
// eta (issue 14): the survival models' on the CPU; on a device also the GLMs' and the
// conditional models' under Breslow's form (issue 42, device/all_coordinates_steps.h).
//
// Why. An exact Cox or Fine-Gray coordinate step moves the risk-set sums of every slot below
// its rows, so each moved coordinate refreshes O(slots) state; with continuous event times
// (slots ~ 0.5 N) that refresh is most of a cycle, and a fit needs a dozen cycles or more.
//
// The model. At beta the log-likelihood's eta-Hessian is -sum_e d_e (diag(p_e) - p_e p_e'),
// p_e the risk-set probabilities of event slot e; diag(c), c_r = sum_e d_e p_er (the row's
// expected events: the scan's own terms with x = 1, Likelihood::rowScores), bounds it. So
//   q(D) = score' D - 1/2 sum_r c_r D_r^2,  D = X delta + alpha_s(r),
// under-estimates the log-likelihood's change near beta. alpha (one per stratum) is free
// because the partial likelihoods do not change when a stratum's eta shifts; maximizing over
// it keeps q below the change and removes the bound's excess along the constant direction,
// which would otherwise make every covariate with a large mean (age, uncentered) look far
// more curved than it is. Its coordinate steps cost O(nnz_j): the gradient sums x (t_r -
// c_r alpha_s(r)) with t = score - c (X delta), the curvature sum c x^2 less, per stratum,
// (sum c x)^2 / C_s (alpha re-maximized with the coordinate), and a step updates t on the
// column's rows and alpha on its strata.
//
// The loop. A step of q with the log prior from beta (BoundSteps::propose: the host's one
// Gauss-Seidel sweep, newtonStep's Laplace and normal rules, a step is cheap, so the model is
// renewed rather than solved; a device's accelerated all-coordinates passes, solver/
// bound_steps.h), then beta + delta is taken if the log posterior rose, a longer step along
// delta where a parabola through the log-likelihood says so (coordinates the step set to 0
// stay there), else half of delta (up to four times), else the start ends where it stands.
// It stops when the convergence rule's measure between two accepted points is a tenth of the
// tolerance, or when two steps in a row gain more than 0.7 of the previous step's gain (slow
// progress: the exact cycles take over). Where it ended on the rule, fitCcd() runs the
// optimality check at once: a pass certifies the fit with no exact cycle (one exact cycle of
// Fine-Gray at N = 1e6 with continuous times costs as much as the whole start); otherwise, or
// after slow steps, the exact cycles run as always. A SUCCESS is certified the same way
// either way. The bound's formulas are models/separable_bound.h's.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "data/dataset.h"
#include "solver/bound_steps.h"
#include "solver/convergence.h"
#include "solver/cycle_runner.h"

namespace argus {

struct MajorizedStartResult {
  bool used = false;     // the runner offered its bound (row scores, or steps of its own)
  int steps = 0;         // accepted outer steps
  int sweeps = 0;        // inner passes: host sweeps, or a device's all-coordinates steps
  bool ruleMet = false;  // ended on the convergence rule (not on slow or failed steps)
  CycleReadout readout;  // at state.beta, where the runner stands
};

// When fitCcd() takes the start: never, where it pays (majorizedStartPays), or wherever the
// runner offers row scores (tests).
enum class MajorizedStartRule { Never, Auto, Always };
// "never", "auto", "always"; anything else is an error.
MajorizedStartRule parseMajorizedStartRule(const std::string& name);

// Whether the start pays for a fit from `state`: an exact cycle's cost
// (Likelihood::exactCycleCost over the free columns) at least that of the 2.5 sweeps the start
// takes for what a cycle does. Cox with continuous times (slots ~ N / 2): yes; Cox with whole
// days at N = 1e5 (about 500 slots): no, there a cycle costs about two sweeps; Fine-Gray:
// yes (its scans cost about twice Cox's per entry). Measured in bench/RESULTS.md.
bool majorizedStartPays(const CycleRunner& runner, const Dataset& data, const CycleState& state);

struct MajorizedStartOptions {
  ConvergenceType convergence = ConvergenceType::Gradient;
  double tolerance = 1e-6;
  // Threads split the coordinate steps of columns with more than 2 pieceEntries entries into
  // up to 4 pieces fixed by the column, combined in piece order: results depend on the
  // pieces, never on the threads. The tests shrink pieceEntries to cut small columns.
  int threads = 1;
  std::int64_t pieceEntries = 8192;
  int maxSteps = 100;
  // Called, where set, after each accepted step with the steps taken and the readout there:
  // the fit's progress reports (ccd_fit.h).
  std::function<void(int steps, const CycleReadout& at)> afterStep;
};

class ProgressSink;

// One fit's start, step by step: after each proposal of its steps (BoundSteps::propose, made
// at the beta where the runner stands), take() searches along it on the log posterior, takes
// the step or not, and applies the stopping rules; false where the start ends there. So a
// batch of fits (solver/batched_start.h) advances in lockstep, each fit's loop its own.
class MajorizedStartLoop {
 public:
  MajorizedStartLoop(CycleState& state, const CycleReadout& at, const MajorizedStartOptions& options,
                     BoundSteps& steps);
  bool take(const BoundSteps::Proposal& proposal);
  // So far: used (a proposal was taken), steps, sweeps, ruleMet, the readout where it stands.
  const MajorizedStartResult& result() const { return result_; }

 private:
  CycleState& state_;
  const MajorizedStartOptions& options_;
  BoundSteps& steps_;
  MajorizedStartResult result_;
  double objective_;
  double lastGain_ = INFINITY;
  int slowSteps_ = 0;
};

// Starts from state.beta, where the runner stands (after reset(), whose readout is `at`), with
// the runner's steps (CycleRunner::boundSteps) or else the host's (host_bound_steps.h).
// `progress` (may be null) is asked for interrupts every 64 coordinates of a sweep, and at
// every pass of a device's steps.
MajorizedStartResult majorizedStart(CycleRunner& runner, const Dataset& data, CycleState& state,
                                    const CycleReadout& at, const MajorizedStartOptions& options,
                                    ProgressSink* progress);

}  // namespace argus
