// Priors and the one-coordinate step of CCD (MODELS.md §3-4), written once for the CPU's host
// sweep and the device models' one-thread step functors.
//
// Sign conventions: g = dL/dbeta_j, h = d2L/dbeta_j2 <= 0 (L concave). The step maximizes the
// log posterior L + log p along coordinate j.
#pragma once

#include <cmath>

#include "common/host_device.h"

namespace argus {

enum class PriorKind : int { None = 0, Laplace = 1, Normal = 2 };

struct CoordinatePrior {
  PriorKind kind = PriorKind::None;
  double variance = 1.0;
};

struct GradHess {
  double g = 0.0;
  double h = 0.0;
};

// Laplace rate for a given variance: Var = 2 / lambda^2.
ARGUS_HOST_DEVICE inline double laplaceLambda(double variance) {
  return std::sqrt(2.0 / variance);
}

// log p(beta) including its normalizing constant (a flat prior contributes 0).
ARGUS_HOST_DEVICE inline double logPriorDensity(double beta, CoordinatePrior p) {
  constexpr double kLog2Pi = 1.8378770664093453;
  switch (p.kind) {
    case PriorKind::Laplace: {
      const double lambda = laplaceLambda(p.variance);
      return std::log(0.5 * lambda) - lambda * std::fabs(beta);
    }
    case PriorKind::Normal:
      return -0.5 * (kLog2Pi + std::log(p.variance)) - 0.5 * beta * beta / p.variance;
    case PriorKind::None:
      break;
  }
  return 0.0;
}

// The log prior's derivative along beta_j and its curvature (minus the second derivative),
// on the side `orthant` (+1 or -1) of 0 for the Laplace prior: sign(beta) away from 0, at 0
// the side a step goes to. The one place these terms are written: the Newton step, the
// optimality check, the block Newton step and the cycle extrapolation all use it.
struct PriorSlope {
  double gradient = 0.0;
  double curvature = 0.0;
};
ARGUS_HOST_DEVICE inline PriorSlope priorSlope(double beta, CoordinatePrior p, double orthant) {
  switch (p.kind) {
    case PriorKind::Normal:
      return {-beta / p.variance, 1.0 / p.variance};
    case PriorKind::Laplace:
      return {-laplaceLambda(p.variance) * orthant, 0.0};
    case PriorKind::None:
      break;
  }
  return {0.0, 0.0};
}

// The unconstrained Newton step for coordinate j, with the Laplace rule:
//  - beta != 0: use the derivative at sign(beta) and stop at 0 if the step would cross it;
//  - beta == 0: leave 0 only in the direction whose directional derivative is positive
//    (g - lambda > 0 up, g + lambda < 0 down; convexity forbids both).
// A coordinate without curvature (h + prior curvature >= 0) does not move.
ARGUS_HOST_DEVICE inline double newtonStep(GradHess gh, double beta, CoordinatePrior p) {
  switch (p.kind) {
    case PriorKind::None:
      return gh.h < 0.0 ? -gh.g / gh.h : 0.0;
    case PriorKind::Normal: {
      const PriorSlope prior = priorSlope(beta, p, 0.0);
      return -(gh.g + prior.gradient) / (gh.h - prior.curvature);
    }
    case PriorKind::Laplace: {
      if (!(gh.h < 0.0)) return 0.0;
      const double lambda = laplaceLambda(p.variance);
      if (beta == 0.0) {
        if (gh.g - lambda > 0.0) return -(gh.g - lambda) / gh.h;
        if (gh.g + lambda < 0.0) return -(gh.g + lambda) / gh.h;
        return 0.0;
      }
      const double sign = beta > 0.0 ? 1.0 : -1.0;
      const double delta = -(gh.g + priorSlope(beta, p, sign).gradient) / gh.h;
      const bool crosses = (beta + delta) * sign < 0.0;
      return crosses ? -beta : delta;
    }
  }
  return 0.0;
}

// The point that maximizes the separable model g d + h d^2 / 2 (h < 0) plus log p(beta + d)
// over d, returned as beta + d: newtonStep's step, except that a Laplace coordinate whose
// step would cross 0 goes on from 0 with the model's slope there (g - h beta), so it crosses
// where the model gains beyond 0 and lands on exactly 0 otherwise. The proximal step of the
// all-coordinates steps (device/all_coordinates_steps.h), which take each coordinate's step
// once per pass where a coordinate cycle would stop at 0 and come back.
ARGUS_HOST_DEVICE inline double proximalPoint(GradHess gh, double beta, CoordinatePrior p) {
  const double delta = newtonStep(gh, beta, p);
  if (p.kind != PriorKind::Laplace || beta == 0.0 || delta != -beta) return beta + delta;
  return newtonStep(GradHess{gh.g - gh.h * beta, gh.h}, 0.0, p);
}

ARGUS_HOST_DEVICE inline double clipToBound(double delta, double bound) {
  return delta > bound ? bound : (delta < -bound ? -bound : delta);
}

// Trust region of Genkin, Lewis & Madigan (2007): clip the step to the coordinate's bound and
// adapt the bound to the step taken.
ARGUS_HOST_DEVICE inline double trustRegionStep(double delta, double* bound) {
  const double limit = *bound;
  const double clipped = clipToBound(delta, limit);
  const double twice = 2.0 * std::fabs(clipped);
  const double half = 0.5 * limit;
  *bound = twice > half ? twice : half;
  return clipped;
}

// The trust region of a cycle's follower steps (solver/cycle_runner.h): clip to the bound,
// and let the bound grow to twice the step taken but never shrink. The follower moves after
// every coordinate, mostly by small amounts; the halving rule would collapse its bound, and
// the coordinate's own exact visit shrinks it anyway.
// An infinite step (a slope over a curvature that underflowed: glmGradHess in
// glm_functors.h) is not taken: re-stepped after every coordinate, its bound would double
// each time, 2^P in one cycle; the coordinate's own exact visit takes it, clipped.
ARGUS_HOST_DEVICE inline double followerStep(double delta, double* bound) {
  if (delta == INFINITY || delta == -INFINITY) return 0.0;
  const double clipped = clipToBound(delta, *bound);
  const double twice = 2.0 * std::fabs(clipped);
  if (twice > *bound) *bound = twice;
  return clipped;
}

}  // namespace argus
