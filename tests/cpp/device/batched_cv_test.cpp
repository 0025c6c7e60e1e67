// Fold fits as a batch on the device (solver/batched_start.h, device/batched_steps.h): the
// member index a dimension of the bound's state, each pass over X serving every fold of a
// batch. Each member ends certified on its own weights, at the CPU's optimum; a
// cross-validation whose fits take the start always runs its folds so and chooses the CPU's
// variance on lr, cox and clr; a batch gives the same bits twice (on a GPU too).
#include <cstring>

#include "clr_test_data.h"
#include "device_test_support.h"
#include "selection/cross_validation.h"
#include "selection/folds.h"
#include "solver/batched_start.h"

namespace argus {
namespace {

using namespace device_test;

struct BatchCase {
  std::string name;
  std::shared_ptr<void> keep;
  const Dataset* data;
  const double* weights;
};

std::vector<BatchCase> batchCases() {
  std::vector<BatchCase> out;
  for (ModelType m : {ModelType::Logistic, ModelType::ConditionalLogistic, ModelType::SelfControlledCaseSeries}) {
    std::shared_ptr<testing_data::TestProblem> p = makeProblem({m});
    out.push_back({modelTypeName(m), p, &p->data, p->weightPtr()});
  }
  testing_data::SurvivalSpec cox;
  cox.nRows = 300;
  cox.nStrata = 2;
  std::shared_ptr<testing_data::SurvivalProblem> s = testing_data::makeSurvivalProblem(cox);
  out.push_back({"cox strata", s, &s->data, s->weightPtr()});
  testing_data::SurvivalSpec fgr;
  fgr.model = ModelType::FineGray;
  fgr.nRows = 300;
  fgr.integerTimes = false;
  std::shared_ptr<testing_data::SurvivalProblem> f = testing_data::makeSurvivalProblem(fgr);
  out.push_back({"fgr continuous", f, &f->data, f->weightPtr()});
  return out;
}

FitRequest laplaceRequest(const Dataset& data, const double* weights, const char* device) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(data.design.nColumns(), {PriorKind::Laplace, 1.0});
  for (std::size_t j = 0; j < data.design.nColumns(); ++j)
    if (data.design.columns[j].kind == ColumnKind::Intercept) req.prior[j] = {PriorKind::None, 1.0};
  req.device = parseComputeDevice(device);
  req.control.majorizedStart = MajorizedStartRule::Always;
  return req;
}

// `members` weight vectors: the user's weights with every k-th row (a fold) held out.
std::vector<std::vector<double>> foldWeightsOf(const BatchCase& c, int members) {
  std::vector<std::vector<double>> out(members);
  for (int m = 0; m < members; ++m) {
    out[m].resize(static_cast<std::size_t>(c.data->nRows()));
    for (std::int64_t r = 0; r < c.data->nRows(); ++r)
      out[m][r] = (r % members == m) ? 0.0 : (c.weights ? c.weights[r] : 1.0);
  }
  return out;
}

// Every member of a batch (20 folds: two chunks of lanes) is certified and equals the CPU's
// exact-cycle fit of its own weights to the certificate's precision.
TEST(BatchedFits, EveryMemberEqualsTheCpusFitOfItsWeights) {
  for (const BatchCase& c : batchCases()) {
    const std::vector<std::vector<double>> w = foldWeightsOf(c, 20);
    std::vector<const double*> weights;
    for (const auto& v : w) weights.push_back(v.data());
    FitRequest req = laplaceRequest(*c.data, c.weights, kDevice);
    auto batch = makeBatchedBoundSteps(req.device, *c.data, weights, nullptr);
    ASSERT_NE(batch, nullptr) << c.name;
    const std::vector<FitResult> fits = fitBatch(req, weights, *batch);
    ASSERT_EQ(fits.size(), weights.size());
    int steps = 0, cycles = 0;
    for (std::size_t m = 0; m < weights.size(); ++m) {
      FitRequest cpu = laplaceRequest(*c.data, weights[m], "cpu");
      cpu.control.majorizedStart = MajorizedStartRule::Never;
      const FitResult one = fitCcd(cpu);
      const std::string what = c.name + ", member " + std::to_string(m);
      EXPECT_EQ(fitStatusName(fits[m].status), "SUCCESS") << what;
      EXPECT_GT(fits[m].majorizedSteps, 0) << what;
      for (std::size_t j = 0; j < one.beta.size(); ++j)
        EXPECT_NEAR(fits[m].beta[j], one.beta[j], 1e-5) << what << ", beta " << j;
      steps += fits[m].majorizedSteps;
      cycles += fits[m].iterations;
    }
    std::printf("[ batched ] %-16s 20 members: %d steps, %d exact cycles\n", c.name.c_str(), steps, cycles);
  }
}

// Two batches of the same fits give the same bits.
TEST(BatchedFits, TwoBatchesGiveTheSameBits) {
  for (const BatchCase& c : batchCases()) {
    const std::vector<std::vector<double>> w = foldWeightsOf(c, 5);
    std::vector<const double*> weights;
    for (const auto& v : w) weights.push_back(v.data());
    const FitRequest req = laplaceRequest(*c.data, c.weights, kDevice);
    auto a = makeBatchedBoundSteps(req.device, *c.data, weights, nullptr);
    auto b = makeBatchedBoundSteps(req.device, *c.data, weights, nullptr);
    const std::vector<FitResult> fa = fitBatch(req, weights, *a), fb = fitBatch(req, weights, *b);
    for (std::size_t m = 0; m < weights.size(); ++m)
      EXPECT_EQ(std::memcmp(fa[m].beta.data(), fb[m].beta.data(), fa[m].beta.size() * sizeof(double)), 0)
          << c.name << ", member " << m;
  }
}

// The CPU offers no batch, nor does clr with exact ties: their folds run one by one.
TEST(BatchedFits, TheCpuAndModelsWithoutABoundOfferNone) {
  auto p = makeProblem({ModelType::Logistic});
  const std::vector<const double*> weights{p->weightPtr()};
  EXPECT_EQ(makeBatchedBoundSteps(parseComputeDevice("cpu"), p->data, weights, nullptr), nullptr);
  ProblemSpec spec{ModelType::ConditionalLogistic};
  spec.weights = false;
  auto clr = makeProblem(spec);
  clr->data.ties = TieMethod::Exact;
  EXPECT_EQ(makeBatchedBoundSteps(parseComputeDevice(kDevice), clr->data, {nullptr}, nullptr), nullptr);
}

// A cross-validation whose fits take the start always runs its folds in batches on the
// device and chooses the CPU's variance (the CPU with its default control) on lr, cox and clr.
TEST(BatchedFits, CrossValidationChoosesTheCpusVariance) {
  for (const BatchCase& c : batchCases()) {
    if (c.name == "sccs" || c.name == "fgr continuous") continue;
    auto cv = [&](const char* device, MajorizedStartRule start) {
      CrossValidationRequest req;
      req.fit = laplaceRequest(*c.data, c.weights, device);
      req.fit.control.majorizedStart = start;
      FoldSettings folds;
      folds.folds = 5;
      folds.repetitions = 2;
      folds.seed = 17;
      req.folds = makeFoldPlan(*c.data, folds);
      return crossValidate(req);
    };
    const CrossValidationResult cpu = cv("cpu", MajorizedStartRule::Auto);
    const CrossValidationResult device = cv(kDevice, MajorizedStartRule::Always);
    EXPECT_NEAR(device.variance, cpu.variance, 1e-6 * cpu.variance) << c.name;
    EXPECT_NEAR(device.score, cpu.score, 1e-7 * std::fabs(cpu.score)) << c.name;
    EXPECT_EQ(device.curve.size(), cpu.curve.size()) << c.name;
    // Every candidate's 10 fold fits ran as a batch (none fell back to one by one).
    for (const CvEvaluation& e : device.curve) EXPECT_EQ(e.batchedFits, 10) << c.name << ", " << e.variance;
    for (const CvEvaluation& e : cpu.curve) EXPECT_EQ(e.batchedFits, 0) << c.name << ", " << e.variance;
    std::printf("[ batched cv ] %-8s variance %.6g (cpu %.6g), %zu candidates\n", c.name.c_str(), device.variance,
                cpu.variance, cpu.curve.size());
  }
}

}  // namespace
}  // namespace argus
