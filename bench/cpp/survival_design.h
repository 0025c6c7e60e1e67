// The survival design of the benchmarks (paper 003 §3.2), shared by bench/cpp/survival_bench
// and bench/gpu/gpu_bench: N rows x P indicator columns at a given density, beta ~ N(0, 1) x
// Bernoulli(0.2), exponential event times (scale 300) against uniform censoring on (0, 500),
// rounded up to whole days or kept continuous; fgr turns 30% of the events into competing
// events; `counting` (cox) gives each row an entry time, uniform on (0, 0.9 x its time), as
// (start, stop] data. Rows in the engine's survival order (planRows).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "data/dataset.h"
#include "data/design_storage.h"
#include "data/row_plan.h"

namespace argus::bench {

struct SurvivalProblem {
  DesignStorage storage;
  std::vector<double> y, time, start;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
  Dataset data;
};

inline void simulateSurvival(SurvivalProblem* pr, std::int64_t n, int p, double density, ModelType model,
                             TieMethod ties, bool integerTimes, unsigned seed, bool counting = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<std::int32_t>> userRows(static_cast<std::size_t>(p));
  std::vector<double> eta(static_cast<std::size_t>(n), 0.0);
  for (int j = 0; j < p; ++j) {
    const double beta = unif(rng) < 0.2 ? normal(rng) : 0.0;
    // Each row independently with probability `density`: geometric gaps between entries.
    std::geometric_distribution<std::int64_t> gap(density);
    for (std::int64_t r = gap(rng); r < n; r += 1 + gap(rng)) {
      userRows[j].push_back(static_cast<std::int32_t>(r));
      eta[r] += beta;
    }
  }
  std::vector<double> y(static_cast<std::size_t>(n)), time(static_cast<std::size_t>(n));
  // ARGUS_DAY_SCALE=3 gives about 1,400 distinct whole days instead of ~480, as in gen.R's
  // Cox data (1,383): a column then has ~4 entries per slot instead of ~10.
  const char* scaleText = std::getenv("ARGUS_DAY_SCALE");
  const double dayScale = scaleText ? std::atof(scaleText) : 1.0;
  for (std::int64_t r = 0; r < n; ++r) {
    const double event = -std::log(unif(rng)) * 300.0 / std::exp(eta[r]);
    const double censor = 500.0 * unif(rng);
    y[r] = event <= censor ? 1.0 : 0.0;
    if (model == ModelType::FineGray && y[r] == 1.0 && unif(rng) < 0.3) y[r] = 2.0;
    time[r] = integerTimes ? std::ceil(dayScale * std::min(event, censor)) : std::min(event, censor);
  }
  const RowPlan plan = planRows(model, n, y.data(), time.data(), nullptr, 0);
  for (const std::int64_t u : plan.order) {
    pr->y.push_back(y[u]);
    pr->time.push_back(time[u]);
    if (counting) pr->start.push_back(0.9 * time[u] * unif(rng));
  }
  pr->stratum = plan.stratum;
  pr->stratumStart = plan.stratumStart;
  DesignStorage& s = pr->storage;
  s.nRows = n;
  for (int j = 0; j < p; ++j) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Indicator));
    std::vector<std::int32_t> rows;
    for (const std::int32_t u : userRows[j]) rows.push_back(plan.internalOfUser[u]);
    std::sort(rows.begin(), rows.end());
    s.rows.insert(s.rows.end(), rows.begin(), rows.end());
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(0);
  }
  Dataset& d = pr->data;
  d.model = model;
  d.ties = ties;
  d.design = s.view();
  d.outcomes.y = pr->y.data();
  d.outcomes.time = pr->time.data();
  if (counting) d.outcomes.startTime = pr->start.data();
  d.outcomes.stratum = pr->stratum.data();
  d.outcomes.stratumStart = pr->stratumStart.data();
  d.outcomes.nStrata = plan.nStrata;
}

}  // namespace argus::bench
