// Convergence rules checked once per cycle (MODELS.md §4). Relative change is
// |new - old| / (|new| + 1).
#pragma once

#include <string>

#include "solver/cycle_runner.h"

namespace argus {

enum class ConvergenceType { Gradient, Lange, Mittal, Zhang };

ConvergenceType parseConvergenceType(const std::string& name);

inline double relativeChange(double updated, double previous) {
  const double diff = updated - previous;
  return (diff < 0 ? -diff : diff) / ((updated < 0 ? -updated : updated) + 1.0);
}

// The readouts a rule needs after each cycle (verbose reporting adds the log-likelihood).
ReadoutNeeds readoutNeeds(ConvergenceType type, bool verbose);

// The value each rule compares with the tolerance, given the readouts before and after a
// cycle and the log prior before and after.
double convergenceMeasure(ConvergenceType type, const CycleReadout& before,
                          const CycleReadout& after, double logPriorBefore,
                          double logPriorAfter);

}  // namespace argus
