// The emulated device: the device models compiled with Thrust's host systems (CPP serial, or
// OMP threads), so that the device algorithm runs and is tested on a machine without a GPU.
// Built when the engine is configured with ARGUS_CUDA=emulate (emulated_device.cpp);
// otherwise emulated_device_stub.cpp says it is absent.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "data/dataset.h"
#include "device/all_coordinates_views.h"
#include "solver/batched_start.h"
#include "solver/compute_device.h"
#include "solver/coordinate_sweep.h"
#include "solver/cycle_runner.h"

namespace argus {

bool builtWithEmulatedDevice();
// "cpp" or "omp" where built, "" otherwise.
std::string emulatedDeviceSystem();
std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset& data, const double* weights,
                                                     const std::shared_ptr<const SharedDeviceData>& shared = nullptr);
std::shared_ptr<const SharedDeviceData> makeEmulatedSharedData(const Dataset& data);
// The device memory the emulated device has, in bytes (<= 0: no limit, the default). A fit
// that needs more (deviceBytesNeeded, less what shared data already hold) is refused as the
// CUDA runner refuses it, with an UnsupportedError: so that tests reach, without a GPU, what
// follows a device with too little memory ("auto" fits on the CPU, and says so). Process-wide.
void setEmulatedDeviceMemory(double bytes);
// A batch of fits on the emulated device (solver/batched_start.h), or null (no bound, or more
// members than the memory set above holds, less what `shared` holds now: the fits then run
// one by one, as on a GPU).
std::unique_ptr<BatchedBoundSteps> makeEmulatedBatch(const Dataset& data, const std::vector<const double*>& weights,
                                                     const std::shared_ptr<const SharedDeviceData>& shared);
// While true, building a batch of fits throws std::bad_alloc, as a device allocation that
// fails inside DeviceBatchedSteps' constructor would (tests: the fits then run one by one).
// Process-wide; false by default.
void failEmulatedBatchAllocations(bool fail);
// How many device copies of a design (device_design.h) this process has built.
std::int64_t emulatedDesignsBuilt();
// Bytes a shared design holds now (its all-coordinates views only where built), building nothing.
double emulatedDesignBytes(const std::shared_ptr<const SharedDeviceData>& shared);
// Bytes held by the all-coordinates views of a shared design (device/all_coordinates_design.h),
// built where not yet (the device suite checks allCoordinatesBytesNeeded() against them).
double emulatedAllCoordinatesBytes(const std::shared_ptr<const SharedDeviceData>& shared);
// Those views copied to the host (built where not yet).
AllCoordinatesHostViews emulatedAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>& shared);
// The emulated device model itself (tests drive it through the host sweep, and measure it).
std::unique_ptr<DeviceModel> makeEmulatedModel(const Dataset& data, const double* weights,
                                               const std::shared_ptr<const SharedDeviceData>& shared = nullptr);

}  // namespace argus
