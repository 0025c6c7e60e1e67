// A survival device model's step into the slot sums (device_survival_likelihood.h), and the
// chunk and item types it shares with the scan (device_survival_chunks.h). Plain C++ over raw
// pointers (no Thrust), so the host runs it in tests as a GPU thread would.
//
// A step's slot sums (SlotChange) are added in two passes: each chunk adds its slots, but
// keeps aside as pieces keyed by slot the shares of a slot that crosses a cut into the next or
// from the previous chunk; where a column has such crossings, each crossing slot's pieces are
// summed and the total added by one thread: walked per slot where no slot spans many pieces
// (crossingGroups, survival_chunk_cuts.h), else by a scan by key whose last piece per slot adds
// the total. Every slot is written by one thread, in entry order, the same on every run.
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "device/survival_chunk_cuts.h"
#include "models/survival_scan.h"
#include "models/survival_slot_state.h"

namespace argus {

struct SurvivalDeviceScalars {
  double step = 0.0;
  int stepped = 0;  // step != 0: the flag the refresh's scans read
  double unitFactor = 1.0;
  std::int64_t moved = 0;
  GradHess gh;
  double reduced = 0.0;
  ScanPartial merged;  // the coordinate's chunks, merged
};

namespace survival_device {

// A column's scan items: item i is its entry i's exit, or with counting-process data
// (`item` not null) item[i] codes entry k's exit (k) or its entry (-1 - k), in the order of
// models/counting_process_items.h. Chunk i covers items [begin[i], begin[i + 1]); the column
// has `entries` entries and `items` items.
struct ChunkView {
  const std::int64_t* begin = nullptr;
  std::int64_t count = 0;
  std::int64_t entries = 0;
  const std::int64_t* item = nullptr;
  std::int64_t items = 0;
  std::int64_t crossings = 0;  // cuts between two items of one slot
  // The crossing slots' pieces (survival_chunk_cuts.h), where a step walks them (null: it
  // scans them by slot).
  const CrossingGroup* groups = nullptr;
  std::int64_t groupCount = 0;
};
ARGUS_HOST_DEVICE inline std::int64_t itemCode(const std::int64_t* item, std::int64_t i) {
  return item ? item[i] : i;
}

// Items a chunk's thread loads together before it visits or adds them (ChunkPartial,
// PendingSlotAdds).
constexpr int kLoadBatch = 4;

// An entry's row state, gathered one thread per entry before a chunk's thread walks its
// entries in order: a GPU thread that loaded the row index, then the row, then the slot sums
// at every step waited on memory three times per entry; gathered, its loads are contiguous.
// v: u x for a scan, the change of u for a step.
struct StagedEntry {
  double v = 0.0, x = 0.0, inverseG = 0.0;
  std::int32_t slot = 0, event = 0;
};

// A slot's share of a step: the change of D, of F (Efron: events) and of the competing u / G
// (Fine-Gray).
struct SlotChange {
  double risk = 0.0, tied = 0.0, competing = 0.0;
};
struct SlotChangePlus {
  ARGUS_HOST_DEVICE SlotChange operator()(const SlotChange& a, const SlotChange& b) const {
    return SlotChange{a.risk + b.risk, a.tied + b.tied, a.competing + b.competing};
  }
};

template <bool Efron, bool FineGray>
ARGUS_HOST_DEVICE inline void addStaged(SlotChange& d, const StagedEntry& s) {
  d.risk += s.v;
  if (Efron && s.event) d.tied += s.v;
  if (FineGray) d.competing += s.v * s.inverseG;
}

template <bool Efron, bool FineGray>
ARGUS_HOST_DEVICE inline void addToSlot(const SurvivalSlotState& st, std::int32_t slot, const SlotChange& d) {
  st.exitRisk[slot] += d.risk;
  if (Efron) st.tiedRisk[slot] += d.tied;
  if (FineGray) st.competingRisk[slot] += d.competing;
}

// A chunk's finished slot shares, added into the slot sums kLoadBatch at a time: the slots'
// sums are all loaded before any is stored (a chunk's slots are distinct, so no add can see
// another's store), where one read-modify-write after another waited on memory at each. The
// arrays are indexed only in loops of constant length (unrolled: registers on a GPU, where a
// variable index would put them in local memory).
template <bool Efron, bool FineGray>
struct PendingSlotAdds {
  std::int32_t slot[kLoadBatch];
  SlotChange change[kLoadBatch];
  int count = 0;
  ARGUS_HOST_DEVICE void add(const SurvivalSlotState& st, std::int32_t s, const SlotChange& d) {
    for (int q = 0; q < kLoadBatch; ++q)
      if (q == count) {
        slot[q] = s;
        change[q] = d;
      }
    if (++count == kLoadBatch) flush(st);
  }
  ARGUS_HOST_DEVICE void flush(const SurvivalSlotState& st) {
    SlotChange now[kLoadBatch];
    for (int q = 0; q < kLoadBatch; ++q) {
      if (q >= count) continue;
      now[q].risk = st.exitRisk[slot[q]];
      if (Efron) now[q].tied = st.tiedRisk[slot[q]];
      if (FineGray) now[q].competing = st.competingRisk[slot[q]];
    }
    for (int q = 0; q < kLoadBatch; ++q) {
      if (q >= count) continue;
      st.exitRisk[slot[q]] = now[q].risk + change[q].risk;
      if (Efron) st.tiedRisk[slot[q]] = now[q].tied + change[q].tied;
      if (FineGray) st.competingRisk[slot[q]] = now[q].competing + change[q].competing;
    }
    count = 0;
  }
};

// Pass 1, per chunk in entry order: its slots into the slot sums, except a first slot that
// began in the chunk before and a last slot that goes on into the next: those shares become
// pieces 2i and 2i + 1, keyed by slot, for pass 2 (the other pieces hold nothing; a chunk of
// one slot has piece 2i + 1 empty). A slot's pieces are adjacent, as its items are.
template <bool Efron, bool FineGray>
struct StepChunkSlots {
  ChunkView chunks;
  const StagedEntry* staged;
  SurvivalSlotState st;
  std::int32_t* pieceSlot;
  SlotChange* piece;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    if (sc->step == 0.0) return;
    const std::int64_t b = chunks.begin[i], e = chunks.begin[i + 1];
    const std::int32_t firstSlot = staged[b].slot, lastSlot = staged[e - 1].slot;
    const bool fromBefore = b > 0 && staged[b - 1].slot == firstSlot;
    const bool intoNext = e < chunks.items && staged[e].slot == lastSlot;
    SlotChange first, run;
    std::int32_t runSlot = firstSlot;
    bool inFirst = true;
    PendingSlotAdds<Efron, FineGray> pending;
    // kLoadBatch staged entries loaded together, then taken in order.
    for (std::int64_t k = b; k < e; k += kLoadBatch) {
      StagedEntry batch[kLoadBatch];
      for (int q = 0; q < kLoadBatch; ++q)
        if (k + q < e) batch[q] = staged[k + q];
      for (int q = 0; q < kLoadBatch; ++q) {
        if (k + q >= e) continue;
        const StagedEntry& s = batch[q];
        if (s.slot != runSlot) {
          if (inFirst) {
            first = run;
            if (!fromBefore) pending.add(st, runSlot, run);
          } else {
            pending.add(st, runSlot, run);
          }
          inFirst = false;
          run = SlotChange{};
          runSlot = s.slot;
        }
        addStaged<Efron, FineGray>(run, s);
      }
    }
    const bool carried = inFirst ? fromBefore || intoNext : intoNext;  // the last (or only) slot's share
    if (!carried) pending.add(st, runSlot, run);
    pending.flush(st);
    pieceSlot[2 * i] = firstSlot;
    pieceSlot[2 * i + 1] = lastSlot;
    piece[2 * i] = inFirst ? (carried ? run : SlotChange{}) : (fromBefore ? first : SlotChange{});
    piece[2 * i + 1] = inFirst || !carried ? SlotChange{} : run;
  }
};

// Pass 2, after an inclusive scan of the pieces by slot (a slot's pieces summed in entry
// order): the last piece of each slot that crosses a cut (its pieces span two chunks or more)
// adds the total to the slot, so every slot is written by one thread, the same on every run. Only for
// columns with such crossings (whole days, say, where a day's entries span hundreds of
// chunks: a chunk's thread that walked on through the chunks continuing its slot took 130 us
// per coordinate on an H100 at Cox 1e6).
template <bool Efron, bool FineGray>
struct SettleSlotPieces {
  std::int64_t pieces;
  const std::int32_t* pieceSlot;
  const SlotChange* total;
  SurvivalSlotState st;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    if (sc->step == 0.0) return;
    if (k + 1 < pieces && pieceSlot[k + 1] == pieceSlot[k]) return;  // not the slot's last piece
    // A slot that crosses a cut ends the previous chunk too (its last piece, 2 (k / 2) - 1);
    // one that does not was added in pass 1 (a chunk of one slot has two pieces of it).
    const std::int64_t before = 2 * (k / 2) - 1;
    if (before < 0 || pieceSlot[before] != pieceSlot[k]) return;
    addToSlot<Efron, FineGray>(st, pieceSlot[k], total[k]);
  }
};

// Pass 2 where the column's crossing slots span few pieces: one thread per crossing slot sums
// its pieces in order and adds the total (the scan's sums, in the order of a walk).
template <bool Efron, bool FineGray>
struct SettleCrossingGroups {
  const CrossingGroup* group;
  const SlotChange* piece;
  SurvivalSlotState st;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t g) const {
    if (sc->step == 0.0) return;
    const CrossingGroup c = group[g];
    SlotChange total;
    for (std::int64_t k = c.first; k <= c.last; ++k) total = SlotChangePlus{}(total, piece[k]);
    addToSlot<Efron, FineGray>(st, c.slot, total);
  }
};

}  // namespace survival_device
}  // namespace argus
