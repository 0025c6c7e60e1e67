// Per-row formulas of the GLM likelihoods (MODELS.md §2), shared by CPU loops and kernels.
//
// glmRowDerivatives() gives, for one row, the three numbers the likelihood sums:
//   resid_r = dL_r/deta_r            (g_j = sum_r x_rj resid_r)
//   curv_r  = -d2L_r/deta_r^2 >= 0   (h_j = -sum_r x_rj^2 curv_r)
//   slope_r = d curv_r / d eta_r     (second-order tracking of the intercept's g, h)
// It takes exp(eta) as well as eta (the likelihood keeps exp(eta) up to date by
// multiplication: one exp per coordinate for indicator columns) and two per-row constants,
// wy = w * y and wt = w * exposure (exposure = Poisson exposure time, 1 otherwise), which is
// all that any of the three models needs. logLik() works from the raw row values.
//
// Each row functor writes its derivatives once, as derivativesOf<T>() over a number type T:
// double here and in the kernels, and on the CPU a pair of doubles in one SIMD register
// (glm_likelihood.h), so that a column scan computes two rows' divisions in one instruction.
// The arithmetic is branch-free for that reason; boundExp() is the one per-lane step
// (a comparison) applied to each exp(eta) before.
#pragma once

#include <cfloat>
#include <cmath>

#include "common/host_device.h"
#include "priors/prior.h"

namespace argus {

template <typename T>
struct RowDerivativesOf {
  T resid;
  T curv;
  T slope;
};
using RowDerivatives = RowDerivativesOf<double>;

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

// kThirdDerivativeScale: a bound on |d^3 logLik / d eta^3| per unit of weight, whatever eta
// (Likelihood::thirdDerivativeBoundAlong); infinity where there is none.
struct LeastSquaresRow {
  static constexpr bool kUsesExp = false;
  static constexpr double kThirdDerivativeScale = 0.0;  // -w e^2 / 2 is quadratic in eta
  // The log-likelihood -RSS/2 carries the outcome's units: its dispersion is estimated
  // (optimalityViolation in priors/optimality.h).
  static constexpr bool kEstimatesDispersion = true;
  ARGUS_HOST_DEVICE static double boundExp(double expEta) { return expEta; }
  template <typename T>
  ARGUS_HOST_DEVICE RowDerivativesOf<T> derivativesOf(T eta, T, T wy, T wt) const {
    return {wy - wt * eta, wt, wt * 0.0};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    const double e = y - eta;
    return -0.5 * w * e * e;
  }
  // logLik(eta + change) - logLik(eta): w (c (y - eta) - c^2 / 2), with wt = w.
  ARGUS_HOST_DEVICE double logLikChange(double eta, double, double wy, double wt, double change,
                                        double) const {
    return change * (wy - wt * eta) - 0.5 * wt * change * change;
  }
};

// mu = e / (1 + e) and 1 - mu = 1 / (1 + e) from one division; e is capped (boundExp) so
// that an overflowed exp(eta) gives mu = 1 rather than inf / inf (and no branch in the loop).
struct LogisticRow {
  static constexpr bool kUsesExp = true;
  // |mu (1 - mu) (1 - 2 mu)| is largest at mu = (3 - sqrt 3) / 6: sqrt(3) / 18.
  static constexpr double kThirdDerivativeScale = 0.096225044864937631;
  static constexpr bool kEstimatesDispersion = false;
  ARGUS_HOST_DEVICE static double boundExp(double expEta) { return expEta < 1e300 ? expEta : 1e300; }
  template <typename T>
  ARGUS_HOST_DEVICE RowDerivativesOf<T> derivativesOf(T, T e, T wy, T wt) const {
    const T q = 1.0 / (1.0 + e);  // 1 - mu
    const T mu = e * q;
    const T curv = wt * mu * q;
    return {wy - wt * mu, curv, curv * (q - mu)};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double) const {
    return w * (y * eta - log1pExp(eta));
  }
  // logLik(eta + change) - logLik(eta) = wy c - w log((1 + e f) / (1 + e)), f = exp(c), and
  // (1 + e f) / (1 + e) = 1 + mu (f - 1): a row's change is then off by a few units of
  // rounding in absolute terms, where the difference of its two terms was off by a unit of
  // their size (eta = 30: 3.6e-15). A large decrease, or e or f beyond the cap (exp(eta)
  // overflowed: the row keeps eta), takes the difference from eta itself.
  ARGUS_HOST_DEVICE double logLikChange(double eta, double expEta, double wy, double wt,
                                        double change, double factor) const {
    if (expEta < 1e300 && factor < 1e300) {
      const double mu = expEta / (1.0 + expEta);
      const double x = mu * (factor - 1.0);
      if (x > -0.5) return wy * change - wt * std::log1p(x);
    }
    return wy * change - wt * (log1pExp(eta + change) - log1pExp(eta));
  }
};

// Full Poisson log-likelihood with mean exposure * exp(eta), constants kept, so that logLik()
// equals glm(family = poisson, offset = log(time)).
struct PoissonRow {
  static constexpr bool kUsesExp = true;
  static constexpr double kThirdDerivativeScale = INFINITY;  // w exp(eta): unbounded
  static constexpr bool kEstimatesDispersion = false;
  ARGUS_HOST_DEVICE static double boundExp(double expEta) { return expEta; }
  template <typename T>
  ARGUS_HOST_DEVICE RowDerivativesOf<T> derivativesOf(T, T expEta, T wy, T wt) const {
    const T mu = wt * expEta;
    return {wy - mu, mu, mu};
  }
  ARGUS_HOST_DEVICE double logLik(double eta, double y, double w, double exposure) const {
    if (w == 0.0) return 0.0;
    const double mu = exposure * std::exp(eta);
    return w * (y * std::log(mu) - mu - logGammaPlusOne(y));
  }
  // logLik(eta + change) - logLik(eta) = wy c - wt exp(eta) (f - 1), f = exp(c).
  ARGUS_HOST_DEVICE double logLikChange(double, double expEta, double wy, double wt, double change,
                                        double factor) const {
    return wy * change - wt * expEta * (factor - 1.0);
  }
};

// One row's derivatives at eta (exp(eta) = expEta): the scalar entry to derivativesOf().
template <typename Row>
ARGUS_HOST_DEVICE inline RowDerivatives glmRowDerivatives(const Row& row, double eta, double expEta,
                                                          double wy, double wt) {
  return row.template derivativesOf<double>(eta, Row::boundExp(expEta), wy, wt);
}

}  // namespace argus

