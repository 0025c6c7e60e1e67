// The GLM intercept as a lazy shift (models/glm_likelihood.h): its running g, h estimate
// against the exact recomputation, column derivatives after intercept moves against a fresh
// reset(), and the follower step of a cycle (solver/cycle_runner.h) against plain cycles.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "models/glm_functors.h"
#include "models/likelihood.h"
#include "solver/compute_device.h"
#include "solver/cycle_runner.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::closeRel;
using testing_data::describe;
using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

const std::vector<ModelType> kGlms = {ModelType::LeastSquares, ModelType::Logistic,
                                      ModelType::Poisson};

std::unique_ptr<TestProblem> glmProblem(ModelType model, std::uint32_t seed) {
  ProblemSpec spec;
  spec.model = model;
  spec.seed = seed;
  spec.nRows = 400;
  return makeProblem(spec);  // column 0 is the intercept
}

TEST(GlmIntercept, OnlyTheInterceptIsTracked) {
  for (ModelType model : testing_data::allModels()) {
    auto p = glmProblem(model, 1);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    for (std::size_t j = 0; j < p->nColumns(); ++j)
      EXPECT_EQ(lik->tracksGradHess(j), p->kind(j) == ColumnKind::Intercept)
          << describe(model, j, p->kind(j));
  }
}

// Exact after reset() and refreshSums(); after small steps within the Taylor error; least
// squares is exact throughout.
TEST(GlmIntercept, RunningEstimateMatchesRecomputation) {
  for (ModelType model : kGlms) {
    SCOPED_TRACE(modelTypeName(model));
    auto p = glmProblem(model, 2);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    std::vector<double> beta = p->randomBeta(0.3);
    lik->reset(beta);
    GradHess est = lik->gradHessEstimate(0), exact = lik->gradHess(0);
    EXPECT_TRUE(closeRel(est.g, exact.g, 1e-12)) << est.g << " vs " << exact.g;
    EXPECT_TRUE(closeRel(est.h, exact.h, 1e-12)) << est.h << " vs " << exact.h;

    std::mt19937 rng(3);
    std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
    std::uniform_real_distribution<double> step(-0.004, 0.004);
    // g is tracked to second order, h to first (it only scales the follower's step); worst
    // errors seen: g 2e-7, h 7e-5 (Poisson).
    const double tolG = model == ModelType::LeastSquares ? 1e-11 : 1e-6;
    const double tolH = model == ModelType::LeastSquares ? 1e-11 : 2e-4;
    for (int k = 0; k < 60; ++k) {
      const std::size_t j = pick(rng);
      const double delta = step(rng);
      lik->gradHess(j);  // as a cycle does before a step (the step reuses its column sums)
      lik->applyStep(j, delta);
      est = lik->gradHessEstimate(0);
      exact = lik->gradHess(0);
      // Relative to the size of the curvature: g passes through 0 near the optimum.
      EXPECT_NEAR(est.g, exact.g, tolG * std::fabs(exact.h)) << "after step " << k;
      EXPECT_NEAR(est.h, exact.h, tolH * std::fabs(exact.h)) << "after step " << k;
    }
    // A step without a preceding gradHess(j) call is tracked as well.
    lik->applyStep(2, 0.003);
    est = lik->gradHessEstimate(0);
    exact = lik->gradHess(0);
    EXPECT_NEAR(est.g, exact.g, tolG * std::fabs(exact.h));

    lik->refreshSums();
    est = lik->gradHessEstimate(0);
    exact = lik->gradHess(0);
    EXPECT_TRUE(closeRel(est.g, exact.g, 1e-12)) << est.g << " vs " << exact.g;
    EXPECT_TRUE(closeRel(est.h, exact.h, 1e-12)) << est.h << " vs " << exact.h;
  }
}

// A large move makes the estimate recompute itself rather than extrapolate.
TEST(GlmIntercept, LargeMovesFallBackToExactSums) {
  for (ModelType model : {ModelType::Logistic, ModelType::Poisson}) {
    SCOPED_TRACE(modelTypeName(model));
    auto p = glmProblem(model, 4);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    lik->reset(p->randomBeta(0.2));
    lik->applyStep(0, -(InterceptTracking::kExactAfter + 0.1));  // intercept
    GradHess est = lik->gradHessEstimate(0), exact = lik->gradHess(0);
    EXPECT_TRUE(closeRel(est.g, exact.g, 1e-12)) << est.g << " vs " << exact.g;
    lik->applyStep(1, InterceptTracking::kExactStep + 0.1);  // a column
    est = lik->gradHessEstimate(0);
    exact = lik->gradHess(0);
    EXPECT_TRUE(closeRel(est.g, exact.g, 1e-12)) << est.g << " vs " << exact.g;
    EXPECT_TRUE(closeRel(est.h, exact.h, 1e-12)) << est.h << " vs " << exact.h;
  }
}

