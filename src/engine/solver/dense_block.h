// Small dense linear algebra for the block Newton step and the collinearity check
// (solver/block_newton.h): a Cholesky factorization of a k x k symmetric positive
// semi-definite matrix, k at most a few dozen, that skips aliased columns.
//
// Columns are taken in order, as lm's QR takes them: column i is "aliased" when its pivot,
// the part of A_ii not explained by the accepted columns before it, is at most
// `relativeTolerance * A_ii` (or A_ii <= 0). For a Gram or Hessian matrix that pivot over A_ii
// is 1 - R^2 of column i regressed on the earlier accepted ones, so a tolerance of 1e-12
// calls a column aliased when the others explain all but 1e-12 of it. Aliased columns get a
// zero row and column in the factor and a zero entry in every solution.
#pragma once

#include <cstddef>
#include <vector>

namespace argus {

struct BlockFactor {
  std::size_t size = 0;
  std::vector<double> lower;            // row-major k x k, L with L L' = A on accepted columns
  std::vector<unsigned char> aliased;   // per column
};

// `matrix` is row-major k x k and symmetric (only the lower triangle is read). `forced` (if
// given, per column): 1 aliased, 0 accepted, -1 decided by the pivot as above. `pivots` (if
// given) receives each column's pivot over its diagonal (1 - R^2 for a Gram matrix).
BlockFactor factorSkippingAliased(const std::vector<double>& matrix, std::size_t k,
                                  double relativeTolerance,
                                  const std::vector<signed char>* forced = nullptr,
                                  std::vector<double>* pivots = nullptr);

// Solves A z = rhs on the accepted columns before `limit` (all by default); the other entries
// of z are 0.
std::vector<double> solveFactored(const BlockFactor& factor, const std::vector<double>& rhs,
                                  std::size_t limit = static_cast<std::size_t>(-1));

}  // namespace argus
