// Profile-likelihood limits: exact for least squares (the profile is a parabola with
// curvature 1 / V_cc, V = (X'WX)^-1), self-consistent for the other models (the profile at
// each limit has dropped by exactly `drop`), independent of the thread count, and clean
// failures under separation.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "common/errors.h"
#include "solver/ccd_solver.h"
#include "solver/inference.h"
#include "solver/profile.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

FitRequest tightRequest(const TestProblem& prob) {
  FitRequest req;
  req.data = &prob.data;
  req.weights = prob.weightPtr();
  req.prior.assign(prob.nColumns(), CoordinatePrior{});
  req.control.tolerance = 1e-13;
  req.control.convergence = ConvergenceType::Zhang;
  req.control.maxIterations = 20000;
  return req;
}

// The request a profile needs: start at the optimum.
FitRequest atOptimum(const TestProblem& prob) {
  FitRequest req = tightRequest(prob);
  const FitResult fit = fitCcd(req);
  EXPECT_EQ(fit.status, FitStatus::Success);
  req.start = fit.beta;
  return req;
}

// Inverse of a small symmetric positive definite matrix (Gauss-Jordan, no pivoting needed).
std::vector<double> inverse(std::vector<double> a, std::size_t k) {
  std::vector<double> inv(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) inv[i * k + i] = 1.0;
  for (std::size_t c = 0; c < k; ++c) {
    const double pivot = a[c * k + c];
    for (std::size_t j = 0; j < k; ++j) {
      a[c * k + j] /= pivot;
      inv[c * k + j] /= pivot;
    }
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = a[r * k + c];
      for (std::size_t j = 0; j < k; ++j) {
        a[r * k + j] -= f * a[c * k + j];
        inv[r * k + j] -= f * inv[c * k + j];
      }
    }
  }
  return inv;
}

TEST(ProfileLikelihood, LeastSquaresLimitsAreTheExactParabolaRoots) {
  ProblemSpec spec;
  spec.model = ModelType::LeastSquares;
  spec.seed = 7;
  auto prob = makeProblem(spec);
  const std::size_t p = prob->nColumns();
  const FitRequest req = atOptimum(*prob);
  // -H = X'WX.
  std::vector<double> info(p * p, 0.0);
  for (std::int64_t r = 0; r < prob->nRows(); ++r)
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < p; ++j)
        info[i * p + j] += prob->w(r) * prob->x(r, i) * prob->x(r, j);
  const std::vector<double> V = inverse(info, p);

  ProfileSettings settings;
  settings.drop = 0.5 * 6.634896601021214;  // level 0.99
  std::vector<std::int32_t> coords;
  for (std::size_t j = 0; j < p; ++j) coords.push_back(static_cast<std::int32_t>(j));
  const std::vector<ProfileInterval> limits = profileIntervals(req, coords, settings);
  for (std::size_t j = 0; j < p; ++j) {
    const double half = std::sqrt(2.0 * settings.drop * V[j * p + j]);
    ASSERT_EQ(limits[j].lower.status, LimitStatus::Found);
    ASSERT_EQ(limits[j].upper.status, LimitStatus::Found);
    EXPECT_NEAR(limits[j].lower.value, req.start[j] - half, 1e-6 * half) << "column " << j;
    EXPECT_NEAR(limits[j].upper.value, req.start[j] + half, 1e-6 * half) << "column " << j;
    EXPECT_EQ(limits[j].unconverged, 0);
    EXPECT_LE(limits[j].evaluations, 9);  // 1 + 2 x (2 to bracket + 2 to solve)
  }
}

class ProfileAllModels : public ::testing::TestWithParam<ModelType> {};

TEST_P(ProfileAllModels, ProfileHasDroppedByTheTargetAtEachLimit) {
  ProblemSpec spec;
  spec.model = GetParam();
  spec.seed = 9;
  spec.nRows = 400;
  auto prob = makeProblem(spec);
  const FitRequest req = atOptimum(*prob);
  ProfileSettings settings;
  const std::int32_t c = isConditional(spec.model) ? 2 : 3;  // a dense column
  const ProfileInterval limits = profileIntervals(req, {c}, settings)[0];
  ASSERT_EQ(limits.lower.status, LimitStatus::Found);
  ASSERT_EQ(limits.upper.status, LimitStatus::Found);
  EXPECT_LT(limits.lower.value, req.start[c]);
  EXPECT_GT(limits.upper.value, req.start[c]);
  const std::vector<ProfilePoint> at =
      profileValues(req, c, {limits.lower.value, req.start[c], limits.upper.value}, true, 1);
  EXPECT_NEAR(at[1].value, limits.maximum, 1e-9 * std::fabs(limits.maximum));
  EXPECT_NEAR(at[0].value, limits.maximum - settings.drop, 1e-5);
  EXPECT_NEAR(at[2].value, limits.maximum - settings.drop, 1e-5);
  // The profile is at most the likelihood with the others held at the optimum: the refit can
  // only improve on it (a test that the others really are re-maximized).
  LikelihoodProbe probe(ComputeDevice{}, prob->data, prob->weightPtr());
  std::vector<double> held = req.start;
  held[c] = limits.upper.value;
  EXPECT_GT(at[2].value, probe.moveTo(held) + 1e-6);
}

