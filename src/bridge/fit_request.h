// The settings list that R/fit.R builds (see fitModel()) as an engine FitRequest. Shared by
// the fit, inference and profile entry points, so they read the settings the same way.
#pragma once

#include <Rcpp.h>

#include "data/dataset.h"
#include "solver/ccd_solver.h"

namespace argus {
namespace bridge {

// `data` must outlive the request (it points into it), and so must the R settings list
// (weights point into it).
FitRequest fitRequestFromList(const Dataset& data, const Rcpp::List& settings);

}  // namespace bridge
}  // namespace argus
