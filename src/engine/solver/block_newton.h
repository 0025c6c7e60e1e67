// Exact Newton steps on a small block of coordinates: what makes CCD converge on dense,
// continuous and correlated columns (src/engine/DESIGN.md, "Solver").
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
// CCD's. The same test bounds the step where a coefficient has no finite estimate: along a
// direction of recession the curvature vanishes and the Newton step grows, but the
// log-likelihood only creeps towards its supremum, far short of the gain the step's slope
// promises, so the search cuts it back. With every coordinate of a small problem in the block, the fit is Newton's method
// (quadratic convergence); in a large sparse one, the block is the intercept and the dense
// columns, and CCD does the rest.
//
// The block: the intercept and the dense columns (at most kMaxColumns), and, when the problem
// has at most kSmallProblem columns, or at most kMaxColumns of which half or more are dense
// or all of which fit the budget below at once, every column whose inclusion keeps the block within kSparseCostRatio cycles of work (or
// under 2^20 row operations); at most kMaxColumns in all. A block of 32 once held every dense
// column: Boston's 91 pairwise interactions (model.matrix(~ .^2), correlations to 0.998; the
// 13 with chas stored sparse) then left 59 to CCD, and every fit ended MAX_ITERATIONS after
// 1000 cycles (lr 46.2 against glmnet's 28.1 penalized objective); with the dense ones alone
// in the block, the 13 sparse ones still held it to 0.005 a cycle. Sparse columns of a sparse
// problem stay out: lr 1e5 x 100 indicators took 14 cycles and 0.20 s with them in the block,
// 8 cycles and 0.036 s without. Unless they are nearly collinear: where the smallest
// eigenvalue of the flat columns' correlations is below 1e-3 (the collinearity check,
// solver/collinear_columns.h), they are admitted whatever their kind and cost (admit()),
// since CCD would crawl along that direction for the inverse of it in cycles. Indicator-only
// problems (SCCS, sparse logistic) thus keep the plain CCD cycle. Where the block costs more
// than a cycle (many dense columns and many rows), the step is taken every `period` cycles
// so that it stays within about the cycles' own work.
//
// The Hessian: GLMs form it in one pass (Likelihood::blockGradHess); the others through
// their directional derivatives (gradHessAlong, the same formulas as a column's gradHess):
// with normalized directions a_j = x_j / sqrt(-h_jj), C_jk = -h(a_j + a_k) / 2 - 1
// (polarization), so no model needs a second formula for cross derivatives and C is a
// correlation-like matrix with unit diagonal whatever the columns' scales.
//
// Laplace coordinates: the model keeps their penalty exact and is solved by an active-set
// method (solver/block_model.h), so the step is a proximal Newton step: coordinates at 0 join
// when their model gradient exceeds lambda, and none changes sign within a step (it stops at
// 0). Along the segment to the model's optimum the log posterior is then smooth, and the
// line search judges it as for smooth priors.
//
// Centring (GLMs with an intercept): a dense column with a large mean against its spread (a
// calendar year, a time stamp in seconds: mean/sd of 1e4 to 1e5) is nearly parallel to the
// intercept, so the block Hessian's pivot for it is var / (var + mean^2) of its diagonal: 1e-10
// at mean/sd 1e5, where the alias test declared an estimable column aliased, and the
// step solved a system of condition 1e10. Such a column (data/column_centring.h) enters the
// block as x_j - c_j (c_j: its mean), in the same one pass, and the step is mapped back
// (delta_0 -= sum_j c_j delta_j); the intercept's coordinate takes up the shifts, so this
// needs its prior flat (otherwise the block stays uncentred).
//
// Which flat-prior columns are collinear is answered apart from the block, for every such
// column (solver/collinear_columns.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "models/likelihood.h"
#include "solver/block_model.h"
#include "solver/cycle_runner.h"

