// findRoot(): accuracy, the evaluation count on smooth and on awkward functions, and the
// clean failures (no bracket, NaN, the evaluation cap).
#include <gtest/gtest.h>

#include <cmath>

#include "solver/root_finding.h"

namespace argus {
namespace {

template <typename F>
RootResult solve(F f, double a, double b, double tol, int cap = 100) {
  return findRoot(f, a, f(a), b, f(b), tol, cap);
}

TEST(FindRoot, SmoothFunctionsConvergeFast) {
  // A concave "profile minus target" like the ones the profile likelihood solves.
  auto profile = [](double x) { return 1.92 - 0.5 * x * x - 0.1 * x * x * x * x; };
  const double exact = std::sqrt((-0.5 + std::sqrt(0.25 + 4 * 0.1 * 1.92)) / 0.2);
  const RootResult r = solve(profile, 0.0, 8.0, 1e-10);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.root, exact, 1e-9);
  EXPECT_LE(r.evaluations, 15);

  const RootResult c = solve([](double x) { return std::cos(x) - x; }, 0.0, 1.0, 1e-12);
  EXPECT_TRUE(c.converged);
  EXPECT_NEAR(c.root, 0.7390851332151607, 1e-11);
  EXPECT_LE(c.evaluations, 12);
}

TEST(FindRoot, AwkwardFunctionsStayBounded) {
  // Flat almost everywhere, then a cliff: interpolation is useless, bisection must take over.
  auto cliff = [](double x) { return x < 3.21 ? 1.0 : -1.0 - (x - 3.21); };
  const RootResult r = solve(cliff, 0.0, 100.0, 1e-8);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.root, 3.21, 1e-7);
  EXPECT_LE(r.evaluations, 80);
  // A root at a bracket end.
  const RootResult edge = solve([](double x) { return x - 2.0; }, 2.0, 5.0, 1e-9);
  EXPECT_TRUE(edge.converged);
  EXPECT_EQ(edge.root, 2.0);
  EXPECT_EQ(edge.evaluations, 0);
  // Order of the ends does not matter.
  const RootResult flipped = solve([](double x) { return 1.0 - x * x; }, 5.0, 0.0, 1e-12);
  EXPECT_NEAR(flipped.root, 1.0, 1e-11);
}

TEST(FindRoot, FailsCleanly) {
  auto positive = [](double x) { return 1.0 + x * x; };
  EXPECT_FALSE(solve(positive, -1.0, 1.0, 1e-8).converged);
  EXPECT_TRUE(std::isnan(solve(positive, -1.0, 1.0, 1e-8).root));
  // NaN inside the bracket stops the search (the first secant step lands at 0.7).
  auto holed = [](double x) { return x > 0.6 && x < 0.8 ? std::nan("") : 0.7 - x * x * x; };
  const RootResult h = solve(holed, 0.0, 1.0, 1e-10);
  EXPECT_FALSE(h.converged);
  // The cap on evaluations is honoured.
  const RootResult capped = solve([](double x) { return std::atan(x - 1.234); }, -1e6, 1e6,
                                  1e-14, 5);
  EXPECT_FALSE(capped.converged);
  EXPECT_EQ(capped.evaluations, 5);
}

}  // namespace
}  // namespace argus
