#include "common/errors.h"
#include "device/emulated_device.h"

namespace argus {

bool builtWithEmulatedDevice() { return false; }
std::string emulatedDeviceSystem() { return ""; }
namespace {
[[noreturn]] void notBuilt() {
  throw UnsupportedError(
      "device 'emulated' was requested but Argus was built without it (reinstall with "
      "ARGUS_CUDA=emulate)");
}
}  // namespace

std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset&, const double*,
                                                     const std::shared_ptr<const SharedDeviceData>&) {
  notBuilt();
}
std::shared_ptr<const SharedDeviceData> makeEmulatedSharedData(const Dataset&) { notBuilt(); }

void setEmulatedDeviceMemory(double) {}
std::int64_t emulatedDesignsBuilt() { return 0; }
std::unique_ptr<BatchedBoundSteps> makeEmulatedBatch(const Dataset&, const std::vector<const double*>&,
                                                     const std::shared_ptr<const SharedDeviceData>&) {
  notBuilt();
}
void failEmulatedBatchAllocations(bool) {}
double emulatedDesignBytes(const std::shared_ptr<const SharedDeviceData>&) { return 0.0; }
double emulatedAllCoordinatesBytes(const std::shared_ptr<const SharedDeviceData>&) { return 0.0; }
AllCoordinatesHostViews emulatedAllCoordinatesViews(const std::shared_ptr<const SharedDeviceData>&) { return {}; }

std::unique_ptr<DeviceModel> makeEmulatedModel(const Dataset&, const double*,
                                               const std::shared_ptr<const SharedDeviceData>&) {
  throw UnsupportedError("Argus was built without the emulated device (ARGUS_CUDA=emulate)");
}

}  // namespace argus