INSTANTIATE_TEST_SUITE_P(AllModels, ProfileAllModels,
                         ::testing::ValuesIn(testing_data::allModels()),
                         [](const ::testing::TestParamInfo<ModelType>& info) {
                           return modelTypeName(info.param);
                         });

TEST(ProfileLikelihood, ResultsDoNotDependOnThreads) {
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.seed = 13;
  auto prob = makeProblem(spec);
  const FitRequest req = atOptimum(*prob);
  std::vector<std::int32_t> coords;
  for (std::size_t j = 0; j < prob->nColumns(); ++j) coords.push_back(static_cast<std::int32_t>(j));
  ProfileSettings one, four;
  four.threads = 4;
  const auto a = profileIntervals(req, coords, one);
  const auto b = profileIntervals(req, coords, four);
  for (std::size_t i = 0; i < coords.size(); ++i) {
    EXPECT_EQ(a[i].lower.value, b[i].lower.value);
    EXPECT_EQ(a[i].upper.value, b[i].upper.value);
    EXPECT_EQ(a[i].evaluations, b[i].evaluations);
  }
  const std::vector<double> grid = {-1.0, -0.5, 0.0, 0.5, 1.0};
  const auto va = profileValues(req, 1, grid, true, 1);
  const auto vb = profileValues(req, 1, grid, true, 3);
  for (std::size_t i = 0; i < grid.size(); ++i) EXPECT_EQ(va[i].value, vb[i].value);
}

TEST(ProfileLikelihood, SeparationGivesACleanFailureOnOneSideQuickly) {
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.kinds = {ColumnKind::Intercept, ColumnKind::Indicator, ColumnKind::Dense};
  spec.weights = spec.offsets = false;
  spec.seed = 17;
  auto prob = makeProblem(spec);
  // y = x_1: column 1 separates the outcome completely; beta_1 runs off to +infinity.
  for (std::int64_t r = 0; r < prob->nRows(); ++r) prob->y[r] = prob->x(r, 1);
  FitRequest req = tightRequest(*prob);
  req.control.tolerance = 1e-6;
  req.control.convergence = ConvergenceType::Gradient;
  req.control.maxIterations = 1000;
  req.start = fitCcd(req).beta;
  const auto started = std::chrono::steady_clock::now();
  const ProfileInterval limits = profileIntervals(req, {1}, ProfileSettings())[0];
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_NE(limits.upper.status, LimitStatus::Found);
  EXPECT_TRUE(std::isnan(limits.upper.value));
  EXPECT_EQ(limits.lower.status, LimitStatus::Found);
  EXPECT_LT(limits.lower.value, req.start[1]);
  EXPECT_LE(limits.evaluations, 2 + 2 * (ProfileSettings().maxExpansions + 1) +
                                    ProfileSettings().maxRootEvaluations);
  EXPECT_LT(seconds, 10.0);
}

TEST(ProfileLikelihood, RejectsFixedAndOutOfRangeCoordinates) {
  auto prob = makeProblem(ProblemSpec{});
  FitRequest req = atOptimum(*prob);
  EXPECT_THROW(profileIntervals(req, {99}, ProfileSettings()), ArgusError);
  req.fixed.assign(prob->nColumns(), 0);
  req.fixed[2] = 1;
  EXPECT_THROW(profileIntervals(req, {2}, ProfileSettings()), ArgusError);
  EXPECT_THROW(profileValues(req, 1, {std::nan("")}, true, 1), ArgusError);
  FitRequest noStart = tightRequest(*prob);
  EXPECT_THROW(profileIntervals(noStart, {1}, ProfileSettings()), ArgusError);
}

}  // namespace
}  // namespace argus
