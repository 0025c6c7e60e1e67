#include "solver/block_newton.h"

#include <algorithm>
#include <cmath>

#include "data/column_centring.h"
#include "solver/block_model.h"
#include "solver/dense_block.h"

namespace argus {

namespace {

// A block costs at most this many cycles' work when it is taken every cycle; beyond that it
// is taken every `period` cycles. Small problems (under 2^20 row operations) take it always.
constexpr double kMaxShare = 4.0;  // lr 2e5 x 30 dense: 0.68 s at 4, 0.99 s at 1 (more, slower cycles)
constexpr double kAlwaysBelow = 1048576.0;
// Row operations of a block admitted for near-collinearity below which it is taken every
// cycle (a few tenths of a second per step).
constexpr double kForcedBudget = 5e8;

// Row operations of one block assembly with k columns: one fused pass with k(k+1)/2 products
// per row (an FMA, against a whole derivative evaluation per row and pair: counted as 1/8 of
// a row operation each), or k(k-1)/2 directional passes, each a fill and a scan.
double blockCost(std::size_t k, std::int64_t rows, bool fused) {
  const double n = static_cast<double>(rows), kk = static_cast<double>(k);
  return fused ? n * (1.0 + kk * (kk + 1.0) / 8.0) : n * kk * (kk - 1.0);
}

}  // namespace

BlockNewton::BlockNewton(const Dataset& data, bool fused)
    : data_(data), fused_(fused) {
  const DesignView& design = data.design;
  const std::int64_t n = data.nRows();
  double cycleWork = static_cast<double>(n);
  for (const ColumnView& c : design.columns) cycleWork += static_cast<double>(c.nnz) + 1.0;
  for (std::size_t j = 0; j < design.nColumns() && candidates_.size() < kMaxColumns; ++j) {
    const ColumnKind kind = design.columns[j].kind;
    if (kind == ColumnKind::Intercept || kind == ColumnKind::Dense)
      candidates_.push_back(static_cast<std::int32_t>(j));
  }
  // Sparse columns join in small problems, in mostly dense ones up to kMaxColumns
  // (model.matrix() designs, whose 0/1-heavy columns are stored sparse), and wherever every
  // column fits the budget at once (few rows: a spline basis, whose columns are mostly 0 and
  // stored sparse, crossed with a factor, 34 columns on 506 rows: CCD crawled along its
  // near-collinear sparse columns and the per-coordinate certificate passed 1.34 units of
  // log-likelihood short of lm). Not the same rule as admit(): that one sees flat-prior
  // columns only, and only below an eigenvalue of 1e-3; this one also serves penalized
  // columns (a ridge fit of the same basis) and merely correlated ones.
  const std::size_t dense = candidates_.size();
  const std::size_t columns = design.nColumns();
  const double budget = std::max(kSparseCostRatio * cycleWork, kAlwaysBelow);
  const bool allFit = columns <= kMaxColumns && blockCost(columns, n, fused) <= budget;
  if (columns <= kSmallProblem || (columns <= kMaxColumns && 2 * dense >= columns) || allFit) {
    for (std::size_t j = 0; j < design.nColumns(); ++j) {
      const ColumnKind kind = design.columns[j].kind;
      if (kind == ColumnKind::Intercept || kind == ColumnKind::Dense) continue;
      if (blockCost(candidates_.size() + 1, n, fused) > budget) break;
      candidates_.push_back(static_cast<std::int32_t>(j));
    }
    std::sort(candidates_.begin(), candidates_.end());
  }
  cycleWork_ = cycleWork;
  intercept_ = interceptColumn(design);
  chosen_ = candidates_;
  configure();
}

void BlockNewton::restart() {
  if (admitted_) {
    candidates_ = chosen_;
    configure();
    admitted_ = false;
  }
  cycles_ = 0;
}

void BlockNewton::configure() {
  const double cost = blockCost(candidates_.size(), data_.nRows(), fused_);
  const double allowed = kMaxShare * cycleWork_;
  period_ = cost > std::max(allowed, kAlwaysBelow) ? static_cast<int>(std::ceil(cost / allowed)) : 1;
  // Centring (block_newton.h): where an intercept can absorb the shifts.
  shift_.assign(data_.design.nColumns(), 0.0);
  if (fused_ && intercept_ >= 0) shift_ = largeColumnMeans(data_.design, candidates_);
}

void BlockNewton::admit(const std::vector<std::int32_t>& columns) {
  admitted_ = true;
  for (const std::int32_t j : columns) {
    if (candidates_.size() >= kMaxColumns) break;
    if (std::find(candidates_.begin(), candidates_.end(), j) == candidates_.end()) candidates_.push_back(j);
  }
  std::sort(candidates_.begin(), candidates_.end());
  configure();
  // Every cycle where that stays affordable, and from the first one: the per-coordinate
  // certificate does not bound the gap along a nearly collinear direction, so a fit that met
  // its rule before the block's first step (period 6) was certified 1 to 3 units of
  // log-likelihood short (Cox, 2e5 rows, 26 columns with 1 - R^2 down to 3e-12).
  if (blockCost(candidates_.size(), data_.nRows(), fused_) <= kForcedBudget) period_ = 1;
  cycles_ = period_ - 1;
}

std::vector<double> BlockNewton::shiftsFor(const std::vector<std::int32_t>& columns) const {
  std::vector<double> shifts;
  const auto at = std::find(columns.begin(), columns.end(), intercept_);
  if (!fused_ || intercept_ < 0 || at == columns.end()) return shifts;
  shifts.assign(columns.size(), 0.0);
  // Only the columns after the intercept: the step's change of basis needs the intercept's
  // coordinate only.
  for (std::size_t a = static_cast<std::size_t>(at - columns.begin()) + 1; a < columns.size(); ++a)
    shifts[a] = shift_[columns[a]];
  return shifts;
}

namespace {
// out += factor * x_j (a dense vector of one value per row).
void addColumnTo(const Dataset& data, std::int32_t j, double factor, std::vector<double>& out) {
  forEachEntry(data.design.columns[j], data.nRows(), [&](std::int64_t r, double x) { out[r] += factor * x; });
}
}  // namespace

void polarizeHessian(const Likelihood& likelihood, const Dataset& data,
                     const std::vector<std::int32_t>& columns, std::vector<double>* h,
                     std::vector<double>* direction, bool centred) {
  const std::size_t k = columns.size();
  std::vector<double> scale(k);
  for (std::size_t a = 0; a < k; ++a) scale[a] = std::sqrt(-(*h)[a * k + a]);
  // Survival and conditional likelihoods do not change when eta moves by a constant, so the
  // direction is taken about its median: their risk-set variances are second moments less
  // squared means, which a centre far from 0 (age in years: mean/sd ~7) cancels digits of
  // (Cox SEs of two near-collinear ages: 5e-6 -> 1.5e-7 of coxph's). Not the mean: a column
  // of almost no information (a factor level running off to infinity: h ~ 1e-18) enters
  // scaled by 1e9 on its few rows, and its mean moved every other row by 1e8 (the Hessian
  // came out singular); the median stays with the bulk of the rows.
  const bool shiftInvariant = centred && hasStratumBaseline(data.model);
  std::vector<double> sorted;
  auto centre = [&sorted](std::vector<double>* d) {
    sorted = *d;
    const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
    std::nth_element(sorted.begin(), middle, sorted.end());
    const double median = *middle;
    for (double& v : *d) v -= median;
  };
  direction->resize(static_cast<std::size_t>(data.nRows()));
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b < a; ++b) {
      std::fill(direction->begin(), direction->end(), 0.0);
      addColumnTo(data, columns[a], 1.0 / scale[a], *direction);
      addColumnTo(data, columns[b], 1.0 / scale[b], *direction);
      if (shiftInvariant) centre(direction);
      // h(a_a + a_b) = -(1 + 2 C_ab + 1) for unit-curvature directions; H_ab = -C_ab s_a s_b.
      const double c = -0.5 * likelihood.gradHessAlong(*direction).h - 1.0;
      (*h)[a * k + b] = (*h)[b * k + a] = -c * scale[a] * scale[b];
    }
}

