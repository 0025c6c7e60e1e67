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
#pragma once

#include <cmath>

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

}  // namespace argus
