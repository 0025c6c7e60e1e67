// The baseline hazard jumps (models/survival_baseline.h) against a naive O(N^2) rebuild of
// each risk set from its definition (MODELS.md §2), Breslow and Efron, strata, weights,
// counting process and Fine-Gray (G estimated inside, per stratum, or supplied).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/survival_baseline.h"
#include "survival_test_data.h"

namespace argus {
namespace {

using testing_data::SurvivalCase;
using testing_data::survivalCases;
using testing_data::SurvivalProblem;
using testing_data::SurvivalSpec;

std::vector<double> etaOf(const SurvivalProblem& p, const std::vector<double>& beta) {
  std::vector<double> eta(static_cast<std::size_t>(p.nRows()));
  for (std::int64_t r = 0; r < p.nRows(); ++r) {
    eta[r] = p.offset[r];
    for (std::size_t j = 0; j < p.nColumns(); ++j) eta[r] += p.x(r, j) * beta[j];
  }
  return eta;
}

// Jumps in the engine's order: strata in order, event times ascending.
std::vector<double> naiveJumps(const SurvivalProblem& p, const std::vector<double>& eta) {
  const Dataset& d = p.data;
  const bool fineGray = d.model == ModelType::FineGray;
  const bool efron = d.ties == TieMethod::Efron;
  const std::vector<double> G =
      fineGray ? (p.userG.empty() ? p.naiveCensoringBefore() : p.userG) : std::vector<double>();
  std::vector<double> jumps;
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    const std::int64_t lo = p.stratumStart[s], hi = p.stratumStart[s + 1];
    std::vector<double> times;
    for (std::int64_t r = lo; r < hi; ++r)
      if (p.y[r] == 1.0) times.push_back(p.time[r]);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    for (const double t : times) {
      double den = 0.0, tied = 0.0, events = 0.0, count = 0.0, gt = 1.0;
      for (std::int64_t r = lo; r < hi; ++r)
        if (fineGray && p.y[r] == 1.0 && p.time[r] == t) gt = G[r];
      for (std::int64_t r = lo; r < hi; ++r) {
        const double u = p.w(r) * std::exp(eta[r]);
        const bool entered = p.start.empty() || p.start[r] < t;
        if (p.time[r] >= t && entered) den += u;
        else if (fineGray && p.y[r] == 2.0 && p.time[r] < t) den += u * gt / G[r];
        if (p.y[r] == 1.0 && p.time[r] == t) {
          events += p.w(r);
          if (p.w(r) > 0.0) count += 1.0;
          tied += u;
        }
      }
      double jump = 0.0;
      const int m = efron ? static_cast<int>(count) : 1;
      for (int k = 0; k < m && events > 0.0; ++k)
        jump += events / m / (den - (efron ? static_cast<double>(k) / m : 0.0) * tied);
      jumps.push_back(jump);
    }
  }
  return jumps;
}

TEST(SurvivalBaseline, MatchesNaiveRiskSets) {
  for (const SurvivalCase& c : survivalCases()) {
    SurvivalProblem p(c.spec);
    const std::vector<double> eta = etaOf(p, p.randomBeta(0.8));
    const BaselineHazard h = baselineHazard(p.data, p.weightPtr(), eta);
    const std::vector<double> expected = naiveJumps(p, eta);
    ASSERT_EQ(h.jump.size(), expected.size()) << c.name;
    for (std::size_t e = 0; e < expected.size(); ++e) {
      EXPECT_NEAR(h.jump[e], expected[e], 1e-12 * expected[e]) << c.name << " jump " << e;
      if (e > 0 && h.stratum[e] == h.stratum[e - 1]) EXPECT_LT(h.time[e - 1], h.time[e]);
      if (e > 0) EXPECT_LE(h.stratum[e - 1], h.stratum[e]);
    }
  }
}

TEST(SurvivalBaseline, LargeLinearPredictorsDoNotOverflow) {
  SurvivalSpec spec;
  spec.ties = TieMethod::Efron;
  spec.nStrata = 2;
  SurvivalProblem p(spec);
  std::vector<double> eta = etaOf(p, p.randomBeta(0.8));
  const BaselineHazard plain = baselineHazard(p.data, p.weightPtr(), eta);
  // Largest eta 712: exp() of it overflows, the per-stratum shift keeps den finite. The
  // jumps are near the bottom of the double range (exp(-712)), hence the looser tolerance.
  const double add = 712.0 - *std::max_element(eta.begin(), eta.end());
  for (double& e : eta) e += add;
  const BaselineHazard shifted = baselineHazard(p.data, p.weightPtr(), eta);
  for (std::size_t e = 0; e < plain.jump.size(); ++e) {
    ASSERT_TRUE(std::isfinite(shifted.jump[e]));
    EXPECT_NEAR(shifted.jump[e] / std::exp(-add), plain.jump[e], 1e-8 * plain.jump[e]);
  }
}

}  // namespace
}  // namespace argus
