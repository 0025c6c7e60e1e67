// Cox (Breslow or Efron ties, strata, counting-process data) and Fine-Gray partial
// likelihoods with the bucketed per-coordinate algorithm of MODELS.md §5.
//
// State, per risk-set slot (data/risk_set_index.h): D (u of the rows exiting there, minus u of
// the rows entering after it), den (suffix sums of D within the stratum, plus for Fine-Gray
// the competing rows kept at risk by G), the event-slot terms (survival_functors.h) and their
// cumulative sums c1 = sum_{e<=k} A_e, c2 = sum_{e<=k} Q0_e. One coordinate's g and h then
// need only its own nonzeros, walked in row order = descending slot within a stratum: O(nnz_j).
// A step updates u and D on those rows and refreshes the slot arrays in O(slots + events).
// src/engine/MODELS.md, "§5 in detail", maps every term to the code.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/worker_team.h"
#include "data/risk_set_index.h"
#include "models/column_linear_terms.h"
#include "models/likelihood.h"
#include "models/survival_functors.h"
#include "models/survival_refresh.h"
#include "models/survival_scan.h"
#include "models/survival_slots.h"

namespace argus {

// One bit per row.
class RowFlags {
 public:
  explicit RowFlags(std::int64_t n = 0) : words_(static_cast<std::size_t>((n + 63) / 64), 0) {}
  void set(std::int64_t r) { words_[static_cast<std::size_t>(r >> 6)] |= std::uint64_t{1} << (r & 63); }
  bool operator[](std::int64_t r) const {
    return (words_[static_cast<std::size_t>(r >> 6)] >> (r & 63)) & 1u;
  }

 private:
  std::vector<std::uint64_t> words_;
};

class SurvivalLikelihood final : public Likelihood {
 public:
  SurvivalLikelihood(const Dataset& data, const double* weights);

  void refreshSums() override;
  GradHess gradHess(std::size_t j) const override;
  void applyStep(std::size_t j, double delta) override;
  double logLikelihood() const override;
  // Visits every event slot at the current eta as f(stratum, time, jump), strata in order and
  // times ascending; jump = A_e exp(-shift) is the baseline hazard increment
  // (survival_baseline.h).
  template <typename F>
  void forEachHazardJump(F&& f) const {
    for (std::int32_t s = 0; s + 1 < static_cast<std::int32_t>(index_.slotStart.size()); ++s)
      for (std::int32_t k = index_.slotStart[s] + 1; k < index_.slotStart[s + 1]; ++k)
        f(s, index_.slotTime[k], eventTerms(k).a * std::exp(-shift_[s]));
  }
  void setThreads(int threads) override;
  // Entries per chunk from which a column is split (default kChunkItems); the tests lower it
  // to run the chunked scan on small data.
  void setChunkItems(std::int64_t items);
  // Slots per part of the refresh (default SlotRefresh::kPartSlots); the tests lower it to
  // run the parted refresh on small data.
  void setPartSlots(std::int64_t slots) { refresh_ = SlotRefresh(index_, slots); }
  int refreshParts() const { return refresh_.parts(); }
  bool rowScores(std::vector<double>* score, std::vector<double>* curvature) override;
  ExactCycleCost exactCycleCost() const override {
    return {survivalCycleCostPerEntry(fineGray_), survivalCycleCostPerSlot(fineGray_), index_.nSlots};
  }
  bool supportsDirection() const override;
  GradHess gradHessAlong(const std::vector<double>& d) const override;
  void stepAlong(const std::vector<double>& d, double alpha) override;

