#include "solver/ccd_solver.h"

#include <chrono>
#include <cmath>

#include "common/errors.h"
#include "solver/cycle_schedule.h"

namespace argus {

std::string fitStatusName(FitStatus status) {
  switch (status) {
    case FitStatus::Success: return "SUCCESS";
    case FitStatus::MaxIterations: return "MAX_ITERATIONS";
    case FitStatus::IllConditioned: return "ILLCONDITIONED";
  }
  return "UNKNOWN";
}

double logPriorTotal(const std::vector<double>& beta, const std::vector<CoordinatePrior>& prior) {
  double sum = 0.0;
  for (std::size_t j = 0; j < beta.size(); ++j) sum += logPriorDensity(beta[j], prior[j]);
  return sum;
}

namespace {

CycleState initialState(const FitRequest& req) {
  const std::size_t p = req.data->design.nColumns();
  ARGUS_REQUIRE(p > 0, "the data have no covariates");
  ARGUS_REQUIRE(req.prior.size() == p, "one prior per covariate is required");
  for (const CoordinatePrior& cp : req.prior)
    ARGUS_REQUIRE(cp.kind == PriorKind::None || (cp.variance > 0.0 && std::isfinite(cp.variance)),
            "prior variances must be positive and finite");
  ARGUS_REQUIRE(req.start.empty() || req.start.size() == p, "starting coefficients have the wrong length");
  ARGUS_REQUIRE(req.fixed.empty() || req.fixed.size() == p, "fixed flags have the wrong length");
  ARGUS_REQUIRE(req.control.tolerance > 0.0, "tolerance must be positive");
  ARGUS_REQUIRE(req.control.maxIterations > 0, "maxIterations must be positive");
  ARGUS_REQUIRE(req.control.initialBound > 0.0, "initialBound must be positive");

  CycleState s;
  s.beta = req.start.empty() ? std::vector<double>(p, 0.0) : req.start;
  for (double b : s.beta) ARGUS_REQUIRE(std::isfinite(b), "starting coefficients must be finite");
  s.bound.assign(p, req.control.initialBound);
  s.prior = req.prior;
  s.fixed = req.fixed.empty() ? std::vector<unsigned char>(p, 0) : req.fixed;
  s.extrapolate = req.control.extrapolate;
  return s;
}

bool finite(const CycleReadout& r) {
  return std::isfinite(r.logLikelihood) && std::isfinite(r.sumAbsEta) &&
         std::isfinite(r.weightedOutcomeEta);
}

}  // namespace

FitResult fitCcd(const FitRequest& req, ProgressSink* progress) {
  ARGUS_REQUIRE(req.data != nullptr, "no data");
  ARGUS_REQUIRE(req.control.threads >= 1, "threads must be at least 1");
  const auto started = std::chrono::steady_clock::now();
  validateDataset(*req.data, req.weights);
  CycleState state = initialState(req);
  std::unique_ptr<CycleRunner> runner = makeCycleRunner(req.device, *req.data, req.weights, req.control.threads);

  CycleSchedule schedule(req.data->design, state.fixed, req.control.activeSet);

  const ReadoutNeeds needs = readoutNeeds(req.control.convergence, req.control.verbose);
  FitResult result;
  CycleReadout previous = runner->reset(state);
  double previousPrior = logPriorTotal(state.beta, state.prior);
  result.status = finite(previous) ? FitStatus::MaxIterations : FitStatus::IllConditioned;

  while (result.status == FitStatus::MaxIterations &&
         result.iterations < req.control.maxIterations) {
    if (progress) progress->checkInterrupt();
    const CyclePlan& plan = schedule.begin(state);
    const CycleReadout current = runner->runCycle(state, plan, needs);
    ++result.iterations;
    const double logPrior = logPriorTotal(state.beta, state.prior);
    if (!finite(current)) {
      result.status = FitStatus::IllConditioned;
      break;
    }
    const double measure =
        convergenceMeasure(req.control.convergence, previous, current, previousPrior, logPrior);
    if (progress && req.control.verbose)
      progress->message("cycle " + std::to_string(result.iterations) + " (" +
                        (schedule.lastWasFull() ? "full" : "active") + ", " +
                        std::to_string(plan.coordinates.size()) + " coordinates): " +
                        "log-likelihood " + std::to_string(current.logLikelihood) +
                        ", change " + std::to_string(measure) + ", moved " +
                        std::to_string(current.coordinatesMoved));
    if (schedule.finish(measure <= req.control.tolerance, state))
      result.status = FitStatus::Success;
    previous = current;
    previousPrior = logPrior;
  }

  // Report the log-likelihood from freshly recomputed sums, not from drifted ones.
  const CycleReadout final = runner->reset(state);
  result.beta = state.beta;
  result.logLikelihood = final.logLikelihood;
  result.logPrior = logPriorTotal(state.beta, state.prior);
  if (!finite(final)) result.status = FitStatus::IllConditioned;
  if (req.keepLinearPredictor) result.eta = runner->linearPredictor();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace argus
