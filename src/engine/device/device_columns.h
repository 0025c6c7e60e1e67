// The design's columns in device memory, and the view of one column's entries that device
// functors read (ColumnEntries: k -> row, value).
//
// All columns' row indices and values are concatenated into two device arrays; the offsets
// and kinds stay on the host as well, since the host enqueues each coordinate's work and
// knows its size without asking the device.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "data/column.h"
#include "device/device_common.h"

namespace argus {

// Entry k of a column: row rows[k] (row k where rows is null: dense and intercept columns)
// with value values[k] (1 where values is null: indicator and intercept columns).
struct ColumnEntries {
  const std::int32_t* rows = nullptr;
  const double* values = nullptr;
  ARGUS_HOST_DEVICE std::int64_t row(std::int64_t k) const { return rows ? rows[k] : k; }
  ARGUS_HOST_DEVICE double value(std::int64_t k) const { return values ? values[k] : 1.0; }
};

class DeviceColumns {
 public:
  // Each column's rows and values copied from where the data hold them straight to their place
  // in the device arrays (a host-side concatenation first cost 1 s of a Cox 1e6 x 1000 setup,
  // mostly first touches of its growing vectors).
  explicit DeviceColumns(const DesignView& design) : nRows_(design.nRows) {
    std::int64_t rows = 0, values = 0;
    for (const ColumnView& c : design.columns) {
      kind_.push_back(c.kind);
      rowStart_.push_back(rows);
      valueStart_.push_back(values);
      const bool hasRows = c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
      if (hasRows) rows += c.nnz;
      if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense) values += c.nnz;
      count_.push_back(hasRows ? c.nnz : nRows_);
    }
    rows_.resize(static_cast<std::size_t>(rows));
    values_.resize(static_cast<std::size_t>(values));
    for (std::size_t j = 0; j < design.columns.size(); ++j) {
      const ColumnView& c = design.columns[j];
      if (c.nnz <= 0) continue;
      if (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse)
        thrust::copy(c.rows, c.rows + c.nnz, rows_.begin() + rowStart_[j]);
      if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense)
        thrust::copy(c.values, c.values + c.nnz, values_.begin() + valueStart_[j]);
    }
  }

  ColumnKind kind(std::int32_t j) const { return kind_[j]; }
  // Entries of column j (rows for dense and intercept columns).
  std::int64_t count(std::int32_t j) const { return count_[j]; }
  ColumnEntries entries(std::int32_t j) const {
    ColumnEntries e;
    const ColumnKind k = kind_[j];
    if (k == ColumnKind::Indicator || k == ColumnKind::Sparse)
      e.rows = thrust::raw_pointer_cast(rows_.data()) + rowStart_[j];
    if (k == ColumnKind::Sparse || k == ColumnKind::Dense)
      e.values = thrust::raw_pointer_cast(values_.data()) + valueStart_[j];
    return e;
  }
  double bytes() const {
    return static_cast<double>(rows_.size() * sizeof(std::int32_t) + values_.size() * sizeof(double));
  }
  // Every row with value 1 (the intercept's entries).
  static ColumnEntries all() { return ColumnEntries{}; }

 private:
  std::int64_t nRows_;
  std::vector<ColumnKind> kind_;
  std::vector<std::int64_t> rowStart_, valueStart_, count_;
  thrust::device_vector<std::int32_t> rows_;
  thrust::device_vector<double> values_;
};

}  // namespace argus
