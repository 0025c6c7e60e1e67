// The variance search strategies (selection/variance_search.h) on known score curves, with
// no fitting: the grid, bracketing up and down by decades, the quadratic refinement, the
// step limit and ties.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/errors.h"
#include "selection/variance_search.h"

namespace argus {
namespace {

// A concave curve in log10(variance) with its maximum at `best`.
ScoreFunction peakAt(double best, std::vector<double>* calls) {
  return [best, calls](double v) {
    calls->push_back(v);
    const double d = std::log10(v) - std::log10(best);
    return -100.0 - d * d;
  };
}

TEST(VarianceGrid, LogSpacedWithExactEnds) {
  const std::vector<double> grid = varianceGrid(0.01, 100.0, 5);
  ASSERT_EQ(grid.size(), 5u);
  EXPECT_EQ(grid.front(), 0.01);
  EXPECT_EQ(grid.back(), 100.0);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(std::log10(grid[i]), -2.0 + i, 1e-12);
  EXPECT_THROW(varianceGrid(0.0, 1.0, 5), ArgusError);
  EXPECT_THROW(varianceGrid(2.0, 1.0, 5), ArgusError);
  EXPECT_THROW(varianceGrid(0.1, 1.0, 1), ArgusError);
}

TEST(SearchVariance, GridPicksTheBestGridPoint) {
  std::vector<double> calls;
  SearchSettings settings;
  settings.type = SearchType::Grid;
  settings.lowerLimit = 0.001;
  settings.upperLimit = 1000.0;
  settings.gridSteps = 7;
  const SearchOutcome out = searchVariance(settings, peakAt(8.0, &calls));
  EXPECT_EQ(calls.size(), 7u);
  EXPECT_NEAR(out.variance, 10.0, 1e-9);
  for (std::size_t i = 1; i < calls.size(); ++i) EXPECT_GT(calls[i], calls[i - 1]);
}

TEST(SearchVariance, AutoBracketsUpOrDownAndRefinesToTheVertex) {
  for (double best : {3e-4, 0.05, 1.0, 7.0, 2e3}) {
    for (double tolerance : {0.05, 1e-6}) {
      std::vector<double> calls;
      SearchSettings settings;
      settings.start = 1.0;
      settings.refineTolerance = tolerance;
      const SearchOutcome out = searchVariance(settings, peakAt(best, &calls));
      EXPECT_TRUE(out.bracketed);
      // The curve is an exact parabola in log10(v): one parabola step lands on the vertex,
      // unless an evaluated point is already within the tolerance.
      EXPECT_NEAR(std::log10(out.variance), std::log10(best), tolerance == 1e-6 ? 1e-9 : tolerance)
          << best;
      // At most 8 bracketing scores here, 2 half-decade points and 3 parabola steps.
      EXPECT_LE(calls.size(), 8u + 2u + 3u) << best;
    }
  }
}

TEST(SearchVariance, AutoScoresTheSecondHalfDecadeOnlyWhenTheFirstDoesNotImprove) {
  auto count = [](const std::vector<double>& calls, double v) {
    int n = 0;
    for (double c : calls) n += std::fabs(std::log10(c / v)) < 1e-9 ? 1 : 0;
    return n;
  };
  // Peak 0.3 decades below 10 (bracket center: 1, 10 and 100 are scored, 100 falls), so the
  // better neighbour is 1: 10^0.5 is scored, improves on 10, and 10^1.5 is never scored.
  {
    std::vector<double> calls;
    SearchSettings settings;
    settings.start = 1.0;
    const SearchOutcome out = searchVariance(settings, peakAt(std::pow(10.0, 0.7), &calls));
    EXPECT_EQ(count(calls, std::pow(10.0, 0.5)), 1);
    EXPECT_EQ(count(calls, std::pow(10.0, 1.5)), 0);
    EXPECT_NEAR(std::log10(out.variance), 0.7, 0.05);
  }
  // Peak 0.05 decades above 100 on a skewed curve that falls slowly above, so the better
  // neighbour is 1000: 10^2.5 is scored first, does not improve, and 10^1.5 is scored too.
  {
    std::vector<double> calls;
    SearchSettings settings;
    settings.start = 1.0;
    const SearchOutcome out = searchVariance(settings, [&](double v) {
      calls.push_back(v);
      const double d = std::log10(v) - 2.05;
      return d < 0.0 ? -100.0 - 4.0 * d * d : -100.0 - 0.25 * d * d;
    });
    EXPECT_EQ(count(calls, std::pow(10.0, 2.5)), 1);
    EXPECT_EQ(count(calls, std::pow(10.0, 1.5)), 1);
    EXPECT_GE(calls.size(), 6u);
    EXPECT_LT(std::fabs(std::log10(out.variance) - 2.05), 0.1);
  }
}

// The walk slows down over the maximum: the vertex of the last three points is scored before
// the next decade, brackets the peak, and the next decade is never scored.
TEST(SearchVariance, AVertexStepBracketsWhereTheWalkSlowsDown) {
  for (double direction : {1.0, -1.0}) {
    std::vector<double> calls;
    SearchSettings settings;
    settings.start = 1.0;
    // Skewed like a CV curve: steep on the strongly penalized side, flat on the other.
    const double peak = 1.55 * direction;
    const SearchOutcome out = searchVariance(settings, [&](double v) {
      calls.push_back(v);
      const double d = (std::log10(v) - peak) * direction;
      return d < 0.0 ? -100.0 - 4.0 * d * d : -100.0 - 0.5 * d * d;
    });
    EXPECT_TRUE(out.bracketed);
    // Up: 1, 10, 100, then the vertex (between 10 and 100), which brackets the peak. Down:
    // 1, 10 (worse), 0.1, 0.01, then the vertex.
    const std::size_t at = direction > 0 ? 3 : 4;
    ASSERT_GT(calls.size(), at);
    const double vertex = std::log10(calls[at]) * direction;
    EXPECT_GT(vertex, 1.1);
    EXPECT_LT(vertex, 1.9);
    for (double c : calls) EXPECT_LT(std::fabs(std::log10(c)), 2.5) << "scored " << c;
    // (Skewed 8 to 1 in curvature, the parabola steps land within about 0.1 decade.)
    EXPECT_LT(std::fabs(std::log10(out.variance) - peak), 0.15);
    EXPECT_LE(calls.size(), at + 1 + 3);
  }
}

// A vertex that does not beat the last point costs one evaluation; the walk goes on to the
// real peak.
TEST(SearchVariance, AFailedVertexStepLetsTheWalkGoOn) {
  std::vector<double> calls;
  SearchSettings settings;
  settings.start = 1.0;
  // Steep up to t = 1, then a slow rise up to t = 3.4, then falling.
  const SearchOutcome out = searchVariance(settings, [&](double v) {
    calls.push_back(v);
    const double t = std::log10(v);
    if (t <= 1.0) return 10.0 * t;
    if (t <= 3.4) return 10.0 + (t - 1.0);
    return 12.4 - 5.0 * (t - 3.4);
  });
  EXPECT_TRUE(out.bracketed);
  ASSERT_GE(calls.size(), 5u);
  EXPECT_GT(std::log10(calls[3]), 1.1);  // the vertex of 0, 1, 2: tried, beaten by 2
  EXPECT_LT(std::log10(calls[3]), 1.9);
  EXPECT_NEAR(std::log10(calls[4]), 3.0, 1e-12);  // the walk went on
  EXPECT_NEAR(std::log10(out.variance), 3.4, 0.3);
}

TEST(SearchVariance, AutoStopsAtTheStepLimitOnAMonotoneCurve) {
  std::vector<double> calls;
  SearchSettings settings;
  settings.start = 1.0;
  settings.maxBracketSteps = 4;
  const SearchOutcome out =
      searchVariance(settings, [&](double v) { calls.push_back(v); return std::log(v); });
  EXPECT_FALSE(out.bracketed);
  EXPECT_NEAR(out.variance, 1e5, 1e-6);
  EXPECT_EQ(calls.size(), 6u);
}

TEST(SearchVariance, TiesGoToTheSmallerVarianceAndNanIsWorst) {
  std::vector<double> calls;
  SearchSettings settings;
  settings.start = 1.0;
  // Flat below 10 (a Laplace prior strong enough to zero everything), falling above.
  const SearchOutcome out = searchVariance(settings, [&](double v) {
    calls.push_back(v);
    return v <= 10.0 ? -5.0 : -5.0 - std::log10(v / 10.0);
  });
  EXPECT_TRUE(out.bracketed);
  EXPECT_EQ(out.variance, 1.0);
  const SearchOutcome withNan = searchVariance(settings, [](double v) {
    return v > 5.0 ? std::nan("") : -std::fabs(std::log10(v) - 0.3);
  });
  EXPECT_TRUE(std::isfinite(withNan.score));
  EXPECT_LT(withNan.variance, 5.0);
}

TEST(SearchVariance, RejectsABadStart) {
  SearchSettings settings;
  settings.start = 0.0;
  EXPECT_THROW(searchVariance(settings, [](double) { return 0.0; }), ArgusError);
}

}  // namespace
}  // namespace argus
