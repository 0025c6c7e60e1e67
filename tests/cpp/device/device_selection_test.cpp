// Cross-validation and the bootstrap on the device: their fits share one device copy of the
// design (device_design.h), and give the CPU's results: the same chosen variance and curve
// (bit for bit on Thrust's CPP system for the models whose sums keep the CPU's order; to
// rounding for the survival models), the same replicates, for 1 and 3 threads.
#include <cstring>

#include "clr_test_data.h"
#include "device_test_support.h"
#include "selection/bootstrap.h"
#include "selection/cross_validation.h"

namespace argus {
namespace {

using namespace device_test;

struct SelectionCase {
  std::string name;
  std::function<std::unique_ptr<testing_data::TestProblem>()> make;
  bool survival;
};

std::vector<SelectionCase> selectionCases() {
  std::vector<SelectionCase> out;
  out.push_back({"lr", [] { return makeProblem({ModelType::Logistic}); }, false});
  out.push_back({"sccs", [] { return makeProblem({ModelType::SelfControlledCaseSeries}); }, false});
  out.push_back({"clr exact", [] {
                   testing_data::ClrSpec spec;
                   spec.strata = testing_data::mixedStrata(false);
                   for (int copy = 0; copy < 3; ++copy)
                     spec.strata.insert(spec.strata.end(), spec.strata.begin(), spec.strata.begin() + 14);
                   return testing_data::makeClrProblem(spec);
                 },
                 false});
  return out;
}

FitRequest penalized(const Dataset& data, const double* weights, PriorKind kind) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(data.design.nColumns(), {kind, 1.0});
  for (std::size_t j = 0; j < data.design.nColumns(); ++j)
    if (data.design.columns[j].kind == ColumnKind::Intercept) req.prior[j] = {PriorKind::None, 1.0};
  return req;
}

CrossValidationRequest cvRequest(const Dataset& data, const double* weights, const char* device, int threads) {
  CrossValidationRequest req;
  req.fit = penalized(data, weights, PriorKind::Laplace);
  req.fit.device = parseComputeDevice(device);
  FoldSettings folds;
  folds.folds = 4;
  folds.repetitions = 2;
  folds.seed = 31;
  req.folds = makeFoldPlan(data, folds);
  req.settings.threads = threads;
  return req;
}

bool same(double a, double b, bool survival) {
  if (!survival && serialSums()) return std::memcmp(&a, &b, sizeof a) == 0;
  return std::fabs(a - b) <= 1e-7 * std::fmax(1.0, std::fabs(b));
}

void expectSameCv(const Dataset& data, const double* weights, bool survival, const std::string& what) {
  const ModelScope scope(data.model);
  const CrossValidationResult cpu = crossValidate(cvRequest(data, weights, "cpu", 1));
  for (int threads : {1, 3}) {
    const std::int64_t before = emulatedDesignsBuilt();
    const CrossValidationResult device = crossValidate(cvRequest(data, weights, kDevice, threads));
    const std::string at = what + ", " + std::to_string(threads) + " threads";
    if (std::string(kDevice) == "emulated") EXPECT_EQ(emulatedDesignsBuilt() - before, 1) << at;
    EXPECT_TRUE(same(device.variance, cpu.variance, survival)) << at << ": " << device.variance << " vs " << cpu.variance;
    EXPECT_TRUE(same(device.score, cpu.score, survival)) << at;
    // With tree sums a search may take another path through a flat stretch of the curve (the
    // all-zero region's scores tie on the CPU to the bit, on a tree to rounding), but every
    // candidate both scored agrees, and so does the choice.
    const bool wholeCurve = !survival && serialSums();
    if (wholeCurve) ASSERT_EQ(device.curve.size(), cpu.curve.size()) << at;
    std::size_t matched = 0;
    for (const CvEvaluation& e : device.curve) {
      for (const CvEvaluation& f : cpu.curve) {
        if (!same(e.variance, f.variance, survival)) continue;
        ++matched;
        ASSERT_EQ(e.values.size(), f.values.size()) << at;
        for (std::size_t k = 0; k < f.values.size(); ++k)
          EXPECT_TRUE(same(e.values[k], f.values[k], survival))
              << at << ", variance " << f.variance << ", fold " << k << ": " << e.values[k] << " vs " << f.values[k];
      }
    }
    EXPECT_GE(matched, wholeCurve ? cpu.curve.size() : 3) << at;
  }
}

void expectSameBootstrap(const Dataset& data, const double* weights, bool survival, const std::string& what) {
  const ModelScope scope(data.model);
  BootstrapRequest req;
  req.fit = penalized(data, weights, PriorKind::Normal);
  req.replicates = 6;
  req.seed = 11;
  req.threads = 2;
  const BootstrapResult cpu = runBootstrap(req);
  req.fit.device = parseComputeDevice(kDevice);
  const std::int64_t before = emulatedDesignsBuilt();
  const BootstrapResult device = runBootstrap(req);
  if (std::string(kDevice) == "emulated") EXPECT_EQ(emulatedDesignsBuilt() - before, 1) << what;
  ASSERT_EQ(device.beta.size(), cpu.beta.size());
  for (std::size_t k = 0; k < cpu.beta.size(); ++k)
    EXPECT_TRUE(same(device.beta[k], cpu.beta[k], survival)) << what << ", beta " << k;
}

TEST(DeviceSelection, CrossValidationAndBootstrapMatchTheCpu) {
  for (const SelectionCase& c : selectionCases()) {
    auto p = c.make();
    expectSameCv(p->data, p->weightPtr(), c.survival, c.name);
    expectSameBootstrap(p->data, p->weightPtr(), c.survival, c.name);
  }
}

TEST(DeviceSelection, SurvivalCrossValidationAndBootstrapMatchTheCpu) {
  SurvivalScope scope;
  for (ModelType m : {ModelType::Cox, ModelType::FineGray}) {
    auto p = countingCoxOrFineGray(m, 400);
    expectSameCv(p->data, p->weightPtr(), true, modelTypeName(m));
    expectSameBootstrap(p->data, p->weightPtr(), true, modelTypeName(m));
  }
}

// Shared data made for another Dataset object is not used: the runner builds its own and
// the fit is the one without shared data.
TEST(DeviceSelection, SharedDataOfOtherDataIsNotUsed) {
  auto a = makeProblem({ModelType::Poisson});
  auto b = makeProblem({ModelType::Poisson});
  FitRequest req = penalized(a->data, a->weightPtr(), PriorKind::Normal);
  req.device = parseComputeDevice(kDevice);
  const FitResult plain = fitCcd(req);
  req.sharedDevice = prepareDeviceRun(req.device, b->data).shared;
  ASSERT_NE(req.sharedDevice, nullptr);
  const std::int64_t before = emulatedDesignsBuilt();
  const FitResult foreign = fitCcd(req);
  if (std::string(kDevice) == "emulated") EXPECT_EQ(emulatedDesignsBuilt() - before, 1);
  ASSERT_EQ(foreign.beta.size(), plain.beta.size());
  for (std::size_t j = 0; j < plain.beta.size(); ++j) EXPECT_EQ(foreign.beta[j], plain.beta[j]) << j;
  EXPECT_EQ(prepareDeviceRun(parseComputeDevice("cpu"), a->data).shared, nullptr);
}

}  // namespace
}  // namespace argus
