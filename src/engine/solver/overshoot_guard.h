// Undoes a CCD cycle that lowered the log posterior (solver/ccd_solver.cpp).
//
// Why. A coordinate's Newton step is exact for a quadratic. Where the curvature grows along
// the step it overshoots: Poisson rows moving up, logistic rows leaving saturation. Ordinary
// fits from beta = 0 rarely meet this, but a poor start does (birthwt lr from coefficients
// (20, -1, 0.5, 5): every row saturated, the log-likelihood -3,065, -31,687, -214,069 over
// three cycles), and so does a profile refit with one coefficient held far from its optimum
// (an uncentred calendar year: the intercept has to move by 20 or more). The trust region
// alone does not stop it, since its bound doubles while steps are clipped.
//
// The guard. Before each cycle it keeps beta; after it, where some coordinate moved some
// row's linear predictor by more than kLargeMove (|delta_j| max |x_j|), it compares the log
// posterior with the last one known. A cycle that lowered it, or left it undefined, is
// undone (beta back, the runner reset) and the trust regions of the coordinates it moved
// shrink to a quarter of their move, so the next try takes shorter steps; the cycle still
// counts towards maxIterations. After kMaxUndefinedUndos cycles in a row whose numbers broke
// down the guard lets the next one through, and the solver calls the fit ILLCONDITIONED as
// it always did. Cycles of small moves are not checked (one O(N) log-likelihood each; a
// quadratic model is good there), and a cycle that gained is never touched, so an ordinary
// fit runs exactly as without the guard.
#pragma once

#include <vector>

#include "solver/cycle_runner.h"

namespace argus {

class OvershootGuard {
 public:
  // `maxAbs`: per column, its largest |x| (columnMaxAbs; kept by reference). `logPosterior`:
  // at the state the cycles start from (the readout of a reset or start).
  OvershootGuard(const std::vector<double>& maxAbs, double logPosterior);

  // Call before each cycle.
  void beforeCycle(const CycleState& state) { before_ = state.beta; }
  // Call after it, with its readout (`hasLogLikelihood`: the readout carries it). Returns
  // false when the cycle was undone: state.beta is as before it, its moved coordinates'
  // bounds shrunk, and *undone holds the runner's reset readout there.
  bool keep(CycleRunner& runner, CycleState& state, const CycleReadout& cycle,
            bool hasLogLikelihood, CycleReadout* undone);

  static constexpr double kLargeMove = 1.0;  // in units of a row's linear predictor
  static constexpr int kMaxUndefinedUndos = 3;

 private:
  const std::vector<double>& maxAbs_;
  std::vector<double> before_;
  double known_;              // the last log posterior computed (-inf: none)
  int undefinedUndos_ = 0;    // cycles undone in a row whose numbers broke down
};

}  // namespace argus
