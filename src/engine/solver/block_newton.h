// Exact Newton steps on a small block of coordinates, once per cycle: what makes CCD
// converge on dense, continuous and correlated columns (src/engine/DESIGN.md, "Conditioning").
//
// One coordinate at a time, CCD zig-zags between columns that are correlated in the Hessian
// metric: an intercept and a continuous covariate with mean 50, or age and weight. Each cycle
// then gains a fixed fraction of the remaining distance, and a tolerance on the change per
// cycle stops it far from the optimum (lm's mtcars fit: 22% off after 258 cycles). The block
// step removes exactly those directions: after the coordinate sweep, it takes one Newton step
// on the block's coordinates jointly,
//     (H_BB + prior curvature) delta = -(g_B + prior gradient),
// with the full block Hessian H_BB, damped by a backtracking line search on the log posterior
// (Armijo), so every cycle still raises the objective and the optimum is the same as plain
// CCD's. With every coordinate of a small problem in the block, the fit is Newton's method
// (quadratic convergence); in a large sparse one, the block is the intercept and the dense
// columns, and CCD does the rest.
//
// The block: the intercept and the dense columns, and, when the problem has at most
// kMaxColumns free columns, every column whose inclusion keeps the block's cost within
// kSparseCostRatio cycles (or under 2^20 row operations); at most kMaxColumns in all.
// Indicator-only problems (SCCS, sparse logistic) thus keep the plain CCD cycle.
//
// The Hessian comes from the likelihood's own directional derivatives (gradHessAlong, the
// same formulas as a column's gradHess): with normalized directions a_j = x_j / sqrt(-h_jj),
// C_jk = -h(a_j + a_k) / 2 - 1 (polarization), so no model needs a second formula for cross
// derivatives, and C is a correlation-like matrix with unit diagonal whatever the columns'
// scales. Laplace coordinates join only while nonzero (the prior is smooth there, with
// derivative -lambda sign(beta)); the step is cut where the first of them reaches 0 and that
// one lands on 0 exactly. Coordinates at 0 under Laplace are left to the sweep, which decides
// whether they leave 0.
//
// The same factorization answers which flat-prior columns are collinear (aliased()): taken in
// order, a column whose pivot is at most kAliasTolerance of its diagonal is explained by the
// earlier ones (solver/dense_block.h).
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "models/likelihood.h"
#include "solver/cycle_runner.h"

namespace argus {

class BlockNewton {
 public:
  static constexpr std::size_t kMaxColumns = 32;
  static constexpr double kSparseCostRatio = 4.0;
  static constexpr double kAliasTolerance = 1e-10;
  // Largest change of any row's linear predictor in one block step, except for quadratic
  // log-likelihoods (least squares, where the Newton step is exact). Where a coefficient has
  // no finite estimate (separation), the curvature vanishes along its direction and the
  // Newton step grows without bound (1e126 on a separable logistic fit); like CCD's trust
  // region, this keeps each step to a sane size, and legitimate large moves (an intercept of
  // -12 for a rare outcome) take a few steps instead of one.
  static constexpr double kMaxEtaStep = 8.0;

  explicit BlockNewton(const Dataset& data);

  // Columns that may join the block (before fixed flags and Laplace zeros are applied).
  const std::vector<std::int32_t>& candidates() const { return candidates_; }

  // One damped Newton step on the free, smooth candidates at the likelihood's current eta
  // (call after refreshSums()). Returns true when beta moved; the likelihood's sums are then
  // refreshed. Needs Likelihood::supportsDirection().
  bool step(Likelihood& likelihood, CycleState& state);

  // Of `columns` (in this order), those whose direction in the Hessian metric at the current
  // eta is spanned by earlier ones, or that carry no curvature at all.
  std::vector<std::int32_t> aliased(Likelihood& likelihood,
                                    const std::vector<std::int32_t>& columns);

 private:
  // The normalized Hessian C of `columns` (row-major, unit diagonal) given their scales
  // sqrt(-h_jj), by polarization.
  std::vector<double> normalizedHessian(Likelihood& likelihood,
                                        const std::vector<std::int32_t>& columns,
                                        const std::vector<double>& scale);
  // out += factor * x_j (a dense vector of one value per row).
  void addColumn(std::int32_t j, double factor, std::vector<double>& out) const;

  const Dataset& data_;
  std::vector<std::int32_t> candidates_;
  std::vector<double> direction_;
  std::vector<double> savedEta_;
};

}  // namespace argus
