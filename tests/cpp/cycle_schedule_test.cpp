// Active-set cycling (solver/cycle_schedule.h): the plans it hands out, the rule that only a
// full cycle admitting nothing new ends a fit, and whole fits that reach the same optimum
// with and without it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/cycle_schedule.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;

// nColumns columns of `nnz` entries each, column 0 an intercept when `intercept`.
DesignView design(std::size_t nColumns, std::int64_t nnz, bool intercept) {
  DesignView d;
  d.nRows = 1000;
  d.columns.resize(nColumns);
  for (std::size_t j = 0; j < nColumns; ++j) {
    d.columns[j].kind = ColumnKind::Indicator;
    d.columns[j].nnz = nnz;
  }
  if (intercept) {
    d.columns[0].kind = ColumnKind::Intercept;
    d.columns[0].nnz = d.nRows;
  }
  return d;
}

CycleState laplaceState(std::size_t p, bool intercept) {
  CycleState s;
  s.beta.assign(p, 0.0);
  s.bound.assign(p, 2.0);
  s.prior.assign(p, CoordinatePrior{PriorKind::Laplace, 1.0});
  if (intercept) s.prior[0] = CoordinatePrior{};
  s.fixed.assign(p, 0);
  return s;
}

TEST(CycleSchedule, FullPlanPutsTheInterceptLastAndSkipsFixed) {
  const DesignView d = design(5, 100, true);
  std::vector<unsigned char> fixed = {0, 0, 1, 0, 0};
  CycleSchedule schedule(d, fixed, false);
  const CyclePlan& plan = schedule.fullPlan();
  EXPECT_EQ(plan.coordinates, (std::vector<std::int32_t>{1, 3, 4, 0}));
  EXPECT_EQ(plan.follower, 0);
  // A fixed intercept is neither visited nor followed.
  fixed = {1, 0, 0, 0, 0};
  CycleSchedule noIntercept(d, fixed, false);
  EXPECT_EQ(noIntercept.fullPlan().coordinates, (std::vector<std::int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(noIntercept.fullPlan().follower, -1);
}

TEST(CycleSchedule, WithoutActiveSetEveryCycleIsFullAndTheRuleDecides) {
  const DesignView d = design(6, 100, true);
  CycleState s = laplaceState(6, true);
  CycleSchedule schedule(d, s.fixed, false);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
    s.beta[1] = 0.5;
    EXPECT_FALSE(schedule.finish(false, s));
  }
  schedule.begin(s);
  s.beta[2] = 0.1;  // a new coordinate does not matter without active sets
  EXPECT_TRUE(schedule.finish(true, s));
}

TEST(CycleSchedule, ActiveCyclesUntilSettledThenAFullCycleDecides) {
  const std::size_t p = 12;
  const DesignView d = design(p, 500, true);  // intercept 1000 entries: {3, 7, 0} is 31%
  CycleState s = laplaceState(p, true);
  CycleSchedule schedule(d, s.fixed, true);

  // Cycle 1 (full): coordinates 3 and 7 enter. Not converged even if the rule holds.
  EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
  s.beta[3] = 0.4;
  s.beta[7] = -0.2;
  s.beta[0] = -1.0;
  EXPECT_FALSE(schedule.finish(true, s));

  // Active cycles over {3, 7, intercept}, follower kept, until the rule holds.
  const CyclePlan& active = schedule.begin(s);
  EXPECT_FALSE(schedule.lastWasFull());
  EXPECT_EQ(active.coordinates, (std::vector<std::int32_t>{3, 7, 0}));
  EXPECT_EQ(active.follower, 0);
  EXPECT_FALSE(schedule.finish(false, s));
  EXPECT_EQ(&schedule.begin(s), &active);
  s.beta[7] = 0.0;  // dropping out during active cycles is fine
  EXPECT_FALSE(schedule.finish(true, s));

  // Settled: a full cycle. Coordinate 9 enters, so back to active cycles (now {3, 9, 0}).
  EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
  s.beta[9] = 0.05;
  EXPECT_FALSE(schedule.finish(true, s));
  EXPECT_EQ(schedule.begin(s).coordinates, (std::vector<std::int32_t>{3, 9, 0}));
  EXPECT_FALSE(schedule.finish(true, s));

  // A full cycle that does not meet the rule does not end the fit...
  EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
  EXPECT_FALSE(schedule.finish(false, s));
  // ... one that meets it and admits nothing does.
  schedule.begin(s);
  EXPECT_FALSE(schedule.finish(true, s));  // that was an active cycle
  EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
  EXPECT_TRUE(schedule.finish(true, s));
}

TEST(CycleSchedule, StaysFullWhenTheActiveSetIsMostOfTheWork) {
  const std::size_t p = 10;
  const DesignView d = design(p, 100, false);
  CycleState s = laplaceState(p, false);
  CycleSchedule schedule(d, s.fixed, true);
  schedule.begin(s);
  for (std::size_t j = 0; j < 6; ++j) s.beta[j] = 0.1;  // 60% of the work
  EXPECT_FALSE(schedule.finish(true, s));
  EXPECT_EQ(&schedule.begin(s), &schedule.fullPlan());
  EXPECT_TRUE(schedule.finish(true, s));  // nothing new entered

  CycleSchedule small(d, s.fixed, true);
  std::fill(s.beta.begin(), s.beta.end(), 0.0);
  small.begin(s);
  for (std::size_t j = 0; j < 4; ++j) s.beta[j] = 0.1;  // 40%
  EXPECT_FALSE(small.finish(true, s));
  EXPECT_NE(&small.begin(s), &small.fullPlan());
}

// Counts the active cycles of a verbose fit from its progress messages.
struct CountingSink : ProgressSink {
  int activeCycles = 0;
  void message(const std::string& m) override {
    if (m.find("(active") != std::string::npos) ++activeCycles;
  }
};

// Whole fits: L1 problems where most coordinates stay at zero, so active cycles do run, and
// both schedules reach the same beta.
TEST(CycleSchedule, ActiveSetFitsReachTheSameOptimum) {
  // Variances that leave a handful of the 30 columns nonzero.
  const std::vector<std::pair<ModelType, double>> cases = {
      {ModelType::Logistic, 0.05}, {ModelType::Poisson, 0.01},
      {ModelType::SelfControlledCaseSeries, 0.01}};
  for (const auto& [model, variance] : cases) {
    SCOPED_TRACE(modelTypeName(model));
    ProblemSpec spec;
    spec.model = model;
    spec.nRows = 600;
    spec.seed = 9;
    spec.density = 0.2;
    spec.kinds.clear();
    if (!isConditional(model)) spec.kinds.push_back(ColumnKind::Intercept);
    for (int k = 0; k < 30; ++k)
      spec.kinds.push_back(k % 3 == 0 ? ColumnKind::Sparse : ColumnKind::Indicator);
    auto p = makeProblem(spec);
    FitRequest req;
    req.data = &p->data;
    req.weights = p->weightPtr();
    req.prior.assign(p->nColumns(), CoordinatePrior{PriorKind::Laplace, variance});
    if (!isConditional(model)) req.prior[0] = CoordinatePrior{};
    req.control.tolerance = 1e-13;
    req.control.maxIterations = 5000;
    req.control.activeSet = false;
    const FitResult plain = fitCcd(req);
    req.control.activeSet = true;
    req.control.verbose = true;
    CountingSink sink;
    const FitResult active = fitCcd(req, &sink);
    EXPECT_GT(sink.activeCycles, 0);
    ASSERT_EQ(plain.status, FitStatus::Success);
    ASSERT_EQ(active.status, FitStatus::Success);
    int zeros = 0, nonzeros = 0;
    for (std::size_t j = 0; j < plain.beta.size(); ++j) {
      EXPECT_NEAR(active.beta[j], plain.beta[j], 1e-8) << "column " << j;
      (plain.beta[j] == 0.0 ? zeros : nonzeros) += 1;
    }
    EXPECT_GT(zeros, 10);    // the active set is small...
    EXPECT_GT(nonzeros, 2);  // ... but not empty
    EXPECT_NEAR(active.logLikelihood, plain.logLikelihood,
                1e-9 * std::fabs(plain.logLikelihood));
  }
}

}  // namespace
}  // namespace argus
