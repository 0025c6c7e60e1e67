#include "solver/collinear_columns.h"

#include <algorithm>
#include <cmath>

#include "solver/dense_block.h"

namespace argus {

namespace {

// The checked columns' entries row by row: dense ones (and an intercept) at every row, the
// others from a row-major copy of their stored entries.
class RowEntries {
 public:
  RowEntries(const DesignView& design, const std::vector<std::int32_t>& columns)
      : start_(static_cast<std::size_t>(design.nRows) + 1, 0) {
    const std::int64_t n = design.nRows;
    for (std::size_t a = 0; a < columns.size(); ++a) {
      const ColumnView& c = design.columns[columns[a]];
      if (c.kind == ColumnKind::Dense || c.kind == ColumnKind::Intercept) {
        dense_.push_back({&c, static_cast<std::int32_t>(a)});
      } else {
        for (std::int64_t k = 0; k < c.nnz; ++k) ++start_[c.rows[k] + 1];
      }
    }
    for (std::int64_t r = 0; r < n; ++r) start_[r + 1] += start_[r];
    position_.resize(start_[n]);
    value_.resize(start_[n]);
    std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
    for (std::size_t a = 0; a < columns.size(); ++a) {
      const ColumnView& c = design.columns[columns[a]];
      if (c.kind == ColumnKind::Dense || c.kind == ColumnKind::Intercept) continue;
      forEachEntry(c, n, [&](std::int64_t r, double x) {
        position_[fill[r]] = static_cast<std::int32_t>(a);
        value_[fill[r]++] = x;
      });
    }
  }

  std::size_t denseCount() const { return dense_.size(); }
  // Row r's entries as (position among the columns, value) into `out`, the dense ones first.
  void read(std::int64_t r, std::vector<std::pair<std::int32_t, double>>& out) const {
    out.clear();
    for (const Dense& d : dense_) {
      const double x = d.column->kind == ColumnKind::Dense ? d.column->values[r] : 1.0;
      out.emplace_back(d.position, x);
    }
    for (std::int64_t k = start_[r]; k < start_[r + 1]; ++k) out.emplace_back(position_[k], value_[k]);
  }

 private:
  struct Dense {
    const ColumnView* column;
    std::int32_t position;
  };
  std::vector<Dense> dense_;
  std::vector<std::int64_t> start_;
  std::vector<std::int32_t> position_;
  std::vector<double> value_;
};

// The end of the group that starts at row r.
std::int64_t groupEnd(const CollinearityRows& rows, std::int64_t r, std::int64_t n) {
  if (!rows.group) return n;
  std::int64_t end = r + 1;
  while (end < n && rows.group[end] == rows.group[r]) ++end;
  return end;
}

// Per row: the weight it takes part with (0: none).
std::vector<double> participation(const CollinearityRows& rows, std::int64_t n) {
  std::vector<double> w(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    const double v = rows.weights ? rows.weights[r] : 1.0;
    w[r] = v > 0.0 ? v : 0.0;
  }
  if (!rows.requireEvent) return w;
  for (std::int64_t r = 0; r < n;) {
    const std::int64_t end = groupEnd(rows, r, n);
    bool event = false;
    for (std::int64_t q = r; q < end && !event; ++q) event = rows.y[q] > 0.0 && w[q] > 0.0;
    if (!event) std::fill(w.begin() + r, w.begin() + end, 0.0);
    r = end;
  }
  return w;
}

}  // namespace

std::vector<std::int32_t> collinearColumns(const DesignView& design, const CollinearityRows& rows,
                                           const std::vector<std::int32_t>& columns,
                                           double tolerance) {
  const std::size_t k = columns.size();
  const std::int64_t n = design.nRows;
  std::vector<std::int32_t> out;
  if (k == 0) return out;
  const std::vector<double> w = participation(rows, n);

  // G = sum_r w x x' - sum_groups S S' / W (S: the group's sum of w x, W of w). `raw` keeps
  // the first term's diagonal: the spread before the group means are taken out. Where the
  // data are centred, the dense columns are first shifted by their value on the group's first
  // row taking part, so that a column constant within groups is exactly 0 there (the group
  // sums then take out exactly nothing) and a calendar year keeps its digits.
  const RowEntries entries(design, columns);
  const std::size_t denseCount = entries.denseCount();
  std::vector<double> gram(k * k, 0.0), raw(k, 0.0), sum(k, 0.0), shift(denseCount, 0.0);
  std::vector<std::int32_t> touched;
  std::vector<unsigned char> isTouched(k, 0);
  std::vector<std::pair<std::int32_t, double>> row;
  for (std::int64_t r = 0; r < n;) {
    const std::int64_t end = groupEnd(rows, r, n);
    double groupWeight = 0.0;
    bool first = true;
    for (; r < end; ++r) {
      if (!(w[r] > 0.0)) continue;
      entries.read(r, row);
      if (rows.centre && first)
        for (std::size_t i = 0; i < denseCount; ++i) shift[i] = row[i].second;
      first = false;
      for (std::size_t i = 0; i < denseCount; ++i) row[i].second -= shift[i];
      groupWeight += w[r];
      for (std::size_t i = 0; i < row.size(); ++i) {
        const std::int32_t a = row[i].first;
        const double wx = w[r] * row[i].second;
        sum[a] += wx;
        raw[a] += wx * row[i].second;
        if (!isTouched[a]) isTouched[a] = 1, touched.push_back(a);
        for (std::size_t m = 0; m <= i; ++m) {
          const std::int32_t b = row[m].first;
          gram[std::max(a, b) * k + std::min(a, b)] += wx * row[m].second;
        }
      }
    }
    if (rows.centre && groupWeight > 0.0)
      for (const std::int32_t a : touched)
        for (const std::int32_t b : touched)
          if (b <= a) gram[a * k + b] -= sum[a] * sum[b] / groupWeight;
    for (const std::int32_t a : touched) sum[a] = 0.0, isTouched[a] = 0;
    touched.clear();
  }

  // Correlation scale; a column centring left (almost) nothing of is aliased outright.
  std::vector<double> scale(k, 0.0), c(k * k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    const double d = gram[a * k + a];
    if (d > tolerance * raw[a] && d > 0.0) scale[a] = 1.0 / std::sqrt(d);
  }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = 0; b <= a; ++b) {
      const double v = gram[a * k + b] * scale[a] * scale[b];
      c[a * k + b] = c[b * k + a] = v;
    }
  const BlockFactor f = factorSkippingAliased(c, k, tolerance);
  for (std::size_t a = 0; a < k; ++a)
    if (f.aliased[a]) out.push_back(columns[a]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace argus
