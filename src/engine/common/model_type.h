// The model types and the few facts about each that the rest of the engine branches on.
#pragma once

#include <string>

namespace argus {

enum class ModelType {
  LeastSquares,              // "ls"
  Logistic,                  // "lr"
  Poisson,                   // "pr"
  ConditionalLogistic,       // "clr"
  ConditionalPoisson,        // "cpr"
  SelfControlledCaseSeries,  // "sccs"
  Cox,                       // "cox"
  FineGray,                  // "fgr"
};

ModelType parseModelType(const std::string& name);  // throws on an unknown name
std::string modelTypeName(ModelType type);

// Strata carry their own baseline (profiled out): rows are grouped by stratum.
bool isConditional(ModelType type);
// `time` is an exposure length that enters as a log offset.
bool usesExposureTime(ModelType type);
// y must be 0 or 1.
bool requiresBinaryOutcome(ModelType type);
// y must be a non-negative count.
bool requiresCountOutcome(ModelType type);
// Risk sets over event times: rows are sorted by stratum, then time descending; `time` is an
// event or censoring time; y codes 0 = censored, 1 = event (and 2 = competing event for fgr).
bool isSurvival(ModelType type);
// Strata, if any, carry their own baseline: no intercept, rows grouped by stratum.
bool hasStratumBaseline(ModelType type);

}  // namespace argus
