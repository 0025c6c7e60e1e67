// Which flat-prior columns the data cannot tell apart (collinearity), for every such column,
// whatever its storage kind and whether or not it joins the solver's Newton block.
//
// The null space of every model's information matrix is that of its covariates over the rows
// that carry information, centred within the groups inside which the model ignores a common
// shift (solver/information_rows.h: the rows and groups per model).
// So the check is the Gram matrix G of those covariates, taken in order as lm's QR takes
// them: column a is aliased when its pivot (1 - R^2 on the earlier accepted columns, on the
// correlation scale) is at most `tolerance`, or when centring left at most kRoundingShare
// (data/column_centring.h) of its sum of squares as given (it is explained by the strata, or
// is constant, up to rounding: lm's QR likewise measures a column's residual against its own
// norm, at 1e-7).
//
// A Gram matrix squares the condition number a QR sees, and a pivot's rounding grows with
// the near-collinearity of the columns accepted before it. Pivots the Gram cannot vouch for
// (below 1e-8, or below k eps / p^2 after a smallest accepted pivot p) are settled as lm
// settles them: by orthogonalizing the centred, weighted columns in order (Gram-Schmidt
// twice), where rows x k stays within 5e6 entries (40 MB) and rows x k^2 within 1e9; in larger
// problems by each column's residual on the accepted ones, computed from the rows and refined
// twice (corrected semi-normal equations), in rounds until the verdicts agree with the factor.
// Spline bases that reproduce the constant (ns(lstat, 9, intercept = TRUE) on Boston: a
// pivot of 5e-12 for a residual of 1e-25) and bs(crim, 10, intercept = TRUE) * chas (a pivot
// of 0.015 after a column accepted at 2e-9, residual 1.6e-16) were estimated, SUCCESS, with
// an arbitrary split of a non-identified combination.
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

// The rows that carry information and how (solver/information_rows.h says it per model).
struct CollinearityRows {
  const double* weights = nullptr;      // per row, or nullptr for 1; rows at 0 take no part
  const std::int32_t* group = nullptr;  // per row: the group to centre within (nullptr: one)
  bool centre = false;                  // subtract group means (false: the raw Gram)
};

struct Collinearity {
  std::vector<std::int32_t> aliased;  // sorted by column index
  // The smallest eigenvalue of the kept columns' correlation matrix (1 where none): how
  // nearly collinear they are. CCD needs of the order of its inverse in cycles.
  double smallestEigenvalue = 1.0;
};

// The aliased ones of `columns` (in this order). `orthogonalize`: whether columns the Gram
// matrix cannot decide may be settled by orthogonalization (within its budget; tests turn it
// off to reach the refined residuals).
Collinearity collinearColumns(const DesignView& design, const CollinearityRows& rows,
                              const std::vector<std::int32_t>& columns, double tolerance,
                              bool orthogonalize = true);

}  // namespace argus
