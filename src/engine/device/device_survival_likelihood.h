// The survival likelihoods (cox with Breslow or Efron ties, strata, weights; fgr) on a device:
// survival_likelihood.h's bucketed algorithm with its state in device memory and a
// coordinate sweep that never returns to the host.
//
// A column's entries are cut into short chunks, found once per fit (device_survival_chunks.h:
// a GPU thread that walks entries in order waits on memory at each). Per coordinate: the
// entries' row state is staged one thread per entry; one thread per chunk runs the CPU's scan
// over its entries (CoordinateScan, models/survival_scan.h) into a ScanPartial; the partials
// are merged in order in a tree (mergeScanPartials, foldTo) and one thread takes the Newton
// step; then one thread per entry moves its row (u, eta), the chunks add the changes into the
// slot sums, and scans by stratum refresh the slots (device_slot_scans.h). A rebuild from eta
// runs per row, per exit run (scatterStratumRows, the CPU's) and the same scans. The formulas
// are the CPU's; the partials and scans add in other groupings than the CPU's loops, so the
// sums agree to rounding, not bit for bit.
//
// Counting-process data (cox on (start, stop] rows): a column's items are its rows' exits
// merged with their entries (models/counting_process_items.h), listed once per fit; the
// chunks cut the items, and a step moves each row once (per entry) before its exit and entry
// items are staged.
#pragma once

#include <thrust/device_vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/errors.h"
#include "data/risk_set_index.h"
#include "device/device_columns.h"
#include "device/device_common.h"
#include "device/device_slot_scans.h"
#include "device/device_survival_chunks.h"
#include "models/column_linear_terms.h"
#include "models/counting_process_items.h"
#include "models/survival_scan.h"
#include "models/survival_slots.h"

namespace argus {

namespace survival_device {

struct CombineAndStep {
  SurvivalDeviceScalars* sc;
  double linear;
  // The coordinate to step, or -1: only combine (gradHess() from the host).
  std::int32_t j;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->gh = scanGradHess(sc->merged, linear);
    if (j < 0) return;
    const double delta = trustRegionStep(newtonStep(sc->gh, beta[j], prior[j]), &bound[j]);
    sc->step = delta;
    if (delta == 0.0) return;
    sc->unitFactor = exp(delta);
    beta[j] += delta;
    ++sc->moved;
  }
};

struct GivenStep {
  SurvivalDeviceScalars* sc;
  double delta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->step = delta;
    sc->unitFactor = exp(delta);
  }
};
struct MaxOf {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return std::fmax(a, b); }
};

// A stratum's shift (its largest eta; 0 where that is not finite: stratumShift's rule).
struct FinishShift {
  double* shift;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    if (!std::isfinite(shift[s])) shift[s] = 0.0;
  }
};

// Per row from eta: u and the published eta.
struct RowsFromEta {
  Rows rows;
  const std::int32_t* rowStratum;
  const double* shift;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    rows.u[r] = rows.w[r] * exp(rows.eta[r] - shift[rowStratum[r]]);
    rows.published[r] = rows.eta[r];
  }
};

struct ClearSlotSums {
  SurvivalSlotState st;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    st.exitRisk[k] = st.competingRisk[k] = st.tiedRisk[k] = 0.0;
  }
};

// Per exit run (the rows of one slot, in row order): its rows into the slot sums.
struct RunSums {
  Rows rows;
  SurvivalSlotState st;
  const std::int64_t* runStart;
  bool efron, fineGray;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    scatterStratumRows(st, runStart[i], runStart[i + 1], RowAccess{rows}, false, efron, fineGray);
  }
};

// Counting-process data, after RunSums: per entry run (the rows of one entry slot, in row
// order) minus their u at that slot: scatterStratumRows' entry term, gathered by slot so that
// no two threads write one slot.
struct EntryRunSums {
  Rows rows;
  double* exitRisk;
  const std::int64_t* runStart;
  const std::int32_t* runRow;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    for (std::int64_t k = runStart[i]; k < runStart[i + 1]; ++k) {
      const std::int32_t r = runRow[k];
      exitRisk[rows.entrySlot[r]] -= rows.u[r];
    }
  }
};

