// g and H (row-major k x k) of a GLM log-likelihood over a block of columns, in one pass over
// the rows (RowReader): each row's block values, its derivatives once, then the products of
// its nonzero values. O(N k + sum over rows of (nonzeros in the block)^2). Shared by the CPU
// likelihood and the device one (which reads its row state back for this once-per-cycle
// pass); `derivativesAt(r)` gives row r's RowDerivatives at the current eta. `shifts` (one
// per block column, or empty): each column is taken as x - shift, so that a block with an
// intercept can be formed in a centred basis (solver/block_newton.h, "Centring").
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"
#include "models/glm_functors.h"

namespace argus {

template <typename DerivativesAt>
void glmBlockGradHess(const DesignView& design, const std::vector<std::int32_t>& columns,
                      const std::vector<double>& shifts, DerivativesAt&& derivativesAt, std::vector<double>* g,
                      std::vector<double>* h) {
  const std::size_t k = columns.size();
  g->assign(k, 0.0);
  h->assign(k * k, 0.0);
  RowReader reader(design, columns);
  std::vector<double> row(k), x(k);
  std::vector<std::size_t> at(k);
  for (std::int64_t r = 0; r < design.nRows; ++r) {
    reader.read(r, row.data());
    if (!shifts.empty())
      for (std::size_t a = 0; a < k; ++a) row[a] -= shifts[a];
    std::size_t n = 0;
    for (std::size_t a = 0; a < k; ++a) {
      if (row[a] == 0.0) continue;
      x[n] = row[a];
      at[n++] = a;
    }
    if (n == 0) continue;
    const RowDerivatives d = derivativesAt(r);
    for (std::size_t i = 0; i < n; ++i) {
      (*g)[at[i]] += x[i] * d.resid;
      const double xc = x[i] * d.curv;
      for (std::size_t m = 0; m <= i; ++m) (*h)[at[i] * k + at[m]] -= xc * x[m];
    }
  }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b < a; ++b) (*h)[b * k + a] = (*h)[a * k + b];
}

}  // namespace argus
