// The majorized start of the survival fits (solver/majorized_start.h): the row scores it
// builds on are the log-likelihood's derivatives along each row's eta (their column sums are
// the oracle-checked coordinate gradients), the curvature bounds the exact curvature along
// any direction, and fits with the start reach the optimum of fits without it, certified the
// same way, in fewer exact cycles.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/majorized_start.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeSurvivalProblem;
using testing_data::SurvivalProblem;
using testing_data::SurvivalSpec;
using testing_data::closeRel;

TEST(MajorizedStart, RowScoresSumToEveryColumnsGradient) {
  for (const auto& c : testing_data::survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    validateDataset(p->data, p->weightPtr());
    auto lik = makeLikelihood(p->data, p->weightPtr());
    lik->reset(p->randomBeta(0.8));
    std::vector<double> score, curvature;
    ASSERT_TRUE(lik->rowScores(&score, &curvature)) << c.name;
    ASSERT_EQ(score.size(), static_cast<std::size_t>(p->nRows()));
    for (std::size_t j = 0; j < p->nColumns(); ++j) {
      double g = 0.0;
      for (std::int64_t r = 0; r < p->nRows(); ++r) g += p->x(r, j) * score[r];
      EXPECT_TRUE(closeRel(g, lik->gradHess(j).g, 1e-10)) << c.name << " column " << j;
    }
    // Shifting a stratum's eta does not change the likelihood: its scores sum to 0.
    for (std::int32_t s = 0; s < p->data.outcomes.nStrata; ++s) {
      double sum = 0.0, scale = 0.0;
      for (std::int64_t r = p->data.outcomes.stratumStart[s]; r < p->data.outcomes.stratumStart[s + 1]; ++r) {
        sum += score[r];
        scale += std::fabs(score[r]);
      }
      EXPECT_NEAR(sum, 0.0, 1e-12 * (1.0 + scale)) << c.name << " stratum " << s;
    }
  }
}

TEST(MajorizedStart, CurvatureBoundsTheExactCurvatureAlongAnyDirection) {
  for (const auto& c : testing_data::survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    lik->reset(p->randomBeta(0.8));
    std::vector<double> score, curvature;
    ASSERT_TRUE(lik->rowScores(&score, &curvature));
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> d(static_cast<std::size_t>(p->nRows()));
    for (int rep = 0; rep < 20; ++rep) {
      // Half the directions load on the first rows only: sparse columns, late exits.
      for (std::int64_t r = 0; r < p->nRows(); ++r)
        d[r] = (rep % 2 == 0 || r < p->nRows() / 5) ? normal(p->rng()) : 0.0;
      const GradHess along = lik->gradHessAlong(d);
      double bound = 0.0, slope = 0.0;
      for (std::int64_t r = 0; r < p->nRows(); ++r) {
        EXPECT_GE(curvature[r], 0.0);
        bound += curvature[r] * d[r] * d[r];
        slope += score[r] * d[r];
      }
      EXPECT_TRUE(closeRel(slope, along.g, 1e-10)) << c.name;
      EXPECT_LE(-along.h, bound * (1.0 + 1e-12)) << c.name << " direction " << rep;
      // Not a loose bound: the exact curvature is a sizable part of it.
      EXPECT_GT(-along.h, 0.05 * bound) << c.name << " direction " << rep;
    }
  }
}

FitResult fitWith(const SurvivalProblem& p, CoordinatePrior prior, MajorizedStartRule start, bool fixFirst) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), prior);
  if (fixFirst) {
    req.fixed.assign(p.nColumns(), 0);
    req.fixed[0] = 1;
    req.start.assign(p.nColumns(), 0.0);
    req.start[0] = 0.3;
  }
  req.control.majorizedStart = start;
  return fitCcd(req);
}

