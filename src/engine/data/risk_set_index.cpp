#include "data/risk_set_index.h"

#include <algorithm>
#include <limits>

namespace argus {

RiskSetIndex buildRiskSetIndex(const Dataset& data) {
  const OutcomeView& o = data.outcomes;
  const std::int64_t n = data.nRows();
  RiskSetIndex index;
  index.exitSlot.assign(static_cast<std::size_t>(n), 0);
  if (o.startTime) index.entrySlot.assign(static_cast<std::size_t>(n), 0);
  index.slotStart.push_back(0);

  std::vector<double> eventTimes;  // the current stratum's, ascending
  for (std::int32_t s = 0; s < o.nStrata; ++s) {
    const std::int64_t lo = o.stratumStart[s], hi = o.stratumStart[s + 1];
    const std::int32_t base = index.nSlots;
    index.slotTime.push_back(-std::numeric_limits<double>::infinity());
    eventTimes.clear();
    // Walk the stratum in ascending time, one group of equal times at a time.
    std::int64_t r = hi - 1;
    while (r >= lo) {
      const double t = o.time[r];
      std::int64_t groupEnd = r;  // rows (groupEnd, r] share time t
      bool hasEvent = false;
      while (groupEnd >= lo && o.time[groupEnd] == t) {
        hasEvent = hasEvent || o.y[groupEnd] == 1.0;
        --groupEnd;
      }
      if (hasEvent) {
        eventTimes.push_back(t);
        index.slotTime.push_back(t);
      }
      const std::int32_t slot = base + static_cast<std::int32_t>(eventTimes.size());
      for (std::int64_t k = r; k > groupEnd; --k) index.exitSlot[k] = slot;
      r = groupEnd;
    }
    if (o.startTime) {
      for (std::int64_t k = lo; k < hi; ++k) {
        const auto above = std::upper_bound(eventTimes.begin(), eventTimes.end(), o.startTime[k]);
        index.entrySlot[k] = base + static_cast<std::int32_t>(above - eventTimes.begin());
      }
    }
    index.nSlots = base + 1 + static_cast<std::int32_t>(eventTimes.size());
    index.slotStart.push_back(index.nSlots);
  }
  for (std::int64_t r = 0; r < n; ++r) {
    if (r > 0 && index.exitSlot[r] == index.exitSlot[r - 1]) continue;
    index.runStart.push_back(r);
    index.runSlot.push_back(index.exitSlot[r]);
  }
  index.runStart.push_back(n);
  return index;
}

ExitSlotCursor::ExitSlotCursor(const RiskSetIndex& index, std::int64_t firstRow,
                               std::int64_t entries)
    : exitSlot_(index.exitSlot.data()),
      start_(index.runStart.data()),
      slot_(index.runSlot.data()),
      // Walk when the per-row array (4 bytes a row) would not stay in L2 and there is at
      // most one run per 8 entries.
      walk_(index.exitSlot.size() > (std::size_t{1} << 18) &&
            static_cast<std::int64_t>(index.runSlot.size()) * 8 <= entries) {
  if (!walk_) return;
  // The last run starting at or before firstRow (runs are never empty).
  const auto after = std::upper_bound(index.runStart.begin(), index.runStart.end() - 1, firstRow);
  run_ = static_cast<std::size_t>(after - index.runStart.begin()) - 1;
}

}  // namespace argus
