// Where a survival device model cuts a column's items into chunks (device_survival_plan.h), as
// a plain function of the items' slots, so that the rule is tested without a device.
//
// A chunk holds kChunkItems items or more and ends where the item's slot changes. Efron's tie
// terms and Fine-Gray's group sums need a slot's items together, so there nothing else ends a
// chunk. Breslow may cut inside a slot (the scan's partials merge across it), but waits up to a
// quarter chunk for the slot to end first: with distinct times no slot then crosses a cut, and
// a step needs no piece sums (device_survival_chunks.h); whole days, whose slots hold more
// entries than a chunk, cross anyway, at chunks 25% longer at most.
#pragma once

#include <cstdint>
#include <vector>

namespace argus {

struct ChunkCuts {
  std::int64_t count = 0;      // chunks
  std::int64_t crossings = 0;  // cuts between two items of one slot
};

// Appends the first item of each chunk of items [0, n) to `begin`, then n (an empty column:
// 0 and 0, no chunk); slotOf(i) is item i's slot (items in slot order within a stratum, so a
// slot's items are adjacent).
template <typename SlotOf>
ChunkCuts cutChunks(std::int64_t n, std::int64_t chunkItems, bool wholeSlots, SlotOf slotOf,
                    std::vector<std::int64_t>* begin) {
  ChunkCuts out;
  begin->push_back(0);
  out.count = n > 0 ? 1 : 0;
  std::int64_t last = 0;
  for (std::int64_t k = 1; k < n; ++k) {
    if (k - last < chunkItems) continue;
    const bool sameSlot = slotOf(k) == slotOf(k - 1);
    if (sameSlot && (wholeSlots || k - last < chunkItems + chunkItems / 4)) continue;
    out.crossings += sameSlot ? 1 : 0;
    begin->push_back(k);
    ++out.count;
    last = k;
  }
  begin->push_back(n);
  return out;
}

}  // namespace argus
