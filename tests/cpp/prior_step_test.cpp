// The one-coordinate step rule of priors/prior.h (MODELS.md §3-4): Newton steps under no,
// Normal and Laplace priors, the trust region, and the prior densities.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "priors/prior.h"

namespace argus {
namespace {

constexpr CoordinatePrior kNone{PriorKind::None, 1.0};
CoordinatePrior laplace(double variance) { return {PriorKind::Laplace, variance}; }
CoordinatePrior normal(double variance) { return {PriorKind::Normal, variance}; }

TEST(LaplaceLambda, IsSqrtTwoOverVariance) {
  EXPECT_DOUBLE_EQ(laplaceLambda(2.0), 1.0);
  EXPECT_DOUBLE_EQ(laplaceLambda(0.5), 2.0);
  EXPECT_DOUBLE_EQ(laplaceLambda(8.0), 0.5);
  EXPECT_DOUBLE_EQ(laplaceLambda(1.0), std::sqrt(2.0));
}

TEST(NewtonStep, NoPrior) {
  EXPECT_DOUBLE_EQ(newtonStep({3.0, -2.0}, 0.0, kNone), 1.5);
  EXPECT_DOUBLE_EQ(newtonStep({-1.0, -4.0}, 7.0, kNone), -0.25);  // beta does not matter
  EXPECT_DOUBLE_EQ(newtonStep({0.0, -4.0}, 1.0, kNone), 0.0);
}

TEST(NewtonStep, ZeroOrPositiveCurvatureDoesNotMove) {
  EXPECT_EQ(newtonStep({3.0, 0.0}, 0.0, kNone), 0.0);
  EXPECT_EQ(newtonStep({3.0, 1.0}, 0.5, kNone), 0.0);
  EXPECT_EQ(newtonStep({3.0, 0.0}, 0.0, laplace(2.0)), 0.0);
  EXPECT_EQ(newtonStep({-3.0, 0.0}, 0.7, laplace(2.0)), 0.0);
  EXPECT_EQ(newtonStep({3.0, 2.0}, 0.0, laplace(2.0)), 0.0);
}

// A slope over a curvature that underflowed (glmGradHess) gives an infinite step: the exact
// visit's trust region clips it, the follower does not take it.
TEST(NewtonStep, AnInfiniteStepIsTheBoundOrNothing) {
  const double step = newtonStep({3.0, -1e-308}, 0.0, kNone);
  EXPECT_EQ(step, INFINITY);
  double bound = 2.0;
  EXPECT_EQ(trustRegionStep(step, &bound), 2.0);
  EXPECT_EQ(bound, 4.0);
  double followerBound = 1.0;
  EXPECT_EQ(followerStep(-step, &followerBound), 0.0);
  EXPECT_EQ(followerBound, 1.0);
}

TEST(NewtonStep, NormalPrior) {
  // var 0.5: curvature -2 - 2 = -4; numerator 1 - 0.4 / 0.5 = 0.2; delta = 0.05.
  EXPECT_DOUBLE_EQ(newtonStep({1.0, -2.0}, 0.4, normal(0.5)), 0.05);
  // The posterior derivative vanishes after the step (quadratic model): g + h d - (b + d)/v.
  const double d = newtonStep({1.0, -2.0}, 0.4, normal(0.5));
  EXPECT_NEAR(1.0 - 2.0 * d - (0.4 + d) / 0.5, 0.0, 1e-15);
  // var 2, no likelihood curvature: the prior alone gives curvature -0.5: delta = 1 / 0.5.
  EXPECT_DOUBLE_EQ(newtonStep({1.0, 0.0}, 0.0, normal(2.0)), 2.0);
  // Pulled back towards 0 when the gradient vanishes: -(0 - 1/1) / (-1 - 1) = -0.5.
  EXPECT_DOUBLE_EQ(newtonStep({0.0, -1.0}, 1.0, normal(1.0)), -0.5);
}

TEST(NewtonStep, LaplaceAtZeroStaysWhenGradientWithinLambda) {
  const CoordinatePrior p = laplace(2.0);  // lambda = 1
  EXPECT_EQ(newtonStep({0.5, -1.0}, 0.0, p), 0.0);
  EXPECT_EQ(newtonStep({-0.999, -1.0}, 0.0, p), 0.0);
  EXPECT_EQ(newtonStep({1.0, -1.0}, 0.0, p), 0.0);   // g - lambda = 0 exactly: stay
  EXPECT_EQ(newtonStep({-1.0, -1.0}, 0.0, p), 0.0);  // g + lambda = 0 exactly: stay
  EXPECT_EQ(newtonStep({0.0, -1.0}, 0.0, p), 0.0);
}

TEST(NewtonStep, LaplaceAtZeroMovesUp) {
  // g - lambda = 2 > 0: delta = -(3 - 1) / -2 = 1.
  EXPECT_DOUBLE_EQ(newtonStep({3.0, -2.0}, 0.0, laplace(2.0)), 1.0);
  // lambda = 2: delta = -(2.5 - 2) / -0.25 = 2.
  EXPECT_DOUBLE_EQ(newtonStep({2.5, -0.25}, 0.0, laplace(0.5)), 2.0);
}

TEST(NewtonStep, LaplaceAtZeroMovesDown) {
  // g + lambda = -2 < 0: delta = -(-3 + 1) / -2 = -1.
  EXPECT_DOUBLE_EQ(newtonStep({-3.0, -2.0}, 0.0, laplace(2.0)), -1.0);
  EXPECT_DOUBLE_EQ(newtonStep({-2.5, -0.25}, 0.0, laplace(0.5)), -2.0);
}

TEST(NewtonStep, LaplaceNonZeroStepNotCrossingZero) {
  const CoordinatePrior p = laplace(2.0);  // lambda = 1
  // beta > 0: derivative at sign +: -(3 - 1) / -2 = 1.
  EXPECT_DOUBLE_EQ(newtonStep({3.0, -2.0}, 0.5, p), 1.0);
  // beta > 0 moving down but not past 0: -(0.2 - 1) / -2 = -0.4, lands at 0.1.
  EXPECT_DOUBLE_EQ(newtonStep({0.2, -2.0}, 0.5, p), -0.4);
  // beta < 0: derivative at sign -: -(-3 + 1) / -2 = -1.
  EXPECT_DOUBLE_EQ(newtonStep({-3.0, -2.0}, -0.5, p), -1.0);
  // beta < 0 moving up but not past 0: -(-0.2 + 1) / -2 = 0.4, lands at -0.1.
  EXPECT_DOUBLE_EQ(newtonStep({-0.2, -2.0}, -0.5, p), 0.4);
}

TEST(NewtonStep, LaplaceCrossingZeroStopsExactlyAtZero) {
  const CoordinatePrior p = laplace(2.0);  // lambda = 1
  // beta = 0.3, unconstrained step -(-1 - 1) / -2 = -1 would land at -0.7: stop at 0.
  double beta = 0.3;
  double d = newtonStep({-1.0, -2.0}, beta, p);
  EXPECT_EQ(d, -0.3);
  EXPECT_EQ(beta + d, 0.0);
  // From below: beta = -0.3, unconstrained -(1 + 1) / -2 = 1 would land at 0.7.
  beta = -0.3;
  d = newtonStep({1.0, -2.0}, beta, p);
  EXPECT_EQ(d, 0.3);
  EXPECT_EQ(beta + d, 0.0);
  // Even a tiny overshoot stops at 0: beta = 0.1, lambda = 2, unconstrained step
  // (g - 2) / 10 = -0.1 - 1e-9.
  beta = 0.1;
  d = newtonStep({1.0 - 1e-8, -10.0}, beta, laplace(0.5));
  EXPECT_EQ(beta + d, 0.0);
}

// The proximal point maximizes g d + h d^2 / 2 + log p(beta + d): against a fine grid of d,
// for every prior, from both sides of 0 and from 0; a Laplace coordinate crosses 0 where the
// model gains beyond it, and lands on exactly 0 where it does not.
TEST(ProximalPoint, MaximizesTheModelWithThePriorAndCrossesZeroWhereItGains) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> g(-3.0, 3.0), h(-4.0, -0.2), beta(-1.5, 1.5);
  for (int rep = 0; rep < 300; ++rep) {
    const GradHess gh{g(rng), h(rng)};
    const double b = rep % 5 == 0 ? 0.0 : beta(rng);
    for (const CoordinatePrior p : {kNone, normal(0.4), laplace(0.5), laplace(8.0)}) {
      auto value = [&](double point) {
        const double d = point - b;
        return gh.g * d + 0.5 * gh.h * d * d + logPriorDensity(point, p);
      };
      const double best = proximalPoint(gh, b, p);
      for (double point = -6.0; point <= 6.0; point += 1e-3)
        EXPECT_GE(value(best), value(point) - 1e-12) << rep << " at " << point;
    }
  }
  // From 0.5, slope -1 and curvature 2 under Laplace with lambda 1: the step would cross 0,
  // where the model's slope, g - h beta = 0, is within lambda: exactly 0.
  EXPECT_EQ(proximalPoint({-1.0, -2.0}, 0.5, laplace(2.0)), 0.0);
  // A slope of -4 at 0.5 with curvature 2: at 0 the slope is -3, beyond lambda = 1: -1.
  EXPECT_DOUBLE_EQ(proximalPoint({-4.0, -2.0}, 0.5, laplace(2.0)), -1.0);
  EXPECT_DOUBLE_EQ(proximalPoint({-4.0, -2.0}, 0.5, kNone), -1.5);
}

// Property check against brute force: the step maximizes the one-dimensional quadratic model
// q(d) = g d + h d^2 / 2 + log p(beta + d) over the region the rule allows (everything when
// beta = 0; the closed half-line on beta's side of 0 otherwise).
TEST(NewtonStep, LaplaceStepMaximizesQuadraticModel) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ug(-4.0, 4.0), uh(-5.0, -0.2), ub(-2.0, 2.0),
      uv(0.2, 4.0);
  for (int trial = 0; trial < 400; ++trial) {
    const GradHess gh{ug(rng), uh(rng)};
    const double beta = trial % 3 == 0 ? 0.0 : ub(rng);
    const CoordinatePrior p = laplace(uv(rng));
    const double lambda = laplaceLambda(p.variance);
    auto q = [&](double d) {
      return gh.g * d + 0.5 * gh.h * d * d - lambda * std::fabs(beta + d);
    };
    const double d = newtonStep(gh, beta, p);
    if (beta > 0.0) {
      ASSERT_GE(beta + d, 0.0);
    }
    if (beta < 0.0) {
      ASSERT_LE(beta + d, 0.0);
    }
    double best = -std::numeric_limits<double>::infinity();
    for (int k = -40000; k <= 40000; ++k) {
      const double cand = k * 1e-4;  // grid on [-4, 4]
      if (beta > 0.0 && beta + cand < 0.0) continue;
      if (beta < 0.0 && beta + cand > 0.0) continue;
      best = std::fmax(best, q(cand));
    }
    if (beta != 0.0) best = std::fmax(best, q(-beta));
    ASSERT_GE(q(d), best - 1e-7) << "trial " << trial << " g " << gh.g << " h " << gh.h
                                 << " beta " << beta << " lambda " << lambda << " step " << d;
  }
}

