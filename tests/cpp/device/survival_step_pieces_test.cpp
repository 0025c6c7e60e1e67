// A survival step's slot sums across chunks (survival_step_slots.h), run on the host: pass 1
// per chunk, then the shares of the slots that cross a cut ("pieces") settled either by
// walking each crossing slot's range of pieces (crossingGroups, survival_chunk_cuts.h) or by
// a scan by slot over all pieces. Both must give every slot the sum of its items, whatever
// the cuts; the values are small integers, so every order of addition sums them exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "data/risk_set_index.h"
#include "device/survival_chunk_cuts.h"
#include "device/survival_step_slots.h"
#include "survival_test_data.h"

namespace argus {
namespace {

using namespace survival_device;

struct Settled {
  std::vector<double> walked, scanned, expected;
  std::vector<CrossingGroup> groups;
  std::int64_t longest = 0, crossings = 0;
};

// Items with the given slots (in slot order) and values v; nSlots slots in all.
Settled settleOnHost(const std::vector<std::int32_t>& slots, const std::vector<double>& v, std::int32_t nSlots) {
  const std::int64_t n = static_cast<std::int64_t>(slots.size());
  auto slotOf = [&](std::int64_t i) { return slots[i]; };
  std::vector<std::int64_t> begin;
  const ChunkCuts cuts = cutChunks(n, kSurvivalChunkItems, false, slotOf, &begin);
  std::vector<StagedEntry> staged(static_cast<std::size_t>(n));
  Settled out;
  out.expected.assign(static_cast<std::size_t>(nSlots), 0.0);
  for (std::int64_t k = 0; k < n; ++k) {
    staged[k] = StagedEntry{v[k], 1.0, 0.0, slots[k], 0};
    out.expected[slots[k]] += v[k];
  }
  const ChunkView ch{begin.data(), cuts.count, n, nullptr, n, cuts.crossings};
  SurvivalDeviceScalars sc;
  sc.step = 0.5;
  sc.stepped = 1;
  const std::int64_t pieces = 2 * cuts.count;
  std::vector<std::int32_t> pieceSlot(static_cast<std::size_t>(pieces));
  std::vector<SlotChange> piece(static_cast<std::size_t>(pieces));
  auto passOne = [&](std::vector<double>* exitRisk) {
    exitRisk->assign(static_cast<std::size_t>(nSlots), 0.0);
    SurvivalSlotState st{};
    st.exitRisk = exitRisk->data();
    const StepChunkSlots<false, false> step{ch, staged.data(), st, pieceSlot.data(), piece.data(), &sc};
    for (std::int64_t i = 0; i < cuts.count; ++i) step(i);
    return st;
  };
  // The walk, one call per crossing slot.
  SurvivalSlotState st = passOne(&out.walked);
  out.longest = crossingGroups(begin.data(), cuts.count, slotOf, &out.groups);
  const SettleCrossingGroups<false, false> walk{out.groups.data(), piece.data(), st, &sc};
  for (std::size_t g = 0; g < out.groups.size(); ++g) walk(static_cast<std::int64_t>(g));
  // The scan: inclusive sums of the pieces by slot, then each slot's last piece settles.
  st = passOne(&out.scanned);
  std::vector<SlotChange> total(piece.size());
  for (std::int64_t k = 0; k < pieces; ++k)
    total[k] = k > 0 && pieceSlot[k] == pieceSlot[k - 1] ? SlotChangePlus{}(total[k - 1], piece[k]) : piece[k];
  const SettleSlotPieces<false, false> settle{pieces, pieceSlot.data(), total.data(), st, &sc};
  for (std::int64_t k = 0; k < pieces; ++k) settle(k);
  // Every piece that holds a crossing slot's share lies in that slot's range.
  for (const CrossingGroup& g : out.groups)
    for (std::int64_t k = 0; k < pieces; ++k)
      if (pieceSlot[k] == g.slot && piece[k].risk != 0.0) {
        EXPECT_GE(k, g.first) << "slot " << g.slot;
        EXPECT_LE(k, g.last) << "slot " << g.slot;
      }
  out.crossings = cuts.crossings;
  return out;
}

// Slots in runs of the given lengths, values 1-7.
Settled settleRuns(const std::vector<int>& lengths) {
  std::vector<std::int32_t> slots;
  std::vector<double> v;
  std::int32_t slot = 0;
  for (int length : lengths) {
    for (int i = 0; i < length; ++i) {
      slots.push_back(slot);
      v.push_back(static_cast<double>(1 + (slots.size() * 5) % 7));
    }
    ++slot;
  }
  return settleOnHost(slots, v, slot);
}

TEST(SurvivalStepPieces, ContinuousTimesWithLongLateSlotsSettleByWalkAndByScan) {
  // Runs of 1-3 items with a few long slots among them (continuous times, whose late slots
  // collect many censored rows: 40-130 entries of a column at Cox 1e6).
  std::mt19937 rng(5);
  std::vector<int> lengths;
  for (int i = 0; i < 3000; ++i) lengths.push_back(i % 500 == 250 ? 40 + i / 25 : 1 + static_cast<int>(rng() % 3));
  const Settled s = settleRuns(lengths);
  EXPECT_GT(s.crossings, 5);
  EXPECT_EQ(s.groups.size(), 6u);  // the six long slots
  EXPECT_GE(s.longest, 5);
  EXPECT_LE(s.longest, kSurvivalWalkPieces);
  EXPECT_EQ(s.walked, s.expected);
  EXPECT_EQ(s.scanned, s.expected);
}

TEST(SurvivalStepPieces, WholeDaysAndSlotsThatBeginAtACut) {
  // Days of 100 entries (~12 pieces a slot) and of 1,000 (past kWalkPieces, where the plan
  // scans), and runs that make a chunk hold one slot only, or start a slot at its first item.
  const Settled days = settleRuns(std::vector<int>(40, 100));
  EXPECT_EQ(days.groups.size(), 40u);
  EXPECT_EQ(days.walked, days.expected);
  EXPECT_EQ(days.scanned, days.expected);
  const Settled long_ = settleRuns({3, 1000, 16, 16, 20, 21, 2, 1000, 1});
  EXPECT_GT(long_.longest, kSurvivalWalkPieces);
  EXPECT_EQ(long_.walked, long_.expected);
  EXPECT_EQ(long_.scanned, long_.expected);
  std::vector<int> mixed;
  for (int i = 0; i < 400; ++i) mixed.push_back(i % 7 == 0 ? 17 + i % 13 : 1 + i % 5);
  const Settled m = settleRuns(mixed);
  EXPECT_GT(m.crossings, 10);
  EXPECT_EQ(m.walked, m.expected);
  EXPECT_EQ(m.scanned, m.expected);
}

TEST(SurvivalStepPieces, OneChunkAndNoCrossing) {
  const Settled one = settleRuns({5, 4});
  EXPECT_TRUE(one.groups.empty());
  EXPECT_EQ(one.longest, 0);
  EXPECT_EQ(one.walked, one.expected);
  const Settled distinct = settleRuns(std::vector<int>(500, 1));
  EXPECT_EQ(distinct.crossings, 0);
  EXPECT_TRUE(distinct.groups.empty());
  EXPECT_EQ(distinct.walked, distinct.expected);
}

// Columns of the Breslow test data whose crossing slots a step walks, and whose it scans.
std::pair<int, int> settlings(int days, std::int32_t strata, ModelType model = ModelType::Cox) {
  testing_data::SurvivalSpec spec;
  spec.model = model;
  spec.nRows = 3000;
  spec.nStrata = strata;
  spec.days = days;
  spec.integerTimes = true;
  auto p = testing_data::makeSurvivalProblem(spec);
  const RiskSetIndex index = buildRiskSetIndex(p->data);
  int walked = 0, scanned = 0;
  for (const ColumnView& c : p->data.design.columns) {
    const bool sparse = c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
    const std::int64_t n = sparse ? c.nnz : p->data.nRows();
    auto slotOf = [&](std::int64_t k) { return index.exitSlot[sparse ? c.rows[k] : k]; };
    std::vector<std::int64_t> begin;
    const ChunkCuts cuts = cutChunks(n, kSurvivalChunkItems, false, slotOf, &begin);
    std::vector<CrossingGroup> groups;
    if (cuts.crossings == 0) continue;
    (crossingGroups(begin.data(), cuts.count, slotOf, &groups) <= kSurvivalWalkPieces ? walked : scanned)++;
  }
  return {walked, scanned};
}

TEST(SurvivalStepPieces, TheDeviceSuitesSurvivalDataTakeBothSettlings) {
  // DeviceRunner.SurvivalAcrossManyChunksMatchesTheCpu's Breslow data (3,000 rows), cut as
  // device_survival_plan.h cuts them: with 25 days in 3 strata the columns' crossing slots
  // are walked; with 2 days in one, some are scanned (the dense columns', at chunks of 16),
  // so that test compares both with the CPU.
  EXPECT_GT(settlings(25, 3).first, 0) << "no column of the 25-day data walks its crossings";
  EXPECT_GT(settlings(2, 1).second, 0) << "no column of the long-slot data scans its pieces";
  // Fine-Gray cuts inside slots too (the scan's merge handles a split slot group: see
  // survival_chunk_cuts.h), so that test's Fine-Gray data cross cuts as well.
  EXPECT_GT(settlings(25, 3, ModelType::FineGray).first, 0) << "no Fine-Gray column crosses a cut";
}

}  // namespace
}  // namespace argus

