// The survival likelihoods (cox with Breslow or Efron ties, strata, weights; fgr) on a device:
// survival_likelihood.h's bucketed algorithm with its state in device memory and a
// coordinate sweep that never returns to the host.
//
// A column's items (its entries' exits, and with counting-process data their entries) are cut
// into short chunks, found once per data set with the risk-set index (device_survival_plan.h,
// shared by a cross-validation's fits; device_survival_chunks.h: a GPU thread that walks
// entries in order waits on memory at each). Per coordinate: the items' row state is staged
// one thread per item; one thread per chunk runs the CPU's scan over its items
// (CoordinateScan, models/survival_scan.h) into a ScanPartial, merged in order in a tree
// (mergeScanPartials, foldThen) and one thread takes the Newton step: scan, merge and step in
// one launch on a GPU; then one thread per entry moves its row (u, eta), the chunks add the
// changes into the slot sums (survival_step_slots.h), and scans by stratum refresh the slots
// (device_slot_scans.h); after a
// step of 0 the step's kernels and the refresh return at once, reading a device flag. A
// rebuild from eta runs per row, per exit run (scatterStratumRows, the CPU's; counting-process
// entries per entry run) and the same scans. The formulas are the CPU's; the partials and
// scans add in other groupings than the CPU's loops, so the sums agree to rounding, not bit
// for bit.
//
// Counting-process data (cox on (start, stop] rows): a column's items are its rows' exits
// merged with their entries (models/counting_process_items.h), listed once in the plan; the
// chunks cut the items, and a step moves each row once (per entry) before its exit and entry
// items are staged.
#pragma once

#include <thrust/device_vector.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "data/risk_set_index.h"
#include "device/all_coordinates_steps.h"
#include "device/device_bound_source.h"
#include "device/device_columns.h"
#include "device/device_common.h"
#include "device/device_design.h"
#include "device/device_slot_scans.h"
#include "device/device_survival_chunks.h"
#include "device/device_survival_plan.h"
#include "models/column_linear_terms.h"
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
    sc->stepped = delta != 0.0;
    if (delta == 0.0) return;
    sc->unitFactor = exp(delta);
    beta[j] += delta;
    ++sc->moved;
  }
};

// The merged scan's g, h into out (a device array of every column's): gradHessAll().
struct CombineInto {
  SurvivalDeviceScalars* sc;
  double linear;
  GradHess* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { *out = scanGradHess(sc->merged, linear); }
};

struct GivenStep {
  SurvivalDeviceScalars* sc;
  double delta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->step = delta;
    sc->stepped = delta != 0.0;
    sc->unitFactor = exp(delta);
  }
};
struct MaxOf {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return std::fmax(a, b); }
};
struct MinOf {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return std::fmin(a, b); }
};

// A stratum's shift from its largest (in shift) and smallest eta: riskSetShift's rule.
struct FinishShift {
  double* shift;
  const double* bottom;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const { shift[s] = riskSetShift(shift[s], bottom[s]); }
};

// Per row from eta: u and the published eta.
struct RowsFromEta {
  Rows rows;
  const std::int32_t* rowStratum;
  const double* shift;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    rows.u[r] = rows.w[r] * expFromShift(rows.eta[r], shift[rowStratum[r]]);
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

// Per row: Likelihood::rowScores' score and curvature (survival_slots.h).
struct RowScores {
  Rows rows;
  SurvivalSlotState st;
  bool counting, efron, fineGray;
  double* score;
  double* curvature;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    survivalRowScore(st, r, RowAccess{rows}, rows.w[r], counting, efron, fineGray, score + r, curvature + r);
  }
};

struct ResetMoves {
  SurvivalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->moved = 0; }
};

}  // namespace survival_device

