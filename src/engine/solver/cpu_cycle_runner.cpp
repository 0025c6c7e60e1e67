#include "solver/cpu_cycle_runner.h"

#include <cmath>

namespace argus {

CpuCycleRunner::CpuCycleRunner(const Dataset& data, const double* weights)
    : likelihood_(makeLikelihood(data, weights)) {}

CycleReadout CpuCycleRunner::reset(const CycleState& state) {
  likelihood_->reset(state.beta);
  etaBefore_ = likelihood_->eta();
  return readout(0, ReadoutNeeds{});
}

CycleReadout CpuCycleRunner::runCycle(CycleState& state, const CyclePlan& plan,
                                      const ReadoutNeeds& needs) {
  const std::int32_t f = plan.follower;
  const bool follow = f >= 0 && !state.fixed[f] && likelihood_->tracksGradHess(f);
  std::int64_t moved = 0;
  for (const std::int32_t j : plan.coordinates) {
    if (state.fixed[j]) continue;
    const GradHess gh = likelihood_->gradHess(j);
    double delta = newtonStep(gh, state.beta[j], state.prior[j]);
    delta = trustRegionStep(delta, &state.bound[j]);
    if (delta == 0.0) continue;
    state.beta[j] += delta;
    likelihood_->applyStep(j, delta);
    ++moved;
    if (!follow || j == f) continue;
    // The follower (CyclePlan) re-steps from the likelihood's O(1) estimate of its g, h.
    const GradHess gf = likelihood_->gradHessEstimate(f);
    const double step =
        followerStep(newtonStep(gf, state.beta[f], state.prior[f]), &state.bound[f]);
    if (step == 0.0) continue;
    state.beta[f] += step;
    likelihood_->applyStep(f, step);
  }
  likelihood_->refreshSums();
  return readout(moved, needs);
}

CycleReadout CpuCycleRunner::readout(std::int64_t moved, const ReadoutNeeds& needs) {
  CycleReadout out;
  if (needs.logLikelihood) out.logLikelihood = likelihood_->logLikelihood();
  if (needs.weightedOutcomeEta) out.weightedOutcomeEta = likelihood_->weightedOutcomeEta();
  if (needs.etaChange) {
    const std::vector<double>& eta = likelihood_->eta();
    for (std::size_t r = 0; r < eta.size(); ++r) {
      out.sumAbsEta += std::fabs(eta[r]);
      out.sumAbsEtaChange += std::fabs(eta[r] - etaBefore_[r]);
    }
    etaBefore_ = eta;
  }
  out.coordinatesMoved = moved;
  return out;
}

}  // namespace argus
