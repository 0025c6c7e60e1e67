// Sampling units, fold plans and the engine's random numbers (selection/folds.h,
// selection/random_stream.h): balanced fold sizes, strata kept whole, outcome balancing,
// determinism, user-supplied folds, and the resampling counts of the bootstrap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "common/errors.h"
#include "selection/bootstrap.h"
#include "selection/folds.h"
#include "selection/random_stream.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;

std::vector<std::int64_t> countPerFold(const std::vector<std::int32_t>& foldOfUnit, int folds) {
  std::vector<std::int64_t> count(static_cast<std::size_t>(folds), 0);
  for (std::int32_t f : foldOfUnit) ++count[f];
  return count;
}

// Per unit, the fold of its first row (and a check that all its rows agree).
std::vector<std::int32_t> foldOfUnits(const Dataset& data, const FoldPlan& plan, int rep) {
  std::vector<std::int32_t> fold(static_cast<std::size_t>(unitCount(data, plan.unit)), -1);
  for (std::int64_t r = 0; r < data.nRows(); ++r) {
    std::int32_t& f = fold[unitOfRow(data, plan.unit, r)];
    if (f < 0) f = plan.foldOfRow[rep][r];
    EXPECT_EQ(f, plan.foldOfRow[rep][r]) << "a unit is split across folds";
  }
  return fold;
}

TEST(RandomStream, SplitMix64MatchesPublishedSequence) {
  std::uint64_t state = 1234567;
  EXPECT_EQ(splitMix64(&state), 6457827717110365317ULL);
  EXPECT_EQ(splitMix64(&state), 3203168211198807973ULL);
  EXPECT_EQ(splitMix64(&state), 9817491932198370423ULL);
}

TEST(RandomStream, UniformBelowStaysInRangeAndCoversIt) {
  RandomStream rng(7);
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 10ULL, 1000003ULL}) {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t x = rng.uniformBelow(n);
      ASSERT_LT(x, n);
      seen.insert(x);
    }
    if (n <= 10) EXPECT_EQ(seen.size(), n);
  }
  // Roughly uniform: 60000 draws on 6 values, each count within 5% of 10000.
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60000; ++i) ++counts[rng.uniformBelow(6)];
  for (int c : counts) EXPECT_NEAR(c, 10000, 500);
}

TEST(RandomStream, StreamsAreReproducibleAndDistinct) {
  RandomStream a(streamSeed(11, 0)), b(streamSeed(11, 0)), c(streamSeed(11, 1)), d(streamSeed(12, 0));
  const std::uint64_t first = a.next();
  EXPECT_EQ(first, b.next());
  EXPECT_NE(first, c.next());
  EXPECT_NE(first, d.next());
  std::vector<int> v(50);
  std::iota(v.begin(), v.end(), 0);
  std::vector<int> shuffled = v;
  RandomStream(3).shuffle(&shuffled);
  EXPECT_NE(shuffled, v);
  std::sort(shuffled.begin(), shuffled.end());
  EXPECT_EQ(shuffled, v);
}

TEST(SamplingUnit, AutoIsStratumExactlyForConditionalModels) {
  auto lr = makeProblem({ModelType::Logistic});
  auto clr = makeProblem({ModelType::ConditionalLogistic});
  EXPECT_EQ(resolveSamplingUnit(lr->data, SamplingUnit::Auto), SamplingUnit::Row);
  EXPECT_EQ(resolveSamplingUnit(clr->data, SamplingUnit::Auto), SamplingUnit::Stratum);
  EXPECT_EQ(resolveSamplingUnit(clr->data, SamplingUnit::Row), SamplingUnit::Row);
  // byPid without strata: each row is its own unit (the incumbent's person id is the row's)
  EXPECT_EQ(resolveSamplingUnit(lr->data, SamplingUnit::Stratum), SamplingUnit::Row);
  // Strata on a non-conditional model (stratified Cox, say) are baseline groups, not
  // sampling units: Auto gives rows, and byPid can still be asked for.
  auto strat = makeProblem({ModelType::ConditionalPoisson});
  strat->data.model = ModelType::Poisson;
  EXPECT_EQ(resolveSamplingUnit(strat->data, SamplingUnit::Auto), SamplingUnit::Row);
  EXPECT_EQ(resolveSamplingUnit(strat->data, SamplingUnit::Stratum), SamplingUnit::Stratum);
}

TEST(FoldPlan, RowFoldsHaveBalancedSizes) {
  for (std::int64_t n : {240, 243, 251}) {
    ProblemSpec spec{ModelType::Logistic};
    spec.nRows = n;
    auto problem = makeProblem(spec);
    FoldSettings settings;
    settings.folds = 10;
    settings.repetitions = 3;
    settings.seed = 99;
    const FoldPlan plan = makeFoldPlan(problem->data, settings);
    ASSERT_EQ(plan.repetitions(), 3);
    EXPECT_EQ(plan.unit, SamplingUnit::Row);
    for (int rep = 0; rep < 3; ++rep) {
      const std::vector<std::int64_t> size = countPerFold(plan.foldOfRow[rep], 10);
      const auto [lo, hi] = std::minmax_element(size.begin(), size.end());
      EXPECT_LE(*hi - *lo, 1) << "n = " << n;
      EXPECT_EQ(*lo, n / 10);
    }
    EXPECT_NE(plan.foldOfRow[0], plan.foldOfRow[1]) << "repetitions must re-permute";
  }
}

