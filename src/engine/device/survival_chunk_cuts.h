// Where a survival device model cuts a column's items into chunks (device_survival_plan.h), as
// a plain function of the items' slots, so that the rule is tested without a device.
//
// A chunk holds kSurvivalChunkItems items or more and ends where the item's slot changes.
// Efron's tie terms need a slot's items together, so there nothing else ends a chunk. Breslow
// (Cox or Fine-Gray) may cut inside a slot (the scan's partials merge across it), but
// waits up to a quarter chunk for the slot to end first: with distinct times few slots then
// cross a cut (but late slots, which collect many censored rows, do), and a step needs no
// piece sums where none does (survival_step_slots.h); whole days, whose slots hold more entries
// than a chunk, cross anyway, at chunks 25% longer at most.
//
// A step sums a crossing slot's shares ("pieces", two per chunk: survival_step_slots.h)
// across the chunks it spans. crossingGroups() lists, per crossing slot, the range of pieces
// that holds its shares, so that where no slot spans many chunks (continuous times: a few
// crossings per column, each over 2-10 pieces) one thread per slot sums its range in one
// launch, instead of a scan by key over all of a column's pieces (three launches, ~27 us a
// coordinate at Cox 1e6 on an H200, for ~50 crossings among ~6,000 pieces).
#pragma once

#include <cstdint>
#include <vector>

namespace argus {

// A chunk's items (at least; with Breslow ties at most a quarter more).
constexpr std::int64_t kSurvivalChunkItems = 16;
// A step walks a column's crossing slots one thread per slot where none spans more pieces than
// this; else it scans all the column's pieces by slot.
constexpr std::int64_t kSurvivalWalkPieces = 64;

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

// A slot that crosses one cut or more, and its pieces [first, last] (piece 2i holds chunk i's
// share of its first slot, 2i + 1 of its last; the range's other pieces hold nothing).
struct CrossingGroup {
  std::int64_t first = 0, last = 0;
  std::int32_t slot = 0;
};

// Appends the crossing groups of chunks beginning at begin[0, count) (begin[count]: the
// items' end) to `out`; returns the longest group's span in pieces (0: none).
template <typename SlotOf>
std::int64_t crossingGroups(const std::int64_t* begin, std::int64_t count, SlotOf slotOf,
                            std::vector<CrossingGroup>* out) {
  std::int64_t longest = 0;
  bool open = false;
  CrossingGroup g;
  auto close = [&] {
    if (!open) return;
    out->push_back(g);
    longest = g.last - g.first + 1 > longest ? g.last - g.first + 1 : longest;
    open = false;
  };
  for (std::int64_t i = 1; i < count; ++i) {
    const std::int32_t slot = slotOf(begin[i]);
    if (slot != slotOf(begin[i] - 1)) {
      close();
      continue;
    }
    if (!open || g.slot != slot) {
      close();
      // Chunk i - 1 ends in the slot; it holds the slot's share as its only slot (piece
      // 2i - 2) or as its last (2i - 1).
      const bool onlySlot = slotOf(begin[i - 1]) == slot;
      g = CrossingGroup{onlySlot ? 2 * (i - 1) : 2 * (i - 1) + 1, 0, slot};
      open = true;
    }
    g.last = 2 * i;  // chunk i begins in the slot: its first piece
  }
  close();
  return longest;
}

}  // namespace argus
