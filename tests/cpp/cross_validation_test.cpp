// Cross-validation and bootstrap in the engine (selection/cross_validation.h,
// selection/bootstrap.h, models/predictive_likelihood.h): the held-out likelihood, fold fits
// that are plain weighted fits, every model type, and results that are bit-identical for any
// number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/errors.h"
#include "models/likelihood.h"
#include "models/predictive_likelihood.h"
#include "selection/bootstrap.h"
#include "selection/cross_validation.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::allModels;
using testing_data::closeRel;
using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

FitRequest penalizedRequest(const TestProblem& problem, PriorKind kind) {
  FitRequest req;
  req.data = &problem.data;
  req.weights = problem.weightPtr();
  req.prior.assign(problem.nColumns(), {kind, 1.0});
  for (std::size_t j = 0; j < problem.nColumns(); ++j)
    if (problem.kind(j) == ColumnKind::Intercept) req.prior[j] = {PriorKind::None, 1.0};
  return req;
}

CrossValidationRequest cvRequest(const TestProblem& problem, PriorKind kind, int threads) {
  CrossValidationRequest req;
  req.fit = penalizedRequest(problem, kind);
  FoldSettings folds;
  folds.folds = 4;
  folds.repetitions = 2;
  folds.seed = 31;
  req.folds = makeFoldPlan(problem.data, folds);
  req.settings.threads = threads;
  return req;
}

bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(PredictiveLogLikelihood, AddsUpOverComplementaryWeights) {
  for (ModelType m : allModels()) {
    auto problem = makeProblem({m});
    const std::vector<double> beta = problem->randomBeta(0.3);
    FoldSettings settings;
    settings.folds = 3;
    const FoldPlan plan = makeFoldPlan(problem->data, settings);
    std::vector<double> training, heldOut;
    foldWeights(plan, 0, 2, problem->weightPtr(), &training, &heldOut);
    auto full = makeLikelihood(problem->data, problem->weightPtr());
    full->reset(beta);
    // Folds hold whole strata for conditional models, so the likelihood splits additively.
    const double sum = predictiveLogLikelihood(problem->data, training.data(), beta) +
                       predictiveLogLikelihood(problem->data, heldOut.data(), beta);
    EXPECT_TRUE(closeRel(sum, full->logLikelihood(), 1e-10)) << modelTypeName(m);
  }
}

TEST(CrossValidate, RunsForEveryModelWithAFiniteCurve) {
  for (ModelType m : allModels()) {
    auto problem = makeProblem({m});
    CrossValidationRequest req = cvRequest(*problem, PriorKind::Normal, 1);
    req.settings.search.type = SearchType::Grid;
    req.settings.search.gridSteps = 4;
    const CrossValidationResult cv = crossValidate(req);
    ASSERT_EQ(cv.curve.size(), 4u) << modelTypeName(m);
    for (const CvEvaluation& e : cv.curve) {
      EXPECT_TRUE(std::isfinite(e.mean)) << modelTypeName(m);
      EXPECT_EQ(e.values.size(), 8u);
    }
    EXPECT_EQ(cv.folds, 4);
    EXPECT_EQ(cv.repetitions, 2);
    EXPECT_EQ(cv.unit, isConditional(m) ? SamplingUnit::Stratum : SamplingUnit::Row);
  }
}

TEST(CrossValidate, FoldScoreIsTheHeldOutLikelihoodOfAPlainWeightedFit) {
  auto problem = makeProblem({ModelType::Logistic});
  CrossValidationRequest req = cvRequest(*problem, PriorKind::Laplace, 1);
  req.settings.search.type = SearchType::Grid;
  req.settings.search.lowerLimit = req.settings.search.upperLimit = 0.5;
  req.settings.search.gridSteps = 2;
  req.settings.resetCoefficients = true;
  const CrossValidationResult cv = crossValidate(req);
  // Task 5 = repetition 1, fold 1.
  std::vector<double> training, heldOut;
  foldWeights(req.folds, 1, 1, problem->weightPtr(), &training, &heldOut);
  FitRequest direct = penalizedRequest(*problem, PriorKind::Laplace);
  direct.prior = withVariance(direct.prior, 0.5);
  direct.weights = training.data();
  const FitResult fit = fitCcd(direct);
  EXPECT_EQ(cv.curve[0].values[5], predictiveLogLikelihood(problem->data, heldOut.data(), fit.beta));
}

