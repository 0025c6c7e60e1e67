#include "solver/ccd_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/errors.h"
#include "data/column_centring.h"
#include "solver/cycle_schedule.h"
#include "solver/duplicate_split.h"
#include "solver/overshoot_guard.h"
#include "solver/recession.h"

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
  ARGUS_REQUIRE(req.control.optimalityTolerance > 0.0, "optimalityTolerance must be positive");
  ARGUS_REQUIRE(req.control.maxIterations > 0, "maxIterations must be positive");
  ARGUS_REQUIRE(req.control.initialBound > 0.0, "initialBound must be positive");

  CycleState s;
  s.beta = req.start.empty() ? std::vector<double>(p, 0.0) : req.start;
  for (double b : s.beta) ARGUS_REQUIRE(std::isfinite(b), "starting coefficients must be finite");
  // The trust region limits how far a step moves the linear predictor: initialBound in units
  // of x_j's largest |value| (indicator columns: beta units), so that a column's scale does
  // not decide how many cycles its coefficient needs to get anywhere.
  s.bound.resize(p);
  for (std::size_t j = 0; j < p; ++j) {
    const double scale = columnMaxAbs(req.data->design.columns[j]);
    s.bound[j] = scale > 0.0 ? req.control.initialBound / scale : req.control.initialBound;
  }
  s.prior = req.prior;
  s.fixed = req.fixed.empty() ? std::vector<unsigned char>(p, 0) : req.fixed;
  s.extrapolate = req.control.extrapolate;
  s.blockNewton = req.control.blockNewton;
  s.tracksEtaChange = readoutNeeds(req.control.convergence, req.control.verbose).etaChange;
  return s;
}

bool finite(const CycleReadout& r) {
  return std::isfinite(r.logLikelihood) && std::isfinite(r.sumAbsEta) &&
         std::isfinite(r.weightedOutcomeEta);
}

FitResult fitOnData(const FitRequest& req, ProgressSink* progress);

}  // namespace

// Survival and conditional fits run on their data with huge-mean columns centred
// (ShiftInvariantCentring, data/column_centring.h): the same model, better digits.
FitResult fitCcd(const FitRequest& request, ProgressSink* progress) {
  ARGUS_REQUIRE(request.data != nullptr, "no data");
  const ShiftInvariantCentring centring(*request.data);
  if (!centring.active()) return fitOnData(request, progress);
  FitRequest req = request;
  req.data = &centring.data();
  req.sharedDevice = nullptr;  // made for the input's columns
  FitResult result = fitOnData(req, progress);
  if (!result.eta.empty()) centring.addEtaShift(result.beta, &result.eta);
  return result;
}

