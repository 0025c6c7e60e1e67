#include "data/censoring_survival.h"

#include <algorithm>
#include <numeric>

namespace argus {

namespace {

// Kaplan-Meier left limits for the rows listed in `ascending` (sorted by time ascending).
void kaplanMeierBefore(const std::vector<std::int64_t>& ascending, const Dataset& data,
                       const double* weights, std::vector<double>* out) {
  const double* time = data.outcomes.time;
  const double* y = data.outcomes.y;
  double atRisk = 0.0;
  for (const std::int64_t r : ascending) atRisk += weights ? weights[r] : 1.0;
  double survival = 1.0;
  std::size_t k = 0;
  while (k < ascending.size()) {
    const double t = time[ascending[k]];
    std::size_t end = k;
    double censored = 0.0, leaving = 0.0;
    for (; end < ascending.size() && time[ascending[end]] == t; ++end) {
      const std::int64_t r = ascending[end];
      const double w = weights ? weights[r] : 1.0;
      (*out)[r] = survival;  // left limit: before this time's censorings
      leaving += w;
      if (y[r] == 0.0) censored += w;
    }
    if (censored > 0.0 && atRisk > 0.0) survival *= 1.0 - censored / atRisk;
    atRisk -= leaving;
    k = end;
  }
}

}  // namespace

std::vector<double> censoringSurvivalBefore(const Dataset& data, const double* weights) {
  const OutcomeView& o = data.outcomes;
  const std::int64_t n = data.nRows();
  if (o.censoringSurvival) return std::vector<double>(o.censoringSurvival, o.censoringSurvival + n);
  std::vector<double> g(static_cast<std::size_t>(n), 1.0);
  std::vector<std::int64_t> ascending;
  if (data.censoringByStratum) {
    // Rows of a stratum are contiguous and sorted by time descending.
    for (std::int32_t s = 0; s < o.nStrata; ++s) {
      ascending.clear();
      for (std::int64_t r = o.stratumStart[s + 1] - 1; r >= o.stratumStart[s]; --r)
        ascending.push_back(r);
      kaplanMeierBefore(ascending, data, weights, &g);
    }
  } else {
    ascending.resize(static_cast<std::size_t>(n));
    std::iota(ascending.begin(), ascending.end(), std::int64_t{0});
    std::stable_sort(ascending.begin(), ascending.end(),
                     [&](std::int64_t a, std::int64_t b) { return o.time[a] < o.time[b]; });
    kaplanMeierBefore(ascending, data, weights, &g);
  }
  return g;
}

}  // namespace argus
