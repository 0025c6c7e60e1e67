// The CUDA runner's translation unit: the device models instantiated on the CUB primitives
// (cub_primitives.cuh), with their arrays in Thrust's CUDA device vectors.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>

#include "device/cub_primitives.cuh"
#include "device/device_primitives.h"

// The CUB backend keeps the primitives' contract. Checked before the device models' templates
// are read: after them, nvcc's front end (CUDA 13) fails an internal assertion ("missing
// rescan info on explicit template argument") on the contract's scanByKeyIf<...> expressions.
static_assert(argus::satisfiesDevicePrimitives<argus::CubPrimitives>(),
              "the CUB backend keeps the primitives' contract");

#include "device/cuda_device.h"
#include "device/device_memory.h"
#include "device/device_model_registry.h"

namespace argus {

namespace {

// Refuses, with both sizes, a fit that needs more device memory than is free; `held`: what
// shared data already on the device covers of the estimate. A model without a device model
// is left to makeDeviceModel, which says so.
void checkFreeMemory(const ComputeDevice& device, const Dataset& data, double held) {
  if (!deviceModelEntry<CubPrimitives>(data.model).make) return;
  std::size_t freeBytes = 0, totalBytes = 0;
  cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  const double needed = deviceBytesNeeded(data) - held;
  if (needed > static_cast<double>(freeBytes)) {
    char message[256];
    std::snprintf(message, sizeof message,
                  "the fit needs about %.2f GiB of device memory, but %s has %.2f GiB free "
                  "of %.2f GiB; use device = \"cpu\"",
                  needed / 1073741824.0, computeDeviceName(device).c_str(),
                  static_cast<double>(freeBytes) / 1073741824.0,
                  static_cast<double>(totalBytes) / 1073741824.0);
    throw UnsupportedError(message);
  }
}

}  // namespace

std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights,
                                                 const std::shared_ptr<const SharedDeviceData>& shared) {
  cudaCheck(cudaSetDevice(device.index), "cudaSetDevice");
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  checkFreeMemory(device, data, design && design->serves(data) ? design->bytes() : 0.0);
  return makeDeviceCycleRunner<CubPrimitives>(data, weights, shared);
}

std::unique_ptr<BatchedBoundSteps> makeCudaBatch(const ComputeDevice& device, const Dataset& data,
                                                 const std::vector<const double*>& weights,
                                                 const std::shared_ptr<const SharedDeviceData>& shared) {
  cudaCheck(cudaSetDevice(device.index), "cudaSetDevice");
  std::size_t freeBytes = 0, totalBytes = 0;
  cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
  const double members = static_cast<double>(weights.size());
  const double needed = members * (deviceBytesNeeded(data) + allCoordinatesBytesNeeded(data));
  if (needed > static_cast<double>(freeBytes)) return nullptr;  // the fits run one by one
  return makeDeviceBatch<CubPrimitives>(data, weights, shared);
}

AllCoordinatesHostViews cudaAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  return design ? design->allCoordinates<CubPrimitives>().copyToHost() : AllCoordinatesHostViews{};
}

std::shared_ptr<const SharedDeviceData> makeCudaSharedData(const ComputeDevice& device, const Dataset& data) {
  cudaCheck(cudaSetDevice(device.index), "cudaSetDevice");
  checkFreeMemory(device, data, 0.0);
  return std::make_shared<const DeviceDesign>(data);
}

}  // namespace argus
