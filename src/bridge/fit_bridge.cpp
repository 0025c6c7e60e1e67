// .Call entry point of fitModel(): an argusData payload and a settings list in, a plain list
// out. The settings list is built by R/fit.R (fitModel()).
#include "bridge/convert.h"
#include "bridge/fit_request.h"
#include "solver/ccd_solver.h"

using namespace Rcpp;

extern "C" SEXP argus_fit(SEXP dataSexp, SEXP settingsSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const List settings(settingsSexp);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, settings);
  argus::bridge::RProgressSink progress;
  const argus::FitResult fit = argus::fitCcd(req, &progress);
  return List::create(_["beta"] = wrap(fit.beta), _["status"] = argus::fitStatusName(fit.status),
                      _["iterations"] = fit.iterations, _["logLikelihood"] = fit.logLikelihood,
                      _["logPrior"] = fit.logPrior, _["seconds"] = fit.seconds);
  END_RCPP
}