 private:
  // The slot arrays a coordinate scan reads (models/survival_scan.h).
  SlotSums slotSums() const {
    return {c1_.data(), c2_.data(), cumG_.data(), tail1_.data(), tail2_.data(), terms_.data()};
  }
  // The slot arrays the refresh writes (models/survival_slots.h).
  SurvivalSlotState slotState() {
    return {exitRisk_.data(), competingRisk_.data(), tiedRisk_.data(), events_.data(),
            eventCount_.data(), slotG_.data(), den_.data(), terms_.data(), c1_.data(), c2_.data(),
            cumG_.data(), tail1_.data(), tail2_.data(), tail2_.data(), tiedSlots_.data(),
            static_cast<std::int64_t>(tiedSlots_.size())};
  }
  // Slot k's A, B, Q0, Q1, Q2 at the current den (the refresh keeps them only for Efron).
  EventSlotTerms eventTerms(std::int64_t k) const {
    return efron_ ? efronEventTerms(events_[k], eventCount_[k], den_[k], tiedRisk_[k])
                  : breslowEventTerms(events_[k], den_[k]);
  }

  // Large columns are scanned and stepped in up to kMaxChunks chunks of about kChunkItems
  // entries or more, run on team_ when there is one (setThreads). 2,048 entries take some
  // 20 us to scan, against about 1 us to hand a chunk to a spinning team member: at N = 1e5
  // and 5% density (5,000 entries a column) two threads fit a Cox model about 1.5x faster
  // (bench/cpp/survival_bench.cpp), and no slower at N = 1e6 than with 16,384.
  static constexpr int kMaxChunks = 4;
  static constexpr std::int64_t kChunkItems = 2048;
  int planChunks(const ColumnView& c, std::int64_t* bounds) const;
  template <typename F>
  void forChunks(int chunks, F&& f) const;
  template <bool Efron, bool FineGray>
  GradHess scanColumn(const ColumnView& c, double linearTerm) const;
  template <bool Efron, bool FineGray>
  void stepColumn(const ColumnView& c, double delta);
  GradHess scanView(const ColumnView& c, double linearTerm) const;
  void stepView(const ColumnView& c, double delta);
  GradHess scanCountingProcess(const ColumnView& c, const std::vector<std::int32_t>& entries,
                               double linearTerm) const;
  std::vector<std::int32_t> entryOrderOf(const ColumnView& c) const;

  // The per-row accessors survival_slots.h's functions read.
  struct RowAccess {
    const SurvivalLikelihood& lik;
    double u(std::int64_t r) const { return lik.state(r).u; }
    std::int32_t exitSlot(std::int64_t r) const { return lik.index_.exitSlot[r]; }
    std::int32_t entrySlot(std::int64_t r) const { return lik.index_.entrySlot[r]; }
    bool event(std::int64_t r) const { return lik.isEvent(r); }
    double inverseG(std::int64_t r) const { return lik.fineGrayRows_[r].inverseG; }
  };
  void rebuildFromEta() override;
  void scatterRows();   // D, competing and tied sums from u
  void refreshSlots();  // den, terms, cumulative arrays: O(slots + events), on team_
  void buildEntryOrder();
  bool isEvent(std::int64_t r) const { return data_.outcomes.y[r] == 1.0; }
  std::vector<double> weightedEvents() const;  // w_r on events, else 0

  const std::int32_t* stratum_;
  RiskSetIndex index_;
  SlotRefresh refresh_;
  const bool efron_;
  const bool fineGray_;