// The log-likelihood's terms in the CPU's order: w eta per event row, then per non-base slot
// minus its log term and d_e shift_s.
struct LogLikTerm {
  std::int64_t n;
  Rows rows;
  SurvivalSlotState st;
  const std::int32_t* slotStratum;
  const unsigned char* baseSlot;
  const double* shift;
  bool efron;
  ARGUS_HOST_DEVICE double operator()(std::int64_t k) const {
    if (k < n) return rows.event[k] ? rows.w[k] * rows.eta[k] : 0.0;
    const std::int64_t q = k - n;
    if (baseSlot[q]) return 0.0;
    return -(eventLogTerm(efron, st.events[q], st.eventCount[q], st.den[q], st.tiedRisk[q]) +
             st.events[q] * shift[slotStratum[q]]);
  }
};

struct ResetMoves {
  SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->moved = 0; }
};

}  // namespace survival_device

template <typename Prims>
class DeviceSurvivalLikelihood final : public DeviceModelBase<Prims> {
  using Base = DeviceModelBase<Prims>;
  using Base::prims_;
  using Base::n_;
  using Base::w_;
  using Base::y_;
  using Base::weight;
  using Base::exposure;
  using Base::data_;
  using Base::eta_;
  using Base::weights_;
  using Base::nRows;
 public:
  static constexpr std::int64_t kChunkItems = 16;

  DeviceSurvivalLikelihood(const Dataset& data, const double* weights)
      : Base(data, weights),
        columns_(data.design),
        index_(buildRiskSetIndex(data)),
        efron_(data.ties == TieMethod::Efron),
        fineGray_(data.model == ModelType::FineGray),
        strata_(data.outcomes.nStrata),
        linear_(data.design, weightedEvents()) {
    const SurvivalFitConstants constants = survivalFitConstants(data, weights, index_);
    const std::size_t slots = static_cast<std::size_t>(index_.nSlots);
    std::vector<unsigned char> event(n_);
    for (std::int64_t r = 0; r < n_; ++r) event[r] = data.outcomes.y[r] == 1.0;
    std::vector<std::int32_t> slotStratum(slots, 0), rowStratum(static_cast<std::size_t>(n_), 0), tied;
    std::vector<unsigned char> base(slots, 0);
    for (std::int32_t s = 0; s < strata_; ++s) {
      base[index_.slotStart[s]] = 1;
      for (std::int32_t k = index_.slotStart[s]; k < index_.slotStart[s + 1]; ++k) slotStratum[k] = s;
      for (std::int64_t r = data.outcomes.stratumStart[s]; r < data.outcomes.stratumStart[s + 1]; ++r)
        rowStratum[r] = s;
    }
    if (efron_)
      for (std::size_t k = 0; k < slots; ++k)
        if (constants.eventCount[k] > 1.0) tied.push_back(static_cast<std::int32_t>(k));
    device::upload(event_, event);
    device::upload(inverseG_, constants.inverseG);
    device::upload(exitSlot_, index_.exitSlot);
    device::upload(events_, constants.events);
    device::upload(eventCount_, constants.eventCount);
    device::upload(slotG_, constants.slotG);
    stratumStart_.assign(data.outcomes.stratumStart, data.outcomes.stratumStart + strata_ + 1);
    device::upload(slotStratum_, slotStratum);
    device::upload(rowStratum_, rowStratum);
    device::upload(tiedSlots_, tied);
    device::upload(runStart_, index_.runStart);
    device::upload(runSlot_, index_.runSlot);
    device::upload(baseSlot_, base);
    if (index_.countingProcess()) planEntryRuns();
    for (auto* v : {&exitRisk_, &competingRisk_, &tiedRisk_, &den_, &c1_, &c2_, &cumG_, &tail1_, &tail2_})
      v->assign(slots, 0.0);
    terms_.assign(slots, EventSlotTerms{});
    for (auto* v : {&eta_d_, &u_, &published_, &direction_}) v->assign(n_, 0.0);
    shift_.assign(strata_, 0.0);
    competing_.resize(static_cast<std::size_t>(n_ > 0 ? n_ : 1));
    planChunks(data.design);
    scalars_.resize(1);
  }

