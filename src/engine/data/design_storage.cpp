#include "data/design_storage.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/errors.h"

namespace argus {

namespace {
// An offset into an array of `length` elements, given as a double (R's storage): a whole
// number in [0, length], else the design is corrupt (an edited R object's offsets were read
// as they came, past the end of the arrays).
std::int64_t checkedOffset(double x, std::size_t length, std::size_t column) {
  ARGUS_REQUIRE(x >= 0.0 && x <= static_cast<double>(length) && x == std::floor(x),
                "corrupt design: column " + std::to_string(column + 1) + " has an offset outside its arrays");
  return static_cast<std::int64_t>(x);
}
}  // namespace

DesignView makeDesignView(std::int64_t nRows, std::size_t nColumns, const int* kinds,
                          const double* rowStart, const double* valueStart,
                          const std::int32_t* rows, std::size_t storedRows,
                          const double* values, std::size_t storedValues) {
  ARGUS_REQUIRE(nRows >= 0, "corrupt design: a negative number of rows");
  DesignView view;
  view.nRows = nRows;
  view.columns.resize(nColumns);
  for (std::size_t j = 0; j < nColumns; ++j) {
    ColumnView& c = view.columns[j];
    ARGUS_REQUIRE(kinds[j] >= 0 && kinds[j] <= 3, "unknown column kind " + std::to_string(kinds[j]));
    c.kind = static_cast<ColumnKind>(kinds[j]);
    const std::int64_t r0 = checkedOffset(rowStart[j], storedRows, j);
    const std::int64_t r1 = checkedOffset(rowStart[j + 1], storedRows, j);
    const std::int64_t v0 = checkedOffset(valueStart[j], storedValues, j);
    const std::int64_t v1 = checkedOffset(valueStart[j + 1], storedValues, j);
    ARGUS_REQUIRE(r0 <= r1 && v0 <= v1,
                  "corrupt design: the offsets of column " + std::to_string(j + 1) + " do not rise");
    switch (c.kind) {
      case ColumnKind::Indicator:
        c.nnz = r1 - r0;
        c.rows = rows + r0;
        break;
      case ColumnKind::Sparse:
        c.nnz = r1 - r0;
        c.rows = rows + r0;
        c.values = values + v0;
        ARGUS_REQUIRE(v1 - v0 == c.nnz,
                "sparse column " + std::to_string(j) + " has mismatched rows and values");
        break;
      case ColumnKind::Dense:
        c.nnz = nRows;
        c.values = values + v0;
        ARGUS_REQUIRE(v1 - v0 == nRows,
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
                        rows.size(), values.data(), values.size());
}

namespace {

// Stable counting sort of entry indices by key; returns the permuted indices.
template <typename Index>
std::vector<Index> countingSort(const std::vector<Index>& entries, const std::int32_t* key,
                                std::int64_t nKeys, std::vector<std::int64_t>* bucketStart) {
  std::vector<std::int64_t> start(nKeys + 1, 0);
  for (Index e : entries) ++start[key[e] + 1];
  for (std::int64_t k = 0; k < nKeys; ++k) start[k + 1] += start[k];
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  std::vector<Index> sorted(entries.size());
  for (Index e : entries) sorted[next[key[e]]++] = e;
  if (bucketStart) *bucketStart = std::move(start);
  return sorted;
}

void appendIntercept(DesignStorage& s) {
  s.kinds.push_back(static_cast<int>(ColumnKind::Intercept));
  s.rowStart.push_back(s.rowStart.back());
  s.valueStart.push_back(static_cast<std::int64_t>(s.values.size()));
}

// A column's kept entries in row order, seen through one of two views: gathered records
// (entries in any input order, streamed batches) or a run of the input itself (entries
// already stored as given, rowsAreInput: nothing is gathered or copied).
struct GatheredEntries {
  const std::vector<DesignEntry>& entries;
  std::size_t size() const { return entries.size(); }
  std::int32_t row(std::size_t k) const { return entries[k].row; }
  double value(std::size_t k) const { return entries[k].value; }
  std::int64_t index(std::size_t k) const { return entries[k].index; }
};
struct InputRun {
  const TripletInput& in;
  std::int64_t begin, end;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
  std::int32_t row(std::size_t k) const { return in.row[begin + static_cast<std::int64_t>(k)]; }
  double value(std::size_t k) const { return in.value ? in.value[begin + static_cast<std::int64_t>(k)] : 1.0; }
  std::int64_t index(std::size_t k) const { return begin + static_cast<std::int64_t>(k); }
};

// Appends column `j` from its kept entries sorted by row: dense above `denseFraction` of the
// rows, else indicator when every value is 1, else sparse. Records the first entry that
// repeats its predecessor's row.
template <typename Entries>
void storeColumn(const Entries& entries, std::int32_t j, bool hasValues, double denseFraction,
                 BuiltDesign* out) {
  DesignStorage& s = out->storage;
  const std::size_t n = entries.size();
  bool allOnes = true;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && entries.row(k) == entries.row(k - 1) && out->firstDuplicate < 0) {
      out->firstDuplicate = entries.index(k);
      out->duplicateRow = entries.row(k);
      out->duplicateColumn = j;
    }
    if (hasValues && entries.value(k) != 1.0) allOnes = false;
  }
  ColumnKind kind = ColumnKind::Sparse;
  if (static_cast<double>(n) > denseFraction * static_cast<double>(s.nRows)) {
    kind = ColumnKind::Dense;
    const std::size_t v0 = s.values.size();
    s.values.resize(v0 + static_cast<std::size_t>(s.nRows), 0.0);
    for (std::size_t k = 0; k < n; ++k) s.values[v0 + entries.row(k)] = entries.value(k);
  } else {
    kind = allOnes ? ColumnKind::Indicator : ColumnKind::Sparse;
    if (!out->rowsAreInput) {
      std::int32_t* rows = out->rowsOut;
      if (rows == nullptr) {
        s.rows.resize(s.rows.size() + n);
        rows = s.rows.data();
      }
      rows += s.rowStart.back();
      for (std::size_t k = 0; k < n; ++k) *rows++ = entries.row(k);
    }
    if (kind == ColumnKind::Sparse)
      for (std::size_t k = 0; k < n; ++k) s.values.push_back(entries.value(k));
  }
  s.kinds.push_back(static_cast<int>(kind));
  s.rowStart.push_back(s.rowStart.back() +
                       (kind == ColumnKind::Dense ? 0 : static_cast<std::int64_t>(n)));
  s.valueStart.push_back(static_cast<std::int64_t>(s.values.size()));
}

}  // namespace

namespace {

// Internal row of entry e, or -1 when its row was dropped upstream; indices checked.
std::int32_t internalRow(const TripletInput& in, std::int64_t e) {
  std::int32_t r = in.row[e];
  if (in.internalOfUser || in.userRows) {
    ARGUS_REQUIRE(r >= 0 && r < in.nUserRows, "covariate entry " + std::to_string(e + 1) +
                                                  " refers to a row that does not exist");
    if (in.internalOfUser) r = in.internalOfUser[r];
  }
  if (r >= 0)
    ARGUS_REQUIRE(r < in.nRows, "covariate entry " + std::to_string(e + 1) +
                                    " refers to a row that does not exist");
  return r;
}

// What the first pass over the entries learns: which are kept, and whether they already
// come in the order the storage needs.
struct EntryScan {
  std::int64_t kept = 0;
  bool sortedByRow = true;
  bool sortedByColumnThenRow = true;
};

// Entries already sorted by column, rows increasing within each (a covariates table sorted
// by covariateId and rowId, as OHDSI extracts and database queries give it): the columns are
// stored in one sequential pass, without the index arrays and scatters of the sorts.
void storeSortedEntries(const TripletInput& in, BuiltDesign* out) {
  std::int64_t e = 0;
  if (out->rowsAreInput) {  // every entry kept and its row its own: the columns are runs
    for (std::int32_t j = 0; j < in.nColumns; ++j) {
      const std::int64_t begin = e;
      while (e < in.nEntries && in.column[e] == j) ++e;
      storeColumn(InputRun{in, begin, e}, j, in.value != nullptr, in.denseFraction, out);
    }
    return;
  }
  std::vector<DesignEntry> column;
  for (std::int32_t j = 0; j < in.nColumns; ++j) {
    column.clear();
    for (; e < in.nEntries; ++e) {
      const std::int32_t r = internalRow(in, e);
      if (r < 0 || (in.value && in.value[e] == 0.0)) continue;
      if (in.column[e] != j) break;
      column.push_back({r, in.value ? in.value[e] : 1.0, e});
    }
    storeColumn(GatheredEntries{column}, j, in.value != nullptr, in.denseFraction, out);
  }
}

// Whether the row plan maps every user row to itself.
bool isIdentity(const std::int32_t* internalOfUser, std::int64_t nUserRows, std::int64_t nRows) {
  if (nUserRows != nRows) return false;
  for (std::int64_t u = 0; u < nUserRows; ++u)
    if (internalOfUser[u] != u) return false;
  return true;
}

// Whether the stored rows of entries sorted by column then row would be `row` itself
// (TripletInput::rowsMayBeInput): all kept, rows not remapped, no column dense (a dense
// column stores values, not rows, and would shift every later column's rows).
bool rowsWouldBeInput(const TripletInput& in, const EntryScan& scan) {
  if (!in.rowsMayBeInput || !scan.sortedByColumnThenRow || scan.kept != in.nEntries) return false;
  if (in.internalOfUser && !isIdentity(in.internalOfUser, in.nUserRows, in.nRows)) return false;
  const double denseAbove = in.denseFraction * static_cast<double>(in.nRows);
  std::int64_t runStart = 0;
  for (std::int64_t e = 1; e <= in.nEntries; ++e) {
    if (e < in.nEntries && in.column[e] == in.column[e - 1]) continue;
    if (static_cast<double>(e - runStart) > denseAbove) return false;
    runStart = e;
  }
  return true;
}

// Entries in any other order: sorted by row (OHDSI tables sorted by row skip this), then
// stably by column, so each column's rows come out increasing. `row` holds internal rows
// (-1: skipped). Index is 32-bit whenever the entries allow: the sorts move half the bytes.
template <typename Index>
void storeUnsortedEntries(const TripletInput& in, const std::int32_t* row,
                          const EntryScan& scan, BuiltDesign* out) {
  std::vector<Index> kept;
  kept.reserve(static_cast<std::size_t>(scan.kept));
  for (std::int64_t e = 0; e < in.nEntries; ++e)
    if (row[e] >= 0 && !(in.value && in.value[e] == 0.0)) kept.push_back(static_cast<Index>(e));
  if (!scan.sortedByRow) kept = countingSort(kept, row, in.nRows, nullptr);
  std::vector<std::int64_t> colStart;
  const std::vector<Index> byColumn = countingSort(kept, in.column, in.nColumns, &colStart);
  kept = std::vector<Index>();  // release before the storage grows

  std::vector<DesignEntry> column;
  for (std::int32_t j = 0; j < in.nColumns; ++j) {
    column.clear();
    for (std::int64_t k = colStart[j]; k < colStart[j + 1]; ++k) {
      const Index entry = byColumn[k];
      column.push_back({row[entry], in.value ? in.value[entry] : 1.0, entry});
    }
    storeColumn(GatheredEntries{column}, j, in.value != nullptr, in.denseFraction, out);
  }
}

}  // namespace

BuiltDesign buildDesign(const TripletInput& in, std::int32_t* rowsOut) {
  ARGUS_REQUIRE(in.nRows > 0, "the data have no rows");
  ARGUS_REQUIRE(in.nRows <= INT32_MAX, "more than 2^31 - 1 rows are not supported");
  BuiltDesign out;
  out.rowsOut = rowsOut;

  // Check every index and count what is kept, noting the order the kept entries come in.
  EntryScan scan;
  std::int32_t lastRow = -1, lastColumn = -1;
  for (std::int64_t e = 0; e < in.nEntries; ++e) {
    const std::int32_t c = in.column[e];
    ARGUS_REQUIRE(c >= 0 && c < in.nColumns, "covariate entry " + std::to_string(e + 1) +
                                           " refers to a column that does not exist");
    const std::int32_t r = internalRow(in, e);
    if (r < 0) { ++out.skippedEntries; continue; }
    if (in.value && in.value[e] == 0.0) { ++out.zeroEntries; continue; }
    if (scan.kept > 0) {
      scan.sortedByRow = scan.sortedByRow && lastRow <= r;
      scan.sortedByColumnThenRow =
          scan.sortedByColumnThenRow && (lastColumn < c || (lastColumn == c && lastRow <= r));
    }
    lastRow = r;
    lastColumn = c;
    ++scan.kept;
  }

  DesignStorage& s = out.storage;
  s.nRows = in.nRows;
  if (rowsOut == nullptr) s.rows.reserve(static_cast<std::size_t>(scan.kept));
  if (in.addIntercept) appendIntercept(s);
  if (scan.sortedByColumnThenRow) {
    out.rowsAreInput = rowsWouldBeInput(in, scan);
    storeSortedEntries(in, &out);
    return out;
  }

  // Otherwise sort by row, then stably by column. A row plan that keeps the user's order
  // (no strata, no survival times) needs no mapped copy of the rows.
  std::vector<std::int32_t> mappedRows;  // internal rows, when the input holds user rows
  const bool mapped = in.internalOfUser && !isIdentity(in.internalOfUser, in.nUserRows, in.nRows);
  if (mapped) {
    mappedRows.resize(static_cast<std::size_t>(in.nEntries));
    for (std::int64_t e = 0; e < in.nEntries; ++e) mappedRows[e] = internalRow(in, e);
  }
  const std::int32_t* row = mapped ? mappedRows.data() : in.row;
  if (in.nEntries <= INT32_MAX) storeUnsortedEntries<std::int32_t>(in, row, scan, &out);
  else storeUnsortedEntries<std::int64_t>(in, row, scan, &out);
  return out;
}

DesignAppender::DesignAppender(std::int64_t nRows, std::int32_t nColumns, bool addIntercept,
                               double denseFraction)
    : nColumns_(nColumns), denseFraction_(denseFraction) {
  ARGUS_REQUIRE(nRows > 0, "the data have no rows");
  ARGUS_REQUIRE(nRows <= INT32_MAX, "more than 2^31 - 1 rows are not supported");
  ARGUS_REQUIRE(nColumns >= 0, "the number of columns must not be negative");
  out_.storage.nRows = nRows;
  if (addIntercept) appendIntercept(out_.storage);
  seen_.assign(static_cast<std::size_t>(nColumns), 0);
}

void DesignAppender::append(std::int64_t n, const std::int32_t* row, const std::int32_t* column,
                            const double* value) {
  for (std::int64_t e = 0; e < n; ++e, ++appended_) {
    const std::int32_t c = column[e];
    ARGUS_REQUIRE(c >= 0 && c < nColumns_, "covariate entry " + std::to_string(appended_ + 1) +
                                           " refers to a column that does not exist");
    if (c != current_) {
      if (current_ >= 0) closeColumn();
      ARGUS_REQUIRE(!seen_[c], "the entries of a covariate must arrive together (entry " +
                                   std::to_string(appended_ + 1) + ")");
      seen_[c] = 1;
      current_ = c;
    }
    const std::int32_t r = row[e];
    if (r < 0) { ++out_.skippedEntries; continue; }
    ARGUS_REQUIRE(r < out_.storage.nRows, "covariate entry " + std::to_string(appended_ + 1) +
                                              " refers to a row that does not exist");
    const double v = value ? value[e] : 1.0;
    if (v == 0.0) { ++out_.zeroEntries; continue; }
    anyValue_ = anyValue_ || v != 1.0;
    pending_.push_back({r, v, appended_});
  }
}

void DesignAppender::closeColumn() {
  std::stable_sort(pending_.begin(), pending_.end(),
                   [](const DesignEntry& a, const DesignEntry& b) { return a.row < b.row; });
  storeColumn(GatheredEntries{pending_}, current_, anyValue_, denseFraction_, &out_);
  arrival_.push_back(current_);
  pending_.clear();
  anyValue_ = false;
}

BuiltDesign DesignAppender::finish() {
  if (current_ >= 0) closeColumn();
  current_ = -1;
  for (std::int32_t j = 0; j < nColumns_; ++j) {
    if (seen_[j]) continue;
    seen_[j] = 1;
    current_ = j;
    closeColumn();  // no entries: an empty column
  }
  bool inOrder = true;
  for (std::size_t k = 0; k < arrival_.size() && inOrder; ++k)
    inOrder = arrival_[k] == static_cast<std::int32_t>(k);
  if (inOrder) return std::move(out_);
  // Put the column blocks into index order (the intercept, if any, stays first).
  const DesignStorage& s = out_.storage;
  const std::size_t first = s.kinds.size() - arrival_.size();
  std::vector<std::size_t> block(arrival_.size());
  for (std::size_t k = 0; k < arrival_.size(); ++k) block[arrival_[k]] = first + k;
  DesignStorage sorted;
  sorted.nRows = s.nRows;
  if (first == 1) appendIntercept(sorted);
  for (std::size_t b : block) {
    sorted.kinds.push_back(s.kinds[b]);
    sorted.rows.insert(sorted.rows.end(), s.rows.begin() + s.rowStart[b],
                       s.rows.begin() + s.rowStart[b + 1]);
    sorted.values.insert(sorted.values.end(), s.values.begin() + s.valueStart[b],
                         s.values.begin() + s.valueStart[b + 1]);
    sorted.rowStart.push_back(static_cast<std::int64_t>(sorted.rows.size()));
    sorted.valueStart.push_back(static_cast<std::int64_t>(sorted.values.size()));
  }
  out_.storage = std::move(sorted);
  return std::move(out_);
}

}  // namespace argus
