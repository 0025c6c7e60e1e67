// Random data sets for the engine tests: every column kind, every model type, optional
// weights, offsets, exposure times and (for conditional models) contiguous strata.
//
// A TestProblem owns every array its Dataset points into, and also keeps a dense copy of X
// (row-major) so that tests can write naive oracles without going through column views. It is
// neither copyable nor movable (the Dataset holds raw pointers into it): make it with
// makeProblem(), which returns a unique_ptr.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data/column.h"
#include "data/dataset.h"
#include "data/design_storage.h"
#include "common/model_type.h"

namespace argus {
namespace testing_data {

struct ProblemSpec {
  ModelType model = ModelType::Logistic;
  std::int64_t nRows = 240;
  std::int32_t nStrata = 30;             // conditional models only
  std::vector<ColumnKind> kinds;         // empty: defaultKinds(model)
  bool weights = true;                   // random weights in [0.2, 2], a few exactly 0
  bool offsets = true;                   // random offsets in [-0.3, 0.3]
  bool times = true;                     // exposure times, only where the model uses them
  bool emptyStratum = true;              // one stratum without events (conditional models)
  double density = 0.3;                  // fill of indicator and sparse columns
  std::uint32_t seed = 1;
};

// Two columns of each kind the model allows (no intercept for conditional models).
inline std::vector<ColumnKind> defaultKinds(ModelType model) {
  std::vector<ColumnKind> kinds = {ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense,
                                   ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense};
  if (!isConditional(model)) kinds.insert(kinds.begin(), ColumnKind::Intercept);
  return kinds;
}

inline const std::vector<ModelType>& allModels() {
  static const std::vector<ModelType> models = {
      ModelType::LeastSquares,        ModelType::Logistic,           ModelType::Poisson,
      ModelType::ConditionalLogistic, ModelType::ConditionalPoisson,
      ModelType::SelfControlledCaseSeries};
  return models;
}

class TestProblem {
 public:
  explicit TestProblem(const ProblemSpec& spec) : spec_(spec), rng_(spec.seed) {
    const std::int64_t n = spec.nRows;
    kinds_ = spec.kinds.empty() ? defaultKinds(spec.model) : spec.kinds;
    p_ = kinds_.size();
    buildStrata();
    buildDesign();
    buildOutcomes();
    data.model = spec.model;
    data.design = storage.view();
    data.outcomes.y = y.data();
    data.outcomes.time = time.empty() ? nullptr : time.data();
    data.outcomes.offset = offset.empty() ? nullptr : offset.data();
    if (isConditional(spec.model)) {
      data.outcomes.stratum = stratum.data();
      data.outcomes.stratumStart = stratumStart.data();
      data.outcomes.nStrata = nStrata;
    }
    (void)n;
  }
  TestProblem(const TestProblem&) = delete;
  TestProblem& operator=(const TestProblem&) = delete;

  const double* weightPtr() const { return weight.empty() ? nullptr : weight.data(); }
  std::size_t nColumns() const { return p_; }
  std::int64_t nRows() const { return spec_.nRows; }
  double x(std::int64_t r, std::size_t j) const { return dense[r * p_ + j]; }
  double w(std::int64_t r) const { return weight.empty() ? 1.0 : weight[r]; }
  double t(std::int64_t r) const { return time.empty() ? 1.0 : time[r]; }
  double off(std::int64_t r) const { return offset.empty() ? 0.0 : offset[r]; }
  ColumnKind kind(std::size_t j) const { return kinds_[j]; }

  // eta = offset + X beta from the dense copy.
  std::vector<double> etaOf(const std::vector<double>& beta) const {
    std::vector<double> eta(static_cast<std::size_t>(nRows()));
    for (std::int64_t r = 0; r < nRows(); ++r) {
      double e = off(r);
      for (std::size_t j = 0; j < p_; ++j) e += x(r, j) * beta[j];
      eta[r] = e;
    }
    return eta;
  }

  std::vector<double> randomBeta(double scale) {
    std::uniform_real_distribution<double> u(-scale, scale);
    std::vector<double> beta(p_);
    for (double& b : beta) b = u(rng_);
    return beta;
  }

  std::mt19937& rng() { return rng_; }

  Dataset data;
  DesignStorage storage;
  std::vector<double> dense;  // row-major nRows x p copy of X
  std::vector<double> y, time, offset, weight;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
  std::int32_t nStrata = 1;

 private:
  void buildStrata() {
    const std::int64_t n = spec_.nRows;
    stratum.assign(static_cast<std::size_t>(n), 0);
    if (!isConditional(spec_.model)) return;
    // Random cut points give strata of unequal sizes, each with at least one row.
    nStrata = spec_.nStrata;
    std::vector<std::int64_t> cuts;
    std::uniform_int_distribution<std::int64_t> pick(1, n - 1);
    while (static_cast<std::int32_t>(cuts.size()) < nStrata - 1) {
      const std::int64_t c = pick(rng_);
      bool seen = false;
      for (std::int64_t d : cuts) seen = seen || d == c;
      if (!seen) cuts.push_back(c);
    }
    std::sort(cuts.begin(), cuts.end());
    stratumStart.assign(1, 0);
    for (std::int64_t c : cuts) stratumStart.push_back(c);
    stratumStart.push_back(n);
    for (std::int32_t s = 0; s < nStrata; ++s)
      for (std::int64_t r = stratumStart[s]; r < stratumStart[s + 1]; ++r) stratum[r] = s;
  }

