// Where a fit runs: the device vocabulary the solver speaks, declared here and defined by
// the one dispatch point (device/dispatch.cpp). Declarations only, so that solver/ and
// selection/ name devices without depending on device/, which builds on them.
//
// A request names a device ("cpu", "cuda", "cuda:N", "emulated", "auto"), parsed once where
// it enters the engine (the bridge). The dispatch point resolves "auto" by a rule measured
// on GPUs, which device/ keeps to itself, and picks the runner; algorithm code asks for a
// runner and never asks which device it got. Asking for CUDA in a build without it is an
// error, never a silent CPU fallback.
#pragma once

#include <memory>
#include <string>

#include "data/dataset.h"
#include "solver/cycle_runner.h"

namespace argus {

struct ComputeDevice {
  // Emulated: the device models on Thrust's host systems (device/emulated_device.h).
  // Auto: not resolved yet; the dispatch point makes it Cpu or Cuda.
  enum class Kind { Cpu, Cuda, Emulated, Auto } kind = Kind::Cpu;
  int index = 0;
  // Chosen by "auto": where the GPU it chose cannot take a fit (too little free memory), the
  // fit runs on the CPU, where an explicit "cuda" is an error.
  bool automatic = false;
};

ComputeDevice parseComputeDevice(const std::string& name);  // "cpu", "cuda", "cuda:1", "emulated", "auto"
std::string computeDeviceName(const ComputeDevice& device);

// What the device fits of one data set share: its design and weight-free plans in device
// memory (device/device_design.h), so that a cross-validation's folds and candidates, or a
// bootstrap's replicates, upload X and plan once. Opaque outside device/.
class SharedDeviceData {
 public:
  virtual ~SharedDeviceData() = default;
};

// A run of many fits of one data set (cross-validation, bootstrap) on one device: the device
// with "auto" resolved for these data, once for the whole run, and the data's device copy that
// the fits share (null on the CPU, or where the device cannot hold it: each fit then decides).
// The fits must be of this very Dataset object; a runner given shared data made for another
// builds its own.
struct DeviceRun {
  ComputeDevice device;
  std::shared_ptr<const SharedDeviceData> shared;
};
DeviceRun prepareDeviceRun(const ComputeDevice& requested, const Dataset& data);

// The runner of one fit: "auto" resolved here where the caller has not resolved it yet.
// threads: for the work inside one coordinate (ControlSettings::threads). shared: from
// prepareDeviceRun for this data, or null. ran (may be null): the device the runner runs on,
// which is the resolved device, or the CPU where the device "auto" chose cannot take the fit
// (too little free memory): what a fit reports as the device it ran on (FitResult::device).
std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& device, const Dataset& data,
                                             const double* weights, int threads = 1,
                                             const std::shared_ptr<const SharedDeviceData>& shared = nullptr,
                                             ComputeDevice* ran = nullptr);

}  // namespace argus
