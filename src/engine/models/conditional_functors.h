// Formulas of the conditional likelihoods (clr, cpr, sccs), MODELS.md §2 and §5.
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

#include "common/host_device.h"
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

}  // namespace argus
