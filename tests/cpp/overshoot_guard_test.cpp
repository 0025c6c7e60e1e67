// Fits from starting points where Newton steps overshoot (solver/overshoot_guard.h) or every
// row saturates (glmGradHess), the repair of a GLM row's exp(eta) that left the doubles
// (foldGlmShift), and the recession probe beside an uncentred covariate and in conditional
// separation (solver/recession.cpp): each ends at the optimum that a fit from zero reaches,
// with a status that says so.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "hand_design.h"
#include "models/glm_functors.h"
#include "priors/optimality.h"
#include "solver/ccd_solver.h"

namespace argus {
namespace {

using testing_data::HandDesign;

FitResult fitFrom(const HandDesign& d, std::vector<double> start, std::vector<unsigned char> fixed = {}) {
  FitRequest req;
  req.data = &d.data;
  req.prior.assign(d.nColumns(), CoordinatePrior{});
  req.start = std::move(start);
  req.fixed = std::move(fixed);
  return fitCcd(req);
}

// y ~ Poisson(exp(0.5 + 0.4 x)) or Bernoulli(plogis(-0.3 + 0.8 x)), an intercept and one dense x.
std::unique_ptr<HandDesign> glmDesign(ModelType model, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const std::size_t n = 400;
  std::vector<double> x(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    x[r] = normal(rng);
    if (model == ModelType::Poisson) {
      std::poisson_distribution<int> count(std::exp(0.5 + 0.4 * x[r]));
      y[r] = count(rng);
    } else {
      y[r] = unif(rng) < 1.0 / (1.0 + std::exp(0.3 - 0.8 * x[r])) ? 1.0 : 0.0;
    }
  }
  auto d = std::make_unique<HandDesign>(model, y);
  d->addIntercept();
  d->addColumn(ColumnKind::Dense, x);
  d->finish();
  return d;
}

TEST(OvershootGuard, FitsFromSaturatingOrFarStartsReachTheOptimumFromZero) {
  for (const ModelType model : {ModelType::Poisson, ModelType::Logistic}) {
    const auto d = glmDesign(model, 3);
    const FitResult zero = fitFrom(*d, {0.0, 0.0});
    ASSERT_EQ(zero.status, FitStatus::Success);
    // Poisson: exp(eta) of e^-40 or e^60 on every row (the first Newton step of the
    // intercept from -40 is e^40 long); logistic: every row saturated at 0 or 1.
    for (const std::vector<double>& start : std::vector<std::vector<double>>{
             {-40.0, 0.0}, {60.0, 0.0}, {-40.0, 25.0}, {40.0, -30.0}}) {
      const FitResult fit = fitFrom(*d, start);
      EXPECT_EQ(fit.status, FitStatus::Success) << modelTypeName(model) << " " << start[0];
      EXPECT_NEAR(fit.logLikelihood, zero.logLikelihood, 1e-8 * std::fabs(zero.logLikelihood))
          << modelTypeName(model) << " " << start[0] << " " << start[1];
      for (std::size_t j = 0; j < 2; ++j) EXPECT_NEAR(fit.beta[j], zero.beta[j], 1e-5);
    }
  }
}

TEST(OvershootGuard, AProfileRefitHeldFarFromTheOptimumConverges) {
  // The slope held at 3 times its estimate, the intercept started where the full fit left it.
  const auto d = glmDesign(ModelType::Poisson, 5);
  const FitResult full = fitFrom(*d, {0.0, 0.0});
  const double held = 3.0 * full.beta[1] + 4.0;
  const FitResult fit = fitFrom(*d, {full.beta[0], held}, {0, 1});
  EXPECT_EQ(fit.status, FitStatus::Success);
  EXPECT_EQ(fit.beta[1], held);
  // The intercept's optimum given the slope: log(sum y / sum exp(held x)).
  double sumY = 0.0, sumU = 0.0;
  for (std::size_t r = 0; r < d->y.size(); ++r) {
    sumY += d->y[r];
    sumU += std::exp(held * d->columns[1][r]);
  }
  EXPECT_NEAR(fit.beta[0], std::log(sumY / sumU), 1e-6);
}

TEST(OvershootGuard, FoldingTheShiftRecomputesAnExpEtaThatLeftTheDoubles) {
  double eta = 1.5, expEta = std::exp(1.5);
  foldGlmShift<true>(eta, expEta, 0.25, std::exp(0.25));
  EXPECT_EQ(eta, 1.75);
  EXPECT_EQ(expEta, std::exp(1.5) * std::exp(0.25));  // a multiplication, as before
  eta = 2.0;
  expEta = INFINITY;  // overflowed in a step that overshot, eta since back at 2
  foldGlmShift<true>(eta, expEta, 0.0, 1.0);
  EXPECT_EQ(expEta, std::exp(2.0));
  eta = -1.0;
  expEta = 0.0;  // underflowed
  foldGlmShift<true>(eta, expEta, -0.5, std::exp(-0.5));
  EXPECT_EQ(expEta, std::exp(-1.5));
  eta = 0.5;
  expEta = 1e-320;  // passed through the subnormals: a few bits left
  foldGlmShift<true>(eta, expEta, 0.0, 1.0);
  EXPECT_EQ(expEta, std::exp(0.5));
  eta = 800.0;
  expEta = INFINITY;  // a real overflow stays one
  foldGlmShift<true>(eta, expEta, 0.0, 1.0);
  EXPECT_EQ(expEta, INFINITY);
  eta = 3.0;
  expEta = 7.0;  // least squares keeps no exp(eta)
  foldGlmShift<false>(eta, expEta, 1.0, 123.0);
  EXPECT_EQ(eta, 4.0);
  EXPECT_EQ(expEta, 7.0);
}

TEST(OvershootGuard, ASaturatedGlmCoordinateHasTheSmallestCurvatureNotNone) {
  // every row saturated: no curvature left, the slope still pulls
  const GradHess saturated = glmGradHess(59.0, 0.0);
  EXPECT_EQ(saturated.g, 59.0);
  EXPECT_EQ(saturated.h, -DBL_MIN);
  EXPECT_EQ(newtonStep(saturated, -3600.0, CoordinatePrior{}), INFINITY);
  EXPECT_GT(optimalityViolation(saturated, -3600.0, CoordinatePrior{}, 1.0), 1e100);
  // no slope either: no information, as before; any curvature is kept as it is
  EXPECT_EQ(glmGradHess(0.0, 0.0).h, 0.0);
  EXPECT_EQ(glmGradHess(2.0, 1e-320).h, -1e-320);
  EXPECT_EQ(glmGradHess(2.0, 4.0).h, -4.0);
}

TEST(Recession, AnUncentredYearBesideTheInterceptIsFinite) {
  // The intercept (about -30) and the year's term (0.015 x 2000 = 30) both move eta by more
  // than kFarEta, so the probe runs; along the fit's recent move (their valley: eta barely
  // changes) the drop was 1e-5 of the diagonal curvature's prediction, and the fit was
  // called NO_FINITE_MLE. A valley drops alike both ways; a recession's way back does not.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> year(1990, 2020);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::size_t n = 500;
  std::vector<double> yr(n), x(n), y(n);
  for (std::size_t r = 0; r < n; ++r) {
    yr[r] = year(rng);
    x[r] = normal(rng);
    std::poisson_distribution<int> count(std::exp(0.2 + 0.02 * (yr[r] - 2005.0) + 0.3 * x[r]));
    y[r] = count(rng);
  }
  HandDesign d(ModelType::Poisson, y);
  d.addIntercept();
  d.addColumn(ColumnKind::Dense, yr);
  d.addColumn(ColumnKind::Dense, x);
  d.finish();
  const FitResult fit = fitFrom(d, {0.0, 0.0, 0.0});
  EXPECT_EQ(fit.status, FitStatus::Success);
  EXPECT_TRUE(fit.infinite.empty());
  EXPECT_LT(fit.beta[0], -20.0);  // far indeed
}

}  // namespace
}  // namespace argus
