#include "models/survival_baseline.h"

#include "common/errors.h"
#include "models/survival_likelihood.h"

namespace argus {

// The likelihood's own slot state at eta: the same risk sets, weights, censoring survival and
// event terms as the fit, written once.
BaselineHazard baselineHazard(const Dataset& data, const double* weights,
                              const std::vector<double>& eta) {
  ARGUS_REQUIRE(isSurvival(data.model), "a baseline hazard needs a cox or fgr data set");
  ARGUS_REQUIRE(static_cast<std::int64_t>(eta.size()) == data.nRows(), "eta has the wrong length");
  validateDataset(data, weights);
  SurvivalLikelihood likelihood(data, weights);
  likelihood.setEta(eta);
  BaselineHazard out;
  likelihood.forEachHazardJump([&](std::int32_t stratum, double time, double jump) {
    out.stratum.push_back(stratum);
    out.time.push_back(time);
    out.jump.push_back(jump);
  });
  return out;
}

}  // namespace argus