  double deviceBytes() const override {
    return columns_.bytes() + coef_.bytes() + this->baseBytes() +
           device::bytesOf(inverseG_, event_, exitSlot_, events_, eventCount_, slotG_,
                           stratumStart_, slotStratum_, rowStratum_, tiedSlots_, runStart_, runSlot_, baseSlot_, exitRisk_, competingRisk_, tiedRisk_,
                           den_, c1_, c2_, cumG_, tail1_, tail2_, terms_, eta_d_, u_, published_,
                           direction_, shift_, competing_, chunkBegin_, parts_, staged_, chunkHead_, chunkTail_,
                           scalars_, entrySlot_, items_, moved_, entryRunStart_, entryRunRow_);
  }

  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override {
    coef_.upload(state);
    SurvivalDeviceScalars* sc = scalars();
    prims_.replay(device::sweepKey(plan, state.fixed, coef_), [&] {
      prims_.forEach(1, survival_device::ResetMoves{sc});
      for (const std::int32_t j : plan.coordinates) {
        if (state.fixed[j]) continue;
        enqueueScan(chunks(j), columns_.entries(j));
        mergeChunks(chunks(j).count);
        prims_.forEach(1, survival_device::CombineAndStep{sc, linear_(j), j, device::raw(coef_.beta),
                                                          device::raw(coef_.bound), device::raw(coef_.prior)});
        enqueueStep(chunks(j), columns_.entries(j));
      }
    });
    coef_.download(state);
    return hostScalars().moved;
  }

