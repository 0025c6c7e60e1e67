// The device runner (solver/coordinate_sweep.h) against the CPU runner: same cycles, same
// coefficients. Runs once per Thrust system of the emulated build (ctest -L device), and in a
// CUDA build on the GPU (ARGUS_DEVICE_UNDER_TEST = "cuda"; skipped without one). On the
// CPP system the sums are folded in the CPU loops' order, on OMP and CUDA in a tree, so the comparison
// is bit for bit on CPP and to 1e-9 relative on OMP (the tree's rounding, ~1e-16, grows
// through the fit's conditioning: measured up to ~1e-10 on these problems).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "device/compute_device.h"
#include "device/emulated_device.h"
#include "hand_design.h"
#include "models/likelihood.h"
#include "solver/ccd_solver.h"
#include "solver/coordinate_sweep.h"
#include "survival_test_data.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::HandDesign;
using testing_data::makeProblem;
using testing_data::ProblemSpec;

#ifndef ARGUS_DEVICE_UNDER_TEST
#define ARGUS_DEVICE_UNDER_TEST "emulated"
#endif
const char* const kDevice = ARGUS_DEVICE_UNDER_TEST;

// Survival models sum a column's chunks in another grouping than the CPU's four chunks, so even
// the serial system agrees with them to rounding only; through a few cycles of block Newton
// steps on Fine-Gray's strata that rounding grows to a few 1e-9 of sum w y eta.
bool gSurvival = false;
bool serialSums() {
  return std::string(kDevice) == "emulated" && emulatedDeviceSystem() == "cpp" && !gSurvival;
}
double tolerance() { return serialSums() ? 0.0 : gSurvival ? 1e-8 : 1e-9; }
bool close(double a, double b) { return std::fabs(a - b) <= tolerance() * std::fmax(1.0, std::fabs(b)); }
struct SurvivalScope {
  SurvivalScope() { gSurvival = true; }
  ~SurvivalScope() { gSurvival = false; }
};

enum class PriorCase { None, Laplace, Normal, PerCovariate, Excluded, Fixed };

