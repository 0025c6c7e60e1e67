// CPU-only build: no CUDA runtime is linked. The CUDA build compiles cuda_info.cu instead.
#include "common/errors.h"
#include "device/cuda_device.h"

namespace argus {

bool builtWithCuda() { return false; }
int cudaDeviceCount() { return 0; }
std::vector<CudaDeviceInfo> cudaDevices() { return {}; }
std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset&,
                                                 const double*, const std::shared_ptr<const SharedDeviceData>&) {
  throw UnsupportedError("device '" + computeDeviceName(device) +
                         "' was requested but Argus was built without CUDA");
}
std::unique_ptr<BatchedBoundSteps> makeCudaBatch(const ComputeDevice&, const Dataset&, const std::vector<const double*>&,
                                                 const std::shared_ptr<const SharedDeviceData>&) {
  return nullptr;
}
AllCoordinatesHostViews cudaAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>&) { return {}; }
std::shared_ptr<const SharedDeviceData> makeCudaSharedData(const ComputeDevice& device, const Dataset&) {
  throw UnsupportedError("device '" + computeDeviceName(device) +
                         "' was requested but Argus was built without CUDA");
}

}  // namespace argus
