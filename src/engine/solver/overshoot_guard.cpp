#include "solver/overshoot_guard.h"

#include <algorithm>
#include <cmath>

#include "solver/ccd_solver.h"

namespace argus {

OvershootGuard::OvershootGuard(const std::vector<double>& maxAbs, double logPosterior)
    : maxAbs_(maxAbs), known_(std::isfinite(logPosterior) ? logPosterior : -INFINITY) {}

bool OvershootGuard::keep(CycleRunner& runner, CycleState& state, const CycleReadout& cycle,
                          bool hasLogLikelihood, CycleReadout* undone) {
  double largest = 0.0;
  for (std::size_t j = 0; j < before_.size(); ++j)
    largest = std::fmax(largest, std::fabs(state.beta[j] - before_[j]) * maxAbs_[j]);
  const bool undefined = !std::isfinite(cycle.weightedOutcomeEta) || !std::isfinite(cycle.sumAbsEta) ||
                         (hasLogLikelihood && !std::isfinite(cycle.logLikelihood));
  if (!(largest > kLargeMove) && !undefined) return true;
  const double logLikelihood = hasLogLikelihood ? cycle.logLikelihood : runner.logLikelihood(state);
  const double value = logLikelihood + logPriorTotal(state.beta, state.prior);
  // A loss within this is no loss: the sums' rounding is ~1e-14 of |L| where L is large, but
  // of its terms where they cancel (a separated clr fit's L is -1e-13 from terms of ~1e3,
  // and cycles that moved nothing of substance were undone on noise, the refit running to
  // maxIterations). An overshoot worth undoing loses orders of magnitude more.
  const double slack = 1e-9 * (1.0 + std::fabs(known_));
  if (std::isfinite(value) && !(value < known_ - slack)) {
    known_ = std::max(known_, value);
    undefinedUndos_ = 0;
    return true;
  }
  // Nothing to go back to, or undone often enough: the solver judges it (ILLCONDITIONED).
  if (!std::isfinite(known_)) return true;
  if (!std::isfinite(value) && ++undefinedUndos_ > kMaxUndefinedUndos) return true;
  if (std::isfinite(value)) undefinedUndos_ = 0;
  for (std::size_t j = 0; j < before_.size(); ++j) {
    // A NaN move shrinks too (std::min keeps the bound then): else the same cycle repeats.
    const double moved = std::fabs(state.beta[j] - before_[j]);
    if (!(moved == 0.0)) state.bound[j] = 0.25 * std::min(state.bound[j], moved);
  }
  state.beta = before_;
  *undone = runner.reset(state);
  return false;
}

}  // namespace argus
