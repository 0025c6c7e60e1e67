// A RefitSession on the device under test: its fits are fitCcd()'s on the same device (a
// restarted device runner as a new one, and each fit reports the device it ran on), and a
// profile evaluated in device sessions equals the CPU's within the suite's tolerance.
// (tests/cpp/refit_session_test.cpp holds the CPU's to-the-bit checks.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "device_test_support.h"
#include "solver/compute_device.h"
#include "solver/profile.h"
#include "solver/refit_session.h"

namespace argus {
namespace {

using device_test::kDevice;

FitRequest flatRequestOn(const Dataset& data, const double* weights, const char* device) {
  FitRequest req;
  req.data = &data;
  req.weights = weights;
  req.prior.assign(data.design.nColumns(), CoordinatePrior{});
  req.device = parseComputeDevice(device);
  return req;
}

// The same fit: a session and fitCcd() run the same device code on the same data.
void expectSameDeviceFit(const FitResult& a, const FitResult& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.iterations, b.iterations) << what;
  EXPECT_EQ(a.beta, b.beta) << what;
  EXPECT_EQ(a.logLikelihood, b.logLikelihood) << what;
  EXPECT_EQ(a.device.kind, b.device.kind) << what;
  EXPECT_NE(a.device.kind, ComputeDevice::Kind::Cpu) << what << ": the session's fit left the device";
}

TEST(DeviceRefitSession, FitsAreFitCcdsOnTheDevice) {
  for (ModelType model : {ModelType::Poisson, ModelType::Logistic, ModelType::ConditionalLogistic}) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.seed = 3;
    auto problem = testing_data::makeProblem(spec);
    const FitRequest flat = flatRequestOn(problem->data, problem->weightPtr(), kDevice);
    FitRequest ridge = flat;
    for (CoordinatePrior& prior : ridge.prior) prior = {PriorKind::Normal, 1.0};
    RefitSession session(flat);
    const std::string name = modelTraits(model).name;
    for (int round = 0; round < 2; ++round) {  // the second round on a restarted runner
      expectSameDeviceFit(session.fit(flat), fitCcd(flat), name + " flat");
      expectSameDeviceFit(session.fit(ridge), fitCcd(ridge), name + " ridge");
    }
  }
  testing_data::SurvivalSpec spec;
  spec.model = ModelType::Cox;
  spec.nStrata = 3;
  testing_data::SurvivalProblem cox(spec);
  const FitRequest flat = flatRequestOn(cox.data, cox.weightPtr(), kDevice);
  RefitSession session(flat);
  expectSameDeviceFit(session.fit(flat), fitCcd(flat), "cox");
  expectSameDeviceFit(session.fit(flat), fitCcd(flat), "cox again");
}

TEST(DeviceRefitSession, ProfileOnTheDeviceIsTheCpus) {
  for (ModelType model : {ModelType::Poisson, ModelType::Logistic, ModelType::ConditionalLogistic}) {
    testing_data::ProblemSpec spec;
    spec.model = model;
    spec.seed = 3;
    auto problem = testing_data::makeProblem(spec);
    FitRequest onDevice = flatRequestOn(problem->data, problem->weightPtr(), kDevice);
    onDevice.start = fitCcd(onDevice).beta;
    FitRequest onCpu = onDevice;
    onCpu.device = parseComputeDevice("cpu");
    const std::int32_t c = 1;
    const double b = onDevice.start[c];
    const std::vector<double> points = {b - 0.5, b, b + 0.5};
    const auto device = profileValues(onDevice, c, points, true, 2, nullptr, true);
    const auto cpu = profileValues(onCpu, c, points, true, 2, nullptr, true);
    ASSERT_EQ(device.size(), cpu.size());
    for (std::size_t i = 0; i < cpu.size(); ++i) {
      EXPECT_NEAR(device[i].value, cpu[i].value, 1e-6 * std::fabs(cpu[i].value)) << i;
      EXPECT_NEAR(device[i].derivative, cpu[i].derivative, 1e-5) << i;
    }
  }
}

}  // namespace
}  // namespace argus
