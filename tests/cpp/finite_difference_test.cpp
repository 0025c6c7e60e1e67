// Likelihood::gradHess(j) against central finite differences of Likelihood::logLikelihood(),
// for every model type and every column kind, with random weights, offsets, exposure times
// and strata; and the incremental applyStep() path against a fresh reset().
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "models/likelihood.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::closeRel;
using testing_data::describe;
using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

// (model, full): full = random weights, offsets and exposure times; otherwise none of them.
class FiniteDifference : public ::testing::TestWithParam<std::tuple<ModelType, bool>> {
 protected:
  std::unique_ptr<TestProblem> make(std::uint32_t seed) const {
    ProblemSpec spec;
    spec.model = std::get<0>(GetParam());
    const bool full = std::get<1>(GetParam());
    spec.weights = spec.offsets = spec.times = full;
    spec.seed = seed;
    return makeProblem(spec);
  }
};

double logLikAt(Likelihood& lik, std::vector<double> beta, std::size_t j, double shift) {
  beta[j] += shift;
  lik.reset(beta);
  return lik.logLikelihood();
}

TEST_P(FiniteDifference, GradHessMatchesLogLikelihood) {
  for (std::uint32_t seed : {11u, 12u}) {
    auto prob = make(seed);
    const ModelType model = prob->data.model;
    auto lik = makeLikelihood(prob->data, prob->weightPtr());
    const std::vector<double> beta = prob->randomBeta(0.4);

    for (std::size_t j = 0; j < prob->nColumns(); ++j) {
      SCOPED_TRACE(describe(model, j, prob->kind(j)) + " seed " + std::to_string(seed));
      lik->reset(beta);
      const GradHess gh = lik->gradHess(j);
      const double l0 = lik->logLikelihood();

      // Central differences with one Richardson extrapolation: error O(e^4) plus rounding.
      const double eg = 1e-3;
      auto gAt = [&](double e) {
        return (logLikAt(*lik, beta, j, e) - logLikAt(*lik, beta, j, -e)) / (2.0 * e);
      };
      const double gFd = (4.0 * gAt(eg / 2) - gAt(eg)) / 3.0;

      const double eh = 1e-2;
      auto hAt = [&](double e) {
        return (logLikAt(*lik, beta, j, e) - 2.0 * l0 + logLikAt(*lik, beta, j, -e)) / (e * e);
      };
      const double hFd = (4.0 * hAt(eh / 2) - hAt(eh)) / 3.0;

      EXPECT_TRUE(closeRel(gh.g, gFd, 1e-6)) << "g " << gh.g << " vs finite difference " << gFd;
      EXPECT_TRUE(closeRel(gh.h, hFd, 1e-4)) << "h " << gh.h << " vs finite difference " << hFd;
      EXPECT_LE(gh.h, 0.0);
      // The test must be able to fail: the derivatives are not trivially zero.
      if (prob->kind(j) != ColumnKind::Indicator || !isConditional(model)) {
        EXPECT_GT(std::fabs(gh.h), 1e-3);
      }
    }
  }
}

// Many incremental steps (the running sums drift) followed by refreshSums() must agree with a
// fresh reset() at the same beta.
TEST_P(FiniteDifference, RefreshAfterManyStepsMatchesFreshReset) {
  auto prob = make(21);
  const ModelType model = prob->data.model;
  auto lik = makeLikelihood(prob->data, prob->weightPtr());
  std::vector<double> beta = prob->randomBeta(0.3);
  lik->reset(beta);

  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> pickColumn(0, prob->nColumns() - 1);
  std::uniform_real_distribution<double> step(-0.05, 0.05);
  for (int k = 0; k < 3000; ++k) {
    const std::size_t j = pickColumn(rng);
    double delta = step(rng);
    if (std::fabs(beta[j] + delta) > 0.8) delta = -delta;  // stay in a sane region
    beta[j] += delta;
    lik->applyStep(j, delta);
    if (k == 1500) lik->refreshSums();  // as the cycle runner does once per cycle
  }
  lik->refreshSums();

  auto fresh = makeLikelihood(prob->data, prob->weightPtr());
  fresh->reset(beta);
  ASSERT_EQ(lik->eta().size(), fresh->eta().size());
  for (std::size_t r = 0; r < lik->eta().size(); ++r)
    ASSERT_TRUE(closeRel(lik->eta()[r], fresh->eta()[r], 1e-10)) << "eta row " << r;
  EXPECT_TRUE(closeRel(lik->logLikelihood(), fresh->logLikelihood(), 1e-10))
      << lik->logLikelihood() << " vs " << fresh->logLikelihood();
  EXPECT_TRUE(closeRel(lik->weightedOutcomeEta(), fresh->weightedOutcomeEta(), 1e-10));
  for (std::size_t j = 0; j < prob->nColumns(); ++j) {
    SCOPED_TRACE(describe(model, j, prob->kind(j)));
    const GradHess a = lik->gradHess(j), b = fresh->gradHess(j);
    EXPECT_TRUE(closeRel(a.g, b.g, 1e-10)) << a.g << " vs " << b.g;
    EXPECT_TRUE(closeRel(a.h, b.h, 1e-10)) << a.h << " vs " << b.h;
  }
}

// A single applyStep() moves the likelihood to exactly where reset() at the new beta puts it
// (to rounding), even before refreshSums().
TEST_P(FiniteDifference, SingleStepMatchesReset) {
  auto prob = make(31);
  auto lik = makeLikelihood(prob->data, prob->weightPtr());
  auto fresh = makeLikelihood(prob->data, prob->weightPtr());
  std::vector<double> beta = prob->randomBeta(0.3);
  for (std::size_t j = 0; j < prob->nColumns(); ++j) {
    SCOPED_TRACE(describe(prob->data.model, j, prob->kind(j)));
    lik->reset(beta);
    const double before = lik->logLikelihood();
    lik->applyStep(j, 0.25);
    std::vector<double> moved = beta;
    moved[j] += 0.25;
    fresh->reset(moved);
    EXPECT_TRUE(closeRel(lik->logLikelihood(), fresh->logLikelihood(), 1e-11));
    EXPECT_NE(lik->logLikelihood(), before);
    for (std::size_t k = 0; k < prob->nColumns(); ++k) {
      const GradHess a = lik->gradHess(k), b = fresh->gradHess(k);
      EXPECT_TRUE(closeRel(a.g, b.g, 1e-11)) << "column " << k;
      EXPECT_TRUE(closeRel(a.h, b.h, 1e-11)) << "column " << k;
    }
  }
}

std::string paramName(const ::testing::TestParamInfo<std::tuple<ModelType, bool>>& info) {
  return modelTypeName(std::get<0>(info.param)) +
         (std::get<1>(info.param) ? "_weighted_offset_time" : "_plain");
}

INSTANTIATE_TEST_SUITE_P(AllModels, FiniteDifference,
                         ::testing::Combine(::testing::ValuesIn(testing_data::allModels()),
                                            ::testing::Bool()),
                         paramName);

}  // namespace
}  // namespace argus
