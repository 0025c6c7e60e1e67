#include "solver/profile.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>

#include "common/errors.h"
#include "common/task_runner.h"
#include "data/column_centring.h"
#include "priors/prior.h"
#include "solver/inference.h"
#include "solver/refit_session.h"
#include "solver/root_finding.h"

namespace argus {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A coordinate whose column is centred (data/column_centring.h) beside a free intercept: the
// intercept and the column's shift; otherwise intercept -1. Profiling the intercept itself
// beside such a column: `partner` is the centred column (the one of largest shift) that a
// refit's start moves against it.
struct ProfileCentring {
  std::int32_t intercept = -1;
  double shift = 0.0;
  std::int32_t partner = -1;
  double partnerShift = 0.0;
};
ProfileCentring profileCentring(const FitRequest& fit, std::int32_t c) {
  ProfileCentring out;
  const std::int32_t intercept = interceptColumn(fit.data->design);
  const auto fixed = [&](std::int32_t j) { return !fit.fixed.empty() && fit.fixed[j]; };
  if (intercept < 0) return out;
  if (intercept == c) {
    const std::vector<double> means = largeColumnMeans(fit.data->design);
    for (std::size_t j = 0; j < means.size(); ++j)
      if (means[j] != 0.0 && !fixed(static_cast<std::int32_t>(j)) &&
          std::fabs(means[j]) > std::fabs(out.partnerShift)) {
        out.partner = static_cast<std::int32_t>(j);
        out.partnerShift = means[j];
      }
    return out;
  }
  if (fixed(intercept)) return out;
  const double shift = largeColumnMeans(fit.data->design, {c})[c];
  if (shift != 0.0) out = ProfileCentring{intercept, shift, -1, 0.0};
  return out;
}

// profile(b) for one coordinate: a refit with beta_c fixed at b, the others warm-started from
// the optimum. A centred column's move is started with the intercept moved against it (by
// -shift (b - beta_c)), so that eta starts where it was near the column's mean: moved as is, a
// column of 1e4 + N(0, 1) shifted eta by 1e4 (b - beta_c) and the refits ran out of cycles.
// Likewise a held intercept moves such a column's coefficient by -(b - beta_0) / shift (moved
// alone, it left refits far below their maximum: lr's intercept interval 2.5x too narrow).
// The refits run in `session` (solver/refit_session.h: fitCcd()'s fits without its set-up).
// Where every other coefficient is held too (a Cox outcome model of the treatment alone), no
// cycle moves anything and the refit is its start: its value is the log-likelihood there,
// read by one reset of the runner, as the fit's own readout gives it. Counts its refits.
class ProfileObjective {
 public:
  ProfileObjective(const FitRequest& fit, RefitSession& session, std::int32_t coordinate,
                   bool includePenalty, ProgressSink* progress)
      : request_(profileRequest(fit, coordinate)),
        session_(session),
        optimum_(fit.start),
        coordinate_(coordinate),
        includePenalty_(includePenalty),
        progress_(progress),
        centring_(profileCentring(fit, coordinate)),
        nothingFree_(std::all_of(request_.fixed.begin(), request_.fixed.end(),
                                 [](unsigned char f) { return f != 0; })) {}

  double operator()(double b) {
    if (!std::isfinite(b)) return kNaN;
    request_.start = optimum_;
    request_.start[coordinate_] = b;
    if (centring_.intercept >= 0)
      request_.start[centring_.intercept] -= centring_.shift * (b - optimum_[coordinate_]);
    if (centring_.partner >= 0)  // the intercept held at b: eta kept at the partner's mean
      request_.start[centring_.partner] -= (b - optimum_[coordinate_]) / centring_.partnerShift;
    ++evaluations;
    if (nothingFree_) return heldPoint();
    const FitResult fit = session_.fit(request_, progress_);
    lastBeta = fit.beta;
    atLastBeta_ = false;
    // A refit whose other coefficients run off to infinity still gives the profile's value
    // (the supremum); only fits that did not get there count.
    if (fit.status == FitStatus::MaxIterations || fit.status == FitStatus::IllConditioned)
      ++unconverged;
    return fit.logLikelihood + (includePenalty_ ? fit.logPrior : 0.0);
  }

  // The derivative along the coordinate at the last refit (of the log-likelihood, plus the
  // log prior's when includePenalty: at 0 a Laplace prior contributes 0, as no side is
  // taken), from the runner reset at its coefficients: LikelihoodProbe's numbers.
  double slope() {
    if (!atLastBeta_) session_.moveTo(lastBeta);
    const double b = lastBeta[coordinate_];
    const double side = static_cast<double>((b > 0.0) - (b < 0.0));
    return session_.gradHess(coordinate_).g +
           (includePenalty_ ? priorSlope(b, request_.prior[coordinate_], side).gradient : 0.0);
  }

