// What a fit needs of a device before it starts: how much device memory the device models
// will hold. The CUDA runner compares it with the GPU's free memory before allocating
// anything (device/cuda_device.cu).
#pragma once

#include "data/dataset.h"

namespace argus {

// Device memory a fit of `data` needs on the device models, in bytes: the design (4 bytes per
// stored row index, 8 per stored value), the per-row state (GLM: 10 doubles; conditional: 7,
// plus each column's runs of entries by stratum, 12 bytes per run, at most one per entry),
// per-stratum sums (40 bytes) and 64 MiB for CUB's scratch and the small vectors.
double deviceBytesNeeded(const Dataset& data);

}  // namespace argus
