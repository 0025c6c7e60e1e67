#include "solver/recession.h"

#include <algorithm>
#include <cmath>

namespace argus {

namespace {
bool isFar(const CycleState& state, const std::vector<double>& maxAbs, std::size_t j) {
  return !state.fixed[j] && state.prior[j].kind == PriorKind::None && maxAbs[j] > 0.0 &&
         std::fabs(state.beta[j]) * maxAbs[j] >= kFarEta;
}
}  // namespace

bool hasFarCoefficient(const CycleState& state, const std::vector<double>& maxAbs) {
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) return true;
  return false;
}

std::vector<std::int32_t> findRecession(CycleRunner& runner, const CycleState& state,
                                        const std::vector<double>& maxAbs,
                                        const std::vector<double>& recentMove) {
  constexpr std::size_t kMaxProbes = 20;
  std::vector<std::int32_t> far;
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) far.push_back(static_cast<std::int32_t>(j));
  if (far.empty()) return {};
  std::sort(far.begin(), far.end(), [&](std::int32_t a, std::int32_t b) {
    return std::fabs(state.beta[a]) * maxAbs[a] > std::fabs(state.beta[b]) * maxAbs[b];
  });
  if (far.size() > kMaxProbes) far.resize(kMaxProbes);
  // The baseline from a reset, as each probe's value: the fit's own final readout is rebuilt
  // from its running state (eta, or the conditional models' u), which differs from X beta by
  // the rounding of the fit's updates, so only two resets compare within the rounding
  // allowance below.
  const double logLikelihood = runner.reset(state).logLikelihood;

  constexpr double kShareOfPredictedDrop = 1e-4;
  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  // The runner stands at state.beta: each far coordinate's curvature there.
  std::vector<double> curvature(state.beta.size(), 0.0);
  for (const std::int32_t j : far) curvature[j] = std::fabs(runner.gradHess(j).h);
  CycleState trial = state;
  // Whether the log-likelihood at trial.beta drops by less than `predicted` allows.
  double lastValue = logLikelihood;  // at the last trial
  auto doesNotDrop = [&](double predicted) {
    const double value = runner.reset(trial).logLikelihood;
    lastValue = value;
    const double allowed = std::fmax(kShareOfPredictedDrop * predicted, rounding);
    return std::isfinite(value) && value >= logLikelihood - allowed;
  };
  std::vector<std::int32_t> flagged;
  for (const std::int32_t j : far) {
    const double t = std::copysign(kProbeEta / maxAbs[j], state.beta[j]);
    trial.beta = state.beta;
    trial.beta[j] += t;
    if (doesNotDrop(0.5 * curvature[j] * t * t)) flagged.push_back(j);
  }
  if (flagged.empty() && far.size() >= 2) {
    double reach = 0.0;  // an upper bound of max_r |sum_j x_rj move_j|
    for (const std::int32_t j : far) reach += std::fabs(recentMove[j]) * maxAbs[j];
    if (reach > 0.0) {
      trial.beta = state.beta;
      double predicted = 0.0;  // the diagonal part of the curvature along the move
      for (const std::int32_t j : far) {
        const double t = recentMove[j] * (kProbeEta / reach);
        trial.beta[j] += t;
        predicted += 0.5 * curvature[j] * t * t;
      }
      // A drop this small also meets the long flat valley of correlated coefficients at a
      // finite maximum (an intercept beside an uncentred calendar year: the fit's recent
      // move runs along it, and the valley's drop was 1e-5 of the diagonal's). The two
      // differ behind the fit: along a recession the way back loses what the run gained,
      // in a valley the log-likelihood drops alike both ways. So the combination is cleared
      // where going back drops it measurably and less than twice as much as going on.
      if (doesNotDrop(predicted)) {
        const double onward = logLikelihood - lastValue;
        for (const std::int32_t j : far) trial.beta[j] = state.beta[j] - (trial.beta[j] - state.beta[j]);
        const double back = logLikelihood - runner.reset(trial).logLikelihood;
        const bool valley = back > rounding && !(onward < 0.5 * back);
        for (const std::int32_t j : far)
          if (!valley && recentMove[j] != 0.0) flagged.push_back(j);
      }
    }
  }
  runner.reset(state);
  std::sort(flagged.begin(), flagged.end());
  return flagged;
}

}  // namespace argus
