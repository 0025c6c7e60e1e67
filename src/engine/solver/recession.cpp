#include "solver/recession.h"

#include <algorithm>
#include <cmath>

#include "solver/symmetric_eigen.h"

namespace argus {

namespace {
// A probe passes (no drop) where the log-likelihood drops by less than this share of what the
// diagonal curvature predicts for the move, or by no more than rounding.
constexpr double kShareOfPredictedDrop = 1e-4;

bool isFar(const CycleState& state, const std::vector<double>& maxAbs, std::size_t j) {
  return !state.fixed[j] && state.prior[j].kind == PriorKind::None && maxAbs[j] > 0.0 &&
         std::fabs(state.beta[j]) * maxAbs[j] >= kFarEta;
}
// The far coordinates' information block, -H_FF (positive semi-definite), by forward
// differences of the analytic gradient (|F| + 1 resets): the step moves eta by at most 1e-5
// per row, so the entries are good to ~1e-5 relative, far inside what the eigenvalue gate
// below tells apart (kFlat; a borderline direction only costs a probe that clears it).
std::vector<double> farInformation(CycleRunner& runner, const CycleState& state,
                                   const std::vector<std::int32_t>& far,
                                   const std::vector<double>& maxAbs) {
  const std::size_t k = far.size();
  std::vector<double> info(k * k, 0.0), base(k);
  runner.reset(state);
  for (std::size_t i = 0; i < k; ++i) base[i] = runner.gradHess(far[i]).g;
  CycleState trial = state;
  for (std::size_t c = 0; c < k; ++c) {
    const std::int32_t j = far[c];
    const double step = 1e-5 / maxAbs[j];
    trial.beta = state.beta;
    trial.beta[j] += step;
    runner.reset(trial);
    for (std::size_t i = 0; i < k; ++i) info[i * k + c] = -(runner.gradHess(far[i]).g - base[i]) / step;
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = i + 1; c < k; ++c) info[i * k + c] = info[c * k + i] = 0.5 * (info[i * k + c] + info[c * k + i]);
  return info;
}

// Recession along a combination of the far coordinates (x1 - x2 separating; the reference
// level of a factor without events: the intercept to -inf, every other level to +inf). Along
// such a direction the curvature vanishes while each coordinate's own does not, so it is an
// eigenvector of the far block's information on the correlation scale (D^-1/2 I D^-1/2, D its
// diagonal) with a tiny eigenvalue. Each eigenvector with eigenvalue below kFlat (at most
// kMaxDirections, smallest first) is probed both ways, reaching kProbeEta in eta: a direction
// of recession costs nothing one way (less than 1e-4 of the diagonal's predicted drop) and
// measurably more than twice that the other way; a valley of correlated coefficients at a
// finite maximum (an intercept beside an uncentred calendar year: tiny eigenvalue too) drops
// alike both ways. The coordinates flagged are those the direction moves (a scaled component
// of at least kShare of its largest): a finite coefficient beside them (age beside a factor
// whose reference level has no events) is not.
std::vector<std::int32_t> probeFlatDirections(CycleRunner& runner, const CycleState& state,
                                              const std::vector<std::int32_t>& far,
                                              const std::vector<double>& maxAbs, double logLikelihood) {
  constexpr double kFlat = 1e-3;
  constexpr std::size_t kMaxDirections = 3;
  constexpr double kShare = 0.05;
  const std::size_t k = far.size();
  const std::vector<double> info = farInformation(runner, state, far, maxAbs);
  std::vector<double> scale(k), correlation(k * k);
  for (std::size_t i = 0; i < k; ++i) {
    if (!(info[i * k + i] > 0.0) || !std::isfinite(info[i * k + i])) return {};
    scale[i] = 1.0 / std::sqrt(info[i * k + i]);
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = 0; c < k; ++c) correlation[i * k + c] = info[i * k + c] * scale[i] * scale[c];
  const SymmetricEigen eigen = symmetricEigen(correlation, k);
  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  std::vector<std::int32_t> flagged;
  CycleState trial = state;
  for (std::size_t e = 0; e < std::min(k, kMaxDirections) && eigen.values[e] < kFlat; ++e) {
    std::vector<double> d(k);
    double reach = 0.0, largest = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      d[i] = eigen.vectors[i * k + e] * scale[i];
      reach += std::fabs(d[i]) * maxAbs[far[i]];
      largest = std::fmax(largest, std::fabs(eigen.vectors[i * k + e]));
    }
    if (!(reach > 0.0)) continue;
    double predicted = 0.0;  // the diagonal part of the curvature along the move
    for (std::size_t i = 0; i < k; ++i) {
      d[i] *= kProbeEta / reach;
      predicted += 0.5 * info[i * k + i] * d[i] * d[i];
    }
    double drop[2];
    for (int side = 0; side < 2; ++side) {
      trial.beta = state.beta;
      for (std::size_t i = 0; i < k; ++i) trial.beta[far[i]] += side == 0 ? d[i] : -d[i];
      const double value = runner.reset(trial).logLikelihood;
      drop[side] = std::isfinite(value) ? logLikelihood - value : INFINITY;
    }
    const double allowed = std::fmax(kShareOfPredictedDrop * predicted, rounding);
    for (int side = 0; side < 2; ++side) {
      const double onward = drop[side], back = drop[1 - side];
      if (!(onward <= allowed && back > rounding && onward < 0.5 * back)) continue;
      for (std::size_t i = 0; i < k; ++i)
        if (std::fabs(eigen.vectors[i * k + e]) >= kShare * largest) flagged.push_back(far[i]);
      break;
    }
  }
  std::sort(flagged.begin(), flagged.end());
  flagged.erase(std::unique(flagged.begin(), flagged.end()), flagged.end());
  return flagged;
}

}  // namespace

bool hasFarCoefficient(const CycleState& state, const std::vector<double>& maxAbs) {
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) return true;
  return false;
}

std::vector<std::int32_t> findRecession(CycleRunner& runner, const CycleState& state,
                                        const std::vector<double>& maxAbs) {
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

  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  // The runner stands at state.beta: each far coordinate's curvature there.
  std::vector<double> curvature(state.beta.size(), 0.0);
  for (const std::int32_t j : far) curvature[j] = std::fabs(runner.gradHess(j).h);
  CycleState trial = state;
  // Whether the log-likelihood at trial.beta drops by less than `predicted` allows.
  auto doesNotDrop = [&](double predicted) {
    const double value = runner.reset(trial).logLikelihood;
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
    const std::vector<std::int32_t> combination = probeFlatDirections(runner, state, far, maxAbs, logLikelihood);
    flagged.insert(flagged.end(), combination.begin(), combination.end());
  }
  runner.reset(state);
  std::sort(flagged.begin(), flagged.end());
  return flagged;
}

}  // namespace argus
