// Per-row formulas of the GLM likelihoods (MODELS.md §2), shared by CPU loops and kernels.
//
// For each row the likelihood caches two numbers that make a coordinate's gradient and
// Hessian a single pass over its nonzeros:
//   resid_r = dL_r/deta_r          (g_j = sum_r x_rj resid_r)
//   curv_r  = -d2L_r/deta_r^2 >= 0 (h_j = -sum_r x_rj^2 curv_r)
// derivatives() takes exp(eta) as well as eta (the likelihood keeps exp(eta) up to date by
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
};

ARGUS_HOST_DEVICE inline double log1pExp(double eta) {
  return eta > 0.0 ? eta + std::log1p(std::exp(-eta)) : std::log1p(std::exp(eta));
}

struct LeastSquaresRow {
  static constexpr bool kUsesExp = false;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double eta, double, double wy, double wt) const {
    return {wy - wt * eta, wt};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    const double e = y - eta;
    return -0.5 * w * e * e;
  }
};

struct LogisticRow {
  static constexpr bool kUsesExp = true;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double, double expEta, double wy,
                                               double wt) const {
    const double mu = expEta < 1e300 ? expEta / (1.0 + expEta) : 1.0;
    return {wy - wt * mu, wt * mu * (1.0 - mu)};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    return w * (y * eta - log1pExp(eta));
  }
};

// Full Poisson log-likelihood with mean exposure * exp(eta), constants kept, so that logLik()
// equals glm(family = poisson, offset = log(time)).
struct PoissonRow {
  static constexpr bool kUsesExp = true;
  ARGUS_HOST_DEVICE RowDerivatives derivatives(double, double expEta, double wy,
                                               double wt) const {
    const double mu = wt * expEta;
    return {wy - mu, mu};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double exposure) const {
    if (w == 0.0) return 0.0;
    const double mu = exposure * std::exp(eta);
    return w * (y * std::log(mu) - mu - std::lgamma(y + 1.0));
  }
};

}  // namespace argus
