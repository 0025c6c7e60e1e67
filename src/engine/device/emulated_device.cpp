// The emulated device's translation unit: the device models instantiated on Thrust's host
// system chosen at build time (THRUST_DEVICE_SYSTEM: CPP or OMP). Only this file and the
// nvcc one (cuda_device.cu) include CCCL, so the rest of the engine never sees Thrust.
#include "device/emulated_device.h"

#include <thrust/version.h>

#include <atomic>
#include <cstdio>
#include <new>

#include "common/errors.h"
#include "device/device_memory.h"
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

namespace {

std::atomic<double> gMemoryBytes{0.0};
std::atomic<bool> gFailBatchAllocations{false};

// As the CUDA runner's check of free memory (cuda_device.cu), against setEmulatedDeviceMemory.
void checkMemory(const Dataset& data, double held) {
  const double memory = gMemoryBytes.load(std::memory_order_relaxed);
  if (memory <= 0.0 || !deviceModelEntry<ThrustPrimitives>(data.model).make) return;
  const double needed = deviceBytesNeeded(data) - held;
  if (needed > memory) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "the fit needs about %.2f GiB of device memory, but emulated has %.2f GiB; "
                  "use device = \"cpu\"",
                  needed / 1073741824.0, memory / 1073741824.0);
    throw UnsupportedError(message);
  }
}

}  // namespace

void setEmulatedDeviceMemory(double bytes) { gMemoryBytes.store(bytes, std::memory_order_relaxed); }

std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset& data, const double* weights,
                                                     const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  checkMemory(data, design && design->serves(data) ? design->bytes() : 0.0);
  return makeDeviceCycleRunner<ThrustPrimitives>(data, weights, shared);
}

std::shared_ptr<const SharedDeviceData> makeEmulatedSharedData(const Dataset& data) {
  checkMemory(data, 0.0);
  return std::make_shared<const DeviceDesign>(data);
}

std::int64_t emulatedDesignsBuilt() { return DeviceDesign::built(); }

AllCoordinatesHostViews emulatedAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  return design ? design->allCoordinates<ThrustPrimitives>().copyToHost() : AllCoordinatesHostViews{};
}

// As the CUDA batch (cuda_device.cu): a batch larger than the memory set gives none, and the
// fold fits run one by one, each deciding for itself.
// The memory free is the memory set less what the shared design holds now (its views, once a
// batch or a start built them, included), as cudaMemGetInfo's: so a batch that fitted may be
// followed by one that does not.
std::unique_ptr<BatchedBoundSteps> makeEmulatedBatch(const Dataset& data, const std::vector<const double*>& weights,
                                                     const std::shared_ptr<const SharedDeviceData>& shared) {
  const double memory = gMemoryBytes.load(std::memory_order_relaxed);
  const double members = static_cast<double>(weights.size());
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  const double held = design && design->serves(data) ? design->bytes() : 0.0;
  if (memory > 0.0 && members * (deviceBytesNeeded(data) + allCoordinatesBytesNeeded(data)) > memory - held)
    return nullptr;
  if (gFailBatchAllocations.load(std::memory_order_relaxed)) throw std::bad_alloc();
  return makeDeviceBatch<ThrustPrimitives>(data, weights, shared);
}

void failEmulatedBatchAllocations(bool fail) { gFailBatchAllocations.store(fail, std::memory_order_relaxed); }

double emulatedDesignBytes(const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  return design ? design->bytes() : 0.0;
}

double emulatedAllCoordinatesBytes(const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  return design ? design->allCoordinates<ThrustPrimitives>().bytes() : 0.0;
}

std::unique_ptr<DeviceModel> makeEmulatedModel(const Dataset& data, const double* weights,
                                               const std::shared_ptr<const SharedDeviceData>& shared) {
  return makeDeviceModel<ThrustPrimitives>(data, weights, shared);
}

}  // namespace argus
