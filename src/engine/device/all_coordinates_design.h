// The design as the all-coordinates steps read it (device/all_coordinates_steps.h): every
// column's entries in one column-major array (dense and intercept columns with their rows
// written out), a row-major copy of the same entries, and each column's entries cut into runs
// of one stratum. Shared by a data set's fits with the rest of its device design
// (device_design.h), built once, on first use.
//
// Why three views. A step of every coordinate reads X twice: X' (per column, one segmented
// reduction over the column-major entries: the bound's gradient of every column at once) and
// X (per row, one thread a row summing its entries: eta's move D = X delta), so neither needs
// atomics and each sum has a grouping fixed by the data. The runs give, per column and
// stratum, the sums of c x that the bound's curvature subtracts (models/separable_bound.h).
//
// Memory: 4 bytes per entry for the rows and 4 for the row-major columns, plus 8 each for
// values unless every column is an indicator or the intercept (values 1 are not stored).
#pragma once

#include <thrust/device_vector.h>

#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "data/dataset.h"
#include "device/all_coordinates_host.h"
#include "device/device_common.h"

namespace argus {

// What device functors read of the three views (raw device pointers).
struct AllCoordinatesView {
  // Column-major: column j's entries [columnStart[j], columnStart[j + 1]).
  const std::int64_t* columnStart = nullptr;
  const std::int32_t* entryRow = nullptr;
  const double* entryValue = nullptr;  // null: every value 1
  // Row-major: row r's entries [rowStart[r], rowStart[r + 1]).
  const std::int64_t* rowStart = nullptr;
  const std::int32_t* rowColumn = nullptr;
  const double* rowValue = nullptr;  // null: every value 1
  // Runs: run i covers the column-major entries [runStart[i], runStart[i + 1]) of one
  // column, all in stratum runStratum[i]; column j's runs are [columnRunStart[j],
  // columnRunStart[j + 1]).
  const std::int64_t* runStart = nullptr;
  const std::int32_t* runStratum = nullptr;
  const std::int64_t* columnRunStart = nullptr;
  // Rows by stratum: stratum s holds rows [stratumRowStart[s], stratumRowStart[s + 1]); rowStratum
  // per row (null: one stratum).
  const std::int64_t* stratumRowStart = nullptr;
  const std::int32_t* rowStratum = nullptr;
  ARGUS_HOST_DEVICE double value(std::int64_t k) const { return entryValue ? entryValue[k] : 1.0; }
  ARGUS_HOST_DEVICE double rowEntryValue(std::int64_t k) const { return rowValue ? rowValue[k] : 1.0; }
  ARGUS_HOST_DEVICE std::int32_t stratumOf(std::int64_t r) const { return rowStratum ? rowStratum[r] : 0; }
};

// The three views built on the host (all_coordinates_host.h), then uploaded.
class AllCoordinatesDesign {
 public:
  explicit AllCoordinatesDesign(const Dataset& data)
      : rows_(data.nRows()), columns_(static_cast<std::int64_t>(data.design.nColumns())),
        strata_(data.outcomes.stratum && data.outcomes.nStrata > 1 ? data.outcomes.nStrata : 1) {
    const AllCoordinatesHost host = buildAllCoordinatesHost(data);
    device::upload(columnStart_, host.columnStart);
    device::upload(entryRow_, host.entryRow);
    device::upload(entryValue_, host.entryValue);
    device::upload(rowStart_, host.rowStart);
    device::upload(rowColumn_, host.rowColumn);
    device::upload(rowValue_, host.rowValue);
    device::upload(runStart_, host.runStart);
    device::upload(runStratum_, host.runStratum);
    device::upload(columnRunStart_, host.columnRunStart);
    device::upload(stratumRowStart_, host.stratumRowStart);
    if (strata_ > 1) rowStratum_.assign(data.outcomes.stratum, data.outcomes.stratum + rows_);
    entries_ = static_cast<std::int64_t>(host.entryRow.size());
    for (std::size_t j = 0; j < data.design.nColumns(); ++j)
      if (data.design.columns[j].kind == ColumnKind::Intercept) intercept_ = static_cast<std::int32_t>(j);
    runs_ = static_cast<std::int64_t>(host.runStratum.size());
  }

  AllCoordinatesView view() const {
    AllCoordinatesView v;
    v.columnStart = device::raw(columnStart_);
    v.entryRow = device::raw(entryRow_);
    v.entryValue = entryValue_.empty() ? nullptr : device::raw(entryValue_);
    v.rowStart = device::raw(rowStart_);
    v.rowColumn = device::raw(rowColumn_);
    v.rowValue = rowValue_.empty() ? nullptr : device::raw(rowValue_);
    v.runStart = device::raw(runStart_);
    v.runStratum = device::raw(runStratum_);
    v.columnRunStart = device::raw(columnRunStart_);
    v.stratumRowStart = device::raw(stratumRowStart_);
    v.rowStratum = rowStratum_.empty() ? nullptr : device::raw(rowStratum_);
    return v;
  }
  std::int64_t rows() const { return rows_; }
  std::int64_t columns() const { return columns_; }
  std::int64_t entries() const { return entries_; }
  std::int64_t runs() const { return runs_; }
  std::int32_t strata() const { return strata_; }
  std::int32_t intercept() const { return intercept_; }  // the intercept column, -1 for none
  double bytes() const {
    return device::bytesOf(columnStart_, entryRow_, entryValue_, rowStart_, rowColumn_, rowValue_, runStart_,
                           runStratum_, columnRunStart_, stratumRowStart_, rowStratum_);
  }

 private:
  std::int64_t rows_, columns_, entries_ = 0, runs_ = 0;
  std::int32_t strata_, intercept_ = -1;
  thrust::device_vector<std::int64_t> columnStart_, rowStart_, runStart_, columnRunStart_, stratumRowStart_;
  thrust::device_vector<std::int32_t> entryRow_, rowColumn_, runStratum_, rowStratum_;
  thrust::device_vector<double> entryValue_, rowValue_;
};

}  // namespace argus
