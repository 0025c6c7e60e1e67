#include "models/exact_conditional_strata.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "common/errors.h"

namespace argus {

namespace {
std::string stratumName(std::int32_t s) {
  return "stratum " + std::to_string(s + 1) + " (internal order)";
}
}  // namespace

ExactConditionalStrata::ExactConditionalStrata(const OutcomeView& outcomes, const double* weights,
                                               std::int64_t nRows)
    : stratumStart_(outcomes.stratumStart),
      cases_(static_cast<std::size_t>(outcomes.nStrata), 0),
      weight_(static_cast<std::size_t>(outcomes.nStrata), 1.0) {
  auto w = [&](std::int64_t r) { return weights ? weights[r] : 1.0; };
  for (std::int64_t r = 0; r < nRows; ++r)
    if (outcomes.y[r] != 0.0 && w(r) > 0.0) ++cases_[outcomes.stratum[r]];
  if (!weights) return;
  for (std::int32_t s = 0; s < outcomes.nStrata; ++s) {
    if (cases_[s] < 2) continue;
    double first = 0.0;
    for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r) {
      const double wr = weights[r];
      if (wr == 0.0) continue;
      if (first == 0.0) first = wr;
      ARGUS_REQUIRE(std::fabs(wr - first) <= 1e-12 * first,
                    "ties = \"exact\" needs one weight for all rows of a stratum with several "
                    "cases (0 leaves a row out): " + stratumName(s) + " has weights " +
                        std::to_string(first) + " and " + std::to_string(wr));
    }
    weight_[s] = first;
  }
}

void ExactConditionalStrata::notFinite(std::int32_t s) const {
  throw ArgusError("the exact conditional likelihood of " + stratumName(s) +
                   " is not finite: its linear predictor is out of range (exp(eta) overflows "
                   "or underflows)");
}

double ExactConditionalStrata::logScale(std::int32_t s, const double* u) const {
  const int n = cases_[s];
  largest_.clear();
  for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r)
    if (u[r] > 0.0) largest_.push_back(u[r]);
  if (static_cast<int>(largest_.size()) < n) notFinite(s);
  std::nth_element(largest_.begin(), largest_.begin() + (n - 1), largest_.end(),
                   std::greater<double>());
  double sum = 0.0;
  for (int k = 0; k < n; ++k) sum += std::log(largest_[k]);
  const double mean = sum / n;
  if (!std::isfinite(mean)) notFinite(s);
  return mean;
}

GradHess ExactConditionalStrata::term(std::int32_t s, const double* u,
                                      const StratumEntry* entries, std::int64_t count) const {
  const int n = cases_[s];
  const double toScale = std::exp(-logScale(s, u));
  levels_.resize(static_cast<std::size_t>(n) + 1);
  exactRecursionStart(n, levels_.data());
  std::int64_t e = 0;
  int i = 0;
  for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r) {
    double x = 0.0;
    if (e < count && entries[e].row == r) x = entries[e++].x;
    if (u[r] == 0.0) continue;  // weight 0: not in any case set
    exactRecursionAddRow(n, ++i, u[r] * toScale, x, levels_.data());
  }
  const GradHess t = exactStratumTerm(weight_[s], levels_[n]);
  if (!(levels_[n].b > 0.0) || !std::isfinite(t.g) || !std::isfinite(t.h)) notFinite(s);
  return t;
}

double ExactConditionalStrata::logTerm(std::int32_t s, const double* u) const {
  const int n = cases_[s];
  const double logScaleS = logScale(s, u);
  const double toScale = std::exp(-logScaleS);
  levels_.resize(static_cast<std::size_t>(n) + 1);
  exactRecursionStart(n, levels_.data());
  int i = 0;
  for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r)
    if (u[r] != 0.0) exactRecursionAddRow(n, ++i, u[r] * toScale, 0.0, levels_.data());
  const double value = exactLogTerm(weight_[s], i, n, logScaleS, levels_[n]);
  if (!std::isfinite(value)) notFinite(s);
  return value;
}

}  // namespace argus