void BlockNewton::assemble(Likelihood& likelihood, const std::vector<std::int32_t>& columns,
                           const std::vector<double>& shifts, std::vector<double>* g, std::vector<double>* h) {
  if (fused_) return likelihood.blockGradHess(columns, shifts, g, h);
  const std::size_t k = columns.size();
  g->assign(k, 0.0);
  h->assign(k * k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    const GradHess gh = likelihood.gradHess(columns[a]);
    (*g)[a] = gh.g;
    (*h)[a * k + a] = gh.h;
  }
}

void BlockNewton::moveTo(Likelihood& likelihood, const std::vector<std::int32_t>& columns,
                         const std::vector<double>& target, std::vector<double>* applied) {
  direction_.assign(static_cast<std::size_t>(data_.nRows()), 0.0);
  for (std::size_t a = 0; a < columns.size(); ++a)
    if (target[a] != (*applied)[a]) addColumnTo(data_, columns[a], target[a] - (*applied)[a], direction_);
  likelihood.stepAlong(direction_, 1.0);
  *applied = target;
}

bool BlockNewton::step(Likelihood& likelihood, CycleState& state) {
  if (candidates_.size() < 2 || !likelihood.supportsDirection()) return false;
  if (++cycles_ % period_ != 0) return false;
  Block block;
  if (!formBlock(likelihood, state, &block)) return false;
  const std::size_t k = block.columns.size();
  std::vector<double> start(k);  // beta in the data's basis
  for (std::size_t a = 0; a < k; ++a) start[a] = state.beta[block.columns[a]];
  const BlockModel model = modelOf(block, state, start);
  for (const double v : model.m)
    if (!std::isfinite(v)) return false;
  const BlockModelSolution solution = solveBlockModel(model, kStepTolerance);
  if (!(solution.gain > 0.0)) return false;
  // Back to the data's basis: delta_0 = delta~_0 - sum_j c_j delta~_j (the others unchanged).
  std::vector<double> delta = solution.delta;
  if (block.centre >= 0)
    for (std::size_t b = 0; b < k; ++b) delta[block.centre] -= block.shift[b] * solution.delta[b];
  return searchLine(likelihood, state, block, start, delta, solution.linearGain);
}

