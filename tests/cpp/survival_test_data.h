// Random survival data sets (cox, fgr) for the engine tests, in the engine's internal row
// order: rows are generated in a user order and put through planRows(), as createData() does.
// Times are whole numbers by default (many ties). A SurvivalProblem owns every array its
// Dataset points into and a dense row-major copy of X for naive oracles.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/design_storage.h"
#include "data/row_plan.h"

namespace argus {
namespace testing_data {

struct SurvivalSpec {
  ModelType model = ModelType::Cox;
  TieMethod ties = TieMethod::Breslow;
  std::int64_t nRows = 160;
  std::int32_t nStrata = 1;
  bool countingProcess = false;
  bool censoringByStratum = false;
  bool userCensoring = false;  // fgr: pass G(time-) computed here instead of inside
  bool integerTimes = true;
  int days = 25;  // whole days drawn from 1..days (integerTimes)
  double indicatorDensity = 0.3;
  bool weights = true;
  double offsetScale = 0.3;
  std::vector<ColumnKind> kinds = {ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense,
                                   ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense};
  std::uint32_t seed = 7;
};

class SurvivalProblem {
 public:
  explicit SurvivalProblem(const SurvivalSpec& spec) : spec_(spec), rng_(spec.seed) {
    generateUserRows();
    applyPlan();
    buildStorage();
    data.model = spec.model;
    data.ties = spec.ties;
    data.censoringByStratum = spec.censoringByStratum;
    data.design = storage.view();
    data.outcomes.y = y.data();
    data.outcomes.time = time.data();
    data.outcomes.offset = offset.data();
    data.outcomes.startTime = start.empty() ? nullptr : start.data();
    data.outcomes.stratum = stratum.data();
    data.outcomes.stratumStart = stratumStart.data();
    data.outcomes.nStrata = nStrata;
    if (spec.userCensoring) {
      userG = naiveCensoringBefore();
      data.outcomes.censoringSurvival = userG.data();
    }
  }
  SurvivalProblem(const SurvivalProblem&) = delete;
  SurvivalProblem& operator=(const SurvivalProblem&) = delete;

  std::int64_t nRows() const { return static_cast<std::int64_t>(y.size()); }
  std::size_t nColumns() const { return spec_.kinds.size(); }
  double x(std::int64_t r, std::size_t j) const { return dense[r * nColumns() + j]; }
  double w(std::int64_t r) const { return weight.empty() ? 1.0 : weight[r]; }
  const double* weightPtr() const { return weight.empty() ? nullptr : weight.data(); }
  std::vector<double> randomBeta(double scale) {
    std::uniform_real_distribution<double> u(-scale, scale);
    std::vector<double> beta(nColumns());
    for (double& b : beta) b = u(rng_);
    return beta;
  }
  std::mt19937& rng() { return rng_; }

  // G(time_r-) by the Kaplan-Meier product written naively: O(N^2), independent of the engine.
  std::vector<double> naiveCensoringBefore() const {
    const std::int64_t n = nRows();
    std::vector<double> g(static_cast<std::size_t>(n), 1.0);
    for (std::int64_t r = 0; r < n; ++r) {
      std::vector<double> censorTimes;
      for (std::int64_t c = 0; c < n; ++c)
        if (sameGroup(r, c) && y[c] == 0.0 && time[c] < time[r]) censorTimes.push_back(time[c]);
      std::sort(censorTimes.begin(), censorTimes.end());
      censorTimes.erase(std::unique(censorTimes.begin(), censorTimes.end()), censorTimes.end());
      for (const double t : censorTimes) {
        double atRisk = 0.0, censored = 0.0;
        for (std::int64_t c = 0; c < n; ++c) {
          if (!sameGroup(r, c)) continue;
          if (time[c] >= t) atRisk += w(c);
          if (time[c] == t && y[c] == 0.0) censored += w(c);
        }
        g[r] *= 1.0 - censored / atRisk;
      }
    }
    return g;
  }

  // Offsets falling linearly with time by `span` within each stratum, so that the late risk
  // sets hold only rows `span` below the stratum's top (riskSetShift's wide strata).
  void setOffsetsSpanning(double span) {
    for (std::int32_t s = 0; s < nStrata; ++s) {
      const std::int64_t lo = stratumStart[s], hi = stratumStart[s + 1];
      if (hi <= lo) continue;
      const auto [first, last] = std::minmax_element(time.begin() + lo, time.begin() + hi);
      const double range = *last - *first > 0.0 ? *last - *first : 1.0;
      for (std::int64_t r = lo; r < hi; ++r) offset[r] = -span * (time[r] - *first) / range;
    }
  }

  Dataset data;
  DesignStorage storage;
  std::vector<double> dense, y, time, start, offset, weight, userG;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
  std::int32_t nStrata = 1;

 private:
  bool sameGroup(std::int64_t a, std::int64_t b) const {
    return !spec_.censoringByStratum || stratum[a] == stratum[b];
  }

