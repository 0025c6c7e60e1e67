// The CPU implementation of a CCD cycle: a loop over coordinates calling the likelihood's
// per-coordinate interface and the shared step functors of priors/prior.h.
#pragma once

#include <memory>

#include "models/likelihood.h"
#include "solver/cycle_runner.h"

namespace argus {

class CpuCycleRunner final : public CycleRunner {
 public:
  CpuCycleRunner(const Dataset& data, const double* weights);

  CycleReadout reset(const CycleState& state) override;
  CycleReadout runCycle(CycleState& state, const CyclePlan& plan,
                        const ReadoutNeeds& needs) override;
  GradHess gradHess(std::int32_t j) override { return likelihood_->gradHess(j); }

 private:
  CycleReadout readout(std::int64_t moved, const ReadoutNeeds& needs);

  std::unique_ptr<Likelihood> likelihood_;
  std::vector<double> etaBefore_;
};

}  // namespace argus
