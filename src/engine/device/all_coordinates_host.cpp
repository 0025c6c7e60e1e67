// The all-coordinates views built on the host (device/all_coordinates_design.h): one pass
// over the columns for the column-major entries and their runs, a counting sort by row for
// the row-major copy (columns in increasing order within a row). O(entries).
#include "device/all_coordinates_host.h"

#include "common/errors.h"
#include "data/column.h"

namespace argus {

namespace {

bool storesValues(const DesignView& design) {
  for (const ColumnView& c : design.columns)
    if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense) return true;
  return false;
}

// Column-major entries, and each column's runs of one stratum (one run per nonempty column
// where there is one stratum).
void columnMajor(const Dataset& data, const std::int32_t* stratum, AllCoordinatesHost* h) {
  const bool values = storesValues(data.design);
  h->columnStart.push_back(0);
  h->columnRunStart.push_back(0);
  for (const ColumnView& c : data.design.columns) {
    std::int32_t current = -1;
    forEachEntry(c, data.nRows(), [&](std::int64_t r, double x) {
      const std::int32_t s = stratum ? stratum[r] : 0;
      if (s != current) {
        h->runStart.push_back(static_cast<std::int64_t>(h->entryRow.size()));
        h->runStratum.push_back(s);
        current = s;
      }
      h->entryRow.push_back(static_cast<std::int32_t>(r));
      if (values) h->entryValue.push_back(x);
    });
    h->columnStart.push_back(static_cast<std::int64_t>(h->entryRow.size()));
    h->columnRunStart.push_back(static_cast<std::int64_t>(h->runStratum.size()));
  }
  h->runStart.push_back(static_cast<std::int64_t>(h->entryRow.size()));
}

// The same entries by row: a counting sort that keeps the column order within each row.
void rowMajor(std::int64_t rows, AllCoordinatesHost* h) {
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

}  // namespace

AllCoordinatesHost buildAllCoordinatesHost(const Dataset& data) {
  AllCoordinatesHost h;
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

}  // namespace argus
