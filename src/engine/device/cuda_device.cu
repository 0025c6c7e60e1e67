// The CUDA runner's translation unit: the device models instantiated on the CUB primitives
// (cub_primitives.cuh), with their arrays in Thrust's CUDA device vectors.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device/cub_primitives.cuh"
#include "device/device_runner_factory.h"

namespace argus {

std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights) {
  cudaCheck(cudaSetDevice(device.index), "cudaSetDevice");
  return makeDeviceCycleRunner<CubPrimitives>(data, weights);
}

}  // namespace argus
