// The emulated device's translation unit: the device models instantiated on Thrust's host
// system chosen at build time (THRUST_DEVICE_SYSTEM: CPP or OMP). Only this file and the
// nvcc one (cuda_device.cu) include CCCL, so the rest of the engine never sees Thrust.
#include "device/emulated_device.h"

#include <thrust/version.h>

#include "device/device_model_registry.h"
#include "device/device_primitives.h"
#include "device/thrust_primitives.h"

#if !defined(THRUST_DEVICE_SYSTEM) || \
    (THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_CPP && THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_OMP)
#error "the emulated device needs THRUST_DEVICE_SYSTEM set to CPP or OMP"
#endif

namespace argus {

static_assert(satisfiesDevicePrimitives<ThrustPrimitives>(), "the Thrust backend keeps the primitives' contract");

bool builtWithEmulatedDevice() { return true; }

std::string emulatedDeviceSystem() {
  return THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP ? "omp" : "cpp";
}

std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset& data, const double* weights,
                                                     const std::shared_ptr<const SharedDeviceData>& shared) {
  return makeDeviceCycleRunner<ThrustPrimitives>(data, weights, shared);
}

std::shared_ptr<const SharedDeviceData> makeEmulatedSharedData(const Dataset& data) {
  return std::make_shared<const DeviceDesign>(data);
}

std::int64_t emulatedDesignsBuilt() { return DeviceDesign::built(); }

std::unique_ptr<DeviceModel> makeEmulatedModel(const Dataset& data, const double* weights,
                                               const std::shared_ptr<const SharedDeviceData>& shared) {
  return makeDeviceModel<ThrustPrimitives>(data, weights, shared);
}

}  // namespace argus
