// Per-row formulas of the GLM likelihoods (MODELS.md §2), shared by CPU loops and kernels.
//
// derivatives() gives, for one row, the three numbers the likelihood sums:
//   resid_r = dL_r/deta_r            (g_j = sum_r x_rj resid_r)
//   curv_r  = -d2L_r/deta_r^2 >= 0   (h_j = -sum_r x_rj^2 curv_r)
//   slope_r = d curv_r / d eta_r     (second-order tracking of the intercept's g, h)
// It takes exp(eta) as well as eta (the likelihood keeps exp(eta) up to date by
// multiplication: one exp per coordinate for indicator columns) and two per-row constants,
// wy = w * y and wt = w * exposure (exposure = Poisson exposure time, 1 otherwise), which is
// all that any of the three models needs. logLik() works from the raw row values.
#pragma once

#include <cmath>

#include "common/host_device.h"

namespace argus {

struct RowDerivatives {
  double resid;
  double curv;
  double slope;
};

// log(y!) = lgamma(y + 1) for y >= 0. Not glibc's lgamma, which writes the global `signgam` on
// every call (a data race when fold fits run on threads): shift the argument up to 16 with
// lgamma(x) = lgamma(x + m) - log(x (x + 1) ... (x + m - 1)), then Stirling's series, whose
// first omitted term is below 1.2e-14 there (tests/cpp/glm_functors_test.cpp checks it
// against std::lgamma to 1e-13 relative).
ARGUS_HOST_DEVICE inline double logGammaPlusOne(double y) {
  if (y == 0.0 || y == 1.0) return 0.0;
  double x = y + 1.0;
  double product = 1.0;
  while (x < 16.0) {
    product *= x;
    x += 1.0;
  }
  const double inverse = 1.0 / x;
  const double inverse2 = inverse * inverse;
  const double series =
      inverse * (1.0 / 12.0 - inverse2 * (1.0 / 360.0 - inverse2 * (1.0 / 1260.0 - inverse2 / 1680.0)));
  constexpr double kHalfLog2Pi = 0.91893853320467274;
  return (x - 0.5) * std::log(x) - x + kHalfLog2Pi + series - std::log(product);
}

ARGUS_HOST_DEVICE inline double log1pExp(double eta) {
  return eta > 0.0 ? eta + std::log1p(std::exp(-eta)) : std::log1p(std::exp(eta));
}

struct LeastSquaresRow {
  static constexpr bool kUsesExp = false;
  // The log-likelihood -RSS/2 carries the outcome's units: its dispersion is estimated
  // (optimalityViolation in priors/optimality.h).
  static constexpr bool kEstimatesDispersion = true;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double eta, double, double wy, double wt) const {
    return {wy - wt * eta, wt, 0.0};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    const double e = y - eta;
    return -0.5 * w * e * e;
  }
};

// mu = e / (1 + e) and 1 - mu = 1 / (1 + e) from one division; e is capped so that an
// overflowed exp(eta) gives mu = 1 rather than inf / inf (and no branch in the loop).
struct LogisticRow {
  static constexpr bool kUsesExp = true;
  static constexpr bool kEstimatesDispersion = false;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double, double expEta, double wy,
                                               double wt) const {
    const double e = expEta < 1e300 ? expEta : 1e300;
    const double q = 1.0 / (1.0 + e);  // 1 - mu
    const double mu = e * q;
    const double curv = wt * mu * q;
    return {wy - wt * mu, curv, curv * (q - mu)};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    return w * (y * eta - log1pExp(eta));
  }
};

// Full Poisson log-likelihood with mean exposure * exp(eta), constants kept, so that logLik()
// equals glm(family = poisson, offset = log(time)).
struct PoissonRow {
  static constexpr bool kUsesExp = true;
  static constexpr bool kEstimatesDispersion = false;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double, double expEta, double wy,
                                               double wt) const {
    const double mu = wt * expEta;
    return {wy - mu, mu, mu};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double exposure) const {
    if (w == 0.0) return 0.0;
    const double mu = exposure * std::exp(eta);
    return w * (y * std::log(mu) - mu - logGammaPlusOne(y));
  }
};

}  // namespace argus
