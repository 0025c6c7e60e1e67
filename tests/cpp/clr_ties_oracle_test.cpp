// Conditional logistic regression with exact and Efron ties against naive oracles written
// from the definitions, and against finite differences of logLikelihood():
// - exact: every case set of each stratum enumerated (strata of up to 7 rows), the stratum's
//   term w_s log P(cases | n_s cases in the stratum), P in log-sum-exp form;
// - Efron: the cases tied at one time, the risk set thinned by k/m of the cases' risk for
//   k = 0 .. m-1, derivatives of each log D_k taken row by row (O(m^2) per stratum).
// Weights enter as in Breslow's clr (u = w exp(eta)): an exact stratum weighted w_s with n_s
// cases adds the constant -w_s n_s log w_s to w_s log P, as Breslow does (then n_s = 1).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/errors.h"
#include "models/likelihood.h"
#include "clr_test_data.h"

namespace argus {
namespace {

using testing_data::ClrSpec;
using testing_data::closeRel;
using testing_data::makeClrProblem;
using testing_data::mixedStrata;
using testing_data::StratumLayout;
using testing_data::TestProblem;

struct Oracle {
  double logLik = 0.0;
  std::vector<double> g, h;
};

// The rows of stratum s with positive weight, and which of them are cases.
struct StratumRows {
  std::vector<std::int64_t> rows, cases;
  double weight = 0.0;
};

StratumRows stratumRows(const TestProblem& p, std::int32_t s) {
  StratumRows out;
  for (std::int64_t r = p.stratumStart[s]; r < p.stratumStart[s + 1]; ++r) {
    if (p.w(r) == 0.0) continue;
    out.rows.push_back(r);
    out.weight = p.w(r);
    if (p.y[r] != 0.0) out.cases.push_back(r);
  }
  return out;
}

Oracle exactOracle(const TestProblem& p, const std::vector<double>& eta) {
  const std::size_t cols = p.nColumns();
  Oracle o;
  o.g.assign(cols, 0.0);
  o.h.assign(cols, 0.0);
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    const StratumRows sr = stratumRows(p, s);
    const std::size_t m = sr.rows.size(), n = sr.cases.size();
    if (n == 0) continue;
    const double w = sr.weight;
    // Every subset of n rows: its score sum eta and its sums of x_j.
    std::vector<double> score;
    std::vector<std::vector<double>> xsum;
    for (unsigned mask = 0; mask < (1u << m); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) != n) continue;
      double e = 0.0;
      std::vector<double> xs(cols, 0.0);
      for (std::size_t i = 0; i < m; ++i) {
        if (!(mask >> i & 1u)) continue;
        e += eta[sr.rows[i]];
        for (std::size_t j = 0; j < cols; ++j) xs[j] += p.x(sr.rows[i], j);
      }
      score.push_back(e);
      xsum.push_back(xs);
    }
    double top = score[0];
    for (double e : score) top = std::max(top, e);
    double total = 0.0;
    for (double e : score) total += std::exp(e - top);
    const double logDen = top + std::log(total);
    double caseEta = 0.0;
    for (std::int64_t r : sr.cases) caseEta += eta[r];
    o.logLik += w * (caseEta - logDen) - w * static_cast<double>(n) * std::log(w);
    for (std::size_t j = 0; j < cols; ++j) {
      double caseX = 0.0, mean = 0.0, second = 0.0;
      for (std::int64_t r : sr.cases) caseX += p.x(r, j);
      for (std::size_t k = 0; k < score.size(); ++k) {
        const double prob = std::exp(score[k] - logDen);
        mean += prob * xsum[k][j];
        second += prob * xsum[k][j] * xsum[k][j];
      }
      o.g[j] += w * (caseX - mean);
      o.h[j] -= w * std::max(0.0, second - mean * mean);
    }
  }
  return o;
}

Oracle efronOracle(const TestProblem& p, const std::vector<double>& eta) {
  const std::size_t cols = p.nColumns();
  Oracle o;
  o.g.assign(cols, 0.0);
  o.h.assign(cols, 0.0);
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    const StratumRows sr = stratumRows(p, s);
    const std::size_t m = sr.cases.size();
    if (m == 0) continue;
    double d = 0.0;
    for (std::int64_t r : sr.cases) {
      d += p.w(r);
      o.logLik += p.w(r) * eta[r];
      for (std::size_t j = 0; j < cols; ++j) o.g[j] += p.w(r) * p.x(r, j);
    }
    for (std::size_t k = 0; k < m; ++k) {
      const double f = static_cast<double>(k) / static_cast<double>(m);
      double den = 0.0;
      std::vector<double> s1(cols, 0.0), s2(cols, 0.0);
      for (std::int64_t r : sr.rows) {
        const double a = (p.y[r] != 0.0 ? 1.0 - f : 1.0) * p.w(r) * std::exp(eta[r]);
        den += a;
        for (std::size_t j = 0; j < cols; ++j) {
          s1[j] += a * p.x(r, j);
          s2[j] += a * p.x(r, j) * p.x(r, j);
        }
      }
      const double share = d / static_cast<double>(m);
      o.logLik -= share * std::log(den);
      for (std::size_t j = 0; j < cols; ++j) {
        const double mean = s1[j] / den;
        o.g[j] -= share * mean;
        o.h[j] -= share * (s2[j] / den - mean * mean);
      }
    }
  }
  return o;
}