std::string priorCaseName(PriorCase p) {
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
void makePriors(PriorCase which, const Dataset& data, std::vector<CoordinatePrior>* prior,
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

CycleState initialState(const std::vector<CoordinatePrior>& prior, const std::vector<unsigned char>& fixed,
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

CyclePlan planFor(const Dataset& data) {
  CyclePlan plan;
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    plan.coordinates.push_back(static_cast<std::int32_t>(j));
    if (data.design.columns[j].kind == ColumnKind::Intercept) plan.follower = static_cast<std::int32_t>(j);
  }
  return plan;
}

// Runs `cycles` cycles on both runners from the same state; every cycle's coefficients,
// bounds, moves and readouts must agree.
void expectSameCycles(const Dataset& data, const double* weights, const std::vector<CoordinatePrior>& prior,
                      const std::vector<unsigned char>& fixed, bool blockNewton, int cycles,
                      const std::string& what, bool extrapolate = true) {
  auto cpu = makeCycleRunner(parseComputeDevice("cpu"), data, weights);
  auto device = makeCycleRunner(parseComputeDevice(kDevice), data, weights);
  CycleState a = initialState(prior, fixed, data, blockNewton);
  a.extrapolate = extrapolate;
  CycleState b = a;
  const CyclePlan plan = planFor(data);
  const CycleReadout ra0 = cpu->reset(a), rb0 = device->reset(b);
  ASSERT_TRUE(close(rb0.logLikelihood, ra0.logLikelihood)) << what;
  const ReadoutNeeds needs;
  for (int c = 0; c < cycles; ++c) {
    const CycleReadout ra = cpu->runCycle(a, plan, needs);
    const CycleReadout rb = device->runCycle(b, plan, needs);
    const std::string at = what + ", cycle " + std::to_string(c + 1);
    // A step that is exactly 0 on one side can be rounding noise on the other (tree sums).
    if (serialSums()) EXPECT_EQ(rb.coordinatesMoved, ra.coordinatesMoved) << at;
    EXPECT_TRUE(close(rb.logLikelihood, ra.logLikelihood)) << at << ": " << rb.logLikelihood << " vs " << ra.logLikelihood;
    EXPECT_TRUE(close(rb.weightedOutcomeEta, ra.weightedOutcomeEta)) << at << ": " << rb.weightedOutcomeEta << " vs " << ra.weightedOutcomeEta;
    EXPECT_TRUE(close(rb.sumAbsEta, ra.sumAbsEta)) << at;
    // A difference of two nearly equal etas: on the scale of eta itself.
    EXPECT_LE(std::fabs(rb.sumAbsEtaChange - ra.sumAbsEtaChange), tolerance() * std::fmax(1.0, ra.sumAbsEta)) << at;
    for (std::size_t j = 0; j < a.beta.size(); ++j) {
      EXPECT_TRUE(close(b.beta[j], a.beta[j])) << at << ", beta " << j << ": " << b.beta[j] << " vs " << a.beta[j];
      EXPECT_TRUE(close(b.bound[j], a.bound[j])) << at << ", bound " << j;
    }
  }
  const OptimalityReport oa = cpu->checkOptimality(a), ob = device->checkOptimality(b);
  if (serialSums()) EXPECT_EQ(ob.worst, oa.worst) << what;
  // Tree sums: the violation is a gradient near 0, so compare it on the certificate's scale.
  if (serialSums()) EXPECT_TRUE(close(ob.maxViolation, oa.maxViolation)) << what;
  else EXPECT_NEAR(ob.maxViolation, oa.maxViolation, 1e-6) << what;
  const std::vector<double> ea = cpu->linearPredictor(), eb = device->linearPredictor();
  ASSERT_EQ(ea.size(), eb.size());
  for (std::size_t r = 0; r < ea.size(); ++r) EXPECT_TRUE(close(eb[r], ea[r])) << what << ", eta " << r;
}

// A whole fit through fitCcd on both devices.
void expectSameFit(const Dataset& data, const double* weights, const std::vector<CoordinatePrior>& prior,
                   const std::vector<unsigned char>& fixed, const std::string& what) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior = prior;
  req.fixed = fixed;
  const FitResult cpu = fitCcd(req);
  req.device = parseComputeDevice(kDevice);
  const FitResult device = fitCcd(req);
  EXPECT_EQ(fitStatusName(device.status), fitStatusName(cpu.status)) << what;
  if (serialSums()) EXPECT_EQ(device.iterations, cpu.iterations) << what;
  EXPECT_TRUE(close(device.logLikelihood, cpu.logLikelihood)) << what;
  ASSERT_EQ(device.beta.size(), cpu.beta.size());
  for (std::size_t j = 0; j < cpu.beta.size(); ++j)
    EXPECT_TRUE(close(device.beta[j], cpu.beta[j])) << what << ", beta " << j << ": " << device.beta[j] << " vs " << cpu.beta[j];
  EXPECT_EQ(device.aliased, cpu.aliased) << what;
}

const std::vector<ModelType>& glmModels() {
  static const std::vector<ModelType> models = {ModelType::LeastSquares, ModelType::Logistic,
                                                ModelType::Poisson};
  return models;
}

// The models with a device runner: the GLMs and the conditional models (clr with Breslow ties,
// the test problems' default).
const std::vector<ModelType>& deviceModels() {
  static const std::vector<ModelType> models = {
      ModelType::LeastSquares,        ModelType::Logistic,           ModelType::Poisson,
      ModelType::ConditionalLogistic, ModelType::ConditionalPoisson, ModelType::SelfControlledCaseSeries};
  return models;
}

// ---- every GLM x prior case, all column kinds (intercept, indicator, sparse, dense) ----

struct ModelPrior {
  ModelType model;
  PriorCase prior;
};

void PrintTo(const ModelPrior& p, std::ostream* os) {
  *os << modelTypeName(p.model) << "/" << priorCaseName(p.prior);
}

class DeviceGlmCycles : public ::testing::TestWithParam<ModelPrior> {};

TEST_P(DeviceGlmCycles, FirstCyclesMatchTheCpuWithAndWithoutTheBlockStep) {
  ProblemSpec spec;
  spec.model = GetParam().model;
  auto p = makeProblem(spec);
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(GetParam().prior, p->data, &prior, &fixed);
  const std::string what = modelTypeName(spec.model) + "/" + priorCaseName(GetParam().prior);
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, /*blockNewton=*/false, 6, what + " sweep only");
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, /*blockNewton=*/true, 4, what + " with block");
}

