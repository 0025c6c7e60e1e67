// .Call entry points of R/inference.R and R/predict.R: derivatives and the Hessian at a given
// beta, the linear predictor of an argusData object, the baseline hazard of a survival fit,
// profile-likelihood limits and values.
// Conversions only; coordinates arrive 0-based from R.
#include <string>
#include <vector>

#include "bridge/convert.h"
#include "bridge/fit_request.h"
#include "models/survival_baseline.h"
#include "solver/inference.h"
#include "solver/profile.h"

using namespace Rcpp;

namespace {

std::vector<std::int32_t> coordinatesOf(SEXP x) {
  const IntegerVector c(x);
  return std::vector<std::int32_t>(c.begin(), c.end());
}

const char* limitStatusName(argus::LimitStatus status) {
  switch (status) {
    case argus::LimitStatus::Found: return "found";
    case argus::LimitStatus::NotReached: return "not reached";
    case argus::LimitStatus::NotMaximum: return "not a maximum";
    case argus::LimitStatus::Failed: return "failed";
  }
  return "failed";
}

}  // namespace

// Log-likelihood, gradient and full Hessian over `coordinates` at `beta`; the Hessian only
// when `withHessian` (otherwise its diagonal). `centre`: the Hessian in the basis of the
// centred columns where the engine centres any (hessianAt()), with their `shifts`.
extern "C" SEXP argus_hessian(SEXP dataSexp, SEXP settingsSexp, SEXP betaSexp,
                              SEXP coordinatesSexp, SEXP withHessian, SEXP centre) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, List(settingsSexp));
  const std::vector<double> beta = as<std::vector<double>>(betaSexp);
  const std::vector<std::int32_t> coords = coordinatesOf(coordinatesSexp);
  argus::LikelihoodProbe probe(req.device, binding.data, req.weights);
  const argus::PointDerivatives d = argus::derivativesAt(probe, beta, coords);
  List out = List::create(_["logLikelihood"] = d.logLikelihood, _["gradient"] = wrap(d.gradient),
                          _["hessianDiagonal"] = wrap(d.hessianDiagonal));
  if (as<bool>(withHessian)) {
    const std::vector<double> shifts = as<bool>(centre) ? probe.centringShifts(coords) : std::vector<double>();
    const argus::SquareMatrix H = argus::hessianAt(probe, beta, coords, argus::HessianOptions(), shifts);
    if (!shifts.empty()) out["shifts"] = wrap(shifts);
    const int k = static_cast<int>(H.size);
    NumericMatrix m(k, k);
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) m(i, j) = H(i, j);
    out["hessian"] = m;
    out["exact"] = H.exact;
  }
  return out;
  END_RCPP
}

extern "C" SEXP argus_linear_predictor(SEXP dataSexp, SEXP betaSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  return wrap(argus::linearPredictor(binding.data, as<std::vector<double>>(betaSexp)));
  END_RCPP
}

// Jumps of the cumulative baseline hazard at beta, with the fit's weights (settings).
extern "C" SEXP argus_baseline_hazard(SEXP dataSexp, SEXP settingsSexp, SEXP betaSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, List(settingsSexp));
  const argus::BaselineHazard h = argus::baselineHazard(
      binding.data, req.weights,
      argus::linearPredictor(binding.data, as<std::vector<double>>(betaSexp)));
  IntegerVector stratum(h.stratum.begin(), h.stratum.end());
  return List::create(_["stratum"] = stratum + 1, _["time"] = wrap(h.time),
                      _["jump"] = wrap(h.jump));
  END_RCPP
}

// `profile` holds drop, includePenalty, threads, maxExpansions (see R/inference.R).
extern "C" SEXP argus_profile_intervals(SEXP dataSexp, SEXP settingsSexp, SEXP coordinatesSexp,
                                        SEXP profileSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, List(settingsSexp));
  const List profile(profileSexp);
  argus::ProfileSettings settings;
  settings.drop = as<double>(profile["drop"]);
  settings.includePenalty = as<bool>(profile["includePenalty"]);
  settings.threads = as<int>(profile["threads"]);
  settings.maxExpansions = as<int>(profile["maxExpansions"]);
  argus::bridge::RProgressSink progress;
  const std::vector<argus::ProfileInterval> limits =
      argus::profileIntervals(req, coordinatesOf(coordinatesSexp), settings, &progress);
  const R_xlen_t k = static_cast<R_xlen_t>(limits.size());
  NumericVector lower(k), upper(k), maximum(k);
  CharacterVector lowerStatus(k), upperStatus(k);
  IntegerVector evaluations(k), unconverged(k);
  for (R_xlen_t i = 0; i < k; ++i) {
    lower[i] = limits[i].lower.value;
    upper[i] = limits[i].upper.value;
    lowerStatus[i] = limitStatusName(limits[i].lower.status);
    upperStatus[i] = limitStatusName(limits[i].upper.status);
    maximum[i] = limits[i].maximum;
    evaluations[i] = limits[i].evaluations;
    unconverged[i] = limits[i].unconverged;
  }
  return List::create(_["lower"] = lower, _["upper"] = upper, _["lowerStatus"] = lowerStatus,
                      _["upperStatus"] = upperStatus, _["maximum"] = maximum,
                      _["evaluations"] = evaluations, _["unconverged"] = unconverged);
  END_RCPP
}

namespace {

List profilePointsList(const std::vector<argus::ProfilePoint>& points) {
  NumericVector value(points.size()), derivative(points.size());
  LogicalVector converged(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    value[i] = points[i].value;
    converged[i] = points[i].converged;
    derivative[i] = points[i].derivative;
  }
  return List::create(_["value"] = value, _["converged"] = converged,
                      _["derivative"] = derivative);
}

}  // namespace

extern "C" SEXP argus_profile_values(SEXP dataSexp, SEXP settingsSexp, SEXP coordinateSexp,
                                     SEXP pointsSexp, SEXP includePenalty, SEXP threads,
                                     SEXP withDerivative) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, List(settingsSexp));
  argus::bridge::RProgressSink progress;
  return profilePointsList(argus::profileValues(
      req, as<int>(coordinateSexp), as<std::vector<double>>(pointsSexp), as<bool>(includePenalty),
      as<int>(threads), &progress, as<bool>(withDerivative)));
  END_RCPP
}

// `grid` holds initial (the first grid), tolerance, maxPoints, includePenalty, threads and
// withDerivative (see R/profile_likelihood.R's adaptiveProfile()).
extern "C" SEXP argus_profile_adaptive(SEXP dataSexp, SEXP settingsSexp, SEXP coordinateSexp,
                                       SEXP gridSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FitRequest req = argus::bridge::fitRequestFromList(binding.data, List(settingsSexp));
  const List grid(gridSexp);
  argus::bridge::RProgressSink progress;
  const argus::AdaptiveProfile profile = argus::adaptiveProfile(
      req, as<int>(coordinateSexp), as<std::vector<double>>(grid["initial"]),
      as<double>(grid["tolerance"]), static_cast<std::size_t>(as<int>(grid["maxPoints"])),
      as<bool>(grid["includePenalty"]), as<int>(grid["threads"]), &progress,
      as<bool>(grid["withDerivative"]));
  List out = profilePointsList(profile.values);
  out["point"] = wrap(profile.points);
  out["complete"] = profile.complete;
  return out;
  END_RCPP
}
