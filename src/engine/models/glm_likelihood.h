// Likelihood of the independent-row GLMs (ls, lr, pr), parameterized by a row functor from
// glm_functors.h.
//
// The intercept is a lazy shift. Row r stores eta_r - shift and exp(eta_r - shift); a step on
// an intercept column changes only `shift` and exp(shift), O(1). A column's g_j, h_j evaluate
// the row functor on the fly at the current shift (one division per nonzero for logistic),
// so nothing cached goes stale when the intercept moves, and a step on column j touches only
// its nonzero rows: O(nnz_j) for g, h and the step.
//
// The intercept's exact g, h are one read-only O(N) pass. Its running estimate
// (gradHessEstimate, O(1)) is the sums G = sum_r resid_r, C = sum_r curv_r, S = sum_r slope_r
// kept up to date by Taylor expansion: a step delta on column j moves them by
// -delta (sum x curv + delta/2 sum x^2 slope) and delta sum x slope, with the sums over
// column j taken by the gradHess(j) call that chose the step; an intercept step moves them by
// -delta (C + delta/2 S) and delta S. The estimate is exact after reset() and refreshSums(),
// and is recomputed exactly (O(N)) once the intercept has moved kExactAfter in total since, or
// after a column step larger than kExactStep. Least squares has S = 0 and exact updates.
//
// Memory layout sets the speed: each row is one 32-byte record (half a cache line), so a
// coordinate's gradient pass and the step that follows touch one line per nonzero; the
// gradient pass prefetches the rows a few entries ahead (rows are increasing but irregular,
// which hardware prefetchers do not follow).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "models/glm_functors.h"
#include "models/likelihood.h"

namespace argus {

struct alignas(32) GlmRowState {
  double expEta;  // exp(eta - shift); unused by models without exp
  double eta;     // eta - shift
  double wy, wt;  // w * y, w * exposure
};

template <typename Row>
class GlmLikelihood final : public Likelihood {
 public:
  GlmLikelihood(const Dataset& data, const double* weights)
      : Likelihood(data, weights), rows_(static_cast<std::size_t>(data.nRows())) {
    for (std::int64_t r = 0; r < nRows(); ++r) {
      rows_[r].wy = weight(r) * data.outcomes.y[r];
      rows_[r].wt = weight(r) * exposure(r);
    }
  }

  GradHess gradHess(std::size_t j) const override {
    if (isIntercept(j)) {
      const InterceptSums s = interceptSums();
      return {s.g, -s.curv};
    }
    const ColumnView& c = column(j);
    ColumnSums sums;
    switch (c.kind) {
      case ColumnKind::Indicator: sums = sumColumn<true>(c.rows, nullptr, c.nnz); break;
      case ColumnKind::Sparse: sums = sumColumn<false>(c.rows, c.values, c.nnz); break;
      default: sums = sumColumn<false>(nullptr, c.values, nRows()); break;  // dense
    }
    sums.column = j;
    sums.steps = steps_;
    last_ = sums;
    return {sums.g, sums.h};
  }

  bool tracksGradHess(std::size_t j) const override { return isIntercept(j); }

  GradHess gradHessEstimate(std::size_t j) const override {
    if (!isIntercept(j)) return gradHess(j);
    if (trackedStale_) {
      tracked_ = interceptSums();
      trackedStale_ = false;
      drift_ = 0.0;
    }
    return {tracked_.g, -tracked_.curv};
  }

