// A naive O(N^2) oracle for the survival likelihoods: for every distinct event time of every
// stratum it rebuilds the risk set from the definitions of MODELS.md §2 (time >= t, entry
// before t for counting-process rows, Fine-Gray's competing rows weighted by G(t-)/G(time-))
// and sums L, g_j and h_j directly, Breslow or Efron. The engine's bucketed algorithm must
// match it to 1e-10 for every column kind, after many steps, and at extreme eta.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/errors.h"
#include "models/likelihood.h"
#include "models/survival_likelihood.h"
#include "solver/inference.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::closeRel;
using testing_data::makeSurvivalProblem;
using testing_data::survivalCases;
using testing_data::SurvivalCase;
using testing_data::SurvivalProblem;
using testing_data::SurvivalSpec;

struct Oracle {
  double logLik = 0.0;
  std::vector<double> g, h;
  std::vector<double> H;  // the full Hessian, row-major (h is its diagonal)
};

Oracle naiveSurvivalOracle(const SurvivalProblem& p, const std::vector<double>& beta) {
  const Dataset& d = p.data;
  const std::int64_t n = p.nRows();
  const std::size_t cols = p.nColumns();
  const bool fineGray = d.model == ModelType::FineGray;
  const bool efron = d.ties == TieMethod::Efron;
  std::vector<double> eta(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    eta[r] = p.offset[r];
    for (std::size_t j = 0; j < cols; ++j) eta[r] += p.x(r, j) * beta[j];
  }
  const std::vector<double> G =
      fineGray ? (p.userG.empty() ? p.naiveCensoringBefore() : p.userG) : std::vector<double>();
  Oracle o;
  o.g.assign(cols, 0.0);
  o.h.assign(cols, 0.0);
  o.H.assign(cols * cols, 0.0);
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    const std::int64_t lo = p.stratumStart[s], hi = p.stratumStart[s + 1];
    double top = -INFINITY;
    for (std::int64_t r = lo; r < hi; ++r) top = std::max(top, eta[r]);
    std::vector<double> eventTimes;
    for (std::int64_t r = lo; r < hi; ++r)
      if (p.y[r] == 1.0) eventTimes.push_back(p.time[r]);
    std::sort(eventTimes.begin(), eventTimes.end());
    eventTimes.erase(std::unique(eventTimes.begin(), eventTimes.end()), eventTimes.end());
    for (const double t : eventTimes) {
      double den = 0.0, tied = 0.0, events = 0.0, count = 0.0;
      std::vector<double> n1(cols, 0.0), n2(cols, 0.0), f1(cols, 0.0), f2(cols, 0.0);
      std::vector<double> n12(cols * cols, 0.0), f12(cols * cols, 0.0);  // x_j x_k
      double tEventG = 1.0;
      for (std::int64_t r = lo; r < hi; ++r)
        if (fineGray && p.y[r] == 1.0 && p.time[r] == t) tEventG = G[r];
      for (std::int64_t r = lo; r < hi; ++r) {
        double omega = 0.0;
        const bool entered = p.start.empty() || p.start[r] < t;
        if (p.time[r] >= t && entered) omega = 1.0;
        else if (fineGray && p.y[r] == 2.0 && p.time[r] < t) omega = tEventG / G[r];
        const double u = p.w(r) * std::exp(eta[r] - top);
        den += omega * u;
        const bool isEvent = p.y[r] == 1.0 && p.time[r] == t;
        if (isEvent) {
          events += p.w(r);
          if (p.w(r) > 0.0) count += 1.0;
          tied += u;
          o.logLik += p.w(r) * eta[r];
        }
        for (std::size_t j = 0; j < cols; ++j)
          for (std::size_t k = 0; k < cols; ++k) {
            const double xx = p.x(r, j) * p.x(r, k);
            n12[j * cols + k] += omega * u * xx;
            if (isEvent) f12[j * cols + k] += u * xx;
          }
        for (std::size_t j = 0; j < cols; ++j) {
          const double x = p.x(r, j);
          n1[j] += omega * u * x;
          n2[j] += omega * u * x * x;
          if (isEvent) {
            f1[j] += u * x;
            f2[j] += u * x * x;
            o.g[j] += p.w(r) * x;
          }
        }
      }
      if (events == 0.0) continue;
      const int m = efron ? static_cast<int>(count) : 1;
      const double share = events / m;
      for (int k = 0; k < m; ++k) {
        const double f = efron ? static_cast<double>(k) / m : 0.0;
        const double dk = den - f * tied;
        o.logLik -= share * (std::log(dk) + top);
        for (std::size_t j = 0; j < cols; ++j) {
          const double a1 = (n1[j] - f * f1[j]) / dk, a2 = (n2[j] - f * f2[j]) / dk;
          o.g[j] -= share * a1;
          o.h[j] -= share * (a2 - a1 * a1);
          for (std::size_t k = 0; k < cols; ++k) {
            const double b1 = (n1[k] - f * f1[k]) / dk;
            const double a12 = (n12[j * cols + k] - f * f12[j * cols + k]) / dk;
            o.H[j * cols + k] -= share * (a12 - a1 * b1);
          }
        }
      }
    }
  }
  return o;
}