void expectMatches(Likelihood& lik, const TestProblem& p, const Oracle& o, double tol) {
  EXPECT_TRUE(closeRel(lik.logLikelihood(), o.logLik, tol))
      << lik.logLikelihood() << " vs oracle " << o.logLik;
  for (std::size_t j = 0; j < p.nColumns(); ++j) {
    SCOPED_TRACE(testing_data::describe(p.data.model, j, p.kind(j)));
    const GradHess gh = lik.gradHess(j);
    EXPECT_TRUE(closeRel(gh.g, o.g[j], tol)) << gh.g << " vs oracle " << o.g[j];
    EXPECT_TRUE(closeRel(gh.h, o.h[j], tol)) << gh.h << " vs oracle " << o.h[j];
  }
}

struct Regime {
  const char* name;
  double center, spread;
};
// Near 0; every eta near 300 (exp(eta)^3 overflows a double without the recursion's scale);
// eta spread over +-30 within strata (case-set probabilities near 0 and 1).
const Regime kRegimes[] = {{"near zero", 0.0, 0.3}, {"near 300", 300.0, 0.5}, {"spread 30", 0.0, 30.0}};

// The likelihood of `spec` against `oracle` at beta = 0 and at a random beta.
template <typename Oracle>
void expectMatchesOracle(const ClrSpec& spec, Oracle oracle) {
  auto p = makeClrProblem(spec);
  auto lik = makeLikelihood(p->data, p->weightPtr());
  for (double scale : {0.0, 0.7}) {
    const std::vector<double> beta = p->randomBeta(scale);
    lik->reset(beta);
    expectMatches(*lik, *p, oracle(*p, p->etaOf(beta)), 1e-10);
  }
}

ClrSpec regimeSpec(const Regime& regime, bool weighted, std::uint32_t seed) {
  ClrSpec spec;
  spec.strata = mixedStrata(weighted);
  spec.offsetCenter = regime.center;
  spec.offsetSpread = regime.spread;
  spec.seed = seed;
  return spec;
}

TEST(ClrExactOracle, MatchesEnumerationOfCaseSets) {
  for (bool weighted : {false, true})
    for (const Regime& regime : kRegimes)
      for (std::uint32_t seed : {3u, 4u}) {
        SCOPED_TRACE(std::string(regime.name) + (weighted ? " weighted" : "") + " seed " +
                     std::to_string(seed));
        expectMatchesOracle(regimeSpec(regime, weighted, seed), exactOracle);
      }
  // A spread that leaves the scaled recursion's range: the log-domain fallback (Efron's
  // oracle does not reach this far, so the exact one only).
  for (bool weighted : {false, true}) {
    SCOPED_TRACE(std::string("spread 2000") + (weighted ? " weighted" : ""));
    expectMatchesOracle(regimeSpec({"spread 2000", 0.0, 2000.0}, weighted, 5u), exactOracle);
  }
  // Spreads where some u are subnormal (between 0 and the smallest normal double), which the
  // scaled recursion passed without failing, with a wrong mean (0.7302 against 0.7273).
  for (std::uint32_t seed = 10; seed < 400; ++seed) {
    SCOPED_TRACE("spread 700, seed " + std::to_string(seed));
    expectMatchesOracle(regimeSpec({"spread 700", 0.0, 700.0}, false, seed), exactOracle);
  }
}

TEST(ClrEfronOracle, MatchesRowByRowDefinition) {
  for (bool vary : {false, true})
    for (const Regime& regime : kRegimes) {
      SCOPED_TRACE(std::string(regime.name) + (vary ? " varying weights" : ""));
      ClrSpec spec = regimeSpec(regime, true, 5);
      spec.ties = TieMethod::Efron;
      spec.varyWeights = vary;  // Efron, unlike exact, takes any row weights
      expectMatchesOracle(spec, efronOracle);
    }
}

