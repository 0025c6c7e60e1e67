// The device a fit ran on (FitResult::device): the request's device with "auto" resolved, and
// the CPU where the device "auto" chose cannot take the fit. No GPU here: the emulated device
// with too little memory (setEmulatedDeviceMemory) stands in for a GPU without enough free
// memory, marked as chosen by "auto" as resolveComputeDevice marks the GPU it picks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/errors.h"
#include "device/device_memory.h"
#include "device/emulated_device.h"
#include "selection/cross_validation.h"
#include "selection/folds.h"
#include "solver/batched_start.h"
#include "solver/ccd_solver.h"
#include "solver/compute_device.h"
#include "test_data.h"

namespace argus {
namespace {

using testing_data::makeProblem;
using testing_data::ProblemSpec;

std::unique_ptr<testing_data::TestProblem> logistic() {
  ProblemSpec spec;
  spec.model = ModelType::Logistic;
  spec.nRows = 300;
  spec.seed = 17;
  return makeProblem(spec);
}

FitRequest requestFor(const testing_data::TestProblem& p, const ComputeDevice& device) {
  FitRequest req;
  req.data = &p.data;
  req.weights = p.weightPtr();
  req.prior.assign(p.nColumns(), CoordinatePrior{PriorKind::Normal, 1.0});
  req.device = device;
  return req;
}

// What "auto" would give the fit if it chose the (emulated) device.
ComputeDevice chosenByAuto() {
  ComputeDevice device = parseComputeDevice("emulated");
  device.automatic = true;
  return device;
}

// The emulated device's memory for one test, then no limit again.
struct EmulatedMemory {
  explicit EmulatedMemory(double bytes) { setEmulatedDeviceMemory(bytes); }
  ~EmulatedMemory() { setEmulatedDeviceMemory(0.0); }
};

TEST(DeviceThatRan, IsTheRequestedDeviceResolved) {
  auto p = logistic();
  const FitResult cpu = fitCcd(requestFor(*p, parseComputeDevice("cpu")));
  EXPECT_EQ(cpu.device.kind, ComputeDevice::Kind::Cpu);
  EXPECT_FALSE(cpu.device.automatic);
  EXPECT_EQ(computeDeviceName(cpu.device), "cpu");
  // A design this small: "auto" runs it on the CPU (with or without a GPU), and says it chose.
  const FitResult automatic = fitCcd(requestFor(*p, parseComputeDevice("auto")));
  EXPECT_EQ(computeDeviceName(automatic.device), "cpu");
  EXPECT_TRUE(automatic.device.automatic);
  EXPECT_EQ(automatic.beta, cpu.beta);
}

TEST(DeviceThatRan, IsTheEmulatedDeviceWhereItTakesTheFit) {
  if (!builtWithEmulatedDevice()) GTEST_SKIP() << "built without the emulated device";
  auto p = logistic();
  const FitResult explicitly = fitCcd(requestFor(*p, parseComputeDevice("emulated")));
  EXPECT_EQ(computeDeviceName(explicitly.device), "emulated");
  EXPECT_EQ(explicitly.status, FitStatus::Success);
  EmulatedMemory plenty(1e12);
  const FitResult chosen = fitCcd(requestFor(*p, chosenByAuto()));
  EXPECT_EQ(computeDeviceName(chosen.device), "emulated");
  EXPECT_TRUE(chosen.device.automatic);
}

TEST(DeviceThatRan, IsTheCpuWhereTheDeviceAutoChoseLacksMemory) {
  if (!builtWithEmulatedDevice()) GTEST_SKIP() << "built without the emulated device";
  auto p = logistic();
  EmulatedMemory tiny(1024.0);
  // The runner: the CPU's, and the device it runs on says so.
  ComputeDevice ran = chosenByAuto();
  auto runner = makeCycleRunner(chosenByAuto(), p->data, p->weightPtr(), 1, nullptr, &ran);
  ASSERT_NE(runner, nullptr);
  EXPECT_EQ(ran.kind, ComputeDevice::Kind::Cpu);
  EXPECT_TRUE(ran.automatic);
  // The fit: the CPU fit itself (the same runner, so the same numbers to the bit), recorded
  // as run on the CPU, not on the device "auto" pointed to.
  const FitResult fellBack = fitCcd(requestFor(*p, chosenByAuto()));
  const FitResult cpu = fitCcd(requestFor(*p, parseComputeDevice("cpu")));
  EXPECT_EQ(computeDeviceName(fellBack.device), "cpu");
  EXPECT_TRUE(fellBack.device.automatic);
  EXPECT_EQ(fellBack.beta, cpu.beta);
  EXPECT_EQ(fellBack.logLikelihood, cpu.logLikelihood);
  // Asked for by name, the device refuses with both sizes: never a silent fallback.
  try {
    fitCcd(requestFor(*p, parseComputeDevice("emulated")));
    ADD_FAILURE() << "an explicit device without the memory fitted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("device memory"), std::string::npos) << e.what();
  }
  // A run of fits shares no device data then; each fit decides (here: the CPU).
  const DeviceRun run = prepareDeviceRun(chosenByAuto(), p->data);
  EXPECT_EQ(run.shared, nullptr);
}

// A batch of fold fits (solver/batched_start.h) larger than the device's memory: none, so the
// cross-validation fits its folds one by one (each then decides for itself), as the CUDA batch.
TEST(DeviceThatRan, NoBatchOfFitsBeyondTheDevicesMemory) {
  if (!builtWithEmulatedDevice()) GTEST_SKIP() << "built without the emulated device";
  auto p = logistic();
  const std::vector<const double*> weights(4, p->weightPtr());
  EXPECT_NE(makeBatchedBoundSteps(parseComputeDevice("emulated"), p->data, weights, nullptr), nullptr);
  {
    EmulatedMemory plenty(1e12);
    EXPECT_NE(makeBatchedBoundSteps(parseComputeDevice("emulated"), p->data, weights, nullptr), nullptr);
  }
  EmulatedMemory tiny(1024.0);
  EXPECT_EQ(makeBatchedBoundSteps(parseComputeDevice("emulated"), p->data, weights, nullptr), nullptr);
}

// A cross-validation of `p` with 8 folds x 4 repetitions (two batches of kBatchLanes fold fits
// per candidate), its fits taking the majorized start always on `device`; resetCoefficients,
// so that the first candidate's folds run before any all-data fit built the design's views.
CrossValidationResult crossValidateOn(const testing_data::TestProblem& p, const char* device) {
  CrossValidationRequest req;
  req.fit = requestFor(p, parseComputeDevice(device));
  req.fit.control.majorizedStart = MajorizedStartRule::Always;
  req.settings.resetCoefficients = true;
  FoldSettings folds;
  folds.folds = 8;
  folds.repetitions = 4;
  folds.seed = 5;
  req.folds = makeFoldPlan(p.data, folds);
  return crossValidate(req);
}

int batchedFitsOf(const CrossValidationResult& cv) {
  int n = 0;
  for (const CvEvaluation& e : cv.curve) n += e.batchedFits;
  return n;
}

void expectTheSameChoice(const CrossValidationResult& device, const CrossValidationResult& cpu) {
  EXPECT_NEAR(device.variance, cpu.variance, 1e-6 * cpu.variance);
  EXPECT_NEAR(device.score, cpu.score, 1e-7 * std::fabs(cpu.score));
  ASSERT_EQ(device.curve.size(), cpu.curve.size());
  for (std::size_t i = 0; i < cpu.curve.size(); ++i)
    EXPECT_NEAR(device.curve[i].mean, cpu.curve[i].mean, 1e-7 * std::fabs(cpu.curve[i].mean)) << i;
}

// A later batch the device refuses (the first built the design's views, so less memory is
// free): the remaining fold fits run one by one, and the cross-validation ends as the CPU's.
TEST(DeviceThatRan, ALaterBatchRefusedFitsTheRestOneByOne) {
  if (!builtWithEmulatedDevice()) GTEST_SKIP() << "built without the emulated device";
  auto p = logistic();
  const CrossValidationResult cpu = crossValidateOn(*p, "cpu");
  const CrossValidationResult unlimited = crossValidateOn(*p, "emulated");
  ASSERT_EQ(unlimited.folds * unlimited.repetitions, 2 * kBatchLanes);
  EXPECT_EQ(unlimited.curve[0].batchedFits, 2 * kBatchLanes);
  // Memory for one batch and the design, less than half the views more.
  const auto shared = makeEmulatedSharedData(p->data);
  const double design = emulatedDesignBytes(shared);
  const double views = emulatedAllCoordinatesBytes(shared);
  ASSERT_GT(views, 0.0);
  const double batch = kBatchLanes * (deviceBytesNeeded(p->data) + allCoordinatesBytesNeeded(p->data));
  EmulatedMemory tight(batch + design + 0.5 * views);
  const CrossValidationResult refused = crossValidateOn(*p, "emulated");
  int first = -1;
  for (std::size_t i = 0; i < refused.curve.size(); ++i)
    if (refused.curve[i].order == 1) first = static_cast<int>(i);
  ASSERT_GE(first, 0);
  EXPECT_EQ(refused.curve[first].batchedFits, kBatchLanes);  // the first batch, not the second
  expectTheSameChoice(refused, cpu);
}

// An allocation that fails while the batch is built (its estimate passed): no batch, the fold
// fits run one by one, and the cross-validation ends as the CPU's.
TEST(DeviceThatRan, ABatchWhoseAllocationFailsFitsOneByOne) {
  if (!builtWithEmulatedDevice()) GTEST_SKIP() << "built without the emulated device";
  auto p = logistic();
  const CrossValidationResult cpu = crossValidateOn(*p, "cpu");
  struct FailingAllocations {
    FailingAllocations() { failEmulatedBatchAllocations(true); }
    ~FailingAllocations() { failEmulatedBatchAllocations(false); }
  } failing;
  const std::vector<const double*> weights(4, p->weightPtr());
  EXPECT_EQ(makeBatchedBoundSteps(parseComputeDevice("emulated"), p->data, weights, nullptr), nullptr);
  const CrossValidationResult oneByOne = crossValidateOn(*p, "emulated");
  EXPECT_EQ(batchedFitsOf(oneByOne), 0);
  expectTheSameChoice(oneByOne, cpu);
}

}  // namespace
}  // namespace argus
