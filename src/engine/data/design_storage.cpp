#include "data/design_storage.h"

#include <string>

#include "common/errors.h"

namespace argus {

DesignView makeDesignView(std::int64_t nRows, std::size_t nColumns, const int* kinds,
                          const double* rowStart, const double* valueStart,
                          const std::int32_t* rows, const double* values) {
  DesignView view;
  view.nRows = nRows;
  view.columns.resize(nColumns);
  for (std::size_t j = 0; j < nColumns; ++j) {
    ColumnView& c = view.columns[j];
    ARGUS_REQUIRE(kinds[j] >= 0 && kinds[j] <= 3, "unknown column kind " + std::to_string(kinds[j]));
    c.kind = static_cast<ColumnKind>(kinds[j]);
    const auto r0 = static_cast<std::int64_t>(rowStart[j]);
    const auto v0 = static_cast<std::int64_t>(valueStart[j]);
    switch (c.kind) {
      case ColumnKind::Indicator:
        c.nnz = static_cast<std::int64_t>(rowStart[j + 1]) - r0;
        c.rows = rows + r0;
        break;
      case ColumnKind::Sparse:
        c.nnz = static_cast<std::int64_t>(rowStart[j + 1]) - r0;
        c.rows = rows + r0;
        c.values = values + v0;
        ARGUS_REQUIRE(static_cast<std::int64_t>(valueStart[j + 1]) - v0 == c.nnz,
                "sparse column " + std::to_string(j) + " has mismatched rows and values");
        break;
      case ColumnKind::Dense:
        c.nnz = nRows;
        c.values = values + v0;
        ARGUS_REQUIRE(static_cast<std::int64_t>(valueStart[j + 1]) - v0 == nRows,
                "dense column " + std::to_string(j) + " does not have one value per row");
        break;
      case ColumnKind::Intercept:
        c.nnz = nRows;
        break;
    }
  }
  return view;
}

DesignView DesignStorage::view() const {
  std::vector<double> rs(rowStart.begin(), rowStart.end());
  std::vector<double> vs(valueStart.begin(), valueStart.end());
  return makeDesignView(nRows, kinds.size(), kinds.data(), rs.data(), vs.data(), rows.data(),
                        values.data());
}

namespace {

// Stable counting sort of entry indices by key; returns the permuted indices.
std::vector<std::int64_t> countingSort(const std::vector<std::int64_t>& entries,
                                       const std::int32_t* key, std::int64_t nKeys,
                                       std::vector<std::int64_t>* bucketStart) {
  std::vector<std::int64_t> start(nKeys + 1, 0);
  for (std::int64_t e : entries) ++start[key[e] + 1];
  for (std::int64_t k = 0; k < nKeys; ++k) start[k + 1] += start[k];
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  std::vector<std::int64_t> sorted(entries.size());
  for (std::int64_t e : entries) sorted[next[key[e]]++] = e;
  if (bucketStart) *bucketStart = std::move(start);
  return sorted;
}

}  // namespace

BuiltDesign buildDesign(const TripletInput& in) {
  ARGUS_REQUIRE(in.nRows > 0, "the data have no rows");
  ARGUS_REQUIRE(in.nRows <= INT32_MAX, "more than 2^31 - 1 rows are not supported");
  BuiltDesign out;

  // Keep the entries that carry information, checking indices as we go.
  std::vector<std::int64_t> kept;
  kept.reserve(static_cast<std::size_t>(in.nEntries));
  for (std::int64_t e = 0; e < in.nEntries; ++e) {
    const std::int32_t r = in.row[e];
    const std::int32_t c = in.column[e];
    ARGUS_REQUIRE(c >= 0 && c < in.nColumns, "covariate entry " + std::to_string(e + 1) +
                                           " refers to a column that does not exist");
    if (r < 0) { ++out.skippedEntries; continue; }
    ARGUS_REQUIRE(r < in.nRows, "covariate entry " + std::to_string(e + 1) +
                              " refers to a row that does not exist");
    if (in.value && in.value[e] == 0.0) { ++out.zeroEntries; continue; }
    kept.push_back(e);
  }

  // Sort by row, then stably by column: each column's rows come out increasing. OHDSI
  // tables usually arrive sorted by row already, and then the first sort is skipped.
  bool sortedByRow = true;
  for (std::size_t k = 1; k < kept.size() && sortedByRow; ++k)
    sortedByRow = in.row[kept[k - 1]] <= in.row[kept[k]];
  if (!sortedByRow) kept = countingSort(kept, in.row, in.nRows, nullptr);
  std::vector<std::int64_t> colStart;
  std::vector<std::int64_t> byColumn = countingSort(kept, in.column, in.nColumns, &colStart);
  kept = std::vector<std::int64_t>();  // release before the storage grows

  DesignStorage& s = out.storage;
  s.nRows = in.nRows;
  s.rows.reserve(byColumn.size());
  if (in.addIntercept) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Intercept));
    s.rowStart.push_back(0);
    s.valueStart.push_back(0);
  }
  for (std::int32_t j = 0; j < in.nColumns; ++j) {
    const std::int64_t b = colStart[j], e = colStart[j + 1];
    bool allOnes = true;
    for (std::int64_t k = b; k < e; ++k) {
      const std::int64_t entry = byColumn[k];
      if (k > b && in.row[entry] == in.row[byColumn[k - 1]] && out.firstDuplicate < 0)
        out.firstDuplicate = entry;
      if (in.value && in.value[entry] != 1.0) allOnes = false;
    }
    const std::int64_t nnz = e - b;
    ColumnKind kind = ColumnKind::Sparse;
    if (static_cast<double>(nnz) > in.denseFraction * static_cast<double>(in.nRows)) {
      kind = ColumnKind::Dense;
      const std::size_t v0 = s.values.size();
      s.values.resize(v0 + static_cast<std::size_t>(in.nRows), 0.0);
      for (std::int64_t k = b; k < e; ++k) {
        const std::int64_t entry = byColumn[k];
        s.values[v0 + in.row[entry]] = in.value ? in.value[entry] : 1.0;
      }
    } else {
      kind = allOnes ? ColumnKind::Indicator : ColumnKind::Sparse;
      for (std::int64_t k = b; k < e; ++k) {
        const std::int64_t entry = byColumn[k];
        s.rows.push_back(in.row[entry]);
        if (kind == ColumnKind::Sparse) s.values.push_back(in.value[entry]);
      }
    }
    s.kinds.push_back(static_cast<int>(kind));
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(static_cast<std::int64_t>(s.values.size()));
  }
  return out;
}

}  // namespace argus
