#include "bridge/fit_request.h"

#include "bridge/convert.h"
#include "solver/compute_device.h"

using namespace Rcpp;

namespace argus {
namespace bridge {

FitRequest fitRequestFromList(const Dataset& data, const List& settings) {
  FitRequest req;
  req.data = &data;
  const IntegerVector kind = settings["priorKind"];
  const NumericVector variance = settings["variance"];
  const std::size_t p = data.design.nColumns();
  if (static_cast<std::size_t>(kind.size()) != p || static_cast<std::size_t>(variance.size()) != p)
    Rcpp::stop("one prior per covariate is required");
  req.prior.resize(p);
  for (std::size_t j = 0; j < p; ++j) {
    // an edited fit's kind of 7 was taken as a flat prior
    if (kind[j] < 0 || kind[j] > 2) Rcpp::stop("prior kinds must be 0 (none), 1 (laplace) or 2 (normal)");
    req.prior[j] = {static_cast<PriorKind>(kind[j]), variance[j]};
  }
  if (!Rf_isNull(settings["start"])) req.start = as<std::vector<double>>(settings["start"]);
  if (!Rf_isNull(settings["fixed"])) {
    const LogicalVector fixed = settings["fixed"];
    req.fixed.assign(fixed.begin(), fixed.end());
  }
  req.control.tolerance = as<double>(settings["tolerance"]);
  if (settings.containsElementNamed("optimalityTolerance") &&
      !Rf_isNull(settings["optimalityTolerance"]))
    req.control.optimalityTolerance = as<double>(settings["optimalityTolerance"]);
  req.control.maxIterations = as<int>(settings["maxIterations"]);
  req.control.convergence = parseConvergenceType(as<std::string>(settings["convergenceType"]));
  req.control.initialBound = as<double>(settings["initialBound"]);
  req.control.verbose = as<bool>(settings["verbose"]);
  // fitModel()'s progress line (R/progress.R); absent from the settings a fit keeps
  if (settings.containsElementNamed("progressInterval") && !Rf_isNull(settings["progressInterval"]))
    req.control.progressSeconds = as<double>(settings["progressInterval"]);
  if (settings.containsElementNamed("threads")) req.control.threads = as<int>(settings["threads"]);
  if (settings.containsElementNamed("majorizedStart"))
    req.control.majorizedStart = parseMajorizedStartRule(as<std::string>(settings["majorizedStart"]));
  req.device = parseComputeDevice(as<std::string>(settings["device"]));
  req.weights = optionalDoubles(settings["weights"], data.nRows(), "weights");
  return req;
}

}  // namespace bridge
}  // namespace argus
