// The design as the all-coordinates steps read it (device/all_coordinates_steps.h): every
// column's entries in one column-major array (dense and intercept columns with their rows
// written out), a row-major copy of the same entries, and each column's entries cut into runs
// of one stratum. Shared by a data set's fits with the rest of its device design
// (device_design.h), built once on the device, on first use (all_coordinates_build.h).
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
#include "device/all_coordinates_build.h"
#include "device/all_coordinates_views.h"
#include "device/device_columns.h"
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

// Sums of `terms` (one per row, n rows) over each stratum's rows into out[s]: one reduction
// where there is one stratum, a segmented one over the view's stratum row ranges otherwise.
template <typename Prims, typename It, typename T, typename Op>
void reducePerStratum(const Prims& prims, const AllCoordinatesView& view, std::int64_t n,
                      std::int32_t strata, It terms, T init, Op op, T* out) {
  if (strata == 1)
    prims.reduceTo(terms, n, init, op, out);
  else
    prims.segmentedReduceTo(terms, view.stratumRowStart, strata, init, op, out);
}

// The three views, built on the device from the design's device copy (all_coordinates_build.h).
class AllCoordinatesDesign {
 public:
  template <typename Prims>
  AllCoordinatesDesign(const Dataset& data, const DeviceColumns& design, const Prims& prims)
      : rows_(data.nRows()), columns_(static_cast<std::int64_t>(data.design.nColumns())),
        strata_(data.outcomes.stratum && data.outcomes.nStrata > 1 ? data.outcomes.nStrata : 1) {
    using namespace build_device;
    bool values = false;
    std::vector<std::int64_t> start(1, 0);
    std::vector<ColumnEntries> table;
    for (std::int64_t j = 0; j < columns_; ++j) {
      const ColumnKind kind = design.kind(static_cast<std::int32_t>(j));
      values = values || kind == ColumnKind::Sparse || kind == ColumnKind::Dense;
      if (kind == ColumnKind::Intercept) intercept_ = static_cast<std::int32_t>(j);
      start.push_back(start.back() + design.count(static_cast<std::int32_t>(j)));
      table.push_back(design.entries(static_cast<std::int32_t>(j)));
    }
    entries_ = start.back();
    device::upload(columnStart_, start);
    std::vector<std::int64_t> strataStart = {0, rows_};
    if (strata_ > 1) {
      strataStart.assign(data.outcomes.stratumStart, data.outcomes.stratumStart + strata_ + 1);
      rowStratum_.assign(data.outcomes.stratum, data.outcomes.stratum + rows_);
    }
    device::upload(stratumRowStart_, strataStart);
    thrust::device_vector<ColumnEntries> columnTable(table.begin(), table.end());
    thrust::device_vector<std::int32_t> columnOf(static_cast<std::size_t>(entries_));
    entryRow_.resize(static_cast<std::size_t>(entries_));
    if (values) entryValue_.resize(static_cast<std::size_t>(entries_));
    prims.forEach(entries_, FillEntries{device::raw(columnStart_), device::raw(columnTable), columns_,
                                        device::raw(entryRow_), values ? device::raw(entryValue_) : nullptr,
                                        device::raw(columnOf)});
    buildRuns(prims, columnOf);
    buildRows(prims, columnOf);
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
  // Every view copied to the host (the device suite's check of the build).
  AllCoordinatesHostViews copyToHost() const {
    AllCoordinatesHostViews h;
    auto copy = [](const auto& from, auto* to) {
      to->resize(from.size());
      thrust::copy(from.begin(), from.end(), to->begin());
    };
    copy(columnStart_, &h.columnStart);
    copy(rowStart_, &h.rowStart);
    copy(runStart_, &h.runStart);
    copy(columnRunStart_, &h.columnRunStart);
    copy(stratumRowStart_, &h.stratumRowStart);
    copy(entryRow_, &h.entryRow);
    copy(rowColumn_, &h.rowColumn);
    copy(runStratum_, &h.runStratum);
    copy(entryValue_, &h.entryValue);
    copy(rowValue_, &h.rowValue);
    return h;
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
  // Runs of one stratum within each column: flags, their exclusive scan, the flagged starts.
  template <typename Prims>
  void buildRuns(const Prims& prims, const thrust::device_vector<std::int32_t>& columnOf) {
    using namespace build_device;
    const std::int32_t* stratum = rowStratum_.empty() ? nullptr : device::raw(rowStratum_);
    thrust::device_vector<std::int64_t> flag(static_cast<std::size_t>(entries_)), index(flag.size());
    prims.forEach(entries_, RunFlags{device::raw(columnStart_), device::raw(columnOf), device::raw(entryRow_), stratum,
                                     device::raw(flag)});
    prims.template scanByKeyIf<false, true>(nullptr, thrust::make_constant_iterator<std::int32_t>(0), device::raw(flag),
                                            entries_, PlusInt64{}, device::raw(index));
    runs_ = entries_ > 0 ? device::readBack(device::raw(index) + entries_ - 1) +
                               device::readBack(device::raw(flag) + entries_ - 1)
                         : 0;
    runStart_.resize(static_cast<std::size_t>(runs_ + 1));
    runStratum_.resize(static_cast<std::size_t>(runs_));
    columnRunStart_.resize(static_cast<std::size_t>(columns_ + 1));
    prims.forEach(entries_, WriteRuns{device::raw(flag), device::raw(index), device::raw(entryRow_), stratum,
                                      device::raw(runStart_), device::raw(runStratum_)});
    prims.forEach(columns_ + 1, ColumnRuns{device::raw(columnStart_), device::raw(index), entries_, runs_,
                                           device::raw(columnRunStart_), device::raw(runStart_)});
  }

  // The row-major copy: the entries' indices sorted by row, columns and values gathered.
  template <typename Prims>
  void buildRows(const Prims& prims, const thrust::device_vector<std::int32_t>& columnOf) {
    using namespace build_device;
    thrust::device_vector<std::int64_t> order(static_cast<std::size_t>(entries_)), sortedOrder(order.size());
    thrust::device_vector<std::int32_t> sortedRows(order.size());
    prims.forEach(entries_, Iota{device::raw(order)});
    prims.sortByKey(device::raw(entryRow_), device::raw(order), entries_, device::raw(sortedRows), device::raw(sortedOrder));
    rowColumn_.resize(order.size());
    if (!entryValue_.empty()) rowValue_.resize(order.size());
    prims.forEach(entries_, GatherByRow{device::raw(sortedOrder), device::raw(columnOf),
                                        entryValue_.empty() ? nullptr : device::raw(entryValue_), device::raw(rowColumn_),
                                        rowValue_.empty() ? nullptr : device::raw(rowValue_)});
    rowStart_.resize(static_cast<std::size_t>(rows_ + 1));
    prims.forEach(rows_ + 1, RowStarts{device::raw(sortedRows), entries_, device::raw(rowStart_)});
  }

  std::int64_t rows_, columns_, entries_ = 0, runs_ = 0;
  std::int32_t strata_, intercept_ = -1;
  thrust::device_vector<std::int64_t> columnStart_, rowStart_, runStart_, columnRunStart_, stratumRowStart_;
  thrust::device_vector<std::int32_t> entryRow_, rowColumn_, runStratum_, rowStratum_;
  thrust::device_vector<double> entryValue_, rowValue_;
};

}  // namespace argus
