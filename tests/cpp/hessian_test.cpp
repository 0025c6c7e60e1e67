// hessianAt() (central differences of the analytic gradient) against the analytic Hessian
// written from the definitions, for every model type and column kind; derivativesAt() and
// linearPredictor() against the same naive oracle. X is read from the test's dense copy.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/errors.h"
#include "solver/inference.h"
#include "hand_design.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

// d2L/dbeta dbeta' from the definitions (MODELS.md §2):
//   GLMs: -sum_r x_r x_r' curv_r, curv_r = -d2L_r/deta_r^2;
//   conditional: -sum_s n_s Cov_s(x), the covariance under the weights u_r / den_s.
std::vector<double> analyticHessian(const TestProblem& p, const std::vector<double>& beta) {
  const ModelType model = p.data.model;
  const std::size_t k = p.nColumns();
  const std::vector<double> eta = p.etaOf(beta);
  std::vector<double> H(k * k, 0.0);
  if (!isConditional(model)) {
    for (std::int64_t r = 0; r < p.nRows(); ++r) {
      const double w = p.w(r);
      double curv = w;  // least squares
      if (model == ModelType::Logistic) {
        const double mu = 1.0 / (1.0 + std::exp(-eta[r]));
        curv = w * mu * (1.0 - mu);
      } else if (model == ModelType::Poisson) {
        curv = w * p.t(r) * std::exp(eta[r]);
      }
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = 0; j < k; ++j) H[i * k + j] -= curv * p.x(r, i) * p.x(r, j);
    }
    return H;
  }
  const bool useTime = model != ModelType::ConditionalLogistic;
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    double events = 0.0, den = 0.0;
    std::vector<double> m1(k, 0.0), m2(k * k, 0.0);
    for (std::int64_t r = p.stratumStart[s]; r < p.stratumStart[s + 1]; ++r) {
      events += p.w(r) * p.y[r];
      const double u = p.w(r) * (useTime ? p.t(r) : 1.0) * std::exp(eta[r]);
      den += u;
      for (std::size_t i = 0; i < k; ++i) {
        m1[i] += u * p.x(r, i);
        for (std::size_t j = 0; j < k; ++j) m2[i * k + j] += u * p.x(r, i) * p.x(r, j);
      }
    }
    if (events == 0.0) continue;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        H[i * k + j] -= events * (m2[i * k + j] / den - (m1[i] / den) * (m1[j] / den));
  }
  return H;
}

std::vector<std::int32_t> allCoordinates(std::size_t k) {
  std::vector<std::int32_t> c(k);
  for (std::size_t j = 0; j < k; ++j) c[j] = static_cast<std::int32_t>(j);
  return c;
}

// |a - b| relative to the natural scale of entry (i, j), sqrt(|H_ii H_jj|): off-diagonal
// entries near zero are judged against the size of their row and column.
double worstRelativeError(const SquareMatrix& got, const std::vector<double>& want,
                          const std::vector<std::int32_t>& coords, std::size_t p) {
  double worst = 0.0;
  const std::size_t k = coords.size();
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      const double hii = want[coords[i] * p + coords[i]], hjj = want[coords[j] * p + coords[j]];
      const double scale = std::sqrt(std::fabs(hii * hjj));
      const double err = std::fabs(got(i, j) - want[coords[i] * p + coords[j]]) / scale;
      worst = std::max(worst, err);
    }
  return worst;
}

class HessianByDifferences : public ::testing::TestWithParam<std::tuple<ModelType, bool>> {
 protected:
  std::unique_ptr<TestProblem> make(std::uint32_t seed) const {
    ProblemSpec spec;
    spec.model = std::get<0>(GetParam());
    spec.weights = spec.offsets = spec.times = std::get<1>(GetParam());
    spec.seed = seed;
    return makeProblem(spec);
  }
};

