#include "data/value_checks.h"

#include <cmath>
#include <limits>

namespace argus {

std::int64_t firstFractional(const double* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (std::isfinite(x[i]) && std::trunc(x[i]) != x[i]) return i;
  return -1;
}

ValueRange valueRange(const double* x, std::int64_t n) {
  if (n == 0) return {0.0, 0.0, true};
  double lo = x[0], hi = x[0], bad = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
    bad += x[i] - x[i];  // NaN for NaN and +-Inf, 0 otherwise: no branch per value
  }
  return {lo, hi, bad == 0.0};
}

ValueRange valueRange(const std::int32_t* x, std::int64_t n, std::int32_t missing) {
  if (n == 0) return {0.0, 0.0, true};
  std::int32_t lo = x[0], hi = x[0];
  bool absent = false;
  for (std::int64_t i = 0; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
    absent |= x[i] == missing;
  }
  return {static_cast<double>(lo), static_cast<double>(hi), !absent};
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

std::int64_t firstOutsideOutcomeSet(const double* y, std::int64_t n, OutcomeSet set) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = y[i];
    bool ok = false;
    switch (set) {
      case OutcomeSet::Binary: ok = v == 0.0 || v == 1.0; break;
      case OutcomeSet::Count: ok = v >= 0.0 && std::trunc(v) == v; break;
      case OutcomeSet::Competing: ok = v == 0.0 || v == 1.0 || v == 2.0; break;
    }
    if (!ok && std::isfinite(v)) return i;
  }
  return -1;
}

std::int64_t firstBelow(const double* x, std::int64_t n, double bound, bool inclusive) {
  for (std::int64_t i = 0; i < n; ++i)
    if (x[i] < bound || (inclusive && x[i] == bound)) return i;
  return -1;
}

}  // namespace argus
