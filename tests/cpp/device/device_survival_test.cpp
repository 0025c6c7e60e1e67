// The survival device model (cox: Breslow, Efron, strata, weights, counting process; fgr:
// censoring per stratum, user-supplied G) against the CPU runner: every case of the survival
// suite, cycle by cycle and for a whole fit, and many chunks per column.
#include "device_test_support.h"

namespace argus {
namespace {

using namespace device_test;

// ---- survival models, every case of the survival suite ----

struct SurvivalPrior {
  std::size_t caseIndex;
  PriorCase prior;
};

std::vector<SurvivalPrior> survivalPriors() {
  std::vector<SurvivalPrior> out;
  const auto cases = testing_data::survivalCases();
  for (std::size_t i = 0; i < cases.size(); ++i) {
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

// A linear predictor spanning 600 within each stratum, falling with time (late risk sets hold
// only rows 600 below the top): the shift is riskSetShift's midpoint, reduced on the device by
// a segmented max and min; cycles and whole fits as on the CPU.
TEST(DeviceRunner, SurvivalWithALinearPredictorSpanning600MatchesTheCpu) {
  SurvivalScope survival;
  for (const auto& c : testing_data::survivalCases()) {
    auto p = testing_data::makeSurvivalProblem(c.spec);
    p->setOffsetsSpanning(600.0);
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Normal, p->data, &prior, &fixed);
    expectSameCycles(p->data, p->weightPtr(), prior, fixed, true, 3, c.name + " spanning 600");
  }
}

// Many chunks per column (N = 3000 in 3 strata, chunks of 16 items): merging the chunks'
// partial sums carries each stratum's prefix sums across them; with Breslow's integer times
// (about 40 rows a day) chunks split a slot's entries, and a step's slot sums are settled
// across chunks (device_survival_chunks.h); with counting-process data entries and exits
// interleave within and across chunks.
// The majorized start (solver/majorized_start.h) reads row scores from the device: they
// match the CPU's, and a fit that takes the start (on the device, all-coordinates steps on
// the same bound) reaches the same optimum.
TEST(DeviceRunner, SurvivalRowScoresAndTheMajorizedStartMatchTheCpu) {
  SurvivalScope survival;
  for (const auto& c : testing_data::survivalCases()) {
    auto p = testing_data::makeSurvivalProblem(c.spec);
    auto cpu = makeCycleRunner(parseComputeDevice("cpu"), p->data, p->weightPtr());
    auto device = makeCycleRunner(parseComputeDevice(kDevice), p->data, p->weightPtr());
    CycleState st;
    st.beta = p->randomBeta(0.5);
    st.bound.assign(p->nColumns(), 1.0);
    st.prior.assign(p->nColumns(), CoordinatePrior{});
    st.fixed.assign(p->nColumns(), 0);
    cpu->reset(st);
    device->reset(st);
    std::vector<double> sa, ca, sb, cb;
    ASSERT_TRUE(cpu->rowScores(&sa, &ca));
    ASSERT_TRUE(device->rowScores(&sb, &cb)) << c.name;
    ASSERT_EQ(sb.size(), sa.size());
    for (std::size_t r = 0; r < sa.size(); ++r) {
      EXPECT_TRUE(close(sb[r], sa[r])) << c.name << ", score " << r << ": " << sb[r] << " vs " << sa[r];
      EXPECT_TRUE(close(cb[r], ca[r])) << c.name << ", curvature " << r;
    }
    FitRequest req;
    req.data = &p->data;
    req.weights = p->weightPtr();
    req.prior.assign(p->nColumns(), CoordinatePrior{PriorKind::Laplace, 0.5});
    req.control.majorizedStart = MajorizedStartRule::Always;
    const FitResult a = fitCcd(req);
    req.device = parseComputeDevice(kDevice);
    const FitResult b = fitCcd(req);
    // The device takes the start's steps as all-coordinates steps (device/all_coordinates_
    // steps.h), the CPU as sweeps: other paths, so other step counts; both fits are certified
    // optimal, so they agree to the fit's tolerance.
    EXPECT_GT(a.majorizedSteps, 0) << c.name;
    EXPECT_GT(b.majorizedSteps, 0) << c.name;
    EXPECT_EQ(fitStatusName(b.status), fitStatusName(a.status)) << c.name;
    for (std::size_t j = 0; j < a.beta.size(); ++j)
      EXPECT_NEAR(b.beta[j], a.beta[j], 1e-5) << c.name << ", beta " << j;
  }
}

TEST(DeviceRunner, SurvivalAcrossManyChunksMatchesTheCpu) {
  SurvivalScope scope;
  for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron})
    for (bool counting : {false, true})
    for (bool longSlots : {false, true}) {
      if (m == ModelType::FineGray && (ties == TieMethod::Efron || counting)) continue;
      // Long slots (2 days, one stratum): Breslow's dense columns cross cuts over more pieces
      // than a step walks, so their steps scan the pieces (SurvivalStepPieces checks which).
      if (longSlots && (m != ModelType::Cox || ties != TieMethod::Breslow)) continue;
      testing_data::SurvivalSpec spec;
      spec.model = m;
      spec.ties = ties;
      spec.nRows = 3000;
      spec.nStrata = longSlots ? 1 : 3;
      if (longSlots) spec.days = 2;
      spec.integerTimes = ties == TieMethod::Breslow || counting;  // counting: Efron with ties too
      spec.countingProcess = counting;
      auto p = testing_data::makeSurvivalProblem(spec);
      std::vector<CoordinatePrior> prior;
      std::vector<unsigned char> fixed;
      makePriors(PriorCase::Normal, p->data, &prior, &fixed);
      const std::string what = modelTypeName(m) + (ties == TieMethod::Efron ? " efron" : " breslow") +
                               (counting ? " counting" : "") + (longSlots ? " long slots" : "");
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

// A Cox stratum without events is kept (data/row_plan.h): its rows sit in risk sets that no
// event reads, and only its base slot. Cycles and a whole fit as on the CPU, Breslow and
// Efron, with counting-process rows too.
TEST(DeviceRunner, CoxStratumWithoutEventsMatchesTheCpu) {
  SurvivalScope scope;
  for (TieMethod ties : {TieMethod::Breslow, TieMethod::Efron})
    for (bool counting : {false, true}) {
      testing_data::SurvivalSpec spec;
      spec.ties = ties;
      spec.nRows = 600;
      spec.nStrata = 3;
      spec.countingProcess = counting;
      auto p = testing_data::makeSurvivalProblem(spec);
      for (std::int64_t r = p->stratumStart[1]; r < p->stratumStart[2]; ++r) p->y[r] = 0.0;
      std::vector<CoordinatePrior> prior;
      std::vector<unsigned char> fixed;
      makePriors(PriorCase::Normal, p->data, &prior, &fixed);
      const std::string what = std::string(ties == TieMethod::Efron ? "efron" : "breslow") +
                               (counting ? " counting" : "") + ", a stratum without events";
      expectSameCycles(p->data, p->weightPtr(), prior, fixed, false, 4, what);
      expectSameFit(p->data, p->weightPtr(), prior, fixed, what);
    }
}

// Refreshes longer than two scan tiles (more than 4,096 slots: continuous times on 20,000
// rows) take the three-launch scans on CUB. They match the CPU, and a fit repeated on the
// device gives the same bits: CUB's own DeviceScan, which such refreshes used before, groups a
// sum by which tiles have published (cub_primitives.cuh), so the same fit on a GPU took 17 or
// 18 cycles from one run to the next. Only a GPU can fail the repeat (the emulated device sums
// in a fixed order).
TEST(DeviceRunner, SurvivalOverManyScanTilesRepeatsToTheBit) {
  SurvivalScope scope;
  for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    testing_data::SurvivalSpec spec;
    spec.model = m;
    spec.nRows = 20000;
    spec.nStrata = m == ModelType::Cox ? 2 : 1;
    spec.integerTimes = false;
    auto p = testing_data::makeSurvivalProblem(spec);
    const std::string what = modelTypeName(m) + " over many scan tiles";
    std::int64_t events = 0;
    for (std::int64_t r = 0; r < p->data.nRows(); ++r) events += p->data.outcomes.y[r] == 1.0;
    ASSERT_GT(events, 3 * 2048) << what;  // distinct times: a slot each, beyond three tiles
    std::vector<CoordinatePrior> prior;
    std::vector<unsigned char> fixed;
    makePriors(PriorCase::Laplace, p->data, &prior, &fixed);
    expectSameCycles(p->data, p->weightPtr(), prior, fixed, false, 3, what, false);
    FitRequest req;
    req.data = &p->data;
    req.weights = p->weightPtr();
    req.prior = prior;
    req.fixed = fixed;
    req.control.majorizedStart = MajorizedStartRule::Never;
    req.device = parseComputeDevice(kDevice);
    const FitResult a = fitCcd(req), b = fitCcd(req);
    EXPECT_EQ(fitStatusName(a.status), "SUCCESS") << what;
    EXPECT_EQ(b.iterations, a.iterations) << what;
    EXPECT_EQ(b.logLikelihood, a.logLikelihood) << what;
    ASSERT_EQ(b.beta.size(), a.beta.size());
    for (std::size_t j = 0; j < a.beta.size(); ++j) EXPECT_EQ(b.beta[j], a.beta[j]) << what << ", beta " << j;
  }
}

}  // namespace
}  // namespace argus
