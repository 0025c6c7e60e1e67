// The survival likelihoods (cox with Breslow or Efron ties, strata, weights; fgr) on a device:
// survival_likelihood.h's bucketed algorithm with its state in device memory and a
// coordinate sweep that never returns to the host.
//
// A column's entries are cut into chunks that end where the exit slot changes (no slot group
// is split, so no two chunks write one slot), found once per fit (kChunkItems entries or
// more each). Per coordinate: one thread per chunk runs the CPU's scan over its entries
// (CoordinateScan, models/survival_scan.h) into a ScanPartial, one thread combines them
// (combineScans) and takes the Newton step; then one thread per chunk moves its entries (u,
// eta) and its slots' sums, and one thread per stratum refreshes the stratum's slots
// (refreshStratumSlots, models/survival_slots.h). All of it is the CPU's code; the partials
// are many more than the CPU's four chunks, so the sums agree to rounding, not bit for bit.
//
// Limits of this first version (DESIGN.md, "The device backend"): counting-process data are
// not supported (their entries scatter into other chunks' slots); the refresh is one thread
// per stratum, O(slots) sequential, which a single-stratum design with continuous times turns
// into the bottleneck on a GPU (segmented scans are the next step).
#pragma once

#include <thrust/device_vector.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/errors.h"
#include "data/risk_set_index.h"
#include "device/device_columns.h"
#include "device/device_common.h"
#include "models/column_linear_terms.h"
#include "models/survival_scan.h"
#include "models/survival_slots.h"

namespace argus {

struct SurvivalDeviceScalars {
  double step = 0.0;
  double unitFactor = 1.0;
  std::int64_t moved = 0;
  GradHess gh;
  double reduced = 0.0;
};

namespace survival_device {

// Chunk i of a column covers its entries [begin[i], begin[i + 1]).
struct ChunkView {
  const std::int64_t* begin = nullptr;
  std::int64_t count = 0;
};

struct Rows {
  double* eta;
  double* u;
  double* published;
  const double* w;
  const double* inverseG;
  const unsigned char* event;
  const std::int32_t* exitSlot;
};
// The accessors scatterStratumRows reads.
struct RowAccess {
  Rows rows;
  ARGUS_HOST_DEVICE double u(std::int64_t r) const { return rows.u[r]; }
  ARGUS_HOST_DEVICE std::int32_t exitSlot(std::int64_t r) const { return rows.exitSlot[r]; }
  ARGUS_HOST_DEVICE std::int32_t entrySlot(std::int64_t) const { return 0; }  // never read
  ARGUS_HOST_DEVICE bool event(std::int64_t r) const { return rows.event[r] != 0; }
  ARGUS_HOST_DEVICE double inverseG(std::int64_t r) const { return rows.inverseG[r]; }
};

template <bool Efron, bool FineGray>
struct ScanChunks {
  ChunkView chunks;
  ColumnEntries col;
  Rows rows;
  SlotSums sums;
  CompetingItem* competing;
  ScanPartial* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t b = chunks.begin[i], e = chunks.begin[i + 1];
    CoordinateScan<Efron, FineGray> scan(sums, competing + b);
    for (std::int64_t k = b; k < e; ++k) {
      const std::int64_t r = col.row(k);
      const double x = col.value(k);
      scan.visit(rows.exitSlot[r], rows.u[r] * x, x, Efron && rows.event[r] != 0,
                 FineGray ? rows.inverseG[r] : 0.0);
    }
    out[i] = scan.partial();
  }
};

struct CombineAndStep {
  SurvivalDeviceScalars* sc;
  const ScanPartial* parts;
  std::int64_t count;
  double linear;
  // The coordinate to step, or -1: only combine (gradHess() from the host).
  std::int32_t j;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->gh = combineScans(parts, count, linear);
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

template <bool Efron, bool FineGray>
struct StepChunks {
  ChunkView chunks;
  ColumnEntries col;
  Rows rows;
  SurvivalSlotState st;
  const SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const double delta = sc->step;
    if (delta == 0.0) return;
    for (std::int64_t k = chunks.begin[i]; k < chunks.begin[i + 1]; ++k) {
      const std::int64_t r = col.row(k);
      const double du = moveRiskEntry(rows.eta[r], rows.u[r], col.value(k), delta, sc->unitFactor);
      const std::int32_t slot = rows.exitSlot[r];
      st.exitRisk[slot] += du;
      if (Efron && rows.event[r]) st.tiedRisk[slot] += du;
      if (FineGray) st.competingRisk[slot] += du * rows.inverseG[r];
    }
  }
};

// Per stratum after a step: its slots refreshed (nothing where the step was 0).
struct RefreshStrata {
  SurvivalSlotState st;
  const std::int32_t* slotStart;
  const SurvivalDeviceScalars* sc;
  bool efron, fineGray;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    if (sc->step == 0.0) return;
    refreshStratumSlots(st, slotStart[s], slotStart[s + 1], efron, fineGray);
  }
};