// The free candidates with curvature, their g and H (polarized where the likelihood does not
// fuse it), in the centred basis where the intercept's prior is flat: its coordinate then
// takes up the shifts (beta~_0 = beta_0 + sum_j c_j beta_j) without a prior term to carry.
bool BlockNewton::formBlock(Likelihood& likelihood, const CycleState& state, Block* block) {
  std::vector<std::int32_t> free;
  for (const std::int32_t j : candidates_)
    if (!state.fixed[j]) free.push_back(j);
  if (free.size() < 2) return false;
  std::vector<double> shifts;
  if (intercept_ >= 0 && state.prior[intercept_].kind == PriorKind::None) shifts = shiftsFor(free);
  std::vector<double> g, h;
  assemble(likelihood, free, shifts, &g, &h);
  // Coordinates without curvature cannot be placed by a Newton step.
  const std::size_t kf = free.size();
  std::vector<std::size_t> pick;
  auto pickCurved = [&] {
    pick.clear();
    for (std::size_t a = 0; a < kf; ++a)
      if (h[a * kf + a] < 0.0 && std::isfinite(h[a * kf + a]) && std::isfinite(g[a])) pick.push_back(a);
  };
  pickCurved();
  const auto interceptAt = [&]() -> std::ptrdiff_t {
    for (std::size_t a = 0; a < pick.size(); ++a)
      if (free[pick[a]] == intercept_) return static_cast<std::ptrdiff_t>(a);
    return -1;
  };
  if (!shifts.empty() && interceptAt() < 0) {  // an intercept without curvature: no basis change
    shifts.clear();
    assemble(likelihood, free, shifts, &g, &h);
    pickCurved();
  }
  const std::size_t k = pick.size();
  if (k < 2) return false;
  block->centre = shifts.empty() ? -1 : interceptAt();
  block->shift.assign(k, 0.0);  // c_a of the picked columns (0 where not centred)
  if (block->centre >= 0)
    for (std::size_t a = 0; a < k; ++a) block->shift[a] = shifts[pick[a]];
  block->columns.resize(k);
  block->g.resize(k);
  block->h.resize(k * k);
  for (std::size_t a = 0; a < k; ++a) {
    block->columns[a] = free[pick[a]];
    block->g[a] = g[pick[a]];
    for (std::size_t b = 0; b < k; ++b) block->h[a * k + b] = h[pick[a] * kf + pick[b]];
  }
  if (!fused_) polarizeHessian(likelihood, data_, block->columns, &block->h, &direction_, /*centred=*/false);
  return true;
}