namespace argus {

// H off the diagonal over `columns` by polarization of directional second derivatives, given
// the diagonal (every h_aa < 0) in `h` (row-major k x k): with a_a = x_a / sqrt(-h_aa),
// C_ab = -h(a_a + a_b) / 2 - 1 and H_ab = -C_ab sqrt(h_aa h_bb). One dense direction
// (`direction`, scratch of one value per row) and one gradHessAlong() per pair: exact to
// rounding, where a difference of gradients carries its truncation error (inference's full
// Hessian of a survival or conditional model: solver/inference.h). `centred`: each direction
// about its median (block_newton.cpp says why), for inference; a fit's block step does without
// (its iterates are the same, and the median costs about as much as the direction's scan).
void polarizeHessian(const Likelihood& likelihood, const Dataset& data,
                     const std::vector<std::int32_t>& columns, std::vector<double>* h,
                     std::vector<double>* direction, bool centred);

class BlockNewton {
 public:
  static constexpr std::size_t kMaxColumns = 128;
  static constexpr std::size_t kSmallProblem = 32;
  static constexpr double kSparseCostRatio = 4.0;
  // The step's own pivot threshold, far below the alias test's
  // (LikelihoodCycleRunner::kAliasTolerance): a direction the test keeps
  // (estimable) but whose pivot is 1e-12 (raw polynomials of degree 6: pbc's albumin) was left
  // to CCD, which crawled along it until the per-coordinate certificate passed 1.6 units of
  // log-likelihood short (lr SUCCESS at -145.71, glm -144.07). The line search guards the
  // step's accuracy at such a condition.
  static constexpr double kStepTolerance = 1e-14;
  // `fused`: the likelihood forms the block Hessian in one pass (fusesBlockHessian()).
  BlockNewton(const Dataset& data, bool fused);

  // Columns that may join the block (before fixed flags and Laplace zeros are applied).
  const std::vector<std::int32_t>& candidates() const { return candidates_; }
  // A block step is taken every period() cycles (1 where it costs at most a cycle).
  int period() const { return period_; }
  // Adds `columns` (up to kMaxColumns in all), whatever their kind and cost, and takes the
  // step from the next cycle on, every cycle where it costs at most 5e8 row operations: for
  // columns so nearly collinear that CCD would crawl along them and the per-coordinate
  // certificate would pass short of the optimum (LikelihoodCycleRunner::aliasedColumns).
  void admit(const std::vector<std::int32_t>& columns);
  // Back to the block the constructor chose, before any admit() and step: for the next fit
  // of a runner lent to many (CycleRunner::restart()).
  void restart();

  // Called once per cycle; on the cycles where it is due, one damped Newton step on the free
  // candidates at the likelihood's current eta (call after refreshSums()). Returns true when
  // beta moved; the likelihood's sums are then refreshed. Needs supportsDirection().
  bool step(Likelihood& likelihood, CycleState& state);

 private:
  // g (k) and H (row-major k x k) of the log-likelihood over `columns`, each taken as
  // x - shifts[a] where shifts is not empty (fused likelihoods only).
  void assemble(Likelihood& likelihood, const std::vector<std::int32_t>& columns,
                const std::vector<double>& shifts, std::vector<double>* g, std::vector<double>* h);
  // The centring shifts of `columns` (those after the intercept), or empty where the block
  // has no intercept or the likelihood does not fuse its Hessian.
  std::vector<double> shiftsFor(const std::vector<std::int32_t>& columns) const;
  // period_ and shift_ for the present candidates.
  void configure();
  // The block of one step: its columns, the log-likelihood's g and H (row-major) over them
  // and, where the step is taken in the centred basis, the intercept's position and the
  // columns' shifts (0 where not centred).
  struct Block {
    std::vector<std::int32_t> columns;
    std::vector<double> g, h;
    std::ptrdiff_t centre = -1;
    std::vector<double> shift;
  };
  bool formBlock(Likelihood& likelihood, const CycleState& state, Block* block);
  BlockModel modelOf(const Block& block, const CycleState& state, const std::vector<double>& start) const;
  bool searchLine(Likelihood& likelihood, CycleState& state, const Block& block, const std::vector<double>& start,
                  const std::vector<double>& delta, double linearGain);
  // Moves the likelihood (and `applied`) to the coefficients `target` of `columns`.
  void moveTo(Likelihood& likelihood, const std::vector<std::int32_t>& columns,
              const std::vector<double>& target, std::vector<double>* applied);

  const Dataset& data_;
  const bool fused_;
  std::vector<std::int32_t> candidates_;
  std::vector<std::int32_t> chosen_;  // the constructor's candidates (restart())
  bool admitted_ = false;             // admit() changed the plan since
  std::int32_t intercept_ = -1;
  double cycleWork_ = 0.0;     // a cycle's row operations: the yardstick of the block's cost
  std::vector<double> shift_;  // per column: its mean where it is centred (column_centring.h)
  int period_ = 1;
  long cycles_ = 0;
  std::vector<double> direction_;
  std::vector<double> savedEta_;
};

}  // namespace argus