TEST_P(HessianByDifferences, MatchesAnalyticHessianToOneInTenMillion) {
  for (std::uint32_t seed : {41u, 42u, 43u}) {
    auto prob = make(seed);
    const std::size_t p = prob->nColumns();
    const std::vector<double> beta = prob->randomBeta(0.5);
    LikelihoodProbe probe(ComputeDevice{}, prob->data, prob->weightPtr());
    const std::vector<std::int32_t> coords = allCoordinates(p);
    const std::vector<double> want = analyticHessian(*prob, beta);
    // The differences, and what inference takes: formed exactly (CycleRunner::exactHessian;
    // the GLMs in one pass, the conditional models by polarization), rounding only.
    HessianOptions differences;
    differences.exactWhereFormed = false;
    const SquareMatrix D = hessianAt(probe, beta, coords, differences);
    const SquareMatrix H = hessianAt(probe, beta, coords);
    ASSERT_EQ(H.size, p);
    ASSERT_EQ(D.size, p);
    EXPECT_FALSE(D.exact);
    EXPECT_TRUE(H.exact);
    EXPECT_LE(worstRelativeError(D, want, coords, p), 1e-7) << modelTypeName(prob->data.model) << " seed " << seed;
    EXPECT_LE(worstRelativeError(H, want, coords, p), 1e-12) << modelTypeName(prob->data.model) << " seed " << seed;
    // The test can fail: a wrong cross term (here: dropping one) is far outside the bound.
    std::vector<double> broken = want;
    broken[0 * p + 1] = broken[1 * p + 0] = 0.0;
    EXPECT_GT(worstRelativeError(H, broken, coords, p), 1e-4);
    EXPECT_GT(worstRelativeError(D, broken, coords, p), 1e-4);
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < p; ++j) {
        EXPECT_EQ(H(i, j), H(j, i));
        EXPECT_EQ(D(i, j), D(j, i));
      }
  }
}

TEST_P(HessianByDifferences, SubsetInAnyOrderAndLargeCovariateScales) {
  auto prob = make(51);
  const std::size_t p = prob->nColumns();
  // Rescale the dense and sparse columns by 100: the step must follow the column's scale
  // (a step of 1e-3 in beta would move eta by 0.1 and ruin the difference).
  for (double& v : prob->storage.values) v *= 100.0;
  for (std::int64_t r = 0; r < prob->nRows(); ++r)
    for (std::size_t j = 0; j < p; ++j)
      if (prob->kind(j) == ColumnKind::Dense || prob->kind(j) == ColumnKind::Sparse)
        prob->dense[r * p + j] *= 100.0;
  prob->data.design = prob->storage.view();
  std::vector<double> beta = prob->randomBeta(0.004);
  const std::vector<std::int32_t> coords = {static_cast<std::int32_t>(p - 1), 0, 2};
  LikelihoodProbe probe(ComputeDevice{}, prob->data, prob->weightPtr());
  const SquareMatrix H = hessianAt(probe, beta, coords);
  const std::vector<double> want = analyticHessian(*prob, beta);
  EXPECT_LE(worstRelativeError(H, want, coords, p), 1e-7);
}

TEST_P(HessianByDifferences, DerivativesAndLinearPredictorMatchDefinitions) {
  auto prob = make(61);
  const std::size_t p = prob->nColumns();
  const std::vector<double> beta = prob->randomBeta(0.5);
  LikelihoodProbe probe(ComputeDevice{}, prob->data, prob->weightPtr());
  const std::vector<std::int32_t> coords = allCoordinates(p);
  const PointDerivatives d = derivativesAt(probe, beta, coords);
  const std::vector<double> want = analyticHessian(*prob, beta);
  const SquareMatrix H = hessianAt(probe, beta, coords);
  for (std::size_t j = 0; j < p; ++j) {
    EXPECT_TRUE(testing_data::closeRel(d.hessianDiagonal[j], want[j * p + j], 1e-10));
    EXPECT_TRUE(testing_data::closeRel(H(j, j), d.hessianDiagonal[j], 1e-7));
  }
  // The gradient is the finite difference of L (finite_difference_test.cpp checks that); here
  // that the probe returns to beta after hessianAt() moved it about.
  const PointDerivatives again = derivativesAt(probe, beta, coords);
  EXPECT_EQ(again.logLikelihood, d.logLikelihood);
  EXPECT_EQ(again.gradient, d.gradient);

  const std::vector<double> eta = linearPredictor(prob->data, beta);
  const std::vector<double> etaWant = prob->etaOf(beta);
  ASSERT_EQ(eta.size(), etaWant.size());
  for (std::size_t r = 0; r < eta.size(); ++r) EXPECT_NEAR(eta[r], etaWant[r], 1e-12);
}

