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
                                        const std::vector<double>& recentMove, double logLikelihood) {
  constexpr std::size_t kMaxProbes = 20;
  std::vector<std::int32_t> far;
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) far.push_back(static_cast<std::int32_t>(j));
  if (far.empty()) return {};
  std::sort(far.begin(), far.end(), [&](std::int32_t a, std::int32_t b) {
    return std::fabs(state.beta[a]) * maxAbs[a] > std::fabs(state.beta[b]) * maxAbs[b];
  });
  if (far.size() > kMaxProbes) far.resize(kMaxProbes);

  const double slack = 1e-10 * (1.0 + std::fabs(logLikelihood));
  CycleState trial = state;
  auto doesNotDrop = [&]() {
    const double value = runner.reset(trial).logLikelihood;
    return !std::isfinite(value) ? false : value >= logLikelihood - slack;
  };
  std::vector<std::int32_t> flagged;
  for (const std::int32_t j : far) {
    trial.beta = state.beta;
    trial.beta[j] += std::copysign(kProbeEta / maxAbs[j], state.beta[j]);
    if (doesNotDrop()) flagged.push_back(j);
  }
  if (flagged.empty() && far.size() >= 2) {
    double reach = 0.0;  // an upper bound of max_r |sum_j x_rj move_j|
    for (const std::int32_t j : far) reach += std::fabs(recentMove[j]) * maxAbs[j];
    if (reach > 0.0) {
      trial.beta = state.beta;
      for (const std::int32_t j : far) trial.beta[j] += recentMove[j] * (kProbeEta / reach);
      if (doesNotDrop())
        for (const std::int32_t j : far)
          if (recentMove[j] != 0.0) flagged.push_back(j);
    }
  }
  runner.reset(state);
  std::sort(flagged.begin(), flagged.end());
  return flagged;
}

}  // namespace argus
