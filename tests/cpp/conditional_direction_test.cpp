// The conditional likelihood along an eta direction d (Likelihood::gradHessAlong, stepAlong):
// for Breslow, Efron and exact strata alike, gradHessAlong(d) is gradHess(j) of a dense
// column holding d, bit for bit, and stepAlong(d, alpha) is applyStep(j, alpha); for a
// general d they agree with setEta() and with finite differences along d.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/likelihood.h"
#include "clr_test_data.h"

namespace argus {
namespace {

using testing_data::ClrSpec;
using testing_data::closeRel;
using testing_data::makeClrProblem;
using testing_data::makeProblem;
using testing_data::mixedStrata;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

const char* tiesName(TieMethod t) {
  return t == TieMethod::Exact ? "exact" : t == TieMethod::Efron ? "efron" : "breslow";
}

std::unique_ptr<TestProblem> clrProblem(TieMethod ties) {
  ClrSpec spec;
  spec.strata = mixedStrata(true);
  spec.ties = ties;
  spec.varyWeights = ties != TieMethod::Exact;
  spec.seed = 17;
  return makeClrProblem(spec);
}

// The values of a dense column as a per-row vector.
std::vector<double> denseValues(const TestProblem& p, std::size_t j) {
  std::vector<double> d(static_cast<std::size_t>(p.nRows()));
  for (std::int64_t r = 0; r < p.nRows(); ++r) d[r] = p.x(r, j);
  return d;
}

void expectSameState(Likelihood& a, Likelihood& b, std::size_t columns) {
  ASSERT_EQ(a.eta().size(), b.eta().size());
  for (std::size_t r = 0; r < a.eta().size(); ++r) ASSERT_EQ(a.eta()[r], b.eta()[r]) << "row " << r;
  EXPECT_EQ(a.logLikelihood(), b.logLikelihood());
  for (std::size_t k = 0; k < columns; ++k) {
    const GradHess ga = a.gradHess(k), gb = b.gradHess(k);
    EXPECT_EQ(ga.g, gb.g) << "column " << k;
    EXPECT_EQ(ga.h, gb.h) << "column " << k;
  }
}

class ConditionalDirection : public ::testing::TestWithParam<TieMethod> {};

TEST_P(ConditionalDirection, AlongADenseColumnIsThatColumnBitForBit) {
  auto p = clrProblem(GetParam());
  auto lik = makeLikelihood(p->data, p->weightPtr());
  auto other = makeLikelihood(p->data, p->weightPtr());
  ASSERT_TRUE(lik->supportsDirection());
  const std::vector<double> beta = p->randomBeta(0.6);
  int denseColumns = 0;
  for (std::size_t j = 0; j < p->nColumns(); ++j) {
    if (p->kind(j) != ColumnKind::Dense) continue;
    ++denseColumns;
    SCOPED_TRACE("column " + std::to_string(j));
    const std::vector<double> d = denseValues(*p, j);
    lik->reset(beta);
    const GradHess column = lik->gradHess(j), along = lik->gradHessAlong(d);
    EXPECT_EQ(along.g, column.g);
    EXPECT_EQ(along.h, column.h);
    EXPECT_NE(along.h, 0.0);
    // the same step through either door leaves the same state
    other->reset(beta);
    lik->applyStep(j, 0.3);
    other->stepAlong(d, 0.3);
    expectSameState(*lik, *other, p->nColumns());
  }
  EXPECT_EQ(denseColumns, 2);
}

TEST_P(ConditionalDirection, AGeneralDirectionAgreesWithSetEtaAndFiniteDifferences) {
  auto p = clrProblem(GetParam());
  auto lik = makeLikelihood(p->data, p->weightPtr());
  const std::vector<double> beta = p->randomBeta(0.6);
  lik->reset(beta);
  const std::vector<double> eta0 = lik->eta();
  // d: a mix of columns plus per-row noise, so it is no column of X.
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.4);
  std::vector<double> d(eta0.size());
  for (std::int64_t r = 0; r < p->nRows(); ++r) d[r] = p->x(r, 0) - 0.5 * p->x(r, 2) + noise(rng);

  auto logLikAt = [&](double t) {
    std::vector<double> eta = eta0;
    for (std::size_t r = 0; r < eta.size(); ++r) eta[r] += t * d[r];
    lik->setEta(eta);
    return lik->logLikelihood();
  };
  const double l0 = logLikAt(0.0);
  const GradHess along = lik->gradHessAlong(d);
  auto gAt = [&](double e) { return (logLikAt(e) - logLikAt(-e)) / (2.0 * e); };
  auto hAt = [&](double e) { return (logLikAt(e) - 2.0 * l0 + logLikAt(-e)) / (e * e); };
  const double gFd = (4.0 * gAt(5e-4) - gAt(1e-3)) / 3.0;
  const double hFd = (4.0 * hAt(5e-3) - hAt(1e-2)) / 3.0;
  EXPECT_TRUE(closeRel(along.g, gFd, 1e-6)) << along.g << " vs finite difference " << gFd;
  EXPECT_TRUE(closeRel(along.h, hFd, 1e-4)) << along.h << " vs finite difference " << hFd;
  EXPECT_LT(along.h, -1e-3);

  // stepAlong then refreshSums (as the cycle runner does) equals setEta(eta + alpha d).
  lik->setEta(eta0);
  lik->stepAlong(d, 0.7);
  lik->refreshSums();
  auto fresh = makeLikelihood(p->data, p->weightPtr());
  std::vector<double> moved = eta0;
  for (std::size_t r = 0; r < moved.size(); ++r) moved[r] += 0.7 * d[r];
  fresh->setEta(moved);
  for (std::size_t r = 0; r < moved.size(); ++r)
    ASSERT_TRUE(closeRel(lik->eta()[r], fresh->eta()[r], 1e-12)) << "row " << r;
  EXPECT_TRUE(closeRel(lik->logLikelihood(), fresh->logLikelihood(), 1e-12));
  for (std::size_t k = 0; k < p->nColumns(); ++k) {
    const GradHess a = lik->gradHess(k), b = fresh->gradHess(k);
    EXPECT_TRUE(closeRel(a.g, b.g, 1e-12) && closeRel(a.h, b.h, 1e-12)) << "column " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Ties, ConditionalDirection,
                         ::testing::Values(TieMethod::Breslow, TieMethod::Efron, TieMethod::Exact),
                         [](const ::testing::TestParamInfo<TieMethod>& info) {
                           return std::string(tiesName(info.param));
                         });

// cpr and sccs (Breslow, exposure times) offer directions too.
TEST(ConditionalDirectionExtras, ConditionalPoissonAlongADenseColumn) {
  for (ModelType model : {ModelType::ConditionalPoisson, ModelType::SelfControlledCaseSeries}) {
    ProblemSpec spec;
    spec.model = model;
    spec.seed = 23;
    auto p = makeProblem(spec);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    const std::vector<double> beta = p->randomBeta(0.4);
    lik->reset(beta);
    const std::size_t j = 2;
    ASSERT_EQ(p->kind(j), ColumnKind::Dense);
    const GradHess column = lik->gradHess(j), along = lik->gradHessAlong(denseValues(*p, j));
    EXPECT_EQ(along.g, column.g) << modelTypeName(model);
    EXPECT_EQ(along.h, column.h) << modelTypeName(model);
  }
}

}  // namespace
}  // namespace argus