TEST(HessianByDifferencesErrors, RejectsBadCoordinatesAndBeta) {
  auto prob = makeProblem(ProblemSpec{});
  LikelihoodProbe probe(ComputeDevice{}, prob->data, prob->weightPtr());
  std::vector<double> beta(prob->nColumns(), 0.0);
  EXPECT_THROW(hessianAt(probe, beta, {0, 99}), ArgusError);
  EXPECT_THROW(hessianAt(probe, beta, {-1}), ArgusError);
  EXPECT_THROW(probe.moveTo(std::vector<double>(2, 0.0)), ArgusError);
  beta[0] = std::nan("");
  EXPECT_THROW(probe.moveTo(beta), ArgusError);
}

// A dense column with a huge mean (1e5 + N(0, 1)) beside the intercept: the Hessian in the
// centred basis (shifts) equals the plain Hessian of the same model written with the column
// centred, at the same linear predictor; written as is, the pair is singular to working
// precision (condition ~1e10 on the correlation scale).
TEST(HessianByDifferencesCentred, EqualsTheHessianOfTheCentredColumn) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const std::size_t n = 500;
  for (const ModelType model : {ModelType::Logistic, ModelType::Poisson, ModelType::LeastSquares}) {
    std::vector<double> x(n), z(n), y(n);
    for (std::size_t r = 0; r < n; ++r) {
      x[r] = 1e5 + normal(rng);
      z[r] = normal(rng);
      y[r] = model == ModelType::LeastSquares ? normal(rng) : (unif(rng) < 0.4 ? 1.0 : 0.0);
    }
    // intercept, the given column, z
    auto design = [&](testing_data::HandDesign* d, const std::vector<double>& column) {
      d->addIntercept();
      d->addColumn(ColumnKind::Dense, column);
      d->addColumn(ColumnKind::Dense, z);
      d->finish();
    };
    testing_data::HandDesign raw(model, y);
    design(&raw, x);
    LikelihoodProbe rawProbe(ComputeDevice{}, raw.data, nullptr);
    const std::vector<std::int32_t> coords = {0, 1, 2};
    const std::vector<double> shifts = rawProbe.centringShifts(coords);
    ASSERT_EQ(shifts.size(), 3u);
    EXPECT_EQ(shifts[0], 0.0);
    EXPECT_NEAR(shifts[1], 1e5, 0.2);  // the column's mean
    EXPECT_EQ(shifts[2], 0.0);         // an ordinary column is not centred
    // The same model with the column centred on that shift (x - c is exact: both near 1e5).
    std::vector<double> centred(n);
    for (std::size_t r = 0; r < n; ++r) centred[r] = x[r] - shifts[1];
    testing_data::HandDesign ref(model, y);
    design(&ref, centred);
    LikelihoodProbe refProbe(ComputeDevice{}, ref.data, nullptr);
    EXPECT_TRUE(refProbe.centringShifts(coords).empty());
    const std::vector<double> betaRef = {-0.4, 0.7, 0.3};
    const std::vector<double> beta = {betaRef[0] - shifts[1] * betaRef[1], betaRef[1], betaRef[2]};
    const SquareMatrix got = hessianAt(rawProbe, beta, coords, HessianOptions(), shifts);
    const SquareMatrix want = hessianAt(refProbe, betaRef, coords);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(got(i, k), want(i, k), 1e-6 * (std::fabs(want(0, 0)) + std::fabs(want(1, 1))))
            << modelTypeName(model) << " H(" << i << ", " << k << ")";
  }
}

std::string paramName(const ::testing::TestParamInfo<std::tuple<ModelType, bool>>& info) {
  return modelTypeName(std::get<0>(info.param)) +
         (std::get<1>(info.param) ? "_weighted_offset_time" : "_plain");
}

INSTANTIATE_TEST_SUITE_P(AllModels, HessianByDifferences,
                         ::testing::Combine(::testing::ValuesIn(testing_data::allModels()),
                                            ::testing::Bool()),
                         paramName);

}  // namespace
}  // namespace argus