  // What a coordinate reads or writes about one row, in as few bytes as the model allows: at
  // N = 1e6 the scan waits on these loads (one per nonzero), and the smaller the array the
  // more of it the shared cache holds (Cox with 32-byte records took twice the time per
  // nonzero). The row's exit slot comes from the index (ExitSlotCursor), its tied-event flag
  // from a bitset small enough to stay in L2. Fine-Gray adds 1/G to the same cache line (a
  // separate array cost a second miss per competing row: 1.7x the time at N = 1e5).
  // eta here is current; the base class's eta_ is synchronized by reset() and refreshSums().
  struct alignas(16) RowState {
    double u;  // w exp(eta - shift of the row's stratum)
    double eta;
  };
  struct alignas(32) FineGrayRowState {
    RowState state;
    double inverseG;  // 1/G(time_r-) for competing rows, else 0
    double unused;
  };
  static_assert(sizeof(RowState) == 16 && sizeof(FineGrayRowState) == 32,
                "row records must divide a cache line");
  template <bool FineGray>
  using RowRecord = typename std::conditional<FineGray, FineGrayRowState, RowState>::type;
  template <bool FineGray>
  const RowRecord<FineGray>* records() const {
    if constexpr (FineGray) return fineGrayRows_.data(); else return rows_.data();
  }
  template <bool FineGray>
  RowRecord<FineGray>* records() {
    if constexpr (FineGray) return fineGrayRows_.data(); else return rows_.data();
  }
  static RowState& stateOf(RowState& r) { return r; }
  static RowState& stateOf(FineGrayRowState& r) { return r.state; }
  static const RowState& stateOf(const RowState& r) { return r; }
  static const RowState& stateOf(const FineGrayRowState& r) { return r.state; }
  static double inverseGOf(const RowState&) { return 0.0; }
  static double inverseGOf(const FineGrayRowState& r) { return r.inverseG; }
  RowState& state(std::int64_t r) { return fineGray_ ? fineGrayRows_[r].state : rows_[r]; }
  const RowState& state(std::int64_t r) const {
    return fineGray_ ? fineGrayRows_[r].state : rows_[r];
  }
  // A step's chunk sums a slot's run of entries before adding it when its entries average at
  // least this many per slot (stepColumn).
  static constexpr std::int64_t kLongSlotRuns = 16;
  // One slot's share of a step, added to the slot arrays when the slot's run ends.
  struct SlotChange {
    std::int32_t slot = -1;
    double exit = 0.0, tied = 0.0, competing = 0.0;
  };
  template <bool Efron, bool FineGray>
  void flushSlotChange(const SlotChange& c) {
    if (c.slot < 0) return;
    exitRisk_[c.slot] += c.exit;
    if (Efron) tiedRisk_[c.slot] += c.tied;
    if (FineGray) competingRisk_[c.slot] += c.competing;
  }
  std::vector<RowState> rows_;                   // Cox
  std::vector<FineGrayRowState> fineGrayRows_;  // Fine-Gray
  // y == 1 at a slot with tied events (m > 1): the only rows whose u enters Efron's terms B,
  // Q1, Q2 and F (0 elsewhere), so the scan and the step skip the rest (continuous times:
  // nearly all).
  RowFlags tiedEventFlags_;
  std::vector<std::int32_t> tiedSlots_;  // Efron: slots with m > 1, ascending
  std::vector<double> shift_;          // per stratum: riskSetShift (max eta, or nearer the middle of a wide range)
  std::vector<double> slotG_;          // per slot: G(t_e-) (Fine-Gray)
  std::vector<double> exitRisk_;       // D
  std::vector<double> competingRisk_;  // per slot: sum of u/G of competing rows exiting there
  std::vector<double> tiedRisk_;       // per slot: F, u of the events there (Efron)
  std::vector<double> events_;         // d_e
  std::vector<double> eventCount_;     // m_e: events with positive weight
  std::vector<double> den_;
  std::vector<EventSlotTerms> terms_;  // Efron only: the scan reads B, Q1, Q2
  std::vector<double> c1_, c2_;        // cumulative A and Q0 within the stratum
  std::vector<double> cumG_;           // Fine-Gray: cumulative Q0 G
  std::vector<double> tail1_, tail2_;  // Fine-Gray: sum_{e > k} G A and G^2 Q0
  ColumnLinearTerms linearTerm_;       // sum over events of w x_j
  // Counting process: per column, entry positions sorted by (stratum, entry slot descending).
  std::vector<std::vector<std::int32_t>> entryOrder_;
  // The same for a dense direction (gradHessAlong), built on first use; empty if no entry
  // leaves the base slot, which merely repeats the (cheap) build.
  mutable std::vector<std::int32_t> denseEntryOrder_;
  // Fine-Gray: per chunk, room for the competing items of the stratum being scanned.
  mutable std::vector<CompetingItem> scratch_[kMaxChunks];
  std::unique_ptr<WorkerTeam> team_;
  std::int64_t chunkItems_ = kChunkItems;
};

}  // namespace argus
