#include "data/column_centring.h"

#include <cmath>

#include "common/model_type.h"

namespace argus {

namespace {

// A column's mean within each group of consecutive rows (groups g: rows starts[g] to
// starts[g + 1] - 1), the root mean square about them over all rows (two passes: that spread
// is what one-pass sums of squares would lose), and whether some group's mean is large
// against it: the one test behind every centring in this file.
struct GroupCentres {
  std::vector<double> means;
  double spread = 0.0;
  bool large = false;
};

GroupCentres groupCentres(const double* values, const std::int64_t* starts, std::int32_t groups) {
  GroupCentres out;
  out.means.assign(static_cast<std::size_t>(groups), 0.0);
  double squares = 0.0, largest = 0.0;
  for (std::int32_t g = 0; g < groups; ++g) {
    const std::int64_t count = starts[g + 1] - starts[g];
    if (count == 0) continue;
    double sum = 0.0;
    for (std::int64_t r = starts[g]; r < starts[g + 1]; ++r) sum += values[r];
    const double mean = sum / static_cast<double>(count);
    for (std::int64_t r = starts[g]; r < starts[g + 1]; ++r) squares += (values[r] - mean) * (values[r] - mean);
    out.means[static_cast<std::size_t>(g)] = mean;
    largest = std::fmax(largest, std::fabs(mean));
  }
  const std::int64_t n = starts[groups] - starts[0];
  out.spread = n > 0 ? std::sqrt(squares / static_cast<double>(n)) : 0.0;
  out.large = largest > kCentreRatio * out.spread;
  return out;
}

}  // namespace

std::vector<double> largeColumnMeans(const DesignView& design, const std::vector<std::int32_t>& columns,
                                     std::vector<double>* spreads) {
  std::vector<double> out(design.nColumns(), 0.0);
  if (spreads) spreads->assign(design.nColumns(), 0.0);
  const std::int64_t all[2] = {0, design.nRows};
  if (design.nRows == 0) return out;
  for (const std::int32_t j : columns) {
    const ColumnView& c = design.columns[j];
    if (c.kind != ColumnKind::Dense) continue;
    const GroupCentres centre = groupCentres(c.values, all, 1);
    if (!centre.large) continue;
    out[j] = centre.means[0];
    if (spreads) (*spreads)[j] = centre.spread;
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
  if (n == 0) return;
  const OutcomeView& o = data.outcomes;
  const bool stratified = o.stratum != nullptr && o.stratumStart != nullptr && o.nStrata > 1;
  const std::int64_t whole[2] = {0, n};
  const std::int64_t* starts = stratified ? o.stratumStart : whole;
  const std::int32_t strata = stratified ? o.nStrata : 1;
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    const ColumnView& c = data.design.columns[j];
    if (c.kind != ColumnKind::Dense) continue;
    GroupCentres centre = groupCentres(c.values, starts, strata);
    if (!centre.large) continue;
    if (columns_.empty()) copy_ = data;
    std::vector<double> centred(c.values, c.values + n);
    double given = 0.0, left = 0.0;
    for (std::int32_t s = 0; s < strata; ++s)
      for (std::int64_t r = starts[s]; r < starts[s + 1]; ++r) {
        given += c.values[r] * c.values[r];
        centred[r] -= centre.means[s];
        left += centred[r] * centred[r];
      }
    // Constant within the strata but for rounding (poly(age) of sets matched on age): exactly
    // 0, so that the fit finds no information in it (aliased, as clogit and coxph say), where
    // the centred rounding noise, alone in the copy, looked like a column of full spread and
    // was estimated (1e16, the other coefficients 2-3% off).
    if (left <= kRoundingShare * given) std::fill(centred.begin(), centred.end(), 0.0);
    columns_.push_back(static_cast<std::int32_t>(j));
    shift_.push_back(std::move(centre.means));
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
