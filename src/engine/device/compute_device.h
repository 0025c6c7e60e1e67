// Where a fit runs, and the one dispatch point that picks the implementation.
//
// Algorithm code asks makeCycleRunner() for a runner and never asks which device it got.
// Asking for CUDA in a build without it is an error, never a silent CPU fallback.
#pragma once

#include <memory>
#include <string>

#include "data/dataset.h"
#include "solver/cycle_runner.h"

namespace argus {

struct ComputeDevice {
  enum class Kind { Cpu, Cuda } kind = Kind::Cpu;
  int index = 0;
};

ComputeDevice parseComputeDevice(const std::string& name);  // "cpu", "cuda", "cuda:1"
std::string computeDeviceName(const ComputeDevice& device);

bool builtWithCuda();
int cudaDeviceCount();  // 0 when built without CUDA or when no GPU is visible

// threads: for the work inside one coordinate (ControlSettings::threads).
std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& device, const Dataset& data,
                                             const double* weights, int threads = 1);

}  // namespace argus
