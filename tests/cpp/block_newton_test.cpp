// The block Newton step (solver/block_newton.h) and what it is built from: the small dense
// factorization (solver/dense_block.h) and the likelihoods' directional derivatives.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "clr_test_data.h"
#include "hand_design.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/dense_block.h"
#include "spline_basis.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::makeSurvivalProblem;
using testing_data::ProblemSpec;

TEST(DenseBlock, FactorSkipsAliasedColumnsInOrder) {
  // Columns u, v, u + 2v, w (Gram matrix): the third is aliased, the fourth is not.
  const std::vector<std::vector<double>> x = {
      {1, 0, 2, 1, 0}, {0, 1, 1, 3, 1}, {1, 2, 4, 7, 2}, {1, 1, 0, 0, 5}};
  const std::size_t k = x.size();
  std::vector<double> gram(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t r = 0; r < x[i].size(); ++r) gram[i * k + j] += x[i][r] * x[j][r];
  const BlockFactor f = factorSkippingAliased(gram, k, 1e-10);
  EXPECT_EQ(f.aliased, (std::vector<unsigned char>{0, 0, 1, 0}));
  // Solve on the accepted columns: A z = A z* for z* = (1, -2, 0, 0.5) gives z* back.
  const std::vector<double> truth = {1.0, -2.0, 0.0, 0.5};
  std::vector<double> rhs(k, 0.0);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) rhs[i] += gram[i * k + j] * truth[j];
  const std::vector<double> z = solveFactored(f, rhs);
  for (std::size_t i = 0; i < k; ++i) EXPECT_NEAR(z[i], truth[i], 1e-12) << i;
  // A column with nothing left (diagonal 0) is aliased too.
  std::vector<double> zero = gram;
  for (std::size_t i = 0; i < k; ++i) zero[1 * k + i] = zero[i * k + 1] = 0.0;
  EXPECT_EQ(factorSkippingAliased(zero, k, 1e-10).aliased[1], 1);
}

// A direction d is a dense column: gradHessAlong(d) must equal gradHess(j) when d = x_j, and
// stepAlong(d, a) must move eta as applyStep(j, a) does (GLM, and survival with
// counting-process data, whose dense entry order is built separately).
void expectDirectionIsADenseColumn(const Dataset& data, const double* weights, std::size_t j,
                                   const std::vector<double>& beta, const std::string& what) {
  auto a = makeLikelihood(data, weights);
  auto b = makeLikelihood(data, weights);
  ASSERT_TRUE(a->supportsDirection()) << what;
  a->reset(beta);
  b->reset(beta);
  std::vector<double> d(static_cast<std::size_t>(data.nRows()), 0.0);
  forEachEntry(data.design.columns[j], data.nRows(), [&](std::int64_t r, double x) { d[r] = x; });
  const GradHess along = a->gradHessAlong(d), column = b->gradHess(j);
  EXPECT_NEAR(along.g, column.g, 1e-10 * std::fmax(1.0, std::fabs(column.g))) << what;
  EXPECT_NEAR(along.h, column.h, 1e-10 * std::fmax(1.0, std::fabs(column.h))) << what;
  a->stepAlong(d, 0.3);
  b->applyStep(j, 0.3);
  a->refreshSums();
  b->refreshSums();
  EXPECT_NEAR(a->logLikelihood(), b->logLikelihood(), 1e-9 * std::fabs(b->logLikelihood())) << what;
  for (std::size_t r = 0; r < d.size(); ++r) ASSERT_NEAR(a->eta()[r], b->eta()[r], 1e-12) << what;
}