namespace argus {

// A GLM coordinate's g and h from its sums (CPU and device alike). Where every row of the
// coordinate is saturated (exp(eta) under- or overflowed: logistic eta of -3600 after a poor
// start) its curvature is 0 in double while its slope still pulls; h = 0 reads as "no
// information" (newtonStep: no move; optimalityViolation: 0), and birthwt lr from
// startingCoefficients c(20, -1, .5, 5) was certified SUCCESS at log-likelihood -214,069
// (glm: -111.44). The curvature is then taken as the smallest normal double: the Newton step
// is the trust region's bound (g / h overflows to inf, which the bound clips) and the
// violation enormous. Only the GLMs: the conditional and survival models set h to 0 on
// purpose where a covariate has no variance left in a stratum or risk set, and their
// separation is judged by the recession probe.
ARGUS_HOST_DEVICE inline GradHess glmGradHess(double g, double curvature) {
  return {g, -((curvature == 0.0 && g != 0.0) ? DBL_MIN : curvature)};
}

// Sums over one column's entries that its g, h and the intercept's running estimate need
// (glm_likelihood.h): g = sum x resid, h = -x2Curv, and for the Taylor update of the
// intercept's sums, sum x curv, sum x slope, sum x^2 slope. For the intercept (x = 1 on every
// row) they are the intercept's own g, curv and slope. Shared by the CPU loop and the device
// reduction (device/device_glm_likelihood.h); for x = 1 every product is exact, so an
// indicator column's sums hold the terms of the multiplication-free CPU loop (the CPU sums
// even and odd entries apart, glm_likelihood.h: the sums agree to rounding).
struct GlmColumnSums {
  double g = 0.0, curv = 0.0, slope = 0.0, x2Curv = 0.0, x2Slope = 0.0;
};
ARGUS_HOST_DEVICE inline GlmColumnSums glmEntrySums(const RowDerivatives& d, double x) {
  GlmColumnSums s;
  s.g = x * d.resid;
  s.curv = x * d.curv;
  s.slope = x * d.slope;
  s.x2Curv = x * x * d.curv;  // in the CPU loop's order of products
  s.x2Slope = x * x * d.slope;
  return s;
}
struct GlmColumnSumsPlus {
  ARGUS_HOST_DEVICE GlmColumnSums operator()(const GlmColumnSums& a, const GlmColumnSums& b) const {
    GlmColumnSums s;
    s.g = a.g + b.g;
    s.curv = a.curv + b.curv;
    s.slope = a.slope + b.slope;
    s.x2Curv = a.x2Curv + b.x2Curv;
    s.x2Slope = a.x2Slope + b.x2Slope;
    return s;
  }
};

// The intercept's running estimate (glm_likelihood.h): G = sum resid, C = sum curv, S = sum
// slope, kept up to date by second-order Taylor steps, and recomputed exactly once the
// intercept has moved kExactAfter in total since, or after a column step above kExactStep.
struct InterceptTracking {
  double g = 0.0, curv = 0.0, slope = 0.0;
  double drift = 0.0;  // total |intercept step| since the sums were exact
  int stale = 0;       // 1: recompute exactly before the next use
  // When to recompute exactly (an O(N) pass with one division per row). The estimate only
  // steers the follower's steps (the intercept's own visit is exact), and the Taylor error
  // grows as the cube of the move. Measured on bench/cpp lr 1e5 x 1000 (gen.R's shape: 200
  // effects of sd 1, so the first cycle's steps are large): at (0.2, 0.5) a fit made 138
  // exact passes, at (0.5, 2) 50, with the same cycles (12; also 7, 11 and 11 on the default,
  // 2e4 and variance-0.1 designs) and 0.228 -> 0.208 s per fit (medians of 5 alternations).
  static constexpr double kExactAfter = 0.5;  // total |intercept move| since exact
  static constexpr double kExactStep = 2.0;   // one column step of this size

