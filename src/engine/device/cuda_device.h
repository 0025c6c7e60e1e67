// The CUDA backend as the rest of device/ and the bridge see it: whether it was built, the
// visible GPUs (device/cuda_info.cu, or cuda_info_stub.cpp in a build without CUDA), and the
// CUDA runner (device/cuda_device.cu; an UnsupportedError in builds without CUDA). No CUDA
// header: compiled by the host compiler everywhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "device/all_coordinates_views.h"
#include "solver/batched_start.h"
#include "solver/compute_device.h"
#include "solver/cycle_runner.h"

namespace argus {

bool builtWithCuda();
int cudaDeviceCount();  // 0 when built without CUDA or when no GPU is visible
// One visible GPU, as listDevices() shows it.
struct CudaDeviceInfo {
  std::string name;
  double memoryBytes = 0.0;
  int major = 0, minor = 0;  // compute capability
};
std::vector<CudaDeviceInfo> cudaDevices();

std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights,
                                                 const std::shared_ptr<const SharedDeviceData>& shared);
// A batch of fits on the GPU (solver/batched_start.h), or null where the model offers no bound
// or the GPU lacks the memory for every member's model and the batch's arrays.
std::unique_ptr<BatchedBoundSteps> makeCudaBatch(const ComputeDevice& device, const Dataset& data,
                                                 const std::vector<const double*>& weights,
                                                 const std::shared_ptr<const SharedDeviceData>& shared);
std::shared_ptr<const SharedDeviceData> makeCudaSharedData(const ComputeDevice& device, const Dataset& data);
// The all-coordinates views of a shared design built on the GPU and copied back (the device
// suite checks them against a host oracle); empty without CUDA.
AllCoordinatesHostViews cudaAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>& shared);

}  // namespace argus
