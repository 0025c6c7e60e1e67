#include "solver/duplicate_split.h"

#include <algorithm>
#include <tuple>

#include "data/duplicate_columns.h"

namespace argus {

namespace {

// A column's first and last nonzero entries (row and value; rows -1 for none): equal for
// duplicates whatever their storage, and O(1) for all but dense columns with leading zeros.
using EndEntries = std::tuple<std::int64_t, double, std::int64_t, double>;

EndEntries endEntries(const ColumnView& c, std::int64_t rows) {
  auto at = [&](std::int64_t k, std::int64_t* row) {
    switch (c.kind) {
      case ColumnKind::Intercept: *row = k; return 1.0;
      case ColumnKind::Dense: *row = k; return c.values[k];
      case ColumnKind::Indicator: *row = c.rows[k]; return 1.0;
      default: *row = c.rows[k]; return c.values[k];
    }
  };
  const std::int64_t stored = c.kind == ColumnKind::Intercept ? rows : c.nnz;
  // The first nonzero entry met walking from `from` in steps of `by` (row -1 for none).
  auto firstNonzero = [&](std::int64_t from, std::int64_t by, std::int64_t* row) {
    *row = -1;
    for (std::int64_t k = from; k >= 0 && k < stored; k += by) {
      std::int64_t r = 0;
      const double x = at(k, &r);
      if (x != 0.0) {
        *row = r;
        return x;
      }
    }
    return 0.0;
  };
  EndEntries out;
  std::get<1>(out) = firstNonzero(0, 1, &std::get<0>(out));
  std::get<3>(out) = firstNonzero(stored - 1, -1, &std::get<2>(out));
  return out;
}

}  // namespace

DuplicateSplit::DuplicateSplit(const DesignView& design, const CycleState& state) {
  std::vector<std::int32_t> free;
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (!state.fixed[j] && state.prior[j].kind == PriorKind::Normal)
      free.push_back(static_cast<std::int32_t>(j));
  if (free.size() < 2) return;
  // Only columns whose end entries another shares can be duplicates: the hashing of every
  // entry (duplicatesOfEarlier) runs on those alone (a ridge fit of 1000 random sparse
  // columns has none).
  std::vector<std::pair<EndEntries, std::int32_t>> keyed;
  for (const std::int32_t j : free)
    keyed.emplace_back(endEntries(design.columns[j], design.nRows), j);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int32_t> normal;
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    const bool shared = (i > 0 && keyed[i].first == keyed[i - 1].first) ||
                        (i + 1 < keyed.size() && keyed[i].first == keyed[i + 1].first);
    if (shared && std::get<0>(keyed[i].first) >= 0) normal.push_back(keyed[i].second);
  }
  std::sort(normal.begin(), normal.end());
  if (normal.size() < 2) return;
  const std::vector<std::int32_t> earlier = duplicatesOfEarlier(design, normal);
  std::vector<std::int32_t> groupOf(normal.size(), -1);
  for (std::size_t i = 0; i < normal.size(); ++i) {
    if (earlier[i] < 0) continue;
    std::int32_t& group = groupOf[static_cast<std::size_t>(earlier[i])];
    if (group < 0) {
      group = static_cast<std::int32_t>(groups_.size());
      groups_.push_back({normal[static_cast<std::size_t>(earlier[i])]});
    }
    groupOf[i] = group;
    groups_[static_cast<std::size_t>(group)].push_back(normal[i]);
  }
}

bool DuplicateSplit::apply(CycleState& state) const {
  bool moved = false;
  for (const std::vector<std::int32_t>& group : groups_) {
    double sum = 0.0, variance = 0.0;
    for (const std::int32_t j : group) {
      sum += state.beta[j];
      variance += state.prior[j].variance;
    }
    for (const std::int32_t j : group) {
      const double split = sum * (state.prior[j].variance / variance);
      moved = moved || split != state.beta[j];
      state.beta[j] = split;
    }
  }
  return moved;
}

}  // namespace argus
