// main() of the device suite on a GPU (CUDA builds): without a visible GPU it exits 77, which
// ctest reports as "Skipped", with the reason on stdout.
#include <gtest/gtest.h>

#include <cstdio>

#include "device/cuda_device.h"

int main(int argc, char** argv) {
  if (argus::cudaDeviceCount() == 0) {
    std::printf("no CUDA device visible: the device suite on the GPU is skipped\n");
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
