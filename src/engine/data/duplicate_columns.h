// Exact duplicate columns: the cheap collinearity check for flat-prior columns outside the
// solver's Newton block (solver/block_newton.h covers those inside it). Two columns are
// duplicates when they have the same nonzero entries (rows and values), whatever their
// storage kinds (an intercept is an indicator of every row).
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"

namespace argus {

// For each of `columns` (in order), the position in `columns` of an earlier column with the
// same nonzero entries, or -1. O(entries) with hashing; candidates are compared exactly.
std::vector<std::int32_t> duplicatesOfEarlier(const DesignView& design,
                                              const std::vector<std::int32_t>& columns);

}  // namespace argus
