// A bracketing root finder for one-dimensional functions that are expensive to evaluate (each
// evaluation of a profile log-likelihood is a whole refit).
//
// The strategy is Brent's: take an inverse quadratic interpolation (or a secant step when
// only two points are usable) if it lands well inside the bracket and the steps keep
// shrinking, otherwise bisect. Smooth functions (a profile log-likelihood is smooth and
// concave) converge superlinearly, nasty ones no slower than about bisection, and a hard cap
// on evaluations bounds the work in every case.
#pragma once

#include <cmath>
#include <limits>

namespace argus {

struct RootResult {
  double root = std::numeric_limits<double>::quiet_NaN();
  int evaluations = 0;
  bool converged = false;
};

namespace root_detail {

struct Point {
  double x, f;
};

// The next point to evaluate, given the bracket's ends `best` (|f| smallest) and `other`, a
// recent point outside it (`third`, where `haveThird`), the step two evaluations ago and the
// bracket's middle. An inverse quadratic interpolation (the parabola x(f) through the three
// points at f = 0), or a secant step, accepted only on best's side, within 3/4 of the
// bracket, and only while the steps shrink (less than half the step before last); otherwise
// the middle. Interpolation alone can creep towards the root from one side for ever; this
// rule cannot. Never less than half the tolerance from best: near convergence this small
// step crosses the root and collapses the bracket, which is how the search ends.
inline double nextPoint(const Point& best, const Point& other, const Point& third, bool haveThird,
                        double stepTwoBefore, double middle, double xTolerance) {
  double x;
  if (haveThird && third.f != best.f && third.f != other.f) {
    x = best.x * other.f * third.f / ((best.f - other.f) * (best.f - third.f)) +
        other.x * best.f * third.f / ((other.f - best.f) * (other.f - third.f)) +
        third.x * best.f * other.f / ((third.f - best.f) * (third.f - other.f));
  } else {
    x = best.x - best.f * (best.x - other.x) / (best.f - other.f);  // secant
  }
  const double limit = best.x + 0.75 * (other.x - best.x);
  const bool inside = std::isfinite(x) && (x - best.x) * (limit - x) > 0.0;
  if (!inside || std::fabs(x - best.x) >= 0.5 * stepTwoBefore) x = middle;
  if (std::fabs(x - best.x) < 0.5 * xTolerance) x = best.x + (middle > best.x ? 0.5 : -0.5) * xTolerance;
  return x;
}

}  // namespace root_detail

// Finds x between a and b with f(x) = 0, given fa = f(a) and fb = f(b) of opposite signs (or
// one of them 0). Stops when the bracket is narrower than xTolerance or after maxEvaluations
// calls of f; `converged` says which. A NaN from f stops the search (converged = false).
template <typename F>
RootResult findRoot(F&& f, double a, double fa, double b, double fb, double xTolerance,
                    int maxEvaluations) {
  using root_detail::Point;
  RootResult out;
  if (fa == 0.0 || fb == 0.0) {
    out.root = fa == 0.0 ? a : b;
    out.converged = true;
    return out;
  }
  if ((fa > 0.0) == (fb > 0.0) || std::isnan(fa) || std::isnan(fb)) return out;

  Point lo{a, fa}, hi{b, fb};  // f has opposite signs at the two ends
  Point third = lo;            // a recent point outside the bracket, for interpolation
  bool haveThird = false;
  double stepBefore = std::fabs(b - a);  // size of the step one evaluation ago
  double stepTwoBefore = stepBefore;      // and two evaluations ago
  while (true) {
    const bool loBest = std::fabs(lo.f) <= std::fabs(hi.f);
    const Point best = loBest ? lo : hi;
    const Point other = loBest ? hi : lo;
    const bool narrow = std::fabs(hi.x - lo.x) <= xTolerance;
    if (narrow || out.evaluations >= maxEvaluations) {
      out.root = best.x;
      out.converged = narrow;
      return out;
    }
    const double x =
        root_detail::nextPoint(best, other, third, haveThird, stepTwoBefore, 0.5 * (lo.x + hi.x), xTolerance);
    const double fx = f(x);
    ++out.evaluations;
    if (std::isnan(fx)) return out;
    if (fx == 0.0) {
      out.root = x;
      out.converged = true;
      return out;
    }
    stepTwoBefore = stepBefore;
    stepBefore = std::fabs(x - best.x);
    if ((fx > 0.0) == (lo.f > 0.0)) {
      third = lo;
      lo = {x, fx};
    } else {
      third = hi;
      hi = {x, fx};
    }
    haveThird = true;
  }
}

}  // namespace argus
