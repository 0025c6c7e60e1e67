// Likelihood::stepAlongGain: the log-likelihood change of a step along an eta direction, which
// the cycle extrapolation tests instead of two whole log-likelihoods. The GLMs sum it per row
// (glm_functors.h, logLikChange); checked against logLik()'s difference per row, including
// rows whose exp(eta) overflows, and for whole likelihoods against stepAlong() followed by
// two logLikelihood() calls, with the intercept's lazy shift pending.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "models/glm_functors.h"
#include "models/likelihood.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;

// One row's change against the difference of logLik() at eta and eta + change.
template <typename Row>
void expectRowChange(double eta, double y, double w, double exposure, double change) {
  const Row row{};
  const double expEta = std::exp(eta), factor = std::exp(change);
  const double got = row.logLikChange(eta, expEta, w * y, w * exposure, change, factor);
  const double before = row.logLik(eta, y, w, exposure), after = row.logLik(eta + change, y, w, exposure);
  const double scale = 1.0 + std::fabs(before) + std::fabs(after);
  EXPECT_NEAR(got, after - before, 1e-12 * scale)
      << "eta " << eta << " y " << y << " w " << w << " change " << change;
}

TEST(StepAlongGain, RowChangesAreLogLikDifferences) {
  for (double eta : {-30.0, -3.0, -0.2, 0.0, 0.7, 4.0, 25.0})
    for (double change : {-5.0, -0.3, -1e-7, 1e-9, 0.01, 2.0, 6.0})
      for (double w : {0.0, 0.4, 1.0, 2.5}) {
        expectRowChange<LeastSquaresRow>(eta, 1.3, w, 1.0, change);
        expectRowChange<LogisticRow>(eta, 0.0, w, 1.0, change);
        expectRowChange<LogisticRow>(eta, 1.0, w, 1.0, change);
        if (std::fabs(eta) < 20.0) expectRowChange<PoissonRow>(eta, 3.0, w, 1.7, change);
      }
}

// A row's change carries an error of a few units of rounding in absolute terms, not of its
// log-likelihood's size (which the difference of two log-likelihoods lost: at eta = 30 a
// logistic row's term is -30, a unit of rounding there 3.6e-15): against the difference
// taken in long double.
TEST(StepAlongGain, RowChangesAreAccurateInAbsoluteTerms) {
  const LogisticRow row{};
  for (double eta : {-30.0, -4.0, -0.5, 0.3, 2.0, 30.0})
    for (double change : {-3e-9, 1e-8, 2e-6, 0.1}) {
      const double got = row.logLikChange(eta, std::exp(eta), 0.0, 1.0, change, std::exp(change));
      const long double e = static_cast<long double>(eta), c = static_cast<long double>(change);
      const long double expected = -(std::log1p(std::exp(e + c)) - std::log1p(std::exp(e)));
      EXPECT_NEAR(got, static_cast<double>(expected), 5e-16) << eta << " " << change;
    }
}

// exp(eta) or exp(change) overflows (as the GLM rows' stored exp(eta) may): the change is
// still the one logLik(), which works from eta, gives.
TEST(StepAlongGain, LogisticRowsBeyondExpOverflow) {
  const LogisticRow row{};
  for (double eta : {-5.0, 3.0, 720.0, 1000.0})
    for (double change : {-900.0, -1.0, 0.5, 800.0}) {
      const double got = row.logLikChange(eta, std::exp(eta), 1.0, 1.0, change, std::exp(change));
      const double expected = row.logLik(eta + change, 1.0, 1.0, 1.0) - row.logLik(eta, 1.0, 1.0, 1.0);
      EXPECT_NEAR(got, expected, 1e-9 * (1.0 + std::fabs(expected))) << eta << " " << change;
    }
}