// At the default tolerance both ends are certified optimal to 1e-4 standard errors, so they
// agree to about that: compared on the log posterior (quadratic near the optimum) and beta.
TEST(MajorizedStart, FitsReachTheOptimumOfFitsWithoutIt) {
  const std::vector<std::pair<std::string, CoordinatePrior>> priors = {
      {"none", CoordinatePrior{PriorKind::None, 1.0}},
      {"normal", CoordinatePrior{PriorKind::Normal, 0.5}},
      {"laplace", CoordinatePrior{PriorKind::Laplace, 0.1}}};
  for (const auto& c : testing_data::survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    for (const auto& prior : priors) {
      for (const bool fixFirst : {false, true}) {
        const std::string what = c.name + ", " + prior.first + (fixFirst ? ", first fixed" : "");
        const FitResult with = fitWith(*p, prior.second, MajorizedStartRule::Always, fixFirst);
        const FitResult without = fitWith(*p, prior.second, MajorizedStartRule::Never, fixFirst);
        ASSERT_EQ(with.status, FitStatus::Success) << what;
        ASSERT_EQ(without.status, FitStatus::Success) << what;
        bool moves = false;  // a strong Laplace prior may hold every free coefficient at 0
        for (std::size_t j = fixFirst ? 1 : 0; j < p->nColumns(); ++j) moves = moves || with.beta[j] != 0.0;
        EXPECT_EQ(with.majorizedSteps > 0, moves) << what;
        EXPECT_EQ(without.majorizedSteps, 0) << what;
        EXPECT_LE(with.optimality, 1e-4) << what;
        const double a = with.logLikelihood + with.logPrior, b = without.logLikelihood + without.logPrior;
        EXPECT_NEAR(a, b, 1e-7 * std::fabs(b)) << what;
        for (std::size_t j = 0; j < p->nColumns(); ++j) EXPECT_NEAR(with.beta[j], without.beta[j], 1e-3) << what;
        if (fixFirst) EXPECT_EQ(with.beta[0], 0.3) << what;
      }
    }
  }
}

// The start alone from beta = 0 (Laplace prior), its coordinate steps cut into pieces of
// `pieceEntries` entries and run on `threads`.
MajorizedStartResult startOnly(const SurvivalProblem& p, std::int64_t pieceEntries, int threads,
                               int maxSteps, std::vector<double>* beta) {
  auto runner = makeCycleRunner(ComputeDevice{}, p.data, p.weightPtr(), 1, nullptr);
  CycleState st;
  st.beta.assign(p.nColumns(), 0.0);
  st.bound.assign(p.nColumns(), 2.0);
  st.prior.assign(p.nColumns(), CoordinatePrior{PriorKind::Laplace, 2.0});
  st.fixed.assign(p.nColumns(), 0);
  const CycleReadout at = runner->reset(st);
  MajorizedStartOptions options;
  options.pieceEntries = pieceEntries;
  options.threads = threads;
  options.maxSteps = maxSteps;
  const MajorizedStartResult result = majorizedStart(*runner, p.data, st, at, options, nullptr);
  *beta = st.beta;
  return result;
}

// Pieces of 7 entries (up to 4 per column) split strata's runs across pieces: joined in
// piece order they must give the whole column's steps (up to rounding; compared over two
// steps, before the start's stopping rules, thresholds, could tell rounding apart), and the
// same bits for 1, 2 and 3 threads over the whole start.
TEST(MajorizedStart, PiecesGiveTheWholeColumnsStepsBitIdenticalForAnyThreads) {
  std::vector<testing_data::SurvivalCase> cases = testing_data::survivalCases();
  // Twelve strata: pieces that hold whole strata between their first and last run.
  SurvivalSpec many;
  many.nStrata = 12;
  many.nRows = 400;
  cases.push_back({"cox 12 strata", many});
  many.model = ModelType::FineGray;
  cases.push_back({"fgr 12 strata", many});
  for (const auto& c : cases) {
    auto p = makeSurvivalProblem(c.spec);
    std::vector<double> whole, pieces;
    const MajorizedStartResult a = startOnly(*p, 1 << 30, 1, 2, &whole);
    const MajorizedStartResult b = startOnly(*p, 7, 1, 2, &pieces);
    ASSERT_EQ(a.steps, 2) << c.name;
    EXPECT_EQ(b.steps, 2) << c.name;
    for (std::size_t j = 0; j < whole.size(); ++j)
      EXPECT_NEAR(whole[j], pieces[j], 1e-12 * (1.0 + std::fabs(whole[j]))) << c.name << " beta " << j;
    const MajorizedStartResult all = startOnly(*p, 7, 1, 100, &pieces);
    EXPECT_GT(all.steps, 2) << c.name;
    for (const int threads : {2, 3}) {
      std::vector<double> threaded;
      const MajorizedStartResult t = startOnly(*p, 7, threads, 100, &threaded);
      EXPECT_EQ(t.steps, all.steps) << c.name;
      for (std::size_t j = 0; j < pieces.size(); ++j)
        EXPECT_EQ(threaded[j], pieces[j]) << c.name << ", " << threads << " threads, beta " << j;
    }
  }
}

