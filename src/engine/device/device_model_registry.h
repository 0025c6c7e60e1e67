// The model registry's device table: each model type's device model on a primitives backend,
// one row per type in the order of common/model_type.h (checked at compile time where a
// backend instantiates it: emulated_device.cpp, cuda_device.cu). A row without a factory is a
// model with no device model yet: an UnsupportedError naming it, never a silent CPU fallback.
#pragma once

#include <memory>
#include <string>

#include "common/errors.h"
#include "common/model_type.h"
#include "device/batched_steps.h"
#include "device/device_conditional_likelihood.h"
#include "device/device_design.h"
#include "device/device_glm_likelihood.h"
#include "device/device_survival_likelihood.h"
#include "models/glm_functors.h"
#include "solver/likelihood_cycle_runner.h"

namespace argus {

namespace device_registry {

using DeviceModelFactory = std::unique_ptr<DeviceModel> (*)(const Dataset&, const double*,
                                                            std::shared_ptr<const DeviceDesign>);

template <typename Model>
std::unique_ptr<DeviceModel> make(const Dataset& data, const double* weights,
                                  std::shared_ptr<const DeviceDesign> design) {
  return std::make_unique<Model>(data, weights, std::move(design));
}

struct Entry {
  ModelType type;
  DeviceModelFactory make;  // null: no device model
};

template <typename Prims>
inline constexpr Entry kDeviceModels[] = {
    {ModelType::LeastSquares, &make<DeviceGlmLikelihood<Prims, LeastSquaresRow>>},
    {ModelType::Logistic, &make<DeviceGlmLikelihood<Prims, LogisticRow>>},
    {ModelType::Poisson, &make<DeviceGlmLikelihood<Prims, PoissonRow>>},
    {ModelType::ConditionalLogistic, &make<DeviceConditionalLikelihood<Prims>>},
    {ModelType::ConditionalPoisson, &make<DeviceConditionalLikelihood<Prims>>},
    {ModelType::SelfControlledCaseSeries, &make<DeviceConditionalLikelihood<Prims>>},
    {ModelType::Cox, &make<DeviceSurvivalLikelihood<Prims>>},
    {ModelType::FineGray, &make<DeviceSurvivalLikelihood<Prims>>},
};

}  // namespace device_registry

template <typename Prims>
const device_registry::Entry& deviceModelEntry(ModelType type) {
  static_assert(coversEveryModelType(device_registry::kDeviceModels<Prims>),
                "kDeviceModels: one row per model type, in order");
  return device_registry::kDeviceModels<Prims>[modelIndex(type)];
}

// `shared`: a DeviceDesign made for this data (device_design.h), or null.
template <typename Prims>
std::unique_ptr<DeviceModel> makeDeviceModel(const Dataset& data, const double* weights,
                                             const std::shared_ptr<const SharedDeviceData>& shared = nullptr) {
  const device_registry::Entry& entry = deviceModelEntry<Prims>(data.model);
  if (!entry.make)
    throw UnsupportedError("the device cycle for model '" + modelTypeName(data.model) +
                           "' is not implemented yet; use device = \"cpu\"");
  return entry.make(data, weights, deviceDesignFor(data, shared));
}

// A batch of fits of `data` with each of `weights` (solver/batched_start.h): one device model
// per member on one design; null where the model offers no bound.
template <typename Prims>
std::unique_ptr<BatchedBoundSteps> makeDeviceBatch(const Dataset& data, const std::vector<const double*>& weights,
                                                   const std::shared_ptr<const SharedDeviceData>& shared) {
  if (weights.empty()) return nullptr;
  const std::shared_ptr<const DeviceDesign> design = deviceDesignFor(data, shared);
  std::vector<std::unique_ptr<DeviceModel>> models;
  for (const double* w : weights) {
    std::unique_ptr<DeviceModel> model = makeDeviceModel<Prims>(data, w, design);
    auto* source = dynamic_cast<DeviceBoundSource*>(model.get());
    if (!source || !source->offersBound()) return nullptr;
    models.push_back(std::move(model));
  }
  return std::make_unique<DeviceBatchedSteps<Prims>>(std::move(models), design->template allCoordinates<Prims>());
}

template <typename Prims>
std::unique_ptr<CycleRunner> makeDeviceCycleRunner(const Dataset& data, const double* weights,
                                                   const std::shared_ptr<const SharedDeviceData>& shared) {
  return std::make_unique<LikelihoodCycleRunner>(data, weights, makeDeviceModel<Prims>(data, weights, shared));
}

}  // namespace argus
