// The all-coordinates views of a data set's design built on the host, before the device copy
// (all_coordinates_design.h says what each is). No CCCL: compiled with the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace argus {

struct AllCoordinatesHost {
  std::vector<std::int64_t> columnStart, rowStart, runStart, columnRunStart, stratumRowStart;
  std::vector<std::int32_t> entryRow, rowColumn, runStratum;
  std::vector<double> entryValue, rowValue;  // empty: every value 1
};

AllCoordinatesHost buildAllCoordinatesHost(const Dataset& data);

}  // namespace argus
