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

bool isLaplace(const BlockModel& model, std::size_t a) { return model.lambda[a] > 0.0; }

// The maximum over the active set `set` with the others held, on the unit-diagonal scale:
// M_AA d_A = c_A - lambda side_A - M_AI d_I, solved for z = s_A d_A.
std::vector<double> activeSetTarget(const BlockModel& model, const std::vector<double>& s,
                                    const std::vector<std::size_t>& set, const std::vector<unsigned char>& active,
                                    const std::vector<double>& side, const std::vector<double>& d,
                                    double aliasTolerance) {
  const std::size_t k = s.size(), n = set.size();
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
  return solveFactored(factorSkippingAliased(system, n, aliasTolerance), rhs);
}

// Walks d towards the target z of the active set, stopping where the first Laplace coordinate
// would change sign; returns that coordinate (k: none blocked).
std::size_t walkTowards(const BlockModel& model, const std::vector<double>& s, const std::vector<std::size_t>& set,
                        const std::vector<double>& side, const std::vector<double>& z, std::vector<double>& d) {
  const std::size_t k = s.size(), n = set.size();
  double alpha = 1.0;
  std::size_t blocking = k;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t a = set[i];
    if (!isLaplace(model, a)) continue;
    const double now = model.beta[a] + d[a], target = model.beta[a] + z[i] / s[a];
    if (target * side[a] >= 0.0) continue;
    const double reach = now * side[a] > 0.0 ? now / (now - target) : 0.0;
    if (reach < alpha) {
      alpha = reach;
      blocking = a;
    }
  }
  for (std::size_t i = 0; i < n; ++i) d[set[i]] += alpha * (z[i] / s[set[i]] - d[set[i]]);
  return blocking;
}

// The Laplace zero outside the active set whose model gradient exceeds lambda most (k: none).
std::size_t mostViolatingZero(const BlockModel& model, const std::vector<double>& s,
                              const std::vector<unsigned char>& active, const std::vector<double>& d,
                              const std::vector<double>& gradient) {
  const std::size_t k = s.size();
  std::size_t join = k;
  double worst = 0.0;
  for (std::size_t a = 0; a < k; ++a) {
    if (active[a] || !isLaplace(model, a) || !(s[a] > 0.0) || model.beta[a] + d[a] != 0.0) continue;
    const double excess = std::fabs(gradient[a]) - model.lambda[a] * (1.0 + kJoinSlack);
    if (excess > worst) {
      worst = excess;
      join = a;
    }
  }
  return join;
}

// q(d) and its first-order part, into `out`.
void addGains(const BlockModel& model, const std::vector<double>& d, BlockModelSolution* out) {
  const std::size_t k = d.size();
  for (std::size_t a = 0; a < k; ++a) {
    const double penalty = model.lambda[a] * (std::fabs(model.beta[a] + d[a]) - std::fabs(model.beta[a]));
    out->linearGain += model.c[a] * d[a] - penalty;
    double md = 0.0;
    for (std::size_t b = 0; b < k; ++b) md += model.m[a * k + b] * d[b];
    out->gain += model.c[a] * d[a] - 0.5 * d[a] * md - penalty;
  }
}

}  // namespace

// A primal active set with signs: maximize over the active coordinates, walk towards that
// maximum until a Laplace coordinate reaches 0 (it leaves the set), else let in the Laplace
// zero that violates its condition most; done when none does.
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
  std::vector<unsigned char> active(k, 0);
  modelGradient(model, d, gradient);
  for (std::size_t a = 0; a < k; ++a)
    active[a] = s[a] > 0.0 && (!isLaplace(model, a) || model.beta[a] != 0.0 ||
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
      side[a] = isLaplace(model, a) ? (b != 0.0 ? signOf(b) : signOf(gradient[a])) : 0.0;
    }
    const std::vector<double> z = activeSetTarget(model, s, set, active, side, d, aliasTolerance);
    const std::size_t blocking = walkTowards(model, s, set, side, z, d);
    if (blocking < k) {
      d[blocking] = -model.beta[blocking];  // exactly 0, and out of the active set
      active[blocking] = 0;
      modelGradient(model, d, gradient);
      continue;
    }
    modelGradient(model, d, gradient);
    // Optimal on the active set: let in the Laplace zero that violates most, if any.
    const std::size_t join = mostViolatingZero(model, s, active, d, gradient);
    if (join == k) break;
    active[join] = 1;
  }
  addGains(model, d, &out);
  return out;
}

}  // namespace argus