TEST_P(DeviceGlmCycles, ConvergedFitMatchesTheCpu) {
  ProblemSpec spec;
  spec.model = GetParam().model;
  spec.seed = 7;
  auto p = makeProblem(spec);
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(GetParam().prior, p->data, &prior, &fixed);
  expectSameFit(p->data, p->weightPtr(), prior, fixed,
                modelTypeName(spec.model) + "/" + priorCaseName(GetParam().prior));
}

std::vector<ModelPrior> allModelPriors() {
  std::vector<ModelPrior> out;
  for (ModelType m : deviceModels())
    for (PriorCase p : {PriorCase::None, PriorCase::Laplace, PriorCase::Normal, PriorCase::PerCovariate,
                        PriorCase::Excluded, PriorCase::Fixed})
      out.push_back({m, p});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Glm, DeviceGlmCycles, ::testing::ValuesIn(allModelPriors()),
                         [](const ::testing::TestParamInfo<ModelPrior>& info) {
                           return modelTypeName(info.param.model) + "_" + priorCaseName(info.param.prior);
                         });

// ---- one column kind at a time, many columns (no block: the follower and the sweep alone) ----

struct ModelKind {
  ModelType model;
  ColumnKind kind;
};

void PrintTo(const ModelKind& p, std::ostream* os) {
  *os << modelTypeName(p.model) << "/" << columnKindName(p.kind);
}

class DeviceGlmColumnKinds : public ::testing::TestWithParam<ModelKind> {};

TEST_P(DeviceGlmColumnKinds, WideDesignOfOneKindMatchesTheCpu) {
  ProblemSpec spec;
  spec.model = GetParam().model;
  spec.nRows = 400;
  spec.density = 0.08;
  spec.kinds.assign(40, GetParam().kind);  // above BlockNewton::kMaxColumns
  if (!isConditional(spec.model)) spec.kinds.insert(spec.kinds.begin(), ColumnKind::Intercept);
  auto p = makeProblem(spec);
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(PriorCase::Laplace, p->data, &prior, &fixed);
  const std::string what = modelTypeName(spec.model) + "/" + columnKindName(GetParam().kind);
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, true, 5, what);
  expectSameFit(p->data, p->weightPtr(), prior, fixed, what);
}

std::vector<ModelKind> allModelKinds() {
  std::vector<ModelKind> out;
  for (ModelType m : deviceModels())
    for (ColumnKind k : {ColumnKind::Indicator, ColumnKind::Sparse, ColumnKind::Dense})
      out.push_back({m, k});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Glm, DeviceGlmColumnKinds, ::testing::ValuesIn(allModelKinds()),
                         [](const ::testing::TestParamInfo<ModelKind>& info) {
                           return modelTypeName(info.param.model) + "_" + columnKindName(info.param.kind);
                         });

// ---- edge cases ----

// At the optimum every step is 0: the device skips the entry updates and moves nothing.
TEST(DeviceRunner, ZeroStepsMoveNothing) {
  for (ModelType m : deviceModels()) {
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, p->data, &prior, &fixed);
    FitRequest req;
    req.data = &p->data;
    req.weights = p->weightPtr();
    req.prior = prior;
    req.control.tolerance = 1e-14;
    req.control.maxIterations = 2000;
    const FitResult fit = fitCcd(req);
    auto device = makeCycleRunner(parseComputeDevice(kDevice), p->data, p->weightPtr());
    CycleState s = initialState(prior, fixed, p->data, false);
    s.beta = fit.beta;
    s.bound.assign(s.beta.size(), 0.0);  // a zero trust region: every step is clipped to 0
    device->reset(s);
    const CycleReadout r = device->runCycle(s, planFor(p->data), ReadoutNeeds{});
    EXPECT_EQ(r.coordinatesMoved, 0) << modelTypeName(m);
    for (std::size_t j = 0; j < s.beta.size(); ++j) EXPECT_EQ(s.beta[j], fit.beta[j]) << modelTypeName(m);
  }
}