void expectMatchesOracle(const SurvivalProblem& p, Likelihood& lik, const std::vector<double>& beta,
                         double tol, const std::string& what) {
  const Oracle o = naiveSurvivalOracle(p, beta);
  EXPECT_TRUE(closeRel(lik.logLikelihood(), o.logLik, tol))
      << what << ": L " << lik.logLikelihood() << " vs " << o.logLik;
  for (std::size_t j = 0; j < p.nColumns(); ++j) {
    const GradHess gh = lik.gradHess(j);
    EXPECT_TRUE(closeRel(gh.g, o.g[j], tol)) << what << " g_" << j << " " << gh.g << " vs " << o.g[j];
    EXPECT_TRUE(closeRel(gh.h, o.h[j], tol)) << what << " h_" << j << " " << gh.h << " vs " << o.h[j];
  }
}

TEST(SurvivalOracle, MatchesNaiveRiskSetsAtRandomBeta) {
  for (const SurvivalCase& c : survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    validateDataset(p->data, p->weightPtr());
    auto lik = makeLikelihood(p->data, p->weightPtr());
    for (int rep = 0; rep < 3; ++rep) {
      const std::vector<double> beta = p->randomBeta(0.8);
      lik->reset(beta);
      expectMatchesOracle(*p, *lik, beta, 1e-10, c.name);
    }
  }
}

TEST(SurvivalOracle, StaysExactAfterManyStepsWithoutRefresh) {
  for (const SurvivalCase& c : survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    std::vector<double> beta = p->randomBeta(0.3);
    lik->reset(beta);
    std::uniform_real_distribution<double> step(-0.05, 0.05);
    std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
    for (int k = 0; k < 1500; ++k) {
      const std::size_t j = pick(p->rng());
      const double delta = step(p->rng());
      beta[j] += delta;
      lik->applyStep(j, delta);
    }
    expectMatchesOracle(*p, *lik, beta, 1e-10, c.name + " after 1500 steps");
    lik->refreshSums();
    expectMatchesOracle(*p, *lik, beta, 1e-10, c.name + " refreshed");
  }
}

TEST(SurvivalOracle, ExtremeLinearPredictorsDoNotOverflow) {
  for (const SurvivalCase& c : survivalCases()) {
    SurvivalSpec spec = c.spec;
    spec.offsetScale = 3.0;
    auto p = makeSurvivalProblem(spec);
    for (double& o : p->offset) o += 720.0;  // exp(eta) alone would overflow
    auto lik = makeLikelihood(p->data, p->weightPtr());
    const std::vector<double> beta = p->randomBeta(2.0);
    lik->reset(beta);
    expectMatchesOracle(*p, *lik, beta, 1e-9, c.name + " at eta ~ 720");
    EXPECT_TRUE(std::isfinite(lik->logLikelihood())) << c.name;
  }
}

