#include "common/model_type.h"

#include "common/errors.h"

namespace argus {

ModelType parseModelType(const std::string& name) {
  if (name == "ls") return ModelType::LeastSquares;
  if (name == "lr") return ModelType::Logistic;
  if (name == "pr") return ModelType::Poisson;
  if (name == "clr") return ModelType::ConditionalLogistic;
  if (name == "cpr") return ModelType::ConditionalPoisson;
  if (name == "sccs") return ModelType::SelfControlledCaseSeries;
  if (name == "cox") return ModelType::Cox;
  if (name == "fgr") return ModelType::FineGray;
  throw ArgusError("unknown modelType '" + name +
                   "'; expected one of ls, lr, pr, clr, cpr, sccs, cox, fgr");
}

std::string modelTypeName(ModelType type) {
  switch (type) {
    case ModelType::LeastSquares: return "ls";
    case ModelType::Logistic: return "lr";
    case ModelType::Poisson: return "pr";
    case ModelType::ConditionalLogistic: return "clr";
    case ModelType::ConditionalPoisson: return "cpr";
    case ModelType::SelfControlledCaseSeries: return "sccs";
    case ModelType::Cox: return "cox";
    case ModelType::FineGray: return "fgr";
  }
  return "unknown";
}

bool isConditional(ModelType type) {
  return type == ModelType::ConditionalLogistic || type == ModelType::ConditionalPoisson ||
         type == ModelType::SelfControlledCaseSeries;
}

bool usesExposureTime(ModelType type) {
  return type == ModelType::Poisson || type == ModelType::ConditionalPoisson ||
         type == ModelType::SelfControlledCaseSeries;
}

bool requiresBinaryOutcome(ModelType type) {
  return type == ModelType::Logistic || type == ModelType::ConditionalLogistic ||
         type == ModelType::Cox;
}

bool requiresCountOutcome(ModelType type) {
  return type == ModelType::Poisson || type == ModelType::ConditionalPoisson ||
         type == ModelType::SelfControlledCaseSeries;
}

bool isSurvival(ModelType type) { return type == ModelType::Cox || type == ModelType::FineGray; }

bool hasStratumBaseline(ModelType type) { return isConditional(type) || isSurvival(type); }

}  // namespace argus