TEST(TrustRegionStep, ClipsAndUpdatesBound) {
  double bound = 2.0;
  EXPECT_EQ(trustRegionStep(0.5, &bound), 0.5);
  EXPECT_EQ(bound, 1.0);  // max(2 * 0.5, 2 / 2)

  bound = 2.0;
  EXPECT_EQ(trustRegionStep(3.0, &bound), 2.0);  // clipped
  EXPECT_EQ(bound, 4.0);                         // max(2 * 2, 1)

  bound = 2.0;
  EXPECT_EQ(trustRegionStep(-3.0, &bound), -2.0);  // clipped from below
  EXPECT_EQ(bound, 4.0);

  bound = 2.0;
  EXPECT_EQ(trustRegionStep(0.1, &bound), 0.1);
  EXPECT_EQ(bound, 1.0);  // max(0.2, 1)

  bound = 1.0;
  EXPECT_EQ(trustRegionStep(-0.7, &bound), -0.7);
  EXPECT_EQ(bound, 1.4);  // max(1.4, 0.5)

  bound = 2.0;
  EXPECT_EQ(trustRegionStep(0.0, &bound), 0.0);
  EXPECT_EQ(bound, 1.0);  // no step: the bound halves

  bound = 0.25;
  EXPECT_EQ(trustRegionStep(1e6, &bound), 0.25);
  EXPECT_EQ(bound, 0.5);
}

