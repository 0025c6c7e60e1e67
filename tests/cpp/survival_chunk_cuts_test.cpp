// The survival device model's chunk cuts (device/survival_chunk_cuts.h): where a column's
// items are cut, and how many cuts fall inside a slot (each such crossing makes a step sum
// its slot's pieces across chunks).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "device/survival_chunk_cuts.h"

namespace argus {
namespace {

constexpr std::int64_t kChunk = 16;

// Items whose slots come in runs of the given lengths.
std::vector<std::int32_t> slotRuns(const std::vector<int>& lengths) {
  std::vector<std::int32_t> slots;
  std::int32_t slot = 0;
  for (int length : lengths) {
    for (int i = 0; i < length; ++i) slots.push_back(slot);
    ++slot;
  }
  return slots;
}

struct Cut {
  ChunkCuts cuts;
  std::vector<std::int64_t> begin;
};

Cut cut(const std::vector<std::int32_t>& slots, bool wholeSlots) {
  Cut out;
  const std::int64_t n = static_cast<std::int64_t>(slots.size());
  out.cuts = cutChunks(n, kChunk, wholeSlots, [&](std::int64_t i) { return slots[i]; }, &out.begin);
  return out;
}

// Checks the chunks' bounds and returns how many cuts fall inside a slot.
std::int64_t checkedCrossings(const Cut& c, const std::vector<std::int32_t>& slots, std::int64_t longest) {
  const std::int64_t n = static_cast<std::int64_t>(slots.size());
  EXPECT_EQ(static_cast<std::int64_t>(c.begin.size()), c.cuts.count + 1);
  EXPECT_EQ(c.begin.front(), 0);
  EXPECT_EQ(c.begin.back(), n);
  std::int64_t crossings = 0;
  for (std::int64_t i = 0; i < c.cuts.count; ++i) {
    const std::int64_t length = c.begin[i + 1] - c.begin[i];
    if (i + 1 < c.cuts.count) EXPECT_GE(length, kChunk) << "chunk " << i;
    EXPECT_LE(length, longest) << "chunk " << i;
    if (i > 0 && slots[c.begin[i]] == slots[c.begin[i] - 1]) ++crossings;
  }
  EXPECT_EQ(crossings, c.cuts.crossings);
  return crossings;
}

TEST(SurvivalChunkCuts, DistinctTimesWithFewTiesNeverCrossASlot) {
  // Runs of 1 to 4 items, as a column sees continuous times with a few shared slots.
  std::vector<int> lengths;
  for (int i = 0; i < 2000; ++i) lengths.push_back(1 + (i * 7) % 4);
  const std::vector<std::int32_t> slots = slotRuns(lengths);
  const Cut breslow = cut(slots, false);
  EXPECT_EQ(checkedCrossings(breslow, slots, kChunk + kChunk / 4), 0);
  EXPECT_GT(breslow.cuts.count, 200);
}

TEST(SurvivalChunkCuts, BreslowCutsLongSlotsAtAQuarterChunkPastTheSize) {
  // Slots of 100 items (whole days): Breslow cuts inside them, at most 20 items a chunk.
  const std::vector<std::int32_t> slots = slotRuns(std::vector<int>(50, 100));
  const Cut breslow = cut(slots, false);
  EXPECT_GT(checkedCrossings(breslow, slots, kChunk + kChunk / 4), 150);
  // Efron and Fine-Gray keep a slot in one chunk, however long.
  const Cut whole = cut(slots, true);
  EXPECT_EQ(checkedCrossings(whole, slots, 100), 0);
  EXPECT_EQ(whole.cuts.count, 50);
}

TEST(SurvivalChunkCuts, EmptyAndShortColumns) {
  const Cut empty = cut({}, false);
  EXPECT_EQ(empty.cuts.count, 0);
  EXPECT_EQ(empty.begin, (std::vector<std::int64_t>{0, 0}));
  const std::vector<std::int32_t> five = slotRuns({2, 3});
  const Cut shortColumn = cut(five, false);
  EXPECT_EQ(shortColumn.cuts.count, 1);
  EXPECT_EQ(shortColumn.begin, (std::vector<std::int64_t>{0, 5}));
}

}  // namespace
}  // namespace argus
