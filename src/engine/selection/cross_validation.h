// Cross-validation of the prior variance (MODELS.md §6).
//
// Every penalized coordinate (prior kind other than None) gets the candidate variance; flat
// coordinates stay flat. For a candidate v and each (repetition, fold) task, a fold fit is
// fitCcd() on the one shared Dataset with weights = user weight x (row not in the fold), and
// its score is the predictive log-likelihood of the held-out rows (weights = user weight x
// (row in the fold)) at the fold fit's beta. The objective is the mean over all tasks; the
// curve also keeps the standard deviation and every task's value.
//
// Warm starts: each task starts its fit from its own previous beta along the search (unless
// resetCoefficients, then from the request's start). Tasks run in parallel through
// runTasks(); each depends only on its own history, and the mean is summed in task order, so
// the result is bit-identical for any number of threads.
//
// Starting variance of the auto search when none is given: Genkin, Lewis and Madigan's (2007)
// default for a normal prior, v0 = d / mean_r ||x_r||^2, with d the number of penalized
// (free) coordinates and ||x_r||^2 the row's squared norm over them: it makes the prior
// variance of a typical row's linear predictor about 1, whatever the scale and sparsity of
// the covariates. The search moves by decades from there, so only its order of magnitude
// matters.
#pragma once

#include <vector>

#include "selection/folds.h"
#include "selection/variance_search.h"
#include "solver/ccd_solver.h"

namespace argus {

struct CrossValidationSettings {
  SearchSettings search;          // search.start is ignored: see startingVariance
  double startingVariance = 0.0;  // auto search start; <= 0: initialVarianceGuess()
  bool resetCoefficients = false;
  int threads = 1;
  bool messages = false;          // one progress line per candidate variance
};

struct CrossValidationRequest {
  FitRequest fit;  // data, user weights, prior kinds, start, fixed, control, device
  FoldPlan folds;
  CrossValidationSettings settings;
};

struct CvEvaluation {
  double variance = 0.0;
  double mean = 0.0;
  double sd = 0.0;
  std::vector<double> values;  // one per task, repetition-major
  int notConverged = 0;        // fold fits whose status was not Success
  long long cycles = 0;        // CCD cycles of its fold fits, summed (the work it took)
  int order = 0;               // 1 for the first candidate the search scored, 2 next, ...
};

struct CrossValidationResult {
  double variance = 0.0;  // the chosen variance
  double score = 0.0;     // its mean predictive log-likelihood
  bool bracketed = true;
  double startingVariance = 0.0;  // auto search
  std::vector<CvEvaluation> curve;  // in increasing variance
  int folds = 0;
  int repetitions = 0;
  SamplingUnit unit = SamplingUnit::Row;
};

double initialVarianceGuess(const Dataset& data, const std::vector<CoordinatePrior>& prior,
                            const std::vector<unsigned char>& fixed);

// Sets every penalized coordinate's variance to `variance`.
std::vector<CoordinatePrior> withVariance(std::vector<CoordinatePrior> prior, double variance);

CrossValidationResult crossValidate(const CrossValidationRequest& request,
                                    ProgressSink* progress = nullptr);

}  // namespace argus
