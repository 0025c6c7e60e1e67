// Formulas of the exact conditional logistic likelihood (clr, ties = "exact"), written once.
//
// A stratum s with n cases among m rows contributes
//   L_s = w_s [sum_{cases} eta_r - log B_s],   B_s = sum_{|S| = n} prod_{r in S} u_r,
// u_r = w_s exp(eta_r): B_s is the elementary symmetric polynomial of degree n of the u's
// (every way of choosing n cases among the m rows). With w_s constant in the stratum, the
// u's carry w_s^n into B_s, a constant; so B_s with u = w exp(eta) gives the same
// derivatives as with exp(eta), and for n = 1 the term is exactly Breslow's.
//
// B(k, i), the degree-k polynomial of the first i rows, follows
//   B(k, i) = B(k, i-1) + u_i B(k-1, i-1),   B(0, i) = 1,
// and its derivatives along coordinate j (x_i = x_ij, 0 where the column has no entry) follow
// by differentiating that line (d u_i / d beta_j = u_i x_i):
//   B'(k, i)  = B'(k, i-1)  + u_i (x_i B(k-1, i-1) + B'(k-1, i-1))
//   B''(k, i) = B''(k, i-1) + u_i (x_i^2 B(k-1, i-1) + 2 x_i B'(k-1, i-1) + B''(k-1, i-1)).
// Then dL_s = w_s (sum_{cases} x - B'/B) and d2L_s = -w_s (B''/B - (B'/B)^2): B'/B is the
// mean, and B''/B - (B'/B)^2 the variance, of sum_{r in S} x_r over the case sets S weighted
// by prod u. The case sum is the likelihood's linear term, shared with Breslow and Efron.
//
// Numerics. B(n, m) has C(m, n) terms, so it overflows long before any single product does.
// The recursion therefore carries b(k, i) = B(k, i) / C(i, k) (and b', b'' likewise), which
// turns each line into a weighted average:
//   b(k, i) = ((i-k)/i) b(k, i-1) + (k/i) v_i b(k-1, i-1)
// because C(i-1, k) / C(i, k) = (i-k)/i and C(i-1, k-1) / C(i, k) = k/i. The u's are divided
// by a per-stratum scale (v = u / scale, scale = the geometric mean of the n largest u), so
// the most likely case set has product 1: b(n, m), an average of products at most 1, lies in
// [1 / C(m, n), 1], and the lower degrees stay far from both ends of the double range unless
// eta spreads by ~1000 within the stratum.
// log B = n log(scale) + log C(m, n) + log b(n, m).
//
// Cost: O(m n) per stratum and coordinate; the level arrays are n + 1 long.
//
// Where eta spreads by several hundred within a stratum (a fit running off along a direction
// of recession: lung's matched sets, sex at -190), the scaled levels still leave the double
// range, or the u of all but a few rows underflow to 0. The log-domain recursion below then
// gives the same term from log u = log w_s + eta - shift: each degree carries log B(k, i)
// and the weighted means of sum x and (sum x)^2 over its case sets,
//   log B(k, i) = logaddexp(log B(k, i-1), log u_i + log B(k-1, i-1)),
//   m(k, i) = (1 - a) m(k, i-1) + a (x_i + m(k-1, i-1)),  a = u_i B(k-1, i-1) / B(k, i),
// and likewise for the second moment: numbers of the size of x, whatever the spread of eta.
// One exp and one log per line, so it is only the fallback.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/host_device.h"
#include "priors/prior.h"