// Warm starts: at each candidate, a fit on all the data (at a looser tolerance) started from
// the all-data solution at the nearest candidate scored before; the fold fits start from its
// solution.
TEST(CrossValidate, FoldFitsStartFromTheAllDataFitAtTheirVariance) {
  for (ModelType m : {ModelType::Logistic, ModelType::ConditionalPoisson}) {
    auto problem = makeProblem({m});
    CrossValidationRequest req = cvRequest(*problem, PriorKind::Laplace, 1);
    req.settings.search.type = SearchType::Grid;
    req.settings.search.lowerLimit = 0.05;
    req.settings.search.upperLimit = 5.0;
    req.settings.search.gridSteps = 3;  // 0.05, 0.5, 5
    const CrossValidationResult cv = crossValidate(req);
    ASSERT_EQ(cv.curve.size(), 3u);
    std::vector<double> training, heldOut;
    foldWeights(req.folds, 1, 1, problem->weightPtr(), &training, &heldOut);
    std::vector<double> previous;  // the all-data solution at the previous grid point
    for (std::size_t k = 0; k < 3; ++k) {
      FitRequest all = penalizedRequest(*problem, PriorKind::Laplace);
      all.prior = withVariance(all.prior, cv.curve[k].variance);
      all.start = previous;
      const double tolerance = all.control.tolerance;
      all.control.tolerance *= kAllDataToleranceFactor;
      all.control.optimalityTolerance *= kAllDataToleranceFactor;
      const FitResult allFit = fitCcd(all);
      EXPECT_EQ(cv.curve[k].allDataCycles, allFit.iterations) << modelTypeName(m);
      FitRequest fold = all;
      fold.control.tolerance = tolerance;
      fold.weights = training.data();
      fold.start = allFit.beta;
      const FitResult foldFit = fitCcd(fold);
      EXPECT_EQ(cv.curve[k].values[5],
                predictiveLogLikelihood(problem->data, heldOut.data(), foldFit.beta))
          << modelTypeName(m) << " candidate " << k;
      previous = allFit.beta;
    }
  }
}

TEST(CrossValidate, BitIdenticalForAnyNumberOfThreads) {
  for (ModelType m : {ModelType::Logistic, ModelType::ConditionalLogistic, ModelType::Poisson}) {
    for (SearchType type : {SearchType::Auto, SearchType::Grid}) {
      auto problem = makeProblem({m});
      CrossValidationRequest one = cvRequest(*problem, PriorKind::Laplace, 1);
      one.settings.search.type = type;
      one.settings.search.gridSteps = 5;
      CrossValidationRequest three = one;
      three.settings.threads = 3;
      const CrossValidationResult a = crossValidate(one);
      const CrossValidationResult b = crossValidate(three);
      ASSERT_EQ(a.curve.size(), b.curve.size());
      EXPECT_EQ(std::memcmp(&a.variance, &b.variance, sizeof(double)), 0);
      for (std::size_t i = 0; i < a.curve.size(); ++i) {
        EXPECT_TRUE(bitIdentical(a.curve[i].values, b.curve[i].values)) << modelTypeName(m);
        EXPECT_EQ(std::memcmp(&a.curve[i].mean, &b.curve[i].mean, sizeof(double)), 0);
      }
    }
  }
}

TEST(CrossValidate, AutoStartsAtTheDataBasedGuessUnlessGivenOne) {
  auto problem = makeProblem({ModelType::LeastSquares});
  CrossValidationRequest req = cvRequest(*problem, PriorKind::Normal, 1);
  const double guess = initialVarianceGuess(problem->data, req.fit.prior, req.fit.fixed);
  EXPECT_GT(guess, 0.0);
  EXPECT_EQ(crossValidate(req).startingVariance, guess);
  req.settings.startingVariance = 0.25;
  EXPECT_EQ(crossValidate(req).startingVariance, 0.25);
}

