// The cumulative baseline hazard of a Cox or Fine-Gray fit, as its jumps at the event times
// of each stratum: what survival probabilities (cox) and cumulative incidences (fgr) of new
// rows are built from, S(t | x) = exp(-H0(t) exp(eta)), F(t | x) = 1 - exp(-H0(t) exp(eta)).
//
// The jump at event slot e is the derivative term A_e of survival_functors.h at the fitted
// eta, so the risk sets are the likelihood's own (strata, counting process, Fine-Gray's
// competing rows weighted by G(t_e-) / G(time_r-)) and the estimator follows the ties rule:
//   Breslow: d_e / den_e. For cox this is survival::basehaz(centered = FALSE); for fgr it is
//     cmprsk::crr's bfitj (predict.crr).
//   Efron:   (d_e / m_e) sum_{k < m_e} 1 / (den_e - (k / m_e) F_e), which is what
//     survival::survfit.coxph uses for an Efron fit (its default ctype = 2).
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace argus {

struct BaselineHazard {
  // One entry per event slot, strata in order, times ascending within a stratum.
  std::vector<std::int32_t> stratum;  // 0-based internal stratum
  std::vector<double> time;
  std::vector<double> jump;           // hazard increment at `time`
};

// eta: the linear predictor (offsets included) in the internal row order; weights as in the
// fit (nullptr: all 1).
BaselineHazard baselineHazard(const Dataset& data, const double* weights,
                              const std::vector<double>& eta);

}  // namespace argus
