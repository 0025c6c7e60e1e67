// The emulated device: the device models compiled with Thrust's host systems (CPP serial, or
// OMP threads), so that the device algorithm runs and is tested on a machine without a GPU.
// Built when the engine is configured with ARGUS_CUDA=emulate (emulated_device.cpp);
// otherwise emulated_device_stub.cpp says it is absent.
#pragma once

#include <memory>
#include <string>

#include "data/dataset.h"
#include "solver/cycle_runner.h"

namespace argus {

bool builtWithEmulatedDevice();
// "cpp" or "omp" where built, "" otherwise.
std::string emulatedDeviceSystem();
std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset& data, const double* weights);

}  // namespace argus