// A column without entries, a one-row column and a constant column next to the intercept.
TEST(DeviceRunner, EmptyAndDegenerateColumnsMatchTheCpu) {
  for (ModelType m : glmModels()) {
    std::vector<double> y = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1};
    if (m == ModelType::Poisson) y = {2, 0, 1, 3, 0, 1, 4, 0, 1, 2};
    HandDesign d(m, y);
    d.addIntercept();
    d.addColumn(ColumnKind::Indicator, std::vector<double>(10, 0.0));  // empty
    d.addColumn(ColumnKind::Sparse, {0, 0, 0, 2.5, 0, 0, 0, 0, 0, 0});  // one row
    d.addColumn(ColumnKind::Dense, {1.2, -0.3, 0.8, 2.0, -1.1, 0.1, 0.6, -0.7, 1.5, 0.2});
    const Dataset& data = d.finish();
    std::vector<CoordinatePrior> prior(4, CoordinatePrior{PriorKind::Normal, 1.0});
    prior[0] = CoordinatePrior{};
    const std::vector<unsigned char> fixed(4, 0);
    expectSameCycles(data, nullptr, prior, fixed, true, 5, modelTypeName(m) + " degenerate");
    expectSameFit(data, nullptr, prior, fixed, modelTypeName(m) + " degenerate");
  }
}

// Offsets that put eta far out (exp(eta) near overflow for lr, large means for pr).
TEST(DeviceRunner, ExtremeEtaMatchesTheCpu) {
  for (ModelType m : {ModelType::Logistic, ModelType::Poisson}) {
    ProblemSpec spec;
    spec.model = m;
    spec.offsets = false;
    auto p = makeProblem(spec);
    std::vector<double> offset(static_cast<std::size_t>(p->data.nRows()));
    for (std::size_t r = 0; r < offset.size(); ++r) offset[r] = (r % 2 ? 1.0 : -1.0) * (m == ModelType::Logistic ? 40.0 : 6.0);
    Dataset data = p->data;
    data.outcomes.offset = offset.data();
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, data, &prior, &fixed);
    expectSameCycles(data, p->weightPtr(), prior, fixed, true, 4, modelTypeName(m) + " extreme eta");
  }
}

// The aliased columns (identifiability check at the start of a fit) are the CPU's.
TEST(DeviceRunner, AliasedColumnsMatchTheCpu) {
  HandDesign d(ModelType::Logistic, {1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1});
  d.addIntercept();
  const std::vector<double> x = {0.5, 1.5, -0.2, 0.9, 1.1, -1.0, 0.3, 0.7, 2.0, -0.4, 0.0, 1.2};
  std::vector<double> twice(x.size());
  for (std::size_t r = 0; r < x.size(); ++r) twice[r] = 2.0 * x[r];
  d.addColumn(ColumnKind::Dense, x);
  d.addColumn(ColumnKind::Dense, twice);
  const Dataset& data = d.finish();
  const std::vector<CoordinatePrior> prior(3);
  const std::vector<unsigned char> fixed(3, 0);
  auto cpu = makeCycleRunner(parseComputeDevice("cpu"), data, nullptr);
  auto device = makeCycleRunner(parseComputeDevice(kDevice), data, nullptr);
  CycleState s = initialState(prior, fixed, data, true);
  cpu->reset(s);
  device->reset(s);
  EXPECT_EQ(device->aliasedColumns(s), cpu->aliasedColumns(s));
  EXPECT_EQ(device->aliasedColumns(s), (std::vector<std::int32_t>{2}));
  expectSameFit(data, nullptr, prior, fixed, "aliased");
}

