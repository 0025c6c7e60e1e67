// What the device suite's files share (device_runner_test.cpp, device_survival_test.cpp): the
// device under test, the tolerance, prior cases, and the runs that compare a device runner
// with the CPU runner cycle by cycle and for a whole fit.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "device/device_memory.h"
#include "device/emulated_device.h"
#include "hand_design.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/coordinate_sweep.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace device_test {

using testing_data::HandDesign;
using testing_data::makeProblem;
using testing_data::ProblemSpec;

#ifndef ARGUS_DEVICE_UNDER_TEST
#define ARGUS_DEVICE_UNDER_TEST "emulated"
#endif
inline const char* const kDevice = ARGUS_DEVICE_UNDER_TEST;

// Only the conditional models' CPU scans sum a column in the serial system's entry order, so
// only there is the serial emulation equal to the bit. Survival models sum a column's chunks
// in another grouping than the CPU's four chunks; through a few cycles of block Newton steps
// on Fine-Gray's strata that rounding grows to a few 1e-9 of sum w y eta. The GLMs' CPU scan
// sums even and odd entries apart (two rows per SIMD division, common/double_pair.h).
// gModel is the model under comparison (ModelScope; expectSameCycles and expectSameFit set
// it from the data): a test of a GLM that forgets it is held to the bit and fails.
inline bool gSurvival = false;
inline ModelType gModel = ModelType::ConditionalLogistic;
inline bool serialSums() {
  return std::string(kDevice) == "emulated" && emulatedDeviceSystem() == "cpp" && !gSurvival &&
         (isConditional(gModel) || isSurvival(gModel));
}
inline double tolerance() { return serialSums() ? 0.0 : gSurvival ? 1e-8 : 1e-9; }
// Equal values are close, infinities too (a violation is infinite where a slope meets no
// curvature: every row saturated, as extreme offsets leave them).
inline bool close(double a, double b) { return a == b || std::fabs(a - b) <= tolerance() * std::fmax(1.0, std::fabs(b)); }
// Eta, log-likelihoods and sum w y eta: the CPU's conditional likelihood keeps sum w y eta by
// its steps and adds deferred steps to eta column by column (models/deferred_column_steps.h),
// where the device sums the rows of an eta moved entry by entry: the same numbers up to
// rounding, also where the serial emulation gives every coefficient to the bit.
inline bool closeReadout(double a, double b) {
  return std::fabs(a - b) <= std::fmax(tolerance(), 1e-13) * std::fmax(1.0, std::fabs(b));
}
struct SurvivalScope {
  SurvivalScope() { gSurvival = true; }
  ~SurvivalScope() { gSurvival = false; }
};
struct ModelScope {
  explicit ModelScope(ModelType m) : saved(gModel) { gModel = m; }
  ~ModelScope() { gModel = saved; }
  ModelType saved;
};

// A small survival problem in 2 strata: Cox on (start, stop] rows, or Fine-Gray.
inline std::unique_ptr<testing_data::SurvivalProblem> countingCoxOrFineGray(ModelType m, std::int64_t rows) {
  testing_data::SurvivalSpec spec;
  spec.model = m;
  spec.nRows = rows;
  spec.nStrata = 2;
  spec.countingProcess = m == ModelType::Cox;
  return testing_data::makeSurvivalProblem(spec);
}

enum class PriorCase { None, Laplace, Normal, PerCovariate, Excluded, Fixed };

inline std::string priorCaseName(PriorCase p) {
  switch (p) {
    case PriorCase::None: return "none";
    case PriorCase::Laplace: return "laplace";
    case PriorCase::Normal: return "normal";
    case PriorCase::PerCovariate: return "percovariate";
    case PriorCase::Excluded: return "excluded";
    case PriorCase::Fixed: return "fixed";
  }
  return "?";
}

