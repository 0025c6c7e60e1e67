// The conditional likelihood's deferred eta (models/deferred_column_steps.h): a column's step
// on the Breslow path moves u and den only, eta catches up when read, and sum w y eta is kept
// by the steps. After any mix of steps, directions, resets and setEta(), eta(), the readout
// and the log-likelihood must be those of a likelihood reset at the same beta, for every
// conditional model and tie method (Efron and Exact move eta at once; their readout is kept
// the same way).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "models/likelihood.h"
#include "clr_test_data.h"

namespace argus {
namespace {

using testing_data::ClrSpec;
using testing_data::makeClrProblem;
using testing_data::makeProblem;
using testing_data::mixedStrata;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

struct Case {
  std::string name;
  std::unique_ptr<TestProblem> problem;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (ModelType model : {ModelType::ConditionalPoisson, ModelType::SelfControlledCaseSeries}) {
    ProblemSpec spec;
    spec.model = model;
    spec.seed = 31;
    out.push_back({modelTypeName(model), makeProblem(spec)});
  }
  for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron, TieMethod::Exact}) {
    ClrSpec spec;
    spec.strata = mixedStrata(true);
    spec.ties = ties;
    spec.varyWeights = ties != TieMethod::Exact;
    spec.seed = 41;
    out.push_back({std::string("clr ") + (ties == TieMethod::Exact   ? "exact"
                                          : ties == TieMethod::Efron ? "efron"
                                                                     : "breslow"),
                   makeClrProblem(spec)});
  }
  return out;
}

double directReadout(const TestProblem& p, const std::vector<double>& eta) {
  double sum = 0.0;
  for (std::int64_t r = 0; r < p.nRows(); ++r) sum += p.w(r) * p.y[r] * eta[r];
  return sum;
}

void expectNear(double a, double b, double relative, const std::string& what) {
  EXPECT_LE(std::fabs(a - b), relative * (1.0 + std::fabs(b))) << what << ": " << a << " vs " << b;
}

// Sweeps of steps on every column (eta never read in between), then a direction.
TEST(DeferredEta, StepsThenReadsMatchAFreshReset) {
  for (Case& c : cases()) {
    SCOPED_TRACE(c.name);
    TestProblem& p = *c.problem;
    auto lik = makeLikelihood(p.data, p.weightPtr());
    std::vector<double> beta = p.randomBeta(0.3);
    lik->reset(beta);
    for (int sweep = 0; sweep < 3; ++sweep) {
      for (std::size_t j = 0; j < p.nColumns(); ++j) {
        const double delta = 0.11 * (sweep + 1) * ((j % 2) ? -1.0 : 1.0) / (1.0 + j);
        lik->applyStep(j, delta);
        beta[j] += delta;
      }
      lik->refreshSums();
    }
    std::vector<double> d(static_cast<std::size_t>(p.nRows()));
    for (std::int64_t r = 0; r < p.nRows(); ++r) d[r] = std::sin(0.7 * r);
    lik->stepAlong(d, 0.05);
    lik->refreshSums();
    const double readout = lik->weightedOutcomeEta();
    const double logLik = lik->logLikelihood();

    auto fresh = makeLikelihood(p.data, p.weightPtr());
    std::vector<double> eta = p.etaOf(beta);
    for (std::int64_t r = 0; r < p.nRows(); ++r) eta[r] += 0.05 * d[r];
    fresh->setEta(eta);
    // The readout and log-likelihood were taken before eta was read (nothing synced it).
    expectNear(readout, directReadout(p, eta), 1e-12, "sum w y eta");
    expectNear(logLik, fresh->logLikelihood(), 1e-12, "log-likelihood");
    const std::vector<double>& caughtUp = lik->eta();
    for (std::int64_t r = 0; r < p.nRows(); ++r)
      ASSERT_LE(std::fabs(caughtUp[r] - eta[r]), 1e-13 * (1.0 + std::fabs(eta[r]))) << "row " << r;
    for (std::size_t j = 0; j < p.nColumns(); ++j) {
      const GradHess a = lik->gradHess(j), b = fresh->gradHess(j);
      expectNear(a.g, b.g, 1e-10, "g of column " + std::to_string(j));
      expectNear(a.h, b.h, 1e-10, "h of column " + std::to_string(j));
    }
  }
}

