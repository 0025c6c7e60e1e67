#include "solver/dense_block.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"

namespace argus {

BlockFactor factorSkippingAliased(const std::vector<double>& matrix, std::size_t k,
                                  double relativeTolerance, const std::vector<signed char>* forced,
                                  std::vector<double>* pivots) {
  ARGUS_REQUIRE(matrix.size() == k * k, "block matrix has the wrong size");
  BlockFactor f;
  f.size = k;
  f.lower.assign(k * k, 0.0);
  f.aliased.assign(k, 0);
  // Left-looking: row i of L from the rows before it; the pivot decides whether i is aliased.
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (f.aliased[j]) continue;
      double sum = matrix[i * k + j];
      for (std::size_t m = 0; m < j; ++m) sum -= f.lower[i * k + m] * f.lower[j * k + m];
      f.lower[i * k + j] = sum / f.lower[j * k + j];
    }
    const double diagonal = matrix[i * k + i];
    double pivot = diagonal;
    for (std::size_t m = 0; m < i; ++m) pivot -= f.lower[i * k + m] * f.lower[i * k + m];
    if (pivots) pivots->push_back(diagonal > 0.0 ? pivot / diagonal : 0.0);
    const signed char decided = forced ? (*forced)[i] : -1;
    const bool aliased = decided >= 0 ? decided == 1 || !(pivot > 0.0)
                                      : !(diagonal > 0.0) || !(pivot > relativeTolerance * diagonal);
    if (aliased) {
      f.aliased[i] = 1;
      for (std::size_t m = 0; m < i; ++m) f.lower[i * k + m] = 0.0;
      continue;
    }
    f.lower[i * k + i] = std::sqrt(pivot);
  }
  return f;
}

std::vector<double> solveFactored(const BlockFactor& f, const std::vector<double>& rhs,
                                  std::size_t limit) {
  const std::size_t n = f.size, k = std::min(n, limit);
  ARGUS_REQUIRE(rhs.size() == n, "block right-hand side has the wrong size");
  std::vector<double> z(n, 0.0);
  for (std::size_t i = 0; i < k; ++i) {  // L w = rhs
    if (f.aliased[i]) continue;
    double sum = rhs[i];
    for (std::size_t m = 0; m < i; ++m) sum -= f.lower[i * n + m] * z[m];
    z[i] = sum / f.lower[i * n + i];
  }
  for (std::size_t i = k; i-- > 0;) {  // L' z = w
    if (f.aliased[i]) continue;
    double sum = z[i];
    for (std::size_t m = i + 1; m < k; ++m) sum -= f.lower[m * n + i] * z[m];
    z[i] = sum / f.lower[i * n + i];
  }
  return z;
}

}  // namespace argus
