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

#include "common/double_pair.h"
#include "models/glm_block_hessian.h"
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
      const GlmColumnSums s = interceptSums();
      return glmGradHess(s.g, s.curv);
    }
    const ColumnView& c = column(j);
    GlmColumnSums sums;
    switch (c.kind) {
      case ColumnKind::Indicator: sums = sumColumn<true>(c.rows, nullptr, c.nnz); break;
      case ColumnKind::Sparse: sums = sumColumn<false>(c.rows, c.values, c.nnz); break;
      default: sums = sumColumn<false>(nullptr, c.values, nRows()); break;  // dense
    }
    last_.sums = sums;
    last_.column = j;
    last_.steps = steps_;
    return glmGradHess(sums.g, sums.x2Curv);
  }

  bool tracksGradHess(std::size_t j) const override { return isIntercept(j); }

  GradHess gradHessEstimate(std::size_t j) const override {
    if (!isIntercept(j)) return gradHess(j);
    if (tracked_.stale) tracked_.setExact(interceptSums());
    return glmGradHess(tracked_.g, tracked_.curv);
  }

  void applyStep(std::size_t j, double delta) override {
    if (isIntercept(j)) {
      ++steps_;
      shift_ += delta;
      expShift_ = Row::kUsesExp ? std::exp(shift_) : 1.0;
      tracked_.interceptStep(delta);
      return;
    }
    // The column sums of the gradHess(j) call that chose this step, or fresh ones.
    if (last_.column != j || last_.steps != steps_) gradHess(j);
    ++steps_;
    tracked_.columnStep(last_.sums, delta);

    const double unitFactor = Row::kUsesExp ? std::exp(delta) : 1.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      moveGlmRow<Row::kUsesExp>(rows_[r].eta, rows_[r].expEta, x, delta, unitFactor);
    });
  }

  // Folds the shift into the rows (keeps exp(eta - shift) well scaled), publishes eta and
  // recomputes the intercept's running sums exactly, in one pass over the rows: each row's
  // derivatives at shift 0 once it is folded, summed in row order (interceptSums() sums the
  // same terms in pairs: the two agree to rounding).
  void refreshSums() override {
    GlmColumnSums sums;
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      foldGlmShift<Row::kUsesExp>(s.eta, s.expEta, shift_, expShift_);
      eta_[r] = s.eta;
      addInterceptTerms(&sums, glmRowDerivatives(row_, s.eta, s.expEta, s.wy, s.wt));
    }
    shift_ = 0.0;
    expShift_ = 1.0;
    tracked_.setExact(sums);
    last_ = LastColumn{};
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
      ResidualSquares sum;
      for (std::int64_t r = 0; r < nRows(); ++r)
        sum = ResidualSquaresPlus{}(sum, residualSquares(data_.outcomes.y[r], rows_[r].eta + shift_, weight(r)));
      return leastSquaresDispersion(sum.rss, sum.squares, sum.weight);
    }
  }

  // A direction is a dense column: the same sums as gradHess(j), and a step that moves every
  // row (the intercept's running sums are then recomputed when next needed).
  bool supportsDirection() const override { return true; }
  // GLM coordinates interact through shared rows and the intercept: with many strong
  // effects (the shared simulator's lr design: 200 of 1000 at sd 1, prevalence 0.2) every
  // cycle moved all of them along nearly the same direction, shrunken by 0.65 (31 cycles).
  bool extrapolatesCycles() const override { return true; }
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    const GlmColumnSums sums = sumColumn<false>(nullptr, d.data(), nRows());
    return glmGradHess(sums.g, sums.x2Curv);
  }
  // Logistic: sum_r w_r |d_r|^3 sqrt(3) / 18; least squares: 0; Poisson: none.
  double thirdDerivativeBoundAlong(const std::vector<double>& d) const override {
    if (!std::isfinite(Row::kThirdDerivativeScale)) return INFINITY;
    if (Row::kThirdDerivativeScale == 0.0) return 0.0;
    double cubes = 0.0;
    for (std::int64_t r = 0; r < nRows(); ++r) cubes += rows_[r].wt * std::fabs(d[r] * d[r] * d[r]);
    return Row::kThirdDerivativeScale * cubes;
  }
  // One pass over the rows (RowReader): each row's block values, its derivatives once, then
  // the products of its nonzero values. O(N k + sum over rows of (nonzeros in the block)^2).
  bool fusesBlockHessian() const override { return true; }
  void blockGradHess(const std::vector<std::int32_t>& columns, const std::vector<double>& shifts,
                     std::vector<double>* g, std::vector<double>* h) const override {
    glmBlockGradHess(data_.design, columns, shifts, [&](std::int64_t r) { return derivatives(rows_[r]); },
                     g, h);
  }

  void stepAlong(const std::vector<double>& d, double alpha) override {
    ++steps_;
    tracked_.stale = 1;
    const double unitFactor = Row::kUsesExp ? std::exp(alpha) : 1.0;
    for (std::int64_t r = 0; r < nRows(); ++r)
      moveGlmRow<Row::kUsesExp>(rows_[r].eta, rows_[r].expEta, d[r], alpha, unitFactor);
  }
  // Each row's gain summed as it moves (glmRowGain): engine lr 1e5 x 1000, the extrapolation's
  // two log-likelihoods were ~12% of a fit's samples (exp and log1p per row each).
  double stepAlongGain(const std::vector<double>& d, double alpha) override {
    ++steps_;
    tracked_.stale = 1;
    const double unitFactor = Row::kUsesExp ? std::exp(alpha) : 1.0;
    double gain = 0.0;
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      gain += moveGlmRowWithGain(row_, s.eta, s.expEta, shift_, expShift_, s.wy, s.wt, d[r], alpha, unitFactor);
    }
    refreshSums();
    return gain;
  }

 private:
  // Rows prefetched ahead of the gradient pass: a third off the pass in a micro-benchmark;
  // distances from 16 to 128 measured alike.
  static constexpr std::int64_t kPrefetch = 32;

  // The sums of the last gradHess() call, for the Taylor update of the intercept's sums.
  struct LastColumn {
    std::size_t column = static_cast<std::size_t>(-1);
    std::uint64_t steps = 0;  // steps_ at that call
    GlmColumnSums sums;
  };

  bool isIntercept(std::size_t j) const { return column(j).kind == ColumnKind::Intercept; }

  RowDerivatives derivatives(const GlmRowState& s) const {
    return glmRowDerivatives(row_, s.eta + shift_, s.expEta * expShift_, s.wy, s.wt);
  }

  // g, h and the tracking sums over one column: `rows` = nullptr for a dense column (then
  // `values` has one entry per row), `values` = nullptr for an indicator column. Written
  // with local accumulators (a lambda capturing them by reference kept them in memory) and
  // a prefetch kPrefetch entries ahead. Entries go two at a time through the row functor
  // on a DoublePair (common/double_pair.h; engine lr 1e5 x 1000: 26.7 -> 22.9 ms per cycle,
  // the logistic division being the scan's cost beyond memory), even and odd entries summed
  // apart and added at the end, the odd last entry in the scalar loop.
  template <bool kIndicator>
  GlmColumnSums sumColumn(const std::int32_t* rows, const double* values, std::int64_t n) const {
    const GlmRowState* state = rows_.data();
    double g = 0.0, curv = 0.0, slope = 0.0, x2Curv = 0.0, x2Slope = 0.0;
    std::int64_t k = 0;
#if ARGUS_DOUBLE_PAIR
    DoublePair pg = {0.0, 0.0}, pCurv = pg, pSlope = pg, pX2Curv = pg, pX2Slope = pg;
    for (; k + 1 < n; k += 2) {
      if (rows && k + kPrefetch + 1 < n) {
        prefetch(state + rows[k + kPrefetch]);
        prefetch(state + rows[k + kPrefetch + 1]);
      }
      const GlmRowState& a = state[rows ? rows[k] : k];
      const GlmRowState& b = state[rows ? rows[k + 1] : k + 1];
      const RowDerivativesOf<DoublePair> d = row_.template derivativesOf<DoublePair>(
          DoublePair{a.eta + shift_, b.eta + shift_},
          DoublePair{Row::boundExp(a.expEta * expShift_), Row::boundExp(b.expEta * expShift_)},
          DoublePair{a.wy, b.wy}, DoublePair{a.wt, b.wt});
      if (kIndicator) {
        pg += d.resid;
        pCurv += d.curv;
        pSlope += d.slope;
      } else {
        const DoublePair x = {values[k], values[k + 1]};
        pg += x * d.resid;
        pCurv += x * d.curv;
        pSlope += x * d.slope;
        pX2Curv += x * x * d.curv;
        pX2Slope += x * x * d.slope;
      }
    }
    g = laneSum(pg);
    curv = laneSum(pCurv);
    slope = laneSum(pSlope);
    x2Curv = laneSum(pX2Curv);
    x2Slope = laneSum(pX2Slope);
#endif
    for (; k < n; ++k) {
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
    // x = 1: x^2 curv and x^2 slope are curv and slope (glmEntrySums gives the same bits).
    GlmColumnSums out;
    out.g = g;
    out.curv = curv;
    out.slope = slope;
    out.x2Curv = kIndicator ? curv : x2Curv;
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

  // The intercept's exact sums: its column is 1 on every row, so the paired indicator scan
  // over all rows (g, curv, slope; the x^2 sums equal curv and slope).
  GlmColumnSums interceptSums() const { return sumColumn<true>(nullptr, nullptr, nRows()); }

  // One row's share of the intercept's sums (refreshSums(), row order).
  static void addInterceptTerms(GlmColumnSums* sums, const RowDerivatives& d) {
    sums->g += d.resid;
    sums->curv += d.curv;
    sums->slope += d.slope;
  }

  void resetTracking() {
    tracked_.setExact(interceptSums());
    last_ = LastColumn{};
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
  mutable InterceptTracking tracked_;
  mutable LastColumn last_;
};

}  // namespace argus
