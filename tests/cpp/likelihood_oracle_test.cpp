// An independent naive oracle for L, g_j and h_j, written straight from the definitions
// (MODELS.md §2, with the weighting documented in models/conditional_functors.h): per-row
// formulas for ls / lr / pr, and per-stratum sums over all rows (O(N) per coordinate) for the
// conditional models. It reads X from the test's dense copy, never through column views.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "models/likelihood.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::closeRel;
using testing_data::describe;
using testing_data::makeProblem;
using testing_data::ProblemSpec;
using testing_data::TestProblem;

struct Oracle {
  double logLik = 0.0;
  std::vector<double> g, h;
};

Oracle naiveOracle(const TestProblem& p, const std::vector<double>& beta) {
  const ModelType model = p.data.model;
  const std::int64_t n = p.nRows();
  const std::size_t cols = p.nColumns();
  const std::vector<double> eta = p.etaOf(beta);
  Oracle o;
  o.g.assign(cols, 0.0);
  o.h.assign(cols, 0.0);

  if (!isConditional(model)) {
    for (std::int64_t r = 0; r < n; ++r) {
      const double w = p.w(r), y = p.y[r], e = eta[r];
      double lr = 0.0, d1 = 0.0, d2 = 0.0;  // L_r, dL_r/deta, d2L_r/deta2
      switch (model) {
        case ModelType::LeastSquares:
          lr = -0.5 * w * (y - e) * (y - e);
          d1 = w * (y - e);
          d2 = -w;
          break;
        case ModelType::Logistic: {
          const double mu = std::exp(e) / (1.0 + std::exp(e));
          lr = w * (y * e - std::log(1.0 + std::exp(e)));
          d1 = w * (y - mu);
          d2 = -w * mu * (1.0 - mu);
          break;
        }
        case ModelType::Poisson: {
          // Full Poisson log-likelihood with mean time * exp(eta), constants kept.
          const double mu = p.t(r) * std::exp(e);
          lr = w * (y * std::log(mu) - mu - std::lgamma(y + 1.0));
          d1 = w * (y - mu);
          d2 = -w * mu;
          break;
        }
        default:
          ADD_FAILURE() << "not a GLM";
      }
      o.logLik += lr;
      for (std::size_t j = 0; j < cols; ++j) {
        const double x = p.x(r, j);
        o.g[j] += x * d1;
        o.h[j] += x * x * d2;
      }
    }
    return o;
  }

  // Conditional: L = sum_r w y eta - sum_s n_s log den_s, den_s = sum_{r in s} c_r exp(eta_r),
  // c_r = w_r * time_r (time only for cpr / sccs), n_s = sum_{r in s} w_r y_r.
  const bool useTime = model != ModelType::ConditionalLogistic;
  for (std::int32_t s = 0; s < p.nStrata; ++s) {
    double events = 0.0, den = 0.0;
    std::vector<double> s1(cols, 0.0), s2(cols, 0.0);
    for (std::int64_t r = 0; r < n; ++r) {
      if (p.stratum[r] != s) continue;  // deliberately O(N) per stratum
      const double w = p.w(r);
      events += w * p.y[r];
      o.logLik += w * p.y[r] * eta[r];
      const double u = w * (useTime ? p.t(r) : 1.0) * std::exp(eta[r]);
      den += u;
      for (std::size_t j = 0; j < cols; ++j) {
        const double x = p.x(r, j);
        o.g[j] += w * p.y[r] * x;
        s1[j] += u * x;
        s2[j] += u * x * x;
      }
    }
    if (events == 0.0) continue;
    o.logLik -= events * std::log(den);
    for (std::size_t j = 0; j < cols; ++j) {
      const double mean = s1[j] / den;
      o.g[j] -= events * mean;
      o.h[j] -= events * (s2[j] / den - mean * mean);
    }
  }
  return o;
}

class NaiveOracle : public ::testing::TestWithParam<std::tuple<ModelType, bool>> {};

