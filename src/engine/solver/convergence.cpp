#include "solver/convergence.h"

#include "common/errors.h"

namespace argus {

ConvergenceType parseConvergenceType(const std::string& name) {
  if (name == "gradient") return ConvergenceType::Gradient;
  if (name == "lange") return ConvergenceType::Lange;
  if (name == "mittal") return ConvergenceType::Mittal;
  if (name == "zhang") return ConvergenceType::Zhang;
  throw ArgusError("unknown convergenceType '" + name +
                   "'; expected gradient, lange, mittal or zhang");
}

ReadoutNeeds readoutNeeds(ConvergenceType type, bool verbose) {
  ReadoutNeeds needs;
  needs.logLikelihood = verbose || type == ConvergenceType::Lange ||
                        type == ConvergenceType::Mittal;
  needs.weightedOutcomeEta = type == ConvergenceType::Gradient;
  needs.etaChange = type == ConvergenceType::Zhang;
  return needs;
}

double convergenceMeasure(ConvergenceType type, const CycleReadout& before,
                          const CycleReadout& after, double logPriorBefore,
                          double logPriorAfter) {
  switch (type) {
    case ConvergenceType::Gradient:
      return relativeChange(after.weightedOutcomeEta, before.weightedOutcomeEta);
    case ConvergenceType::Lange:
      return relativeChange(after.logLikelihood + logPriorAfter,
                            before.logLikelihood + logPriorBefore);
    case ConvergenceType::Mittal:
      return relativeChange(after.logLikelihood, before.logLikelihood);
    case ConvergenceType::Zhang:
      return after.sumAbsEtaChange / (1.0 + after.sumAbsEta);
  }
  return 0.0;
}

}  // namespace argus
