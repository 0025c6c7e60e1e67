// The risk-set index's exit runs and ExitSlotCursor, which the survival scan uses in place of
// the per-row exit slots: both of its modes (walking the runs beyond 2^18 rows, reading the
// array below) must give every visited row its exitSlot, from any starting row.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "data/risk_set_index.h"
#include "survival_test_data.h"

namespace argus {
namespace {

using testing_data::makeSurvivalProblem;
using testing_data::SurvivalSpec;

// Rows visited by a column of the given density, from `first` on.
std::vector<std::int64_t> visitedRows(std::int64_t first, std::int64_t n, double density,
                                      std::mt19937& rng) {
  std::bernoulli_distribution keep(density);
  std::vector<std::int64_t> rows;
  for (std::int64_t r = first; r < n; ++r)
    if (keep(rng)) rows.push_back(r);
  return rows;
}

void expectCursorMatches(const RiskSetIndex& index, double density, std::mt19937& rng) {
  const std::int64_t n = static_cast<std::int64_t>(index.exitSlot.size());
  for (const std::int64_t first : {std::int64_t{0}, n / 3, n - 5}) {
    const std::vector<std::int64_t> rows = visitedRows(first, n, density, rng);
    if (rows.empty()) continue;
    ExitSlotCursor slotOf(index, rows.front(), static_cast<std::int64_t>(rows.size()));
    for (const std::int64_t r : rows) ASSERT_EQ(slotOf(r), index.exitSlot[r]) << "row " << r;
  }
}

TEST(RiskSetIndex, ExitRunsCoverEachSlotOnce) {
  for (const std::int32_t strata : {1, 4}) {
    SurvivalSpec spec;
    spec.nStrata = strata;
    spec.nRows = 500;
    auto p = makeSurvivalProblem(spec);
    const RiskSetIndex index = buildRiskSetIndex(p->data);
    ASSERT_EQ(index.runStart.size(), index.runSlot.size() + 1);
    EXPECT_EQ(index.runStart.front(), 0);
    EXPECT_EQ(index.runStart.back(), p->nRows());
    std::vector<int> runsOfSlot(static_cast<std::size_t>(index.nSlots), 0);
    for (std::size_t m = 0; m < index.runSlot.size(); ++m) {
      ++runsOfSlot[index.runSlot[m]];
      for (std::int64_t r = index.runStart[m]; r < index.runStart[m + 1]; ++r)
        ASSERT_EQ(index.exitSlot[r], index.runSlot[m]);
    }
    for (const int k : runsOfSlot) EXPECT_LE(k, 1);
    std::mt19937 rng(3);
    expectCursorMatches(index, 0.3, rng);
  }
}

TEST(RiskSetIndex, CursorWalksRunsOnLargeData) {
  // 300,000 rows in 3 strata, slots falling within each stratum in runs of 1 to 2,000 rows.
  RiskSetIndex index;
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::int64_t> runLength(1, 2000);
  const std::int64_t n = 300000;
  std::int32_t base = 0;
  for (std::int32_t s = 0; s < 3; ++s) {
    const std::int64_t end = n * (s + 1) / 3;
    std::vector<std::int64_t> lengths;
    for (std::int64_t r = static_cast<std::int64_t>(index.exitSlot.size()); r < end;) {
      lengths.push_back(std::min(runLength(rng), end - r));
      r += lengths.back();
    }
    const std::int32_t slots = static_cast<std::int32_t>(lengths.size());
    for (std::int32_t m = 0; m < slots; ++m) {
      index.runStart.push_back(static_cast<std::int64_t>(index.exitSlot.size()));
      index.runSlot.push_back(base + slots - 1 - m);  // descending within the stratum
      index.exitSlot.insert(index.exitSlot.end(), static_cast<std::size_t>(lengths[m]),
                            base + slots - 1 - m);
    }
    base += slots;
  }
  index.runStart.push_back(n);
  index.nSlots = base;
  expectCursorMatches(index, 0.05, rng);  // the walk: about 15,000 entries against 300 runs
  expectCursorMatches(index, 0.0005, rng);  // too few entries: the array
}

}  // namespace
}  // namespace argus
