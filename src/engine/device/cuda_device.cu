// The CUDA runner's translation unit: the device models instantiated on the CUB primitives
// (cub_primitives.cuh), with their arrays in Thrust's CUDA device vectors.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>

#include "device/cub_primitives.cuh"
#include "device/device_runner_factory.h"

namespace argus {

std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights) {
  cudaCheck(cudaSetDevice(device.index), "cudaSetDevice");
  if (deviceSupportsModel(data)) {
    std::size_t freeBytes = 0, totalBytes = 0;
    cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
    const double needed = deviceBytesNeeded(data);
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
  return makeDeviceCycleRunner<CubPrimitives>(data, weights);
}

}  // namespace argus