// A linear predictor spanning 600 within each stratum, falling with time, so that the late
// risk sets hold only rows 600 below the stratum's top: their den is about exp(-600), and
// with the top as the shift Q0 = d / den^2 overflowed (h was -inf or NaN; R fits ended
// NO_FINITE_MLE, or SUCCESS with every covariate called aliased). riskSetShift's midpoint.
TEST(SurvivalOracle, ALinearPredictorSpanning600WithinAStratumStaysExact) {
  for (const SurvivalCase& c : survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    p->setOffsetsSpanning(600.0);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    const std::vector<double> beta = p->randomBeta(0.5);
    lik->reset(beta);
    expectMatchesOracle(*p, *lik, beta, 1e-9, c.name + " spanning 600");
    EXPECT_TRUE(std::isfinite(lik->logLikelihood())) << c.name;
    for (std::size_t j = 0; j < p->nColumns(); ++j) {
      const GradHess gh = lik->gradHess(j);
      EXPECT_TRUE(std::isfinite(gh.g) && std::isfinite(gh.h)) << c.name << " column " << j;
    }
  }
}

TEST(SurvivalOracle, GradientAndHessianAreDerivativesOfL) {
  for (const SurvivalCase& c : survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    auto lik = makeLikelihood(p->data, p->weightPtr());
    const std::vector<double> beta = p->randomBeta(0.5);
    const double eps = 1e-5;
    for (std::size_t j = 0; j < p->nColumns(); ++j) {
      std::vector<double> up = beta, down = beta;
      up[j] += eps;
      down[j] -= eps;
      lik->reset(up);
      const double lUp = lik->logLikelihood();
      const double gUp = lik->gradHess(j).g;
      lik->reset(down);
      const double lDown = lik->logLikelihood();
      const double gDown = lik->gradHess(j).g;
      lik->reset(beta);
      const GradHess gh = lik->gradHess(j);
      EXPECT_NEAR(gh.g, (lUp - lDown) / (2 * eps), 1e-5 * std::max(1.0, std::fabs(gh.g))) << c.name;
      EXPECT_NEAR(gh.h, (gUp - gDown) / (2 * eps), 1e-5 * std::max(1.0, std::fabs(gh.h))) << c.name;
    }
  }
}

// inference's full Hessian (solver/inference.h): by polarization of the directional
// derivatives (exact to rounding) against the oracle's cross terms, for Breslow, Efron,
// counting-process and Fine-Gray data; the differences, which it replaced, to 1e-6.
TEST(SurvivalOracle, FullHessianByPolarizationMatchesTheOracle) {
  for (const SurvivalCase& c : survivalCases()) {
    auto p = makeSurvivalProblem(c.spec);
    const std::vector<double> beta = p->randomBeta(0.5);
    const std::size_t k = p->nColumns();
    std::vector<std::int32_t> coords(k);
    for (std::size_t j = 0; j < k; ++j) coords[j] = static_cast<std::int32_t>(j);
    LikelihoodProbe probe(ComputeDevice{}, p->data, p->weightPtr());
    HessianOptions differences;
    differences.exactWhereFormed = false;
    const SquareMatrix D = hessianAt(probe, beta, coords, differences);
    const SquareMatrix H = hessianAt(probe, beta, coords);
    const Oracle o = naiveSurvivalOracle(*p, beta);
    EXPECT_TRUE(H.exact) << c.name;
    EXPECT_FALSE(D.exact) << c.name;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        const double scale = std::sqrt(std::fabs(o.H[i * k + i] * o.H[j * k + j]));
        EXPECT_NEAR(H(i, j), o.H[i * k + j], 1e-10 * scale) << c.name << " H(" << i << ", " << j << ")";
        EXPECT_NEAR(D(i, j), o.H[i * k + j], 1e-6 * scale) << c.name << " D(" << i << ", " << j << ")";
        EXPECT_EQ(H(i, j), H(j, i));
      }
  }
}

