// The device runner of a model on a given primitives backend: the one switch over models
// that both device translation units (emulated_device.cpp, cuda_device.cu) instantiate.
// Which models it covers is deviceSupportsModel() (device_memory.h); the others are an
// UnsupportedError naming what is missing, never a silent CPU fallback.
#pragma once

#include <memory>
#include <string>

#include "common/errors.h"
#include "device/device_design.h"
#include "device/device_conditional_likelihood.h"
#include "device/device_glm_likelihood.h"
#include "device/device_survival_likelihood.h"
#include "models/glm_functors.h"
#include "solver/likelihood_cycle_runner.h"

namespace argus {

// `shared`: a DeviceDesign made for this data (device_design.h), or null.
template <typename Prims>
std::unique_ptr<DeviceModel> makeDeviceModel(const Dataset& data, const double* weights,
                                             const std::shared_ptr<const SharedDeviceData>& shared = nullptr) {
  std::shared_ptr<const DeviceDesign> design = deviceDesignFor(data, shared);
  switch (data.model) {
    case ModelType::LeastSquares:
      return std::make_unique<DeviceGlmLikelihood<Prims, LeastSquaresRow>>(data, weights, design);
    case ModelType::Logistic:
      return std::make_unique<DeviceGlmLikelihood<Prims, LogisticRow>>(data, weights, design);
    case ModelType::Poisson:
      return std::make_unique<DeviceGlmLikelihood<Prims, PoissonRow>>(data, weights, design);
    case ModelType::ConditionalPoisson:
    case ModelType::SelfControlledCaseSeries:
    case ModelType::ConditionalLogistic:
      return std::make_unique<DeviceConditionalLikelihood<Prims>>(data, weights, design);
    case ModelType::Cox:
    case ModelType::FineGray:
      return std::make_unique<DeviceSurvivalLikelihood<Prims>>(data, weights, design);
    default:
      break;
  }
  throw UnsupportedError("the device cycle for model '" + modelTypeName(data.model) +
                         "' is not implemented yet; use device = \"cpu\"");
}

template <typename Prims>
std::unique_ptr<CycleRunner> makeDeviceCycleRunner(const Dataset& data, const double* weights,
                                                   const std::shared_ptr<const SharedDeviceData>& shared) {
  return std::make_unique<LikelihoodCycleRunner>(data, weights, makeDeviceModel<Prims>(data, weights, shared));
}

}  // namespace argus
