#include <string>

#include "common/errors.h"
#include "device/compute_device.h"
#include "solver/cpu_cycle_runner.h"

namespace argus {

ComputeDevice parseComputeDevice(const std::string& name) {
  ComputeDevice device;
  if (name == "cpu") return device;
  if (name == "cuda" || name.rfind("cuda:", 0) == 0) {
    device.kind = ComputeDevice::Kind::Cuda;
    if (name != "cuda") {
      const std::string digits = name.substr(5);
      ARGUS_REQUIRE(!digits.empty() && digits.size() <= 6 &&
                  digits.find_first_not_of("0123456789") == std::string::npos,
              "device '" + name + "' is not of the form cuda:N");
      device.index = std::stoi(digits);
    }
    return device;
  }
  throw ArgusError("unknown device '" + name + "'; expected cpu, cuda or cuda:N");
}

std::string computeDeviceName(const ComputeDevice& device) {
  if (device.kind == ComputeDevice::Kind::Cpu) return "cpu";
  return "cuda:" + std::to_string(device.index);
}

std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& device, const Dataset& data,
                                             const double* weights, int threads) {
  if (device.kind == ComputeDevice::Kind::Cpu)
    return std::make_unique<CpuCycleRunner>(data, weights, threads);
  if (!builtWithCuda())
    throw UnsupportedError("device '" + computeDeviceName(device) +
                           "' was requested but Argus was built without CUDA "
                           "(reinstall with ARGUS_CUDA=on and a CUDA toolkit)");
  if (device.index >= cudaDeviceCount())
    throw UnsupportedError("device '" + computeDeviceName(device) + "' is not visible (" +
                           std::to_string(cudaDeviceCount()) + " CUDA device(s) found)");
  throw UnsupportedError("the CUDA cycle for model '" + modelTypeName(data.model) +
                         "' is not implemented yet; use device = \"cpu\"");
}

}  // namespace argus
