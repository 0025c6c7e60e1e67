// What a survival device model (device_survival_likelihood.h) knows of its data before any
// weight: the risk-set index and its per-row and per-slot arrays, and every column's chunks
// (of items, with counting-process data). All of it depends on the data alone (never on the
// weights: the index's own rule, risk_set_index.h), so the folds and candidates of a
// cross-validation, or a bootstrap's replicates, share one plan on the device
// (device_design.h) and each fit keeps only its weighted sums and row state.
//
// Chunks: kChunkItems items or more, cut where the item's slot changes; with Breslow ties at
// most 1.25 kChunkItems, cut inside a slot if need be (survival_chunk_cuts.h). Counting-process data list each
// column's items (dense columns share the all-rows list, at offset 0) and the rows by entry
// slot (one run per slot) for a rebuild. Rows entering at their stratum's base slot are in
// neither: they change no risk set, and leaving them out of the rebuild too keeps the base
// slot's sum what the steps (which have no item for them) leave it (the CPU subtracts them in
// both; the base slot's sums are never read for a term).
#pragma once

#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "data/risk_set_index.h"
#include "device/device_common.h"
#include "device/device_survival_chunks.h"
#include "device/survival_chunk_cuts.h"
#include "models/counting_process_items.h"

namespace argus {

class SurvivalDevicePlan {
 public:
  static constexpr std::int64_t kChunkItems = kSurvivalChunkItems;

  explicit SurvivalDevicePlan(const Dataset& data)
      : index(buildRiskSetIndex(data)), nRows_(data.nRows()), strata_(data.outcomes.nStrata) {
    const std::size_t slots = static_cast<std::size_t>(index.nSlots);
    std::vector<unsigned char> eventFlag(static_cast<std::size_t>(nRows_));
    for (std::int64_t r = 0; r < nRows_; ++r) eventFlag[r] = data.outcomes.y[r] == 1.0;
    std::vector<std::int32_t> slotStratumHost(slots, 0), rowStratumHost(static_cast<std::size_t>(nRows_), 0);
    std::vector<unsigned char> base(slots, 0);
    for (std::int32_t s = 0; s < strata_; ++s) {
      base[index.slotStart[s]] = 1;
      for (std::int32_t k = index.slotStart[s]; k < index.slotStart[s + 1]; ++k) slotStratumHost[k] = s;
      for (std::int64_t r = data.outcomes.stratumStart[s]; r < data.outcomes.stratumStart[s + 1]; ++r)
        rowStratumHost[r] = s;
    }
    device::upload(event, eventFlag);
    device::upload(exitSlot, index.exitSlot);
    stratumStart.assign(data.outcomes.stratumStart, data.outcomes.stratumStart + strata_ + 1);
    device::upload(slotStratum, slotStratumHost);
    device::upload(rowStratum, rowStratumHost);
    device::upload(runStart, index.runStart);
    device::upload(runSlot, index.runSlot);
    device::upload(baseSlot, base);
    if (index.countingProcess()) planEntryRuns(data.outcomes.stratum);
    planChunks(data);
  }

  struct ChunkPlan {
    std::int64_t offset, count, entries;  // its first chunk's index, its chunks, its entries
    std::int64_t itemOffset, items;       // its item list in items (-1: none), its items
    std::int64_t crossings;               // cuts inside a slot
    std::int64_t groupOffset, groups;     // its crossing groups in groupList (0: scan the pieces)
  };

  survival_device::ChunkView chunks(std::int32_t j) const { return chunkView(chunkPlan_[j]); }
  survival_device::ChunkView allRows() const { return chunkView(all_); }
  // The most chunks, items and entries of one column (or of all rows): the per-coordinate
  // buffers' sizes.
  std::int64_t maxChunks() const { return maxChunks_; }
  std::int64_t maxItems() const { return maxItems_; }
  std::int64_t maxEntries() const { return maxEntries_; }
  double bytes() const {
    return device::bytesOf(event, baseSlot, exitSlot, slotStratum, rowStratum, runSlot, entrySlot, entryRunRow,
                           stratumStart, chunkBegin, runStart, items, entryRunStart, groupList);
  }

  RiskSetIndex index;
  thrust::device_vector<unsigned char> event, baseSlot;  // per row y == 1; per slot: a base slot
  thrust::device_vector<std::int32_t> exitSlot, slotStratum, rowStratum, runSlot;
  thrust::device_vector<std::int64_t> stratumStart, chunkBegin, runStart;
  // Counting-process data: entry slots, each column's items (ChunkView), the rows by entry
  // slot and where each slot's run of them starts (EntryRunSums).
  thrust::device_vector<std::int32_t> entrySlot, entryRunRow;
  thrust::device_vector<std::int64_t> items, entryRunStart;
  thrust::device_vector<CrossingGroup> groupList;  // the walked columns' crossing groups, in order

