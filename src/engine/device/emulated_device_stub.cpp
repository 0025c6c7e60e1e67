#include "common/errors.h"
#include "device/emulated_device.h"

namespace argus {

bool builtWithEmulatedDevice() { return false; }
std::string emulatedDeviceSystem() { return ""; }
std::unique_ptr<CycleRunner> makeEmulatedCycleRunner(const Dataset&, const double*) {
  throw UnsupportedError(
      "device 'emulated' was requested but Argus was built without it (reinstall with "
      "ARGUS_CUDA=emulate)");
}

}  // namespace argus
