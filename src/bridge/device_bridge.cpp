// .Call entry point of hasCuda() / listDevices().
#include "bridge/convert.h"
#include "device/compute_device.h"

using namespace Rcpp;

extern "C" SEXP argus_cuda_info() {
  BEGIN_RCPP
  return List::create(_["built"] = argus::builtWithCuda(),
                      _["deviceCount"] = argus::cudaDeviceCount());
  END_RCPP
}
