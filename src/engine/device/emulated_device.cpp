// The emulated device's translation unit: the device models instantiated on Thrust's host
// system chosen at build time (THRUST_DEVICE_SYSTEM: CPP or OMP). Only this file and the
// nvcc one include CCCL, so the rest of the engine never sees Thrust.
#include "device/emulated_device.h"

#include <thrust/version.h>

#include "common/errors.h"
#include "device/device_conditional_likelihood.h"
#include "device/device_glm_likelihood.h"
#include "device/thrust_primitives.h"
#include "models/glm_functors.h"
#include "solver/likelihood_cycle_runner.h"

#if !defined(THRUST_DEVICE_SYSTEM) || \
    (THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP && THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_OMP)
#error "the emulated device needs THRUST_DEVICE_SYSTEM set to CPP or OMP"
#endif

namespace argus {

bool builtWithEmulatedDevice() { return true; }

std::string emulatedDeviceSystem() {
  return THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP ? "omp" : "cpp";
}

bool deviceSupportsModel(const Dataset& data) {
  switch (data.model) {
    case ModelType::LeastSquares:
    case ModelType::Logistic:
    case ModelType::Poisson:
    case ModelType::ConditionalPoisson:
    case ModelType::SelfControlledCaseSeries:
      return true;
    case ModelType::ConditionalLogistic:
      return data.ties == TieMethod::Breslow;
    default:
      return false;
  }
}

namespace {
template <typename Model>
std::unique_ptr<CycleRunner> runnerOver(const Dataset& data, const double* weights) {
  auto model = std::make_unique<Model>(data, weights);
  return std::make_unique<LikelihoodCycleRunner>(data, weights, std::move(model));
}
}  // namespace

std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset& data, const double* weights) {
  switch (data.model) {
    case ModelType::LeastSquares:
      return runnerOver<DeviceGlmLikelihood<ThrustPrimitives, LeastSquaresRow>>(data, weights);
    case ModelType::Logistic:
      return runnerOver<DeviceGlmLikelihood<ThrustPrimitives, LogisticRow>>(data, weights);
    case ModelType::Poisson:
      return runnerOver<DeviceGlmLikelihood<ThrustPrimitives, PoissonRow>>(data, weights);
    case ModelType::ConditionalPoisson:
    case ModelType::SelfControlledCaseSeries:
      return runnerOver<DeviceConditionalLikelihood<ThrustPrimitives>>(data, weights);
    case ModelType::ConditionalLogistic:
      if (data.ties == TieMethod::Breslow)
        return runnerOver<DeviceConditionalLikelihood<ThrustPrimitives>>(data, weights);
      throw UnsupportedError("the device cycle for clr with ties = \"" +
                             std::string(data.ties == TieMethod::Exact ? "exact" : "efron") +
                             "\" is not implemented yet; use ties = \"breslow\" or device = \"cpu\"");
    default:
      break;
  }
  throw UnsupportedError("the device cycle for model '" + modelTypeName(data.model) +
                         "' is not implemented yet; use device = \"cpu\"");
}

}  // namespace argus
