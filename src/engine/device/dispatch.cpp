// The one dispatch point: where a request's device is parsed, "auto" resolved (auto_device.h)
// and the runner made. Declared in solver/compute_device.h.
#include "solver/compute_device.h"

#include <new>
#include <string>

#include "common/errors.h"
#include "device/auto_device.h"
#include "device/cuda_device.h"
#include "device/emulated_device.h"
#include "solver/batched_start.h"
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

DeviceRun prepareDeviceRun(const ComputeDevice& requested, const Dataset& data) {
  DeviceRun run;
  run.device = resolveComputeDevice(requested, data);
  switch (run.device.kind) {
    case ComputeDevice::Kind::Emulated:
      try {
        run.shared = makeEmulatedSharedData(data);
      } catch (const UnsupportedError&) {
        // not built, or too little (emulated) memory: each fit decides, as on CUDA
      }
      break;
    case ComputeDevice::Kind::Cuda:
      if (!builtWithCuda() || run.device.index >= cudaDeviceCount()) break;  // the runner says why
      try {
        run.shared = makeCudaSharedData(run.device, data);
      } catch (const UnsupportedError&) {
        // too little memory: each fit decides ("auto": the CPU; "cuda": an error)
      }
      break;
    default:
      break;
  }
  return run;
}

namespace {

// The runner of a resolved device other than the CPU. An UnsupportedError where the device
// cannot take the fit: absent from this build or not visible, or too little free memory.
std::unique_ptr<CycleRunner> deviceRunner(const ComputeDevice& device, const Dataset& data, const double* weights,
                                          const std::shared_ptr<const SharedDeviceData>& shared) {
  if (device.kind == ComputeDevice::Kind::Emulated) return makeEmulatedCycleRunner(data, weights, shared);
  if (!builtWithCuda())
    throw UnsupportedError("device '" + computeDeviceName(device) +
                           "' was requested but Argus was built without CUDA "
                           "(reinstall with ARGUS_CUDA=on and a CUDA toolkit)");
  if (device.index >= cudaDeviceCount())
    throw UnsupportedError("device '" + computeDeviceName(device) + "' is not visible (" +
                           std::to_string(cudaDeviceCount()) + " CUDA device(s) found)");
  return makeCudaCycleRunner(device, data, weights, shared);
}

}  // namespace

std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& requested, const Dataset& data,
                                             const double* weights, int threads,
                                             const std::shared_ptr<const SharedDeviceData>& shared,
                                             ComputeDevice* ran) {
  ComputeDevice device = resolveComputeDevice(requested, data);  // unchanged where resolved
  std::unique_ptr<CycleRunner> runner;
  if (device.kind == ComputeDevice::Kind::Cpu) {
    runner = std::make_unique<LikelihoodCycleRunner>(data, weights, threads);
  } else if (!device.automatic) {
    runner = deviceRunner(device, data, weights, shared);
  } else {
    // "auto" chose the device; where it cannot take the fit (too little free memory, say),
    // the CPU, and the fit says so (ran): it ran there, not where "auto" pointed.
    try {
      runner = deviceRunner(device, data, weights, shared);
    } catch (const UnsupportedError&) {
      device.kind = ComputeDevice::Kind::Cpu;
      device.index = 0;
      runner = std::make_unique<LikelihoodCycleRunner>(data, weights, threads);
    }
  }
  if (ran) *ran = device;
  return runner;
}

std::unique_ptr<BatchedBoundSteps> makeBatchedBoundSteps(const ComputeDevice& requested, const Dataset& data,
                                                         const std::vector<const double*>& weights,
                                                         const std::shared_ptr<const SharedDeviceData>& shared) {
  const ComputeDevice device = resolveComputeDevice(requested, data);
  // A batch is only a faster way to the same fits: where building it runs out of device
  // memory (the estimate of its size passed, an allocation then failed), none, and the fits
  // run one by one, each deciding for itself.
  try {
    if (device.kind == ComputeDevice::Kind::Emulated) return makeEmulatedBatch(data, weights, shared);
    if (device.kind == ComputeDevice::Kind::Cuda && builtWithCuda() && device.index < cudaDeviceCount())
      return makeCudaBatch(device, data, weights, shared);
  } catch (const std::bad_alloc&) {  // thrust's device bad_alloc derives from it
    return nullptr;
  }
  return nullptr;  // the CPU: the fits run one by one
}

}  // namespace argus