  void generateUserRows() {
    const std::int64_t n = spec_.nRows;
    const std::size_t p = nColumns();
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> day(1, spec_.days);
    userX_.assign(static_cast<std::size_t>(n) * p, 0.0);
    for (std::int64_t r = 0; r < n; ++r) {
      userStratum_.push_back(static_cast<std::int32_t>(r % spec_.nStrata));
      const double t = spec_.integerTimes ? day(rng_) : 0.5 + 25.0 * unif(rng_);
      userTime_.push_back(t);
      if (spec_.countingProcess) userStart_.push_back(t - (spec_.integerTimes ? day(rng_) % 9 + 1 : 9.0 * unif(rng_) + 0.01));
      const double draw = unif(rng_);
      double code = draw < 0.35 ? 1.0 : 0.0;
      if (spec_.model == ModelType::FineGray && draw >= 0.35 && draw < 0.6) code = 2.0;
      userY_.push_back(code);
      userOffset_.push_back(spec_.offsetScale * (2.0 * unif(rng_) - 1.0));
      if (spec_.weights) userWeight_.push_back(unif(rng_) < 0.05 ? 0.0 : 0.2 + 1.8 * unif(rng_));
      for (std::size_t j = 0; j < p; ++j) {
        double v = 0.0;
        switch (spec_.kinds[j]) {
          case ColumnKind::Indicator: v = unif(rng_) < spec_.indicatorDensity ? 1.0 : 0.0; break;
          case ColumnKind::Sparse: v = unif(rng_) < 0.3 ? 0.7 * normal(rng_) : 0.0; break;
          default: v = 0.5 * normal(rng_); break;
        }
        userX_[r * p + j] = v;
      }
    }
  }

  void applyPlan() {
    const RowPlan plan = planRows(spec_.model, spec_.nRows, userY_.data(), userTime_.data(),
                                  userStratum_.data(), spec_.nStrata);
    const std::size_t p = nColumns();
    nStrata = plan.nStrata;
    stratumStart = plan.stratumStart;
    stratum = plan.stratum;
    for (const std::int64_t u : plan.order) {
      y.push_back(userY_[u]);
      time.push_back(userTime_[u]);
      offset.push_back(userOffset_[u]);
      if (!userStart_.empty()) start.push_back(userStart_[u]);
      if (!userWeight_.empty()) weight.push_back(userWeight_[u]);
      for (std::size_t j = 0; j < p; ++j) dense.push_back(userX_[u * p + j]);
    }
  }

  void buildStorage() {
    const std::int64_t n = nRows();
    storage.nRows = n;
    for (std::size_t j = 0; j < nColumns(); ++j) {
      const ColumnKind k = spec_.kinds[j];
      storage.kinds.push_back(static_cast<int>(k));
      for (std::int64_t r = 0; r < n; ++r) {
        const double v = x(r, j);
        if (k == ColumnKind::Dense) {
          storage.values.push_back(v);
        } else if (v != 0.0) {
          storage.rows.push_back(static_cast<std::int32_t>(r));
          if (k == ColumnKind::Sparse) storage.values.push_back(v);
        }
      }
      storage.rowStart.push_back(static_cast<std::int64_t>(storage.rows.size()));
      storage.valueStart.push_back(static_cast<std::int64_t>(storage.values.size()));
    }
  }

  SurvivalSpec spec_;
  std::mt19937 rng_;
  std::vector<double> userX_, userY_, userTime_, userStart_, userOffset_, userWeight_;
  std::vector<std::int32_t> userStratum_;
};

inline std::unique_ptr<SurvivalProblem> makeSurvivalProblem(const SurvivalSpec& spec) {
  return std::make_unique<SurvivalProblem>(spec);
}

struct SurvivalCase {
  std::string name;
  SurvivalSpec spec;
};

// The configurations the survival tests walk: both tie methods, unique times, strata,
// weights or none, counting process (also with Efron and strata), Fine-Gray with strata,
// per-stratum censoring and user-supplied G.
inline std::vector<SurvivalCase> survivalCases() {
  std::vector<SurvivalCase> cases;
  auto add = [&](const std::string& name, auto&& edit) {
    SurvivalSpec s;
    edit(s);
    cases.push_back({name, s});
  };
  add("cox breslow", [](SurvivalSpec&) {});
  add("cox efron", [](SurvivalSpec& s) { s.ties = TieMethod::Efron; });
  add("cox unique times", [](SurvivalSpec& s) { s.integerTimes = false; });
  // A few days: a column's entries come in long runs per slot, which a step sums per run
  // (SurvivalLikelihood::kLongSlotRuns); with 25 days they go to their slots one by one.
  add("cox few days", [](SurvivalSpec& s) { s.days = 3; });
  add("cox efron few days", [](SurvivalSpec& s) { s.days = 3; s.ties = TieMethod::Efron; s.nStrata = 2; });
  add("fgr few days", [](SurvivalSpec& s) { s.model = ModelType::FineGray; s.days = 3; });
  add("cox strata", [](SurvivalSpec& s) { s.nStrata = 4; });
  add("cox efron strata", [](SurvivalSpec& s) { s.nStrata = 3; s.ties = TieMethod::Efron; });
  add("cox unweighted", [](SurvivalSpec& s) { s.weights = false; });
  add("cox counting process", [](SurvivalSpec& s) { s.countingProcess = true; s.nStrata = 2; });
  add("cox counting efron", [](SurvivalSpec& s) {
    s.countingProcess = true;
    s.ties = TieMethod::Efron;
  });
  add("cox counting efron strata", [](SurvivalSpec& s) {
    s.countingProcess = true;
    s.ties = TieMethod::Efron;
    s.nStrata = 2;
  });
  add("fgr", [](SurvivalSpec& s) { s.model = ModelType::FineGray; });
  add("fgr unique times", [](SurvivalSpec& s) {
    s.model = ModelType::FineGray;
    s.integerTimes = false;
  });
  add("fgr strata", [](SurvivalSpec& s) { s.model = ModelType::FineGray; s.nStrata = 3; });
  add("fgr censoring by stratum", [](SurvivalSpec& s) {
    s.model = ModelType::FineGray;
    s.nStrata = 3;
    s.censoringByStratum = true;
  });
  add("fgr user censoring", [](SurvivalSpec& s) {
    s.model = ModelType::FineGray;
    s.userCensoring = true;
  });
  return cases;
}

}  // namespace testing_data
}  // namespace argus