// With one case per stratum the three tie methods are one likelihood.
TEST(ClrTies, OneCasePerStratumIsTheSameForEveryMethod) {
  ClrSpec spec;
  spec.strata = {{4, 1, 1.5}, {6, 1, 0.5}, {3, 1, 2.0}, {7, 1, 1.0}, {2, 1, 1.0}};
  spec.varyWeights = true;  // one case: exact accepts any weights too
  auto p = makeClrProblem(spec);
  const std::vector<double> beta = p->randomBeta(0.8);
  Dataset breslow = p->data, efron = p->data;
  breslow.ties = TieMethod::Breslow;
  efron.ties = TieMethod::Efron;
  auto a = makeLikelihood(breslow, p->weightPtr());
  auto b = makeLikelihood(efron, p->weightPtr());
  auto c = makeLikelihood(p->data, p->weightPtr());
  for (auto* lik : {a.get(), b.get(), c.get()}) lik->reset(beta);
  EXPECT_TRUE(closeRel(b->logLikelihood(), a->logLikelihood(), 1e-12));
  EXPECT_EQ(c->logLikelihood(), a->logLikelihood());
  for (std::size_t j = 0; j < p->nColumns(); ++j) {
    const GradHess ga = a->gradHess(j), gb = b->gradHess(j), gc = c->gradHess(j);
    EXPECT_TRUE(closeRel(gb.g, ga.g, 1e-12) && closeRel(gb.h, ga.h, 1e-12)) << "column " << j;
    EXPECT_EQ(gc.g, ga.g) << "column " << j;
    EXPECT_EQ(gc.h, ga.h) << "column " << j;
  }
}

double logLikAt(Likelihood& lik, std::vector<double> beta, std::size_t j, double shift) {
  beta[j] += shift;
  lik.reset(beta);
  return lik.logLikelihood();
}

TEST(ClrTies, GradHessMatchFiniteDifferences) {
  for (TieMethod ties : {TieMethod::Exact, TieMethod::Efron}) {
    for (const Regime& regime : kRegimes) {
      SCOPED_TRACE(std::string(ties == TieMethod::Exact ? "exact " : "efron ") + regime.name);
      ClrSpec spec;
      spec.strata = mixedStrata(true);
      spec.ties = ties;
      spec.offsetCenter = regime.center;
      spec.offsetSpread = regime.spread;
      spec.seed = 8;
      auto p = makeClrProblem(spec);
      auto lik = makeLikelihood(p->data, p->weightPtr());
      const std::vector<double> beta = p->randomBeta(0.5);
      for (std::size_t j = 0; j < p->nColumns(); ++j) {
        SCOPED_TRACE("column " + std::to_string(j));
        lik->reset(beta);
        const GradHess gh = lik->gradHess(j);
        const double l0 = lik->logLikelihood();
        auto gAt = [&](double e) {
          return (logLikAt(*lik, beta, j, e) - logLikAt(*lik, beta, j, -e)) / (2.0 * e);
        };
        auto hAt = [&](double e) {
          return (logLikAt(*lik, beta, j, e) - 2.0 * l0 + logLikAt(*lik, beta, j, -e)) / (e * e);
        };
        const double gFd = (4.0 * gAt(5e-4) - gAt(1e-3)) / 3.0;
        const double hFd = (4.0 * hAt(5e-3) - hAt(1e-2)) / 3.0;
        EXPECT_TRUE(closeRel(gh.g, gFd, 1e-6)) << gh.g << " vs finite difference " << gFd;
        EXPECT_TRUE(closeRel(gh.h, hFd, 1e-4)) << gh.h << " vs finite difference " << hFd;
        EXPECT_LE(gh.h, 0.0);
        if (regime.spread < 1.0) EXPECT_GT(std::fabs(gh.h), 1e-3);  // the test can fail
      }
    }
  }
}

// Steps accumulate u by multiplication (and Efron's cached terms follow); after a refresh
// everything must agree with a fresh reset at the same beta.
TEST(ClrTies, StepsThenRefreshMatchFreshReset) {
  for (TieMethod ties : {TieMethod::Exact, TieMethod::Efron}) {
    ClrSpec spec;
    spec.strata = mixedStrata(true);
    spec.ties = ties;
    spec.seed = 9;
    auto p = makeClrProblem(spec);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    std::vector<double> beta = p->randomBeta(0.3);
    lik->reset(beta);
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
    std::uniform_real_distribution<double> step(-0.05, 0.05);
    for (int k = 0; k < 800; ++k) {
      const std::size_t j = pick(rng);
      const double delta = std::fabs(beta[j]) > 0.8 ? -0.05 * beta[j] : step(rng);
      beta[j] += delta;
      lik->applyStep(j, delta);
      if (k % 200 == 199) {
        // Between refreshes g, h already follow the steps (Efron's terms are refreshed per
        // touched stratum), to drift-level accuracy.
        auto fresh = makeLikelihood(p->data, p->weightPtr());
        fresh->reset(beta);
        for (std::size_t c = 0; c < p->nColumns(); ++c) {
          const GradHess a = lik->gradHess(c), b = fresh->gradHess(c);
          EXPECT_TRUE(closeRel(a.g, b.g, 1e-9) && closeRel(a.h, b.h, 1e-9)) << "column " << c;
        }
        lik->refreshSums();
      }
    }
    lik->refreshSums();
    auto fresh = makeLikelihood(p->data, p->weightPtr());
    fresh->reset(beta);
    EXPECT_TRUE(closeRel(lik->logLikelihood(), fresh->logLikelihood(), 1e-10));
    for (std::size_t c = 0; c < p->nColumns(); ++c) {
      const GradHess a = lik->gradHess(c), b = fresh->gradHess(c);
      EXPECT_TRUE(closeRel(a.g, b.g, 1e-10) && closeRel(a.h, b.h, 1e-10)) << "column " << c;
    }
  }
}

