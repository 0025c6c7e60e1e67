// Which rows carry information about the coefficients, and the groups inside which the
// likelihood ignores a common shift of the covariates: what the collinearity check
// (solver/collinear_columns.h) factors, so that its verdicts are the information matrix's.
//
// The information matrix of a survival or conditional model is a sum over risk sets (or
// strata) of the covariates' weighted covariance within each. Its null space is therefore
// the directions v with X v constant within every risk set: over the rows at risk at some
// event time, constant within each connected group of overlapping risk sets.
//   - GLMs: the rows with positive weight, one group (centred only beside a flat intercept).
//   - Conditional models: each stratum with an event is a group. Under clr's exact
//     likelihood a stratum whose members are all cases contributes a constant, so it takes
//     no part.
//   - Cox and Fine-Gray, right-censored: per stratum, the rows at risk at its first event
//     time, one group: every later risk set lies inside that one. A row censored before the
//     first event is in no risk set. Fine-Gray keeps competing-event rows at risk after
//     their time.
//   - Cox, counting process (start, stop]: a row is at risk at the event times in its
//     interval. Consecutive event times are in one group when some row spans both. Split
//     data (survSplit) give one group per event time, so a covariate plus a function of time
//     is collinear with the covariate.
// Without this, such rows counted as information. A covariate equal to another on every row
// that is ever at risk was then estimated, with SUCCESS and an arbitrary split (coxph: NA),
// and likewise age + tstop / 100 beside age on split data.
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace argus {

struct InformationRows {
  std::vector<double> weight;         // per row: its weight where it carries information, else 0
  std::vector<std::int32_t> group;    // per row: its group
  bool centred = false;               // the model ignores a common shift within groups
};

// `weights`: per row, or nullptr for 1. GLMs give one group, not centred (the caller centres
// beside a flat intercept).
InformationRows informationRows(const Dataset& data, const double* weights);

}  // namespace argus
