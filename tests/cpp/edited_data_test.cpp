// Issue 38: data that an edited R object hands the engine (a stratum offset of 1e7, design
// offsets past their arrays, a Fine-Gray censoring survival that rises with time) are refused
// by every entry point before anything reads a row through them. Run under ASan in CI, these
// would report the out-of-bounds reads they once made.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/errors.h"
#include "data/dataset.h"
#include "data/design_storage.h"
#include "selection/folds.h"
#include "solver/ccd_solver.h"
#include "solver/inference.h"
#include "solver/profile.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

std::unique_ptr<testing_data::TestProblem> sccs() {
  testing_data::ProblemSpec spec;
  spec.model = ModelType::SelfControlledCaseSeries;
  spec.nRows = 60;
  spec.nStrata = 6;
  // a dense column of large mean: the fit centres it within strata (ShiftInvariantCentring)
  spec.kinds = {ColumnKind::Indicator, ColumnKind::Dense};
  spec.seed = 38;
  auto p = testing_data::makeProblem(spec);
  for (std::size_t k = 0; k < static_cast<std::size_t>(spec.nRows); ++k)
    p->storage.values[p->storage.valueStart[1] + k] += 1e6;
  p->data.design = p->storage.view();
  return p;
}

FitRequest flatFit(const testing_data::TestProblem& p) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), CoordinatePrior{});
  return req;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ArgusError& e) {
    return e.what();
  }
  return "";
}

TEST(EditedData, AStratumOffsetBeyondTheRowsIsRefusedByEveryEntryPoint) {
  for (std::int64_t bad : {std::int64_t(10000000), std::int64_t(-5), std::int64_t(0)}) {
    auto p = sccs();
    ASSERT_NO_THROW(fitCcd(flatFit(*p)));
    p->stratumStart[3] = bad;
    const FitRequest req = flatFit(*p);
    EXPECT_NE(errorOf([&] { validateDataset(p->data, p->weightPtr()); }).find("strata"), std::string::npos);
    EXPECT_THROW(fitCcd(req), ArgusError) << bad;
    EXPECT_THROW(LikelihoodProbe(ComputeDevice{}, p->data, p->weightPtr()), ArgusError) << bad;
    EXPECT_THROW(linearPredictor(p->data, std::vector<double>(p->nColumns(), 0.1)), ArgusError) << bad;
    FoldSettings folds;
    folds.folds = 3;
    EXPECT_THROW(makeFoldPlan(p->data, folds), ArgusError) << bad;
    FitRequest profiled = req;
    profiled.start.assign(p->nColumns(), 0.0);
    EXPECT_THROW(profileValues(profiled, 0, {0.1}, true, 1, nullptr), ArgusError) << bad;
  }
  auto p = sccs();
  p->data.outcomes.nStrata = 0;  // an R stratumStart of one value
  EXPECT_THROW(fitCcd(flatFit(*p)), ArgusError);
}

TEST(EditedData, DesignOffsetsPastTheirArraysAreRefused) {
  auto p = sccs();
  const DesignStorage& s = p->storage;
  std::vector<double> rowStart(s.rowStart.begin(), s.rowStart.end());
  std::vector<double> valueStart(s.valueStart.begin(), s.valueStart.end());
  auto view = [&] {
    return makeDesignView(p->nRows(), s.kinds.size(), s.kinds.data(), rowStart.data(), valueStart.data(),
                          s.rows.data(), s.rows.size(), s.values.data(), s.values.size());
  };
  EXPECT_NO_THROW(view());
  for (double bad : {1e7, -1.0, 0.5, std::nan(""), static_cast<double>(s.rows.size() + 1)}) {
    rowStart[1] = bad;
    EXPECT_THROW(view(), ArgusError) << bad;
    rowStart[1] = static_cast<double>(s.rowStart[1]);
  }
  valueStart[2] = valueStart[2] + 1;  // past the values
  EXPECT_THROW(view(), ArgusError);
}

TEST(EditedData, ProfileFixedFlagsOfTheWrongLengthAreRefused) {
  auto p = sccs();
  FitRequest req = flatFit(*p);
  req.start.assign(p->nColumns(), 0.0);
  req.fixed.assign(1, 0);
  EXPECT_THROW(profileValues(req, 1, {0.1}, true, 1, nullptr), ArgusError);
}

// Fine-Gray: G(t-) may be scaled by any factor (the weights G(t_e-) / G(time_r-) stay), but
// not rise with time (a competing row's value below a later event's weighted it above 1, 1e300
// for a G of 1e-300, and the risk sets lost every other row), nor span more than 1e10.
TEST(EditedData, FineGrayCensoringSurvivalThatRisesIsRefusedAndAScaledOneFitsAlike) {
  testing_data::SurvivalSpec spec;
  spec.model = ModelType::FineGray;
  spec.userCensoring = true;
  spec.weights = false;
  auto p = testing_data::makeSurvivalProblem(spec);
  FitRequest req;
  req.data = &p->data;
  req.prior.assign(p->nColumns(), CoordinatePrior{});
  req.control.tolerance = 1e-10;
  const FitResult reference = fitCcd(req);
  ASSERT_EQ(reference.status, FitStatus::Success);
  const std::vector<double> given = p->userG;
  for (double& g : p->userG) g *= 1e-300;
  const FitResult scaled = fitCcd(req);
  ASSERT_EQ(scaled.status, FitStatus::Success);
  for (std::size_t j = 0; j < reference.beta.size(); ++j) EXPECT_NEAR(scaled.beta[j], reference.beta[j], 1e-9);
  // the earliest competing row that some event follows: G of 1e-300
  p->userG = given;
  std::int64_t competing = -1;
  for (std::int64_t r = p->nRows() - 1; r >= 0 && competing < 0; --r)
    if (p->y[r] == 2.0)
      for (std::int64_t e = 0; e < r; ++e)
        if (p->y[e] == 1.0 && p->time[e] > p->time[r]) competing = r;
  ASSERT_GE(competing, 0);
  p->userG[competing] = 1e-300;
  EXPECT_NE(errorOf([&] { fitCcd(req); }).find("censoring survival rises with time"), std::string::npos);
  // falling, but spanning more than 1e10: the late rows' curvature was lost to rounding
  p->userG = given;
  for (std::int64_t r = 0; r < p->nRows() / 4; ++r) p->userG[r] *= 1e-20;  // the latest times
  EXPECT_NE(errorOf([&] { fitCcd(req); }).find("spans more than 1e10"), std::string::npos);
}

}  // namespace
}  // namespace argus
