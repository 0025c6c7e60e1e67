// Which coordinates each CCD cycle visits (MODELS.md §4, cycling strategy). Model-agnostic:
// it reads only the design's column kinds, the priors, beta and the fixed flags.
//
// A full cycle visits every free coordinate in column order, the intercept last; the
// intercept is also the plan's follower (solver/cycle_runner.h).
//
// Active-set cycling (`activeSet`): with an L1 prior most coordinates sit at zero, and a
// visit that leaves one there still costs its gradient pass. After a full cycle, the
// schedule cycles over the active set (free coordinates that are nonzero or not under a
// Laplace prior) until the convergence rule holds between two consecutive cycles, then runs
// a full cycle to let new coordinates in. The fit has converged only after a full cycle that
// meets the rule against the cycle before it and moves no coordinate that was at zero before
// it, so the decision is always taken on a full cycle and the optimum is the same as with
// full cycles only.
//
// Active cycles pay off only when they are much cheaper than full ones: settling the active
// set takes about as many cycles as settling everything, and the confirming full cycles come
// on top (logistic 1e5 x 1000, bench/cpp: 10 cycles instead of 6 either way; a win at 15%
// of the columns active, a loss at 64%). So the schedule switches to active cycles only when
// the active set's work, measured as its columns' stored entries, is at most kMaxActiveWork
// of a full cycle's; otherwise it keeps running full cycles.
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"
#include "solver/cycle_runner.h"

namespace argus {

class CycleSchedule {
 public:
  CycleSchedule(const DesignView& design, const std::vector<unsigned char>& fixed,
                bool activeSet);

  // The plan of the next cycle; call before running it.
  const CyclePlan& begin(const CycleState& state);
  // Records the cycle just run; `ruleMet`: its convergence measure was within tolerance.
  // Returns true when the fit has converged.
  bool finish(bool ruleMet, const CycleState& state);

  bool lastWasFull() const { return current_ == &full_; }
  const CyclePlan& fullPlan() const { return full_; }

 private:
  void buildActive(const CycleState& state);

  static constexpr double kMaxActiveWork = 0.5;

  bool activeSet_;
  CyclePlan full_;
  CyclePlan active_;
  const CyclePlan* current_ = nullptr;
  bool nextFull_ = true;
  bool worthIt_ = false;
  std::vector<double> work_;  // per column: stored entries + 1
  double fullWork_ = 0.0;
  std::vector<unsigned char> zeroBefore_;  // per coordinate of full_, at the full cycle's start
};

}  // namespace argus
