// Which flat-prior columns the data cannot tell apart (collinearity), for every such column,
// whatever its storage kind and whether or not it joins the solver's Newton block.
//
// The null space of every model's information matrix is that of its covariates over the rows
// that carry information, centred where the model absorbs a constant:
//   - GLMs: rows with positive weight; centred once over all of them when a flat intercept is
//     estimated (the intercept itself is then never aliased), raw otherwise;
//   - survival and conditional models: rows with positive weight in strata with an event,
//     centred within each stratum (a constant, or a covariate constant within strata, carries
//     nothing).
// So the check is the Gram matrix G of those covariates, taken in order as lm's QR takes
// them: column a is aliased when its pivot (1 - R^2 on the earlier accepted columns, on the
// correlation scale) is at most `tolerance`, or when centring left at most `tolerance` of
// its spread (it is explained by the strata, or is constant).
//
// Cost: one pass over the rows with the products of each row's entries among the checked
// columns (dense columns are in every row), then a Cholesky of k x k. A row-major copy of the
// sparse columns' entries makes the pairs within a row cheap, so a design with many indicator
// columns costs sum over rows of (entries in the row)^2, not rows x k^2. Dense columns are
// centred by their mean before the products, so a calendar year keeps its digits.
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"

namespace argus {

struct CollinearityRows {
  const double* weights = nullptr;     // per row, or nullptr for 1; rows at 0 take no part
  const std::int32_t* group = nullptr; // contiguous groups to centre within (nullptr: one)
  bool centre = false;                 // subtract group means (false: the raw Gram)
  // Groups take part only where one of their rows has y > 0 (and a positive weight).
  const double* y = nullptr;
  bool requireEvent = false;
};

// The aliased ones of `columns` (in this order), sorted by column index.
std::vector<std::int32_t> collinearColumns(const DesignView& design, const CollinearityRows& rows,
                                           const std::vector<std::int32_t>& columns,
                                           double tolerance);

}  // namespace argus
