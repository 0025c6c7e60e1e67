// The all-coordinates views built on the host, one entry at a time: the device suite's oracle
// for their build on the device (device/all_coordinates_build.h). A column-major pass with
// runs cut where the stratum changes, then a counting sort by row.
#pragma once

#include <cstdint>
#include <vector>

#include "common/errors.h"
#include "data/column.h"
#include "data/dataset.h"
#include "device/all_coordinates_views.h"

namespace argus {
namespace oracle {

inline bool storesValues(const DesignView& design) {
  for (const ColumnView& c : design.columns)
    if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense) return true;
  return false;
}

// Column-major entries, and each column's runs of one stratum (one run per nonempty column
// where there is one stratum).
inline void columnMajor(const Dataset& data, const std::int32_t* stratum, AllCoordinatesHostViews* h) {
  const bool values = storesValues(data.design);
  std::int64_t entries = 0;
  for (const ColumnView& c : data.design.columns) entries += entryPositions(c, data.nRows());
  h->entryRow.resize(static_cast<std::size_t>(entries));
  if (values) h->entryValue.resize(static_cast<std::size_t>(entries));
  h->columnStart.reserve(data.design.nColumns() + 1);
  h->columnRunStart.reserve(data.design.nColumns() + 1);
  h->columnStart.push_back(0);
  h->columnRunStart.push_back(0);
  std::int32_t* row = h->entryRow.data();
  double* value = values ? h->entryValue.data() : nullptr;
  std::int64_t k = 0;
  for (const ColumnView& c : data.design.columns) {
    std::int32_t current = -1;
    forEachEntry(c, data.nRows(), [&](std::int64_t r, double x) {
      if (stratum) {
        const std::int32_t s = stratum[r];
        if (s != current) {
          h->runStart.push_back(k);
          h->runStratum.push_back(s);
          current = s;
        }
      }
      row[k] = static_cast<std::int32_t>(r);
      if (value) value[k] = x;
      ++k;
    });
    if (!stratum && k > h->columnStart.back()) {  // one stratum: the column is its one run
      h->runStart.push_back(h->columnStart.back());
      h->runStratum.push_back(0);
    }
    h->columnStart.push_back(k);
    h->columnRunStart.push_back(static_cast<std::int64_t>(h->runStratum.size()));
  }
  h->runStart.push_back(k);
}

// The same entries by row: a counting sort that keeps the column order within each row.
inline void rowMajor(std::int64_t rows, AllCoordinatesHostViews* h) {
  h->rowStart.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (const std::int32_t r : h->entryRow) ++h->rowStart[static_cast<std::size_t>(r) + 1];
  for (std::int64_t r = 0; r < rows; ++r) h->rowStart[r + 1] += h->rowStart[r];
  std::vector<std::int64_t> next(h->rowStart.begin(), h->rowStart.end() - 1);
  h->rowColumn.resize(h->entryRow.size());
  if (!h->entryValue.empty()) h->rowValue.resize(h->entryValue.size());
  const std::int64_t columns = static_cast<std::int64_t>(h->columnStart.size()) - 1;
  for (std::int64_t j = 0; j < columns; ++j)
    for (std::int64_t k = h->columnStart[j]; k < h->columnStart[j + 1]; ++k) {
      const std::int64_t at = next[h->entryRow[k]]++;
      h->rowColumn[at] = static_cast<std::int32_t>(j);
      if (!h->entryValue.empty()) h->rowValue[at] = h->entryValue[k];
    }
}

inline AllCoordinatesHostViews buildAllCoordinates(const Dataset& data) {
  AllCoordinatesHostViews h;
  const bool strata = data.outcomes.stratum && data.outcomes.nStrata > 1;
  ARGUS_REQUIRE(!strata || data.outcomes.stratumStart, "strata without their row offsets");
  columnMajor(data, strata ? data.outcomes.stratum : nullptr, &h);
  rowMajor(data.nRows(), &h);
  if (strata) {
    h.stratumRowStart.assign(data.outcomes.stratumStart, data.outcomes.stratumStart + data.outcomes.nStrata + 1);
  } else {
    h.stratumRowStart = {0, data.nRows()};
  }
  return h;
}

}  // namespace oracle
}  // namespace argus
