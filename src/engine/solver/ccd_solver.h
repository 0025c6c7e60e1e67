// Cyclic coordinate descent: the outer loop around CycleRunner::runCycle().
//
// fitCcd() validates the request, builds a runner through the dispatch point, sets aside the
// flat-prior coordinates the data cannot identify (aliased: held at 0), cycles until a
// convergence rule is met and the optimality check certifies the result (or maxIterations is
// reached), probes for coefficients without a finite estimate, and reports a status: each a
// named step (solver/ccd_fit.h). It never asks which device the runner uses.
//
// Certification. The rules of convergenceType (MODELS.md §4) only watch the change per
// cycle, which is small both at the optimum and when CCD crawls towards it. So a rule met is
// a candidate: the fit ends with Success only when the first-order optimality conditions hold
// at the returned beta, from a fresh full gradient (CycleRunner::checkOptimality,
// priors/optimality.h): every free coordinate within `optimalityTolerance` conditional
// standard errors of its optimum. When the check fails, cycling goes on, and the rule must
// then be met at a tenth of the tolerance before the next check (down to 1e-6 of it).
// The check also runs every kCheckEvery full cycles while the rule is not met, once it has
// failed or while a flat-prior coefficient is far out (recession.h): it ends the
// fit only once the rule has been met before (the tightened rule may be out of reach of
// rounding), or, with NoFiniteMle, when the conditions hold while coefficients keep moving
// off to infinity (solver/recession.h), which no relative-change rule ever sees settle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/progress_sink.h"
#include "data/dataset.h"
#include "solver/compute_device.h"
#include "priors/prior.h"
#include "solver/convergence.h"
#include "solver/majorized_start.h"

namespace argus {

// NoFiniteMle: the optimality conditions hold (or the cycles ran out) while some flat-prior
// coefficients run off to infinity (solver/recession.h): FitResult::infinite names them.
enum class FitStatus { Success, MaxIterations, IllConditioned, NoFiniteMle };
std::string fitStatusName(FitStatus status);

struct ControlSettings {
  double tolerance = 1e-6;
  // Largest optimality violation (priors/optimality.h) a Success may have, in conditional
  // standard errors.
  double optimalityTolerance = 1e-4;
  int maxIterations = 1000;
  ConvergenceType convergence = ConvergenceType::Gradient;
  double initialBound = 2.0;
  // Extrapolate each cycle's move where the likelihood supports it (likelihood_cycle_runner.h).
  bool extrapolate = true;
  // A Newton step on the intercept and dense columns after each sweep
  // (solver/block_newton.h). Off: plain CCD (the tests compare the two).
  bool blockNewton = true;
  // Active-set cycling (solver/cycle_schedule.h): cycle over the nonzero and unpenalized
  // coordinates until they settle, then confirm with a full cycle.
  bool activeSet = true;
  // Before the cycles, proximal Newton steps on a separable model where the runner offers
  // row scores (survival) and, under Auto, a cycle's refreshes outweigh its entries
  // (solver/majorized_start.h). Never: the cycles start at `start`.
  MajorizedStartRule majorizedStart = MajorizedStartRule::Auto;
  // Threads for the work inside one coordinate (survival likelihoods split large columns into
  // chunks fixed by the data; see survival_likelihood.h). Results do not depend on it.
  // Cross-validation and the bootstrap run their fits with 1 and parallelize over fits.
  int threads = 1;
  bool verbose = false;
  // A progress line through ProgressSink::message at most every progressSeconds, none before
  // that much time has passed (common/progress_pace.h): "fit: cycle N: logLik L, change C,
  // tolerance T" after a cycle (C: the convergence rule's measure, T: what it must reach),
  // "fit: majorized start, step N: logLik L" after a step of the start; 0: after every one;
  // negative: none. The R bridge's single fits ask for it where R shows progress
  // (R/fit.R, fitWithProgress()); runs of many fits do not.
  double progressSeconds = -1.0;
};

struct FitRequest {
  const Dataset* data = nullptr;
  const double* weights = nullptr;           // nullptr: all 1
  std::vector<CoordinatePrior> prior;        // one per column
  std::vector<double> start;                 // empty: all 0
  std::vector<unsigned char> fixed;          // empty: none fixed
  ControlSettings control;
  ComputeDevice device;
  // The device copy of the data's design that the fits of one cross-validation or bootstrap
  // share (prepareDeviceRun); null: the fit makes its own where it needs one.
  std::shared_ptr<const SharedDeviceData> sharedDevice;
  // Return eta = offset + X beta at the solution in FitResult::eta (cross-validation scores
  // the held-out rows from it instead of recomputing it).
  bool keepLinearPredictor = false;
  // `start` is where a majorized start taken elsewhere met its rule (a batch of fits,
  // solver/batched_start.h): the certificate is checked there before any cycle, as after the
  // fit's own start.
  bool certifyStart = false;
};

struct FitResult {
  std::vector<double> beta;
  FitStatus status = FitStatus::Success;
  int iterations = 0;        // exact CCD cycles
  int majorizedSteps = 0;    // steps of the majorized start before them
  int majorizedPasses = 0;   // their inner passes: host sweeps, or a device's all-coordinates steps
  double logLikelihood = 0.0;
  double logPrior = 0.0;
  double seconds = 0.0;
  std::vector<double> eta;  // only with FitRequest::keepLinearPredictor
  // The optimality check at beta: the largest violation and its coordinate (-1: none free).
  // Measured at the returned beta for Success and MaxIterations; NaN where the numbers broke
  // down (IllConditioned).
  double optimality = 0.0;
  std::int32_t worstCoordinate = -1;
  std::vector<std::int32_t> aliased;   // flat-prior coordinates held at 0 (not identifiable)
  std::vector<std::int32_t> infinite;  // coordinates running off to infinity (NoFiniteMle)
  std::vector<std::int32_t> pinned;    // of those, one per direction of recession (recession.h)
  // Where the fit ran: the request's device with "auto" resolved, or the CPU where the device
  // "auto" chose could not take the fit (makeCycleRunner).
  ComputeDevice device;
};

// The request of a run of many fits of one data set (cross-validation, bootstrap: a type
// with a FitRequest `fit`): `req` itself where its fits are placed already (they carry shared
// device data, or need none and name a resolved device), else a copy in *local whose fits run
// on the device prepareDeviceRun() resolved, once for the run, and share its device data.
// Call after the data are validated.
template <typename Request>
const Request& withSharedDevice(const Request& req, Request* local) {
  if (req.fit.sharedDevice) return req;
  DeviceRun run = prepareDeviceRun(req.fit.device, *req.fit.data);
  if (!run.shared && req.fit.device.kind != ComputeDevice::Kind::Auto) return req;
  *local = req;
  local->fit.device = run.device;
  local->fit.sharedDevice = std::move(run.shared);
  return *local;
}

double logPriorTotal(const std::vector<double>& beta, const std::vector<CoordinatePrior>& prior);

FitResult fitCcd(const FitRequest& request, ProgressSink* progress = nullptr);

}  // namespace argus
