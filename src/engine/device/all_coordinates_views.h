// The all-coordinates views (all_coordinates_design.h) as host vectors: what the device suite
// reads back to check the device's build against a host oracle. No CCCL.
#pragma once

#include <cstdint>
#include <vector>

namespace argus {

struct AllCoordinatesHostViews {
  std::vector<std::int64_t> columnStart, rowStart, runStart, columnRunStart, stratumRowStart;
  std::vector<std::int32_t> entryRow, rowColumn, runStratum;
  std::vector<double> entryValue, rowValue;  // empty: every value 1
};

}  // namespace argus
