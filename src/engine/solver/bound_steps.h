// The majorized start's work per step (solver/majorized_start.h), done where the fit's state
// lives. One outer loop (majorizedStart: the bound at beta, its step, a line search on the log
// posterior, the stopping rules), two shapes of its inner work:
//   - the host (solver/host_bound_steps.h): one Gauss-Seidel sweep of coordinate steps on the
//     bound from the runner's row scores, trials through CycleRunner::resetToEta;
//   - a device (device/all_coordinates_steps.h): accelerated proximal steps that move every
//     coordinate at once, the row scores, eta and the trials kept in device memory.
// A runner hands out its own (CycleRunner::boundSteps) or none, and then the host's serves.
// Declarations only: device/ implements it without the solver depending on device/.
#pragma once

#include <vector>

#include "solver/cycle_runner.h"

namespace argus {

class ProgressSink;

class BoundSteps {
 public:
  virtual ~BoundSteps() = default;

  // The bound at the beta where the runner stands (models/separable_bound.h); false where the
  // likelihood offers no row scores.
  virtual bool load() = 0;

  struct Proposal {
    double move = 0.0;   // the largest |delta_j|; 0: nothing to move
    double slope = 0.0;  // sum_r s_r (X delta)_r, the log-likelihood's slope along delta (move > 0)
    int passes = 0;      // sweeps (host) or all-coordinates steps (device) made
  };
  // The bound's step from state.beta with each free coordinate's prior (fixed ones stay).
  // `progress` (may be null) is asked for interrupts.
  virtual Proposal propose(const CycleState& state, ProgressSink* progress) = 0;

  // The trials of the proposed step from state.beta (`from`): delta and the coordinates it
  // set to exactly 0 (Laplace), which stay at 0 on a longer step rather than cross.
  virtual void beginTrials(const CycleState& state) = 0;
  virtual const std::vector<double>& from() const = 0;
  virtual const std::vector<double>& delta() const = 0;
  virtual const std::vector<unsigned char>& zeroed() const = 0;
  // beta = from + s delta (zeroed ones 0 where s > 1) into state.beta, the runner there; its
  // log-likelihood and sum w y eta.
  virtual CycleReadout at(CycleState& state, double s) = 0;
  // sum_r |eta_r - eta_r at from| at the last trial (the "zhang" rule's change).
  virtual double etaChange() = 0;
  // Bytes of device memory the steps hold (0 on the host).
  virtual double deviceBytes() const { return 0.0; }
};

}  // namespace argus
