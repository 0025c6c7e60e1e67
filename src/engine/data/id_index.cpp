#include "data/id_index.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "common/errors.h"

namespace argus {

namespace {

// Maps ids to positions. When the ids span a small range (rowId 1..N, compact covariate ids)
// a direct table replaces hashing: one indexed load per lookup. Otherwise an unordered_map.
class IdMap {
 public:
  IdMap(const std::int64_t* ids, std::int64_t n) {
    if (n == 0) return;
    const auto [lo, hi] = std::minmax_element(ids, ids + n);
    min_ = *lo;
    const std::uint64_t span = static_cast<std::uint64_t>(*hi) - static_cast<std::uint64_t>(*lo);
    dense_ = span < 8 * static_cast<std::uint64_t>(n) + 1024;
    if (dense_) table_.assign(static_cast<std::size_t>(span) + 1, -1);
    else hash_.reserve(static_cast<std::size_t>(n));
  }
  // Returns false if the id was already present.
  bool insert(std::int64_t id, std::int32_t position) {
    if (dense_) {
      std::int32_t& slot = table_[static_cast<std::size_t>(id - min_)];
      if (slot >= 0) return false;
      slot = position;
      return true;
    }
    return hash_.emplace(id, position).second;
  }
  void set(std::int64_t id, std::int32_t position) {
    if (dense_) table_[static_cast<std::size_t>(id - min_)] = position;
    else hash_[id] = position;
  }
  std::int32_t find(std::int64_t id) const {
    if (dense_) {
      if (id < min_ || static_cast<std::uint64_t>(id - min_) >= table_.size()) return -1;
      return table_[static_cast<std::size_t>(id - min_)];
    }
    const auto it = hash_.find(id);
    return it == hash_.end() ? -1 : it->second;
  }

 private:
  bool dense_ = false;
  std::int64_t min_ = 0;
  std::vector<std::int32_t> table_;
  std::unordered_map<std::int64_t, std::int32_t> hash_;
};

}  // namespace

IdCodes codeIds(const std::int64_t* ids, std::int64_t n) {
  ARGUS_REQUIRE(n < INT32_MAX, "too many identifiers");
  IdCodes out;
  IdMap seen(ids, n);
  for (std::int64_t i = 0; i < n; ++i)
    if (seen.insert(ids[i], 0)) out.unique.push_back(ids[i]);
  std::sort(out.unique.begin(), out.unique.end());
  for (std::size_t k = 0; k < out.unique.size(); ++k)
    seen.set(out.unique[k], static_cast<std::int32_t>(k));
  out.code.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out.code[i] = seen.find(ids[i]);
  return out;
}

IdLookup lookupIds(const std::int64_t* keys, std::int64_t nKeys, const std::int64_t* table,
                   std::int64_t nTable) {
  ARGUS_REQUIRE(nTable < INT32_MAX, "too many identifiers");
  IdMap map(table, nTable);
  for (std::int64_t i = 0; i < nTable; ++i)
    if (!map.insert(table[i], static_cast<std::int32_t>(i)))
      throw ArgusError("identifier " + std::to_string(table[i]) + " appears more than once");
  IdLookup out;
  out.position.resize(static_cast<std::size_t>(nKeys));
  for (std::int64_t i = 0; i < nKeys; ++i) {
    out.position[i] = map.find(keys[i]);
    if (out.position[i] < 0 && out.firstMissing < 0) out.firstMissing = i;
  }
  return out;
}

std::int64_t firstDuplicateId(const std::int64_t* ids, std::int64_t n) {
  IdMap seen(ids, n);
  for (std::int64_t i = 0; i < n; ++i)
    if (!seen.insert(ids[i], 0)) return i;
  return -1;
}

}  // namespace argus
