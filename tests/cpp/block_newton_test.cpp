// The block Newton step (solver/block_newton.h) and what it is built from: the small dense
// factorization (solver/dense_block.h) and the likelihoods' directional derivatives.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clr_test_data.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/dense_block.h"
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

}  // namespace
}  // namespace argus