TEST_P(NaiveOracle, EngineMatchesDefinition) {
  for (std::uint32_t seed : {41u, 42u, 43u}) {
    ProblemSpec spec;
    spec.model = std::get<0>(GetParam());
    spec.weights = spec.offsets = spec.times = std::get<1>(GetParam());
    spec.seed = seed;
    auto prob = makeProblem(spec);
    auto lik = makeLikelihood(prob->data, prob->weightPtr());
    for (double scale : {0.0, 0.5}) {
      const std::vector<double> beta = prob->randomBeta(scale);
      lik->reset(beta);
      const Oracle o = naiveOracle(*prob, beta);
      SCOPED_TRACE("seed " + std::to_string(seed) + " scale " + std::to_string(scale));
      EXPECT_TRUE(closeRel(lik->logLikelihood(), o.logLik, 1e-10))
          << lik->logLikelihood() << " vs oracle " << o.logLik;
      for (std::size_t j = 0; j < prob->nColumns(); ++j) {
        SCOPED_TRACE(describe(spec.model, j, prob->kind(j)));
        const GradHess gh = lik->gradHess(j);
        EXPECT_TRUE(closeRel(gh.g, o.g[j], 1e-10)) << gh.g << " vs oracle " << o.g[j];
        EXPECT_TRUE(closeRel(gh.h, o.h[j], 1e-10)) << gh.h << " vs oracle " << o.h[j];
      }
    }
  }
}

std::string paramName(const ::testing::TestParamInfo<std::tuple<ModelType, bool>>& info) {
  return modelTypeName(std::get<0>(info.param)) +
         (std::get<1>(info.param) ? "_weighted_offset_time" : "_plain");
}

INSTANTIATE_TEST_SUITE_P(AllModels, NaiveOracle,
                         ::testing::Combine(::testing::ValuesIn(testing_data::allModels()),
                                            ::testing::Bool()),
                         paramName);

// Integer weights are duplicated rows (documented in conditional_functors.h): a weight of 2 on
// a row gives the same L, g, h as the row appearing twice in the same stratum.
TEST(NaiveOracleExtras, IntegerWeightsEqualDuplicatedRows) {
  for (ModelType model : testing_data::allModels()) {
    SCOPED_TRACE(modelTypeName(model));
    ProblemSpec spec;
    spec.model = model;
    spec.nRows = 60;
    spec.nStrata = 8;
    spec.weights = false;
    spec.seed = 77;
    auto base = makeProblem(spec);
    // Weighted version: row r gets weight 1 + (r % 2).
    std::vector<double> w(static_cast<std::size_t>(base->nRows()));
    for (std::size_t r = 0; r < w.size(); ++r) w[r] = 1.0 + static_cast<double>(r % 2);
    auto weighted = makeLikelihood(base->data, w.data());
    const std::vector<double> beta = base->randomBeta(0.5);
    weighted->reset(beta);
    // The oracle with duplicated rows = oracle with weights (checked above) is circular, so
    // compare instead with the unweighted engine on a data set where odd rows are doubled.
    const std::size_t p = base->nColumns();
    DesignStorage st;
    st.nRows = 0;
    std::vector<double> y2, t2, o2;
    std::vector<std::int32_t> s2;
    std::vector<std::vector<double>> xcols(p);
    for (std::int64_t r = 0; r < base->nRows(); ++r) {
      const int copies = 1 + static_cast<int>(r % 2);
      for (int c = 0; c < copies; ++c) {
        y2.push_back(base->y[r]);
        t2.push_back(base->t(r));
        o2.push_back(base->off(r));
        s2.push_back(base->stratum[r]);
        for (std::size_t j = 0; j < p; ++j) xcols[j].push_back(base->x(r, j));
      }
    }
    const auto n2 = static_cast<std::int64_t>(y2.size());
    st.nRows = n2;
    for (std::size_t j = 0; j < p; ++j) {
      st.kinds.push_back(static_cast<int>(ColumnKind::Dense));
      st.values.insert(st.values.end(), xcols[j].begin(), xcols[j].end());
      st.rowStart.push_back(0);
      st.valueStart.push_back(static_cast<std::int64_t>(st.values.size()));
    }
    std::vector<std::int64_t> ss2;
    if (isConditional(model)) {
      ss2.push_back(0);
      for (std::int64_t r = 1; r < n2; ++r)
        if (s2[r] != s2[r - 1]) ss2.push_back(r);
      ss2.push_back(n2);
    }
    Dataset d2;
    d2.model = model;
    d2.design = st.view();
    d2.outcomes.y = y2.data();
    d2.outcomes.time = base->time.empty() ? nullptr : t2.data();
    d2.outcomes.offset = base->offset.empty() ? nullptr : o2.data();
    if (isConditional(model)) {
      d2.outcomes.stratum = s2.data();
      d2.outcomes.stratumStart = ss2.data();
      d2.outcomes.nStrata = static_cast<std::int32_t>(ss2.size() - 1);
      ASSERT_EQ(d2.outcomes.nStrata, base->nStrata);
    }
    auto dup = makeLikelihood(d2, nullptr);
    dup->reset(beta);
    EXPECT_TRUE(closeRel(weighted->logLikelihood(), dup->logLikelihood(), 1e-10))
        << weighted->logLikelihood() << " vs " << dup->logLikelihood();
    for (std::size_t j = 0; j < p; ++j) {
      const GradHess a = weighted->gradHess(j), b = dup->gradHess(j);
      EXPECT_TRUE(closeRel(a.g, b.g, 1e-10)) << "column " << j;
      EXPECT_TRUE(closeRel(a.h, b.h, 1e-10)) << "column " << j;
    }
  }
}

