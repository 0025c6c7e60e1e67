// What a fit needs of a device before it starts: whether the device models cover its model,
// and how much device memory they will hold. The CUDA runner compares the latter with the
// GPU's free memory before allocating anything (device/cuda_device.cu).
#pragma once

#include "data/dataset.h"

namespace argus {

// Whether the device models (device/device_runner_factory.h) cover this model: all of them
// now (the GLMs, the conditional models with every tie method, cox with counting-process
// data, fgr); kept as the one place that says so.
bool deviceSupportsModel(const Dataset& data);

// Device memory a fit of `data` needs on the device models, in bytes: the design (4 bytes per
// stored row index, 8 per stored value), the per-row state (GLM: 10 doubles; conditional: 7,
// plus each column's runs of entries by stratum, 12 bytes per run, at most one per entry),
// per-stratum sums (40 bytes) and 64 MiB for CUB's scratch and the small vectors.
double deviceBytesNeeded(const Dataset& data);

}  // namespace argus
