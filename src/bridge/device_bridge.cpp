// .Call entry point of hasCuda() / listDevices().
#include "bridge/convert.h"
#include "device/cuda_device.h"
#include "device/emulated_device.h"

using namespace Rcpp;

extern "C" SEXP argus_cuda_info() {
  BEGIN_RCPP
  const std::vector<argus::CudaDeviceInfo> devices = argus::cudaDevices();
  CharacterVector name;
  NumericVector memory;
  CharacterVector capability;
  for (const argus::CudaDeviceInfo& d : devices) {
    name.push_back(d.name);
    memory.push_back(d.memoryBytes);
    capability.push_back(std::to_string(d.major) + "." + std::to_string(d.minor));
  }
  return List::create(_["built"] = argus::builtWithCuda(),
                      _["deviceCount"] = argus::cudaDeviceCount(),
                      _["name"] = name, _["memoryBytes"] = memory,
                      _["computeCapability"] = capability,
                      _["emulated"] = argus::builtWithEmulatedDevice(),
                      _["emulatedSystem"] = argus::emulatedDeviceSystem());
  END_RCPP
}
