#include "solver/ccd_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "data/column_centring.h"
#include "solver/recession.h"

namespace argus {

namespace {

bool finite(const CycleReadout& r) {
  return std::isfinite(r.logLikelihood) && std::isfinite(r.sumAbsEta) &&
         std::isfinite(r.weightedOutcomeEta);
}

}  // namespace

// The state the cycles start from. The trust region limits how far a step moves the linear
// predictor: initialBound in units of x_j's largest |value| (indicator columns: beta units),
// so that a column's scale does not decide how many cycles its coefficient needs to get
// anywhere.
CycleState initialState(const FitRequest& req) {
  const std::size_t p = req.data->design.nColumns();
  CycleState s;
  s.beta = req.start.empty() ? std::vector<double>(p, 0.0) : req.start;
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

MajorizedStartOptions majorizedStartOptions(const ControlSettings& control) {
  MajorizedStartOptions options;
  options.convergence = control.convergence;
  options.tolerance = control.tolerance;
  options.threads = control.threads;
  return options;
}

// The plan: the state, the runner from the dispatch point (or the one lent), and the
// flat-prior columns the data cannot identify held at 0.
CcdFit::CcdFit(const FitRequest& req, ProgressSink* progress, CycleRunner* runner)
    : req_(req),
      data_(*req.data),
      progress_(progress),
      pace_(progress ? req.control.progressSeconds : -1.0),
      state_(initialState(req)),
      device_(req.device),
      ownRunner_(runner ? nullptr
                        : makeCycleRunner(req.device, data_, req.weights, req.control.threads,
                                          req.sharedDevice, &device_)),
      runner_(runner ? runner : ownRunner_.get()),
      previous_(runner_->reset(state_)),
      intercept_(interceptColumn(data_.design)),
      shiftInvariant_(hasStratumBaseline(data_.model)),  // (solver/recession.h)
      // Least squares has no direction of recession (ModelTraits::canRecede): its probes move
      // eta by kProbeEta in the outcome's units, which next to an outcome of 5e8 (revenue in
      // dollars) cost less than the log-likelihood's rounding: such a fit was NO_FINITE_MLE.
      canRecede_(modelTraits(data_.model).canRecede) {
  setAsideAliased();
  // Exact duplicates under normal priors take their optimum's split before every check
  // (solver/duplicate_split.h).
  duplicateSplit_.emplace(data_.design, state_);
  // Where the start set out from: the recession probe's first reference, so that a
  // combination the majorized start ran far out along is still seen moving.
  older_ = newer_ = state_.beta;
  maxAbs_.resize(state_.beta.size());
  for (std::size_t j = 0; j < maxAbs_.size(); ++j) maxAbs_[j] = columnMaxAbs(data_.design.columns[j]);
}

void CcdFit::setAsideAliased() {
  const bool anyFlat = std::any_of(state_.prior.begin(), state_.prior.end(),
                                   [](const CoordinatePrior& p) { return p.kind == PriorKind::None; });
  if (!anyFlat || !finite(previous_)) return;
  result_.aliased = runner_->aliasedColumns(state_);
  for (const std::int32_t j : result_.aliased) {
    state_.fixed[j] = 1;
    state_.beta[j] = 0.0;
  }
  if (!result_.aliased.empty()) previous_ = runner_->reset(state_);
}

// The majorized start where it pays (or is asked for), certified where it stands when it met
// the rule; then what the cycles need.
void CcdFit::start() {
  if (req_.certifyStart) {
    prepareCycles(finite(previous_) && certifyStart());
    return;
  }
  const MajorizedStartRule rule = req_.control.majorizedStart;
  const bool take = finite(previous_) &&
                    (rule == MajorizedStartRule::Always ||
                     (rule == MajorizedStartRule::Auto && majorizedStartPays(*runner_, data_, state_)));
  bool certified = false;
  if (take) {
    MajorizedStartOptions options = majorizedStartOptions(req_.control);
    options.afterStep = [this](int steps, const CycleReadout& at) { reportStep(steps, at); };
    const MajorizedStartResult start = majorizedStart(*runner_, data_, state_, previous_, options, progress_);
    if (start.used) previous_ = start.readout;
    result_.majorizedSteps = start.steps;
    result_.majorizedPasses = start.sweeps;
    if (start.used && verbose())
      progress_->message("majorized start: " + std::to_string(start.steps) + " steps, " +
                         std::to_string(start.sweeps) + " sweeps, log-likelihood " +
                         std::to_string(previous_.logLikelihood));
    if (start.used && start.ruleMet && finite(previous_)) certified = certifyStart();
  }
  prepareCycles(certified);
}

// The start met the rule (its steps are the fit's moves): certify it where it stands. A
// failed check leaves everything to the exact cycles, as if it had not been made.
bool CcdFit::certifyStart() {
  duplicateSplit_->apply(state_);
  const OptimalityReport report = runner_->checkOptimality(state_);
  if (verbose())
    progress_->message("optimality check after the majorized start: largest violation " +
                       std::to_string(report.maxViolation) + " (coordinate " +
                       std::to_string(report.worst) + ")");
  if (report.maxViolation > req_.control.optimalityTolerance) return false;
  result_.status = FitStatus::Success;
  result_.optimality = report.maxViolation;
  result_.worstCoordinate = report.worst;
  return true;
}

void CcdFit::prepareCycles(bool certifiedByStart) {
  schedule_.emplace(data_.design, state_.fixed, req_.control.activeSet);
  needs_ = readoutNeeds(req_.control.convergence, req_.control.verbose);
  previousPrior_ = logPriorTotal(state_.beta, state_.prior);
  if (!certifiedByStart) {
    result_.status = finite(previous_) ? FitStatus::MaxIterations : FitStatus::IllConditioned;
    result_.optimality = NAN;
  }
  gate_ = req_.control.tolerance;
  guard_.emplace(maxAbs_, previous_.logLikelihood + previousPrior_);
}

// Exact cycles, each met rule (or periodic check) a candidate the certificate accepts or not.
void CcdFit::cycle() {
  while (result_.status == FitStatus::MaxIterations && result_.iterations < req_.control.maxIterations) {
    if (progress_) progress_->checkInterrupt();
    const CyclePlan& plan = schedule_->begin(state_);
    guard_->beforeCycle(state_);
    const CycleReadout current = runner_->runCycle(state_, plan, needs_);
    ++result_.iterations;
    if (undoneByGuard(current)) continue;
    if (result_.iterations % kMoveWindow == 0) {
      older_.swap(newer_);
      newer_ = state_.beta;
    }
    const double logPrior = logPriorTotal(state_.beta, state_.prior);
    if (!finite(current)) {
      result_.status = FitStatus::IllConditioned;
      break;
    }
    const double measure =
        convergenceMeasure(req_.control.convergence, previous_, current, previousPrior_, logPrior);
    noteCycle(plan, current, measure);
    reportCycle(current, measure);
    const bool ruleMet = schedule_->finish(measure <= gate_, state_);
    const bool periodic = schedule_->lastWasFull() && result_.iterations - lastCheck_ >= kCheckEvery &&
                          (failedChecks_ > 0 || hasFarCoefficient(state_, maxAbs_));
    previous_ = current;
    previousPrior_ = logPrior;
    if (ruleMet || periodic) checkRule(ruleMet);
  }
}

// A cycle that lowered the log posterior after large moves is undone (overshoot_guard.h).
bool CcdFit::undoneByGuard(const CycleReadout& current) {
  CycleReadout undone;
  if (guard_->keep(*runner_, state_, current, needs_.logLikelihood, &undone)) return false;
  if (verbose())
    progress_->message("cycle " + std::to_string(result_.iterations) +
                       " lowered the log posterior: undone, its trust regions shrunk");
  previous_ = undone;
  schedule_->finish(false, state_);
  return true;
}

void CcdFit::noteCycle(const CyclePlan& plan, const CycleReadout& current, double measure) const {
  if (!verbose()) return;
  progress_->message("cycle " + std::to_string(result_.iterations) + " (" +
                     (schedule_->lastWasFull() ? "full" : "active") + ", " +
                     std::to_string(plan.coordinates.size()) + " coordinates): " + "log-likelihood " +
                     std::to_string(current.logLikelihood) + ", change " + std::to_string(measure) +
                     ", moved " + std::to_string(current.coordinatesMoved));
}

// The host's progress line (ControlSettings::progressSeconds): at most one per cycle or step
// of the start, and only where the pace says one is due, from this (the calling) thread.
void CcdFit::reportStep(int steps, const CycleReadout& at) {
  if (!pace_.due()) return;
  char text[128];
  std::snprintf(text, sizeof text, "fit: majorized start, step %d: logLik %.8g", steps,
                at.logLikelihood);
  progress_->message(text);
}

void CcdFit::reportCycle(const CycleReadout& current, double measure) {
  if (!pace_.due()) return;
  // Where the rule needs no log-likelihood the cycle did not compute it: one O(N) pass per
  // report, from the runner's sums (it moves nothing).
  const double logLikelihood = needs_.logLikelihood ? current.logLikelihood : runner_->logLikelihood(state_);
  char text[160];
  std::snprintf(text, sizeof text, "fit: cycle %d: logLik %.8g, change %.2g, tolerance %.2g",
                result_.iterations, logLikelihood, measure, gate_);
  progress_->message(text);
}

// The certificate from a full gradient at the cycle's beta: Success where the rule was met
// (or a check failed before), NoFiniteMle where coefficients run off while the conditions
// hold, else a tightened rule.
void CcdFit::checkRule(bool ruleMet) {
  duplicateSplit_->apply(state_);
  const OptimalityReport report = runner_->checkOptimality(state_);
  lastCheck_ = result_.iterations;
  result_.optimality = report.maxViolation;
  result_.worstCoordinate = report.worst;
  if (verbose())
    progress_->message("optimality check after cycle " + std::to_string(result_.iterations) +
                       ": largest violation " + std::to_string(report.maxViolation) + " (coordinate " +
                       std::to_string(report.worst) + ")");
  const bool optimal = report.maxViolation <= req_.control.optimalityTolerance;
  if (optimal && (ruleMet || failedChecks_ > 0)) {
    result_.status = FitStatus::Success;
  } else if (optimal && canRecede_) {
    // Optimal to the tolerance while the rule still sees movement: either the rule asks for
    // more precision (go on), or coefficients are running off to infinity, which moves them
    // by a constant amount per cycle forever (stop there).
    result_.infinite = probeRecession();
    if (!result_.infinite.empty()) result_.status = FitStatus::NoFiniteMle;
  } else if (ruleMet) {
    ++failedChecks_;
    gate_ = std::max(gate_ * 0.1, req_.control.tolerance * kGateFloor);
  }
}

std::vector<std::int32_t> CcdFit::probeRecession() {
  std::vector<double> move(state_.beta.size());
  for (std::size_t j = 0; j < move.size(); ++j) move[j] = state_.beta[j] - older_[j];
  return findRecession(*runner_, state_, maxAbs_, move, intercept_, shiftInvariant_, &data_.design,
                       &result_.pinned);
}

// The log-likelihood from freshly recomputed sums, not from drifted ones: rebuilt from the
// running eta, or from X beta itself where a cycle went wrong or eta is returned
// (cross-validation scores the held-out rows at it: X beta, as any fit at that beta gives).
void CcdFit::readOut() {
  duplicateSplit_->apply(state_);  // the returned beta at its split too (X beta is the same)
  const CycleReadout final = result_.status == FitStatus::IllConditioned || req_.keepLinearPredictor
                                 ? runner_->reset(state_)
                                 : runner_->rebuild(state_);
  result_.beta = state_.beta;
  result_.logLikelihood = final.logLikelihood;
  result_.logPrior = logPriorTotal(state_.beta, state_.prior);
  if (!finite(final)) result_.status = FitStatus::IllConditioned;
}

// Where the returned beta stands, not a check made cycles before (or none), and whether
// coefficients run off to infinity there.
void CcdFit::certify() {
  if (result_.status == FitStatus::MaxIterations) {
    const OptimalityReport report = runner_->checkOptimality(state_);
    result_.optimality = report.maxViolation;
    result_.worstCoordinate = report.worst;
  }
  if (canRecede_ && (result_.status == FitStatus::Success || result_.status == FitStatus::MaxIterations)) {
    result_.infinite = probeRecession();
    if (!result_.infinite.empty()) result_.status = FitStatus::NoFiniteMle;
  }
}

FitResult CcdFit::result() {
  if (req_.keepLinearPredictor) result_.eta = runner_->linearPredictor();
  result_.device = device_;
  return std::move(result_);
}

}  // namespace argus