  int evaluations = 0;
  int unconverged = 0;
  std::vector<double> lastBeta;  // the last refit's coefficients

 private:
  // The request of the refits: the fit's, the coordinate fixed, one thread (coordinates or
  // grid points are what runs in parallel), quiet.
  static FitRequest profileRequest(const FitRequest& fit, std::int32_t coordinate) {
    FitRequest req = fit;
    if (req.fixed.empty()) req.fixed.assign(fit.start.size(), 0);
    req.fixed[coordinate] = 1;
    req.control.verbose = false;
    req.control.threads = 1;
    return req;
  }

  // The refit of a point where nothing is free: its start, the status a fit there reports
  // (IllConditioned where the log-likelihood is not finite).
  double heldPoint() {
    const double logLikelihood = session_.moveTo(request_.start);
    lastBeta = request_.start;
    atLastBeta_ = true;
    if (!std::isfinite(logLikelihood)) ++unconverged;
    return logLikelihood + (includePenalty_ ? logPriorTotal(request_.start, request_.prior) : 0.0);
  }

  FitRequest request_;
  RefitSession& session_;
  std::vector<double> optimum_;
  std::int32_t coordinate_;
  bool includePenalty_;
  ProgressSink* progress_;
  ProfileCentring centring_;
  bool nothingFree_;
  bool atLastBeta_ = false;  // the session's runner stands at lastBeta (heldPoint())
};

// The Wald-like first step sqrt(2 drop / curvature); when the curvature is zero or useless
// (a flat or separated direction) a step of the size of the estimate itself, and no more
// than that where the curvature has all but vanished: a Poisson coefficient run off to -30
// (a group without events) has a curvature of ~exp(-30), whose Wald step of ~1e6 took its
// finite side's first refit to eta = 1e6, which overflows, and the limit was NA.
constexpr double kFlatStepFactor = 100.0;

double firstStep(const FitRequest& fit, std::int32_t c, const ProfileSettings& settings) {
  LikelihoodProbe probe(fit.device, *fit.data, fit.weights);
  probe.moveTo(fit.start);
  double curvature = -probe.gradHess(c).h;
  // A centred column: the curvature along x_c - shift (with the intercept), not along x_c,
  // which an intercept absorbs all but 1 / (mean / sd)^2 of.
  const ProfileCentring centring = profileCentring(fit, c);
  if (centring.intercept >= 0) {
    const std::vector<std::int32_t> pair = {centring.intercept, c};
    curvature = -hessianAt(probe, fit.start, pair, HessianOptions(), {0.0, centring.shift})(1, 1);
  }
  const CoordinatePrior& prior = fit.prior[c];
  if (settings.includePenalty && prior.kind == PriorKind::Normal) curvature += 1.0 / prior.variance;
  const double step = std::sqrt(2.0 * settings.drop / curvature);
  const double estimateSize = std::max(1.0, std::fabs(fit.start[c]));
  if (curvature > 0.0 && std::isfinite(step) && step > 0.0 && step <= kFlatStepFactor * estimateSize) return step;
  return estimateSize;
}

// How much further to look after a point that has fallen `fall` < drop below the maximum:
// where a parabola with its top at the optimum through that point falls by `drop`, and 10%
// beyond so that it usually brackets the limit at once (profiles of GLMs are flatter than
// the parabola far out). Clamped to [1.2, 4]: a flat or rising profile (separation) still
// moves out geometrically, and the number of expansions bounds the distance.
double expansionFactor(double fall, double drop) {
  if (!(fall > 0.0)) return 4.0;
  return std::min(4.0, std::max(1.2, 1.1 * std::sqrt(drop / fall)));
}

ProfileLimit searchSide(ProfileObjective& profile, double optimum, double maximum, double step,
                        double side, double xTolerance, const ProfileSettings& settings) {
  // The root is solved on the signed-root scale, sqrt(drop) - sqrt(maximum - profile): it is
  // linear in b when the profile is a parabola (exactly so for least squares) and nearly
  // linear for other models, so the interpolation steps of findRoot() land almost at once.
  const double rootDrop = std::sqrt(settings.drop);
  auto excessOf = [&](double value) {
    return rootDrop - std::sqrt(std::max(0.0, maximum - value));  // NaN stays NaN
  };
  // A rise above the optimum's value larger than refit noise means it was no maximum.
  const double allowedRise = 1e-3 * settings.drop;
  double inner = optimum, innerExcess = rootDrop;  // > 0 inside the interval
  double distance = step;
  // A refit that ended short of its optimum reads the profile too low, and the limit comes
  // too close: calendar year and its square, uncentred, gave a limit 1.76 standard errors
  // inside the true one (the profile had dropped by 0.04 there, not 1.92). Such a side is
  // Failed (NA), as the documentation promises, not a number.
  const int unconvergedBefore = profile.unconverged;
  for (int k = 0; k <= settings.maxExpansions; ++k) {
    const double b = optimum + side * distance;
    const double value = profile(b);
    if (std::isnan(value)) return {kNaN, LimitStatus::Failed};
    if (value > maximum + allowedRise) return {kNaN, LimitStatus::NotMaximum};
    const double excess = excessOf(value);
    if (excess <= 0.0) {
      const RootResult root = findRoot([&](double x) { return excessOf(profile(x)); }, inner,
                                       innerExcess, b, excess, xTolerance,
                                       settings.maxRootEvaluations);
      if (!root.converged || profile.unconverged > unconvergedBefore) return {kNaN, LimitStatus::Failed};
      return {root.root, LimitStatus::Found};
    }
    inner = b;
    innerExcess = excess;
    distance *= expansionFactor(maximum - value, settings.drop);
  }
  return {kNaN, LimitStatus::NotReached};
}

// The refit sessions of runTasks()' tasks: one per task in flight, each then lent to the tasks
// that follow; which task gets which changes nothing (every session's fit is fitCcd()'s).
class SessionPool {
 public:
  explicit SessionPool(const FitRequest& fit) : base_(fit) {
    base_.control.threads = 1;  // coordinates or grid points are what runs in parallel
  }
  std::unique_ptr<RefitSession> take() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<RefitSession> session = std::move(idle_.back());
        idle_.pop_back();
        return session;
      }
    }
    return std::make_unique<RefitSession>(base_);
  }
  void giveBack(std::unique_ptr<RefitSession> session) {
    const std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(session));
  }

 private:
  FitRequest base_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<RefitSession>> idle_;
};