TEST(FoldPlan, StrataStayWholeAndBalanced) {
  for (ModelType m : {ModelType::ConditionalLogistic, ModelType::SelfControlledCaseSeries}) {
    ProblemSpec spec{m};
    spec.nStrata = 37;
    auto problem = makeProblem(spec);
    FoldSettings settings;
    settings.folds = 5;
    settings.repetitions = 2;
    settings.seed = 5;
    const FoldPlan plan = makeFoldPlan(problem->data, settings);
    EXPECT_EQ(plan.unit, SamplingUnit::Stratum);
    for (int rep = 0; rep < 2; ++rep) {
      const std::vector<std::int32_t> fold = foldOfUnits(problem->data, plan, rep);
      const std::vector<std::int64_t> size = countPerFold(fold, 5);
      const auto [lo, hi] = std::minmax_element(size.begin(), size.end());
      EXPECT_LE(*hi - *lo, 1);
    }
  }
}

TEST(FoldPlan, OutcomeBalancingSpreadsEvents) {
  ProblemSpec spec{ModelType::Logistic};
  spec.nRows = 400;
  auto problem = makeProblem(spec);
  // Make events rare (23 of 400) so that unbalanced folds would often miss them.
  for (std::int64_t r = 0; r < spec.nRows; ++r) problem->y[r] = (r % 17 == 3) ? 1.0 : 0.0;
  std::int64_t events = 0;
  for (double y : problem->y) events += y > 0 ? 1 : 0;
  for (std::uint64_t seed : {1ULL, 2ULL, 3ULL, 4ULL}) {
    FoldSettings settings;
    settings.folds = 10;
    settings.balanceOutcome = true;
    settings.seed = seed;
    const FoldPlan plan = makeFoldPlan(problem->data, settings);
    std::vector<std::int64_t> eventsIn(10, 0);
    for (std::int64_t r = 0; r < spec.nRows; ++r)
      if (problem->y[r] > 0) ++eventsIn[plan.foldOfRow[0][r]];
    const auto [lo, hi] = std::minmax_element(eventsIn.begin(), eventsIn.end());
    EXPECT_LE(*hi - *lo, 1);
    EXPECT_EQ(*lo, events / 10);
    const std::vector<std::int64_t> size = countPerFold(plan.foldOfRow[0], 10);
    const auto [slo, shi] = std::minmax_element(size.begin(), size.end());
    EXPECT_LE(*shi - *slo, 1);
  }
}

TEST(FoldPlan, DeterministicGivenTheSeed) {
  auto problem = makeProblem({ModelType::Poisson});
  FoldSettings settings;
  settings.folds = 4;
  settings.repetitions = 2;
  settings.seed = 2024;
  const FoldPlan a = makeFoldPlan(problem->data, settings);
  const FoldPlan b = makeFoldPlan(problem->data, settings);
  EXPECT_EQ(a.foldOfRow, b.foldOfRow);
  settings.repetitions = 1;
  EXPECT_EQ(makeFoldPlan(problem->data, settings).foldOfRow[0], a.foldOfRow[0])
      << "repetition r must not depend on how many repetitions were asked for";
  settings.seed = 2025;
  EXPECT_NE(makeFoldPlan(problem->data, settings).foldOfRow[0], a.foldOfRow[0]);
}

TEST(FoldPlan, RejectsTooManyFolds) {
  ProblemSpec spec{ModelType::ConditionalPoisson};
  spec.nStrata = 6;
  auto problem = makeProblem(spec);
  FoldSettings settings;
  settings.folds = 7;
  EXPECT_THROW(makeFoldPlan(problem->data, settings), ArgusError);
  settings.folds = 1;
  EXPECT_THROW(makeFoldPlan(problem->data, settings), ArgusError);
}

