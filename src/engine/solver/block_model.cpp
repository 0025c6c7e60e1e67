#include "solver/block_model.h"

#include <cmath>

#include "common/errors.h"
#include "solver/dense_block.h"

namespace argus {

namespace {

constexpr int kMaxRounds = 200;
// A Laplace zero joins only when its model gradient beats lambda by more than rounding.
constexpr double kJoinSlack = 1e-12;

double signOf(double v) { return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0); }

// The model's gradient at d: c - M d.
void modelGradient(const BlockModel& model, const std::vector<double>& d,
                   std::vector<double>& gradient) {
  const std::size_t k = d.size();
  for (std::size_t a = 0; a < k; ++a) {
    double g = model.c[a];
    for (std::size_t b = 0; b < k; ++b) g -= model.m[a * k + b] * d[b];
    gradient[a] = g;
  }
}

}  // namespace

BlockModelSolution solveBlockModel(const BlockModel& model, double aliasTolerance) {
  const std::size_t k = model.c.size();
  ARGUS_REQUIRE(model.m.size() == k * k && model.beta.size() == k && model.lambda.size() == k,
                "block model sizes differ");
  // Work on the unit-diagonal scale: u = s d with s = sqrt(diag M), so that pivots and
  // tolerances mean the same for every column.
  std::vector<double> s(k);
  for (std::size_t a = 0; a < k; ++a) s[a] = model.m[a * k + a] > 0.0 ? std::sqrt(model.m[a * k + a]) : 0.0;
  BlockModelSolution out;
  out.delta.assign(k, 0.0);
  std::vector<double>& d = out.delta;  // the move, worked on in place
  std::vector<double> gradient(k);
  auto laplace = [&](std::size_t a) { return model.lambda[a] > 0.0; };
  std::vector<unsigned char> active(k, 0);
  modelGradient(model, d, gradient);
  for (std::size_t a = 0; a < k; ++a)
    active[a] = s[a] > 0.0 && (!laplace(a) || model.beta[a] != 0.0 ||
                               std::fabs(gradient[a]) > model.lambda[a] * (1.0 + kJoinSlack));
  std::vector<double> side(k, 0.0);
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<std::size_t> set;
    for (std::size_t a = 0; a < k; ++a)
      if (active[a]) set.push_back(a);
    if (set.empty()) break;
    // Signs: a nonzero coefficient's own; a zero's from its model gradient.
    for (const std::size_t a : set) {
      const double b = model.beta[a] + d[a];
      side[a] = laplace(a) ? (b != 0.0 ? signOf(b) : signOf(gradient[a])) : 0.0;
    }
    // Maximize over the active set with the others held: M_AA d_A = c_A - lambda s_A - M_AI d_I.
    const std::size_t n = set.size();
    std::vector<double> system(n * n), rhs(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t a = set[i];
      double r = model.c[a] - model.lambda[a] * side[a];
      for (std::size_t b = 0; b < k; ++b)
        if (!active[b]) r -= model.m[a * k + b] * d[b];
      rhs[i] = r / s[a];
      for (std::size_t j = 0; j < n; ++j)
        system[i * n + j] = model.m[a * k + set[j]] / (s[a] * s[set[j]]);
    }
    const std::vector<double> z = solveFactored(factorSkippingAliased(system, n, aliasTolerance), rhs);
    // Walk towards the target; stop where the first Laplace coordinate would change sign.
    double alpha = 1.0;
    std::size_t blocking = k;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t a = set[i];
      if (!laplace(a)) continue;
      const double now = model.beta[a] + d[a], target = model.beta[a] + z[i] / s[a];
      if (target * side[a] >= 0.0) continue;
      const double reach = now * side[a] > 0.0 ? now / (now - target) : 0.0;
      if (reach < alpha) {
        alpha = reach;
        blocking = a;
      }
    }
    for (std::size_t i = 0; i < n; ++i) d[set[i]] += alpha * (z[i] / s[set[i]] - d[set[i]]);
    if (blocking < k) {
      d[blocking] = -model.beta[blocking];  // exactly 0, and out of the active set
      active[blocking] = 0;
      modelGradient(model, d, gradient);
      continue;
    }
    modelGradient(model, d, gradient);
    // Optimal on the active set: let in the Laplace zero that violates most, if any.
    std::size_t join = k;
    double worst = 0.0;
    for (std::size_t a = 0; a < k; ++a) {
      if (active[a] || !laplace(a) || !(s[a] > 0.0) || model.beta[a] + d[a] != 0.0) continue;
      const double excess = std::fabs(gradient[a]) - model.lambda[a] * (1.0 + kJoinSlack);
      if (excess > worst) {
        worst = excess;
        join = a;
      }
    }
    if (join == k) break;
    active[join] = 1;
  }
  for (std::size_t a = 0; a < k; ++a) {
    const double penalty = model.lambda[a] * (std::fabs(model.beta[a] + d[a]) - std::fabs(model.beta[a]));
    out.linearGain += model.c[a] * d[a] - penalty;
    double md = 0.0;
    for (std::size_t b = 0; b < k; ++b) md += model.m[a * k + b] * d[b];
    out.gain += model.c[a] * d[a] - 0.5 * d[a] * md - penalty;
  }
  return out;
}

}  // namespace argus
