#include "data/id_index.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "common/errors.h"

namespace argus {

namespace {

std::unordered_map<std::int64_t, std::int32_t> positions(const std::int64_t* table,
                                                         std::int64_t n) {
  std::unordered_map<std::int64_t, std::int32_t> map;
  map.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    if (!map.emplace(table[i], static_cast<std::int32_t>(i)).second)
      throw ArgusError("identifier " + std::to_string(table[i]) + " appears more than once");
  }
  return map;
}

}  // namespace

IdCodes codeIds(const std::int64_t* ids, std::int64_t n) {
  require(n < INT32_MAX, "too many identifiers");
  IdCodes out;
  std::unordered_map<std::int64_t, std::int32_t> seen;
  for (std::int64_t i = 0; i < n; ++i)
    if (seen.emplace(ids[i], 0).second) out.unique.push_back(ids[i]);
  std::sort(out.unique.begin(), out.unique.end());
  for (std::size_t k = 0; k < out.unique.size(); ++k)
    seen[out.unique[k]] = static_cast<std::int32_t>(k);
  out.code.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out.code[i] = seen.find(ids[i])->second;
  return out;
}

IdLookup lookupIds(const std::int64_t* keys, std::int64_t nKeys, const std::int64_t* table,
                   std::int64_t nTable) {
  const auto map = positions(table, nTable);
  IdLookup out;
  out.position.resize(static_cast<std::size_t>(nKeys));
  for (std::int64_t i = 0; i < nKeys; ++i) {
    const auto it = map.find(keys[i]);
    if (it == map.end()) {
      out.position[i] = -1;
      if (out.firstMissing < 0) out.firstMissing = i;
    } else {
      out.position[i] = it->second;
    }
  }
  return out;
}

std::int64_t firstDuplicateId(const std::int64_t* ids, std::int64_t n) {
  std::unordered_map<std::int64_t, char> seen;
  seen.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    if (!seen.emplace(ids[i], 0).second) return i;
  return -1;
}

}  // namespace argus