TEST(CrossValidate, LaplaceStartsAtTheUniversalThresholdOfTheNullFit) {
  // Logistic with an intercept and no offsets: the null fit is p = sum w y / sum w for every
  // row, so h_j = p (1 - p) sum_r w_r x_rj^2 and v0 = 1 / (log d mean_j h_j).
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.offsets = false;
  spec.nRows = 300;
  auto problem = makeProblem(spec);
  CrossValidationRequest req = cvRequest(*problem, PriorKind::Laplace, 1);
  req.fit.control.tolerance = 1e-12;
  double sumW = 0.0, sumWy = 0.0;
  for (std::int64_t r = 0; r < problem->nRows(); ++r) {
    sumW += problem->w(r);
    sumWy += problem->w(r) * problem->y[r];
  }
  const double p = sumWy / sumW;
  double information = 0.0, least = INFINITY, perEntryMin = INFINITY, perEntryMax = 0.0;
  int d = 0;
  for (std::size_t j = 0; j < problem->nColumns(); ++j) {
    if (problem->kind(j) == ColumnKind::Intercept) continue;
    ++d;
    double column = 0.0;
    for (std::int64_t r = 0; r < problem->nRows(); ++r)
      column += problem->w(r) * p * (1.0 - p) * problem->x(r, j) * problem->x(r, j);
    information += column;
    if (column > 0.0) {
      least = std::min(least, column);
      const double perEntry = column / static_cast<double>(problem->data.design.columns[j].nnz);
      perEntryMin = std::min(perEntryMin, perEntry);
      perEntryMax = std::max(perEntryMax, perEntry);
    }
  }
  const double expected = 1.0 / (std::log(static_cast<double>(d)) * information / d);
  const double guess = laplaceVarianceGuess(req.fit);
  EXPECT_TRUE(closeRel(guess, expected, 1e-8)) << guess << " vs " << expected;
  // The weak penalty of the empty-model check: 100 times the same threshold at the least
  // informed column.
  const WeakLaplacePenalty weak = weakLaplacePenalty(req.fit);
  const double expectedWeak = 100.0 / (std::log(static_cast<double>(d)) * least);
  EXPECT_TRUE(closeRel(weak.variance, expectedWeak, 1e-8)) << weak.variance << " vs " << expectedWeak;
  EXPECT_GT(weak.variance, guess);
  // ... and the spread of the columns' scales: information per stored entry
  EXPECT_TRUE(closeRel(weak.scaleDisparity, perEntryMax / perEntryMin, 1e-8))
      << weak.scaleDisparity << " vs " << perEntryMax / perEntryMin;
  EXPECT_EQ(startingVarianceGuess(req.fit), guess);
  EXPECT_EQ(crossValidate(req).startingVariance, guess);
  // A normal prior keeps Genkin, Lewis and Madigan's guess.
  CrossValidationRequest normal = cvRequest(*problem, PriorKind::Normal, 1);
  EXPECT_EQ(startingVarianceGuess(normal.fit),
            initialVarianceGuess(problem->data, normal.fit.prior, normal.fit.fixed));
  // Every model gets a positive, finite start; fixed coordinates do not count.
  for (ModelType m : allModels()) {
    auto other = makeProblem({m});
    CrossValidationRequest r = cvRequest(*other, PriorKind::Laplace, 1);
    const double v = laplaceVarianceGuess(r.fit);
    EXPECT_TRUE(v > 0.0 && std::isfinite(v)) << modelTypeName(m);
    r.fit.fixed.assign(other->nColumns(), 1);
    EXPECT_EQ(laplaceVarianceGuess(r.fit), 0.0) << modelTypeName(m);
  }
}

TEST(CrossValidate, IndicatorColumnsOfAnyPrevalenceHaveNoScaleDisparity) {
  // Logistic null fit without offsets: every row has the same p (1 - p), so an indicator
  // column's information per entry is p (1 - p) whatever its prevalence: OHDSI designs never
  // pay for the weak-penalty check.
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.offsets = false;
  spec.weights = false;
  spec.nRows = 400;
  spec.kinds = {ColumnKind::Intercept, ColumnKind::Indicator, ColumnKind::Indicator, ColumnKind::Indicator};
  spec.density = 0.05;
  auto problem = makeProblem(spec);
  const CrossValidationRequest req = cvRequest(*problem, PriorKind::Laplace, 1);
  EXPECT_NEAR(weakLaplacePenalty(req.fit).scaleDisparity, 1.0, 1e-9);
}

