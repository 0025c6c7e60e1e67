// .Call entry point of fitModel(): an argusData payload and a settings list in, a plain list
// out. The settings list is built by R/fit.R (fitSettings()).
#include "bridge/convert.h"
#include "device/compute_device.h"
#include "solver/ccd_solver.h"

using namespace Rcpp;

namespace argus {
namespace bridge {

argus::FitRequest requestFromList(const argus::Dataset& data, const List& settings) {
  argus::FitRequest req;
  req.data = &data;
  const IntegerVector kind = settings["priorKind"];
  const NumericVector variance = settings["variance"];
  const std::size_t p = data.design.nColumns();
  if (static_cast<std::size_t>(kind.size()) != p || static_cast<std::size_t>(variance.size()) != p)
    Rcpp::stop("one prior per covariate is required");
  req.prior.resize(p);
  for (std::size_t j = 0; j < p; ++j)
    req.prior[j] = {static_cast<argus::PriorKind>(kind[j]), variance[j]};
  if (!Rf_isNull(settings["start"])) req.start = as<std::vector<double>>(settings["start"]);
  if (!Rf_isNull(settings["fixed"])) {
    const LogicalVector fixed = settings["fixed"];
    req.fixed.assign(fixed.begin(), fixed.end());
  }
  req.control.tolerance = as<double>(settings["tolerance"]);
  req.control.maxIterations = as<int>(settings["maxIterations"]);
  req.control.convergence =
      argus::parseConvergenceType(as<std::string>(settings["convergenceType"]));
  req.control.initialBound = as<double>(settings["initialBound"]);
  req.control.verbose = as<bool>(settings["verbose"]);
  req.device = argus::parseComputeDevice(as<std::string>(settings["device"]));
  return req;
}

}  // namespace bridge
}  // namespace argus

extern "C" SEXP argus_fit(SEXP dataSexp, SEXP settingsSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const List settings(settingsSexp);
  argus::FitRequest req = argus::bridge::requestFromList(binding.data, settings);
  req.weights =
      argus::bridge::optionalDoubles(settings["weights"], binding.data.nRows(), "weights");
  argus::bridge::RProgressSink progress;
  const argus::FitResult fit = argus::fitCcd(req, &progress);
  return List::create(_["beta"] = wrap(fit.beta), _["status"] = argus::fitStatusName(fit.status),
                      _["iterations"] = fit.iterations, _["logLikelihood"] = fit.logLikelihood,
                      _["logPrior"] = fit.logPrior, _["seconds"] = fit.seconds);
  END_RCPP
}
