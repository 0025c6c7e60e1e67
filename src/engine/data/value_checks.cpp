#include "data/value_checks.h"

#include <cmath>
#include <limits>

namespace argus {

std::int64_t firstFractional(const double* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (std::isfinite(x[i]) && std::trunc(x[i]) != x[i]) return i;
  return -1;
}

AbsoluteRange absoluteRange(const double* x, std::int64_t n) {
  AbsoluteRange r{std::numeric_limits<double>::infinity(), 0.0};
  for (std::int64_t i = 0; i < n; ++i) {
    const double a = std::fabs(x[i]);
    if (a > r.largest) r.largest = a;
    if (a > 0 && a < r.smallestNonzero) r.smallestNonzero = a;
  }
  return r;
}

}  // namespace argus
