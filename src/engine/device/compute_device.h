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
  // Auto: resolved by makeCycleRunner() (autoPrefersCuda).
  enum class Kind { Cpu, Cuda, Emulated, Auto } kind = Kind::Cpu;
  int index = 0;
};

// device = "auto" takes a visible GPU (CUDA build) where one was measured at least 3x faster
// than one CPU core in the same run (bench/RESULTS.md: an H100, then an H200 on 2026-11-28
// after the CPU learned to certify its majorized start), by model and the number of stored
// design entries:
//   SCCS and conditional Poisson from 1e6 entries (1e6 cases x 200 drugs, 2.5e6 entries: 3.8x);
//   Cox with mostly distinct event times (at least kAutoDistinctEventShare of the events have
//     a time of their own, as with continuous times) from 5e7 (N = 1e6, P = 1000 at 5%: 4.3x;
//     1.7x at 1.5e7 and 1.07x at 5e6, where the CPU certifies its start with no cycle);
//   lr, pr and ls from 5e7 (N = 1e6, P = 1000: 5.3x; equal at N = 1e5);
//   clr with exact ties (its default) from 5e6 (1e5 rows in sets of 10 with 3 cases,
//     P = 1000: 17x); Breslow and Efron ties, not timed, stay on the CPU;
// otherwise the CPU: Fine-Gray (continuous times 2.1x at 5e7, 1.35x at 1.5e7, 3.5x slower at
// 5e6; whole days 4x slower at 5e6), survival with tied (whole-day) times (Cox 1.7x slower at
// 5e6), (start, stop] data (Cox at 5e6: 1.4x slower), smaller designs. Where the GPU then
// cannot take the fit (too little free memory), "auto" fits on the CPU. Never the emulated
// device.
constexpr std::int64_t kAutoConditionalEntries = 1000000;
constexpr std::int64_t kAutoConditionalLogisticEntries = 5000000;
constexpr std::int64_t kAutoCoxEntries = 50000000;
constexpr std::int64_t kAutoLargeEntries = 50000000;
constexpr double kAutoDistinctEventShare = 0.5;
// The device suite has passed on a GPU (an H100, then an H200: 171 of 171 run there; the other
// 4 are the emulated device's own), so "auto" may take the CUDA runner.
constexpr bool kCudaRunnerValidated = true;

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
// Whether the device models (device/device_runner_factory.h) cover this model: all of them
// now (the GLMs, the conditional models with every tie method, cox with counting-process
// data, fgr); kept as the one place that says so.
bool deviceSupportsModel(const Dataset& data);
// What the device fits of one data set share: its design and weight-free plans in device
// memory (device/device_design.h), so that a cross-validation's folds and candidates, or a
// bootstrap's replicates, upload X and plan once. Opaque outside device/.
class SharedDeviceData {
 public:
  virtual ~SharedDeviceData() = default;
};
// For the fits of `data` on `device` ("auto" resolved as makeCycleRunner does): null where
// that is the CPU. The fits must then be of this very Dataset object; a runner given shared
// data made for another builds its own.
std::shared_ptr<const SharedDeviceData> makeSharedDeviceData(const ComputeDevice& device, const Dataset& data);
// The CUDA runner (device/cuda_device.cu; an UnsupportedError in builds without CUDA).
std::unique_ptr<CycleRunner> makeCudaCycleRunner(const ComputeDevice& device, const Dataset& data,
                                                 const double* weights,
                                                 const std::shared_ptr<const SharedDeviceData>& shared);
std::shared_ptr<const SharedDeviceData> makeCudaSharedData(const ComputeDevice& device, const Dataset& data);
// Device memory a fit of `data` needs on the device models, in bytes: the design (4 bytes per
// stored row index, 8 per stored value), the per-row state (GLM: 10 doubles; conditional: 7,
// plus each column's runs of entries by stratum, 12 bytes per run, at most one per entry),
// per-stratum sums (40 bytes) and 64 MiB for CUB's scratch and the small vectors. The CUDA
// runner compares it with the device's free memory before allocating anything.
double deviceBytesNeeded(const Dataset& data);
// The measured part of the "auto" rule (above), whatever GPU is present.
bool autoPrefersCuda(const Dataset& data);
// The device a request resolves to ("auto" made concrete; others unchanged).
ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data);

// threads: for the work inside one coordinate (ControlSettings::threads). shared: from
// makeSharedDeviceData for this data, or null.
std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& device, const Dataset& data,
                                             const double* weights, int threads = 1,
                                             const std::shared_ptr<const SharedDeviceData>& shared = nullptr);

}  // namespace argus
