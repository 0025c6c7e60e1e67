#include "solver/block_newton.h"

#include <algorithm>
#include <cmath>

#include "solver/dense_block.h"

namespace argus {

namespace {

// The block's cost in row operations: one pass over the rows per pair of its columns.
double blockCost(std::size_t columns, std::int64_t rows) {
  return 0.5 * static_cast<double>(columns) * static_cast<double>(columns + 1) *
         static_cast<double>(rows);
}

// d log p / d beta away from the Laplace kink, and the prior's curvature -d2 log p.
double priorGradient(double beta, const CoordinatePrior& p) {
  if (p.kind == PriorKind::Normal) return -beta / p.variance;
  if (p.kind == PriorKind::Laplace && beta != 0.0)
    return beta > 0.0 ? -laplaceLambda(p.variance) : laplaceLambda(p.variance);
  return 0.0;
}
double priorCurvature(const CoordinatePrior& p) {
  return p.kind == PriorKind::Normal ? 1.0 / p.variance : 0.0;
}

}  // namespace

BlockNewton::BlockNewton(const Dataset& data) : data_(data) {
  const DesignView& design = data.design;
  const std::int64_t n = data.nRows();
  double cycleWork = static_cast<double>(n);
  for (const ColumnView& c : design.columns) cycleWork += static_cast<double>(c.nnz) + 1.0;
  for (std::size_t j = 0; j < design.nColumns() && candidates_.size() < kMaxColumns; ++j) {
    const ColumnKind kind = design.columns[j].kind;
    if (kind == ColumnKind::Intercept || kind == ColumnKind::Dense)
      candidates_.push_back(static_cast<std::int32_t>(j));
  }
  if (design.nColumns() <= kMaxColumns) {
    const double budget = std::max(kSparseCostRatio * cycleWork, 1048576.0);
    for (std::size_t j = 0; j < design.nColumns(); ++j) {
      const ColumnKind kind = design.columns[j].kind;
      if (kind == ColumnKind::Intercept || kind == ColumnKind::Dense) continue;
      if (blockCost(candidates_.size() + 1, n) > budget) break;
      candidates_.push_back(static_cast<std::int32_t>(j));
    }
    std::sort(candidates_.begin(), candidates_.end());
  }
}

void BlockNewton::addColumn(std::int32_t j, double factor, std::vector<double>& out) const {
  forEachEntry(data_.design.columns[j], data_.nRows(),
               [&](std::int64_t r, double x) { out[r] += factor * x; });
}

std::vector<double> BlockNewton::normalizedHessian(Likelihood& likelihood,
                                                   const std::vector<std::int32_t>& columns,
                                                   const std::vector<double>& scale) {
  const std::size_t k = columns.size();
  std::vector<double> c(k * k, 0.0);
  direction_.resize(static_cast<std::size_t>(data_.nRows()));
  for (std::size_t a = 0; a < k; ++a) {
    c[a * k + a] = 1.0;
    for (std::size_t b = 0; b < a; ++b) {
      std::fill(direction_.begin(), direction_.end(), 0.0);
      addColumn(columns[a], 1.0 / scale[a], direction_);
      addColumn(columns[b], 1.0 / scale[b], direction_);
      // h(a_a + a_b) = -(1 + 2 C_ab + 1) for unit-normalized directions.
      const double h = likelihood.gradHessAlong(direction_).h;
      c[a * k + b] = c[b * k + a] = -0.5 * h - 1.0;
    }
  }
  return c;
}

bool BlockNewton::step(Likelihood& likelihood, CycleState& state) {
  if (candidates_.size() < 2 || !likelihood.supportsDirection()) return false;
  std::vector<std::int32_t> columns;
  std::vector<double> scale, rhs, curvature;
  for (const std::int32_t j : candidates_) {
    const CoordinatePrior& p = state.prior[j];
    if (state.fixed[j] || (p.kind == PriorKind::Laplace && state.beta[j] == 0.0)) continue;
    const GradHess gh = likelihood.gradHess(j);
    if (!(gh.h < 0.0) || !std::isfinite(gh.g) || !std::isfinite(gh.h)) continue;
    const double s = std::sqrt(-gh.h);
    columns.push_back(j);
    scale.push_back(s);
    rhs.push_back((gh.g + priorGradient(state.beta[j], p)) / s);
    curvature.push_back(priorCurvature(p) / (s * s));
  }
  const std::size_t k = columns.size();
  if (k < 2) return false;
  std::vector<double> c = normalizedHessian(likelihood, columns, scale);
  for (std::size_t a = 0; a < k; ++a) c[a * k + a] += curvature[a];
  for (const double v : c)
    if (!std::isfinite(v)) return false;
  const std::vector<double> z = solveFactored(factorSkippingAliased(c, k, kAliasTolerance), rhs);

  std::vector<double> delta(k);
  double slope = 0.0;  // derivative of the log posterior along delta
  for (std::size_t a = 0; a < k; ++a) {
    delta[a] = z[a] / scale[a];
    slope += rhs[a] * z[a];
  }
  if (!(slope > 0.0)) return false;
  // Stop where the first nonzero Laplace coordinate reaches 0: beyond, its prior has a kink.
  double alphaMax = 1.0;
  std::size_t limiting = k;
  for (std::size_t a = 0; a < k; ++a) {
    const double beta = state.beta[columns[a]];
    if (state.prior[columns[a]].kind != PriorKind::Laplace || !(beta * delta[a] < 0.0)) continue;
    if (-beta / delta[a] < alphaMax) {
      alphaMax = -beta / delta[a];
      limiting = a;
    }
  }

  direction_.assign(static_cast<std::size_t>(data_.nRows()), 0.0);
  for (std::size_t a = 0; a < k; ++a) addColumn(columns[a], delta[a], direction_);
  if (!likelihood.quadratic()) {
    double reach = 0.0;
    for (const double d : direction_) reach = std::fmax(reach, std::fabs(d));
    if (reach * alphaMax > kMaxEtaStep) {
      alphaMax = kMaxEtaStep / reach;
      limiting = k;
    }
  }
  auto logPrior = [&](double alpha) {
    double sum = 0.0;
    for (std::size_t a = 0; a < k; ++a) {
      const double beta = (a == limiting && alpha == alphaMax)
                              ? 0.0
                              : state.beta[columns[a]] + alpha * delta[a];
      sum += logPriorDensity(beta, state.prior[columns[a]]);
    }
    return sum;
  };
  savedEta_ = likelihood.eta();
  const double before = likelihood.logLikelihood() + logPrior(0.0);
  // Differences below this are rounding: near the optimum a Newton step gains less than it,
  // and it is taken whole (the quadratic model is then exact to far better than the noise).
  const double noise = 1e-12 * (1.0 + std::fabs(before));
  double alpha = alphaMax, applied = 0.0;
  for (int attempt = 0; attempt < 40; ++attempt) {
    likelihood.stepAlong(direction_, alpha - applied);
    applied = alpha;
    const double after = likelihood.logLikelihood() + logPrior(alpha);
    if (std::isfinite(after) && after >= before + 1e-4 * alpha * slope - noise) {
      for (std::size_t a = 0; a < k; ++a)
        state.beta[columns[a]] = (a == limiting && alpha == alphaMax)
                                     ? 0.0
                                     : state.beta[columns[a]] + alpha * delta[a];
      likelihood.refreshSums();
      return true;
    }
    alpha *= 0.5;
  }
  likelihood.setEta(savedEta_);
  return false;
}

std::vector<std::int32_t> BlockNewton::aliased(Likelihood& likelihood,
                                               const std::vector<std::int32_t>& columns) {
  std::vector<std::int32_t> out, informative;
  std::vector<double> scale;
  for (const std::int32_t j : columns) {
    const GradHess gh = likelihood.gradHess(j);
    if (!(gh.h < 0.0) || !std::isfinite(gh.h)) {
      out.push_back(j);
      continue;
    }
    informative.push_back(j);
    scale.push_back(std::sqrt(-gh.h));
  }
  if (informative.size() >= 2 && likelihood.supportsDirection()) {
    const std::vector<double> c = normalizedHessian(likelihood, informative, scale);
    const BlockFactor f = factorSkippingAliased(c, informative.size(), kAliasTolerance);
    for (std::size_t a = 0; a < informative.size(); ++a)
      if (f.aliased[a]) out.push_back(informative[a]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace argus
