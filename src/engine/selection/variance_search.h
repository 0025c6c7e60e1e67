// Where cross-validation looks for the best prior variance: the search strategies, written
// against a score function so that they can be tested on known curves without any fitting.
//
// score(v) returns the mean held-out log-likelihood at variance v (NaN counts as -infinity).
// The search calls it in a fixed order that depends only on the scores, so a deterministic
// score makes a deterministic search.
//
// Grid: gridSteps variances, log-spaced from lowerLimit to upperLimit inclusive, visited in
// increasing order (from strong to weak penalty, the order warm starts like).
//
// Auto: work in t = log10(v / start).
//  1. Bracket: score t = 0 and t = 1. If t = 1 is at least as good, walk up one decade at a
//     time while the score does not fall; otherwise score t = -1 and, if that is better, walk
//     down while the score rises. Stop at a point no worse than both neighbours (a bracket)
//     or after maxBracketSteps moves (then `bracketed` is false and the best end is kept).
//     Ties (scores within a relative 1e-8) go up, so that a flat region of all-zero
//     coefficients (a strong Laplace penalty) does not stop the walk early. A curve that
//     keeps rising, however slowly, is not bracketed: the data prefer (almost) no penalty.
//     Vertex step: when a walk's last decade gained under a third of the one before, the
//     parabola through its last three points peaks well inside that decade; its vertex is
//     scored, and if it beats the last point the maximum is bracketed there (its neighbours
//     less than a decade away), saving the next decade; otherwise the walk goes on.
//  2. Refine: for a decade bracket, score the half-decade point around its center on the
//     side of its better neighbour, and the one on the other side only if the first is not
//     better than the center (a unimodal curve cannot peak there then); then fit a parabola
//     through the
//     best evaluated point and its evaluated neighbours, score its vertex, and repeat at
//     most maxRefineSteps times; stop when the vertex is less than refineTolerance decades
//     from the best point or the three points are not concave.
//  The result is the best variance evaluated (ties: the smaller variance).
//
// The starting variance is the caller's (see initialVarianceGuess in cross_validation.h).
#pragma once

#include <functional>
#include <vector>

namespace argus {

enum class SearchType { Grid, Auto };

struct SearchSettings {
  SearchType type = SearchType::Auto;
  double lowerLimit = 0.01;  // grid only
  double upperLimit = 20.0;  // grid only
  int gridSteps = 10;        // grid only
  double start = 1.0;        // auto only
  int maxBracketSteps = 10;
  int maxRefineSteps = 3;
  double refineTolerance = 0.05;
};

struct SearchOutcome {
  double variance = 0.0;
  double score = 0.0;
  bool bracketed = true;  // auto: a maximum was bracketed before the step limit
};

using ScoreFunction = std::function<double(double variance)>;

std::vector<double> varianceGrid(double lowerLimit, double upperLimit, int steps);

SearchOutcome searchVariance(const SearchSettings& settings, const ScoreFunction& score);

}  // namespace argus