// Large columns are scanned in chunks that may split a stratum (survival_likelihood.h);
// tiny chunks make every column of these small data sets do so, many times over.
TEST(SurvivalOracle, ChunkedScansMatchTheOracleForAnyThreadCount) {
  for (const SurvivalCase& c : survivalCases()) {
    for (const std::int64_t chunkItems : {3, 11}) {
      const std::string what = c.name + ", chunks of " + std::to_string(chunkItems);
      auto p = makeSurvivalProblem(c.spec);
      auto one = makeLikelihood(p->data, p->weightPtr());
      auto two = makeLikelihood(p->data, p->weightPtr());
      dynamic_cast<SurvivalLikelihood&>(*one).setChunkItems(chunkItems);
      dynamic_cast<SurvivalLikelihood&>(*two).setChunkItems(chunkItems);
      // 3 threads on 2 or 4 chunks: uneven shares; the first configurations use 2.
      two->setThreads(c.name.rfind("fgr", 0) == 0 ? 3 : 2);
      std::vector<double> beta = p->randomBeta(0.6);
      one->reset(beta);
      two->reset(beta);
      expectMatchesOracle(*p, *one, beta, 1e-10, what);
      std::uniform_real_distribution<double> step(-0.05, 0.05);
      std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
      for (int k = 0; k < 300; ++k) {
        const std::size_t j = pick(p->rng());
        const double delta = step(p->rng());
        beta[j] += delta;
        const GradHess a = one->gradHess(j), b = two->gradHess(j);
        ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << what << " step " << k;
        one->applyStep(j, delta);
        two->applyStep(j, delta);
      }
      expectMatchesOracle(*p, *one, beta, 1e-10, what + " after 300 steps");
      expectMatchesOracle(*p, *two, beta, 1e-10, what + " after 300 steps, 2 threads");
      EXPECT_EQ(one->logLikelihood(), two->logLikelihood()) << what;
    }
  }
}

// The refresh of the slot arrays cut into parts (survival_refresh.h): with a part every 1, 2
// or 5 slots, parts split strata and strata split parts in every way these data allow. The
// parts are fixed by the data, so 1, 2 and 3 threads must agree to the bit, step after step,
// and all must match the oracle.
TEST(SurvivalOracle, PartedRefreshMatchesTheOracleBitIdenticalForOneToThreeThreads) {
  for (const SurvivalCase& c : survivalCases()) {
    for (const std::int64_t partSlots : {1, 2, 5}) {
      const std::string what = c.name + ", parts of " + std::to_string(partSlots) + " slots";
      auto p = makeSurvivalProblem(c.spec);
      std::vector<std::unique_ptr<Likelihood>> liks;
      for (int threads = 1; threads <= 3; ++threads) {
        liks.push_back(makeLikelihood(p->data, p->weightPtr()));
        auto& lik = dynamic_cast<SurvivalLikelihood&>(*liks.back());
        lik.setPartSlots(partSlots);
        lik.setChunkItems(7);
        lik.setThreads(threads);
      }
      std::vector<double> beta = p->randomBeta(0.6);
      for (auto& lik : liks) lik->reset(beta);
      expectMatchesOracle(*p, *liks[0], beta, 1e-10, what);
      std::uniform_real_distribution<double> step(-0.05, 0.05);
      std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
      for (int k = 0; k < 200; ++k) {
        const std::size_t j = pick(p->rng());
        const double delta = step(p->rng());
        beta[j] += delta;
        const GradHess a = liks[0]->gradHess(j);
        for (int t = 1; t < 3; ++t) {
          const GradHess b = liks[t]->gradHess(j);
          ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << what << ", " << t + 1 << " threads, step " << k;
        }
        for (auto& lik : liks) lik->applyStep(j, delta);
      }
      for (int t = 0; t < 3; ++t) {
        expectMatchesOracle(*p, *liks[t], beta, 1e-10,
                            what + " after 200 steps, " + std::to_string(t + 1) + " threads");
        EXPECT_EQ(liks[0]->logLikelihood(), liks[t]->logLikelihood()) << what;
      }
    }
  }
}