  GradHess gradHess(std::size_t j) const override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    return combined(chunks(c), columns_.entries(c), linear_(j));
  }
  void applyStep(std::size_t j, double delta) override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    prims_.forEach(1, survival_device::GivenStep{scalars(), delta});
    enqueueStep(chunks(c), columns_.entries(c));
  }
  void refreshSums() override { enqueueRebuild(); }
  double logLikelihood() const override {
    SurvivalDeviceScalars* sc = scalars();
    prims_.reduceTo(device::indexed(survival_device::LogLikTerm{n_, rows(), slotState(), device::raw(slotStratum_),
                                                                device::raw(baseSlot_), device::raw(shift_), efron_}),
                    n_ + index_.nSlots, 0.0, device::Plus{}, &sc->reduced);
    return hostScalars().reduced;
  }

  // Directions (host-assisted, once per cycle): a dense column over every row.
  bool supportsDirection() const override { return true; }
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    return combined(allRows_, ColumnEntries{nullptr, device::raw(direction_)},
                    eventWeightedDot(n_, weights_, data_.outcomes.y, d.data()));
  }
  void stepAlong(const std::vector<double>& d, double alpha) override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    prims_.forEach(1, survival_device::GivenStep{scalars(), alpha});
    enqueueStep(allRows_, ColumnEntries{nullptr, device::raw(direction_)});
  }

 protected:
  void rebuildFromEta() override {
    thrust::copy(eta_.begin(), eta_.end(), eta_d_.begin());
    enqueueRebuild();
  }

 private:
  struct ChunkPlan {
    std::int64_t offset, count, entries;  // its first chunk's index, its chunks, its entries
    std::int64_t itemOffset, items;       // its item list in items_ (-1: none), its items
  };

  std::vector<double> weightedEvents() const {
    std::vector<double> c(static_cast<std::size_t>(nRows()), 0.0);
    for (std::int64_t r = 0; r < nRows(); ++r)
      if (data_.outcomes.y[r] == 1.0) c[r] = weight(r);
    return c;
  }

  // Chunks of every column's items (and of all rows', for directions) of kChunkItems items;
  // with Efron ties or Fine-Gray, kChunkItems or more, cut where the item's slot changes
  // (device_survival_chunks.h). Counting-process data list each column's items (dense
  // columns share the all-rows list, at offset 0).
  void planChunks(const DesignView& design) {
    std::vector<std::int64_t> begin, items;
    const bool wholeSlots = efron_ || fineGray_;
    const bool counting = index_.countingProcess();
    const std::int32_t* stratum = data_.outcomes.stratum;
    struct ItemList {
      std::int64_t offset = -1, count = 0;  // offset -1: the items are the entries
    };
    auto listItems = [&](std::int64_t entries, auto rowOf) {
      const std::int64_t offset = static_cast<std::int64_t>(items.size());
      forCountingProcessItems(index_, stratum, entries, rowOf, countingEntryOrder(index_, stratum, entries, rowOf),
                              [&](std::int64_t k) { items.push_back(k); },
                              [&](std::int64_t k) { items.push_back(-1 - k); });
      return ItemList{offset, static_cast<std::int64_t>(items.size()) - offset};
    };
    auto plan = [&](std::int64_t entries, auto rowOf, ItemList list) {
      const std::int64_t itemOffset = list.offset;
      const std::int64_t n = itemOffset < 0 ? entries : list.count;
      auto slotOf = [&](std::int64_t i) {
        const std::int64_t code = itemOffset < 0 ? i : items[itemOffset + i];
        return code >= 0 ? index_.exitSlot[rowOf(code)] : index_.entrySlot[rowOf(-1 - code)];
      };
      const std::int64_t offset = static_cast<std::int64_t>(begin.size());
      std::int64_t last = 0;
      begin.push_back(0);
      for (std::int64_t k = 1; k < n; ++k)
        if (k - last >= kChunkItems && (!wholeSlots || slotOf(k) != slotOf(k - 1))) {
          begin.push_back(k);
          last = k;
        }
      const std::int64_t count = n > 0 ? static_cast<std::int64_t>(begin.size()) - offset : 0;
      begin.push_back(n);
      maxChunks_ = count > maxChunks_ ? count : maxChunks_;
      maxItems_ = n > maxItems_ ? n : maxItems_;
      maxEntries_ = entries > maxEntries_ ? entries : maxEntries_;
      return ChunkPlan{offset, count, entries, itemOffset, n};
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
    const ChunkPlan all = plan(design.nRows, everyRow, allItems);
    device::upload(chunkBegin_, begin);
    device::upload(items_, items);
    parts_.resize(static_cast<std::size_t>(maxChunks_ > 0 ? maxChunks_ : 1));
    staged_.resize(static_cast<std::size_t>(maxItems_ > 0 ? maxItems_ : 1));
    if (counting) moved_.resize(static_cast<std::size_t>(maxEntries_ > 0 ? maxEntries_ : 1));
    chunkHead_.resize(parts_.size());
    chunkTail_.resize(parts_.size());
    allRows_ = chunkView(all);
  }
  // Per fit, counting-process data: the rows by entry slot (stable), one run per slot.
  void planEntryRuns() {
    std::vector<std::int32_t> order(static_cast<std::size_t>(n_));
    for (std::int64_t r = 0; r < n_; ++r) order[r] = static_cast<std::int32_t>(r);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t a, std::int32_t b) { return index_.entrySlot[a] < index_.entrySlot[b]; });
    std::vector<std::int64_t> start;
    for (std::int64_t k = 0; k < n_; ++k)
      if (k == 0 || index_.entrySlot[order[k]] != index_.entrySlot[order[k - 1]]) start.push_back(k);
    start.push_back(n_);
    device::upload(entrySlot_, index_.entrySlot);
    device::upload(entryRunRow_, order);
    device::upload(entryRunStart_, start);
  }
  survival_device::ChunkView chunkView(const ChunkPlan& c) const {
    const std::int64_t* item = c.itemOffset < 0 ? nullptr : device::raw(items_) + c.itemOffset;
    return {device::raw(chunkBegin_) + c.offset, c.count, c.entries, item, c.items};
  }
  survival_device::ChunkView chunks(std::int32_t j) const { return chunkView(chunkPlan_[j]); }

  SurvivalDeviceScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  SurvivalDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  survival_device::Rows rows() const {
    return {thrust::raw_pointer_cast(eta_d_.data()), thrust::raw_pointer_cast(u_.data()),
            thrust::raw_pointer_cast(published_.data()), device::raw(w_), device::raw(inverseG_),
            device::raw(event_), device::raw(exitSlot_), device::raw(entrySlot_)};
  }
  SurvivalSlotState slotState() const {
    auto m = [](thrust::device_vector<double>& v) { return thrust::raw_pointer_cast(v.data()); };
    return {m(exitRisk_), m(competingRisk_), m(tiedRisk_), device::raw(events_), device::raw(eventCount_),
            device::raw(slotG_), m(den_), thrust::raw_pointer_cast(terms_.data()), m(c1_), m(c2_),
            m(cumG_), m(tail1_), m(tail2_), m(tail2_), device::raw(tiedSlots_),
            static_cast<std::int64_t>(tiedSlots_.size())};
  }
  SlotSums slotSums() const {
    return {device::raw(c1_), device::raw(c2_), device::raw(cumG_), device::raw(tail1_), device::raw(tail2_),
            device::raw(terms_)};
  }

  survival_device::StagedEntry* staged() const { return thrust::raw_pointer_cast(staged_.data()); }
  void enqueueScan(survival_device::ChunkView ch, ColumnEntries col) const {
    CompetingItem* competing = thrust::raw_pointer_cast(competing_.data());
    ScanPartial* parts = thrust::raw_pointer_cast(parts_.data());
    prims_.forEach(ch.items, survival_device::StageScanEntries{col, ch.item, rows(), staged()});
    if (fineGray_)
      prims_.forEach(ch.count, survival_device::ScanChunks<false, true>{ch, staged(), slotSums(), competing, parts});
    else if (efron_)
      prims_.forEach(ch.count, survival_device::ScanChunks<true, false>{ch, staged(), slotSums(), competing, parts});
    else
      prims_.forEach(ch.count, survival_device::ScanChunks<false, false>{ch, staged(), slotSums(), competing, parts});
  }
  GradHess combined(survival_device::ChunkView ch, ColumnEntries col, double linear) const {
    enqueueScan(ch, col);
    mergeChunks(ch.count);
    prims_.forEach(1, survival_device::CombineAndStep{scalars(), linear, -1, nullptr, nullptr, nullptr});
    return hostScalars().gh;
  }
  void enqueueStep(survival_device::ChunkView ch, ColumnEntries col) {
    if (ch.item) {
      survival_device::StagedEntry* moved = thrust::raw_pointer_cast(moved_.data());
      prims_.forEach(ch.entries, survival_device::MoveEntries{col, rows(), moved, scalars()});
      prims_.forEach(ch.items, survival_device::StageMovedItems{col, ch.item, rows(), moved, staged(), scalars()});
    } else {
      prims_.forEach(ch.entries, survival_device::MoveEntries{col, rows(), staged(), scalars()});
    }
    if (fineGray_)
      stepSlots<false, true>(ch);
    else if (efron_)
      stepSlots<true, false>(ch);
    else
      stepSlots<false, false>(ch);
    refreshSlotsByScans(prims_, slotState(), device::raw(slotStratum_), index_.nSlots, efron_, fineGray_);
  }
  template <bool Efron, bool FineGray>
  void stepSlots(survival_device::ChunkView ch) {
    survival_device::SlotDelta* head = thrust::raw_pointer_cast(chunkHead_.data());
    survival_device::SlotDelta* tail = thrust::raw_pointer_cast(chunkTail_.data());
    prims_.forEach(ch.count, survival_device::StepChunkSlots<Efron, FineGray>{ch, staged(), slotState(), head, tail,
                                                                             scalars()});
    prims_.forEach(ch.count, survival_device::StepBoundarySlots<Efron, FineGray>{ch.count, slotState(), head, tail,
                                                                                scalars()});
  }
  void mergeChunks(std::int64_t count) const {
    prims_.foldTo(device::raw(parts_), count, ScanPartial{}, MergeScanPartials{}, &scalars()->merged);
  }
  void enqueueRebuild() {
    double* shift = thrust::raw_pointer_cast(shift_.data());
    prims_.segmentedReduceTo(device::raw(eta_d_), device::raw(stratumStart_), strata_, -HUGE_VAL,
                             survival_device::MaxOf{}, shift);
    prims_.forEach(strata_, survival_device::FinishShift{shift});
    prims_.forEach(n_, survival_device::RowsFromEta{rows(), device::raw(rowStratum_), shift});
    prims_.forEach(index_.nSlots, survival_device::ClearSlotSums{slotState()});
    prims_.forEach(static_cast<std::int64_t>(index_.runSlot.size()),
                   survival_device::RunSums{rows(), slotState(), device::raw(runStart_), efron_, fineGray_});
    if (index_.countingProcess())
      prims_.forEach(static_cast<std::int64_t>(entryRunStart_.size()) - 1,
                     survival_device::EntryRunSums{rows(), slotState().exitRisk, device::raw(entryRunStart_),
                                                   device::raw(entryRunRow_)});
    refreshSlotsByScans(prims_, slotState(), device::raw(slotStratum_), index_.nSlots, efron_, fineGray_);
    this->etaChanged();
  }

  // As of the last reset() or refreshSums(), as the CPU likelihood's eta().
  const double* publishedEta() const override { return device::raw(published_); }

  DeviceColumns columns_;
  RiskSetIndex index_;
  bool efron_, fineGray_;
  std::int32_t strata_;
  ColumnLinearTerms linear_;  // sum over events of w x_j, on the host once per column
  thrust::device_vector<double> inverseG_;
  thrust::device_vector<unsigned char> event_, baseSlot_;
  thrust::device_vector<std::int32_t> exitSlot_, slotStratum_, rowStratum_, tiedSlots_, runSlot_;
  thrust::device_vector<std::int64_t> stratumStart_, chunkBegin_, runStart_;
  // Counting-process data: entry slots, each column's items (ChunkView), a step's moved
  // entries, and the rows by entry slot (EntryRunSums).
  thrust::device_vector<std::int32_t> entrySlot_, entryRunRow_;
  thrust::device_vector<std::int64_t> items_, entryRunStart_;
  thrust::device_vector<survival_device::StagedEntry> moved_;
  thrust::device_vector<double> events_, eventCount_, slotG_;
  mutable thrust::device_vector<double> exitRisk_, competingRisk_, tiedRisk_, den_, c1_, c2_, cumG_, tail1_,
      tail2_, eta_d_, u_, published_, direction_, shift_;
  mutable thrust::device_vector<EventSlotTerms> terms_;
  mutable thrust::device_vector<CompetingItem> competing_;
  mutable thrust::device_vector<ScanPartial> parts_;
  mutable thrust::device_vector<SurvivalDeviceScalars> scalars_;
  std::vector<ChunkPlan> chunkPlan_;  // per column
  std::int64_t maxChunks_ = 0, maxEntries_ = 0, maxItems_ = 0;
  mutable thrust::device_vector<survival_device::StagedEntry> staged_;
  thrust::device_vector<survival_device::SlotDelta> chunkHead_, chunkTail_;  // per chunk of a step
  survival_device::ChunkView allRows_;
  device::DeviceCoefficients coef_;
};

}  // namespace argus
