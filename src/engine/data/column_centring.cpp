#include "data/column_centring.h"

#include <cmath>

#include "models/model_type.h"

namespace argus {

std::vector<double> largeColumnMeans(const DesignView& design, const std::vector<std::int32_t>& columns,
                                     std::vector<double>* spreads) {
  std::vector<double> out(design.nColumns(), 0.0);
  if (spreads) spreads->assign(design.nColumns(), 0.0);
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
    if (!(std::fabs(mean) > kCentreRatio * spread)) continue;
    out[j] = mean;
    if (spreads) (*spreads)[j] = spread;
  }
  return out;
}

std::vector<double> largeColumnMeans(const DesignView& design, std::vector<double>* spreads) {
  std::vector<std::int32_t> all(design.nColumns());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<std::int32_t>(j);
  return largeColumnMeans(design, all, spreads);
}

std::int32_t interceptColumn(const DesignView& design) {
  for (std::size_t j = 0; j < design.nColumns(); ++j)
    if (design.columns[j].kind == ColumnKind::Intercept) return static_cast<std::int32_t>(j);
  return -1;
}

ShiftInvariantCentring::ShiftInvariantCentring(const Dataset& data) : input_(&data) {
  if (!isSurvival(data.model) && !isConditional(data.model)) return;
  const std::vector<double> means = largeColumnMeans(data.design);
  for (std::size_t j = 0; j < means.size(); ++j) {
    if (means[j] == 0.0) continue;
    if (columns_.empty()) copy_ = data;
    const ColumnView& c = data.design.columns[j];
    std::vector<double> centred(c.values, c.values + data.nRows());
    for (double& x : centred) x -= means[j];
    columns_.push_back(static_cast<std::int32_t>(j));
    shift_.push_back(means[j]);
    values_.push_back(std::move(centred));
  }
  for (std::size_t k = 0; k < columns_.size(); ++k) copy_.design.columns[columns_[k]].values = values_[k].data();
}

double ShiftInvariantCentring::etaShift(const std::vector<double>& beta) const {
  double sum = 0.0;
  for (std::size_t k = 0; k < columns_.size(); ++k) sum += beta[columns_[k]] * shift_[k];
  return sum;
}

}  // namespace argus