TEST(Directions, AreDenseColumnsForGlmAndSurvivalLikelihoods) {
  for (const ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson}) {
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    const std::vector<double> beta = p->randomBeta(0.3);
    for (std::size_t j = 0; j < p->nColumns(); ++j)
      expectDirectionIsADenseColumn(p->data, p->weightPtr(), j, beta, modelTypeName(m) + " column " + std::to_string(j));
  }
  for (const auto& c : testing_data::survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    std::vector<double> beta(p->nColumns());
    for (std::size_t j = 0; j < beta.size(); ++j) beta[j] = 0.1 * static_cast<double>(j % 3) - 0.1;
    for (std::size_t j = 0; j < p->nColumns(); ++j)
      expectDirectionIsADenseColumn(p->data, p->weightPtr(), j, beta, c.name + " column " + std::to_string(j));
  }
}

FitResult tightFit(const Dataset& data, const double* weights, PriorKind kind, double variance,
                   bool block) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(data.design.nColumns(), CoordinatePrior{kind, variance});
  for (std::size_t j = 0; j < data.design.nColumns(); ++j)
    if (data.design.columns[j].kind == ColumnKind::Intercept) req.prior[j] = CoordinatePrior{};
  req.control.tolerance = 1e-12;
  req.control.optimalityTolerance = 1e-8;
  req.control.convergence = ConvergenceType::Zhang;
  req.control.maxIterations = 20000;
  req.control.blockNewton = block;
  return fitCcd(req);
}

void expectSameOptimum(const Dataset& data, const double* weights, const std::string& what,
                       int* blockCycles, int* plainCycles) {
  for (const auto& prior : std::vector<std::pair<PriorKind, double>>{
           {PriorKind::None, 1.0}, {PriorKind::Normal, 0.5}, {PriorKind::Laplace, 0.05}}) {
    const FitResult plain = tightFit(data, weights, prior.first, prior.second, false);
    const FitResult block = tightFit(data, weights, prior.first, prior.second, true);
    const std::string label = what + " prior " + std::to_string(static_cast<int>(prior.first));
    ASSERT_EQ(plain.status, FitStatus::Success) << label;
    ASSERT_EQ(block.status, FitStatus::Success) << label;
    for (std::size_t j = 0; j < plain.beta.size(); ++j) {
      EXPECT_NEAR(block.beta[j], plain.beta[j], 1e-6 * std::fmax(1.0, std::fabs(plain.beta[j])))
          << label << " beta " << j;
      if (prior.first == PriorKind::Laplace)
        EXPECT_EQ(block.beta[j] == 0.0, plain.beta[j] == 0.0) << label << " zero " << j;
    }
    *blockCycles += block.iterations;
    *plainCycles += plain.iterations;
  }
}

TEST(BlockNewton, ReachesTheSameOptimumAsPlainCcdInFewerCycles) {
  int blockCycles = 0, plainCycles = 0;
  for (const ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson,
                            ModelType::ConditionalLogistic, ModelType::SelfControlledCaseSeries}) {
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    expectSameOptimum(p->data, p->weightPtr(), modelTypeName(m), &blockCycles, &plainCycles);
  }
  for (const TieMethod ties : {TieMethod::Breslow, TieMethod::Efron, TieMethod::Exact}) {
    testing_data::ClrSpec spec;
    for (int copy = 0; copy < 6; ++copy)
      for (const auto& l : testing_data::mixedStrata(true)) spec.strata.push_back(l);
    spec.ties = ties;
    auto p = testing_data::makeClrProblem(spec);
    expectSameOptimum(p->data, p->weightPtr(), "clr ties " + std::to_string(static_cast<int>(ties)),
                      &blockCycles, &plainCycles);
  }
  for (const auto& c : testing_data::survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    expectSameOptimum(p->data, p->weightPtr(), c.name, &blockCycles, &plainCycles);
  }
  EXPECT_LT(blockCycles, plainCycles);
}

// Block steps alone (a plan without coordinates): the sweep's trust regions cannot soften a
// bad start, so what keeps the objective rising is the line search, and what keeps the
// coefficients finite where the curvature vanishes is the same test of sufficient increase.
struct BlockOnly {
  explicit BlockOnly(const Dataset& data) : runner(makeCycleRunner(ComputeDevice{}, data, nullptr, 1)) {
    const std::size_t p = data.design.nColumns();
    state.beta.assign(p, 0.0);
    state.bound.assign(p, 2.0);
    state.prior.assign(p, CoordinatePrior{});
    state.fixed.assign(p, 0);
    state.extrapolate = false;
  }
  double cycle() { return runner->runCycle(state, CyclePlan{}, ReadoutNeeds{}).logLikelihood; }
  std::unique_ptr<CycleRunner> runner;
  CycleState state;
};