ProfileInterval profileOne(const FitRequest& fit, std::int32_t c, const ProfileSettings& settings,
                           RefitSession& session, ProgressSink* progress) {
  ProfileObjective profile(fit, session, c, settings.includePenalty, progress);
  ProfileInterval out;
  const double optimum = fit.start[c];
  out.maximum = profile(optimum);
  if (std::isfinite(out.maximum)) {
    const double step = firstStep(fit, c, settings);
    // Relative to the smaller of the step and the estimate's size: a huge step (an almost
    // flat direction) must not make the limits coarse.
    const double scale = std::min(step, std::max(1.0, std::fabs(optimum)));
    const double xTolerance = settings.relativeTolerance * scale;
    out.lower = searchSide(profile, optimum, out.maximum, step, -1.0, xTolerance, settings);
    out.upper = searchSide(profile, optimum, out.maximum, step, +1.0, xTolerance, settings);
  }
  out.evaluations = profile.evaluations;
  out.unconverged = profile.unconverged;
  return out;
}

void checkProfileRequest(const FitRequest& fit, const std::vector<std::int32_t>& coordinates) {
  ARGUS_REQUIRE(fit.data != nullptr, "no data");
  const std::size_t p = fit.data->design.nColumns();
  ARGUS_REQUIRE(fit.start.size() == p, "the profile needs the fitted coefficients as start");
  ARGUS_REQUIRE(fit.prior.size() == p, "one prior per covariate is required");
  ARGUS_REQUIRE(fit.fixed.empty() || fit.fixed.size() == p, "fixed flags have the wrong length");
  for (std::int32_t c : coordinates) {
    ARGUS_REQUIRE(c >= 0 && static_cast<std::size_t>(c) < p,
                  "coordinate " + std::to_string(c) + " is out of range");
    ARGUS_REQUIRE(fit.fixed.empty() || !fit.fixed[c],
                  "coordinate " + std::to_string(c) + " is fixed and has no profile");
  }
}

}  // namespace

std::vector<ProfileInterval> profileIntervals(const FitRequest& fit,
                                              const std::vector<std::int32_t>& coordinates,
                                              const ProfileSettings& settings,
                                              ProgressSink* progress) {
  checkProfileRequest(fit, coordinates);
  ARGUS_REQUIRE(settings.drop > 0.0 && std::isfinite(settings.drop), "the drop must be positive");
  ARGUS_REQUIRE(settings.maxExpansions >= 0, "maxExpansions must be non-negative");
  ARGUS_REQUIRE(settings.relativeTolerance > 0.0, "the tolerance must be positive");
  validateDataset(*fit.data, fit.weights);
  std::vector<ProfileInterval> out(coordinates.size());
  SessionPool sessions(fit);
  runTasks(coordinates.size(), settings.threads, [&](std::size_t i, ProgressSink* sink) {
    std::unique_ptr<RefitSession> session = sessions.take();
    out[i] = profileOne(fit, coordinates[i], settings, *session, sink);
    sessions.giveBack(std::move(session));
  }, progress);
  return out;
}