  void applyStep(std::size_t j, double delta) override {
    if (isIntercept(j)) {
      ++steps_;
      shift_ += delta;
      expShift_ = Row::kUsesExp ? std::exp(shift_) : 1.0;
      tracked_.g -= delta * (tracked_.curv + 0.5 * delta * tracked_.slope);
      tracked_.curv += delta * tracked_.slope;
      drift_ += std::fabs(delta);
      if (drift_ > kExactAfter) trackedStale_ = true;
      return;
    }
    // The column sums of the gradHess(j) call that chose this step, or fresh ones.
    if (last_.column != j || last_.steps != steps_) gradHess(j);
    ++steps_;
    tracked_.g -= delta * (last_.xCurv + 0.5 * delta * last_.x2Slope);
    tracked_.curv += delta * last_.xSlope;
    if (std::fabs(delta) > kExactStep) trackedStale_ = true;

    const double unitFactor = Row::kUsesExp ? std::exp(delta) : 1.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      GlmRowState& s = rows_[r];
      const double change = delta * x;
      s.eta += change;
      if (Row::kUsesExp) s.expEta *= (x == 1.0) ? unitFactor : std::exp(change);
    });
  }

  // Folds the shift into the rows (keeps exp(eta - shift) well scaled), publishes eta and
  // recomputes the intercept's running sums exactly.
  void refreshSums() override {
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      s.eta += shift_;
      if (Row::kUsesExp) s.expEta *= expShift_;
      eta_[r] = s.eta;
    }
    shift_ = 0.0;
    expShift_ = 1.0;
    resetTracking();
  }

  double logLikelihood() const override {
    double sum = 0.0;
    for (std::int64_t r = 0; r < nRows(); ++r)
      sum += row_.logLik(rows_[r].eta + shift_, data_.outcomes.y[r], weight(r), exposure(r));
    return sum;
  }

  // Least squares: the weighted mean squared residual (floored at 1e-16 of the weighted mean
  // of y^2, so that an exact fit does not divide rounding noise by zero). Others: 1.
  double dispersion() const override {
    if constexpr (!Row::kEstimatesDispersion) {
      return 1.0;
    } else {
      double rss = 0.0, weight = 0.0, squares = 0.0;
      for (std::int64_t r = 0; r < nRows(); ++r) {
        const double w = this->weight(r), y = data_.outcomes.y[r];
        const double e = y - (rows_[r].eta + shift_);
        rss += w * e * e;
        squares += w * y * y;
        weight += w;
      }
      if (!(weight > 0.0)) return 1.0;
      return std::fmax(rss, 1e-16 * squares + 1e-300) / weight;
    }
  }

  // A direction is a dense column: the same sums as gradHess(j), and a step that moves every
  // row (the intercept's running sums are then recomputed when next needed).
  bool supportsDirection() const override { return true; }
  // GLM coordinates interact only through shared rows; the intercept follower and the block
  // step take the strong couplings. Extrapolation cost 14% more time on bench/cpp/lr_bench
  // (1e5 x 1000: 0.141 against 0.124 s) for the same cycles.
  bool extrapolatesCycles() const override { return false; }
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    const ColumnSums sums = sumColumn<false>(nullptr, d.data(), nRows());
    return {sums.g, sums.h};
  }
  // One pass over the rows (RowReader): each row's block values, its derivatives once, then
  // the products of its nonzero values. O(N k + sum over rows of (nonzeros in the block)^2).
  bool fusesBlockHessian() const override { return true; }
  void blockGradHess(const std::vector<std::int32_t>& columns, std::vector<double>* g,
                     std::vector<double>* h) const override {
    const std::size_t k = columns.size();
    g->assign(k, 0.0);
    h->assign(k * k, 0.0);
    RowReader reader(data_.design, columns);
    std::vector<double> row(k), x(k);
    std::vector<std::size_t> at(k);
    for (std::int64_t r = 0; r < nRows(); ++r) {
      reader.read(r, row.data());
      std::size_t n = 0;
      for (std::size_t a = 0; a < k; ++a) {
        if (row[a] == 0.0) continue;
        x[n] = row[a];
        at[n++] = a;
      }
      if (n == 0) continue;
      const RowDerivatives d = derivatives(rows_[r]);
      for (std::size_t i = 0; i < n; ++i) {
        (*g)[at[i]] += x[i] * d.resid;
        const double xc = x[i] * d.curv;
        for (std::size_t m = 0; m <= i; ++m) (*h)[at[i] * k + at[m]] -= xc * x[m];
      }
    }
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < a; ++b) (*h)[b * k + a] = (*h)[a * k + b];
  }

  void stepAlong(const std::vector<double>& d, double alpha) override {
    ++steps_;
    trackedStale_ = true;
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      const double change = alpha * d[r];
      s.eta += change;
      if (Row::kUsesExp) s.expEta *= std::exp(change);
    }
  }

 private:
  // Recompute the intercept's running sums exactly after this much total intercept
  // movement (the Taylor error grows as its cube: ~0.2% of C at 0.2), or after a single
  // column step of this size. On bench/cpp this means ~20 O(N) passes in a fit, nearly all in
  // the first cycle; 0.05 made it ~60 for the same cycles and result.
  static constexpr double kExactAfter = 0.2;
  static constexpr double kExactStep = 0.5;
  // Rows prefetched ahead of the gradient pass: a third off the pass in a micro-benchmark;
  // distances from 16 to 128 measured alike.
  static constexpr std::int64_t kPrefetch = 32;

  struct InterceptSums {
    double g = 0.0;      // sum_r resid_r
    double curv = 0.0;   // sum_r curv_r
    double slope = 0.0;  // sum_r slope_r
  };
  // Sums of the last gradHess() call: g, h, and those for the Taylor update of the
  // intercept's sums (sum x curv, sum x slope, sum x^2 slope).
  struct ColumnSums {
    std::size_t column = static_cast<std::size_t>(-1);
    std::uint64_t steps = 0;  // steps_ at that call
    double g = 0.0, h = 0.0, xCurv = 0.0, xSlope = 0.0, x2Slope = 0.0;
  };

  bool isIntercept(std::size_t j) const { return column(j).kind == ColumnKind::Intercept; }

  RowDerivatives derivatives(const GlmRowState& s) const {
    return row_.derivatives(s.eta + shift_, s.expEta * expShift_, s.wy, s.wt);
  }

  // g, h and the tracking sums over one column: `rows` = nullptr for a dense column (then
  // `values` has one entry per row), `values` = nullptr for an indicator column. Written
  // with local accumulators (a lambda capturing them by reference kept them in memory) and
  // a prefetch kPrefetch entries ahead.
  template <bool kIndicator>
  ColumnSums sumColumn(const std::int32_t* rows, const double* values, std::int64_t n) const {
    const GlmRowState* state = rows_.data();
    double g = 0.0, curv = 0.0, slope = 0.0, x2Curv = 0.0, x2Slope = 0.0;
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t r = rows ? rows[k] : k;
      if (rows && k + kPrefetch < n) prefetch(state + rows[k + kPrefetch]);
      const RowDerivatives d = derivatives(state[r]);
      if (kIndicator) {
        g += d.resid;
        curv += d.curv;
        slope += d.slope;
      } else {
        const double x = values[k];
        g += x * d.resid;
        curv += x * d.curv;
        slope += x * d.slope;
        x2Curv += x * x * d.curv;
        x2Slope += x * x * d.slope;
      }
    }
    ColumnSums out;
    out.g = g;
    out.h = kIndicator ? -curv : -x2Curv;
    out.xCurv = curv;
    out.xSlope = slope;
    out.x2Slope = kIndicator ? slope : x2Slope;
    return out;
  }

  static void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
  }

  InterceptSums interceptSums() const {
    InterceptSums sums;
    for (std::int64_t r = 0; r < nRows(); ++r) {
      const RowDerivatives d = derivatives(rows_[r]);
      sums.g += d.resid;
      sums.curv += d.curv;
      sums.slope += d.slope;
    }
    return sums;
  }

  void resetTracking() {
    tracked_ = interceptSums();
    trackedStale_ = false;
    drift_ = 0.0;
    last_ = ColumnSums{};
  }

  void rebuildFromEta() override {
    shift_ = 0.0;
    expShift_ = 1.0;
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      s.eta = eta_[r];
      s.expEta = Row::kUsesExp ? std::exp(eta_[r]) : 0.0;
    }
    resetTracking();
  }

  Row row_;
  std::vector<GlmRowState> rows_;
  double shift_ = 0.0;
  double expShift_ = 1.0;
  std::uint64_t steps_ = 0;
  // The intercept's running sums; gradHessEstimate() recomputes them when stale. These and
  // last_ are caches written by const calls: a likelihood belongs to one fit (one thread).
  mutable InterceptSums tracked_;
  mutable bool trackedStale_ = false;
  mutable double drift_ = 0.0;  // total |intercept step| since tracked_ was exact
  mutable ColumnSums last_;
};

}  // namespace argus