TEST(CrossValidate, RejectsAFlatPrior) {
  auto problem = makeProblem({ModelType::Logistic});
  CrossValidationRequest req = cvRequest(*problem, PriorKind::None, 1);
  EXPECT_THROW(crossValidate(req), ArgusError);
}

TEST(Bootstrap, ReplicateIsAPlainFitOnResampleWeights) {
  for (ModelType m : {ModelType::Logistic, ModelType::SelfControlledCaseSeries}) {
    auto problem = makeProblem({m});
    BootstrapRequest req;
    req.fit = penalizedRequest(*problem, PriorKind::Normal);
    req.replicates = 4;
    req.seed = 8;
    req.keepCounts = true;
    const BootstrapResult boot = runBootstrap(req);
    const std::size_t p = problem->nColumns();
    ASSERT_EQ(boot.beta.size(), 4 * p);
    const std::vector<std::int32_t> counts = resampleCounts(boot.units, 8, 2);
    std::vector<double> weights(static_cast<std::size_t>(problem->nRows()));
    for (std::int64_t r = 0; r < problem->nRows(); ++r)
      weights[r] = counts[unitOfRow(problem->data, boot.unit, r)] * problem->w(r);
    FitRequest direct = req.fit;
    direct.weights = weights.data();
    const FitResult fit = fitCcd(direct);
    const std::vector<double> replicate2(boot.beta.begin() + 2 * p, boot.beta.begin() + 3 * p);
    EXPECT_TRUE(bitIdentical(replicate2, fit.beta)) << modelTypeName(m);
    EXPECT_TRUE(std::equal(counts.begin(), counts.end(), boot.counts.begin() + 2 * boot.units));
  }
}

// With clusters (a patient's rows), a replicate draws whole clusters: each row's weight is its
// cluster's count. Conditional models keep their strata; an explicit Row unit draws rows.
TEST(Bootstrap, ClustersAreDrawnWhole) {
  auto problem = makeProblem({ModelType::Logistic});
  const std::int64_t n = problem->nRows();
  BootstrapRequest req;
  req.fit = penalizedRequest(*problem, PriorKind::Normal);
  req.replicates = 3;
  req.seed = 12;
  req.keepCounts = true;
  for (std::int64_t r = 0; r < n; ++r) req.clusterOfRow.push_back(static_cast<std::int32_t>((r * 7) % 9));
  const BootstrapResult boot = runBootstrap(req);
  EXPECT_EQ(boot.unit, SamplingUnit::Cluster);
  ASSERT_EQ(boot.units, 9);
  const std::size_t p = problem->nColumns();
  const std::vector<std::int32_t> counts = resampleCounts(9, 12, 1);
  std::vector<double> weights(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) weights[r] = counts[req.clusterOfRow[r]] * problem->w(r);
  FitRequest direct = req.fit;
  direct.weights = weights.data();
  const FitResult fit = fitCcd(direct);
  const std::vector<double> replicate1(boot.beta.begin() + p, boot.beta.begin() + 2 * p);
  EXPECT_TRUE(bitIdentical(replicate1, fit.beta));
  EXPECT_TRUE(std::equal(counts.begin(), counts.end(), boot.counts.begin() + 9));
  req.unit = SamplingUnit::Row;
  EXPECT_EQ(runBootstrap(req).unit, SamplingUnit::Row);
  auto conditional = makeProblem({ModelType::ConditionalPoisson});
  BootstrapRequest byStratum;
  byStratum.fit = penalizedRequest(*conditional, PriorKind::Normal);
  byStratum.replicates = 2;
  byStratum.clusterOfRow.assign(static_cast<std::size_t>(conditional->nRows()), 0);
  EXPECT_EQ(runBootstrap(byStratum).unit, SamplingUnit::Stratum);
  req.unit = SamplingUnit::Auto;
  req.clusterOfRow.pop_back();
  EXPECT_THROW(runBootstrap(req), ArgusError);
}