// The case the start is for: continuous times, 20 sparse indicator columns.
SurvivalSpec sparseContinuousSpec() {
  SurvivalSpec spec;
  spec.nRows = 4000;
  spec.integerTimes = false;
  spec.indicatorDensity = 0.05;
  spec.kinds.assign(20, ColumnKind::Indicator);
  return spec;
}

// Continuous times with sparse columns, the case the start is for: Auto takes it, and it
// leaves the exact cycles little to do. Whole-number times (few slots): Auto leaves it out.
TEST(MajorizedStart, AutoTakesItWhereRefreshesOutweighEntries) {
  SurvivalSpec spec = sparseContinuousSpec();
  auto p = makeSurvivalProblem(spec);
  const CoordinatePrior laplace{PriorKind::Laplace, 1.0};
  const FitResult with = fitWith(*p, laplace, MajorizedStartRule::Auto, false);
  const FitResult without = fitWith(*p, laplace, MajorizedStartRule::Never, false);
  ASSERT_EQ(with.status, FitStatus::Success);
  ASSERT_EQ(without.status, FitStatus::Success);
  EXPECT_GT(with.majorizedSteps, 2);
  EXPECT_LE(with.iterations, 3);
  EXPECT_LT(with.iterations, without.iterations);

  spec.integerTimes = true;
  auto days = makeSurvivalProblem(spec);
  EXPECT_EQ(fitWith(*days, laplace, MajorizedStartRule::Auto, false).majorizedSteps, 0);
  EXPECT_GT(fitWith(*days, laplace, MajorizedStartRule::Always, false).majorizedSteps, 0);
}

// A start that ends on the convergence rule is checked where it stands: certified, the fit
// is done with no exact cycle, and the optimality reported is a fresh check's at the returned
// beta. Asked for more than the start reached (optimalityTolerance 1e-9), the check fails
// and the exact cycles take the fit the rest of the way, certified as always.
TEST(MajorizedStart, ACertifiedStartNeedsNoExactCycle) {
  SurvivalSpec spec = sparseContinuousSpec();
  for (const ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    spec.model = m;
    auto p = makeSurvivalProblem(spec);
    FitRequest req;
    req.data = &p->data;
    req.weights = p->weightPtr();
    req.prior.assign(p->nColumns(), CoordinatePrior{PriorKind::Laplace, 1.0});
    req.control.majorizedStart = MajorizedStartRule::Always;
    const FitResult done = fitCcd(req);
    const std::string what = modelTypeName(m);
    ASSERT_EQ(done.status, FitStatus::Success) << what;
    EXPECT_GT(done.majorizedSteps, 2) << what;
    EXPECT_EQ(done.iterations, 0) << what;
    EXPECT_LE(done.optimality, req.control.optimalityTolerance) << what;
    auto runner = makeCycleRunner(ComputeDevice{}, p->data, p->weightPtr(), 1, nullptr);
    CycleState st;
    st.beta = done.beta;
    st.bound.assign(p->nColumns(), 1.0);
    st.prior = req.prior;
    st.fixed.assign(p->nColumns(), 0);
    runner->reset(st);
    EXPECT_NEAR(runner->checkOptimality(st).maxViolation, done.optimality, 1e-12) << what;

    req.control.optimalityTolerance = 1e-9;
    const FitResult further = fitCcd(req);
    ASSERT_EQ(further.status, FitStatus::Success) << what;
    EXPECT_EQ(further.majorizedSteps, done.majorizedSteps) << what;
    EXPECT_GE(further.iterations, 1) << what;
    EXPECT_LE(further.optimality, 1e-9) << what;
    for (std::size_t j = 0; j < done.beta.size(); ++j)
      EXPECT_NEAR(done.beta[j], further.beta[j], 1e-3) << what << ", beta " << j;
  }
}

}  // namespace
}  // namespace argus
