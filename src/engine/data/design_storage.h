// Owning storage for a design matrix, and the builder that makes it from (row, column, value)
// triplets such as the OHDSI long `covariates` table.
//
// Layout (also the layout of the R object, which stores the same five arrays):
//   kinds[j]                       ColumnKind of column j
//   rows[rowStart[j] .. rowStart[j+1])      row indices of column j (Indicator, Sparse)
//   values[valueStart[j] .. valueStart[j+1]) values of column j (Sparse; Dense has nRows)
// The builder is O(entries + rows + columns): two stable counting sorts, no comparison sort,
// which is what makes createData() on millions of pairs fast.
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"

namespace argus {

struct DesignStorage {
  std::int64_t nRows = 0;
  std::vector<int> kinds;
  std::vector<std::int64_t> rowStart{0};
  std::vector<std::int64_t> valueStart{0};
  std::vector<std::int32_t> rows;
  std::vector<double> values;

  DesignView view() const;
};

// Builds views over arrays laid out as above (used for DesignStorage and for R vectors);
// `storedRows` and `storedValues` are the lengths of `rows` and `values`. Throws where an
// offset is not a whole number within its array, offsets fall, or a column's counts do not
// fit its kind: a view never points past the arrays (the rows inside a column are checked by
// validateDataset).
DesignView makeDesignView(std::int64_t nRows, std::size_t nColumns, const int* kinds,
                          const double* rowStart, const double* valueStart,
                          const std::int32_t* rows, std::size_t storedRows,
                          const double* values, std::size_t storedValues);

struct TripletInput {
  std::int64_t nRows = 0;      // rows of the design (internal order)
  std::int32_t nColumns = 0;   // columns referenced by `column`
  std::int64_t nEntries = 0;
  const std::int32_t* row = nullptr;     // internal row of each entry, or -1 to skip it
  // When set, row[e] is instead a 0-based user row and its internal row (or -1) is
  // internalOfUser[row[e]]: R hands over the row plan's map rather than a mapped copy.
  const std::int32_t* internalOfUser = nullptr;
  std::int64_t nUserRows = 0;            // length of internalOfUser (or the user's rows)
  // row[e] are user rows (0 .. nUserRows-1) even without internalOfUser (a row plan that
  // keeps the user's order): a negative one is an error, not an entry to skip.
  bool userRows = false;
  const std::int32_t* column = nullptr;  // 0-based column of each entry
  const double* value = nullptr;         // nullptr means every value is 1
  bool addIntercept = false;             // prepend an Intercept column
  double denseFraction = 0.25;           // store a column dense above this fill
  // The caller can use `row` itself as the stored rows: where they would be exactly `row`
  // (every entry kept, in column-then-row order, internal rows equal to user rows, no dense
  // column), buildDesign() writes none and sets BuiltDesign::rowsAreInput. An R caller then
  // returns its input vector: on this VM each fresh page costs ~10 us to fault in, and the
  // rows of 5 million entries are 4,900 pages.
  bool rowsMayBeInput = false;
};

struct BuiltDesign {
  DesignStorage storage;
  // Where the stored rows went when the caller gave buildDesign() memory for them (then
  // storage.rows stays empty and storage.rowStart indexes this array); nullptr otherwise.
  std::int32_t* rowsOut = nullptr;
  bool rowsAreInput = false;  // the stored rows are TripletInput::row (rowsMayBeInput)
  std::int64_t firstDuplicate = -1;  // index of an entry repeating a (row, column) pair
  std::int32_t duplicateRow = -1;     // its row and (input) column
  std::int32_t duplicateColumn = -1;
  std::int64_t skippedEntries = 0;   // entries whose row was -1 (rows dropped upstream)
  std::int64_t zeroEntries = 0;      // explicit zeros, which carry no information
};

// `rowsOut`, when given, has room for input.nEntries rows and receives the stored rows in
// place of storage.rows: the R bridge passes an R vector's memory, so that millions of rows
// are not built in a std::vector and then copied (each copy also pays its fresh pages).
BuiltDesign buildDesign(const TripletInput& input, std::int32_t* rowsOut = nullptr);

// One kept covariate entry of a column: its row, value and index among the input's entries.
struct DesignEntry {
  std::int32_t row;
  double value;
  std::int64_t index;
};

// The same design from entries streamed in column by column: all entries of a column arrive
// together (as a covariates table sorted by covariate id gives them), rows in any order
// within a column (each column is sorted on its own, O(nnz_j log nnz_j)). Only one column's
// entries are held besides the storage, so memory is the design's own; columns that arrive
// out of index order (labels that the database collates otherwise) cost one copy of the
// storage in finish(). Entries mean what TripletInput's do (row -1: skipped; value nullptr:
// all 1); entry indices count every entry appended.
class DesignAppender {
 public:
  DesignAppender(std::int64_t nRows, std::int32_t nColumns, bool addIntercept,
                 double denseFraction = 0.25);
  void append(std::int64_t n, const std::int32_t* row, const std::int32_t* column,
              const double* value);
  BuiltDesign finish();  // columns that got no entry are empty

 private:
  void closeColumn();

  std::int32_t nColumns_;
  double denseFraction_;
  std::int32_t current_ = -1;   // the column being received (-1: none yet)
  std::int64_t appended_ = 0;   // entries appended so far
  std::vector<unsigned char> seen_;    // columns received so far
  std::vector<std::int32_t> arrival_;  // columns in the order they were stored
  std::vector<DesignEntry> pending_;  // its kept entries
  bool anyValue_ = false;       // a value other than 1 in the pending column
  BuiltDesign out_;
};

}  // namespace argus