// Priors and fixed flags for `p` columns (column 0 may be the intercept, never penalized).
inline void makePriors(PriorCase which, const Dataset& data, std::vector<CoordinatePrior>* prior,
                std::vector<unsigned char>* fixed) {
  const std::size_t p = data.design.nColumns();
  prior->assign(p, CoordinatePrior{});
  fixed->assign(p, 0);
  for (std::size_t j = 0; j < p; ++j) {
    if (data.design.columns[j].kind == ColumnKind::Intercept) continue;
    switch (which) {
      case PriorCase::None: break;
      case PriorCase::Laplace: (*prior)[j] = {PriorKind::Laplace, 0.5}; break;
      case PriorCase::Normal: (*prior)[j] = {PriorKind::Normal, 0.7}; break;
      case PriorCase::PerCovariate:
        (*prior)[j] = j % 3 == 0   ? CoordinatePrior{PriorKind::Laplace, 0.3}
                      : j % 3 == 1 ? CoordinatePrior{PriorKind::Normal, 2.0}
                                   : CoordinatePrior{PriorKind::None, 1.0};
        break;
      case PriorCase::Excluded:  // Laplace on all but one column, which is unpenalized
        (*prior)[j] = j == 2 ? CoordinatePrior{} : CoordinatePrior{PriorKind::Laplace, 0.5};
        break;
      case PriorCase::Fixed:
        (*prior)[j] = {PriorKind::Normal, 1.0};
        if (j == 1) (*fixed)[j] = 1;
        break;
    }
  }
}

inline CycleState initialState(const std::vector<CoordinatePrior>& prior, const std::vector<unsigned char>& fixed,
                        const Dataset& data, bool blockNewton) {
  CycleState s;
  const std::size_t p = prior.size();
  s.beta.assign(p, 0.0);
  for (std::size_t j = 0; j < p; ++j)
    if (fixed[j]) s.beta[j] = 0.25;  // a fixed coefficient holds a nonzero value
  s.bound.assign(p, 0.0);
  for (std::size_t j = 0; j < p; ++j) {
    const double m = columnMaxAbs(data.design.columns[j]);
    s.bound[j] = m > 0.0 ? 2.0 / m : 2.0;
  }
  s.prior = prior;
  s.fixed = fixed;
  s.blockNewton = blockNewton;
  return s;
}

inline CyclePlan planFor(const Dataset& data) {
  CyclePlan plan;
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    plan.coordinates.push_back(static_cast<std::int32_t>(j));
    if (data.design.columns[j].kind == ColumnKind::Intercept) plan.follower = static_cast<std::int32_t>(j);
  }
  return plan;
}

