// The device a fit ran on (FitResult::device): the request's device with "auto" resolved, and
// the CPU where the device "auto" chose cannot take the fit. No GPU here: the emulated device
// with too little memory (setEmulatedDeviceMemory) stands in for a GPU without enough free
// memory, marked as chosen by "auto" as resolveComputeDevice marks the GPU it picks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/errors.h"
#include "device/emulated_device.h"
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

}  // namespace
}  // namespace argus
