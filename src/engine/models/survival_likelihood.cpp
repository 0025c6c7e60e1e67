#include "models/survival_likelihood.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/errors.h"
#include "common/force_inline.h"
#include "common/prefetch.h"
#include "common/worker_team.h"
#include "data/censoring_survival.h"
#include "models/counting_process_items.h"
#include "models/survival_scan.h"
#include "models/survival_slots.h"

namespace argus {

SurvivalLikelihood::SurvivalLikelihood(const Dataset& data, const double* weights)
    : Likelihood(data, weights),
      stratum_(data.outcomes.stratum),
      index_(buildRiskSetIndex(data)),
      refresh_(index_),
      efron_(data.ties == TieMethod::Efron),
      fineGray_(data.model == ModelType::FineGray),
      tiedEventFlags_(data.nRows()),
      shift_(static_cast<std::size_t>(data.outcomes.nStrata), 0.0),
      linearTerm_(data.design, weightedEvents()) {
  if (fineGray_) {
    fineGrayRows_.assign(static_cast<std::size_t>(nRows()), FineGrayRowState{{0.0, 0.0}, 0.0, 0.0});
  } else {
    rows_.assign(static_cast<std::size_t>(nRows()), RowState{0.0, 0.0});
  }
  const std::size_t slots = static_cast<std::size_t>(index_.nSlots);
  for (auto* v : {&exitRisk_, &competingRisk_, &tiedRisk_, &events_, &eventCount_, &den_, &c1_,
                  &c2_, &cumG_, &tail1_, &tail2_, &slotG_})
    v->assign(slots, 0.0);
  if (efron_) terms_.assign(slots, EventSlotTerms{});
  SurvivalFitConstants constants = survivalFitConstants(data, weights, index_);
  events_ = std::move(constants.events);
  eventCount_ = std::move(constants.eventCount);
  if (fineGray_) {
    slotG_ = std::move(constants.slotG);
    for (std::int64_t r = 0; r < nRows(); ++r) fineGrayRows_[r].inverseG = constants.inverseG[r];
  }
  for (std::int64_t r = 0; r < nRows(); ++r)
    if (isEvent(r) && eventCount_[index_.exitSlot[r]] > 1.0) tiedEventFlags_.set(r);
  if (efron_)
    for (std::int32_t k = 0; k < index_.nSlots; ++k)
      if (eventCount_[k] > 1.0) tiedSlots_.push_back(k);
  if (index_.countingProcess()) buildEntryOrder();
}

namespace {

// Indicator and sparse columns store their rows; dense and intercept columns have one entry
// per row, entry p being row p.
bool storesRows(const ColumnView& c) {
  return c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
}

// Row and value of a column's stored entry p.
std::int64_t entryRow(const ColumnView& c, std::int64_t p) { return storesRows(c) ? c.rows[p] : p; }
double entryValue(const ColumnView& c, std::int64_t p) {
  switch (c.kind) {
    case ColumnKind::Sparse:
    case ColumnKind::Dense:
      return c.values[p];
    default:
      return 1.0;
  }
}

// Stored entries of a column.
std::int64_t itemCount(const ColumnView& c, std::int64_t nRows) {
  return storesRows(c) ? c.nnz : nRows;
}

// Visits a column's entries [begin, end) as f(row, value), prefetching the row records a few
// entries ahead: a column's rows are far apart, so at N = 1e6 each visit would otherwise
// wait on memory.
template <typename Record, typename F>
ARGUS_FORCE_INLINE void forEntriesPrefetched(const ColumnView& c, std::int64_t begin, std::int64_t end,
                                 const Record* records, F&& f) {
  constexpr std::int64_t kAhead = 96;
  switch (c.kind) {
    case ColumnKind::Indicator:
    case ColumnKind::Sparse:
      for (std::int64_t k = begin; k < end; ++k) {
        if (k + kAhead < end) ARGUS_PREFETCH(&records[c.rows[k + kAhead]]);
        f(c.rows[k], c.kind == ColumnKind::Indicator ? 1.0 : c.values[k]);
      }
      break;
    case ColumnKind::Dense:
      for (std::int64_t r = begin; r < end; ++r) f(r, c.values[r]);
      break;
    case ColumnKind::Intercept:
      for (std::int64_t r = begin; r < end; ++r) f(r, 1.0);
      break;
  }
}

}  // namespace

void SurvivalLikelihood::buildEntryOrder() {
  entryOrder_.resize(data_.design.nColumns());
  for (std::size_t j = 0; j < entryOrder_.size(); ++j) entryOrder_[j] = entryOrderOf(column(j));
}

std::vector<std::int32_t> SurvivalLikelihood::entryOrderOf(const ColumnView& c) const {
  return countingEntryOrder(index_, stratum_, itemCount(c, nRows()),
                            [&](std::int64_t p) { return entryRow(c, p); });
}

void SurvivalLikelihood::rebuildFromEta() {
  const OutcomeView& o = data_.outcomes;
  for (std::int32_t s = 0; s < o.nStrata; ++s) {
    double top = -INFINITY, bottom = INFINITY;
    for (std::int64_t r = o.stratumStart[s]; r < o.stratumStart[s + 1]; ++r) {
      top = runningMax(top, eta_[r]);
      bottom = runningMin(bottom, eta_[r]);
    }
    shift_[s] = riskSetShift(top, bottom);
  }
  for (std::int64_t r = 0; r < nRows(); ++r) {
    RowState& row = state(r);
    row.eta = eta_[r];
    row.u = weight(r) * expFromShift(eta_[r], shift_[stratum_[r]]);
  }
  scatterRows();
  refreshSlots();
}

// Recomputed from eta once per cycle: incremental updates of u and D drift.
void SurvivalLikelihood::refreshSums() {
  for (std::int64_t r = 0; r < nRows(); ++r) eta_[r] = state(r).eta;
  rebuildFromEta();
}

std::vector<double> SurvivalLikelihood::weightedEvents() const {
  std::vector<double> c(static_cast<std::size_t>(nRows()), 0.0);
  for (std::int64_t r = 0; r < nRows(); ++r)
    if (isEvent(r)) c[r] = weight(r);
  return c;
}

void SurvivalLikelihood::scatterRows() {
  std::fill(exitRisk_.begin(), exitRisk_.end(), 0.0);
  std::fill(competingRisk_.begin(), competingRisk_.end(), 0.0);
  std::fill(tiedRisk_.begin(), tiedRisk_.end(), 0.0);
  const RowAccess rows{*this};
  const SurvivalSlotState st = slotState();
  const OutcomeView& o = data_.outcomes;
  for (std::int32_t s = 0; s < o.nStrata; ++s)
    scatterStratumRows(st, o.stratumStart[s], o.stratumStart[s + 1], rows, index_.countingProcess(),
                       efron_, fineGray_);
}

void SurvivalLikelihood::refreshSlots() { refresh_.run(slotState(), efron_, fineGray_, team_.get()); }

void SurvivalLikelihood::setThreads(int threads) {
  const int members = std::min(threads, kMaxChunks);
  team_ = members > 1 ? std::make_unique<WorkerTeam>(members) : nullptr;
}

void SurvivalLikelihood::setChunkItems(std::int64_t items) {
  ARGUS_REQUIRE(items >= 1, "chunks need at least one entry");
  chunkItems_ = items;
}

// Splits a column's entries into chunks that end where the exit slot changes, so that no slot
// group is split and each chunk's steps write slots no other chunk writes. How many chunks
// depends on the column's size alone, never on the threads: the results are the same for
// any number of threads. Counting-process data keep one chunk (an entry's slot may belong
// to another chunk's rows).
int SurvivalLikelihood::planChunks(const ColumnView& c, std::int64_t* bounds) const {
  const std::int64_t n = itemCount(c, nRows());
  int chunks = 1;
  if (!index_.countingProcess()) {
    while (chunks < kMaxChunks && n >= 2 * chunks * chunkItems_) chunks *= 2;
  }
  const bool stored = storesRows(c);
  bounds[0] = 0;
  for (int i = 1; i < chunks; ++i) {
    const std::int64_t target = n * i / chunks;
    const std::int64_t row = stored ? c.rows[target - 1] : target - 1;
    // The first row of the next exit run.
    const auto run = std::upper_bound(index_.runStart.begin(), index_.runStart.end() - 1, row);
    const std::int64_t next = *run;
    const std::int64_t at = stored ? std::lower_bound(c.rows + target, c.rows + n, next) - c.rows
                                   : next;
    bounds[i] = std::max(at, bounds[i - 1]);
  }
  bounds[chunks] = n;
  return chunks;
}

template <typename F>
void SurvivalLikelihood::forChunks(int chunks, F&& f) const {
  if (!team_ || chunks == 1) {
    for (int i = 0; i < chunks; ++i) f(i);
    return;
  }
  team_->run(chunks, f);
}

template <bool Efron, bool FineGray>
GradHess SurvivalLikelihood::scanColumn(const ColumnView& c, double linearTerm) const {
  std::int64_t bounds[kMaxChunks + 1];
  const int chunks = planChunks(c, bounds);
  ScanPartial parts[kMaxChunks];
  const bool stored = storesRows(c);
  const RowRecord<FineGray>* rows = records<FineGray>();
  forChunks(chunks, [&](int i) {
    if (bounds[i] == bounds[i + 1]) return;
    scratch_[i].resize(static_cast<std::size_t>(FineGray ? bounds[i + 1] - bounds[i] : 0));
    CoordinateScan<Efron, FineGray> scan(slotSums(), scratch_[i].data());
    ExitSlotCursor slotOf(index_, stored ? c.rows[bounds[i]] : bounds[i], bounds[i + 1] - bounds[i]);
    forEntriesPrefetched(c, bounds[i], bounds[i + 1], rows, [&](std::int64_t r, double x) ARGUS_INLINE_LAMBDA {
      scan.visit(slotOf(r), stateOf(rows[r]).u * x, x, Efron && tiedEventFlags_[r],
                 inverseGOf(rows[r]));
    });
    parts[i] = scan.partial();
  });
  return combineScans(parts, chunks, linearTerm);
}

GradHess SurvivalLikelihood::gradHess(std::size_t j) const {
  const WorkerTeam::Round round(team_.get());
  if (index_.countingProcess()) return scanCountingProcess(column(j), entryOrder_[j], linearTerm_(j));
  return scanView(column(j), linearTerm_(j));
}

GradHess SurvivalLikelihood::scanView(const ColumnView& c, double linearTerm) const {
  if (fineGray_) return scanColumn<false, true>(c, linearTerm);
  return efron_ ? scanColumn<true, false>(c, linearTerm) : scanColumn<false, false>(c, linearTerm);
}

// Counting process (Cox only): exits and entries merged (models/counting_process_items.h).
GradHess SurvivalLikelihood::scanCountingProcess(const ColumnView& c,
                                                 const std::vector<std::int32_t>& entries,
                                                 double linearTerm) const {
  auto run = [&](auto& scan) {
    forCountingProcessItems(
        index_, stratum_, itemCount(c, nRows()), [&](std::int64_t p) { return entryRow(c, p); }, entries,
        [&](std::int64_t p) {
          const std::int64_t r = entryRow(c, p);
          scan.visit(index_.exitSlot[r], state(r).u * entryValue(c, p), entryValue(c, p), isEvent(r), 0.0);
        },
        [&](std::int64_t p) {
          const std::int64_t r = entryRow(c, p);
          scan.visit(index_.entrySlot[r], -state(r).u * entryValue(c, p), entryValue(c, p), false, 0.0);
        });
    const ScanPartial part = scan.partial();
    return combineScans(&part, 1, linearTerm);
  };
  if (efron_) {
    CoordinateScan<true, false> scan(slotSums(), nullptr);
    return run(scan);
  }
  CoordinateScan<false, false> scan(slotSums(), nullptr);
  return run(scan);
}

template <bool Efron, bool FineGray>
void SurvivalLikelihood::stepColumn(const ColumnView& c, double delta) {
  std::int64_t bounds[kMaxChunks + 1];
  const int chunks = planChunks(c, bounds);
  const double unitFactor = std::exp(delta);
  const bool counting = index_.countingProcess();
  const bool stored = storesRows(c);
  forChunks(chunks, [&](int i) {
    if (bounds[i] == bounds[i + 1]) return;
    ExitSlotCursor slotOf(index_, stored ? c.rows[bounds[i]] : bounds[i], bounds[i + 1] - bounds[i]);
    RowRecord<FineGray>* rows = records<FineGray>();
    // Few entries per slot (whole days at N = 1e5: ~4 of a column's entries per slot): each
    // entry's change goes straight to its slot. Summing a slot's run in a register cost a
    // branch at each run's end, mispredicted there (Cox 1e5 x 1000, ~1,400 days, -O2: 41 ->
    // 28 ms per cycle without it). Long runs (N = 1e6: ~50): summed per run, where the
    // branch is predicted and consecutive adds to one slot would wait on each other (1e6:
    // ~420 against ~305 ms per cycle). The choice depends on the chunk alone, never on the
    // threads. (Across strata the span from the first to the last slot understates the
    // slots a chunk covers; only the speed depends on it.)
    const std::int64_t first = stored ? c.rows[bounds[i]] : bounds[i];
    const std::int64_t last = stored ? c.rows[bounds[i + 1] - 1] : bounds[i + 1] - 1;
    const std::int64_t span = std::abs(index_.exitSlot[first] - index_.exitSlot[last]) + 1;
    if (counting || bounds[i + 1] - bounds[i] < kLongSlotRuns * span) {
      forEntriesPrefetched(c, bounds[i], bounds[i + 1], rows, [&](std::int64_t r, double x) ARGUS_INLINE_LAMBDA {
        RowState& row = stateOf(rows[r]);
        const double du = moveRiskEntry(row.eta, row.u, x, delta, unitFactor);
        const std::int32_t slot = slotOf(r);
        exitRisk_[slot] += du;
        if (counting) exitRisk_[index_.entrySlot[r]] -= du;  // it leaves the risk sets it entered
        if (Efron && tiedEventFlags_[r]) tiedRisk_[slot] += du;
        if (FineGray) competingRisk_[slot] += du * inverseGOf(rows[r]);
      });
      return;
    }
    SlotChange pending;
    forEntriesPrefetched(c, bounds[i], bounds[i + 1], rows, [&](std::int64_t r, double x) ARGUS_INLINE_LAMBDA {
      RowState& row = stateOf(rows[r]);
      const double du = moveRiskEntry(row.eta, row.u, x, delta, unitFactor);
      const std::int32_t slot = slotOf(r);
      if (slot != pending.slot) {
        flushSlotChange<Efron, FineGray>(pending);
        pending = SlotChange{slot};
      }
      pending.exit += du;
      if (Efron && tiedEventFlags_[r]) pending.tied += du;
      if (FineGray) pending.competing += du * inverseGOf(rows[r]);
    });
    flushSlotChange<Efron, FineGray>(pending);
  });
  refreshSlots();
}

void SurvivalLikelihood::applyStep(std::size_t j, double delta) {
  const WorkerTeam::Round round(team_.get());
  stepView(column(j), delta);
}

void SurvivalLikelihood::stepView(const ColumnView& c, double delta) {
  if (fineGray_) return stepColumn<false, true>(c, delta);
  return efron_ ? stepColumn<true, false>(c, delta) : stepColumn<false, false>(c, delta);
}

// A direction d (a whole cycle's move of eta, or a block column in the solver's block Newton
// step) is one more "column": dense, O(N). Counting-process data merge its entries, which are
// the same for every dense column, in the order computed once (denseEntryOrder_).
bool SurvivalLikelihood::supportsDirection() const { return true; }


GradHess SurvivalLikelihood::gradHessAlong(const std::vector<double>& d) const {
  const double linear = eventWeightedDot(nRows(), weights_, data_.outcomes.y, d.data());
  if (!index_.countingProcess()) return scanView(denseColumnView(d), linear);
  if (denseEntryOrder_.empty() && nRows() > 0) denseEntryOrder_ = entryOrderOf(denseColumnView(d));
  return scanCountingProcess(denseColumnView(d), denseEntryOrder_, linear);
}

void SurvivalLikelihood::stepAlong(const std::vector<double>& d, double alpha) {
  stepView(denseColumnView(d), alpha);
}

bool SurvivalLikelihood::rowScores(std::vector<double>* score, std::vector<double>* curvature) {
  score->resize(static_cast<std::size_t>(nRows()));
  curvature->resize(static_cast<std::size_t>(nRows()));
  const RowAccess rows{*this};
  const SurvivalSlotState st = slotState();
  for (std::int64_t r = 0; r < nRows(); ++r)
    survivalRowScore(st, r, rows, weight(r), index_.countingProcess(), efron_, fineGray_, &(*score)[r],
                     &(*curvature)[r]);
  return true;
}

double SurvivalLikelihood::logLikelihood() const {
  double sum = 0.0;
  for (std::int64_t r = 0; r < nRows(); ++r)
    if (isEvent(r)) sum += weight(r) * state(r).eta;
  for (std::size_t s = 0; s + 1 < index_.slotStart.size(); ++s)
    for (std::int32_t k = index_.slotStart[s] + 1; k < index_.slotStart[s + 1]; ++k)
      sum -= eventLogTerm(efron_, events_[k], eventCount_[k], den_[k], tiedRisk_[k]) +
             events_[k] * shift_[s];
  return sum;
}

}  // namespace argus
