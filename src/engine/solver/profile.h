// Profile likelihood (MODELS.md §6): for one coefficient beta_c held at a value b, refit the
// others (warm-started from the optimum) and report the objective
//   profile(b) = L(beta) + [includePenalty] sum_j log p_j(beta_j)
// at the refitted beta. The other coefficients always maximize the fit's own objective (the
// log posterior); includePenalty decides whether the prior terms count in the reported value.
//
// Confidence limits are where the profile has dropped by `drop` = qchisq(level, 1) / 2 from
// its value at the optimum. Each side is bracketed by steps from the optimum, starting at a
// Wald-like step sqrt(2 drop / curvature) with the curvature -h_cc at the optimum (the
// conditional, not the marginal, Wald half-width: a little short) and growing by 1.2 to 4
// times, as far as a parabola through the last point says the limit is (plus 10%); then
// findRoot() solves within the bracket. A side fails cleanly, never loops:
//   NotReached  the profile never dropped enough within maxExpansions expansions
//               (separation, a flat likelihood);
//   NotMaximum  the profile rose above its value at the optimum (the fit was not at a
//               maximum, e.g. an estimate drifting to infinity under separation);
//   Failed      a refit gave a non-finite value or ended without converging (its value
//               reads the profile too low), or the root search hit its cap.
// Coordinates (or grid points) run in parallel on `threads` threads; each task is
// sequential and deterministic, so results do not depend on the thread count. Only a single
// thread passes the ProgressSink on (an R interrupt check must run on R's thread).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "solver/ccd_solver.h"

namespace argus {

struct ProfileSettings {
  bool includePenalty = true;
  double drop = 1.9207294103470103;  // qchisq(0.95, 1) / 2
  int maxExpansions = 10;            // expansions of the first step before a side gives up
  double relativeTolerance = 1e-6;   // root tolerance, relative to the first step
  int maxRootEvaluations = 60;
  int threads = 1;
};

enum class LimitStatus { Found = 0, NotReached = 1, NotMaximum = 2, Failed = 3 };

struct ProfileLimit {
  double value = std::numeric_limits<double>::quiet_NaN();
  LimitStatus status = LimitStatus::Failed;
};

struct ProfileInterval {
  ProfileLimit lower, upper;
  double maximum = 0.0;  // the profile at the optimum
  int evaluations = 0;   // refits, the one at the optimum included
  int unconverged = 0;   // refits that ended without SUCCESS
};

struct ProfilePoint {
  double value = 0.0;
  bool converged = true;
  // with `withDerivative`: the partial derivative along the coordinate at the refit (of the
  // log-likelihood, plus the log prior's when includePenalty: then the profile's slope)
  double derivative = std::numeric_limits<double>::quiet_NaN();
};

// `fit.start` must hold the optimum (the fitted coefficients); `fit.fixed` may fix others.
std::vector<ProfileInterval> profileIntervals(const FitRequest& fit,
                                              const std::vector<std::int32_t>& coordinates,
                                              const ProfileSettings& settings,
                                              ProgressSink* progress = nullptr);

// The profile of one coordinate at the given points, each refit warm-started from the
// optimum in `fit.start`; with `withDerivative`, also its derivative there (from the same
// refit: no second fit per point).
std::vector<ProfilePoint> profileValues(const FitRequest& fit, std::int32_t coordinate,
                                        const std::vector<double>& points, bool includePenalty,
                                        int threads, ProgressSink* progress = nullptr,
                                        bool withDerivative = false);

// The profile of one coordinate on an adaptive grid, as R's profileLogLikelihood(bounds =)
// describes it: from `initial` (increasing, 2 points or more), each round refits the midpoint
// of every interval still open, and an interval whose midpoint's value lies within
// `tolerance` of the straight line between its ends (or where it or an end is not finite: a
// failed refit) closes, while one whose midpoint misses leaves its two halves open. Rounds go
// on while an interval is open and the next round keeps the grid within `maxPoints` points.
// One engine call for every round: the refit sessions serve all of them (a Cox outcome
// model's 247 points took 9 calls from R, a quarter of the profile's time). Each point's
// value is profileValues()'s there.
struct AdaptiveProfile {
  std::vector<double> points;        // increasing
  std::vector<ProfilePoint> values;  // at `points`
  bool complete = true;              // no interval was left open (maxPoints not reached)
};
AdaptiveProfile adaptiveProfile(const FitRequest& fit, std::int32_t coordinate,
                                const std::vector<double>& initial, double tolerance,
                                std::size_t maxPoints, bool includePenalty, int threads,
                                ProgressSink* progress = nullptr, bool withDerivative = false);

}  // namespace argus
