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
    for (std::size_t c = i + 1; c < k; ++c)
      info[i * k + c] = info[c * k + i] = 0.5 * (info[i * k + c] + info[c * k + i]);
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
// alike both ways. The coordinates flagged are those the direction moves (eta by at least
// kShare of the largest coordinate's move; judged on the correlation scale, a rare level that
// runs off with the others looked small): a finite coefficient beside them (age beside a
// factor whose reference level has no events) is not.
// Probes nothing where the block cannot be trusted: an entry not finite, or a diagonal entry
// more than 10% off the coordinate's analytic curvature (`curvature`). Where every row is
// saturated (complete separation, eta of 25 and more), a step of 1e-5 in eta moves the
// gradient by less than its rounding, and the differences are noise.
void probeFlatDirections(CycleRunner& runner, const CycleState& state,
                         const std::vector<std::int32_t>& far, const std::vector<double>& maxAbs,
                         const std::vector<double>& curvature, double logLikelihood,
                         std::vector<std::int32_t>* flagged) {
  constexpr double kFlat = 1e-3;
  constexpr std::size_t kMaxDirections = 3;
  constexpr double kShare = 0.05;
  constexpr double kDiagonalAgreement = 0.1;
  const std::size_t k = far.size();
  const std::vector<double> info = farInformation(runner, state, far, maxAbs);
  for (const double v : info)
    if (!std::isfinite(v)) return;
  std::vector<double> scale(k), correlation(k * k);
  for (std::size_t i = 0; i < k; ++i) {
    const double diagonal = info[i * k + i], analytic = curvature[far[i]];
    if (!(diagonal > 0.0) || !(std::fabs(diagonal - analytic) <= kDiagonalAgreement * analytic)) return;
    scale[i] = 1.0 / std::sqrt(diagonal);
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = 0; c < k; ++c) correlation[i * k + c] = info[i * k + c] * scale[i] * scale[c];
  const SymmetricEigen eigen = symmetricEigen(correlation, k);
  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  CycleState trial = state;
  for (std::size_t e = 0; e < std::min(k, kMaxDirections) && eigen.values[e] < kFlat; ++e) {
    std::vector<double> d(k);
    double reach = 0.0, largest = 0.0;  // largest: of a coordinate's move of eta
    for (std::size_t i = 0; i < k; ++i) {
      d[i] = eigen.vectors[i * k + e] * scale[i];
      reach += std::fabs(d[i]) * maxAbs[far[i]];
      largest = std::fmax(largest, std::fabs(d[i]) * maxAbs[far[i]]);
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
        if (std::fabs(d[i]) * maxAbs[far[i]] >= kShare * largest) flagged->push_back(far[i]);
      break;
    }
  }
}

// Where the block found nothing: the combination along the fit's recent move (beta minus
// beta 8 to 16 cycles before; the finite coefficients have settled by then), scaled to reach
// kProbeEta; where it does not drop, it is also taken backwards, and a
// combination whose way back drops measurably but less than twice the way on is a valley at a
// finite maximum, not a recession. Every far coordinate that moved is flagged.
void probeRecentMove(CycleRunner& runner, const CycleState& state, const std::vector<std::int32_t>& far,
                     const std::vector<double>& maxAbs, const std::vector<double>& recentMove,
                     const std::vector<double>& curvature, double logLikelihood,
                     std::vector<std::int32_t>* flagged) {
  double reach = 0.0;  // an upper bound of max_r |sum_j x_rj move_j|
  for (const std::int32_t j : far) reach += std::fabs(recentMove[j]) * maxAbs[j];
  if (!(reach > 0.0)) return;
  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  CycleState trial = state;
  double predicted = 0.0;  // the diagonal part of the curvature along the move
  for (const std::int32_t j : far) {
    const double t = recentMove[j] * (kProbeEta / reach);
    trial.beta[j] += t;
    predicted += 0.5 * curvature[j] * t * t;
  }
  const double onwardValue = runner.reset(trial).logLikelihood;
  const double allowed = std::fmax(kShareOfPredictedDrop * predicted, rounding);
  if (!(std::isfinite(onwardValue) && onwardValue >= logLikelihood - allowed)) return;
  const double onward = logLikelihood - onwardValue;
  for (const std::int32_t j : far) trial.beta[j] = state.beta[j] - (trial.beta[j] - state.beta[j]);
  const double back = logLikelihood - runner.reset(trial).logLikelihood;
  if (back > rounding && !(onward < 0.5 * back)) return;  // a valley
  for (const std::int32_t j : far)
    if (recentMove[j] != 0.0) flagged->push_back(j);
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
  // Combinations: the flat eigen-directions where no coordinate recedes alone; then, where
  // they found nothing beyond the single probes (a block of saturated rows is rounding noise,
  // and under complete separation one coordinate of x1 - x2 may pass alone while the other,
  // at -3977, does not), the fit's recent move over all far coordinates.
  if (far.size() >= 2 && flagged.size() < far.size()) {
    const std::size_t alone = flagged.size();
    if (alone == 0) probeFlatDirections(runner, state, far, maxAbs, curvature, logLikelihood, &flagged);
    if (flagged.size() == alone)
      probeRecentMove(runner, state, far, maxAbs, recentMove, curvature, logLikelihood, &flagged);
  }
  runner.reset(state);
  std::sort(flagged.begin(), flagged.end());
  flagged.erase(std::unique(flagged.begin(), flagged.end()), flagged.end());
  return flagged;
}

}  // namespace argus
