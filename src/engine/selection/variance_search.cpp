#include "selection/variance_search.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

#include "common/errors.h"

namespace argus {

namespace {

double comparable(double score) {
  return std::isnan(score) ? -std::numeric_limits<double>::infinity() : score;
}

// Scores by t = log10(v / start), each evaluated once.
class LogScale {
 public:
  LogScale(double start, const ScoreFunction& score) : start_(start), score_(score) {}

  double at(double t) {
    const auto found = points_.find(t);
    if (found != points_.end()) return found->second;
    const double s = comparable(score_(variance(t)));
    points_.emplace(t, s);
    return s;
  }
  double variance(double t) const { return t == 0.0 ? start_ : start_ * std::pow(10.0, t); }
  // The best point; ties go to the smaller variance (the first in increasing t).
  std::map<double, double>::const_iterator best() const {
    auto bestAt = points_.begin();
    for (auto it = points_.begin(); it != points_.end(); ++it)
      if (it->second > bestAt->second) bestAt = it;
    return bestAt;
  }
  const std::map<double, double>& points() const { return points_; }

 private:
  double start_;
  const ScoreFunction& score_;
  std::map<double, double> points_;
};

// Vertex of the parabola through three points (ta < tb < tc); NaN when the points are
// collinear or not all finite. It is the maximum when the parabola is concave (as it is when
// fb is no lower than fa and fc).
double parabolaVertex(double ta, double fa, double tb, double fb, double tc, double fc) {
  if (!std::isfinite(fa) || !std::isfinite(fb) || !std::isfinite(fc))
    return std::numeric_limits<double>::quiet_NaN();
  const double left = (tb - ta) * (fb - fc);
  const double right = (tb - tc) * (fb - fa);
  const double denominator = left - right;
  if (denominator == 0.0) return std::numeric_limits<double>::quiet_NaN();
  return tb - 0.5 * ((tb - ta) * left - (tb - tc) * right) / denominator;
}

// Step 1 of the auto search: returns whether a maximum was bracketed, and where. Scores are
// requested one statement at a time: the order of evaluation is part of the result (warm
// starts), and the order of operands of a comparison is unspecified in C++.
struct Bracket {
  bool found = true;
  double center = 0.0;
  bool decades = true;  // the center's neighbours lie a decade away (else: a vertex step)
};

// Scores within a relative 1e-8 of each other are tied: fold fits that differ only within
// the solver's tolerance (all penalized coefficients at 0, say) must not look like a trend.
bool clearlyBelow(double a, double b) { return a < b - 1e-8 * (1.0 + std::fabs(b)); }

// A vertex step is tried only if the vertex lies at least this far (decades) inside the last
// decade: one near either end would score about the same as that end.
constexpr double kVertexMargin = 0.1;

// A vertex step of the walk in direction s (+1 up, -1 down), after c + s scored no lower than
// c: when the parabola through c - s, c, c + s is concave and peaks well inside (c, c + s)
// (for decade steps: the last gain is under a third of the one before), the walk is slowing
// down over the maximum, and scoring the vertex brackets it there if the vertex beats c + s.
// That saves the decade beyond, whose fold fits are the least penalized and slowest of the
// search (Cox, N = 1e5: 5 candidates -> 4). Returns the vertex when it brackets, NaN when it
// is not tried or does not bracket (the walk then goes on, one evaluation poorer).
double vertexStep(LogScale& scale, double c, double s) {
  const double lo = std::min(c - s, c + s), hi = std::max(c - s, c + s);
  const double flo = scale.at(lo), fc = scale.at(c), fhi = scale.at(hi);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(flo + fhi - 2.0 * fc < 0.0)) return nan;  // not concave (or not finite)
  const double vertex = parabolaVertex(lo, flo, c, fc, hi, fhi);
  const double inside = (vertex - c) * s;  // how far towards c + s, in decades
  if (!std::isfinite(vertex) || inside < kVertexMargin || inside > 1.0 - kVertexMargin) return nan;
  const double atVertex = scale.at(vertex);
  return atVertex > scale.at(c + s) ? vertex : nan;
}

Bracket bracket(LogScale& scale, int maxSteps) {
  const double atStart = scale.at(0.0);
  const double above = scale.at(1.0);
  if (!clearlyBelow(above, atStart)) {
    double c = 1.0;
    for (int steps = 1;; ++steps, c += 1.0) {
      const double next = scale.at(c + 1.0);
      if (clearlyBelow(next, scale.at(c))) return {true, c};
      const double vertex = vertexStep(scale, c, 1.0);
      if (!std::isnan(vertex)) return {true, vertex, false};
      if (steps >= maxSteps) return {false, c + 1.0};
    }
  }
  const double below = scale.at(-1.0);
  if (clearlyBelow(atStart, below)) {
    double c = -1.0;
    for (int steps = 1;; ++steps, c -= 1.0) {
      const double next = scale.at(c - 1.0);
      if (!clearlyBelow(scale.at(c), next)) return {true, c};
      const double vertex = vertexStep(scale, c, -1.0);
      if (!std::isnan(vertex)) return {true, vertex, false};
      if (steps >= maxSteps) return {false, c - 1.0};
    }
  }
  return {true, 0.0};  // 0 is no worse than either neighbour
}

// Step 2 of the auto search. A parabola through points a decade apart places the vertex
// poorly when the curve is skewed in log(variance), so the bracket is first narrowed to half
// decades around its center c: first on the side of the better decade neighbour (ties: the
// smaller variance), and on the other side only if that point is not better than c. For a
// unimodal curve, f(c - 0.5) > f(c) puts the maximum below c, where c + 0.5 cannot beat c
// (and the same mirrored), so the second point would be a wasted evaluation of every fold.
// A bracket found by a vertex step is narrower than a decade already: straight to the
// parabola steps.
void refine(LogScale& scale, const SearchSettings& settings, const Bracket& found) {
  if (settings.maxRefineSteps == 0) return;
  if (found.decades) {
    const double center = found.center;
    const double atCenter = scale.at(center);
    const double below = scale.at(center - 1.0);
    const double above = scale.at(center + 1.0);
    const double side = above > below ? 0.5 : -0.5;
    const double first = scale.at(center + side);
    if (!(first > atCenter)) scale.at(center - side);
  }
  for (int step = 0; step < settings.maxRefineSteps; ++step) {
    const auto best = scale.best();
    if (best == scale.points().begin() || std::next(best) == scale.points().end()) return;
    const auto below = std::prev(best);
    const auto above = std::next(best);
    const double vertex = parabolaVertex(below->first, below->second, best->first, best->second,
                                         above->first, above->second);
    if (!std::isfinite(vertex) || vertex <= below->first || vertex >= above->first) return;
    if (std::fabs(vertex - best->first) < settings.refineTolerance) return;
    scale.at(vertex);
  }
}

}  // namespace

