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

// Builds views over arrays laid out as above (used for DesignStorage and for R vectors).
DesignView makeDesignView(std::int64_t nRows, std::size_t nColumns, const int* kinds,
                          const double* rowStart, const double* valueStart,
                          const std::int32_t* rows, const double* values);

struct TripletInput {
  std::int64_t nRows = 0;      // rows of the design (internal order)
  std::int32_t nColumns = 0;   // columns referenced by `column`
  std::int64_t nEntries = 0;
  const std::int32_t* row = nullptr;     // internal row of each entry, or -1 to skip it
  const std::int32_t* column = nullptr;  // 0-based column of each entry
  const double* value = nullptr;         // nullptr means every value is 1
  bool addIntercept = false;             // prepend an Intercept column
  double denseFraction = 0.25;           // store a column dense above this fill
};

struct BuiltDesign {
  DesignStorage storage;
  std::int64_t firstDuplicate = -1;  // index of an entry repeating a (row, column) pair
  std::int64_t skippedEntries = 0;   // entries whose row was -1 (rows dropped upstream)
  std::int64_t zeroEntries = 0;      // explicit zeros, which carry no information
};

BuiltDesign buildDesign(const TripletInput& input);

}  // namespace argus
