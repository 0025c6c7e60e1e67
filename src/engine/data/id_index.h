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

// Identifiers as the caller stores them: int64 (bit64::integer64), doubles holding whole
// numbers, or 32-bit integers (R's integer vectors). Read in place, so that millions of
// covariate entries are not first copied into an int64 vector; the caller has checked that
// the values are whole and in range.
struct IdColumn {
  enum class Type { Int64, Double, Int32 };
  Type type = Type::Int64;
  const void* data = nullptr;
  std::int64_t n = 0;
};

// codeIds() writing each entry's code into `code` (ids.n values): returns the sorted
// distinct ids.
std::vector<std::int64_t> codeIds(const IdColumn& ids, std::int32_t* code);

struct IdLookup {
  std::vector<std::int32_t> position;  // position in the table, -1 when absent
  std::int64_t firstMissing = -1;      // first key not in the table
};

// Looks each key up in `table`, whose entries must be unique (throws ArgusError otherwise).
IdLookup lookupIds(const std::int64_t* keys, std::int64_t nKeys, const std::int64_t* table,
                   std::int64_t nTable);

// lookupIds() writing each key's position into `position` (keys.n values): returns the index
// of the first key not in the table, or -1.
std::int64_t lookupIds(const IdColumn& keys, const IdColumn& table, std::int32_t* position);

// Index of the first repeated id, or -1.
std::int64_t firstDuplicateId(const std::int64_t* ids, std::int64_t n);
// The same, read in place (createData() asks it of every rowId column).
std::int64_t firstDuplicateId(const IdColumn& ids);

}  // namespace argus
