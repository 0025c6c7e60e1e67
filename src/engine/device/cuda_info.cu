// CUDA build: reports the visible devices through the runtime API. Errors (no driver, no
// device) mean "no device", never a crash.
#include <cuda_runtime.h>

#include "device/compute_device.h"

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

}  // namespace argus