// `time` is an exposure length only for pr, cpr and sccs (MODELS.md §1; model_type.h
// usesExposureTime). For ls and lr it means nothing, and conditional logistic regression has
// den_s = sum_{r in s} w_r exp(eta_r) (MODELS.md §2; conditional_functors.h says "exposure 1
// for clr"). A `time` array that happens to be present must not change these likelihoods or
// their derivatives. (The R layer currently drops time for these models, so this is reachable
// only from C++ callers, but the engine's own contract is dataset.h's "absent means 1".)
//
// ENGINE BUG (see report): Likelihood::exposure() (models/likelihood.h) returns
// data.outcomes.time for every model, so ConditionalLikelihood::scale() multiplies clr rows by
// `time`, and GlmLikelihood's wt = w * exposure makes ls / lr gradients and Hessians use
// w * time while their logLikelihood() uses w: g and h no longer match L.
TEST(NaiveOracleExtras, TimeIsIgnoredByModelsWithoutExposure) {
  for (ModelType model :
       {ModelType::LeastSquares, ModelType::Logistic, ModelType::ConditionalLogistic}) {
    SCOPED_TRACE(modelTypeName(model));
    ProblemSpec spec;
    spec.model = model;
    spec.seed = 91;
    auto prob = makeProblem(spec);
    ASSERT_EQ(prob->data.outcomes.time, nullptr);
    std::vector<double> time(static_cast<std::size_t>(prob->nRows()));
    for (std::size_t r = 0; r < time.size(); ++r) time[r] = 0.5 + static_cast<double>(r % 7);
    Dataset withTime = prob->data;
    withTime.outcomes.time = time.data();

    const std::vector<double> beta = prob->randomBeta(0.5);
    auto plain = makeLikelihood(prob->data, prob->weightPtr());
    auto timed = makeLikelihood(withTime, prob->weightPtr());
    plain->reset(beta);
    timed->reset(beta);
    EXPECT_TRUE(closeRel(timed->logLikelihood(), plain->logLikelihood(), 1e-12))
        << "log-likelihood changed with time: " << timed->logLikelihood() << " vs "
        << plain->logLikelihood();
    int bad = 0;
    for (std::size_t j = 0; j < prob->nColumns(); ++j) {
      const GradHess a = timed->gradHess(j), b = plain->gradHess(j);
      bad += !closeRel(a.g, b.g, 1e-12) || !closeRel(a.h, b.h, 1e-12);
      if (j == 0 || bad == 1) {
        EXPECT_TRUE(closeRel(a.g, b.g, 1e-12) && closeRel(a.h, b.h, 1e-12))
            << "column " << j << ": g " << a.g << " vs " << b.g << ", h " << a.h << " vs "
            << b.h;
      }
    }
    EXPECT_EQ(bad, 0) << "columns whose g or h changed with time";
  }
}

}  // namespace
}  // namespace argus