template <typename Prims>
class DeviceSurvivalLikelihood final : public DeviceModelBase<Prims>, public DeviceBoundSource {
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
  DeviceSurvivalLikelihood(const Dataset& data, const double* weights, std::shared_ptr<const DeviceDesign> design)
      : Base(data, weights),
        design_(std::move(design)),
        columns_(design_->columns),
        plan_(*design_->survival),
        efron_(data.ties == TieMethod::Efron),
        fineGray_(data.model == ModelType::FineGray),
        strata_(data.outcomes.nStrata),
        linear_(data.design, weightedEvents()) {
    const RiskSetIndex& index = plan_.index;
    const SurvivalFitConstants constants = survivalFitConstants(data, weights, index);
    const std::size_t slots = static_cast<std::size_t>(index.nSlots);
    std::vector<std::int32_t> tied;
    if (efron_)
      for (std::size_t k = 0; k < slots; ++k)
        if (constants.eventCount[k] > 1.0) tied.push_back(static_cast<std::int32_t>(k));
    device::upload(inverseG_, constants.inverseG);
    device::upload(events_, constants.events);
    device::upload(eventCount_, constants.eventCount);
    device::upload(slotG_, constants.slotG);
    device::upload(tiedSlots_, tied);
    for (auto* v : {&exitRisk_, &competingRisk_, &tiedRisk_, &den_, &c1_, &c2_, &cumG_, &tail1_, &tail2_})
      v->assign(slots, 0.0);
    terms_.assign(slots, EventSlotTerms{});
    for (auto* v : {&eta_d_, &u_, &published_, &direction_}) v->assign(n_, 0.0);
    shift_.assign(strata_, 0.0);
    bottom_.assign(strata_, 0.0);
    competing_.resize(static_cast<std::size_t>(n_ > 0 ? n_ : 1));
    auto atLeastOne = [](std::int64_t k) { return static_cast<std::size_t>(k > 0 ? k : 1); };
    const std::size_t pieces = 2 * atLeastOne(plan_.maxChunks());
    pieceSlot_.resize(pieces);
    piece_.resize(pieces);
    pieceTotal_.resize(pieces);
    staged_.resize(atLeastOne(plan_.maxItems()));
    if (index.countingProcess()) moved_.resize(atLeastOne(plan_.maxEntries()));
    scalars_.resize(1);
  }

  double deviceBytes() const override {
    return columns_.bytes() + plan_.bytes() + coef_.bytes() + this->baseBytes() +
           device::bytesOf(inverseG_, events_, eventCount_, slotG_, tiedSlots_, exitRisk_, competingRisk_,
                           tiedRisk_, den_, c1_, c2_, cumG_, tail1_, tail2_, terms_, eta_d_, u_, published_,
                           direction_, shift_, bottom_, scoreOut_, curvatureOut_, competing_, staged_, pieceSlot_,
                           piece_, pieceTotal_, scalars_, moved_, gradHessOut_);
  }

  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override {
    coef_.upload(state);
    SurvivalDeviceScalars* sc = scalars();
    prims_.replay(device::sweepKey(plan, state.fixed, coef_), [&] {
      prims_.forEach(1, survival_device::ResetMoves{sc});
      for (const std::int32_t j : plan.coordinates) {
        if (state.fixed[j]) continue;
        scanThen(plan_.chunks(j), columns_.entries(j),
                 survival_device::CombineAndStep{sc, linear_(j), j, device::raw(coef_.beta),
                                                 device::raw(coef_.bound), device::raw(coef_.prior)});
        enqueueStep(plan_.chunks(j), columns_.entries(j));
      }
    });
    coef_.download(state);
    return hostScalars().moved;
  }