  void buildDesign() {
    const std::int64_t n = spec_.nRows;
    dense.assign(static_cast<std::size_t>(n) * p_, 0.0);
    std::bernoulli_distribution fill(spec_.density);
    std::normal_distribution<double> normal(0.0, 1.0);
    storage.nRows = n;
    storage.kinds.clear();
    storage.rowStart.assign(1, 0);
    storage.valueStart.assign(1, 0);
    for (std::size_t j = 0; j < p_; ++j) {
      const ColumnKind k = kinds_[j];
      storage.kinds.push_back(static_cast<int>(k));
      switch (k) {
        case ColumnKind::Indicator:
          for (std::int64_t r = 0; r < n; ++r)
            if (fill(rng_)) {
              storage.rows.push_back(static_cast<std::int32_t>(r));
              dense[r * p_ + j] = 1.0;
            }
          break;
        case ColumnKind::Sparse:
          for (std::int64_t r = 0; r < n; ++r)
            if (fill(rng_)) {
              const double v = 0.7 * normal(rng_);
              storage.rows.push_back(static_cast<std::int32_t>(r));
              storage.values.push_back(v);
              dense[r * p_ + j] = v;
            }
          break;
        case ColumnKind::Dense:
          for (std::int64_t r = 0; r < n; ++r) {
            const double v = 0.5 * normal(rng_);
            storage.values.push_back(v);
            dense[r * p_ + j] = v;
          }
          break;
        case ColumnKind::Intercept:
          for (std::int64_t r = 0; r < n; ++r) dense[r * p_ + j] = 1.0;
          break;
      }
      storage.rowStart.push_back(static_cast<std::int64_t>(storage.rows.size()));
      storage.valueStart.push_back(static_cast<std::int64_t>(storage.values.size()));
    }
  }

  void buildOutcomes() {
    const std::int64_t n = spec_.nRows;
    const ModelType m = spec_.model;
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    if (spec_.offsets) {
      offset.resize(static_cast<std::size_t>(n));
      for (double& o : offset) o = -0.3 + 0.6 * unif(rng_);
    }
    if (spec_.weights) {
      weight.resize(static_cast<std::size_t>(n));
      for (double& w : weight) w = unif(rng_) < 0.05 ? 0.0 : 0.2 + 1.8 * unif(rng_);
    }
    if (spec_.times && usesExposureTime(m)) {
      time.resize(static_cast<std::size_t>(n));
      for (double& t : time) t = 0.1 + 3.0 * unif(rng_);
    }
    y.assign(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t r = 0; r < n; ++r) {
      switch (m) {
        case ModelType::LeastSquares: y[r] = 0.5 + 1.5 * normal(rng_); break;
        case ModelType::Logistic:
        case ModelType::ConditionalLogistic: y[r] = unif(rng_) < 0.35 ? 1.0 : 0.0; break;
        default: {
          std::poisson_distribution<int> pois(0.4 + 0.6 * (time.empty() ? 1.0 : time[r]));
          y[r] = pois(rng_);
        }
      }
    }
    if (isConditional(m)) {
      // Every stratum gets an event, except (optionally) the last one, which gets none.
      for (std::int32_t s = 0; s < nStrata; ++s) {
        const std::int64_t b = stratumStart[s], e = stratumStart[s + 1];
        const bool none = spec_.emptyStratum && s == nStrata - 1;
        double events = 0.0;
        for (std::int64_t r = b; r < e; ++r) {
          if (none) y[r] = 0.0;
          events += y[r];
        }
        if (!none && events == 0.0) y[b + static_cast<std::int64_t>(unif(rng_) * (e - b))] = 1.0;
        // Keep the event's row weight positive so that n_s > 0 holds with weights too.
        if (!none && !weight.empty())
          for (std::int64_t r = b; r < e; ++r)
            if (y[r] > 0 && weight[r] == 0.0) weight[r] = 1.0;
      }
    }
  }

  ProblemSpec spec_;
  std::mt19937 rng_;
  std::vector<ColumnKind> kinds_;
  std::size_t p_ = 0;
};

inline std::unique_ptr<TestProblem> makeProblem(const ProblemSpec& spec) {
  return std::make_unique<TestProblem>(spec);
}

// |a - b| <= tol * max(1, |b|): relative for values of size >= 1, absolute below.
inline bool closeRel(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::fmax(1.0, std::fabs(b));
}

inline std::string describe(ModelType m, std::size_t j, ColumnKind k) {
  return modelTypeName(m) + " column " + std::to_string(j) + " (" + columnKindName(k) + ")";
}

}  // namespace testing_data
}  // namespace argus
