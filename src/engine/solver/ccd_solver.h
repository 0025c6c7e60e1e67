// Cyclic coordinate descent: the outer loop around CycleRunner::runCycle().
//
// fitCcd() validates the request, builds a runner through the dispatch point, cycles until a
// convergence rule is met or maxIterations is reached, and reports a status. It never asks
// which device the runner uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "device/compute_device.h"
#include "priors/prior.h"
#include "solver/convergence.h"

namespace argus {

enum class FitStatus { Success, MaxIterations, IllConditioned };
std::string fitStatusName(FitStatus status);

// Receives progress messages and gives the host a chance to interrupt (the R bridge checks
// for Ctrl-C here). The default does nothing.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void message(const std::string&) {}
  virtual void checkInterrupt() {}
};

struct ControlSettings {
  double tolerance = 1e-6;
  int maxIterations = 1000;
  ConvergenceType convergence = ConvergenceType::Gradient;
  double initialBound = 2.0;
  // Extrapolate each cycle's move where the likelihood supports it (cpu_cycle_runner.h).
  bool extrapolate = true;
  // Active-set cycling (solver/cycle_schedule.h): cycle over the nonzero and unpenalized
  // coordinates until they settle, then confirm with a full cycle.
  bool activeSet = true;
  // Threads for the work inside one coordinate (survival likelihoods split large columns into
  // chunks fixed by the data; see survival_likelihood.h). Results do not depend on it.
  // Cross-validation and the bootstrap run their fits with 1 and parallelize over fits.
  int threads = 1;
  bool verbose = false;
};

struct FitRequest {
  const Dataset* data = nullptr;
  const double* weights = nullptr;           // nullptr: all 1
  std::vector<CoordinatePrior> prior;        // one per column
  std::vector<double> start;                 // empty: all 0
  std::vector<unsigned char> fixed;          // empty: none fixed
  ControlSettings control;
  ComputeDevice device;
  // Return eta = offset + X beta at the solution in FitResult::eta (cross-validation scores
  // the held-out rows from it instead of recomputing it).
  bool keepLinearPredictor = false;
};

struct FitResult {
  std::vector<double> beta;
  FitStatus status = FitStatus::Success;
  int iterations = 0;
  double logLikelihood = 0.0;
  double logPrior = 0.0;
  double seconds = 0.0;
  std::vector<double> eta;  // only with FitRequest::keepLinearPredictor
};

double logPriorTotal(const std::vector<double>& beta, const std::vector<CoordinatePrior>& prior);

FitResult fitCcd(const FitRequest& request, ProgressSink* progress = nullptr);

}  // namespace argus
