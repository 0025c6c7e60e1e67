// Per-row formulas of the GLM likelihoods (MODELS.md §2), shared by CPU loops and kernels.
//
// For each row the likelihood caches two numbers that make a coordinate's gradient and
// Hessian a single pass over its nonzeros:
//   resid_r = dL_r/deta_r          (g_j = sum_r x_rj resid_r)
//   curv_r  = -d2L_r/deta_r^2 >= 0 (h_j = -sum_r x_rj^2 curv_r)
// `exposure` is the Poisson exposure time (1 when absent); `w` is the row weight.
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
  ARGUS_HOST_DEVICE RowDerivatives operator()(double eta, double y, double w, double) const {
    return {w * (y - eta), w};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    const double e = y - eta;
    return -0.5 * w * e * e;
  }
};

struct LogisticRow {
  ARGUS_HOST_DEVICE RowDerivatives operator()(double eta, double y, double w, double) const {
    const double mu = 1.0 / (1.0 + std::exp(-eta));
    return {w * (y - mu), w * mu * (1.0 - mu)};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    return w * (y * eta - log1pExp(eta));
  }
};

// Full Poisson log-likelihood with mean exposure * exp(eta), constants kept, so that logLik()
// equals glm(family = poisson, offset = log(time)).
struct PoissonRow {
  ARGUS_HOST_DEVICE RowDerivatives operator()(double eta, double y, double w,
                                              double exposure) const {
    const double mu = exposure * std::exp(eta);
    return {w * (y - mu), w * mu};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double exposure) const {
    if (w == 0.0) return 0.0;
    const double mu = exposure * std::exp(eta);
    return w * (y * std::log(mu) - mu - std::lgamma(y + 1.0));
  }
};

}  // namespace argus