// rebuild() (a fit's final readout) leaves Breslow's steps deferred and takes the stratum
// sums afresh from u: the log-likelihood and readout must be a fresh likelihood's at the
// same beta, and the pending steps must still reach eta when it is read.
TEST(DeferredEta, RebuildRestoresTheSumsWithoutReadingEta) {
  for (Case& c : cases()) {
    SCOPED_TRACE(c.name);
    TestProblem& p = *c.problem;
    auto lik = makeLikelihood(p.data, p.weightPtr());
    std::vector<double> beta = p.randomBeta(0.3);
    lik->reset(beta);
    for (int sweep = 0; sweep < 4; ++sweep)
      for (std::size_t j = 0; j < p.nColumns(); ++j) {
        const double delta = 0.07 * ((j + sweep) % 3 == 0 ? -1.0 : 1.0);
        lik->applyStep(j, delta);
        beta[j] += delta;
      }
    lik->rebuild();
    auto fresh = makeLikelihood(p.data, p.weightPtr());
    fresh->reset(beta);
    expectNear(lik->logLikelihood(), fresh->logLikelihood(), 1e-12, "log-likelihood");
    expectNear(lik->weightedOutcomeEta(), fresh->weightedOutcomeEta(), 1e-12, "sum w y eta");
    const std::vector<double> expected = p.etaOf(beta);
    const std::vector<double>& eta = lik->eta();
    for (std::int64_t r = 0; r < p.nRows(); ++r)
      ASSERT_LE(std::fabs(eta[r] - expected[r]), 1e-12 * (1.0 + std::fabs(expected[r]))) << "row " << r;
  }
}

// One step read at once: eta moves by delta x_j exactly, as the entry-by-entry update did.
TEST(DeferredEta, AStepReadAtOnceIsTheEntryUpdate) {
  for (Case& c : cases()) {
    SCOPED_TRACE(c.name);
    TestProblem& p = *c.problem;
    auto lik = makeLikelihood(p.data, p.weightPtr());
    lik->reset(p.randomBeta(0.3));
    for (std::size_t j = 0; j < p.nColumns(); ++j) {
      const std::vector<double> before = lik->eta();
      lik->applyStep(j, 0.37);
      const std::vector<double>& after = lik->eta();
      for (std::int64_t r = 0; r < p.nRows(); ++r)
        ASSERT_EQ(after[r], before[r] + 0.37 * p.x(r, j)) << "column " << j << " row " << r;
    }
  }
}

// A reset or setEta() after steps that were never read: the new eta is all there is (the
// pending steps are in the state it replaces, not added on top).
TEST(DeferredEta, ResetAndSetEtaDropPendingSteps) {
  for (Case& c : cases()) {
    SCOPED_TRACE(c.name);
    TestProblem& p = *c.problem;
    auto lik = makeLikelihood(p.data, p.weightPtr());
    auto fresh = makeLikelihood(p.data, p.weightPtr());
    lik->reset(p.randomBeta(0.3));
    for (std::size_t j = 0; j < p.nColumns(); ++j) lik->applyStep(j, 0.2);
    const std::vector<double> beta = p.randomBeta(0.3);
    lik->reset(beta);
    fresh->reset(beta);
    ASSERT_EQ(lik->eta(), fresh->eta());
    EXPECT_EQ(lik->weightedOutcomeEta(), fresh->weightedOutcomeEta());
    EXPECT_EQ(lik->logLikelihood(), fresh->logLikelihood());

    for (std::size_t j = 0; j < p.nColumns(); ++j) lik->applyStep(j, -0.25);
    std::vector<double> eta = p.etaOf(p.randomBeta(0.3));
    lik->setEta(eta);
    fresh->setEta(eta);
    ASSERT_EQ(lik->eta(), eta);
    EXPECT_EQ(lik->weightedOutcomeEta(), fresh->weightedOutcomeEta());
    EXPECT_EQ(lik->logLikelihood(), fresh->logLikelihood());
    // rebuild() reads eta first: the steps taken since are kept
    for (std::size_t j = 0; j < p.nColumns(); ++j) lik->applyStep(j, 0.15);
    lik->rebuild();
    std::vector<double> moved = eta;
    for (std::size_t j = 0; j < p.nColumns(); ++j)
      for (std::int64_t r = 0; r < p.nRows(); ++r) moved[r] += 0.15 * p.x(r, j);
    for (std::int64_t r = 0; r < p.nRows(); ++r)
      ASSERT_LE(std::fabs(lik->eta()[r] - moved[r]), 1e-13 * (1.0 + std::fabs(moved[r]))) << "row " << r;
  }
}

}  // namespace
}  // namespace argus