// The penalized quadratic model (block_model.h): smooth priors in c and M, Laplace exact.
BlockModel BlockNewton::modelOf(const Block& block, const CycleState& state, const std::vector<double>& start) const {
  const std::size_t k = block.columns.size();
  BlockModel model;
  model.m.resize(k * k);
  model.c.resize(k);
  model.beta.resize(k);
  model.lambda.assign(k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    const CoordinatePrior& p = state.prior[block.columns[a]];
    model.beta[a] = start[a];
    if (static_cast<std::ptrdiff_t>(a) == block.centre)
      for (std::size_t b = 0; b < k; ++b) model.beta[a] += block.shift[b] * start[b];
    for (std::size_t b = 0; b < k; ++b) model.m[a * k + b] = -block.h[a * k + b];
    if (p.kind == PriorKind::Laplace) {
      model.lambda[a] = laplaceLambda(p.variance);
      model.c[a] = block.g[a];
    } else {
      const PriorSlope prior = priorSlope(model.beta[a], p, 0.0);
      model.c[a] = block.g[a] + prior.gradient;
      model.m[a * k + a] += prior.curvature;
    }
  }
  return model;
}

// A backtracking search from beta to beta + delta. Along the segment no Laplace coordinate
// changes sign (the model stops them at 0), so the log posterior is smooth on it.
bool BlockNewton::searchLine(Likelihood& likelihood, CycleState& state, const Block& block,
                             const std::vector<double>& start, const std::vector<double>& delta,
                             double linearGain) {
  const std::vector<std::int32_t>& columns = block.columns;
  const std::size_t k = columns.size();
  double alpha = 1.0;
  std::vector<double> target(k), applied = start;
  auto logPriorAt = [&](double at) {
    double sum = 0.0;
    for (std::size_t a = 0; a < k; ++a) {
      target[a] = at == 1.0 ? start[a] + delta[a] : start[a] + at * delta[a];
      sum += logPriorDensity(target[a], state.prior[columns[a]]);
    }
    return sum;
  };
  savedEta_ = likelihood.eta();
  const double before = likelihood.logLikelihood() + logPriorAt(0.0);
  // Differences below this are rounding: near the optimum a Newton step gains less than it,
  // and it is taken whole (the quadratic model is then exact to far better than the noise).
  const double noise = 1e-12 * (1.0 + std::fabs(before));
  for (int attempt = 0; attempt < 40; ++attempt, alpha *= 0.5) {
    const double logPrior = logPriorAt(alpha);
    // Each try moves from the saved eta, not from the last try: where every row is saturated
    // (logistic, after a poor start) the block's curvature is nearly 0, the Newton step was
    // 1e23 long, and halving back through eta of 1e17 by differences left eta 1e-3 away
    // from X beta (the fit then certified a point that was not its beta).
    if (attempt > 0) {
      likelihood.setEta(savedEta_);
      applied = start;
    }
    moveTo(likelihood, columns, target, &applied);
    const double after = likelihood.logLikelihood() + logPrior;
    if (std::isfinite(after) && after >= before + 1e-4 * alpha * linearGain - noise) {
      for (std::size_t a = 0; a < k; ++a) state.beta[columns[a]] = target[a];
      likelihood.refreshSums();
      return true;
    }
  }
  likelihood.setEta(savedEta_);
  return false;
}

}  // namespace argus