// The same step taken by stepAlongGain() on one likelihood and by stepAlong(), refreshSums()
// and two logLikelihood() calls on another: the same eta, and the same gain to rounding. The
// intercept (column 0) has just moved, so its lazy shift is pending; weights (some 0),
// offsets and exposure come with the problems. A survival and a conditional likelihood take
// the default (the difference itself).
TEST(StepAlongGain, MatchesTheDifferenceOfLogLikelihoods) {
  for (const ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson,
                            ModelType::ConditionalPoisson}) {
    SCOPED_TRACE(modelTypeName(m));
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    const std::vector<double> beta = p->randomBeta(0.4);
    auto a = makeLikelihood(p->data, p->weightPtr());
    auto b = makeLikelihood(p->data, p->weightPtr());
    a->reset(beta);
    b->reset(beta);
    if (!isConditional(m)) {
      a->applyStep(0, 0.25);
      b->applyStep(0, 0.25);
    }
    std::mt19937 rng(5);
    std::normal_distribution<double> normal(0.0, 0.3);
    std::vector<double> d(static_cast<std::size_t>(p->nRows()));
    for (double& v : d) v = normal(rng);
    for (std::size_t r = 0; r < d.size(); r += 7) d[r] = 1.0;  // the exp(alpha) shortcut
    for (const double alpha : {0.8, 1e-6}) {
      const double before = b->logLikelihood();
      b->stepAlong(d, alpha);
      b->refreshSums();
      const double expected = b->logLikelihood() - before;
      const double gain = a->stepAlongGain(d, alpha);
      EXPECT_NEAR(gain, expected, 1e-10 * std::fabs(before)) << alpha;
      EXPECT_NE(gain, 0.0);
      for (std::size_t r = 0; r < d.size(); ++r) ASSERT_EQ(a->eta()[r], b->eta()[r]) << r;
      EXPECT_EQ(a->logLikelihood(), b->logLikelihood());
    }
  }
}

// thirdDerivativeBoundAlong(d): the gain of every step along d is at least
// g alpha + h alpha^2 / 2 - B alpha^3 / 6 (what lets the cycle extrapolation skip the exact
// sum, likelihood_cycle_runner.cpp). Logistic and least squares with weights (some 0) and the
// intercept's shift pending, steps from 1e-3 to 8; Poisson has no bound.
TEST(StepAlongGain, ThirdDerivativeBoundIsALowerBoundOnTheGain) {
  for (const ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson}) {
    SCOPED_TRACE(modelTypeName(m));
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    const std::vector<double> beta = p->randomBeta(0.4);
    std::mt19937 rng(11);
    std::normal_distribution<double> normal(0.0, 0.5);
    std::vector<double> d(static_cast<std::size_t>(p->nRows()));
    for (double& v : d) v = normal(rng);
    for (const double alpha : {1e-3, 0.1, 0.7, 2.0, 8.0}) {
      auto a = makeLikelihood(p->data, p->weightPtr());
      a->reset(beta);
      a->applyStep(0, 0.25);
      const GradHess along = a->gradHessAlong(d);
      const double bound = a->thirdDerivativeBoundAlong(d);
      if (m == ModelType::Poisson) {
        EXPECT_TRUE(std::isinf(bound));
        break;
      }
      if (m == ModelType::LeastSquares) EXPECT_EQ(bound, 0.0);
      const double lower = along.g * alpha + 0.5 * along.h * alpha * alpha - bound * alpha * alpha * alpha / 6.0;
      const double gain = a->stepAlongGain(d, alpha);
      const double rounding = 1e-12 * (std::fabs(along.g * alpha) + std::fabs(along.h) * alpha * alpha);
      EXPECT_GE(gain, lower - rounding) << alpha;
      // Least squares is quadratic: the bound is its gain.
      if (m == ModelType::LeastSquares) EXPECT_NEAR(gain, lower, 1e-9 * (1.0 + std::fabs(gain))) << alpha;
    }
  }
}

// The logistic constant is the largest |mu (1 - mu) (1 - 2 mu)|: at mu = (3 - sqrt 3) / 6 a
// single row's gain falls short of its quadratic by nearly the whole bound over a short step
// (a smaller constant would not bound it), and nowhere by more.
TEST(StepAlongGain, LogisticThirdDerivativeConstantIsTight) {
  const LogisticRow row{};
  const double B = LogisticRow::kThirdDerivativeScale;
  const double muStar = (3.0 - std::sqrt(3.0)) / 6.0;
  double worst = 0.0;
  for (double mu = 0.01; mu < 1.0; mu += 0.01) {
    for (const double mu0 : {mu, muStar}) {
      const double eta = std::log(mu0 / (1.0 - mu0)), e = std::exp(eta);
      const RowDerivatives r = glmRowDerivatives(row, eta, e, 0.0, 1.0);
      for (const double c : {-0.02, 0.02}) {
        const double gain = row.logLikChange(eta, e, 0.0, 1.0, c, std::exp(c));
        const double quad = r.resid * c - 0.5 * r.curv * c * c;
        const double shortfall = (quad - gain) / (B * std::fabs(c * c * c) / 6.0);
        EXPECT_LE(shortfall, 1.0 + 1e-6) << mu0 << " " << c;
        worst = std::fmax(worst, shortfall);
      }
    }
  }
  EXPECT_GT(worst, 0.95);
}

}  // namespace
}  // namespace argus
