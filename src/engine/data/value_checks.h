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

// The smallest nonzero and the largest absolute value among `x` (smallest = +inf when every
// value is 0; largest = 0 for no values).
struct AbsoluteRange {
  double smallestNonzero;
  double largest;
};
AbsoluteRange absoluteRange(const double* x, std::int64_t n);

}  // namespace argus
