// The censoring distribution that Fine-Gray's inverse-probability-of-censoring weights use
// (MODELS.md §2, `fgr`): G(t) = P(not censored by t), estimated by the Kaplan-Meier method
// with the censored rows (y = 0) as the "events", everything else as at risk until its time.
//
// As in cmprsk::crr, weights use the left limit G(t-) (censorings at t itself do not count
// yet): a competing row r stays in the risk set at a later event time t_e with weight
// G(t_e-) / G(time_r-). Row weights enter the estimate as case weights (integer weights give
// the same G as duplicated rows), so a cross-validation fold gets its own G.
#pragma once

#include <vector>

#include "data/dataset.h"

namespace argus {

// Per row, G(time_r-): the user's values when data.outcomes.censoringSurvival is set, else
// the Kaplan-Meier estimate, per stratum when data.censoringByStratum, else over all rows.
std::vector<double> censoringSurvivalBefore(const Dataset& data, const double* weights);

}  // namespace argus
