// Where a fit runs, and the one dispatch point that picks the implementation.
//
// Algorithm code asks makeCycleRunner() for a runner and never asks which device it got.
// Asking for CUDA in a build without it is an error, never a silent CPU fallback.
#pragma once

#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "solver/cycle_runner.h"

namespace argus {

struct ComputeDevice {
  // Emulated: the device models on Thrust's host systems (device/emulated_device.h).
  // Auto: resolved by makeCycleRunner() (kAutoMinimumEntries).
  enum class Kind { Cpu, Cuda, Emulated, Auto } kind = Kind::Cpu;
  int index = 0;
};

// device = "auto" takes a GPU when the build has CUDA, one is visible, the model has a CUDA
// runner and the design has at least this many stored entries (below it, launch latency
// outweighs the GPU's bandwidth); otherwise the CPU. Never the emulated device.
constexpr std::int64_t kAutoMinimumEntries = 1000000;
// "auto" takes the CUDA runner only once the device suite has passed on a GPU: it has been
// compiled (nvcc, CI) and its algorithm tested on the emulated device, but no GPU has run it
// yet (bench/RESULTS.md). device = "cuda" asks for it explicitly.
constexpr bool kCudaRunnerValidated = false;

ComputeDevice parseComputeDevice(const std::string& name);  // "cpu", "cuda", "cuda:1", "emulated", "auto"
std::string computeDeviceName(const ComputeDevice& device);

bool builtWithCuda();
int cudaDeviceCount();  // 0 when built without CUDA or when no GPU is visible
// One visible GPU, as listDevices() shows it.
struct CudaDeviceInfo {
  std::string name;
  double memoryBytes = 0.0;
  int major = 0, minor = 0;  // compute capability
};
std::vector<CudaDeviceInfo> cudaDevices();
// Whether the device models (device/device_runner_factory.h) cover this model: the GLMs and
// the conditional models with Breslow's form.
bool deviceSupportsModel(const Dataset& data);
// The CUDA runner (device/cuda_device.cu; an UnsupportedError in builds without CUDA).
std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights);
// The device a request resolves to ("auto" made concrete; others unchanged).
ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data);

// threads: for the work inside one coordinate (ControlSettings::threads).
std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& device, const Dataset& data,
                                             const double* weights, int threads = 1);

}  // namespace argus
