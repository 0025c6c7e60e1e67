// Formulas of the survival likelihoods (cox, fgr), MODELS.md §2 and §5, written once.
//
// Per event slot e (a distinct event time of a stratum) the log-likelihood subtracts
//   Breslow: d_e log den_e
//   Efron:   (d_e / m_e) sum_{k<m_e} log(den_e - (k/m_e) F_e)
// where d_e is the weighted event count, m_e the number of (positively weighted) events,
// den_e the risk-set sum of u = w exp(eta) and F_e the part of den_e owed to the tied events.
// With f_k = k / m_e and D_k = den_e - f_k F_e, the coordinate derivatives need only
//   A = meanwt sum 1/D_k,     B  = meanwt sum f_k/D_k,
//   Q0 = meanwt sum 1/D_k^2,  Q1 = meanwt sum f_k/D_k^2,  Q2 = meanwt sum f_k^2/D_k^2,
// because with N1 = sum_{at risk} u x, F1 = sum_{tied events} u x (N2, F2 with x^2):
//   -dL_e/dbeta_j   = A N1 - B F1
//   -d2L_e/dbeta_j2 = (A N2 - B F2) - (Q0 N1^2 - 2 Q1 N1 F1 + Q2 F1^2).
// Breslow is the case B = Q1 = Q2 = 0, A = d/den, Q0 = d/den^2.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/force_inline.h"
#include "common/host_device.h"