// Runs `cycles` cycles on both runners from the same state; every cycle's coefficients,
// bounds, moves and readouts must agree.
inline void expectSameCycles(const Dataset& data, const double* weights, const std::vector<CoordinatePrior>& prior,
                      const std::vector<unsigned char>& fixed, bool blockNewton, int cycles,
                      const std::string& what, bool extrapolate = true) {
  const ModelScope scope(data.model);
  auto cpu = makeCycleRunner(parseComputeDevice("cpu"), data, weights);
  auto device = makeCycleRunner(parseComputeDevice(kDevice), data, weights);
  CycleState a = initialState(prior, fixed, data, blockNewton);
  a.extrapolate = extrapolate;
  CycleState b = a;
  const CyclePlan plan = planFor(data);
  const CycleReadout ra0 = cpu->reset(a), rb0 = device->reset(b);
  ASSERT_TRUE(closeReadout(rb0.logLikelihood, ra0.logLikelihood)) << what;
  const ReadoutNeeds needs;
  for (int c = 0; c < cycles; ++c) {
    const CycleReadout ra = cpu->runCycle(a, plan, needs);
    const CycleReadout rb = device->runCycle(b, plan, needs);
    const std::string at = what + ", cycle " + std::to_string(c + 1);
    // A step that is exactly 0 on one side can be rounding noise on the other (tree sums).
    if (serialSums()) EXPECT_EQ(rb.coordinatesMoved, ra.coordinatesMoved) << at;
    EXPECT_TRUE(closeReadout(rb.logLikelihood, ra.logLikelihood)) << at << ": " << rb.logLikelihood << " vs " << ra.logLikelihood;
    EXPECT_TRUE(closeReadout(rb.weightedOutcomeEta, ra.weightedOutcomeEta)) << at << ": " << rb.weightedOutcomeEta << " vs " << ra.weightedOutcomeEta;
    EXPECT_TRUE(closeReadout(rb.sumAbsEta, ra.sumAbsEta)) << at;
    // A difference of two nearly equal etas: on the scale of eta itself.
    EXPECT_LE(std::fabs(rb.sumAbsEtaChange - ra.sumAbsEtaChange),
              std::fmax(tolerance(), 1e-13) * std::fmax(1.0, ra.sumAbsEta)) << at;
    for (std::size_t j = 0; j < a.beta.size(); ++j) {
      EXPECT_TRUE(close(b.beta[j], a.beta[j])) << at << ", beta " << j << ": " << b.beta[j] << " vs " << a.beta[j];
      EXPECT_TRUE(close(b.bound[j], a.bound[j])) << at << ", bound " << j;
    }
  }
  const OptimalityReport oa = cpu->checkOptimality(a), ob = device->checkOptimality(b);
  if (serialSums()) EXPECT_EQ(ob.worst, oa.worst) << what;
  // Tree sums: the violation is a gradient near 0, so compare it on the certificate's scale.
  if (serialSums()) EXPECT_TRUE(close(ob.maxViolation, oa.maxViolation)) << what;
  // (or relative where it is huge: rows saturated by extreme offsets, no curvature left)
  else if (ob.maxViolation != oa.maxViolation)
    EXPECT_NEAR(ob.maxViolation, oa.maxViolation, std::fmax(1e-6, 1e-9 * std::fabs(oa.maxViolation))) << what;
  const std::vector<double> ea = cpu->linearPredictor(), eb = device->linearPredictor();
  ASSERT_EQ(ea.size(), eb.size());
  for (std::size_t r = 0; r < ea.size(); ++r) EXPECT_TRUE(closeReadout(eb[r], ea[r])) << what << ", eta " << r;
}

// A whole fit through fitCcd on both devices.
inline void expectSameFit(const Dataset& data, const double* weights, const std::vector<CoordinatePrior>& prior,
                   const std::vector<unsigned char>& fixed, const std::string& what) {
  const ModelScope scope(data.model);
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior = prior;
  req.fixed = fixed;
  // The exact cycles only: the majorized start picks its step lengths and its end by
  // thresholds that rounding-equal sums may cross a step apart, and a fit it certifies keeps
  // that difference (1e-7 here, inside the tolerance). DeviceRunner.SurvivalRowScoresAndThe
  // MajorizedStartMatchTheCpu compares fits that take it.
  req.control.majorizedStart = MajorizedStartRule::Never;
  const FitResult cpu = fitCcd(req);
  req.device = parseComputeDevice(kDevice);
  const FitResult device = fitCcd(req);
  EXPECT_EQ(fitStatusName(device.status), fitStatusName(cpu.status)) << what;
  if (serialSums()) EXPECT_EQ(device.iterations, cpu.iterations) << what;
  EXPECT_TRUE(closeReadout(device.logLikelihood, cpu.logLikelihood)) << what;
  ASSERT_EQ(device.beta.size(), cpu.beta.size());
  for (std::size_t j = 0; j < cpu.beta.size(); ++j)
    EXPECT_TRUE(close(device.beta[j], cpu.beta[j])) << what << ", beta " << j << ": " << device.beta[j] << " vs " << cpu.beta[j];
  EXPECT_EQ(device.aliased, cpu.aliased) << what;
}

}  // namespace device_test
}  // namespace argus
