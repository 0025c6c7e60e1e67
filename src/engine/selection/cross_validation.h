// Cross-validation of the prior variance (MODELS.md §6).
//
// Every penalized coordinate (prior kind other than None) gets the candidate variance; flat
// coordinates stay flat. For a candidate v and each (repetition, fold) task, a fold fit is
// fitCcd() on the one shared Dataset with weights = user weight x (row not in the fold), and
// its score is the predictive log-likelihood of the held-out rows (weights = user weight x
// (row in the fold)) at the fold fit's beta. The objective is the mean over all tasks; the
// curve also keeps the standard deviation and every task's value.
//
// Warm starts (unless resetCoefficients; then every fit starts from the request's start):
// each candidate first gets a fit on all the data, started from the all-data solution at
// the nearest candidate evaluated before, and its fold fits start from that fit's solution
// (why: FoldFits in cross_validation.cpp). Fold fits run in parallel through runTasks();
// each depends only on the variances evaluated before, and the mean is summed in task order,
// so the result is bit-identical for any number of threads.
//
// Starting variance of the auto search when none is given (startingVarianceGuess()):
//  - normal prior: Genkin, Lewis and Madigan's (2007) default, v0 = d / mean_r ||x_r||^2,
//    with d the number of penalized (free) coordinates and ||x_r||^2 the row's squared norm
//    over them: it makes the prior variance of a typical row's linear predictor about 1,
//    whatever the scale and sparsity of the covariates (initialVarianceGuess()).
//  - Laplace prior: the universal threshold (Donoho and Johnstone), the penalty that keeps
//    covariates without any effect at zero: at the null fit (penalized coefficients 0, the
//    others fitted), a null covariate's score g_j is about N(0, h_j) with h_j its Fisher
//    information, and the largest of d such |g_j| is about sqrt(2 log d h), so lambda0 =
//    sqrt(2 log d mean_j h_j) and v0 = 2 / lambda0^2 = 1 / (log d mean_j h_j)
//    (laplaceVarianceGuess()). Cross-validation, which scores prediction, prefers a weaker
//    penalty than this unless the data carry no signal, so the search usually walks up from
//    v0 towards weaker penalties, as a lasso path does: its first fits are sparse and cheap
//    and every later one starts from the fold's sparser solution. A start on the other
//    side (the normal prior's v0, say) pays for dense cold fits first and for the walk back
//    (Cox, N = 1e5, P = 1000: 4 wasted decades, bench/RESULTS.md).
// The search moves by decades from there, so only the order of magnitude matters. Where it
// ends on a model with every penalized coordinate at 0, or the covariates' scales differ
// widely, crossValidate() also scores a weak penalty (weakLaplacePenalty()) and searches
// from there if that is better: the held-out curve can then have a second, better hump.
#pragma once

#include <functional>
#include <vector>

#include "selection/folds.h"
#include "selection/variance_search.h"
#include "solver/ccd_solver.h"

namespace argus {

// The all-data fit of each candidate only places its folds' starts, so it stops at this many
// times the user's tolerance: the folds' first cycle moves about 7e-3 (relative change) away
// from it (Cox, N = 1e5), well beyond 100 x the default 1e-6. Its optimality tolerance is
// relaxed by the same factor (1e-2 standard errors by default).
inline constexpr double kAllDataToleranceFactor = 100.0;

struct CrossValidationSettings {
  SearchSettings search;          // search.start is ignored: see startingVariance
  double startingVariance = 0.0;  // auto search start; <= 0: initialVarianceGuess()
  bool resetCoefficients = false;
  int threads = 1;
  bool messages = false;          // one progress line per candidate variance
};

// One fold task's outcome: the held-out predictive log-likelihood of its fit, whether the
// fit converged (Success or NoFiniteMle), and its CCD cycles.
struct FoldTaskResult {
  double value = 0.0;
  bool converged = true;
  int cycles = 0;
  bool infinite = false;  // NO_FINITE_MLE: scored where the fit stopped
};

// Runs all fold tasks (ids 0 .. tasks - 1, repetition-major) of one candidate variance from
// `start`, in place of the threads: to spread them over processes (each process calls
// runFoldTasks() on its share). Each task's result does not depend on where it runs.
using FoldTaskRunner = std::function<std::vector<FoldTaskResult>(
    double variance, const std::vector<double>& start, std::size_t tasks)>;

struct CrossValidationRequest {
  FitRequest fit;  // data, user weights, prior kinds, start, fixed, control, device
  FoldPlan folds;
  CrossValidationSettings settings;
  FoldTaskRunner taskRunner;  // empty: the fold tasks run on settings.threads threads
};

struct CvEvaluation {
  double variance = 0.0;
  double mean = 0.0;
  double sd = 0.0;
  std::vector<double> values;  // one per task, repetition-major
  int notConverged = 0;        // fold fits whose status was not Success
  int noFiniteMle = 0;         // fold fits with coefficients running off to infinity
  long long cycles = 0;        // CCD cycles of its fold fits, summed (the work it took)
  int allDataCycles = 0;       // CCD cycles of the all-data fit its fold fits start from
  double allDataSeconds = 0.0;  // elapsed: the all-data fit (progress messages only)
  double foldSeconds = 0.0;     // elapsed: the fold fits and their held-out scores
  int batchedFits = 0;         // fold fits that ran in a batch on the device (solver/batched_start.h)
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

// The universal-threshold variance of a Laplace prior (above); `fit` gives the data, user
// weights, priors (penalized = kind other than None), start, fixed flags and controls of the
// null fit. Returns 0 when it cannot be formed (no penalized coordinate with information, or
// a failed null fit).
double laplaceVarianceGuess(const FitRequest& fit);

// A weak Laplace penalty for every penalized coordinate: 100 times the universal-threshold
// variance of the coordinate with the least information at the null fit (the one a given
// variance penalizes most, relative to its scale); 0 where it cannot be formed. And how far
// the coordinates' scales differ: the largest over the smallest information per stored
// entry (about 1 for 0/1 covariates of any prevalence; a covariate near 130 beside 0/1 ones,
// ~1e4). crossValidate() scores the weak penalty when the auto search has chosen an empty
// model or the disparity exceeds 100.
struct WeakLaplacePenalty {
  double variance = 0.0;
  double scaleDisparity = 1.0;
};
WeakLaplacePenalty weakLaplacePenalty(const FitRequest& fit);

// laplaceVarianceGuess() when every penalized coordinate has a Laplace prior (and it is
// positive), initialVarianceGuess() otherwise.
double startingVarianceGuess(const FitRequest& fit);

// Sets every penalized coordinate's variance to `variance`.
std::vector<CoordinatePrior> withVariance(std::vector<CoordinatePrior> prior, double variance);

CrossValidationResult crossValidate(const CrossValidationRequest& request,
                                    ProgressSink* progress = nullptr);

// The fold tasks `tasks` of candidate `variance`, each fold fit started from `start` (the
// all-data solution that crossValidate() hands to its FoldTaskRunner), on
// request.settings.threads threads: exactly what crossValidate() computes for those tasks.
std::vector<FoldTaskResult> runFoldTasks(const CrossValidationRequest& request, double variance,
                                         const std::vector<double>& start,
                                         const std::vector<std::size_t>& tasks,
                                         ProgressSink* progress = nullptr);

}  // namespace argus
