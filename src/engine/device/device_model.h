// A likelihood whose state lives on a device: it answers the Likelihood interface (the calls a
// cycle makes once, returning scalars) and runs the coordinate sweep itself, so that the
// per-coordinate work never returns to the host (solver/coordinate_sweep.h). The cycle around
// it is the CPU's (solver/likelihood_cycle_runner.h): one algorithm, two places for its state.
#pragma once

#include "models/likelihood.h"
#include "solver/coordinate_sweep.h"

namespace argus {

class DeviceModel : public Likelihood, public CoordinateSweep {
 public:
  using Likelihood::Likelihood;
};

}  // namespace argus