// The follower's rule: the same clip, but the bound only grows (to twice the step taken).
TEST(FollowerStep, ClipsAndNeverShrinksTheBound) {
  double bound = 2.0;
  EXPECT_EQ(followerStep(0.1, &bound), 0.1);
  EXPECT_EQ(bound, 2.0);  // a small step leaves it
  EXPECT_EQ(followerStep(0.0, &bound), 0.0);
  EXPECT_EQ(bound, 2.0);
  EXPECT_EQ(followerStep(-1.5, &bound), -1.5);
  EXPECT_EQ(bound, 3.0);  // grows to twice the step
  EXPECT_EQ(followerStep(10.0, &bound), 3.0);  // clipped
  EXPECT_EQ(bound, 6.0);
  bound = 1e-6;
  for (int k = 0; k < 10; ++k) followerStep(1.0, &bound);  // doubles per step at most
  EXPECT_EQ(bound, 1e-6 * 1024);
}

TEST(LogPriorDensity, Values) {
  EXPECT_EQ(logPriorDensity(0.0, kNone), 0.0);
  EXPECT_EQ(logPriorDensity(-3.7, kNone), 0.0);
  // Laplace, var 2 (lambda 1): log(1/2) - |beta|.
  EXPECT_NEAR(logPriorDensity(-1.5, laplace(2.0)), std::log(0.5) - 1.5, 1e-15);
  EXPECT_NEAR(logPriorDensity(0.0, laplace(0.5)), std::log(1.0), 1e-15);  // lambda 2
  EXPECT_NEAR(logPriorDensity(2.0, laplace(0.5)), -4.0, 1e-15);
  // Normal, var 4 at 1: -0.5 log(2 pi 4) - 1/8.
  EXPECT_NEAR(logPriorDensity(1.0, normal(4.0)), -1.737085713764618, 1e-14);
  EXPECT_NEAR(logPriorDensity(0.0, normal(1.0)), -0.9189385332046727, 1e-14);
}

// Both densities are normalized and have the variance they are named after.
TEST(LogPriorDensity, IntegratesToOneWithTheRequestedVariance) {
  for (CoordinatePrior p : {laplace(0.7), laplace(3.0), normal(0.7), normal(3.0)}) {
    double mass = 0.0, second = 0.0;
    const double step = 1e-3;
    for (double b = -60.0; b <= 60.0; b += step) {
      const double dens = std::exp(logPriorDensity(b, p));
      mass += dens * step;
      second += b * b * dens * step;
    }
    EXPECT_NEAR(mass, 1.0, 1e-4) << "kind " << static_cast<int>(p.kind);
    EXPECT_NEAR(second, p.variance, 1e-3) << "kind " << static_cast<int>(p.kind);
  }
}

}  // namespace
}  // namespace argus