TEST(BlockNewton, TheLineSearchCutsANewtonStepThatOvershoots) {
  // Poisson, about 7 events in 1,000 rows (optimum near -5); from an intercept of -7 the
  // Newton step lands near -0.6, where the log-likelihood is ten times worse.
  std::mt19937 rng(21);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t n = 1000;
  std::vector<double> x(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    x[r] = normal(rng);
    std::poisson_distribution<int> count(std::exp(-5.0 + 0.2 * x[r]));
    y[r] = count(rng);
  }
  testing_data::HandDesign d(ModelType::Poisson, y);
  d.addIntercept();
  d.addColumn(ColumnKind::Dense, x);
  d.finish();
  BlockOnly block(d.data);
  block.state.beta[0] = -7.0;
  double before = block.runner->reset(block.state).logLikelihood;
  for (int cycle = 0; cycle < 30; ++cycle) {
    const double after = block.cycle();
    EXPECT_GE(after, before - 1e-9 * std::fabs(before)) << "cycle " << cycle;
    before = after;
  }
  EXPECT_LT(block.runner->checkOptimality(block.state).maxViolation, 1e-6);
}

// A covariate with a huge mean against its spread (1e4 to 1e6 + N(0, 1), as a time stamp in
// seconds within a day) is nearly parallel to the intercept: the uncentred block's pivot for
// it fell below the alias tolerance from mean/sd 1e5, and the fit declared it aliased (held
// at 0) with a SUCCESS. Centred in the block (block_newton.h), it reaches the optimum of the
// same model written with the centred column, which is well conditioned.
TEST(BlockNewton, ACovariateWithAHugeMeanIsEstimatedNotAliased) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const std::size_t n = 2000;
  for (const ModelType model : {ModelType::Logistic, ModelType::Poisson, ModelType::LeastSquares}) {
    for (const double mean : {1e4, 1e5, 1e6}) {
      std::vector<double> noise(n), z(n), x(n), centred(n), y(n);
      for (std::size_t r = 0; r < n; ++r) {
        noise[r] = normal(rng);
        z[r] = normal(rng);
        x[r] = mean + noise[r];
        centred[r] = x[r] - mean;  // exact: x and mean are within a factor of 2
        const double eta = -0.5 + 0.8 * centred[r] + 0.3 * z[r];
        y[r] = model == ModelType::Logistic  ? (unif(rng) < 1.0 / (1.0 + std::exp(-eta)) ? 1.0 : 0.0)
               : model == ModelType::Poisson ? std::floor(std::exp(eta) + unif(rng))
                                             : eta + normal(rng);
      }
      auto fitWith = [&](const std::vector<double>& column, testing_data::HandDesign* d) {
        d->addIntercept();
        d->addColumn(ColumnKind::Dense, column);
        d->addColumn(ColumnKind::Dense, z);
        d->finish();
        FitRequest req;
        req.data = &d->data;
        req.prior.assign(3, CoordinatePrior{});
        req.control.tolerance = 1e-10;
        req.control.optimalityTolerance = 1e-7;
        return fitCcd(req);
      };
      testing_data::HandDesign raw(model, y), reference(model, y);
      const FitResult fit = fitWith(x, &raw), ref = fitWith(centred, &reference);
      const std::string what = modelTypeName(model) + " mean " + std::to_string(mean);
      ASSERT_EQ(ref.status, FitStatus::Success) << what;
      EXPECT_EQ(fit.status, FitStatus::Success) << what;
      EXPECT_TRUE(fit.aliased.empty()) << what;
      EXPECT_NEAR(fit.beta[1], ref.beta[1], 1e-6 * std::fabs(ref.beta[1])) << what;
      EXPECT_NEAR(fit.beta[2], ref.beta[2], 1e-6 * std::fabs(ref.beta[2])) << what;
      // The intercepts differ by mean * beta_x; at the centred column's origin they agree.
      EXPECT_NEAR(fit.beta[0] + mean * fit.beta[1], ref.beta[0], 1e-6 * (1.0 + std::fabs(ref.beta[0]))) << what;
    }
  }
}

