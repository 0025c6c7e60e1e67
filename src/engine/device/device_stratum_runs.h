// Each column's entries grouped into runs of one stratum, for the conditional models on a
// device (device_conditional_likelihood.h).
//
// Rows are grouped by stratum and a column's entries are in row order, so each stratum the
// column touches is one contiguous run of its entries (conditional_likelihood.h). The runs
// depend only on the data, so they are found once per fit. One device thread per run then
// sums its entries in order, exactly as the CPU's scan does, and the same thread applies a
// step to them and to its stratum's denominator: no two threads write one stratum, so there
// are no atomics and the result does not depend on the schedule. Dense columns and eta
// directions run over every row, whose runs are the strata themselves (allRows()).
#pragma once

#include <thrust/device_vector.h>

#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "data/dataset.h"
#include "device/device_common.h"

namespace argus {

// Runs of one column: run i covers the column's entries [begin[i], begin[i + 1]) in stratum
// stratum[i].
struct RunView {
  const std::int64_t* begin = nullptr;
  const std::int32_t* stratum = nullptr;
  std::int64_t count = 0;
};

class DeviceStratumRuns {
 public:
  DeviceStratumRuns(const DesignView& design, const std::int32_t* stratum) {
    std::vector<std::int64_t> begin;
    std::vector<std::int32_t> runStratum;
    auto addRuns = [&](std::int64_t entries, auto rowOf) {
      offset_.push_back(static_cast<std::int64_t>(begin.size()));
      std::int64_t count = 0;
      for (std::int64_t k = 0; k < entries; ++k) {
        const std::int32_t s = stratum[rowOf(k)];
        if (k == 0 || s != runStratum.back()) {
          begin.push_back(k);
          runStratum.push_back(s);
          ++count;
        }
      }
      begin.push_back(entries);  // the end of the column's last run
      runStratum.push_back(-1);
      count_.push_back(count);
    };
    for (const ColumnView& c : design.columns) {
      if (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse) {
        addRuns(c.nnz, [&](std::int64_t k) { return c.rows[k]; });
      } else {
        addRuns(design.nRows, [](std::int64_t k) { return k; });
      }
    }
    addRuns(design.nRows, [](std::int64_t k) { return k; });  // allRows()
    device::upload(begin_, begin);
    device::upload(stratum_, runStratum);
    for (const std::int64_t c : count_) maxRuns_ = c > maxRuns_ ? c : maxRuns_;
  }

  RunView column(std::int32_t j) const { return view(static_cast<std::size_t>(j)); }
  RunView allRows() const { return view(count_.size() - 1); }
  std::int64_t maxRuns() const { return maxRuns_; }
  double bytes() const {
    return static_cast<double>(begin_.size() * sizeof(std::int64_t) + stratum_.size() * sizeof(std::int32_t));
  }

 private:
  RunView view(std::size_t i) const {
    RunView v;
    v.begin = thrust::raw_pointer_cast(begin_.data()) + offset_[i];
    v.stratum = thrust::raw_pointer_cast(stratum_.data()) + offset_[i];
    v.count = count_[i];
    return v;
  }

  std::vector<std::int64_t> offset_, count_;
  std::int64_t maxRuns_ = 0;
  thrust::device_vector<std::int64_t> begin_;
  thrust::device_vector<std::int32_t> stratum_;
};

}  // namespace argus