namespace {

// The profile at `points`, each a task of runTasks() in a session of `sessions`.
std::vector<ProfilePoint> valuesAt(const FitRequest& fit, std::int32_t coordinate,
                                   const std::vector<double>& points, bool includePenalty,
                                   int threads, ProgressSink* progress, bool withDerivative,
                                   SessionPool& sessions) {
  std::vector<ProfilePoint> out(points.size());
  runTasks(points.size(), threads, [&](std::size_t i, ProgressSink* sink) {
    std::unique_ptr<RefitSession> session = sessions.take();
    ProfileObjective profile(fit, *session, coordinate, includePenalty, sink);
    out[i].value = profile(points[i]);
    out[i].converged = profile.unconverged == 0;
    if (withDerivative && !profile.lastBeta.empty()) out[i].derivative = profile.slope();
    sessions.giveBack(std::move(session));
  }, progress);
  return out;
}

}  // namespace

std::vector<ProfilePoint> profileValues(const FitRequest& fit, std::int32_t coordinate,
                                        const std::vector<double>& points, bool includePenalty,
                                        int threads, ProgressSink* progress, bool withDerivative) {
  checkProfileRequest(fit, {coordinate});
  for (double b : points) ARGUS_REQUIRE(std::isfinite(b), "profile points must be finite");
  validateDataset(*fit.data, fit.weights);
  SessionPool sessions(fit);
  return valuesAt(fit, coordinate, points, includePenalty, threads, progress, withDerivative, sessions);
}

AdaptiveProfile adaptiveProfile(const FitRequest& fit, std::int32_t coordinate,
                                const std::vector<double>& initial, double tolerance,
                                std::size_t maxPoints, bool includePenalty, int threads,
                                ProgressSink* progress, bool withDerivative) {
  checkProfileRequest(fit, {coordinate});
  ARGUS_REQUIRE(initial.size() >= 2, "the adaptive grid needs 2 points or more to start");
  for (std::size_t i = 0; i < initial.size(); ++i) {
    ARGUS_REQUIRE(std::isfinite(initial[i]), "profile points must be finite");
    ARGUS_REQUIRE(i == 0 || initial[i] > initial[i - 1], "the first grid must be increasing");
  }
  ARGUS_REQUIRE(maxPoints >= initial.size(), "maxPoints must be at least the first grid's size");
  ARGUS_REQUIRE(threads >= 1, "threads must be at least 1");
  ARGUS_REQUIRE(tolerance > 0.0, "the tolerance must be positive");
  validateDataset(*fit.data, fit.weights);
  SessionPool sessions(fit);
  AdaptiveProfile out;
  out.points = initial;
  out.values = valuesAt(fit, coordinate, initial, includePenalty, threads, progress, withDerivative, sessions);
  std::vector<unsigned char> open(initial.size() - 1, 1);  // interval (i, i + 1) to check
  for (;;) {
    std::vector<double> mid;
    for (std::size_t i = 0; i < open.size(); ++i)
      if (open[i]) mid.push_back((out.points[i] + out.points[i + 1]) / 2);
    if (mid.empty() || out.points.size() + mid.size() > maxPoints) break;
    const std::vector<ProfilePoint> at =
        valuesAt(fit, coordinate, mid, includePenalty, threads, progress, withDerivative, sessions);
    AdaptiveProfile next;
    std::vector<unsigned char> nextOpen;
    std::size_t k = 0;  // midpoints placed so far
    for (std::size_t i = 0; i < out.points.size(); ++i) {
      next.points.push_back(out.points[i]);
      next.values.push_back(out.values[i]);
      if (i + 1 == out.points.size()) break;
      if (!open[i]) {
        nextOpen.push_back(0);
        continue;
      }
      const double linear = (out.values[i].value + out.values[i + 1].value) / 2;
      const double value = at[k].value;
      const unsigned char refine = std::isfinite(value) && std::fabs(value - linear) > tolerance;
      next.points.push_back(mid[k]);
      next.values.push_back(at[k]);
      nextOpen.push_back(refine);
      nextOpen.push_back(refine);
      ++k;
    }
    out.points.swap(next.points);
    out.values.swap(next.values);
    open.swap(nextOpen);
  }
  out.complete = std::none_of(open.begin(), open.end(), [](unsigned char o) { return o != 0; });
  return out;
}

}  // namespace argus