TEST(ClrExact, WeightsVaryingWithinAStratumWithSeveralCasesAreAnError) {
  ClrSpec spec;
  spec.strata = mixedStrata(true);
  auto p = makeClrProblem(spec);
  p->weight[p->stratumStart[2] + 1] *= 1.5;  // stratum 3 has 3 cases
  try {
    makeLikelihood(p->data, p->weightPtr());
    FAIL() << "no error";
  } catch (const ArgusError& e) {
    EXPECT_NE(std::string(e.what()).find("stratum 3"), std::string::npos) << e.what();
  }
  // Efron and Breslow take any weights.
  p->data.ties = TieMethod::Efron;
  EXPECT_NO_THROW(makeLikelihood(p->data, p->weightPtr()));
}

// Each stratum's likelihood is invariant to a common shift of its eta, and the likelihood
// keeps u relative to the stratum's largest eta: an offset of 800 on a whole stratum (exp
// overflows) changes nothing, for every tie method.
TEST(ClrTies, AStratumWideOffsetOf800ChangesNothing) {
  for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron, TieMethod::Exact}) {
    ClrSpec spec;
    spec.strata = {{5, 2}, {4, 2}, {6, 1}};
    spec.ties = ties;
    auto p = makeClrProblem(spec);
    const std::vector<double> beta = p->randomBeta(0.5);
    auto plain = makeLikelihood(p->data, p->weightPtr());
    plain->reset(beta);
    for (std::int64_t r = p->stratumStart[1]; r < p->stratumStart[2]; ++r) p->offset[r] += 800.0;
    auto shifted = makeLikelihood(p->data, p->weightPtr());
    shifted->reset(beta);
    EXPECT_NEAR(shifted->logLikelihood(), plain->logLikelihood(), 1e-9) << static_cast<int>(ties);
    for (std::size_t j = 0; j < p->nColumns(); ++j) {
      EXPECT_NEAR(shifted->gradHess(j).g, plain->gradHess(j).g, 1e-10) << static_cast<int>(ties);
      EXPECT_NEAR(shifted->gradHess(j).h, plain->gradHess(j).h, 1e-10) << static_cast<int>(ties);
    }
  }
}

// A spread of 800 within a stratum leaves the scaled recursion's double range (every u but
// one underflows): the log-domain recursion gives the enumeration's values (a fit running
// off along a recession, lung's matched sets with sex at -190, stopped with an error there).
TEST(ClrExact, OutOfRangeEtaFallsBackToTheLogDomainRecursion) {
  ClrSpec spec;
  spec.strata = {{5, 2}, {4, 2}, {6, 3}, {5, 2}};
  auto p = makeClrProblem(spec);
  for (std::int64_t r = p->stratumStart[1] + 1; r < p->stratumStart[2]; ++r) p->offset[r] = -800.0;
  for (std::int64_t r = p->stratumStart[2]; r < p->stratumStart[3]; ++r)
    p->offset[r] = 700.0 * static_cast<double>(r - p->stratumStart[2]);
  // A u between 0 and the smallest normal double: the scaled recursion passed it without
  // failing, with a wrong mean.
  const std::int64_t first = p->stratumStart[3];
  const double subnormal[] = {0.0, -719.0, -2.0, -721.5, -1.0};
  for (std::int64_t r = first; r < first + 5; ++r) p->offset[r] = subnormal[r - first];
  auto lik = makeLikelihood(p->data, p->weightPtr());
  for (double scale : {0.0, 0.7}) {
    const std::vector<double> beta = p->randomBeta(scale);
    lik->reset(beta);
    expectMatches(*lik, *p, exactOracle(*p, p->etaOf(beta)), 1e-10);
  }
}

}  // namespace
}  // namespace argus
