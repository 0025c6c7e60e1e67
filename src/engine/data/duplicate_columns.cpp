#include "data/duplicate_columns.h"

#include <cstring>
#include <unordered_map>

namespace argus {

namespace {

// The nonzero entries of a column as (row, value) pairs, in row order.
std::vector<std::pair<std::int64_t, double>> nonzeroEntries(const ColumnView& c, std::int64_t n) {
  std::vector<std::pair<std::int64_t, double>> out;
  forEachEntry(c, n, [&](std::int64_t r, double x) {
    if (x != 0.0) out.emplace_back(r, x);
  });
  return out;
}

std::uint64_t hashEntries(const std::vector<std::pair<std::int64_t, double>>& entries) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over rows and value bits
  auto mix = [&](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  };
  for (const auto& e : entries) {
    std::uint64_t bits;
    const double value = e.second == 0.0 ? 0.0 : e.second;  // one zero
    std::memcpy(&bits, &value, sizeof bits);
    mix(static_cast<std::uint64_t>(e.first));
    mix(bits);
  }
  return h;
}

}  // namespace

std::vector<std::int32_t> duplicatesOfEarlier(const DesignView& design,
                                              const std::vector<std::int32_t>& columns) {
  std::vector<std::int32_t> out(columns.size(), -1);
  // Only hashes are kept; entries are rebuilt for the rare hash matches.
  std::unordered_multimap<std::uint64_t, std::size_t> seen;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto entries = nonzeroEntries(design.columns[columns[i]], design.nRows);
    const std::uint64_t h = hashEntries(entries);
    const auto range = seen.equal_range(h);
    for (auto it = range.first; it != range.second; ++it)
      if (nonzeroEntries(design.columns[columns[it->second]], design.nRows) == entries) {
        out[i] = static_cast<std::int32_t>(it->second);
        break;
      }
    if (out[i] < 0) seen.emplace(h, i);
  }
  return out;
}

}  // namespace argus
