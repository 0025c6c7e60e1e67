// CPU-only build: no CUDA runtime is linked. The CUDA build compiles cuda_info.cu instead.
#include "device/compute_device.h"

namespace argus {

bool builtWithCuda() { return false; }
int cudaDeviceCount() { return 0; }
std::vector<CudaDeviceInfo> cudaDevices() { return {}; }

}  // namespace argus
