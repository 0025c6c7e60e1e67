// The order in which a coordinate's scan visits a column's items with counting-process data
// (Cox on (start, stop] rows): its entries' exits, in row order, merged with their entries
// (a row joins the risk sets above its entry slot a(r), so its entry is an item at a(r) with
// minus its u x). The scan needs items by stratum, then slot descending (survival_scan.h), so
// a column's entries are sorted once per fit by (stratum, entry slot descending) and merged
// with the exits during the scan: an entry goes before the first exit of its stratum whose
// slot lies below its own. Entries at their stratum's base slot change no risk set and are
// left out. The CPU likelihood merges on the fly; a device lists the merged items once per
// fit (device_survival_likelihood.h). One merge for both.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "data/risk_set_index.h"

namespace argus {

// A column's entries p in [0, n) with row rowOf(p) that leave the base slot, sorted by the
// row's stratum, then entry slot descending (stable: ties keep entry order).
template <typename RowOf>
std::vector<std::int32_t> countingEntryOrder(const RiskSetIndex& index, const std::int32_t* stratum,
                                             std::int64_t n, RowOf rowOf) {
  std::vector<std::int32_t> order;
  for (std::int64_t p = 0; p < n; ++p) {
    const std::int64_t r = rowOf(p);
    if (!index.isBase(index.entrySlot[r], stratum[r])) order.push_back(static_cast<std::int32_t>(p));
  }
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    const std::int64_t ra = rowOf(a), rb = rowOf(b);
    if (stratum[ra] != stratum[rb]) return stratum[ra] < stratum[rb];
    return index.entrySlot[ra] > index.entrySlot[rb];
  });
  return order;
}

// Visits the column's items in scan order: exit(p) for each entry p in [0, n), entry(p) for
// each p of `order` (countingEntryOrder), merged.
template <typename RowOf, typename Exit, typename Entry>
void forCountingProcessItems(const RiskSetIndex& index, const std::int32_t* stratum, std::int64_t n,
                             RowOf rowOf, const std::vector<std::int32_t>& order, Exit&& exit,
                             Entry&& entry) {
  std::size_t e = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    const std::int64_t r = rowOf(p);
    const std::int32_t slot = index.exitSlot[r];
    for (; e < order.size(); ++e) {
      const std::int64_t q = rowOf(order[e]);
      const bool before = stratum[q] < stratum[r] || (stratum[q] == stratum[r] && index.entrySlot[q] > slot);
      if (!before) break;
      entry(static_cast<std::int64_t>(order[e]));
    }
    exit(p);
  }
  for (; e < order.size(); ++e) entry(static_cast<std::int64_t>(order[e]));
}

}  // namespace argus