  GradHess gradHess(std::size_t j) const override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    return combined(plan_.chunks(c), columns_.entries(c), linear_(j));
  }
  void applyStep(std::size_t j, double delta) override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    prims_.forEach(1, survival_device::GivenStep{scalars(), delta});
    enqueueStep(plan_.chunks(c), columns_.entries(c));
  }
  void refreshSums() override { enqueueRebuild(); }
  double logLikelihood() const override {
    SurvivalDeviceScalars* sc = scalars();
    prims_.reduceTo(device::indexed(survival_device::LogLikTerm{n_, rows(), slotState(), device::raw(plan_.slotStratum),
                                                                device::raw(plan_.baseSlot), device::raw(shift_), efron_}),
                    n_ + plan_.index.nSlots, 0.0, device::Plus{}, &sc->reduced);
    return hostScalars().reduced;
  }

  // The CPU's figures, scaled by what an exact cycle costs on this backend against the host.
  Likelihood::ExactCycleCost exactCycleCost() const override {
    constexpr double scale = Prims::kExactCycleCostScale;
    return {scale * survivalCycleCostPerEntry(fineGray_), scale * survivalCycleCostPerSlot(fineGray_),
            plan_.index.nSlots};
  }
  // Host-assisted, once per step of the majorized start; the two arrays exist from the first.
  bool rowScores(std::vector<double>* score, std::vector<double>* curvature) override {
    scoreOut_.resize(static_cast<std::size_t>(n_));
    curvatureOut_.resize(static_cast<std::size_t>(n_));
    prims_.forEach(n_, survival_device::RowScores{rows(), slotState(), plan_.index.countingProcess(), efron_,
                                                   fineGray_, thrust::raw_pointer_cast(scoreOut_.data()),
                                                   thrust::raw_pointer_cast(curvatureOut_.data())});
    score->resize(static_cast<std::size_t>(n_));
    curvature->resize(static_cast<std::size_t>(n_));
    thrust::copy(scoreOut_.begin(), scoreOut_.end(), score->begin());
    thrust::copy(curvatureOut_.begin(), curvatureOut_.end(), curvature->begin());
    return true;
  }

  // The all-coordinates steps (device/all_coordinates_steps.h) on the same row scores, their
  // trials loading eta without the host; the bound shifts per stratum (partial likelihoods
  // ignore a stratum's common shift of eta).
  std::unique_ptr<BoundSteps> boundSteps() override {
    return std::make_unique<DeviceBoundSteps<Prims>>(*this, *this, design_->template allCoordinates<Prims>());
  }
  BoundShift boundShift() const override { return BoundShift::PerStratum; }
  void boundRowScores(double* score, double* curvature) const override {
    prims_.forEach(n_, survival_device::RowScores{rows(), slotState(), plan_.index.countingProcess(), efron_,
                                                   fineGray_, score, curvature});
  }
  const double* currentEta() const override { return device::raw(published_); }
  void loadEta(const double* eta) override {
    thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, eta_d_.begin());
    enqueueRebuild();
  }

  // Every column's g, h, each column's scan enqueued with its result kept on the device
  // (gradHessOut_), read back once.
  void gradHessAll(const std::vector<unsigned char>& skip, std::vector<GradHess>* out) const override {
    const std::size_t p = data_.design.nColumns();
    gradHessOut_.resize(p);
    for (std::size_t j = 0; j < p; ++j) {
      if (!skip.empty() && skip[j]) continue;
      const std::int32_t c = static_cast<std::int32_t>(j);
      scanThen(plan_.chunks(c), columns_.entries(c),
               survival_device::CombineInto{scalars(), linear_(j), device::raw(gradHessOut_) + j});
    }
    device::readBackGradHess(gradHessOut_, skip, out);
  }

  // Directions (host-assisted, once per cycle): a dense column over every row.
  bool supportsDirection() const override { return true; }
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    return combined(plan_.allRows(), ColumnEntries{nullptr, device::raw(direction_)},
                    eventWeightedDot(n_, weights_, data_.outcomes.y, d.data()));
  }
  void stepAlong(const std::vector<double>& d, double alpha) override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    prims_.forEach(1, survival_device::GivenStep{scalars(), alpha});
    enqueueStep(plan_.allRows(), ColumnEntries{nullptr, device::raw(direction_)});
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

  SurvivalDeviceScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  SurvivalDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  survival_device::Rows rows() const {
    return {thrust::raw_pointer_cast(eta_d_.data()), thrust::raw_pointer_cast(u_.data()),
            thrust::raw_pointer_cast(published_.data()), device::raw(w_), device::raw(inverseG_),
            device::raw(plan_.event), device::raw(plan_.exitSlot), device::raw(plan_.entrySlot)};
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
  // A coordinate's items staged, then its chunks scanned and merged in order into the
  // scalars, then `then` (the step) in one thread: the chunks' scans are the fold's items.
  template <typename Then>
  void scanThen(survival_device::ChunkView ch, ColumnEntries col, Then then) const {
    using survival_device::ChunkPartial;
    CompetingItem* competing = thrust::raw_pointer_cast(competing_.data());
    prims_.forEach(ch.items, survival_device::StageScanEntries{col, ch.item, rows(), staged()});
    if (fineGray_)
      foldChunksThen(ChunkPartial<false, true>{ch, staged(), slotSums(), competing}, ch.count, then);
    else if (efron_)
      foldChunksThen(ChunkPartial<true, false>{ch, staged(), slotSums(), competing}, ch.count, then);
    else
      foldChunksThen(ChunkPartial<false, false>{ch, staged(), slotSums(), competing}, ch.count, then);
  }
  template <typename Partial, typename Then>
  void foldChunksThen(Partial partial, std::int64_t count, Then then) const {
    prims_.foldThen(device::indexed(partial), count, ScanPartial{}, MergeScanPartials{}, &scalars()->merged, then);
  }
  GradHess combined(survival_device::ChunkView ch, ColumnEntries col, double linear) const {
    scanThen(ch, col, survival_device::CombineAndStep{scalars(), linear, -1, nullptr, nullptr, nullptr});
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
    // A step of 0 changed no slot: the refresh's scans return at once (the stepped flag).
    refreshSlotsByScans(prims_, slotState(), device::raw(plan_.slotStratum), plan_.index.nSlots, efron_, fineGray_,
                        &scalars()->stepped);
  }
  template <bool Efron, bool FineGray>
  void stepSlots(survival_device::ChunkView ch) {
    using namespace survival_device;
    std::int32_t* pieceSlot = device::raw(pieceSlot_);
    SlotChange* piece = device::raw(piece_);
    SlotChange* total = device::raw(pieceTotal_);
    prims_.forEach(ch.count, StepChunkSlots<Efron, FineGray>{ch, staged(), slotState(), pieceSlot, piece, scalars()});
    if (ch.crossings == 0) return;  // every slot was added in pass 1
    if (ch.groups) {
      prims_.forEach(ch.groupCount, SettleCrossingGroups<Efron, FineGray>{ch.groups, piece, slotState(), scalars()});
      return;
    }
    const std::int64_t pieces = 2 * ch.count;
    prims_.template scanByKeyIf<false, false>(&scalars()->stepped, pieceSlot, piece, pieces, SlotChangePlus{}, total);
    prims_.forEach(pieces, SettleSlotPieces<Efron, FineGray>{pieces, pieceSlot, total, slotState(), scalars()});
  }
  void enqueueRebuild() {
    double* shift = thrust::raw_pointer_cast(shift_.data());
    prims_.segmentedReduceTo(device::raw(eta_d_), device::raw(plan_.stratumStart), strata_, -HUGE_VAL,
                             survival_device::MaxOf{}, shift);
    prims_.segmentedReduceTo(device::raw(eta_d_), device::raw(plan_.stratumStart), strata_, HUGE_VAL,
                             survival_device::MinOf{}, device::raw(bottom_));
    prims_.forEach(strata_, survival_device::FinishShift{shift, device::raw(bottom_)});
    prims_.forEach(n_, survival_device::RowsFromEta{rows(), device::raw(plan_.rowStratum), shift});
    prims_.forEach(plan_.index.nSlots, survival_device::ClearSlotSums{slotState()});
    prims_.forEach(static_cast<std::int64_t>(plan_.index.runSlot.size()),
                   survival_device::RunSums{rows(), slotState(), device::raw(plan_.runStart), efron_, fineGray_});
    if (plan_.index.countingProcess())
      prims_.forEach(static_cast<std::int64_t>(plan_.entryRunStart.size()) - 1,
                     survival_device::EntryRunSums{rows(), slotState().exitRisk, device::raw(plan_.entryRunStart),
                                                   device::raw(plan_.entryRunRow)});
    refreshSlotsByScans(prims_, slotState(), device::raw(plan_.slotStratum), plan_.index.nSlots, efron_, fineGray_,
                        nullptr);
    this->etaChanged();
  }

  // As of the last reset() or refreshSums(), as the CPU likelihood's eta().
  const double* publishedEta() const override { return device::raw(published_); }

  std::shared_ptr<const DeviceDesign> design_;  // the design and plan, shared by a CV's fits
  const DeviceColumns& columns_;
  const SurvivalDevicePlan& plan_;
  bool efron_, fineGray_;
  std::int32_t strata_;
  ColumnLinearTerms linear_;  // sum over events of w x_j, on the host once per column
  thrust::device_vector<double> inverseG_;
  thrust::device_vector<std::int32_t> tiedSlots_;
  thrust::device_vector<survival_device::StagedEntry> moved_;  // counting process: a step's moved entries
  thrust::device_vector<double> events_, eventCount_, slotG_;
  mutable thrust::device_vector<double> exitRisk_, competingRisk_, tiedRisk_, den_, c1_, c2_, cumG_, tail1_,
      tail2_, eta_d_, u_, published_, direction_, shift_, bottom_, scoreOut_, curvatureOut_;
  mutable thrust::device_vector<EventSlotTerms> terms_;
  mutable thrust::device_vector<GradHess> gradHessOut_;
  mutable thrust::device_vector<CompetingItem> competing_;
  mutable thrust::device_vector<SurvivalDeviceScalars> scalars_;
  mutable thrust::device_vector<survival_device::StagedEntry> staged_;
  // A step's pieces: per chunk its first and last slot's share, and their sums by slot.
  thrust::device_vector<std::int32_t> pieceSlot_;
  thrust::device_vector<survival_device::SlotChange> piece_, pieceTotal_;
  device::DeviceCoefficients coef_;
};

}  // namespace argus