// gradHess on the device equals the CPU's for every column kind, before and after a reset.
TEST(DeviceRunner, GradientAndHessianMatchTheCpu) {
  for (ModelType m : deviceModels()) {
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    auto cpu = makeCycleRunner(parseComputeDevice("cpu"), p->data, p->weightPtr());
    auto device = makeCycleRunner(parseComputeDevice(kDevice), p->data, p->weightPtr());
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::None, p->data, &prior, &fixed);
    CycleState s = initialState(prior, fixed, p->data, false);
    for (std::size_t j = 0; j < s.beta.size(); ++j) s.beta[j] = 0.1 * static_cast<double>(j) - 0.2;
    cpu->reset(s);
    device->reset(s);
    for (std::int32_t j = 0; j < static_cast<std::int32_t>(s.beta.size()); ++j) {
      const GradHess a = cpu->gradHess(j), b = device->gradHess(j);
      EXPECT_TRUE(close(b.g, a.g)) << modelTypeName(m) << " g " << j;
      EXPECT_TRUE(close(b.h, a.h)) << modelTypeName(m) << " h " << j;
    }
  }
}

// Conditional models: one-row strata, a stratum without events and offsets near exp()'s
// overflow (u is kept relative to each stratum's largest eta).
TEST(DeviceRunner, ConditionalEdgeCasesMatchTheCpu) {
  for (ModelType m : {ModelType::ConditionalPoisson, ModelType::ConditionalLogistic,
                      ModelType::SelfControlledCaseSeries}) {
    const std::vector<double> y = {1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0};
    HandDesign d(m, y);
    d.addColumn(ColumnKind::Indicator, {1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1});
    d.addColumn(ColumnKind::Sparse, {0.5, 1.5, 0, 2.0, 0, 0.7, 1.1, 0, 0, 3.0, 0});
    d.addColumn(ColumnKind::Dense, {1.2, -0.3, 0.8, 2.0, -1.1, 0.1, 0.6, -0.7, 1.5, 0.2, 0.9});
    d.setStrata({0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 4});  // stratum 1: one row; 4: no event
    if (m != ModelType::ConditionalLogistic) d.time = {1, 2, 1, 3, 1, 1, 2, 2, 1, 1, 2};
    const Dataset& data = d.finish();
    std::vector<double> offset = {800, 801, 799, 0, -700, -699, 5, 6, 4, 0, 1};
    Dataset shifted = data;
    shifted.outcomes.offset = offset.data();
    const std::vector<CoordinatePrior> prior(3, CoordinatePrior{PriorKind::Normal, 1.0});
    const std::vector<unsigned char> fixed(3, 0);
    expectSameCycles(data, nullptr, prior, fixed, true, 5, modelTypeName(m) + " edge strata");
    expectSameCycles(shifted, nullptr, prior, fixed, true, 5, modelTypeName(m) + " extreme offsets");
    expectSameFit(shifted, nullptr, prior, fixed, modelTypeName(m) + " extreme offsets");
  }
}

// Models without a device runner yet say so; they never fall back to the CPU silently.
TEST(DeviceRunner, UnsupportedModelsAreAClearError) {
  auto expectRefused = [](const Dataset& data, const std::string& what) {
    try {
      makeCycleRunner(parseComputeDevice(kDevice), data, nullptr);
      ADD_FAILURE() << what << " did not throw";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("not implemented"), std::string::npos) << e.what();
    }
  };
  for (const testing_data::SurvivalCase& c : testing_data::survivalCases()) {
    if (!c.spec.countingProcess) continue;
    auto p = testing_data::makeSurvivalProblem(c.spec);
    expectRefused(p->data, c.name);
  }
  ProblemSpec spec;
  spec.model = ModelType::ConditionalLogistic;
  auto p = makeProblem(spec);
  for (TieMethod ties : {TieMethod::Efron, TieMethod::Exact}) {
    Dataset data = p->data;
    data.ties = ties;
    expectRefused(data, "clr ties");
  }
}

// ---- survival models (cox: Breslow, Efron, strata, weights; fgr: censoring per stratum,
// user-supplied G), every case of the survival suite but counting-process data ----

struct SurvivalPrior {
  std::size_t caseIndex;
  PriorCase prior;
};

std::vector<SurvivalPrior> survivalPriors() {
  std::vector<SurvivalPrior> out;
  const auto cases = testing_data::survivalCases();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].spec.countingProcess) continue;
    for (PriorCase p : {PriorCase::None, PriorCase::Laplace, PriorCase::PerCovariate}) out.push_back({i, p});
  }
  return out;
}

