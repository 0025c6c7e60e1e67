// Column storage of the design matrix X.
//
// The engine only ever reads X through non-owning views, so the same arrays can live in R
// vectors (the R object is the single owner, and survives saveRDS) or in C++ vectors
// (DesignStorage, used by the builder and the C++ tests). Rows are the engine's internal row
// order (see row_order.h); row indices inside a column are strictly increasing.
#pragma once

#include <cstdint>
#include <vector>

namespace argus {

enum class ColumnKind : int {
  Indicator = 0,  // all values 1: row indices only
  Sparse = 1,     // row indices and values
  Dense = 2,      // one value per row, no indices
  Intercept = 3   // 1 on every row, nothing stored
};

const char* columnKindName(ColumnKind kind);

struct ColumnView {
  ColumnKind kind = ColumnKind::Intercept;
  std::int64_t nnz = 0;              // number of stored entries (nRows for dense/intercept)
  const std::int32_t* rows = nullptr;  // Indicator, Sparse
  const double* values = nullptr;      // Sparse, Dense
};

// A whole design: nRows x columns.size(), each column a view.
struct DesignView {
  std::int64_t nRows = 0;
  std::vector<ColumnView> columns;
  std::size_t nColumns() const { return columns.size(); }
};

// A dense, non-owning view of per-row values (an eta direction read as a column).
inline ColumnView denseColumnView(const std::vector<double>& values) {
  ColumnView v;
  v.kind = ColumnKind::Dense;
  v.nnz = static_cast<std::int64_t>(values.size());
  v.values = values.data();
  return v;
}

// Reads a few columns row by row, rows in increasing order: dense and intercept columns
// directly, indicator and sparse ones through a cursor each (their rows increase). For passes
// that need each row's values of several columns at once (a block Hessian, a Gram matrix).
class RowReader {
 public:
  RowReader(const DesignView& design, const std::vector<std::int32_t>& columns) {
    for (const std::int32_t j : columns) columns_.push_back(&design.columns[j]);
    cursor_.assign(columns_.size(), 0);
  }
  // x[a] = value of column a at row r; r must not decrease between calls.
  void read(std::int64_t r, double* x) {
    for (std::size_t a = 0; a < columns_.size(); ++a) {
      const ColumnView& c = *columns_[a];
      std::int64_t& k = cursor_[a];
      switch (c.kind) {
        case ColumnKind::Intercept: x[a] = 1.0; break;
        case ColumnKind::Dense: x[a] = c.values[r]; break;
        default:
          while (k < c.nnz && c.rows[k] < r) ++k;
          x[a] = k < c.nnz && c.rows[k] == r ? (c.kind == ColumnKind::Sparse ? c.values[k] : 1.0)
                                            : 0.0;
      }
    }
  }

 private:
  std::vector<const ColumnView*> columns_;
  std::vector<std::int64_t> cursor_;
};

// Visits the entries of one column as f(row, x). The column kind is resolved once per call,
// so the inner loops are tight and the indicator path never loads a value.
template <typename F>
inline void forEachEntry(const ColumnView& c, std::int64_t nRows, F&& f) {
  switch (c.kind) {
    case ColumnKind::Indicator:
      for (std::int64_t k = 0; k < c.nnz; ++k) f(c.rows[k], 1.0);
      break;
    case ColumnKind::Sparse:
      for (std::int64_t k = 0; k < c.nnz; ++k) f(c.rows[k], c.values[k]);
      break;
    case ColumnKind::Dense:
      for (std::int64_t r = 0; r < nRows; ++r) f(r, c.values[r]);
      break;
    case ColumnKind::Intercept:
      for (std::int64_t r = 0; r < nRows; ++r) f(r, 1.0);
      break;
  }
}

// eta += X coef, column by column in index order, skipping zero coefficients: a linear
// predictor from offsets (Likelihood::reset, linearPredictor()) or deferred steps
// (DeferredColumnSteps). eta has design.nRows values.
inline void addDesignTimes(const DesignView& design, const double* coef, double* eta) {
  for (std::size_t j = 0; j < design.nColumns(); ++j) {
    const double b = coef[j];
    if (b == 0.0) continue;
    forEachEntry(design.columns[j], design.nRows, [&](std::int64_t r, double x) { eta[r] += b * x; });
  }
}

// Entries [first, end) of a column (positions among its stored entries; rows for dense and
// intercept columns) as f(row, x), calling prefetch(row) for the stored entry kAhead places
// ahead: a column's rows are far apart, so with per-row state larger than the cache each
// visit would otherwise wait on memory (dense and intercept columns walk rows in order and
// need no hint). Ranges let threads split a column (solver/majorized_start.cpp).
template <typename Prefetch, typename F>
inline void forEntryRangePrefetched(const ColumnView& c, std::int64_t first, std::int64_t end,
                                    Prefetch&& prefetch, F&& f) {
  constexpr std::int64_t kAhead = 32;
  switch (c.kind) {
    case ColumnKind::Indicator:
      for (std::int64_t k = first; k < end; ++k) {
        if (k + kAhead < end) prefetch(c.rows[k + kAhead]);
        f(c.rows[k], 1.0);
      }
      break;
    case ColumnKind::Sparse:
      for (std::int64_t k = first; k < end; ++k) {
        if (k + kAhead < end) prefetch(c.rows[k + kAhead]);
        f(c.rows[k], c.values[k]);
      }
      break;
    case ColumnKind::Dense:
      for (std::int64_t r = first; r < end; ++r) f(r, c.values[r]);
      break;
    case ColumnKind::Intercept:
      for (std::int64_t r = first; r < end; ++r) f(r, 1.0);
      break;
  }
}

// The value of a column's entry k when its kind is known at compile time (k a stored
// position, or a row of a dense or intercept column): loops specialized per kind.
template <ColumnKind Kind>
inline double kindEntryValue(const ColumnView& c, std::int64_t k) {
  if constexpr (Kind == ColumnKind::Sparse || Kind == ColumnKind::Dense) return c.values[k];
  return 1.0;
}

// How many positions forEntryRangePrefetched ranges over: stored entries, or rows.
inline std::int64_t entryPositions(const ColumnView& c, std::int64_t nRows) {
  return (c.kind == ColumnKind::Dense || c.kind == ColumnKind::Intercept) ? nRows : c.nnz;
}

// The whole column.
template <typename Prefetch, typename F>
inline void forEachEntryPrefetched(const ColumnView& c, std::int64_t nRows, Prefetch&& prefetch, F&& f) {
  forEntryRangePrefetched(c, 0, entryPositions(c, nRows), prefetch, f);
}

// The largest |x| among a column's stored entries (1 for indicator and intercept columns, 0 for
// an empty one): the scale on which the solver measures a step of beta_j (x_j times the step
// is the change of the linear predictor).
double columnMaxAbs(const ColumnView& c);

}  // namespace argus