  ARGUS_HOST_DEVICE void setExact(const GlmColumnSums& intercept) {
    g = intercept.g;
    curv = intercept.curv;
    slope = intercept.slope;
    drift = 0.0;
    stale = 0;
  }
  // The intercept moved by delta.
  ARGUS_HOST_DEVICE void interceptStep(double delta) {
    g -= delta * (curv + 0.5 * delta * slope);
    curv += delta * slope;
    drift += delta < 0.0 ? -delta : delta;
    if (drift > kExactAfter) stale = 1;
  }
  // Column j (with the sums `s` its step was chosen from) moved by delta.
  ARGUS_HOST_DEVICE void columnStep(const GlmColumnSums& s, double delta) {
    g -= delta * (s.curv + 0.5 * delta * s.x2Slope);
    curv += delta * s.slope;
    if ((delta < 0.0 ? -delta : delta) > kExactStep) stale = 1;
  }
};

// A GLM row's eta moved by delta x: eta and exp(eta) follow by multiplication, with
// unitFactor = exp(delta) for the common x = 1 (one exp per coordinate for indicators). The
// CPU likelihood and the device model both move rows with it (a direction is delta = alpha,
// x = d_r).
template <bool kUsesExp>
ARGUS_HOST_DEVICE inline double glmRowFactor(double x, double change, double unitFactor) {
  return kUsesExp ? ((x == 1.0) ? unitFactor : std::exp(change)) : 1.0;
}
// Folds the lazy intercept shift into a row (refreshSums, once per cycle): eta += shift,
// exp(eta) *= exp(shift). exp(eta) is kept by multiplication, so one that left the normal
// doubles in a step that overshot would not come back with eta: past 709 it is inf for
// good, below -708 it is 0 or a subnormal that keeps a few bits (a logistic fit from a start
// that saturated every row ended 2.6e-4 of log-likelihood short of the optimum, its sums
// certifying a point that X beta was not; a Poisson profile refit with an uncentred year
// held 15 units of eta off stopped moving after one cycle). Such a value is recomputed from
// eta here; any other is multiplied, as before (the same bits).
template <bool kUsesExp>
ARGUS_HOST_DEVICE inline void foldGlmShift(double& eta, double& expEta, double shift, double expShift) {
  eta += shift;
  if (!kUsesExp) return;
  expEta *= expShift;
  if (!(expEta >= DBL_MIN && expEta < INFINITY)) expEta = std::exp(eta);
}

template <bool kUsesExp>
ARGUS_HOST_DEVICE inline void moveGlmRowBy(double& eta, double& expEta, double change, double factor) {
  eta += change;
  if (kUsesExp) expEta *= factor;
}
template <bool kUsesExp>
ARGUS_HOST_DEVICE inline void moveGlmRow(double& eta, double& expEta, double x, double delta,
                                         double unitFactor) {
  const double change = delta * x;
  moveGlmRowBy<kUsesExp>(eta, expEta, change, glmRowFactor<kUsesExp>(x, change, unitFactor));
}

// What moveGlmRow(eta, expEta, x, delta, unitFactor) would gain in the row's log-likelihood,
// from the row's values before the move (eta and exp(eta) with the likelihood's lazy shift
// applied): one pass of a cycle extrapolation sums it, another (or the same) moves the row.
template <typename Row>
ARGUS_HOST_DEVICE inline double glmRowGain(const Row& row, double eta, double expEta, double wy,
                                           double wt, double x, double delta, double unitFactor) {
  const double change = delta * x;
  return row.logLikChange(eta, expEta, wy, wt, change,
                          glmRowFactor<Row::kUsesExp>(x, change, unitFactor));
}

// glmRowGain, then moveGlmRow, with exp(change) taken once: the compiler does not merge two
// calls of exp (it may set errno), and in a logistic cycle extrapolation the second exp per
// row was a sixth of the pass.
template <typename Row>
ARGUS_HOST_DEVICE inline double moveGlmRowWithGain(const Row& row, double& eta, double& expEta, double shift,
                                                   double expShift, double wy, double wt, double x,
                                                   double delta, double unitFactor) {
  const double change = delta * x;
  const double factor = glmRowFactor<Row::kUsesExp>(x, change, unitFactor);
  const double gain = row.logLikChange(eta + shift, expEta * expShift, wy, wt, change, factor);
  moveGlmRowBy<Row::kUsesExp>(eta, expEta, change, factor);
  return gain;
}

// One row's terms of least squares' dispersion: w e^2, w y^2 and w, e = y - eta.
struct ResidualSquares {
  double rss = 0.0, squares = 0.0, weight = 0.0;
};
ARGUS_HOST_DEVICE inline ResidualSquares residualSquares(double y, double eta, double w) {
  const double e = y - eta;
  return {w * e * e, w * y * y, w};
}
struct ResidualSquaresPlus {
  ARGUS_HOST_DEVICE ResidualSquares operator()(const ResidualSquares& a, const ResidualSquares& b) const {
    return {a.rss + b.rss, a.squares + b.squares, a.weight + b.weight};
  }
};

// The least-squares dispersion from the weighted residual sum of squares, sum of w y^2 and sum
// of weights: the mean squared residual, floored at 1e-16 of the weighted mean of y^2 so that
// an exact fit does not divide rounding noise by zero.
inline double leastSquaresDispersion(double rss, double squares, double weight) {
  if (!(weight > 0.0)) return 1.0;
  return std::fmax(rss, 1e-16 * squares + 1e-300) / weight;
}

}  // namespace argus
