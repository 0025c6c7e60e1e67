#include "data/column_centring.h"

#include <cmath>

namespace argus {

std::vector<double> largeColumnMeans(const DesignView& design, const std::vector<std::int32_t>& columns) {
  std::vector<double> out(design.nColumns(), 0.0);
  const std::int64_t n = design.nRows;
  if (n == 0) return out;
  for (const std::int32_t j : columns) {
    const ColumnView& c = design.columns[j];
    if (c.kind != ColumnKind::Dense) continue;
    double sum = 0.0;
    for (std::int64_t r = 0; r < n; ++r) sum += c.values[r];
    const double mean = sum / static_cast<double>(n);
    double squares = 0.0;  // two passes: the spread is what the one-pass sums would lose
    for (std::int64_t r = 0; r < n; ++r) squares += (c.values[r] - mean) * (c.values[r] - mean);
    const double spread = std::sqrt(squares / static_cast<double>(n));
    if (std::fabs(mean) > kCentreRatio * spread) out[j] = mean;
  }
  return out;
}

std::int32_t interceptColumn(const DesignView& design) {
  for (std::size_t j = 0; j < design.nColumns(); ++j)
    if (design.columns[j].kind == ColumnKind::Intercept) return static_cast<std::int32_t>(j);
  return -1;
}

}  // namespace argus