namespace argus {

// b, b', b'' of one degree k, normalized by C(i, k) (see above).
struct ExactLevel {
  double b = 0.0, d1 = 0.0, d2 = 0.0;
};

// Before the first row: degree 0 is the empty product (1), higher degrees are empty sums.
ARGUS_HOST_DEVICE inline void exactRecursionStart(int cases, ExactLevel* level) {
  level[0].b = 1.0;
  level[0].d1 = level[0].d2 = 0.0;
  for (int k = 1; k <= cases; ++k) level[k].b = level[k].d1 = level[k].d2 = 0.0;
}

// Adds the stratum's i-th row (i = 1, 2, ...) with v = u / scale and covariate value x.
// Degrees are updated from the top down, so level[k-1] still holds row i-1's values.
ARGUS_HOST_DEVICE inline void exactRecursionAddRow(int cases, int i, double v, double x,
                                                   ExactLevel* level) {
  const int top = i < cases ? i : cases;
  const double inverse = 1.0 / i;
  for (int k = top; k >= 1; --k) {
    const double keep = (i - k) * inverse;  // C(i-1, k) / C(i, k)
    const double take = k * inverse * v;    // C(i-1, k-1) / C(i, k), times v_i
    const ExactLevel lower = level[k - 1];
    ExactLevel& l = level[k];
    l.d2 = keep * l.d2 + take * (x * x * lower.b + 2.0 * x * lower.d1 + lower.d2);
    l.d1 = keep * l.d1 + take * (x * lower.b + lower.d1);
    l.b = keep * l.b + take * lower.b;
  }
}

// One degree of the log-domain recursion (see above): log B(k, i) and the means of sum x and
// (sum x)^2 over the case sets of size k weighted by their product of u.
struct ExactLogLevel {
  double logB = -INFINITY, mean = 0.0, second = 0.0;
};

ARGUS_HOST_DEVICE inline void exactLogRecursionStart(int cases, ExactLogLevel* level) {
  level[0] = ExactLogLevel{0.0, 0.0, 0.0};
  for (int k = 1; k <= cases; ++k) level[k] = ExactLogLevel{};
}

// Adds the stratum's i-th row (i = 1, 2, ...) with log u and covariate value x; degrees from
// the top down, as exactRecursionAddRow.
ARGUS_HOST_DEVICE inline void exactLogRecursionAddRow(int cases, int i, double logU, double x,
                                                      ExactLogLevel* level) {
  const int top = i < cases ? i : cases;
  for (int k = top; k >= 1; --k) {
    const ExactLogLevel lower = level[k - 1];
    ExactLogLevel& l = level[k];
    const double added = logU + lower.logB;
    if (!(added > -INFINITY)) continue;
    const double hi = added > l.logB ? added : l.logB, lo = added > l.logB ? l.logB : added;
    const double logB = hi + std::log1p(std::exp(lo - hi));
    const double share = std::exp(added - logB);  // a: the new row's share of B(k, i)
    l.second = (1.0 - share) * l.second + share * (x * x + 2.0 * x * lower.mean + lower.second);
    l.mean = (1.0 - share) * l.mean + share * (x + lower.mean);
    l.logB = logB;
  }
}

// The stratum's (g, h) without the linear term, from the top degree after its last row.
// As in conditionalStratumTerm, a variance below 1e-12 of the second moment is rounding noise
// (x_j constant within the stratum) and taken as exactly zero.
ARGUS_HOST_DEVICE inline GradHess exactStratumTerm(double weight, const ExactLevel& top) {
  const double mean = top.d1 / top.b;
  const double second = top.d2 / top.b;
  double variance = second - mean * mean;
  if (variance <= 1e-12 * second) variance = 0.0;
  return {-weight * mean, -weight * variance};
}

// log C(m, n) as a sum of n logarithms (std::lgamma writes the global signgam, a data race
// when cross-validation scores folds on threads).
ARGUS_HOST_DEVICE inline double logBinomial(int m, int n) {
  double sum = 0.0;
  for (int k = 1; k <= n; ++k) sum += std::log(static_cast<double>(m - n + k) / k);
  return sum;
}

// What the stratum subtracts from the log-likelihood: w_s log B_s.
ARGUS_HOST_DEVICE inline double exactLogTerm(double weight, int rows, int cases, double logScale,
                                             const ExactLevel& top) {
  return weight * (cases * logScale + logBinomial(rows, cases) + std::log(top.b));
}

// The recursion's scale: the mean log of the `cases` largest u over rows [first, end), kept in
// a min-heap of `cases` doubles (`heap`, the caller's scratch); NaN when fewer than `cases`
// rows have u > 0 (u = 0: weight 0). The CPU and a device thread both call it, so their
// scales are the same to the bit where their log() is (the emulated device; CUDA's may differ
// by an ulp, which the scale cancels out of g, h and log B).
ARGUS_HOST_DEVICE inline double exactLogScale(const double* u, std::int64_t first, std::int64_t end,
                                              int cases, double* heap) {
  int size = 0;
  for (std::int64_t r = first; r < end; ++r) {
    const double v = u[r];
    if (!(v > 0.0)) continue;
    int i;
    if (size < cases) {
      i = size++;
      heap[i] = v;
      while (i > 0 && heap[(i - 1) / 2] > heap[i]) {  // sift up
        const double t = heap[i];
        heap[i] = heap[(i - 1) / 2];
        heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
      }
    } else if (v > heap[0]) {
      heap[0] = v;
      i = 0;
      for (;;) {  // sift down
        int least = i;
        const int left = 2 * i + 1, right = left + 1;
        if (left < size && heap[left] < heap[least]) least = left;
        if (right < size && heap[right] < heap[least]) least = right;
        if (least == i) break;
        const double t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
      }
    }
  }
  if (size < cases) return NAN;
  double sum = 0.0;
  for (int k = 0; k < cases; ++k) sum += std::log(heap[k]);
  return sum / cases;
}

// Scratch of one stratum's recursion: cases + 1 levels and a heap of `cases` doubles.
struct ExactScratch {
  ExactLevel* levels;
  double* heap;
};

// (g, h) of an exact stratum (rows [first, end), `cases` cases, weight w_s) without the linear
// term, along a column whose entries in the stratum are entries.row(e), entries.x(e) for e in
// [0, count), rows increasing. *ok: whether the term is finite (false: the stratum's linear
// predictor is out of range; the caller reports it).
template <typename Entries>
ARGUS_HOST_DEVICE inline GradHess exactStratumGradHess(int cases, double weight, const double* u,
                                                       std::int64_t first, std::int64_t end,
                                                       const Entries& entries, std::int64_t count,
                                                       ExactScratch scratch, bool* ok) {
  const double logScale = exactLogScale(u, first, end, cases, scratch.heap);
  *ok = std::isfinite(logScale);
  if (!*ok) return GradHess{0.0, 0.0};
  const double toScale = std::exp(-logScale);
  exactRecursionStart(cases, scratch.levels);
  std::int64_t e = 0;
  int i = 0;
  for (std::int64_t r = first; r < end; ++r) {
    double x = 0.0;
    if (e < count && entries.row(e) == r) x = entries.x(e++);
    if (u[r] == 0.0) continue;  // weight 0: not in any case set
    exactRecursionAddRow(cases, ++i, u[r] * toScale, x, scratch.levels);
  }
  const GradHess t = exactStratumTerm(weight, scratch.levels[cases]);
  *ok = scratch.levels[cases].b > 0.0 && std::isfinite(t.g) && std::isfinite(t.h);
  return t;
}

// w_s log B_s of an exact stratum; *ok as above.
ARGUS_HOST_DEVICE inline double exactStratumLogTerm(int cases, double weight, const double* u,
                                                    std::int64_t first, std::int64_t end,
                                                    ExactScratch scratch, bool* ok) {
  const double logScale = exactLogScale(u, first, end, cases, scratch.heap);
  *ok = std::isfinite(logScale);
  if (!*ok) return 0.0;
  const double toScale = std::exp(-logScale);
  exactRecursionStart(cases, scratch.levels);
  int i = 0;
  for (std::int64_t r = first; r < end; ++r)
    if (u[r] != 0.0) exactRecursionAddRow(cases, ++i, u[r] * toScale, 0.0, scratch.levels);
  const double value = exactLogTerm(weight, i, cases, logScale, scratch.levels[cases]);
  *ok = std::isfinite(value);
  return value;
}

}  // namespace argus