// Per stratum from eta: shift, u, the slot sums from scratch, the refresh; eta published.
struct RebuildStrata {
  Rows rows;
  SurvivalSlotState st;
  const std::int32_t* slotStart;
  const std::int64_t* stratumStart;
  double* shift;
  bool efron, fineGray;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    const std::int64_t first = stratumStart[s], end = stratumStart[s + 1];
    shift[s] = stratumShift(rows.eta, first, end);
    for (std::int64_t r = first; r < end; ++r) {
      rows.u[r] = rows.w[r] * exp(rows.eta[r] - shift[s]);
      rows.published[r] = rows.eta[r];
    }
    for (std::int64_t k = slotStart[s]; k < slotStart[s + 1]; ++k)
      st.exitRisk[k] = st.competingRisk[k] = st.tiedRisk[k] = 0.0;
    scatterStratumRows(st, first, end, RowAccess{rows}, false, efron, fineGray);
    refreshStratumSlots(st, slotStart[s], slotStart[s + 1], efron, fineGray);
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
  static constexpr std::int64_t kChunkItems = 128;

  DeviceSurvivalLikelihood(const Dataset& data, const double* weights)
      : Base(data, weights),
        columns_(data.design),
        index_(buildRiskSetIndex(data)),
        efron_(data.ties == TieMethod::Efron),
        fineGray_(data.model == ModelType::FineGray),
        strata_(data.outcomes.nStrata),
        linear_(data.design, weightedEvents()) {
    ARGUS_REQUIRE(!index_.countingProcess(), "counting-process data have no device runner yet");
    const SurvivalFitConstants constants = survivalFitConstants(data, weights, index_);
    const std::size_t slots = static_cast<std::size_t>(index_.nSlots);
    std::vector<unsigned char> event(n_);
    for (std::int64_t r = 0; r < n_; ++r) event[r] = data.outcomes.y[r] == 1.0;
    std::vector<std::int32_t> slotStratum(slots, 0);
    std::vector<unsigned char> base(slots, 0);
    for (std::int32_t s = 0; s < strata_; ++s) {
      base[index_.slotStart[s]] = 1;
      for (std::int32_t k = index_.slotStart[s]; k < index_.slotStart[s + 1]; ++k) slotStratum[k] = s;
    }
    device::upload(event_, event);
    device::upload(inverseG_, constants.inverseG);
    device::upload(exitSlot_, index_.exitSlot);
    device::upload(events_, constants.events);
    device::upload(eventCount_, constants.eventCount);
    device::upload(slotG_, constants.slotG);
    device::upload(slotStart_, index_.slotStart);
    stratumStart_.assign(data.outcomes.stratumStart, data.outcomes.stratumStart + strata_ + 1);
    device::upload(slotStratum_, slotStratum);
    device::upload(baseSlot_, base);
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
           device::bytesOf(inverseG_, event_, exitSlot_, events_, eventCount_, slotG_, slotStart_,
                           stratumStart_, slotStratum_, baseSlot_, exitRisk_, competingRisk_, tiedRisk_,
                           den_, c1_, c2_, cumG_, tail1_, tail2_, terms_, eta_d_, u_, published_,
                           direction_, shift_, competing_, chunkBegin_, parts_, scalars_);
  }

  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override {
    coef_.upload(state);
    SurvivalDeviceScalars* sc = scalars();
    prims_.forEach(1, survival_device::ResetMoves{sc});
    for (const std::int32_t j : plan.coordinates) {
      if (state.fixed[j]) continue;
      enqueueScan(chunks(j), columns_.entries(j));
      prims_.forEach(1, survival_device::CombineAndStep{sc, device::raw(parts_), chunks(j).count, linear_(j), j,
                                                        device::raw(coef_.beta), device::raw(coef_.bound),
                                                        device::raw(coef_.prior)});
      enqueueStep(chunks(j), columns_.entries(j));
    }
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
  std::vector<double> weightedEvents() const {
    std::vector<double> c(static_cast<std::size_t>(nRows()), 0.0);
    for (std::int64_t r = 0; r < nRows(); ++r)
      if (data_.outcomes.y[r] == 1.0) c[r] = weight(r);
    return c;
  }

  // Chunks of every column's entries (and of all rows, for directions), cut where the exit
  // slot changes once a chunk has kChunkItems entries.
  void planChunks(const DesignView& design) {
    std::vector<std::int64_t> begin;
    auto plan = [&](std::int64_t entries, auto rowOf) {
      const std::int64_t offset = static_cast<std::int64_t>(begin.size());
      std::int64_t last = 0;
      begin.push_back(0);
      for (std::int64_t k = 1; k < entries; ++k)
        if (k - last >= kChunkItems && index_.exitSlot[rowOf(k)] != index_.exitSlot[rowOf(k - 1)]) {
          begin.push_back(k);
          last = k;
        }
      const std::int64_t count = entries > 0 ? static_cast<std::int64_t>(begin.size()) - offset : 0;
      begin.push_back(entries);
      maxChunks_ = count > maxChunks_ ? count : maxChunks_;
      return std::make_pair(offset, count);
    };
    for (const ColumnView& c : design.columns) {
      if (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse)
        chunkPlan_.push_back(plan(c.nnz, [&](std::int64_t k) { return c.rows[k]; }));
      else
        chunkPlan_.push_back(plan(design.nRows, [](std::int64_t k) { return k; }));
    }
    const auto all = plan(design.nRows, [](std::int64_t k) { return k; });
    device::upload(chunkBegin_, begin);
    parts_.resize(static_cast<std::size_t>(maxChunks_ > 0 ? maxChunks_ : 1));
    allRows_ = survival_device::ChunkView{device::raw(chunkBegin_) + all.first, all.second};
  }
  survival_device::ChunkView chunks(std::int32_t j) const {
    return {device::raw(chunkBegin_) + chunkPlan_[j].first, chunkPlan_[j].second};
  }

  SurvivalDeviceScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  SurvivalDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  survival_device::Rows rows() const {
    return {thrust::raw_pointer_cast(eta_d_.data()), thrust::raw_pointer_cast(u_.data()),
            thrust::raw_pointer_cast(published_.data()), device::raw(w_), device::raw(inverseG_),
            device::raw(event_), device::raw(exitSlot_)};
  }
  SurvivalSlotState slotState() const {
    auto m = [](thrust::device_vector<double>& v) { return thrust::raw_pointer_cast(v.data()); };
    return {m(exitRisk_), m(competingRisk_), m(tiedRisk_), device::raw(events_), device::raw(eventCount_),
            device::raw(slotG_), m(den_), thrust::raw_pointer_cast(terms_.data()), m(c1_), m(c2_),
            m(cumG_), m(tail1_), m(tail2_), m(tail2_)};
  }
  SlotSums slotSums() const {
    return {device::raw(c1_), device::raw(c2_), device::raw(cumG_), device::raw(tail1_), device::raw(tail2_),
            device::raw(terms_)};
  }

  void enqueueScan(survival_device::ChunkView ch, ColumnEntries col) const {
    CompetingItem* competing = thrust::raw_pointer_cast(competing_.data());
    ScanPartial* parts = thrust::raw_pointer_cast(parts_.data());
    if (fineGray_)
      prims_.forEach(ch.count, survival_device::ScanChunks<false, true>{ch, col, rows(), slotSums(), competing, parts});
    else if (efron_)
      prims_.forEach(ch.count, survival_device::ScanChunks<true, false>{ch, col, rows(), slotSums(), competing, parts});
    else
      prims_.forEach(ch.count, survival_device::ScanChunks<false, false>{ch, col, rows(), slotSums(), competing, parts});
  }
  GradHess combined(survival_device::ChunkView ch, ColumnEntries col, double linear) const {
    enqueueScan(ch, col);
    prims_.forEach(1, survival_device::CombineAndStep{scalars(), device::raw(parts_), ch.count, linear, -1,
                                                      nullptr, nullptr, nullptr});
    return hostScalars().gh;
  }
  void enqueueStep(survival_device::ChunkView ch, ColumnEntries col) {
    if (fineGray_)
      prims_.forEach(ch.count, survival_device::StepChunks<false, true>{ch, col, rows(), slotState(), scalars()});
    else if (efron_)
      prims_.forEach(ch.count, survival_device::StepChunks<true, false>{ch, col, rows(), slotState(), scalars()});
    else
      prims_.forEach(ch.count, survival_device::StepChunks<false, false>{ch, col, rows(), slotState(), scalars()});
    prims_.forEach(strata_, survival_device::RefreshStrata{slotState(), device::raw(slotStart_), scalars(),
                                                           efron_, fineGray_});
  }
  void enqueueRebuild() {
    prims_.forEach(strata_, survival_device::RebuildStrata{rows(), slotState(), device::raw(slotStart_),
                                                           device::raw(stratumStart_),
                                                           thrust::raw_pointer_cast(shift_.data()), efron_,
                                                           fineGray_});
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
  thrust::device_vector<std::int32_t> exitSlot_, slotStart_, slotStratum_;
  thrust::device_vector<std::int64_t> stratumStart_, chunkBegin_;
  thrust::device_vector<double> events_, eventCount_, slotG_;
  mutable thrust::device_vector<double> exitRisk_, competingRisk_, tiedRisk_, den_, c1_, c2_, cumG_, tail1_,
      tail2_, eta_d_, u_, published_, direction_, shift_;
  mutable thrust::device_vector<EventSlotTerms> terms_;
  mutable thrust::device_vector<CompetingItem> competing_;
  mutable thrust::device_vector<ScanPartial> parts_;
  mutable thrust::device_vector<SurvivalDeviceScalars> scalars_;
  std::vector<std::pair<std::int64_t, std::int64_t>> chunkPlan_;  // per column: offset, chunks
  std::int64_t maxChunks_ = 0;
  survival_device::ChunkView allRows_;
  device::DeviceCoefficients coef_;
};

}  // namespace argus
