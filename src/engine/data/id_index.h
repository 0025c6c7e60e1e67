// Coding of user identifiers (rowId, covariateId, stratumId) as dense 0-based codes.
//
// OHDSI identifiers are 64-bit integers (bit64::integer64 in R, or doubles holding whole
// numbers), so everything here works on int64 keys. Hashing keeps createData() linear in the
// number of (rowId, covariateId) pairs.
#pragma once

#include <cstdint>
#include <vector>

namespace argus {

struct IdCodes {
  std::vector<std::int64_t> unique;  // sorted ascending
  std::vector<std::int32_t> code;    // code[i]: position of ids[i] in `unique`
};

IdCodes codeIds(const std::int64_t* ids, std::int64_t n);

struct IdLookup {
  std::vector<std::int32_t> position;  // position in the table, -1 when absent
  std::int64_t firstMissing = -1;      // first key not in the table
};

// Looks each key up in `table`, whose entries must be unique (throws ArgusError otherwise).
IdLookup lookupIds(const std::int64_t* keys, std::int64_t nKeys, const std::int64_t* table,
                   std::int64_t nTable);

// Index of the first repeated id, or -1.
std::int64_t firstDuplicateId(const std::int64_t* ids, std::int64_t n);

}  // namespace argus