std::vector<double> varianceGrid(double lowerLimit, double upperLimit, int steps) {
  ARGUS_REQUIRE(lowerLimit > 0.0 && std::isfinite(upperLimit) && upperLimit >= lowerLimit,
                "the variance limits must satisfy 0 < lowerLimit <= upperLimit < Inf");
  ARGUS_REQUIRE(steps >= 2, "gridSteps must be at least 2");
  std::vector<double> grid(static_cast<std::size_t>(steps));
  const double logLower = std::log(lowerLimit), logUpper = std::log(upperLimit);
  for (int i = 0; i < steps; ++i)
    grid[i] = std::exp(logLower + (logUpper - logLower) * i / (steps - 1));
  grid.front() = lowerLimit;
  grid.back() = upperLimit;
  return grid;
}

SearchOutcome searchVariance(const SearchSettings& settings, const ScoreFunction& score) {
  SearchOutcome outcome;
  if (settings.type == SearchType::Grid) {
    bool first = true;
    for (double v : varianceGrid(settings.lowerLimit, settings.upperLimit, settings.gridSteps)) {
      const double s = comparable(score(v));
      if (first || s > outcome.score) outcome = {v, s, true};
      first = false;
    }
    return outcome;
  }
  ARGUS_REQUIRE(settings.start > 0.0 && std::isfinite(settings.start),
                "the starting variance must be positive and finite");
  ARGUS_REQUIRE(settings.maxBracketSteps >= 1 && settings.maxRefineSteps >= 0,
                "the search needs at least one bracketing step");
  LogScale scale(settings.start, score);
  const Bracket found = bracket(scale, settings.maxBracketSteps);
  outcome.bracketed = found.found;
  if (outcome.bracketed) refine(scale, settings, found);
  const auto best = scale.best();
  outcome.variance = scale.variance(best->first);
  outcome.score = best->second;
  return outcome;
}

}  // namespace argus