TEST(FoldPlan, UserFoldIdsAreHonouredAndChecked) {
  auto lr = makeProblem({ModelType::Logistic});
  std::vector<std::int32_t> ids(static_cast<std::size_t>(lr->nRows()));
  for (std::size_t r = 0; r < ids.size(); ++r) ids[r] = static_cast<std::int32_t>(r % 3);
  const FoldPlan plan = foldPlanFromIds(lr->data, ids, SamplingUnit::Auto);
  EXPECT_EQ(plan.folds, 3);
  ASSERT_EQ(plan.repetitions(), 1);
  EXPECT_EQ(plan.foldOfRow[0], ids);
  std::vector<std::int32_t> gap = ids;
  for (std::int32_t& f : gap) f = f == 1 ? 2 : f;  // fold 1 empty
  EXPECT_THROW(foldPlanFromIds(lr->data, gap, SamplingUnit::Auto), ArgusError);
  EXPECT_THROW(foldPlanFromIds(lr->data, std::vector<std::int32_t>(ids.size(), 0), SamplingUnit::Auto), ArgusError);

  auto clr = makeProblem({ModelType::ConditionalLogistic});
  std::vector<std::int32_t> byStratum(static_cast<std::size_t>(clr->nRows()));
  for (std::size_t r = 0; r < byStratum.size(); ++r) byStratum[r] = clr->stratum[r] % 4;
  EXPECT_EQ(foldPlanFromIds(clr->data, byStratum, SamplingUnit::Auto).folds, 4);
  std::vector<std::int32_t> split(byStratum.size());
  for (std::size_t r = 0; r < split.size(); ++r) split[r] = static_cast<std::int32_t>(r % 2);
  EXPECT_THROW(foldPlanFromIds(clr->data, split, SamplingUnit::Auto), ArgusError);
  EXPECT_NO_THROW(foldPlanFromIds(clr->data, split, SamplingUnit::Row));
}

TEST(FoldWeights, SplitTheUserWeights) {
  auto problem = makeProblem({ModelType::Logistic});
  FoldSettings settings;
  settings.folds = 3;
  const FoldPlan plan = makeFoldPlan(problem->data, settings);
  std::vector<double> training, heldOut;
  foldWeights(plan, 0, 1, problem->weightPtr(), &training, &heldOut);
  for (std::int64_t r = 0; r < problem->nRows(); ++r) {
    EXPECT_EQ(training[r] + heldOut[r], problem->w(r));
    EXPECT_EQ(heldOut[r] != 0.0 || problem->w(r) == 0.0, plan.foldOfRow[0][r] == 1 || problem->w(r) == 0.0);
  }
}

TEST(ResampleCounts, DrawAsManyUnitsAsThereAreAndRepeat) {
  const std::vector<std::int32_t> a = resampleCounts(500, 17, 3);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0), 500);
  EXPECT_EQ(a, resampleCounts(500, 17, 3));
  EXPECT_NE(a, resampleCounts(500, 17, 4));
  // About 1 - 1/e of the units appear in a bootstrap sample.
  const double present = static_cast<double>(std::count_if(a.begin(), a.end(), [](int c) { return c > 0; }));
  EXPECT_NEAR(present / 500.0, 0.632, 0.06);
}

// With clusters (a patient's (start, stop] rows), Auto deals whole clusters to folds: none is
// split, fold sizes in clusters differ by at most one, and with outcome balancing the clusters
// with an event are dealt first. Conditional models keep their strata; Row ignores clusters.
TEST(FoldPlan, ClustersAreKeptWhole) {
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.nRows = 300;
  auto problem = makeProblem(spec);
  const Dataset& data = problem->data;
  FoldSettings settings;
  settings.folds = 4;
  settings.seed = 9;
  settings.balanceOutcome = true;
  for (std::int64_t r = 0; r < data.nRows(); ++r) settings.clusterOfRow.push_back(static_cast<std::int32_t>((r * 11) % 37));
  const FoldPlan plan = makeFoldPlan(data, settings);
  EXPECT_EQ(plan.unit, SamplingUnit::Cluster);
  std::vector<std::int32_t> foldOfCluster(37, -1);
  std::vector<int> eventClusters(4, 0);
  std::vector<unsigned char> clusterEvent(37, 0);
  for (std::int64_t r = 0; r < data.nRows(); ++r) {
    std::int32_t& f = foldOfCluster[settings.clusterOfRow[r]];
    if (f < 0) f = plan.foldOfRow[0][r];
    EXPECT_EQ(f, plan.foldOfRow[0][r]) << "cluster " << settings.clusterOfRow[r] << " is split";
    if (data.outcomes.y[r] > 0.0) clusterEvent[settings.clusterOfRow[r]] = 1;
  }
  const std::vector<std::int64_t> sizes = countPerFold(foldOfCluster, 4);
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()) - *std::min_element(sizes.begin(), sizes.end()), 1);
  for (int c = 0; c < 37; ++c)
    if (clusterEvent[c]) ++eventClusters[foldOfCluster[c]];
  EXPECT_LE(*std::max_element(eventClusters.begin(), eventClusters.end()) -
                *std::min_element(eventClusters.begin(), eventClusters.end()), 1);
  settings.unit = SamplingUnit::Row;
  EXPECT_EQ(makeFoldPlan(data, settings).unit, SamplingUnit::Row);
  settings.unit = SamplingUnit::Auto;
  settings.clusterOfRow.assign(static_cast<std::size_t>(data.nRows()), 0);
  EXPECT_THROW(makeFoldPlan(data, settings), ArgusError);  // 1 cluster, 4 folds
  auto conditional = makeProblem({ModelType::ConditionalPoisson});
  FoldSettings strata;
  strata.folds = 3;
  strata.clusterOfRow.assign(static_cast<std::size_t>(conditional->nRows()), 0);
  EXPECT_EQ(makeFoldPlan(conditional->data, strata).unit, SamplingUnit::Stratum);
}

}  // namespace
}  // namespace argus
