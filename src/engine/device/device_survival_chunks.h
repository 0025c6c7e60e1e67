// The survival device model's per-entry and per-chunk work (device_survival_likelihood.h):
// a column's entries staged one thread per entry, then walked in order one thread per chunk
// for a coordinate's scan (CoordinateScan, the CPU's) and for a step's slot sums.
//
// Chunks cut a column's items (its entries' exits; with counting-process data also their
// entries, device_survival_plan.h): with Breslow ties (Cox or Fine-Gray) a chunk is
// kChunkItems items, a quarter more at most where a slot ends there, splitting a slot's items
// if need be (mergeScanPartials
// joins the pieces; the step's sums own each slot once). Efron's tie terms need a slot's items
// together, so there a chunk ends only where the item's slot changes. A step's slot sums are
// survival_step_slots.h's.
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "device/device_columns.h"
#include "device/survival_step_slots.h"
#include "models/survival_functors.h"
#include "models/survival_scan.h"
#include "models/survival_slot_state.h"

namespace argus {

namespace survival_device {

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

// Chunk i's scan, as a value: the items the fold of a coordinate's chunks reads (foldThen
// over indexed(ChunkPartial), so that on a GPU a block scans its chunks and folds them in one
// launch, with no partials written between).
template <bool Efron, bool FineGray>
struct ChunkPartial {
  ChunkView chunks;
  const StagedEntry* staged;
  SlotSums sums;
  CompetingItem* competing;
  ARGUS_HOST_DEVICE ScanPartial operator()(std::int64_t i) const {
    const std::int64_t b = chunks.begin[i], e = chunks.begin[i + 1];
    CoordinateScan<Efron, FineGray> scan(sums, FineGray ? competing + b : nullptr);  // N items: Fine-Gray
    std::int64_t k = b;
    if constexpr (!Efron && !FineGray) {
      // Breslow, kLoadBatch items at a time: their staged entries, then their slots' c1 and
      // c2, all loads issued before the first visit (one by one, a GPU thread waited on two
      // dependent loads per item: the scan was ~19 us a coordinate at Cox 1e6 on an H200).
      for (; k + kLoadBatch <= e; k += kLoadBatch) {
        StagedEntry s[kLoadBatch];
        double c1[kLoadBatch], c2[kLoadBatch];
        for (int q = 0; q < kLoadBatch; ++q) s[q] = staged[k + q];
        for (int q = 0; q < kLoadBatch; ++q) {
          c1[q] = sums.c1[s[q].slot];
          c2[q] = sums.c2[s[q].slot];
        }
        for (int q = 0; q < kLoadBatch; ++q) scan.visitBreslow(s[q].slot, s[q].v, s[q].x, c1[q], c2[q]);
      }
    }
    for (; k < e; ++k) {
      const StagedEntry& s = staged[k];
      scan.visit(s.slot, s.v, s.x, Efron && s.event != 0, FineGray ? s.inverseG : 0.0);
    }
    return scan.partial();
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

}  // namespace survival_device
}  // namespace argus