TEST(BlockNewton, StepsStayBoundedWhereTheCurvatureVanishes) {
  // y = x1 exactly: the intercept runs off to -infinity and the x1 coefficient to +infinity,
  // and the Newton step along that direction grows as the curvature vanishes; the line
  // search's sufficient-increase test keeps it to a few units of eta per step.
  std::mt19937 rng(17);
  std::bernoulli_distribution coin(0.3);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t n = 200;
  std::vector<double> x1(n), x2(n);
  for (std::size_t r = 0; r < n; ++r) {
    x1[r] = coin(rng) ? 1.0 : 0.0;
    x2[r] = normal(rng);
  }
  testing_data::HandDesign d(ModelType::Logistic, x1);
  d.addIntercept();
  d.addColumn(ColumnKind::Indicator, x1);
  d.addColumn(ColumnKind::Dense, x2);
  d.finish();
  BlockOnly block(d.data);
  block.runner->reset(block.state);
  // Long enough for exp(-eta) to underflow, where g / h turns into noise.
  const int cycles = 1000;
  for (int cycle = 0; cycle < cycles; ++cycle) block.cycle();
  EXPECT_GT(block.state.beta[1], 5.0);
  EXPECT_LT(block.state.beta[1], 1000.0);  // 176 here
  EXPECT_TRUE(std::isfinite(block.state.beta[0]));
}

// A B-spline basis (mostly 0, stored sparse) crossed with an indicator on 20,000 rows: the
// block's budget leaves such sparse columns to CCD, which crawled along their
// near-collinearity (smallest eigenvalue of the correlations 1.3e-5) to MAX_ITERATIONS, 25
// units of log-likelihood short. The collinearity check now admits them to the block. Reference: the same design stored dense
// (mostly dense: every column in the block from the start).
TEST(BlockNewton, NearlyCollinearSparseColumnsJoinTheBlock) {
  std::mt19937 rng(48);
  std::lognormal_distribution<double> skewed(1.0, 0.5);
  std::bernoulli_distribution rare(0.07);
  std::normal_distribution<double> noise(0.0, 5.0);
  const std::size_t n = 20000, df = 16;
  std::vector<double> t(n), rareColumn(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    t[r] = skewed(rng);
    rareColumn[r] = rare(rng) ? 1.0 : 0.0;
    y[r] = 20.0 + 3.0 * std::sin(t[r]) + 2.0 * rareColumn[r] + noise(rng);
  }
  const std::vector<std::vector<double>> x = testing_data::bsplineTimesIndicator(t, df, rareColumn);
  auto fit = [&](bool sparse) {
    testing_data::HandDesign d(ModelType::LeastSquares, y);
    d.addIntercept();
    for (const auto& v : x) d.addColumn(sparse ? ColumnKind::Sparse : ColumnKind::Dense, v);
    d.finish();
    FitRequest req;
    req.data = &d.data;
    req.prior.assign(d.nColumns(), CoordinatePrior{});
    return fitCcd(req);
  };
  const FitResult dense = fit(false), sparse = fit(true);
  ASSERT_EQ(dense.status, FitStatus::Success);
  EXPECT_EQ(sparse.status, FitStatus::Success);
  EXPECT_EQ(sparse.aliased, dense.aliased);
  EXPECT_NEAR(sparse.logLikelihood, dense.logLikelihood, 1e-9 * std::fabs(dense.logLikelihood));
  EXPECT_LE(sparse.iterations, 20);
}

}  // namespace
}  // namespace argus
