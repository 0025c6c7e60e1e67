#include "solver/overshoot_guard.h"

#include <algorithm>
#include <cmath>

#include "data/column.h"
#include "solver/ccd_solver.h"

namespace argus {

OvershootGuard::OvershootGuard(const DesignView& design, double logPosterior)
    : maxAbs_(design.nColumns()), known_(std::isfinite(logPosterior) ? logPosterior : -INFINITY) {
  for (std::size_t j = 0; j < maxAbs_.size(); ++j) maxAbs_[j] = columnMaxAbs(design.columns[j]);
}

void OvershootGuard::known(const CycleReadout& readout, const CycleState& state) {
  const double value = readout.logLikelihood + logPriorTotal(state.beta, state.prior);
  known_ = std::isfinite(value) ? value : -INFINITY;
}

bool OvershootGuard::keep(CycleRunner& runner, CycleState& state, const CycleReadout& cycle,
                          bool hasLogLikelihood, CycleReadout* undone) {
  double largest = 0.0;
  for (std::size_t j = 0; j < before_.size(); ++j)
    largest = std::max(largest, std::fabs(state.beta[j] - before_[j]) * maxAbs_[j]);
  const bool undefined = !std::isfinite(cycle.weightedOutcomeEta) || !std::isfinite(cycle.sumAbsEta) ||
                         (hasLogLikelihood && !std::isfinite(cycle.logLikelihood));
  if (!(largest > kLargeMove) && !undefined) return true;
  const double logLikelihood = hasLogLikelihood ? cycle.logLikelihood : runner.logLikelihood(state);
  const double value = logLikelihood + logPriorTotal(state.beta, state.prior);
  // Rounding of the running sums is ~1e-14 relative: a loss below that is no loss.
  const double slack = 1e-12 * (1.0 + std::fabs(known_));
  if (std::isfinite(value) && !(value < known_ - slack)) {
    known_ = std::max(known_, value);
    return true;
  }
  if (!std::isfinite(known_)) return true;  // nothing to go back to: the solver judges it
  for (std::size_t j = 0; j < before_.size(); ++j) {
    const double moved = std::fabs(state.beta[j] - before_[j]);
    if (moved > 0.0) state.bound[j] = 0.25 * std::min(state.bound[j], moved);
  }
  state.beta = before_;
  *undone = runner.reset(state);
  return false;
}

}  // namespace argus
