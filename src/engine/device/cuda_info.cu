// CUDA build: reports the visible devices through the runtime API. Errors (no driver, no
// device) mean "no device", never a crash.
#include <cuda_runtime.h>

#include "device/cuda_device.h"

namespace argus {

bool builtWithCuda() { return true; }

int cudaDeviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    return 0;
  }
  return count;
}

std::vector<CudaDeviceInfo> cudaDevices() {
  std::vector<CudaDeviceInfo> out;
  const int count = cudaDeviceCount();
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    CudaDeviceInfo info;
    info.name = prop.name;
    info.memoryBytes = static_cast<double>(prop.totalGlobalMem);
    info.major = prop.major;
    info.minor = prop.minor;
    out.push_back(info);
  }
  return out;
}

}  // namespace argus
