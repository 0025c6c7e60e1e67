// .Call entry point of fitModel(): an argusData payload and a settings list in, a plain list
// out. The settings list is built by R/fit.R (fitModel()).
#include "bridge/convert.h"
#include "bridge/fit_request.h"
#include "device/auto_device.h"
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
  // Coordinates go back 1-based, as R indexes them.
  auto oneBased = [](const std::vector<std::int32_t>& v) {
    IntegerVector out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] + 1;
    return out;
  };
  return List::create(_["beta"] = wrap(fit.beta), _["status"] = argus::fitStatusName(fit.status),
                      _["iterations"] = fit.iterations, _["majorizedSteps"] = fit.majorizedSteps,
                      _["logLikelihood"] = fit.logLikelihood,
                      _["logPrior"] = fit.logPrior, _["seconds"] = fit.seconds,
                      _["optimality"] = fit.optimality,
                      _["worstCoordinate"] = fit.worstCoordinate + 1,
                      _["aliased"] = oneBased(fit.aliased), _["infinite"] = oneBased(fit.infinite),
                      _["pinned"] = oneBased(fit.pinned),
                      // where "auto" put the fit (the device makeCycleRunner() resolves it to)
                      _["device"] = argus::computeDeviceName(
                          argus::resolveComputeDevice(req.device, binding.data)));
  END_RCPP
}