namespace {

FitResult fitOnData(const FitRequest& req, ProgressSink* progress) {
  ARGUS_REQUIRE(req.data != nullptr, "no data");
  ARGUS_REQUIRE(req.control.threads >= 1, "threads must be at least 1");
  const auto started = std::chrono::steady_clock::now();
  validateDataset(*req.data, req.weights);
  CycleState state = initialState(req);
  std::unique_ptr<CycleRunner> runner = makeCycleRunner(req.device, *req.data, req.weights, req.control.threads,
                                                             req.sharedDevice);

  FitResult result;
  CycleReadout previous = runner->reset(state);
  const bool anyFlat = std::any_of(state.prior.begin(), state.prior.end(), [](const CoordinatePrior& p) {
    return p.kind == PriorKind::None;
  });
  if (anyFlat && finite(previous)) {
    result.aliased = runner->aliasedColumns(state);
    for (const std::int32_t j : result.aliased) {
      state.fixed[j] = 1;
      state.beta[j] = 0.0;
    }
    if (!result.aliased.empty()) previous = runner->reset(state);
  }
  // Exact duplicates under normal priors take their optimum's split before every check
  // (solver/duplicate_split.h).
  const DuplicateSplit duplicateSplit(req.data->design, state);
  // Where the start set out from: the recession probe's first reference (below), so that a
  // combination the start ran far out along is still seen moving.
  const std::vector<double> beforeStart = state.beta;
  const MajorizedStartRule rule = req.control.majorizedStart;
  bool certifiedByStart = false;
  if (finite(previous) && (rule == MajorizedStartRule::Always ||
                           (rule == MajorizedStartRule::Auto && majorizedStartPays(*runner, *req.data, state)))) {
    MajorizedStartOptions options;
    options.convergence = req.control.convergence;
    options.tolerance = req.control.tolerance;
    options.threads = req.control.threads;
    const MajorizedStartResult start = majorizedStart(*runner, *req.data, state, previous, options, progress);
    if (start.used) previous = start.readout;
    result.majorizedSteps = start.steps;
    if (start.used && progress && req.control.verbose)
      progress->message("majorized start: " + std::to_string(start.steps) + " steps, " +
                        std::to_string(start.sweeps) + " sweeps, log-likelihood " +
                        std::to_string(previous.logLikelihood));
    // The start met the rule (its steps are the fit's moves): certify it where it stands.
    // A failed check leaves everything to the exact cycles, as if it had not been made.
    if (start.used && start.ruleMet && finite(previous)) {
      duplicateSplit.apply(state);
      const OptimalityReport report = runner->checkOptimality(state);
      if (progress && req.control.verbose)
        progress->message("optimality check after the majorized start: largest violation " +
                          std::to_string(report.maxViolation) + " (coordinate " +
                          std::to_string(report.worst) + ")");
      if (report.maxViolation <= req.control.optimalityTolerance) {
        certifiedByStart = true;
        result.optimality = report.maxViolation;
        result.worstCoordinate = report.worst;
      }
    }
  }
  CycleSchedule schedule(req.data->design, state.fixed, req.control.activeSet);

  const ReadoutNeeds needs = readoutNeeds(req.control.convergence, req.control.verbose);
  double previousPrior = logPriorTotal(state.beta, state.prior);
  if (certifiedByStart) {
    result.status = FitStatus::Success;
  } else {
    result.status = finite(previous) ? FitStatus::MaxIterations : FitStatus::IllConditioned;
    result.optimality = NAN;
  }

  constexpr double kGateFloor = 1e-6;  // relative to tolerance
  constexpr int kCheckEvery = 10;
  double gate = req.control.tolerance;
  int failedChecks = 0, lastCheck = 0;
  // Where beta was 8 to 16 cycles ago (before the majorized start at first): the recent move, along which
  // coefficients running off to infinity are probed (solver/recession.h). Over several cycles
  // the finite coefficients have settled and the move is along the direction of recession.
  constexpr int kMoveWindow = 8;
  std::vector<double> older = beforeStart, newer = beforeStart;
  auto recentMove = [&]() {
    std::vector<double> move(state.beta.size());
    for (std::size_t j = 0; j < move.size(); ++j) move[j] = state.beta[j] - older[j];
    return move;
  };
  const std::int32_t intercept = interceptColumn(req.data->design);
  const bool shiftInvariant = hasStratumBaseline(req.data->model);  // (solver/recession.h)
  // Least squares has no direction of recession (ModelTraits::canRecede): its probes move eta
  // by kProbeEta in the outcome's units, which next to an outcome of 5e8 (revenue in dollars)
  // cost less than the log-likelihood's rounding: such a fit was called NO_FINITE_MLE.
  const bool canRecede = modelTraits(req.data->model).canRecede;
  std::vector<double> maxAbs(state.beta.size());
  for (std::size_t j = 0; j < maxAbs.size(); ++j) maxAbs[j] = columnMaxAbs(req.data->design.columns[j]);
  OvershootGuard guard(maxAbs, previous.logLikelihood + previousPrior);
  while (result.status == FitStatus::MaxIterations &&
         result.iterations < req.control.maxIterations) {
    if (progress) progress->checkInterrupt();
    const CyclePlan& plan = schedule.begin(state);
    guard.beforeCycle(state);
    const CycleReadout current = runner->runCycle(state, plan, needs);
    ++result.iterations;
    CycleReadout undone;
    if (!guard.keep(*runner, state, current, needs.logLikelihood, &undone)) {
      if (progress && req.control.verbose)
        progress->message("cycle " + std::to_string(result.iterations) +
                          " lowered the log posterior: undone, its trust regions shrunk");
      previous = undone;
      schedule.finish(false, state);
      continue;
    }
    if (result.iterations % kMoveWindow == 0) {
      older.swap(newer);
      newer = state.beta;
    }
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
    const bool ruleMet = schedule.finish(measure <= gate, state);
    const bool periodic = schedule.lastWasFull() && result.iterations - lastCheck >= kCheckEvery &&
                          (failedChecks > 0 || hasFarCoefficient(state, maxAbs));
    previous = current;
    previousPrior = logPrior;
    if (!ruleMet && !periodic) continue;
    // Certify from a full gradient at the cycle's beta.
    duplicateSplit.apply(state);
    const OptimalityReport report = runner->checkOptimality(state);
    lastCheck = result.iterations;
    result.optimality = report.maxViolation;
    result.worstCoordinate = report.worst;
    if (progress && req.control.verbose)
      progress->message("optimality check after cycle " + std::to_string(result.iterations) +
                        ": largest violation " + std::to_string(report.maxViolation) +
                        " (coordinate " + std::to_string(report.worst) + ")");
    const bool optimal = report.maxViolation <= req.control.optimalityTolerance;
    if (optimal && (ruleMet || failedChecks > 0)) {
      result.status = FitStatus::Success;
    } else if (optimal && canRecede) {
      // Optimal to the tolerance while the rule still sees movement: either the rule asks for
      // more precision (go on), or coefficients are running off to infinity, which moves
      // them by a constant amount per cycle forever (stop there).
      result.infinite = findRecession(*runner, state, maxAbs, recentMove(), intercept, shiftInvariant,
                                      &req.data->design, &result.pinned);
      if (!result.infinite.empty()) result.status = FitStatus::NoFiniteMle;
    } else if (ruleMet) {
      ++failedChecks;
      gate = std::max(gate * 0.1, req.control.tolerance * kGateFloor);
    }
  }

  // Report the log-likelihood from freshly recomputed sums, not from drifted ones: rebuilt
  // from the running eta, or from X beta itself where a cycle went wrong or eta is returned
  // (cross-validation scores the held-out rows at it: X beta, as any fit at that beta gives).
  duplicateSplit.apply(state);  // the returned beta at its split too (X beta is the same)
  const CycleReadout final = result.status == FitStatus::IllConditioned || req.keepLinearPredictor
                                 ? runner->reset(state)
                                 : runner->rebuild(state);
  result.beta = state.beta;
  result.logLikelihood = final.logLikelihood;
  result.logPrior = logPriorTotal(state.beta, state.prior);
  if (!finite(final)) result.status = FitStatus::IllConditioned;
  if (result.status == FitStatus::MaxIterations && finite(final)) {
    // Report where the returned beta stands, not a check made cycles before (or none).
    const OptimalityReport report = runner->checkOptimality(state);
    result.optimality = report.maxViolation;
    result.worstCoordinate = report.worst;
  }
  if (canRecede && (result.status == FitStatus::Success || result.status == FitStatus::MaxIterations)) {
    result.infinite = findRecession(*runner, state, maxAbs, recentMove(), intercept, shiftInvariant,
                                      &req.data->design, &result.pinned);
    if (!result.infinite.empty()) result.status = FitStatus::NoFiniteMle;
  }
  if (req.keepLinearPredictor) result.eta = runner->linearPredictor();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace

}  // namespace argus
