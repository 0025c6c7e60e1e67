// The majorized start's bound (solver/majorized_start.h), written once for the host's
// coordinate sweeps (solver/host_bound_steps.cpp) and the device's all-coordinates steps
// (device/all_coordinates_steps.h).
//
// At beta a likelihood offers per row a score s_r = dL/deta_r and a curvature c_r >= 0 with
// diag(c) bounding minus the eta-Hessian (Likelihood::rowScores). For a move delta of the
// coefficients, D = X delta, the bound
//   q(delta) = sum_r s_r (D_r + alpha_s(r)) - 1/2 sum_r c_r (D_r + alpha_s(r))^2
// is maximized over one shift alpha per stratum where the likelihood ignores such a shift
// (survival and conditional models: BoundShift::PerStratum), over the intercept's move where
// a GLM has a free flat intercept (BoundShift::Intercept: one shift of every row, which then
// is the intercept's step), and elsewhere alpha = 0. With
// t_r = s_r - c_r D_r and, per stratum, T_s = sum t_r and C_s = sum c_r, alpha_s = T_s / C_s and
//   q = sum_r s_r D_r - 1/2 sum_r c_r D_r^2 + 1/2 sum_s T_s^2 / C_s.
// Along coordinate j: the gradient sum x (t - c alpha) over the column's entries, and the
// curvature sum c x^2 less, per stratum, (sum c x)^2 / C_s (alpha re-maximized with the move).
#pragma once

#include "common/host_device.h"

namespace argus {

// Over which shift of eta the bound is maximized (see above): one per stratum, discarded; the
// intercept's, which the intercept takes where it is free and flat; none.
enum class BoundShift { PerStratum, Intercept, None };

// alpha_s = T_s / C_s; 0 for a stratum without curvature.
ARGUS_HOST_DEVICE inline double boundShift(double total, double sumC) { return sumC > 0.0 ? total / sumC : 0.0; }

// A row's t_r = s_r - c_r D_r: its score less the bound's curvature along the move D so far.
ARGUS_HOST_DEVICE inline double boundResidual(double score, double c, double d) { return score - c * d; }

// An entry's share of its column's gradient of q: x (t_r - c_r alpha_s(r)).
ARGUS_HOST_DEVICE inline double boundGradientTerm(double x, double t, double c, double alpha) {
  return x * (t - c * alpha);
}

// A stratum run's share of the curvature's excess, (sum of c x over the run)^2 / C_s, taken
// where C_s > 0 (a stratum without curvature has no shift to re-maximize).
ARGUS_HOST_DEVICE inline double boundRunExcess(double sumCx, double sumC) { return sumCx * sumCx / sumC; }

// A column's curvature of q along its coordinate: sum c x^2 less the strata's excess.
ARGUS_HOST_DEVICE inline double boundCurvature(double cxx, double excess) { return cxx - excess; }

// Whether a column's curvature of q, cxx less its excess, carries information: a column
// constant within strata leaves only rounding noise of cxx.
ARGUS_HOST_DEVICE inline bool boundInformative(double curvature, double cxx) { return curvature > 1e-12 * cxx; }

// A move of beta_j by delta on one entry's row: t -= c x delta, D += x delta.
ARGUS_HOST_DEVICE inline void boundMoveRow(double* t, double* d, double cx, double x, double delta) {
  *t -= cx * delta;
  *d += x * delta;
}

// The log-likelihood's slope along D at beta: a row's share, s D.
ARGUS_HOST_DEVICE inline double boundScoreSlopeTerm(double score, double d) { return score * d; }

// The same from t and D (s = t + c D), where the sweep keeps t rather than s.
ARGUS_HOST_DEVICE inline double boundSlopeTerm(double t, double c, double d) { return boundScoreSlopeTerm(t + c * d, d); }

// A row's share of q without the strata's term: s D - c D^2 / 2.
ARGUS_HOST_DEVICE inline double boundRowValue(double score, double c, double d) { return score * d - 0.5 * c * d * d; }

// A stratum's share of q: T_s^2 / (2 C_s), 0 without curvature.
ARGUS_HOST_DEVICE inline double boundStratumValue(double total, double sumC) {
  return sumC > 0.0 ? 0.5 * total * total / sumC : 0.0;
}

}  // namespace argus