TEST(Bootstrap, BitIdenticalForAnyNumberOfThreads) {
  auto problem = makeProblem({ModelType::ConditionalPoisson});
  BootstrapRequest req;
  req.fit = penalizedRequest(*problem, PriorKind::Laplace);
  req.replicates = 7;
  req.seed = 1;
  const BootstrapResult one = runBootstrap(req);
  req.threads = 3;
  const BootstrapResult three = runBootstrap(req);
  EXPECT_TRUE(bitIdentical(one.beta, three.beta));
  EXPECT_EQ(one.unit, SamplingUnit::Stratum);
}

// A share of the replicates (firstReplicate) is those replicates of the whole run, so a run
// spread over processes equals the one in a single process.
TEST(Bootstrap, AShareOfTheReplicatesEqualsThemInTheWholeRun) {
  auto problem = makeProblem({ModelType::Logistic});
  BootstrapRequest req;
  req.fit = penalizedRequest(*problem, PriorKind::Normal);
  req.replicates = 6;
  req.seed = 12;
  req.keepCounts = true;
  const BootstrapResult whole = runBootstrap(req);
  req.firstReplicate = 2;
  req.replicates = 3;
  const BootstrapResult share = runBootstrap(req);
  const std::size_t p = problem->nColumns();
  const std::vector<double> middle(whole.beta.begin() + 2 * p, whole.beta.begin() + 5 * p);
  EXPECT_TRUE(bitIdentical(share.beta, middle));
  EXPECT_TRUE(std::equal(share.counts.begin(), share.counts.end(),
                         whole.counts.begin() + 2 * whole.units));
}

// A FoldTaskRunner that hands each round to runFoldTasks() in two shares (as processes
// would) gives the threaded result bit for bit, and runFoldTasks() is what the threads run.
TEST(CrossValidate, FoldTasksRunElsewhereGiveTheThreadedResult) {
  for (ModelType m : {ModelType::Logistic, ModelType::ConditionalPoisson, ModelType::Poisson}) {
    for (SearchType type : {SearchType::Auto, SearchType::Grid}) {
      SCOPED_TRACE(modelTypeName(m));
      auto problem = makeProblem({m});
      CrossValidationRequest threaded = cvRequest(*problem, PriorKind::Laplace, 2);
      threaded.settings.search.type = type;
      threaded.settings.search.gridSteps = 4;
      CrossValidationRequest shared = threaded;
      int rounds = 0;
      shared.taskRunner = [&](double variance, const std::vector<double>& start,
                              std::size_t tasks) {
        ++rounds;
        std::vector<std::size_t> first, second;
        for (std::size_t t = 0; t < tasks; ++t) (t < tasks / 2 ? first : second).push_back(t);
        CrossValidationRequest worker = threaded;
        worker.settings.threads = 1;
        std::vector<FoldTaskResult> out = runFoldTasks(worker, variance, start, first);
        const std::vector<FoldTaskResult> rest = runFoldTasks(worker, variance, start, second);
        out.insert(out.end(), rest.begin(), rest.end());
        return out;
      };
      const CrossValidationResult a = crossValidate(threaded);
      const CrossValidationResult b = crossValidate(shared);
      ASSERT_EQ(a.curve.size(), b.curve.size()) << modelTypeName(m);
      EXPECT_EQ(rounds, static_cast<int>(b.curve.size()));
      EXPECT_EQ(std::memcmp(&a.variance, &b.variance, sizeof(double)), 0) << modelTypeName(m);
      for (std::size_t i = 0; i < a.curve.size(); ++i) {
        EXPECT_TRUE(bitIdentical(a.curve[i].values, b.curve[i].values)) << modelTypeName(m);
        EXPECT_EQ(a.curve[i].cycles, b.curve[i].cycles);
        EXPECT_EQ(a.curve[i].notConverged, b.curve[i].notConverged);
      }
    }
  }
}

TEST(CrossValidate, FoldTaskIdsAreChecked) {
  auto problem = makeProblem({ModelType::Logistic});
  const CrossValidationRequest req = cvRequest(*problem, PriorKind::Normal, 1);
  const std::vector<double> start(problem->nColumns(), 0.0);
  EXPECT_THROW(runFoldTasks(req, 1.0, start, {8}), ArgusError);  // 4 folds x 2 repetitions
  EXPECT_EQ(runFoldTasks(req, 1.0, start, {7}).size(), 1u);
}

}  // namespace
}  // namespace argus
