// The survival device model's per-entry and per-chunk work (device_survival_likelihood.h):
// a column's entries staged one thread per entry, then walked in order one thread per chunk
// for a coordinate's scan (CoordinateScan, the CPU's) and for a step's slot sums.
//
// Chunks cut a column's items (its entries' exits; with counting-process data also their
// entries, device_survival_plan.h): with Breslow ties a chunk is kChunkItems items wherever it
// ends, splitting a slot's items if need be (mergeScanPartials joins the pieces; the step's
// sums below own each slot once). Efron's tie terms and Fine-Gray's group sums need a slot's
// items together, so there a chunk ends only where the item's slot changes. A step's slot sums
// (SlotChange) are added in two passes: each chunk adds its slots, but keeps aside as pieces
// keyed by slot the shares of a slot that crosses a cut into the next or from the previous
// chunk; where a column has such crossings, a scan by key sums each slot's pieces and the
// slot's last piece adds the total, so every slot is written by one thread, in entry order,
// the same on every run.
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "device/device_columns.h"
#include "models/survival_functors.h"
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
};
ARGUS_HOST_DEVICE inline std::int64_t itemCode(const std::int64_t* item, std::int64_t i) {
  return item ? item[i] : i;
}

// An entry's row state, gathered one thread per entry before a chunk's thread walks its
// entries in order: a GPU thread that loaded the row index, then the row, then the slot sums
// at every step waited on memory three times per entry; gathered, its loads are contiguous.
// v: u x for a scan, the change of u for a step.
struct StagedEntry {
  double v = 0.0, x = 0.0, inverseG = 0.0;
  std::int32_t slot = 0, event = 0;
};

struct Rows {
  double* eta;
  double* u;
  double* published;
  const double* w;
  const double* inverseG;
  const unsigned char* event;
  const std::int32_t* exitSlot;
  const std::int32_t* entrySlot;  // counting-process data only
};
// The accessors scatterStratumRows reads.
struct RowAccess {
  Rows rows;
  ARGUS_HOST_DEVICE double u(std::int64_t r) const { return rows.u[r]; }
  ARGUS_HOST_DEVICE std::int32_t exitSlot(std::int64_t r) const { return rows.exitSlot[r]; }
  ARGUS_HOST_DEVICE std::int32_t entrySlot(std::int64_t r) const { return rows.entrySlot[r]; }
  ARGUS_HOST_DEVICE bool event(std::int64_t r) const { return rows.event[r] != 0; }
  ARGUS_HOST_DEVICE double inverseG(std::int64_t r) const { return rows.inverseG[r]; }
};

ARGUS_HOST_DEVICE inline StagedEntry stagedRow(const Rows& rows, std::int64_t r, double v, double x) {
  return StagedEntry{v, x, rows.inverseG[r], rows.exitSlot[r], rows.event[r]};
}
// A counting-process row's entry: minus its v at its entry slot, never an event.
ARGUS_HOST_DEVICE inline StagedEntry stagedEntryOf(const Rows& rows, std::int64_t r, double v, double x) {
  return StagedEntry{-v, x, 0.0, rows.entrySlot[r], 0};
}

struct StageScanEntries {
  ColumnEntries col;
  const std::int64_t* item;
  Rows rows;
  StagedEntry* staged;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t code = itemCode(item, i), k = code >= 0 ? code : -1 - code;
    const std::int64_t r = col.row(k);
    const double x = col.value(k);
    staged[i] = code >= 0 ? stagedRow(rows, r, rows.u[r] * x, x) : stagedEntryOf(rows, r, rows.u[r] * x, x);
  }
};

template <bool Efron, bool FineGray>
struct ScanChunks {
  ChunkView chunks;
  const StagedEntry* staged;
  SlotSums sums;
  CompetingItem* competing;
  ScanPartial* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t b = chunks.begin[i], e = chunks.begin[i + 1];
    CoordinateScan<Efron, FineGray> scan(sums, FineGray ? competing + b : nullptr);  // N items: Fine-Gray
    for (std::int64_t k = b; k < e; ++k) {
      const StagedEntry& s = staged[k];
      scan.visit(s.slot, s.v, s.x, Efron && s.event != 0, FineGray ? s.inverseG : 0.0);
    }
    out[i] = scan.partial();
  }
};

// A step, per entry: its row's eta and u moved, the change of u staged for its exit slot
// (into `moved`, which with counting-process data StageMovedItems then spreads over the
// items: a row's exit and entry are two items, and only one thread may move the row).
struct MoveEntries {
  ColumnEntries col;
  Rows rows;
  StagedEntry* moved;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    const double delta = sc->step;
    if (delta == 0.0) return;
    const std::int64_t r = col.row(k);
    const double x = col.value(k);
    const double du = moveRiskEntry(rows.eta[r], rows.u[r], x, delta, sc->unitFactor);
    moved[k] = stagedRow(rows, r, du, x);
  }
};

struct StageMovedItems {
  ColumnEntries col;
  const std::int64_t* item;
  Rows rows;
  const StagedEntry* moved;
  StagedEntry* staged;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    if (sc->step == 0.0) return;
    const std::int64_t code = item[i];
    if (code >= 0) {
      staged[i] = moved[code];
      return;
    }
    const StagedEntry& m = moved[-1 - code];
    staged[i] = stagedEntryOf(rows, col.row(-1 - code), m.v, m.x);
  }
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
    for (std::int64_t k = b; k < e; ++k) {
      const StagedEntry& s = staged[k];
      if (s.slot != runSlot) {
        if (inFirst) {
          first = run;
          if (!fromBefore) addToSlot<Efron, FineGray>(st, runSlot, run);
        } else {
          addToSlot<Efron, FineGray>(st, runSlot, run);
        }
        inFirst = false;
        run = SlotChange{};
        runSlot = s.slot;
      }
      addStaged<Efron, FineGray>(run, s);
    }
    const bool carried = inFirst ? fromBefore || intoNext : intoNext;  // the last (or only) slot's share
    if (!carried) addToSlot<Efron, FineGray>(st, runSlot, run);
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

}  // namespace survival_device
}  // namespace argus
