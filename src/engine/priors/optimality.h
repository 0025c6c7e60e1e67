// The first-order optimality (KKT) condition of one coordinate, as a number: how far the
// coordinate is from its optimum given the others, in units of its conditional standard
// error. Written once for the CPU check (solver/ccd_solver.cpp) and a device one.
//
// With G the derivative of the log posterior along beta_j (likelihood plus prior) and
// H = -(h_j + prior curvature) > 0 its curvature, the coordinate's Newton step is G / H and
// its conditional standard error is sqrt(dispersion / H); their ratio
//     violation = |G| / sqrt(dispersion * H)
// is unchanged when x_j is rescaled and does not grow with the number of rows (a coordinate
// off by epsilon standard errors has violation epsilon). `dispersion` is 1 for likelihoods
// with a fixed scale (lr, pr, conditional, survival) and the weighted mean squared residual
// for least squares, whose log-likelihood -RSS/2 carries the outcome's units.
//
// Weights: scaling every weight by s (and the prior with it) leaves the optimum where it is
// but multiplies G and H by s, so the violation by sqrt(s). Weights normalized to sum to 1
// (survey or IPTW weights, often so) then passed fits stopped 0.1 to 0.4 short in the
// coefficients. So the check scales dispersion by the mean positive weight where that is
// below 1 (certificateWeightScale): the standard errors of a fit whose weights average 1 over
// the rows that have one. Unit weights, frequency and bootstrap counts (mean at least 1), and
// cross-validation's held-out zeros keep the plain measure.
//
// Laplace: away from 0 the prior is smooth (derivative -lambda sign(beta)); at 0 the condition
// is |g| <= lambda, and G is the part of g beyond lambda. A coordinate without curvature
// (H = 0: no information in the data, e.g. an all-zero column) cannot be judged and counts as 0.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/host_device.h"
#include "priors/prior.h"

namespace argus {

ARGUS_HOST_DEVICE inline double optimalityViolation(GradHess gh, double beta, CoordinatePrior p,
                                                    double dispersion) {
  double g = gh.g;
  double curvature = -gh.h;
  if (p.kind == PriorKind::Laplace && beta == 0.0) {
    // At the kink: only the part of |g| beyond lambda violates.
    const double excess = std::fabs(g) - laplaceLambda(p.variance);
    g = excess > 0.0 ? excess : 0.0;
  } else {
    const PriorSlope prior = priorSlope(beta, p, beta > 0.0 ? 1.0 : -1.0);
    g += prior.gradient;
    curvature += prior.curvature;
  }
  if (!std::isfinite(g) || !std::isfinite(curvature)) return INFINITY;
  if (!(curvature > 0.0)) return 0.0;
  return std::fabs(g) / std::sqrt(dispersion * curvature);
}

// min(1, mean of the positive weights); 1 without weights (see above).
inline double certificateWeightScale(const double* weights, std::int64_t rows) {
  if (!weights) return 1.0;
  double sum = 0.0;
  std::int64_t positive = 0;
  for (std::int64_t r = 0; r < rows; ++r)
    if (weights[r] > 0.0) {
      sum += weights[r];
      ++positive;
    }
  return positive > 0 ? std::fmin(1.0, sum / static_cast<double>(positive)) : 1.0;
}

}  // namespace argus
