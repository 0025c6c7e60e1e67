// Conditional logistic data with strata laid out by hand, for the tie-method tests: each
// stratum's size, number of cases and weight are chosen, rows weighted 0 can be placed on a
// case or a control, and offsets can push eta far from 0. Built on TestProblem (test_data.h),
// whose arrays are rewritten in place, so its dense copy of X and its column kinds stay.
#pragma once

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "test_data.h"

namespace argus {
namespace testing_data {

struct StratumLayout {
  int rows = 4;
  int cases = 1;
  double weight = 1.0;      // every row's weight (before varyWeights)
  bool zeroCase = false;    // one case gets weight 0 (it is then no case at all)
  bool zeroControl = false;  // one control gets weight 0 (left out of the stratum)
};

struct ClrSpec {
  std::vector<StratumLayout> strata;
  TieMethod ties = TieMethod::Exact;
  double offsetCenter = 0.0;   // every row's offset is center + uniform(-spread, spread)
  double offsetSpread = 0.3;
  bool varyWeights = false;    // multiply each row's weight by uniform(0.5, 1.5)
  std::uint32_t seed = 1;
};

// Strata of every shape the exact and Efron paths distinguish: one case, two or three cases,
// every row a case, no case, a stratum weighted 0, rows weighted 0, one-row strata.
inline std::vector<StratumLayout> mixedStrata(bool weighted) {
  std::vector<StratumLayout> s = {
      {4, 1}, {5, 2}, {7, 3}, {3, 3}, {6, 2}, {7, 4}, {5, 2}, {2, 1}, {6, 5}, {7, 2},
      {1, 1}, {4, 0}, {6, 3}, {7, 1}};
  s[4].zeroControl = true;
  s[5].zeroCase = true;
  s[6].weight = 0.0;
  if (weighted) {
    const double w[] = {1.5, 0.7, 2.0, 1.2, 0.9, 1.7, 0.0, 0.6, 1.1, 1.4, 0.8, 1.3, 0.5, 1.9};
    for (std::size_t i = 0; i < s.size(); ++i) s[i].weight = w[i];
  }
  return s;
}

inline std::unique_ptr<TestProblem> makeClrProblem(const ClrSpec& spec) {
  std::int64_t n = 0;
  for (const StratumLayout& l : spec.strata) n += l.rows;
  ProblemSpec base;
  base.model = ModelType::ConditionalLogistic;
  base.nRows = n;
  base.nStrata = 2;
  base.emptyStratum = false;
  base.density = 0.4;
  base.seed = spec.seed;
  auto p = makeProblem(base);
  std::mt19937 rng(spec.seed + 1000);
  std::uniform_real_distribution<double> unif(0.0, 1.0);

  p->stratumStart.assign(1, 0);
  std::int64_t r0 = 0;
  for (std::size_t s = 0; s < spec.strata.size(); ++s) {
    const StratumLayout& l = spec.strata[s];
    std::vector<std::int64_t> rows;
    for (std::int64_t r = r0; r < r0 + l.rows; ++r) {
      rows.push_back(r);
      p->stratum[r] = static_cast<std::int32_t>(s);
      p->y[r] = 0.0;
      p->weight[r] = l.weight * (spec.varyWeights ? 0.5 + unif(rng) : 1.0);
      p->offset[r] = spec.offsetCenter + spec.offsetSpread * (2.0 * unif(rng) - 1.0);
    }
    std::shuffle(rows.begin(), rows.end(), rng);
    for (int k = 0; k < l.cases; ++k) p->y[rows[k]] = 1.0;
    if (l.zeroCase) p->weight[rows[0]] = 0.0;
    if (l.zeroControl && l.cases < l.rows) p->weight[rows[l.rows - 1]] = 0.0;
    r0 += l.rows;
    p->stratumStart.push_back(r0);
  }
  p->nStrata = static_cast<std::int32_t>(spec.strata.size());
  p->data.outcomes.stratumStart = p->stratumStart.data();
  p->data.outcomes.nStrata = p->nStrata;
  p->data.ties = spec.ties;
  return p;
}

}  // namespace testing_data
}  // namespace argus