// The lazy shift is invisible from outside: after many mixed intercept and column steps
// (no refreshSums()), every coordinate's g, h and the log-likelihood equal a fresh reset()'s.
TEST(GlmIntercept, MixedStepsWithoutRefreshMatchFreshReset) {
  for (ModelType model : kGlms) {
    for (bool full : {false, true}) {
      SCOPED_TRACE(modelTypeName(model) + (full ? " weighted" : " plain"));
      ProblemSpec spec;
      spec.model = model;
      spec.weights = spec.offsets = spec.times = full;
      spec.seed = 5;
      auto p = makeProblem(spec);
      auto lik = makeLikelihood(p->data, p->weightPtr());
      std::vector<double> beta = p->randomBeta(0.2);
      lik->reset(beta);
      std::mt19937 rng(6);
      std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
      std::uniform_real_distribution<double> step(-0.1, 0.1);
      for (int k = 0; k < 400; ++k) {
        const std::size_t j = k % 3 == 0 ? 0 : pick(rng);  // the intercept often
        double delta = step(rng);
        if (std::fabs(beta[j] + delta) > 0.8) delta = -delta;
        beta[j] += delta;
        lik->applyStep(j, delta);
      }
      auto fresh = makeLikelihood(p->data, p->weightPtr());
      fresh->reset(beta);
      EXPECT_TRUE(closeRel(lik->logLikelihood(), fresh->logLikelihood(), 1e-10));
      for (std::size_t j = 0; j < p->nColumns(); ++j) {
        const GradHess a = lik->gradHess(j), b = fresh->gradHess(j);
        EXPECT_TRUE(closeRel(a.g, b.g, 1e-10)) << describe(model, j, p->kind(j));
        EXPECT_TRUE(closeRel(a.h, b.h, 1e-10)) << describe(model, j, p->kind(j));
      }
      lik->refreshSums();
      for (std::size_t r = 0; r < lik->eta().size(); ++r)
        ASSERT_TRUE(closeRel(lik->eta()[r], fresh->eta()[r], 1e-10)) << "eta row " << r;
      EXPECT_TRUE(closeRel(lik->weightedOutcomeEta(), fresh->weightedOutcomeEta(), 1e-10));
    }
  }
}

// Rows with exp(eta) beyond double range: mu = 1 exactly, finite derivatives.
TEST(GlmIntercept, LogisticSurvivesOverflowedExp) {
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.seed = 7;
  auto p = makeProblem(spec);
  auto lik = makeLikelihood(p->data, p->weightPtr());
  std::vector<double> beta(p->nColumns(), 0.0);
  beta[0] = 800.0;  // exp(800) overflows
  lik->reset(beta);
  for (std::size_t j = 0; j < p->nColumns(); ++j) {
    const GradHess gh = lik->gradHess(j);
    EXPECT_TRUE(std::isfinite(gh.g) && std::isfinite(gh.h)) << j;
    EXPECT_LE(gh.h, 0.0);
  }
  // Every row has mu = 1: g_0 = sum w (y - 1).
  double expected = 0.0;
  for (std::int64_t r = 0; r < p->nRows(); ++r) expected += p->w(r) * (p->y[r] - 1.0);
  EXPECT_NEAR(lik->gradHess(0).g, expected, 1e-9 * (1.0 + std::fabs(expected)));
}

// Cycles with and without the follower reach the same optimum; with it, far fewer cycles
// when every column has x >= 0 (the zig-zag it removes).
int cyclesToConverge(CycleRunner& runner, CycleState state, const CyclePlan& plan,
                     std::vector<double>* beta) {
  ReadoutNeeds needs;
  CycleReadout before = runner.reset(state);
  for (int cycle = 1; cycle <= 5000; ++cycle) {
    const CycleReadout after = runner.runCycle(state, plan, needs);
    const double change = std::fabs(after.logLikelihood - before.logLikelihood);
    before = after;
    if (change <= 1e-13 * (1.0 + std::fabs(after.logLikelihood))) {
      *beta = state.beta;
      return cycle;
    }
  }
  *beta = state.beta;
  return -1;
}

TEST(GlmIntercept, FollowerReachesTheSameOptimumInFewerCycles) {
  for (ModelType model : kGlms) {
    SCOPED_TRACE(modelTypeName(model));
    ProblemSpec spec;
    spec.model = model;
    spec.nRows = 500;
    spec.seed = 8;
    spec.kinds = {ColumnKind::Intercept};
    for (int k = 0; k < 8; ++k) spec.kinds.push_back(ColumnKind::Indicator);
    auto p = makeProblem(spec);
    auto runner = makeCycleRunner(ComputeDevice{}, p->data, p->weightPtr());
    CycleState state;
    state.beta.assign(p->nColumns(), 0.0);
    state.bound.assign(p->nColumns(), 2.0);
    state.prior.assign(p->nColumns(), CoordinatePrior{PriorKind::Laplace, 0.5});
    state.prior[0] = CoordinatePrior{};
    state.fixed.assign(p->nColumns(), 0);
    state.blockNewton = false;  // the block step would solve this small problem by itself
    CyclePlan plain;
    for (std::int32_t j = 1; j < static_cast<std::int32_t>(p->nColumns()); ++j)
      plain.coordinates.push_back(j);
    plain.coordinates.push_back(0);
    CyclePlan followed = plain;
    followed.follower = 0;

    std::vector<double> a, b;
    const int plainCycles = cyclesToConverge(*runner, state, plain, &a);
    const int followedCycles = cyclesToConverge(*runner, state, followed, &b);
    ASSERT_GT(plainCycles, 0);
    ASSERT_GT(followedCycles, 0);
    for (std::size_t j = 0; j < a.size(); ++j) EXPECT_NEAR(a[j], b[j], 1e-7) << "column " << j;
    EXPECT_LT(followedCycles, plainCycles);
    // A fixed follower is left alone.
    state.fixed[0] = 1;
    state.beta[0] = -0.3;
    cyclesToConverge(*runner, state, followed, &b);
    EXPECT_EQ(b[0], -0.3);
  }
}

}  // namespace
}  // namespace argus