std::string survivalName(const SurvivalPrior& p) {
  std::string name = testing_data::survivalCases()[p.caseIndex].name + "_" + priorCaseName(p.prior);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

void PrintTo(const SurvivalPrior& p, std::ostream* os) { *os << survivalName(p); }

class DeviceSurvival : public ::testing::TestWithParam<SurvivalPrior> {};

TEST_P(DeviceSurvival, CyclesAndFitMatchTheCpu) {
  SurvivalScope scope;
  const testing_data::SurvivalCase c = testing_data::survivalCases()[GetParam().caseIndex];
  auto p = testing_data::makeSurvivalProblem(c.spec);
  std::vector<CoordinatePrior> prior;
  std::vector<unsigned char> fixed;
  makePriors(GetParam().prior, p->data, &prior, &fixed);
  const std::string what = survivalName(GetParam());
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, false, 5, what + " sweep only");
  expectSameCycles(p->data, p->weightPtr(), prior, fixed, true, 4, what + " with block");
  expectSameFit(p->data, p->weightPtr(), prior, fixed, what);
}

INSTANTIATE_TEST_SUITE_P(Survival, DeviceSurvival, ::testing::ValuesIn(survivalPriors()),
                         [](const ::testing::TestParamInfo<SurvivalPrior>& info) { return survivalName(info.param); });

// Many chunks per column (N = 3000 in 3 strata, chunks of 16 entries): merging the chunks'
// partial sums carries each stratum's prefix sums across them; with Breslow's integer times
// (about 40 rows a day) chunks split a slot's entries, and a step's slot sums are settled
// across chunks (device_survival_chunks.h).
TEST(DeviceRunner, SurvivalAcrossManyChunksMatchesTheCpu) {
  SurvivalScope scope;
  for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron}) {
      if (m == ModelType::FineGray && ties == TieMethod::Efron) continue;
      testing_data::SurvivalSpec spec;
      spec.model = m;
      spec.ties = ties;
      spec.nRows = 3000;
      spec.nStrata = 3;
      spec.integerTimes = ties == TieMethod::Breslow;
      auto p = testing_data::makeSurvivalProblem(spec);
      std::vector<CoordinatePrior> prior;
      std::vector<unsigned char> fixed;
      makePriors(PriorCase::Normal, p->data, &prior, &fixed);
      const std::string what = modelTypeName(m) + (ties == TieMethod::Efron ? " efron" : " breslow");
      // Without the cycle extrapolation: whether it accepts its step is a comparison of two
      // nearly equal objectives, which the two sides' rounding (many chunks against the
      // CPU's two) may decide differently (Cox Breslow here, cycle 4). The extrapolation
      // itself is host code, compared on the other cases.
      expectSameCycles(p->data, p->weightPtr(), prior, fixed, false, 4, what + " many chunks", false);
      auto cpu = makeCycleRunner(parseComputeDevice("cpu"), p->data, p->weightPtr());
      auto device = makeCycleRunner(parseComputeDevice(kDevice), p->data, p->weightPtr());
      CycleState s = initialState(prior, fixed, p->data, false);
      for (std::size_t j = 0; j < s.beta.size(); ++j) s.beta[j] = 0.05 * static_cast<double>(j) - 0.1;
      cpu->reset(s);
      device->reset(s);
      for (std::int32_t j = 0; j < static_cast<std::int32_t>(s.beta.size()); ++j) {
        const GradHess a = cpu->gradHess(j), b = device->gradHess(j);
        EXPECT_TRUE(close(b.g, a.g)) << what << " g " << j << ": " << b.g << " vs " << a.g;
        EXPECT_TRUE(close(b.h, a.h)) << what << " h " << j;
      }
    }
  }
}

