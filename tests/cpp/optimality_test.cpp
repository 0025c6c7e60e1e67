// The optimality check (priors/optimality.h, CycleRunner::checkOptimality) and its use in
// fitCcd(): a Success is certified by the first-order conditions, not by a small change per
// cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "hand_design.h"
#include "priors/optimality.h"
#include "solver/ccd_solver.h"

namespace argus {
namespace {

using testing_data::HandDesign;

TEST(OptimalityViolation, HandValues) {
  const CoordinatePrior flat{PriorKind::None, 1.0};
  EXPECT_DOUBLE_EQ(optimalityViolation({2.0, -4.0}, 0.3, flat, 1.0), 1.0);   // 2 / sqrt(4)
  EXPECT_DOUBLE_EQ(optimalityViolation({2.0, -4.0}, 0.3, flat, 4.0), 0.5);   // 2 / sqrt(16)
  EXPECT_DOUBLE_EQ(optimalityViolation({-2.0, -4.0}, 0.3, flat, 1.0), 1.0);
  // Normal, variance 0.5, beta 1: G = 2 - 1/0.5 = 0; curvature 4 + 2.
  EXPECT_DOUBLE_EQ(optimalityViolation({2.0, -4.0}, 1.0, {PriorKind::Normal, 0.5}, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(optimalityViolation({3.0, -4.0}, 1.0, {PriorKind::Normal, 0.5}, 1.0),
                   1.0 / std::sqrt(6.0));
  // Laplace, variance 2: lambda = 1. At 0 only the excess of |g| over lambda counts.
  const CoordinatePrior laplace{PriorKind::Laplace, 2.0};
  EXPECT_DOUBLE_EQ(optimalityViolation({0.5, -4.0}, 0.0, laplace, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(optimalityViolation({-1.5, -4.0}, 0.0, laplace, 1.0), 0.25);
  EXPECT_DOUBLE_EQ(optimalityViolation({1.0, -4.0}, 0.7, laplace, 1.0), 0.0);   // g = lambda
  EXPECT_DOUBLE_EQ(optimalityViolation({1.0, -4.0}, -0.7, laplace, 1.0), 1.0);  // g + lambda
  // No curvature: cannot be judged. Non-finite: infinitely far.
  EXPECT_EQ(optimalityViolation({1.0, 0.0}, 0.0, flat, 1.0), 0.0);
  EXPECT_TRUE(std::isinf(optimalityViolation({NAN, -1.0}, 0.0, flat, 1.0)));
}

// Least squares with an intercept and three correlated continuous columns with large means:
// the mtcars shape, where plain CCD zig-zags.
std::unique_ptr<HandDesign> correlatedLeastSquares(std::uint32_t seed, double scaleOfSecond = 1.0) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t n = 60;
  std::vector<double> a(n), b(n), c(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    a[r] = 3.2 + 0.9 * normal(rng);
    b[r] = (150.0 + 40.0 * a[r] + 30.0 * normal(rng)) * scaleOfSecond;
    c[r] = 18.0 - 0.4 * a[r] + 1.5 * normal(rng);
    y[r] = 30.0 - 3.0 * a[r] - 0.02 * b[r] / scaleOfSecond + 0.5 * c[r] + 2.0 * normal(rng);
  }
  auto d = std::make_unique<HandDesign>(ModelType::LeastSquares, y);
  d->addIntercept();
  d->addColumn(ColumnKind::Dense, a);
  d->addColumn(ColumnKind::Dense, b);
  d->addColumn(ColumnKind::Dense, c);
  d->finish();
  return d;
}

// Ordinary least squares from the normal equations (Gaussian elimination, k <= 4).
std::vector<double> olsSolution(const HandDesign& d) {
  const std::size_t k = d.nColumns(), n = d.y.size();
  std::vector<std::vector<double>> a(k, std::vector<double>(k + 1, 0.0));
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t r = 0; r < n; ++r) a[i][j] += d.columns[i][r] * d.columns[j][r];
    for (std::size_t r = 0; r < n; ++r) a[i][k] += d.columns[i][r] * d.y[r];
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t m = i + 1; m < k; ++m) {
      const double f = a[m][i] / a[i][i];
      for (std::size_t j = i; j <= k; ++j) a[m][j] -= f * a[i][j];
    }
  std::vector<double> beta(k);
  for (std::size_t i = k; i-- > 0;) {
    double s = a[i][k];
    for (std::size_t j = i + 1; j < k; ++j) s -= a[i][j] * beta[j];
    beta[i] = s / a[i][i];
  }
  return beta;
}

FitRequest requestFor(const HandDesign& d) {
  FitRequest req;
  req.data = &d.data;
  req.prior.assign(d.nColumns(), CoordinatePrior{});
  return req;
}

TEST(OptimalityCheck, MeasuresTheDistanceInStandardErrorsWhateverTheScale) {
  for (const double scale : {1.0, 1e-3, 1e4}) {
    auto d = correlatedLeastSquares(3, scale);
    std::vector<double> beta = olsSolution(*d);
    auto runner = makeCycleRunner(ComputeDevice{}, d->data, nullptr, 1);
    CycleState state;
    state.beta = beta;
    state.prior.assign(d->nColumns(), CoordinatePrior{});
    state.fixed.assign(d->nColumns(), 0);
    runner->reset(state);
    const OptimalityReport atOptimum = runner->checkOptimality(state);
    EXPECT_LT(atOptimum.maxViolation, 1e-8) << "scale " << scale;
    // Move coordinate 2 by 0.01 of its conditional standard error sqrt(dispersion / H).
    double rss = 0.0, h = 0.0;
    for (std::size_t r = 0; r < d->y.size(); ++r) {
      double eta = 0.0;
      for (std::size_t j = 0; j < d->nColumns(); ++j) eta += d->columns[j][r] * beta[j];
      rss += (d->y[r] - eta) * (d->y[r] - eta);
      h += d->columns[2][r] * d->columns[2][r];
    }
    const double se = std::sqrt(rss / static_cast<double>(d->y.size()) / h);
    state.beta[2] += 0.01 * se;
    runner->reset(state);
    const OptimalityReport moved = runner->checkOptimality(state);
    EXPECT_EQ(moved.worst, 2) << "scale " << scale;
    EXPECT_NEAR(moved.maxViolation, 0.01, 1e-5) << "scale " << scale;
  }
}

TEST(FitCcd, OptimalityCheckRejectsAFitStoppedEarly) {
  auto d = correlatedLeastSquares(5);
  const std::vector<double> exact = olsSolution(*d);
  FitRequest req = requestFor(*d);
  req.control.blockNewton = false;  // plain CCD: the cheap rule fires far from the optimum
  req.control.extrapolate = false;
  req.control.maxIterations = 100000;

  req.control.optimalityTolerance = 1e300;  // the rule alone
  const FitResult ruleOnly = fitCcd(req);
  ASSERT_EQ(ruleOnly.status, FitStatus::Success);
  EXPECT_GT(ruleOnly.optimality, 1e-2) << "the rule alone stops early on this design";
  double ruleError = 0.0;
  for (std::size_t j = 0; j < exact.size(); ++j)
    ruleError = std::fmax(ruleError, std::fabs(ruleOnly.beta[j] - exact[j]) / std::fabs(exact[j]));
  EXPECT_GT(ruleError, 1e-3);

  req.control.optimalityTolerance = ControlSettings().optimalityTolerance;
  const FitResult certified = fitCcd(req);
  ASSERT_EQ(certified.status, FitStatus::Success);
  EXPECT_LE(certified.optimality, 1e-4);
  EXPECT_GT(certified.iterations, ruleOnly.iterations);

  // The same data with the block Newton step: exact in a few cycles.
  req.control.blockNewton = true;
  const FitResult block = fitCcd(req);
  ASSERT_EQ(block.status, FitStatus::Success);
  EXPECT_LE(block.iterations, 4);
  for (std::size_t j = 0; j < exact.size(); ++j)
    EXPECT_NEAR(block.beta[j], exact[j], 1e-9 * std::fmax(1.0, std::fabs(exact[j]))) << j;

  // Out of cycles before any rule is met: not a success, and no optimality claimed.
  req.control.blockNewton = false;
  req.control.maxIterations = 3;
  const FitResult cut = fitCcd(req);
  EXPECT_EQ(cut.status, FitStatus::MaxIterations);
  EXPECT_TRUE(std::isnan(cut.optimality) || cut.optimality > 1e-4);
}

}  // namespace
}  // namespace argus

namespace argus {
namespace {

// The certificate's unit for weights: the mean positive weight where below 1, else 1 (held-out
// zeros and frequency counts keep the plain measure).
TEST(CertificateWeightScale, MeanPositiveWeightCappedAtOne) {
  EXPECT_EQ(certificateWeightScale(nullptr, 5), 1.0);
  const std::vector<double> unit = {1.0, 0.0, 1.0, 1.0};
  EXPECT_EQ(certificateWeightScale(unit.data(), 4), 1.0);
  const std::vector<double> counts = {2.0, 0.0, 3.0, 1.0};
  EXPECT_EQ(certificateWeightScale(counts.data(), 4), 1.0);
  const std::vector<double> normalized = {0.25, 0.0, 0.5, 0.25};
  EXPECT_DOUBLE_EQ(certificateWeightScale(normalized.data(), 4), 1.0 / 3.0);
  const std::vector<double> none = {0.0, 0.0};
  EXPECT_EQ(certificateWeightScale(none.data(), 2), 1.0);
}

}  // namespace
}  // namespace argus
