// Formulas of the conditional likelihoods (clr, cpr, sccs), MODELS.md §2 and §5: Breslow's
// form, shared by all three, and clr's Efron form below (the exact form of clr has its own
// header, exact_conditional_functors.h).
//
// Each stratum s keeps den_s = sum_{r in s} c_r exp(eta_r), with c_r = w_r * exposure_r
// (exposure 1 for clr), and n_s = sum_{r in s} w_r y_r. Profiling out a per-stratum baseline
// of the weighted Poisson likelihood gives
//   L = sum_r w_r y_r eta_r - sum_s n_s log den_s,
// which is conditional logistic (Breslow) when exposure = 1 and conditional Poisson / SCCS
// otherwise. Integer weights equal duplicated rows.
//
// For coordinate j, with N1_s = sum_{touched r in s} u_r x_rj and N2_s the same with x^2:
//   g_j = sum_r w_r y_r x_rj - sum_s n_s N1_s / den_s
//   h_j = -sum_s n_s (N2_s / den_s - (N1_s / den_s)^2)
// Only strata touched by column j contribute, so the cost is O(nnz_j).
#pragma once

#include <cmath>
#include <cstdint>

#include "common/host_device.h"
#include "models/survival_functors.h"
#include "priors/prior.h"

namespace argus {

// One stratum's contribution to (g, h) without the linear term.
// N2/den - p^2 is the variance of x_j within the stratum under the weights u / den. When x_j
// is constant within the stratum it is zero, and the subtraction leaves only rounding noise,
// which would turn into an arbitrary Newton step: treat a variance below 1e-12 of N2/den as
// exactly zero (the stratum carries no information on beta_j).
ARGUS_HOST_DEVICE inline GradHess conditionalStratumTerm(double events, double den, double n1,
                                                        double n2) {
  if (events == 0.0) return {0.0, 0.0};
  const double p = n1 / den;
  const double second = n2 / den;
  double variance = second - p * p;
  if (variance <= 1e-12 * second) variance = 0.0;
  return {-events * p, -events * variance};
}

// A column's (g, h): its stratum terms, summed from zero, then its linear term
// sum_r w_r y_r x_rj added last. The CPU's scans and the device's reduction both end so, and
// the CPU's first scan of a column sums the linear term beside the terms (one pass).
ARGUS_HOST_DEVICE inline GradHess withLinearTerm(GradHess terms, double linear) {
  return {linear + terms.g, terms.h};
}

// The touched rows' moments of one stratum, N1 = sum u x and N2 = sum u x^2, in entry order;
// add() returns u x (Efron also sums it over the cases).
struct StratumMoments {
  double n1 = 0.0, n2 = 0.0;
  ARGUS_HOST_DEVICE double add(double u, double x) {
    const double a = u * x;
    n1 += a;
    n2 += a * x;
    return a;
  }
};

// Row r's score dL/deta_r and curvature bound under Breslow's form, for the all-coordinates
// steps (models/separable_bound.h): with p_r = u_r / den_s the score is w_r y_r - n_s p_r and
// the curvature n_s p_r, since a stratum's eta-Hessian is -n_s (diag(p) - p p'), which
// diag(n_s p) bounds; shifting the stratum's eta removes the excess (the bound's C_s is n_s).
ARGUS_HOST_DEVICE inline void conditionalRowScore(double wy, double u, double events, double den, double* score,
                                                  double* curvature) {
  const double expected = events > 0.0 && den > 0.0 ? events * (u / den) : 0.0;
  *score = wy - expected;
  *curvature = expected;
}

// sum_r w_r y_r d_r (w = nullptr: all 1), in row order: the linear term of a direction d.
inline double weightedOutcomeDot(std::int64_t n, const double* w, const double* y, const double* d) {
  double sum = 0.0;
  for (std::int64_t r = 0; r < n; ++r) sum += ((w ? w[r] : 1.0) * y[r]) * d[r];
  return sum;
}

// clr with ties = "efron": the stratum's cases are tied at one event time whose risk set is
// the whole stratum, so the stratum is one Cox event slot and its slot terms A, B, Q0..Q2
// are efronEventTerms(sum w y, positively weighted cases, den_s, F_s) (survival_functors.h),
// F_s the cases' share of den_s. With N1, N2 over the stratum's touched rows and F1, F2 over
// its touched cases (u x, u x^2):
//   -dL_s = A N1 - B F1,   -d2L_s = (A N2 - B F2) - (Q0 N1^2 - 2 Q1 N1 F1 + Q2 F1^2).
// The Cox scan sums the same terms by parts over risk sets; here the slot is the stratum.
// The bracket is a variance (of x over the Efron-weighted risk sets), so as above rounding
// noise below 1e-12 of the first part is taken as zero.
ARGUS_HOST_DEVICE inline GradHess tiedStratumTerm(const EventSlotTerms& t, double n1, double n2,
                                                  double f1, double f2) {
  const double first = t.a * n2 - t.b * f2;
  double variance = first - (t.q0 * n1 * n1 - 2.0 * t.q1 * n1 * f1 + t.q2 * f1 * f1);
  if (variance <= 1e-12 * std::fabs(first)) variance = 0.0;
  return {-(t.a * n1 - t.b * f1), -variance};
}

}  // namespace argus