// The same with thousands of slots (continuous times, one stratum and three): parts of more
// than one of the refresh's 512-slot blocks, as in real fits. The reference is the same
// likelihood in one part (the oracle, O(N^2), checks that one in the tests above).
TEST(SurvivalOracle, PartedRefreshOnThousandsOfSlotsIsBitIdenticalForOneToThreeThreads) {
  for (const bool fineGray : {false, true}) {
    for (const std::int32_t strata : {1, 3}) {
      SurvivalSpec spec;
      spec.model = fineGray ? ModelType::FineGray : ModelType::Cox;
      spec.nRows = 4000;
      spec.nStrata = strata;
      spec.integerTimes = false;
      spec.kinds = {ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense};
      const std::string what = std::string(fineGray ? "fgr" : "cox") + ", " + std::to_string(strata) + " strata";
      auto p = makeSurvivalProblem(spec);
      std::vector<std::unique_ptr<Likelihood>> liks;
      for (int threads = 1; threads <= 3; ++threads) {
        liks.push_back(makeLikelihood(p->data, p->weightPtr()));
        auto& lik = dynamic_cast<SurvivalLikelihood&>(*liks.back());
        lik.setPartSlots(520);
        lik.setChunkItems(500);
        lik.setThreads(threads);
      }
      std::vector<double> beta = p->randomBeta(0.5);
      auto whole = makeLikelihood(p->data, p->weightPtr());
      ASSERT_EQ(dynamic_cast<SurvivalLikelihood&>(*whole).refreshParts(), 1) << what;
      whole->reset(beta);
      for (auto& lik : liks) lik->reset(beta);
      // At least two parts of more than one block (512 slots) each.
      ASSERT_GE(dynamic_cast<SurvivalLikelihood&>(*liks[0]).refreshParts(), 2) << what;
      std::uniform_real_distribution<double> step(-0.05, 0.05);
      std::uniform_int_distribution<std::size_t> pick(0, p->nColumns() - 1);
      for (int k = 0; k < 30; ++k) {
        const std::size_t j = pick(p->rng());
        const double delta = step(p->rng());
        beta[j] += delta;
        const GradHess a = liks[0]->gradHess(j), w = whole->gradHess(j);
        EXPECT_TRUE(closeRel(a.g, w.g, 1e-11) && closeRel(a.h, w.h, 1e-11)) << what << ", step " << k;
        for (int t = 1; t < 3; ++t) {
          const GradHess b = liks[t]->gradHess(j);
          ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << what << ", " << t + 1 << " threads, step " << k;
        }
        for (auto& lik : liks) lik->applyStep(j, delta);
        whole->applyStep(j, delta);
      }
      EXPECT_TRUE(closeRel(liks[0]->logLikelihood(), whole->logLikelihood(), 1e-12)) << what;
      for (int t = 1; t < 3; ++t) EXPECT_EQ(liks[0]->logLikelihood(), liks[t]->logLikelihood()) << what;
    }
  }
}

TEST(SurvivalData, RejectsBadSurvivalInput) {
  SurvivalSpec spec;
  spec.countingProcess = true;
  auto p = makeSurvivalProblem(spec);
  p->start[3] = p->time[3];  // startTime must be before time
  EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError);
  p->start[3] = p->time[3] - 1.0;
  p->time[5] = -1.0;
  EXPECT_THROW(validateDataset(p->data, p->weightPtr()), ArgusError);

  SurvivalSpec fgr;
  fgr.model = ModelType::FineGray;
  auto q = makeSurvivalProblem(fgr);
  validateDataset(q->data, q->weightPtr());
  q->data.ties = TieMethod::Efron;
  EXPECT_THROW(validateDataset(q->data, q->weightPtr()), ArgusError);
  q->data.ties = TieMethod::Breslow;
  q->y[2] = 3.0;
  EXPECT_THROW(validateDataset(q->data, q->weightPtr()), ArgusError);

  SurvivalSpec cox;
  auto c = makeSurvivalProblem(cox);
  c->y[0] = 2.0;  // a competing event is not a Cox outcome
  EXPECT_THROW(validateDataset(c->data, c->weightPtr()), ArgusError);
}

}  // namespace
}  // namespace argus
