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
  const std::int64_t n = data.nRows();
  const OutcomeView& o = data.outcomes;
  const bool stratified = o.stratum != nullptr && o.stratumStart != nullptr && o.nStrata > 1;
  const std::int32_t strata = stratified ? o.nStrata : 1;
  auto first = [&](std::int32_t s) { return stratified ? o.stratumStart[s] : 0; };
  auto end = [&](std::int32_t s) { return stratified ? o.stratumStart[s + 1] : n; };
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    const ColumnView& c = data.design.columns[j];
    if (c.kind != ColumnKind::Dense || n == 0) continue;
    // Each stratum's mean, and the spread about them (two passes).
    std::vector<double> mean(static_cast<std::size_t>(strata), 0.0);
    double squares = 0.0, largest = 0.0;
    for (std::int32_t s = 0; s < strata; ++s) {
      const std::int64_t count = end(s) - first(s);
      if (count == 0) continue;
      double sum = 0.0;
      for (std::int64_t r = first(s); r < end(s); ++r) sum += c.values[r];
      mean[s] = sum / static_cast<double>(count);
      for (std::int64_t r = first(s); r < end(s); ++r) squares += (c.values[r] - mean[s]) * (c.values[r] - mean[s]);
      largest = std::fmax(largest, std::fabs(mean[s]));
    }
    const double spread = std::sqrt(squares / static_cast<double>(n));
    if (!(largest > kCentreRatio * spread)) continue;
    if (columns_.empty()) copy_ = data;
    std::vector<double> centred(c.values, c.values + n);
    for (std::int32_t s = 0; s < strata; ++s)
      for (std::int64_t r = first(s); r < end(s); ++r) centred[r] -= mean[s];
    columns_.push_back(static_cast<std::int32_t>(j));
    shift_.push_back(std::move(mean));
    values_.push_back(std::move(centred));
  }
  for (std::size_t k = 0; k < columns_.size(); ++k) copy_.design.columns[columns_[k]].values = values_[k].data();
}

void ShiftInvariantCentring::addEtaShift(const std::vector<double>& beta, std::vector<double>* eta) const {
  const OutcomeView& o = input_->outcomes;
  const std::int64_t n = input_->nRows();
  const bool stratified = o.stratum != nullptr && o.stratumStart != nullptr && o.nStrata > 1;
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const double b = beta[columns_[k]];
    if (b == 0.0) continue;
    for (std::int64_t r = 0; r < n; ++r) (*eta)[r] += b * shift_[k][stratified ? o.stratum[r] : 0];
  }
}

}  // namespace argus