// The memory estimate covers what each device model holds (its vectors' sizes, measured
// after a sweep has allocated the coefficients), with the design as stored.
TEST(DeviceRunner, MemoryEstimateCoversWhatTheModelsHold) {
  if (std::string(kDevice) != "emulated") GTEST_SKIP() << "measured on the emulated device";
  for (ModelType m : deviceModels()) {
    for (const std::vector<ColumnKind>& kinds :
         {std::vector<ColumnKind>{}, std::vector<ColumnKind>(12, ColumnKind::Dense),
          std::vector<ColumnKind>(12, ColumnKind::Indicator)}) {
      ProblemSpec spec;
      spec.model = m;
      spec.nRows = 3000;
      spec.kinds = kinds;
      auto p = makeProblem(spec);
      std::unique_ptr<DeviceModel> model = makeEmulatedModel(p->data, p->weightPtr());
      std::vector<CoordinatePrior> prior;
      std::vector<unsigned char> fixed;
      makePriors(PriorCase::Normal, p->data, &prior, &fixed);
      CycleState state = initialState(prior, fixed, p->data, false);
      model->reset(state.beta);
      model->sweep(state, planFor(p->data));
      // 64 MiB of the estimate is CUB's scratch, which the emulated device does not hold.
      const double estimate = deviceBytesNeeded(p->data) - 64.0 * 1048576.0;
      EXPECT_GE(estimate, model->deviceBytes()) << modelTypeName(m) << " " << kinds.size();
      EXPECT_LE(estimate, 3.0 * model->deviceBytes()) << modelTypeName(m) << " " << kinds.size();
    }
  }
  for (const testing_data::SurvivalCase& c : testing_data::survivalCases()) {
    if (c.spec.countingProcess) continue;
    testing_data::SurvivalSpec spec = c.spec;
    spec.nRows = 3000;
    auto p = testing_data::makeSurvivalProblem(spec);
    std::unique_ptr<DeviceModel> model = makeEmulatedModel(p->data, p->weightPtr());
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, p->data, &prior, &fixed);
    CycleState state = initialState(prior, fixed, p->data, false);
    model->reset(state.beta);
    model->sweep(state, planFor(p->data));
    const double estimate = deviceBytesNeeded(p->data) - 64.0 * 1048576.0;
    EXPECT_GE(estimate, model->deviceBytes()) << c.name;
    EXPECT_LE(estimate, 3.0 * model->deviceBytes()) << c.name;
  }
}

// The per-coordinate interface of a device model (gradHess, applyStep, the follower's
// estimate) driven by the CPU's host loop gives the CPU's coefficients: the calls a device
// sweep does not make are right too.
TEST(DeviceRunner, HostSweepOverADeviceModelMatchesTheCpu) {
  if (std::string(kDevice) != "emulated") GTEST_SKIP() << "drives the emulated model";
  for (ModelType m : deviceModels()) {
    ProblemSpec spec;
    spec.model = m;
    auto p = makeProblem(spec);
    std::unique_ptr<DeviceModel> device = makeEmulatedModel(p->data, p->weightPtr());
    std::unique_ptr<Likelihood> cpu = makeLikelihood(p->data, p->weightPtr());
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Laplace, p->data, &prior, &fixed);
    CycleState a = initialState(prior, fixed, p->data, false), b = a;
    cpu->reset(a.beta);
    device->reset(b.beta);
    HostCoordinateSweep cpuSweep(*cpu), deviceSweep(*device);
    const CyclePlan plan = planFor(p->data);
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(deviceSweep.sweep(b, plan), cpuSweep.sweep(a, plan)) << modelTypeName(m);
      cpu->refreshSums();
      device->refreshSums();
      for (std::size_t j = 0; j < a.beta.size(); ++j)
        EXPECT_TRUE(close(b.beta[j], a.beta[j])) << modelTypeName(m) << " beta " << j;
      EXPECT_TRUE(close(device->logLikelihood(), cpu->logLikelihood())) << modelTypeName(m);
    }
  }
}

TEST(DeviceRunner, EmulatedDeviceIsBuiltAndNamed) {
  if (std::string(kDevice) != "emulated") GTEST_SKIP() << "testing " << kDevice;
  EXPECT_TRUE(builtWithEmulatedDevice());
  EXPECT_TRUE(emulatedDeviceSystem() == "cpp" || emulatedDeviceSystem() == "omp");
  EXPECT_EQ(computeDeviceName(parseComputeDevice("emulated")), "emulated");
}

}  // namespace
}  // namespace argus
