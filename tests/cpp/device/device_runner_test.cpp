// The device runner (solver/coordinate_sweep.h) against the CPU runner: same cycles, same
// coefficients. Runs once per Thrust system of the emulated build (ctest -L device), and in a
// CUDA build on the GPU (ARGUS_DEVICE_UNDER_TEST = "cuda"; skipped without one). On the
// CPP system the sums are folded in the CPU loops' order, on OMP and CUDA in a tree, so the comparison
// is bit for bit on CPP and to 1e-9 relative on OMP (the tree's rounding, ~1e-16, grows
// through the fit's conditioning: measured up to ~1e-10 on these problems).
#include "clr_test_data.h"
#include "device_test_support.h"
#include "solver/block_newton.h"

namespace argus {
namespace {

using namespace device_test;
using testing_data::HandDesign;
using testing_data::makeProblem;
using testing_data::ProblemSpec;

const std::vector<ModelType>& glmModels() {
  static const std::vector<ModelType> models = {ModelType::LeastSquares, ModelType::Logistic,
                                                ModelType::Poisson};
  return models;
}

// The GLMs and the conditional models (clr with Breslow ties,
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
  spec.kinds.assign(BlockNewton::kMaxColumns + 8, GetParam().kind);  // wider than any block
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
    const ModelScope scope(m);
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

// The memory estimate covers what each device model holds (its vectors' sizes, measured
// after a sweep has allocated the coefficients), with the design as stored.
TEST(DeviceRunner, MemoryEstimateCoversWhatTheModelsHold) {
  if (std::string(kDevice) != "emulated") GTEST_SKIP() << "measured on the emulated device";
  auto expectCovered = [](const Dataset& data, const double* weights, const std::string& what) {
    std::unique_ptr<DeviceModel> model = makeEmulatedModel(data, weights);
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, data, &prior, &fixed);
    CycleState state = initialState(prior, fixed, data, false);
    model->reset(state.beta);
    model->sweep(state, planFor(data));
    // 64 MiB of the estimate is CUB's scratch, which the emulated device does not hold.
    const double estimate = deviceBytesNeeded(data) - 64.0 * 1048576.0;
    EXPECT_GE(estimate, model->deviceBytes()) << what;
    EXPECT_LE(estimate, 3.0 * model->deviceBytes()) << what;
  };
  for (ModelType m : deviceModels()) {
    for (const std::vector<ColumnKind>& kinds :
         {std::vector<ColumnKind>{}, std::vector<ColumnKind>(12, ColumnKind::Dense),
          std::vector<ColumnKind>(12, ColumnKind::Indicator)}) {
      ProblemSpec spec;
      spec.model = m;
      spec.nRows = 3000;
      spec.kinds = kinds;
      auto p = makeProblem(spec);
      expectCovered(p->data, p->weightPtr(), modelTypeName(m) + " " + std::to_string(kinds.size()));
    }
  }
  for (TieMethod ties : {TieMethod::Efron, TieMethod::Exact}) {
    testing_data::ClrSpec spec;
    spec.ties = ties;
    spec.strata = testing_data::mixedStrata(false);
    auto p = testing_data::makeClrProblem(spec);
    expectCovered(p->data, p->weightPtr(), "clr ties");
  }
  for (const testing_data::SurvivalCase& c : testing_data::survivalCases()) {
    testing_data::SurvivalSpec spec = c.spec;
    spec.nRows = 3000;
    auto p = testing_data::makeSurvivalProblem(spec);
    expectCovered(p->data, p->weightPtr(), c.name);
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
    const ModelScope scope(m);
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
      EXPECT_TRUE(closeReadout(device->logLikelihood(), cpu->logLikelihood())) << modelTypeName(m);
    }
  }
}

// A cycle extrapolation's step and its gain (Likelihood::stepAlongGain): the device GLMs sum
// the rows' changes in their own pass, the CPU's as it moves them.
TEST(DeviceRunner, StepAlongGainMatchesTheCpu) {
  if (std::string(kDevice) != "emulated") GTEST_SKIP() << "drives the emulated model";
  for (ModelType m : {ModelType::LeastSquares, ModelType::Logistic, ModelType::Poisson}) {
    ProblemSpec spec;
    spec.model = m;
    const ModelScope scope(m);
    auto p = makeProblem(spec);
    std::unique_ptr<DeviceModel> device = makeEmulatedModel(p->data, p->weightPtr());
    std::unique_ptr<Likelihood> cpu = makeLikelihood(p->data, p->weightPtr());
    const std::vector<double> beta = p->randomBeta(0.4);
    cpu->reset(beta);
    device->reset(beta);
    cpu->applyStep(0, -0.2);  // the intercept's shift is pending
    device->applyStep(0, -0.2);
    std::vector<double> d(static_cast<std::size_t>(p->nRows()));
    for (std::size_t r = 0; r < d.size(); ++r) d[r] = r % 5 == 0 ? 1.0 : 0.01 * static_cast<double>(r % 13) - 0.06;
    const double expected = cpu->stepAlongGain(d, 0.9);
    const double gain = device->stepAlongGain(d, 0.9);
    EXPECT_NE(expected, 0.0) << modelTypeName(m);
    EXPECT_TRUE(close(gain, expected)) << modelTypeName(m) << " " << gain << " " << expected;
    for (std::size_t r = 0; r < d.size(); ++r)
      ASSERT_TRUE(close(device->eta()[r], cpu->eta()[r])) << modelTypeName(m) << " row " << r;
    EXPECT_TRUE(closeReadout(device->logLikelihood(), cpu->logLikelihood())) << modelTypeName(m);
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