 private:
  void planChunks(const Dataset& data) {
    const DesignView& design = data.design;
    std::vector<std::int64_t> begin, itemCodes;
    std::vector<CrossingGroup> groups;
    // Efron's tie terms need a slot's items in one chunk; Breslow's (Cox and Fine-Gray) merge
    // across a cut inside a slot (tests/cpp/scan_merge_test.cpp).
    const bool wholeSlots = data.ties == TieMethod::Efron;
    const bool counting = index.countingProcess();
    const std::int32_t* stratum = data.outcomes.stratum;
    struct ItemList {
      std::int64_t offset = -1, count = 0;  // offset -1: the items are the entries
    };
    auto listItems = [&](std::int64_t entries, auto rowOf) {
      const std::int64_t offset = static_cast<std::int64_t>(itemCodes.size());
      forCountingProcessItems(index, stratum, entries, rowOf, countingEntryOrder(index, stratum, entries, rowOf),
                              [&](std::int64_t k) { itemCodes.push_back(k); },
                              [&](std::int64_t k) { itemCodes.push_back(-1 - k); });
      return ItemList{offset, static_cast<std::int64_t>(itemCodes.size()) - offset};
    };
    auto plan = [&](std::int64_t entries, auto rowOf, ItemList list) {
      const std::int64_t itemOffset = list.offset;
      const std::int64_t n = itemOffset < 0 ? entries : list.count;
      auto slotOf = [&](std::int64_t i) {
        const std::int64_t code = itemOffset < 0 ? i : itemCodes[itemOffset + i];
        return code >= 0 ? index.exitSlot[rowOf(code)] : index.entrySlot[rowOf(-1 - code)];
      };
      const std::int64_t offset = static_cast<std::int64_t>(begin.size());
      const ChunkCuts cuts = cutChunks(n, kChunkItems, wholeSlots, slotOf, &begin);
      const std::int64_t count = cuts.count, crossings = cuts.crossings;
      maxChunks_ = count > maxChunks_ ? count : maxChunks_;
      maxItems_ = n > maxItems_ ? n : maxItems_;
      maxEntries_ = entries > maxEntries_ ? entries : maxEntries_;
      const std::int64_t groupOffset = static_cast<std::int64_t>(groups.size());
      if (crossings > 0 && crossingGroups(begin.data() + offset, count, slotOf, &groups) > kSurvivalWalkPieces)
        groups.resize(static_cast<std::size_t>(groupOffset));  // a long span: the scan
      const std::int64_t groupCount = static_cast<std::int64_t>(groups.size()) - groupOffset;
      return ChunkPlan{offset, count, entries, itemOffset, n, crossings, groupOffset, groupCount};
    };
    auto everyRow = [](std::int64_t k) { return k; };
    const ItemList allItems = counting ? listItems(design.nRows, everyRow) : ItemList{};
    for (const ColumnView& c : design.columns) {
      if (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse) {
        auto rowOf = [&](std::int64_t k) { return static_cast<std::int64_t>(c.rows[k]); };
        chunkPlan_.push_back(plan(c.nnz, rowOf, counting ? listItems(c.nnz, rowOf) : ItemList{}));
      } else {
        chunkPlan_.push_back(plan(design.nRows, everyRow, allItems));
      }
    }
    all_ = plan(design.nRows, everyRow, allItems);
    device::upload(chunkBegin, begin);
    device::upload(items, itemCodes);
    device::upload(groupList, groups);
  }
  // Counting-process data: the rows entering above their stratum's base slot, by entry slot
  // (stable), one run per slot.
  void planEntryRuns(const std::int32_t* stratum) {
    std::vector<std::int32_t> order;
    for (std::int64_t r = 0; r < nRows_; ++r)
      if (!index.isBase(index.entrySlot[r], stratum[r])) order.push_back(static_cast<std::int32_t>(r));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t a, std::int32_t b) { return index.entrySlot[a] < index.entrySlot[b]; });
    const std::int64_t n = static_cast<std::int64_t>(order.size());
    std::vector<std::int64_t> start;
    for (std::int64_t k = 0; k < n; ++k)
      if (k == 0 || index.entrySlot[order[k]] != index.entrySlot[order[k - 1]]) start.push_back(k);
    start.push_back(n);
    device::upload(entrySlot, index.entrySlot);
    device::upload(entryRunRow, order);
    device::upload(entryRunStart, start);
  }
  survival_device::ChunkView chunkView(const ChunkPlan& c) const {
    const std::int64_t* item = c.itemOffset < 0 ? nullptr : device::raw(items) + c.itemOffset;
    const CrossingGroup* group = c.groups > 0 ? device::raw(groupList) + c.groupOffset : nullptr;
    return {device::raw(chunkBegin) + c.offset, c.count, c.entries, item, c.items, c.crossings, group, c.groups};
  }

  std::int64_t nRows_;
  std::int32_t strata_;
  std::vector<ChunkPlan> chunkPlan_;  // per column
  ChunkPlan all_{};
  std::int64_t maxChunks_ = 0, maxEntries_ = 0, maxItems_ = 0;
};

}  // namespace argus
