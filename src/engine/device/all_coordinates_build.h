// The all-coordinates views (all_coordinates_design.h) built on the device from the design's
// device copy (DeviceColumns), so that a GPU fit's setup moves no entry through the host a
// second time (built on the host they took 2-3 s at 5e7 entries, mostly first touches of
// 600 MB of fresh host memory). Deterministic, no atomics:
//   1. one thread per entry finds its column (binary search over the column starts) and writes
//      its row, value and column;
//   2. runs: a flag where a column or a stratum begins, an exclusive scan of the flags gives
//      each run's index, flagged entries write their run's start and stratum;
//   3. the row-major copy: the entries' indices sorted by row (Prims::sortByKey, stable, so
//      columns stay in order within a row), the columns and values gathered through them, and
//      each row's start by a binary search over the sorted rows.
#pragma once

#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>

#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "device/device_columns.h"

namespace argus {
namespace build_device {

// The last index i in [0, n) with starts[i] <= k (starts ascending, starts[0] = 0).
ARGUS_HOST_DEVICE inline std::int64_t segmentOf(const std::int64_t* starts, std::int64_t n, std::int64_t k) {
  std::int64_t lo = 0, hi = n;  // starts[lo] <= k < starts[hi] (starts[n] past the end)
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= k) lo = mid; else hi = mid;
  }
  return lo;
}

// The first index i in [0, n] with sorted[i] >= key.
ARGUS_HOST_DEVICE inline std::int64_t lowerBound(const std::int32_t* sorted, std::int64_t n, std::int64_t key) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

struct FillEntries {
  const std::int64_t* columnStart;
  const ColumnEntries* column;
  std::int64_t columns;
  std::int32_t* row;
  double* value;  // null: no values stored
  std::int32_t* columnOf;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    const std::int64_t j = segmentOf(columnStart, columns, k);
    const std::int64_t local = k - columnStart[j];
    row[k] = static_cast<std::int32_t>(column[j].row(local));
    if (value) value[k] = column[j].value(local);
    columnOf[k] = static_cast<std::int32_t>(j);
  }
};

// 1 where a run begins: a column's first entry, or a change of stratum within a column.
struct RunFlags {
  const std::int64_t* columnStart;
  const std::int32_t* columnOf;
  const std::int32_t* row;
  const std::int32_t* stratum;  // per row; null: one stratum
  std::int64_t* flag;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    const bool first = k == columnStart[columnOf[k]];
    flag[k] = first || (stratum && stratum[row[k]] != stratum[row[k - 1]]) ? 1 : 0;
  }
};

struct WriteRuns {
  const std::int64_t* flag;
  const std::int64_t* index;  // exclusive scan of the flags
  const std::int32_t* row;
  const std::int32_t* stratum;
  std::int64_t* runStart;
  std::int32_t* runStratum;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    if (!flag[k]) return;
    runStart[index[k]] = k;
    runStratum[index[k]] = stratum ? stratum[row[k]] : 0;
  }
};

// columnRunStart[j] = the index of column j's first run (runs past the last entry: `runs`).
struct ColumnRuns {
  const std::int64_t* columnStart;
  const std::int64_t* index;
  std::int64_t entries, runs;
  std::int64_t* columnRunStart;
  std::int64_t* runStart;  // its end, runStart[runs] = entries, written by j = 0
  ARGUS_HOST_DEVICE void operator()(std::int64_t j) const {
    columnRunStart[j] = columnStart[j] < entries ? index[columnStart[j]] : runs;
    if (j == 0) runStart[runs] = entries;
  }
};

struct Iota {
  std::int64_t* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = i; }
};

struct GatherByRow {
  const std::int64_t* order;
  const std::int32_t* columnOf;
  const double* value;  // null: no values
  std::int32_t* rowColumn;
  double* rowValue;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    rowColumn[i] = columnOf[order[i]];
    if (value) rowValue[i] = value[order[i]];
  }
};

struct RowStarts {
  const std::int32_t* sortedRows;
  std::int64_t entries;
  std::int64_t* rowStart;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const { rowStart[r] = lowerBound(sortedRows, entries, r); }
};

struct PlusInt64 {
  ARGUS_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};

}  // namespace build_device
}  // namespace argus