namespace argus {

// One entry of a risk-set model (conditional or survival) moved by delta x:
// u = c exp(eta - shift) follows by multiplication, with unitFactor = exp(delta) for the
// common x = 1. Returns the change of u, which the sums over u (den, D, F) take. Where eta's
// update is deferred (conditional Breslow, deferred_column_steps.h) this is the whole move.
ARGUS_HOST_DEVICE inline double scaleRiskEntry(double& u, double x, double delta,
                                               double unitFactor) {
  const double updated = u * ((x == 1.0) ? unitFactor : std::exp(delta * x));
  const double du = updated - u;
  u = updated;
  return du;
}

// The same move with eta updated beside u.
ARGUS_HOST_DEVICE inline double moveRiskEntry(double& eta, double& u, double x, double delta,
                                              double unitFactor) {
  eta += delta * x;
  return scaleRiskEntry(u, x, delta, unitFactor);
}

// max(top, x) for a running maximum that starts at -inf: std::fmax's result where top is not
// NaN (a NaN x leaves top, as fmax does), without its libm call per row at R's -O2 (perf,
// SCCS fit: ~1% in __fmax).
ARGUS_HOST_DEVICE inline double runningMax(double top, double x) { return x > top ? x : top; }

// The shift of a stratum's u = c exp(eta - shift): its largest eta over rows [first, end), so
// that exp() cannot overflow (0 where none is finite: an empty stratum, or eta already not
// finite). Every risk-set term is invariant to a common shift of the stratum's eta.
ARGUS_HOST_DEVICE inline double stratumShift(const double* eta, std::int64_t first, std::int64_t end) {
  double top = -INFINITY;
  for (std::int64_t r = first; r < end; ++r) top = runningMax(top, eta[r]);
  return std::isfinite(top) ? top : 0.0;
}

// The survival models' shift, from a stratum's largest (top) and smallest (bottom) eta. Every
// risk-set term is invariant to a common shift, but a slot's Q0 = d / den^2 is not to the
// range: with the top as the shift, a late risk set of rows 355 below it has den < 1e-154,
// Q0 overflows and the curvature with it (a tester's Cox fits with a linear predictor
// spanning 380-708 ended NO_FINITE_MLE, or SUCCESS short of coxph's optimum, or with every
// covariate called aliased). Where the span exceeds kTopShiftSpan the shift is its midpoint,
// so u and Q0 both stay within exp(+-span): spans up to about 700 (a hazard ratio of 1e304
// within a stratum) are exact. Below it the top, as before (and as the conditional models,
// whose every risk set holds its top row, keep: stratumShift). Beyond 700 the shift stays
// kMaxShiftBelowTop below the top, so that u itself cannot overflow (exp(350) times weights).
constexpr double kTopShiftSpan = 300.0;
constexpr double kMaxShiftBelowTop = 350.0;
ARGUS_HOST_DEVICE inline double riskSetShift(double top, double bottom) {
  if (!std::isfinite(top)) return 0.0;
  if (!(top - bottom > kTopShiftSpan) || !std::isfinite(bottom)) return top;
  const double half = 0.5 * (top - bottom);  // inf where the span overflows: then the cap
  return top - (half < kMaxShiftBelowTop ? half : kMaxShiftBelowTop);
}
ARGUS_HOST_DEVICE inline double runningMin(double bottom, double x) { return x < bottom ? x : bottom; }

// exp(eta - shift) for a row's u: exactly exp() (exp(0) is 1 exactly), skipping the call
// where eta is its stratum's shift, as for every row of a fit that starts from beta = 0
// without offsets (SCCS 1e5 cases: 0.5 million calls, 1.5 ms of a 110 ms fit).
ARGUS_HOST_DEVICE inline double expFromShift(double eta, double shift) {
  return eta == shift ? 1.0 : std::exp(eta - shift);
}

struct EventSlotTerms {
  double a = 0.0, b = 0.0, q0 = 0.0, q1 = 0.0, q2 = 0.0;
};

// One reciprocal serves A and Q0; no branch, so that a loop over slots vectorizes.
ARGUS_HOST_DEVICE inline EventSlotTerms breslowEventTerms(double events, double den) {
  EventSlotTerms t;
  // A slot without events (den possibly 0) divides by den + 1 and multiplies by 0.
  const double inverse = 1.0 / (den + static_cast<double>(events == 0.0));
  t.a = events * inverse;
  t.q0 = t.a * inverse;
  return t;
}

// The partial sums of efronEventTerms' lanes added pairwise, always in this order.
constexpr int kEfronLanes = 8;
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE double laneTotal(const double* v) {
  static_assert(kEfronLanes == 8, "laneTotal adds eight lanes");
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

// Without tied events (m <= 1) Efron's terms are Breslow's, with B = Q1 = Q2 = 0.
// One division per tied event: D_k = den - k (F / m), and f_k = k / m enters as k, with 1/m
// and 1/m^2 applied to the sums. The refresh evaluates them at every tied slot after every
// moved coordinate, O(events) in all: with whole days, most of an Efron cycle. The sums run
// in kEfronLanes fixed lanes (event k in lane k mod kEfronLanes), added in a fixed order at
// the end, so the CPU vectorizes the loop (forced inline into a caller compiled for AVX-512 or
// AVX2: survival_refresh.cpp) and every build, width and device sums in the same order.
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE EventSlotTerms efronEventTerms(double events, double count, double den,
                                                                   double tiedRisk) {
  if (count <= 1.0) return breslowEventTerms(events, den);
  EventSlotTerms t;
  if (events == 0.0) return t;
  const int m = static_cast<int>(count);
  const double step = tiedRisk / m;
  double a[kEfronLanes] = {}, b[kEfronLanes] = {}, q0[kEfronLanes] = {}, q1[kEfronLanes] = {},
         q2[kEfronLanes] = {};
  for (int k0 = 0; k0 < m; k0 += kEfronLanes) {
    const int lanes = m - k0 < kEfronLanes ? m - k0 : kEfronLanes;
    ARGUS_SIMD
    for (int l = 0; l < lanes; ++l) {
      const double kd = static_cast<double>(k0 + l);
      const double inv = 1.0 / (den - kd * step);
      const double inv2 = inv * inv;
      a[l] += inv;
      b[l] += kd * inv;
      q0[l] += inv2;
      q1[l] += kd * inv2;
      q2[l] += kd * kd * inv2;
    }
  }
  const double meanWeight = events / m;
  const double perM = meanWeight / m;
  t.a = meanWeight * laneTotal(a);
  t.b = perM * laneTotal(b);
  t.q0 = meanWeight * laneTotal(q0);
  t.q1 = perM * laneTotal(q1);
  t.q2 = perM / m * laneTotal(q2);
  return t;
}

// What an event slot subtracts from the log-likelihood (kept apart from the derivative terms:
// a step needs those at every moved coordinate, the logarithms only once per readout).
ARGUS_HOST_DEVICE inline double eventLogTerm(bool efron, double events, double count, double den,
                                             double tiedRisk) {
  if (events == 0.0) return 0.0;
  if (!efron) return events * std::log(den);
  const int m = static_cast<int>(count);
  double sum = 0.0;
  for (int k = 0; k < m; ++k) sum += std::log(den - (static_cast<double>(k) / m) * tiedRisk);
  return events / m * sum;
}

// An exact survival cycle's cost against a sweep of the majorized start, per entry and per
// refreshed slot (Likelihood::ExactCycleCost), measured on the benchmark designs (Cox 1e5 x
// 1000 at 5%, bench/RESULTS.md): a Cox coordinate's scan and step take about twice a start
// sweep's two passes per entry, a Fine-Gray one (competing rows' tails) about four times; a
// refreshed slot about 0.4 of an entry (Fine-Gray's tail passes: 0.8).
ARGUS_HOST_DEVICE inline double survivalCycleCostPerEntry(bool fineGray) { return fineGray ? 4.0 : 2.0; }
ARGUS_HOST_DEVICE inline double survivalCycleCostPerSlot(bool fineGray) { return fineGray ? 0.8 : 0.4; }

// Running sums of one coordinate over its risk-set items, visited per stratum in descending
// slot order (MODELS.md §5). An item is a row's exit (+u x at b(r)) or, with counting-process
// data, its entry (-u x at a(r)); c1, c2 are the cumulative A and Q0 at the item's slot.
// The squared term sum_e Q0_e N1(e)^2 is summed by parts: with `prefix` the signed sum of
// the items already visited in the stratum, each item adds c2 v (2 prefix + v). The items of
// one slot share c1 and c2 and the sum telescopes, so a slot's items may come as one: v and
// vx their sums of v and v x.
struct RiskSetItemSums {
  double gradient = 0.0;  // sum v c1: subtract from the linear term
  double first = 0.0;     // sum v x c1
  double squared = 0.0;   // sum_e Q0_e N1(e)^2
  double prefix = 0.0;
  ARGUS_HOST_DEVICE void add(double v, double vx, double c1, double c2) {
    gradient += v * c1;
    first += vx * c1;
    squared += c2 * v * (2.0 * prefix + v);
    prefix += v;
  }
};

}  // namespace argus
