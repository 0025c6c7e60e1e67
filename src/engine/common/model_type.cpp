#include "common/model_type.h"

#include "common/errors.h"

namespace argus {

void throwUnknownModelType(std::size_t index) {
  throw ArgusError("no model type " + std::to_string(index));
}

ModelType parseModelType(const std::string& name) {
  std::string names;
  for (const ModelTraits& traits : kModelTraits) {
    if (name == traits.name) return traits.type;
    names += (names.empty() ? "" : ", ") + std::string(traits.name);
  }
  throw ArgusError("unknown modelType '" + name + "'; expected one of " + names);
}

std::string modelTypeName(ModelType type) {
  const auto index = static_cast<std::size_t>(type);
  return index < kModelTypeCount ? kModelTraits[index].name : "unknown";
}

}  // namespace argus
