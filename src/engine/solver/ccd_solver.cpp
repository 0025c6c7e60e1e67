#include "solver/ccd_solver.h"

#include <chrono>
#include <cmath>

#include "common/errors.h"
#include "data/column_centring.h"
#include "solver/ccd_fit.h"

namespace argus {

std::string fitStatusName(FitStatus status) {
  switch (status) {
    case FitStatus::Success: return "SUCCESS";
    case FitStatus::MaxIterations: return "MAX_ITERATIONS";
    case FitStatus::IllConditioned: return "ILLCONDITIONED";
    case FitStatus::NoFiniteMle: return "NO_FINITE_MLE";
  }
  return "UNKNOWN";
}

double logPriorTotal(const std::vector<double>& beta, const std::vector<CoordinatePrior>& prior) {
  double sum = 0.0;
  for (std::size_t j = 0; j < beta.size(); ++j) sum += logPriorDensity(beta[j], prior[j]);
  return sum;
}

// The settings of a request (everything validateDataset does not check), before a fit
// reads them.
void validateFitSettings(const FitRequest& req) {
  ARGUS_REQUIRE(req.control.threads >= 1, "threads must be at least 1");
  const std::size_t p = req.data->design.nColumns();
  ARGUS_REQUIRE(p > 0, "the data have no covariates");
  ARGUS_REQUIRE(req.prior.size() == p, "one prior per covariate is required");
  for (const CoordinatePrior& cp : req.prior)
    ARGUS_REQUIRE(cp.kind == PriorKind::None || (cp.variance > 0.0 && std::isfinite(cp.variance)),
            "prior variances must be positive and finite");
  ARGUS_REQUIRE(req.start.empty() || req.start.size() == p, "starting coefficients have the wrong length");
  ARGUS_REQUIRE(req.fixed.empty() || req.fixed.size() == p, "fixed flags have the wrong length");
  ARGUS_REQUIRE(req.control.tolerance > 0.0, "tolerance must be positive");
  ARGUS_REQUIRE(req.control.optimalityTolerance > 0.0, "optimalityTolerance must be positive");
  ARGUS_REQUIRE(req.control.maxIterations > 0, "maxIterations must be positive");
  ARGUS_REQUIRE(req.control.initialBound > 0.0, "initialBound must be positive");
  for (double b : req.start) ARGUS_REQUIRE(std::isfinite(b), "starting coefficients must be finite");
}

// The steps of a fit on data it may read as they are (solver/ccd_fit.h).
FitResult fitOnData(const FitRequest& req, ProgressSink* progress, CycleRunner* runner) {
  const auto started = std::chrono::steady_clock::now();
  CcdFit fit(req, progress, runner);  // plan: the runner, the state, aliased columns held at 0
  fit.start();
  fit.cycle();
  fit.readOut();
  fit.certify();
  FitResult result = fit.result();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

namespace {

// The data (validateDataset), the weights and the settings, before anything reads the data.
void validateFitRequest(const FitRequest& req) {
  ARGUS_REQUIRE(req.data != nullptr, "no data");
  ARGUS_REQUIRE(req.control.threads >= 1, "threads must be at least 1");
  validateDataset(*req.data, req.weights);
  validateFitSettings(req);
}

}  // namespace

// Validate, then fit. Survival and conditional fits run on their data with huge-mean columns
// centred (ShiftInvariantCentring, data/column_centring.h): the same model, better digits.
FitResult fitCcd(const FitRequest& request, ProgressSink* progress) {
  validateFitRequest(request);
  const ShiftInvariantCentring centring(*request.data);
  if (!centring.active()) return fitOnData(request, progress);
  FitRequest req = request;
  req.data = &centring.data();
  req.sharedDevice = nullptr;  // made for the input's columns
  FitResult result = fitOnData(req, progress);
  if (!result.eta.empty()) centring.addEtaShift(result.beta, &result.eta);
  return result;
}

}  // namespace argus
