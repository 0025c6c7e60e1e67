// One-pass scans behind createData()'s checks of long vectors (covariate ids and values).
//
// R can state each check in one line, but every such line allocates a vector per entry
// (`x != trunc(x)`, `abs(x)`, ...): on millions of covariate entries those temporaries cost
// more than building the design. R asks these scans whether anything is wrong and, only then,
// finds and words the error itself, so the messages stay R's.
#pragma once

#include <cstdint>

namespace argus {

// Index of the first finite value that is not a whole number, or -1 (non-finite values are
// R's to report before this is asked).
std::int64_t firstFractional(const double* x, std::int64_t n);

// The smallest and largest value in one pass (R's min() and max() are a pass each, and the
// slower for their NA handling: 5.4 ms for 2 million doubles against ~1.5). `finite` is false
// when any value is NaN or infinite (then min and max mean nothing); n = 0 gives 0, 0.
struct ValueRange {
  double min;
  double max;
  bool finite;
};
ValueRange valueRange(const double* x, std::int64_t n);
// R's integers: `missing` (NA_INTEGER) makes `finite` false.
ValueRange valueRange(const std::int32_t* x, std::int64_t n, std::int32_t missing);

// The smallest nonzero and the largest absolute value among `x` (smallest = +inf when every
// value is 0; largest = 0 for no values).
struct AbsoluteRange {
  double smallestNonzero;
  double largest;
};
AbsoluteRange absoluteRange(const double* x, std::int64_t n);

// The outcomes a model accepts: Binary {0, 1} (lr, clr, cox), Count a non-negative whole
// number (pr, cpr, sccs), Competing {0, 1, 2} (fgr). Per-row checks of y and time run on
// every row (500,000 for the SCCS benchmark), so these too are one pass without temporaries.
enum class OutcomeSet { Binary, Count, Competing };

// Index of the first finite value outside `set`, or -1 (non-finite values are R's to report
// before this is asked).
std::int64_t firstOutsideOutcomeSet(const double* y, std::int64_t n, OutcomeSet set);

// Index of the first value below `bound` (at or below it when `inclusive`), or -1.
std::int64_t firstBelow(const double* x, std::int64_t n, double bound, bool inclusive);

}  // namespace argus
