#include "solver/majorized_start.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/errors.h"
#include "solver/bound_steps.h"
#include "solver/ccd_solver.h"
#include "solver/host_bound_steps.h"

namespace argus {

namespace {

constexpr int kHalvings = 4;
constexpr double kLongestStep = 8.0;
// The start takes about 2.5 steps (sweeps) for what an exact cycle does (benchmark designs).
constexpr double kStepsPerCycle = 2.5;
// Finish when the rule's measure between two steps is this far below the tolerance, so that
// the first exact cycle usually meets the rule itself.
constexpr double kFinish = 0.1;

double logPosterior(const CycleReadout& r, const std::vector<double>& beta,
                    const std::vector<CoordinatePrior>& prior) {
  return r.logLikelihood + logPriorTotal(beta, prior);
}

// The step length s in [1, kLongestStep] that maximizes the log posterior along delta when the
// log-likelihood is the parabola through L(0) with slope `slope` and L(1): the model's bound
// is often too curved along the step (its excess over the exact curvature), and the parabola
// measures by how much.
double longerStep(double l0, double l1, double slope, const std::vector<double>& beta,
                  const std::vector<double>& delta, const std::vector<unsigned char>& zeroed,
                  const std::vector<CoordinatePrior>& prior) {
  const double curvature = 2.0 * (l0 + slope - l1);  // minus the second derivative
  double best = 1.0, bestValue = -INFINITY;
  std::vector<double> point(beta.size());
  for (double s = 1.0; s <= kLongestStep; s += 0.25) {
    for (std::size_t j = 0; j < beta.size(); ++j) point[j] = zeroed[j] ? 0.0 : beta[j] + s * delta[j];
    const double value = s * slope - 0.5 * s * s * curvature + logPriorTotal(point, prior);
    if (value > bestValue) {
      bestValue = value;
      best = s;
    }
  }
  return best;
}

// The whole step, a longer one where the parabola through L(0) (`l0`, with `slope`) and L(1)
// says so, or halves of it: false where none reaches `objective` (beta then back).
bool search(BoundSteps& steps, CycleState& state, double l0, double slope, double objective,
            CycleReadout* readout, double* value) {
  *readout = steps.at(state, 1.0);
  *value = logPosterior(*readout, state.beta, state.prior);
  if (std::isfinite(*value) && *value >= objective) {
    const double s = longerStep(l0, readout->logLikelihood, slope, steps.from(), steps.delta(), steps.zeroed(),
                                state.prior);
    if (s > 1.0) {
      const CycleReadout longer = steps.at(state, s);
      const double longerValue = logPosterior(longer, state.beta, state.prior);
      if (std::isfinite(longerValue) && longerValue > *value) {
        *readout = longer;
        *value = longerValue;
      } else {
        *readout = steps.at(state, 1.0);
      }
    }
    return true;
  }
  double s = 1.0;
  for (int half = 0; half < kHalvings && !(std::isfinite(*value) && *value >= objective); ++half) {
    s *= 0.5;
    *readout = steps.at(state, s);
    *value = logPosterior(*readout, state.beta, state.prior);
  }
  if (std::isfinite(*value) && *value >= objective) return true;
  state.beta = steps.from();
  return false;
}

}  // namespace

std::unique_ptr<BoundSteps> CycleRunner::boundSteps() { return nullptr; }

MajorizedStartRule parseMajorizedStartRule(const std::string& name) {
  if (name == "never") return MajorizedStartRule::Never;
  if (name == "auto") return MajorizedStartRule::Auto;
  if (name == "always") return MajorizedStartRule::Always;
  throw ArgusError("unknown majorizedStart '" + name + "'; expected auto, always or never");
}

bool majorizedStartPays(const CycleRunner& runner, const Dataset& data, const CycleState& state) {
  const Likelihood::ExactCycleCost cost = runner.exactCycleCost();
  double entries = 0.0, cycle = 0.0;
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    if (state.fixed[j]) continue;
    const double e = static_cast<double>(entryPositions(data.design.columns[j], data.nRows()));
    entries += e;
    cycle += cost.perEntry * e + cost.perSlot * static_cast<double>(cost.slots);
  }
  return cycle > 0.0 && cycle >= kStepsPerCycle * entries;
}

MajorizedStartLoop::MajorizedStartLoop(CycleState& state, const CycleReadout& at, const MajorizedStartOptions& options,
                                       BoundSteps& steps)
    : state_(state), options_(options), steps_(steps), objective_(logPosterior(at, state.beta, state.prior)) {
  result_.readout = at;
}

bool MajorizedStartLoop::take(const BoundSteps::Proposal& proposal) {
  result_.used = true;
  result_.sweeps += proposal.passes;
  if (proposal.move == 0.0) return false;
  steps_.beginTrials(state_);
  CycleReadout readout;
  double value = 0.0;
  if (!search(steps_, state_, result_.readout.logLikelihood, proposal.slope, objective_, &readout, &value))
    return false;
  ++result_.steps;
  // The readouts of a trial hold no eta change: the "zhang" rule's is the step's.
  readout.sumAbsEtaChange = steps_.etaChange();
  const double measure = convergenceMeasure(options_.convergence, result_.readout, readout,
                                            logPriorTotal(steps_.from(), state_.prior),
                                            logPriorTotal(state_.beta, state_.prior));
  result_.readout = readout;
  if (options_.afterStep) options_.afterStep(result_.steps, readout);
  const double gain = value - objective_;
  objective_ = value;
  if (measure <= kFinish * options_.tolerance) {
    result_.ruleMet = true;
    return false;
  }
  // Progress slower than the exact cycles': hand over to them.
  slowSteps_ = gain > 0.7 * lastGain_ ? slowSteps_ + 1 : 0;
  if (slowSteps_ >= 2) return false;
  lastGain_ = gain;
  return true;
}

MajorizedStartResult majorizedStart(CycleRunner& runner, const Dataset& data, CycleState& state,
                                    const CycleReadout& at, const MajorizedStartOptions& options,
                                    ProgressSink* progress) {
  std::unique_ptr<BoundSteps> steps = runner.boundSteps();
  if (!steps) steps = makeHostBoundSteps(runner, data, options);
  MajorizedStartLoop loop(state, at, options, *steps);
  for (int step = 0; step < options.maxSteps; ++step) {
    if (!steps->load()) break;
    if (!loop.take(steps->propose(state, progress))) break;
  }
  MajorizedStartResult result = loop.result();
  // Where the cycles start: X beta recomputed, not the sums of the steps.
  if (result.used) result.readout = runner.reset(state);
  return result;
}

}  // namespace argus
