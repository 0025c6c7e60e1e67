// The coordinate loop of one CCD cycle, apart from the rest of the cycle.
//
// A cycle (solver/likelihood_cycle_runner.h) is a sweep over the plan's coordinates, then once
// per cycle a refresh of the running sums, a block Newton step or an extrapolation, and the
// readouts. The sweep is where a fit spends its time and where a device must not return to
// the host per coordinate, so it is the part a device replaces: HostCoordinateSweep calls the
// likelihood's per-coordinate interface and decides each step on the host; a device model
// (DeviceModel below; the models are device/device_*_likelihood.h) runs the same decisions in
// one-thread device functors, with the same formulas (priors/prior.h), and only the
// once-per-cycle work goes through the host.
#pragma once

#include <cstdint>

#include <memory>

#include "models/likelihood.h"
#include "solver/bound_steps.h"
#include "solver/cycle_runner.h"

namespace argus {

class CoordinateSweep {
 public:
  virtual ~CoordinateSweep() = default;
  // Visits plan.coordinates in order (skipping fixed ones), each with its Newton step and
  // trust region, and the follower after every coordinate that moved (cycle_runner.h);
  // updates state.beta and state.bound. Returns the number of coordinates that moved.
  virtual std::int64_t sweep(CycleState& state, const CyclePlan& plan) = 0;
};

// A likelihood whose state lives on a device (device/): it answers the Likelihood interface
// (the calls a cycle makes once, returning scalars) and runs the coordinate sweep itself, so
// that the per-coordinate work never returns to the host. The cycle around it is the CPU's
// (likelihood_cycle_runner.h): one algorithm, two places for its state.
class DeviceModel : public Likelihood, public CoordinateSweep {
 public:
  using Likelihood::Likelihood;
  // Bytes of device memory the model holds (its vectors' sizes): what deviceBytesNeeded()
  // (device/device_memory.h) must cover.
  virtual double deviceBytes() const = 0;
  // The majorized start's steps on the device (device/all_coordinates_steps.h: every
  // coordinate at once), or null where the model offers no bound.
  virtual std::unique_ptr<BoundSteps> boundSteps() { return nullptr; }
};

// The host loop over Likelihood::gradHess / applyStep.
class HostCoordinateSweep final : public CoordinateSweep {
 public:
  explicit HostCoordinateSweep(Likelihood& likelihood) : likelihood_(likelihood) {}
  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override;

 private:
  Likelihood& likelihood_;
};

}  // namespace argus
