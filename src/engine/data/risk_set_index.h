// Buckets of the survival risk sets: the slots of MODELS.md §5 ("Cox, by slots").
//
// Within stratum s let t_1 < ... < t_E be the distinct event times (rows with y = 1). The
// stratum owns E + 1 consecutive slots: slot base_s + i stands for "at risk at the first i
// event times" (i = 0: at none), and slot base_s + e (e >= 1) is also where event time t_e
// keeps its sums. A row leaves the risk set at its exit slot b(r) = base_s + #{e : t_e <=
// time_r} and, with counting-process data, enters after its entry slot a(r) = base_s +
// #{e : t_e <= startTime_r}: it is at risk at t_e iff a(r) < base_s + e <= b(r).
//
// The index depends only on y, time, startTime and the strata, never on weights, so the
// cross-validation folds and bootstrap replicates of one data set could share it.
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace argus {

struct RiskSetIndex {
  std::int32_t nSlots = 0;
  std::vector<std::int32_t> slotStart;  // nStrata + 1: stratum s owns [slotStart[s], slotStart[s+1])
  std::vector<double> slotTime;         // event time of each slot (base slots: -infinity)
  std::vector<std::int32_t> exitSlot;   // per row
  std::vector<std::int32_t> entrySlot;  // per row; empty without startTime
  // Exit runs: maximal ranges of consecutive rows sharing an exit slot. Rows are sorted by
  // stratum, then time descending, so exit slots never rise within a stratum and each slot's
  // rows form one run. runStart has one more entry than runSlot: runStart[nRuns] = nRows.
  std::vector<std::int64_t> runStart;
  std::vector<std::int32_t> runSlot;
  bool countingProcess() const { return !entrySlot.empty(); }
  bool isBase(std::int32_t slot, std::int32_t stratum) const {
    return slot == slotStart[stratum];
  }
};

// Rows must be sorted by stratum, then time descending (validateDataset checks it).
RiskSetIndex buildRiskSetIndex(const Dataset& data);

// The exit slot of rows visited in increasing row order (a column's stored entries). Beyond
// 2^18 rows, when the entries far outnumber the exit runs, it walks the runs: a coordinate's
// scan then loads nothing per row but the row's own state, which at N = 1e6 is what the scan
// waits on, and the walk's branch is almost always "same run". Otherwise it reads the per-row
// exitSlot array: at up to 2^18 rows it stays in L2 and costs less than the walk's
// mispredicted branches (Fine-Gray 1e5: 1.3x), and with about a run per entry or more
// (unique times) the walk would be a coin flip per entry.
class ExitSlotCursor {
 public:
  // For `entries` rows visited from `firstRow` on.
  ExitSlotCursor(const RiskSetIndex& index, std::int64_t firstRow, std::int64_t entries);
  std::int32_t operator()(std::int64_t row) {
    if (!walk_) return exitSlot_[row];
    while (row >= start_[run_ + 1]) ++run_;
    return slot_[run_];
  }

 private:
  const std::int32_t* exitSlot_;
  const std::int64_t* start_;
  const std::int32_t* slot_;
  bool walk_;
  std::size_t run_ = 0;
};

}  // namespace argus
