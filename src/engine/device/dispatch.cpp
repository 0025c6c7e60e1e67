#include <string>

#include "common/errors.h"
#include "device/compute_device.h"
#include "device/emulated_device.h"
#include "solver/likelihood_cycle_runner.h"

namespace argus {

ComputeDevice parseComputeDevice(const std::string& name) {
  ComputeDevice device;
  if (name == "cpu") return device;
  if (name == "auto") {
    device.kind = ComputeDevice::Kind::Auto;
    return device;
  }
  if (name == "emulated") {
    device.kind = ComputeDevice::Kind::Emulated;
    return device;
  }
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
  throw ArgusError("unknown device '" + name + "'; expected cpu, cuda, cuda:N, emulated or auto");
}

std::string computeDeviceName(const ComputeDevice& device) {
  if (device.kind == ComputeDevice::Kind::Cpu) return "cpu";
  if (device.kind == ComputeDevice::Kind::Emulated) return "emulated";
  if (device.kind == ComputeDevice::Kind::Auto) return "auto";
  return "cuda:" + std::to_string(device.index);
}

bool deviceSupportsModel(const Dataset& data) {
  switch (data.model) {
    case ModelType::LeastSquares:
    case ModelType::Logistic:
    case ModelType::Poisson:
    case ModelType::ConditionalPoisson:
    case ModelType::SelfControlledCaseSeries:
      return true;
    case ModelType::ConditionalLogistic:
      return data.ties == TieMethod::Breslow;
    default:
      return false;
  }
}

ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data) {
  if (device.kind != ComputeDevice::Kind::Auto) return device;
  std::int64_t entries = 0;
  for (const ColumnView& c : data.design.columns) entries += c.nnz;
  ComputeDevice out;
  if (kCudaRunnerValidated && builtWithCuda() && cudaDeviceCount() > 0 && deviceSupportsModel(data) &&
      entries >= kAutoMinimumEntries)
    out.kind = ComputeDevice::Kind::Cuda;
  return out;
}

std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& requested, const Dataset& data,
                                             const double* weights, int threads) {
  const ComputeDevice device = resolveComputeDevice(requested, data);
  if (device.kind == ComputeDevice::Kind::Cpu)
    return std::make_unique<LikelihoodCycleRunner>(data, weights, threads);
  if (device.kind == ComputeDevice::Kind::Emulated) return makeEmulatedCycleRunner(data, weights);
  if (!builtWithCuda())
    throw UnsupportedError("device '" + computeDeviceName(device) +
                           "' was requested but Argus was built without CUDA "
                           "(reinstall with ARGUS_CUDA=on and a CUDA toolkit)");
  if (device.index >= cudaDeviceCount())
    throw UnsupportedError("device '" + computeDeviceName(device) + "' is not visible (" +
                           std::to_string(cudaDeviceCount()) + " CUDA device(s) found)");
  return makeCudaCycleRunner(device, data, weights);
}

}  // namespace argus
