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

// What the all-coordinates steps add (device/all_coordinates_steps.h) where a fit takes them:
// the design's column- and row-major views and runs (all_coordinates_design.h: 8 bytes per
// entry, 16 more with values, 12 per run and 8 per row and column) and the steps' own arrays
// (9 doubles per row, 8 per column and the prior, a few per stratum). Not part of
// deviceBytesNeeded(): "auto" never takes the steps on a GPU yet (majorized_start.h).
double allCoordinatesBytesNeeded(const Dataset& data);

}  // namespace argus
