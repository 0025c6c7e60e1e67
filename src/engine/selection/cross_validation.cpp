#include "selection/cross_validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include "common/errors.h"
#include "common/task_runner.h"
#include "models/likelihood.h"
#include "models/predictive_likelihood.h"
#include "solver/batched_start.h"

namespace argus {

double initialVarianceGuess(const Dataset& data, const std::vector<CoordinatePrior>& prior,
                            const std::vector<unsigned char>& fixed) {
  const std::int64_t n = data.nRows();
  double sumSquares = 0.0;
  int penalized = 0;
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    if (prior[j].kind == PriorKind::None || (!fixed.empty() && fixed[j])) continue;
    ++penalized;
    forEachEntry(data.design.columns[j], n, [&](std::int64_t, double x) { sumSquares += x * x; });
  }
  const double meanSquaredNorm = n > 0 ? sumSquares / static_cast<double>(n) : 0.0;
  if (penalized == 0 || !(meanSquaredNorm > 0.0)) return 1.0;
  return penalized / meanSquaredNorm;
}

namespace {

// The Fisher information -d2L/dbeta_j^2 of each penalized coordinate with information, at the
// null fit (penalized coordinates held at 0, the others -- an intercept, unpenalized
// covariates -- fitted from the request's start), and how many coordinates are penalized.
// No information when the null fit fails.
struct NullInformation {
  std::vector<double> information;
  std::vector<double> perEntry;  // information / the column's stored entries
  int penalized = 0;
};

NullInformation nullInformation(const FitRequest& fit) {
  const Dataset& data = *fit.data;
  const std::size_t p = data.design.nColumns();
  auto penalized = [&](std::size_t j) {
    return fit.prior[j].kind != PriorKind::None && !(!fit.fixed.empty() && fit.fixed[j]);
  };
  NullInformation out;
  FitRequest null = fit;
  null.start = fit.start.empty() ? std::vector<double>(p, 0.0) : fit.start;
  null.fixed = fit.fixed.empty() ? std::vector<unsigned char>(p, 0) : fit.fixed;
  null.control.verbose = false;
  null.control.progressSeconds = -1.0;  // a run of fits reports as a whole
  bool anyFree = false;
  for (std::size_t j = 0; j < p; ++j) {
    if (fit.prior[j].kind != PriorKind::None) {
      null.start[j] = 0.0;
      null.fixed[j] = 1;
    }
    anyFree = anyFree || !null.fixed[j];
  }
  std::vector<double> beta = null.start;
  if (anyFree) {
    const FitResult result = fitCcd(null);
    if (result.status == FitStatus::IllConditioned) return out;
    for (double b : result.beta)
      if (!std::isfinite(b)) return out;
    beta = result.beta;
  }
  std::unique_ptr<Likelihood> likelihood = makeLikelihood(data, fit.weights);
  likelihood->reset(beta);
  for (std::size_t j = 0; j < p; ++j) {
    if (!penalized(j)) continue;
    ++out.penalized;
    const double information = -likelihood->gradHess(j).h;  // h = d2L / dbeta_j^2
    if (std::isfinite(information) && information > 0.0) {
      out.information.push_back(information);
      const std::int64_t entries = data.design.columns[j].nnz;
      if (entries > 0) out.perEntry.push_back(information / static_cast<double>(entries));
    }
  }
  return out;
}

// 1 / (log d  information): the universal threshold's variance for a coordinate of that
// information (cross_validation.h); 0 where it cannot be formed.
double thresholdVariance(int penalized, double information) {
  const double logD = std::max(std::log(static_cast<double>(penalized)), 0.5);
  const double v = 1.0 / (logD * information);
  return std::isfinite(v) && v > 0.0 ? v : 0.0;
}

// Every free penalized coordinate has a Laplace prior (the universal-threshold start's and the weak-penalty check's setting).
bool laplaceOnly(const FitRequest& fit) {
  bool laplace = false;
  for (std::size_t j = 0; j < fit.prior.size(); ++j) {
    if ((!fit.fixed.empty() && fit.fixed[j]) || fit.prior[j].kind == PriorKind::None) continue;
    if (fit.prior[j].kind != PriorKind::Laplace) return false;
    laplace = true;
  }
  return laplace;
}

// The universal-threshold start and the weak penalty, from one null fit.
struct LaplaceNullScales {
  double start = 0.0;
  WeakLaplacePenalty weak;
};

LaplaceNullScales laplaceNullScales(const FitRequest& fit) {
  const NullInformation null = nullInformation(fit);
  LaplaceNullScales out;
  if (null.information.empty()) return out;
  double sumInformation = 0.0;
  for (double h : null.information) sumInformation += h;
  if (sumInformation > 0.0) out.start = thresholdVariance(null.penalized, sumInformation / null.penalized);
  const double least = *std::min_element(null.information.begin(), null.information.end());
  out.weak.variance = 100.0 * thresholdVariance(null.penalized, least);
  if (!null.perEntry.empty()) {
    const auto range = std::minmax_element(null.perEntry.begin(), null.perEntry.end());
    out.weak.scaleDisparity = *range.second / *range.first;
  }
  return out;
}

}  // namespace

double laplaceVarianceGuess(const FitRequest& fit) { return laplaceNullScales(fit).start; }

WeakLaplacePenalty weakLaplacePenalty(const FitRequest& fit) { return laplaceNullScales(fit).weak; }

double startingVarianceGuess(const FitRequest& fit) {
  if (laplaceOnly(fit)) {
    const double guess = laplaceVarianceGuess(fit);
    if (guess > 0.0) return guess;
  }
  return initialVarianceGuess(*fit.data, fit.prior, fit.fixed);
}

std::vector<CoordinatePrior> withVariance(std::vector<CoordinatePrior> prior, double variance) {
  for (CoordinatePrior& p : prior)
    if (p.kind != PriorKind::None) p.variance = variance;
  return prior;
}

namespace {

bool allFinite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

// Fold task `task` (repetition-major): its training and held-out weights.
void taskWeights(const CrossValidationRequest& req, std::size_t task, std::vector<double>* training,
                 std::vector<double>* heldOut) {
  const int folds = req.folds.folds;
  const int repetition = static_cast<int>(task / static_cast<std::size_t>(folds));
  const int fold = static_cast<int>(task % static_cast<std::size_t>(folds));
  foldWeights(req.folds, repetition, fold, req.fit.weights, training, heldOut);
}

// What every fold fit shares: the candidate's priors, the start, one thread, eta kept.
FitRequest foldRequest(const CrossValidationRequest& req, const std::vector<CoordinatePrior>& prior,
                       const std::vector<double>& start) {
  FitRequest fitRequest = req.fit;
  fitRequest.prior = prior;
  fitRequest.start = start;
  fitRequest.control.verbose = false;
  fitRequest.control.progressSeconds = -1.0;  // a run of fits reports as a whole
  fitRequest.control.threads = 1;  // the folds are what runs in parallel
  fitRequest.keepLinearPredictor = true;
  return fitRequest;
}

FoldTaskResult scoreFoldFit(const CrossValidationRequest& req, const FitResult& fit, const std::vector<double>& heldOut);

// Fold task `task` (repetition-major): the fit on the other folds from `start`, scored by
// the predictive log-likelihood of the held-out rows.
FoldTaskResult fitFoldTask(const CrossValidationRequest& req, std::size_t task,
                           const std::vector<CoordinatePrior>& prior,
                           const std::vector<double>& start, ProgressSink* sink) {
  std::vector<double> training, heldOut;
  taskWeights(req, task, &training, &heldOut);
  FitRequest fitRequest = foldRequest(req, prior, start);
  fitRequest.weights = training.data();
  return scoreFoldFit(req, fitCcd(fitRequest, sink), heldOut);
}

FoldTaskResult scoreFoldFit(const CrossValidationRequest& req, const FitResult& fit, const std::vector<double>& heldOut) {
  FoldTaskResult result;
  result.value = allFinite(fit.beta)
                     ? predictiveLogLikelihoodAtEta(*req.fit.data, heldOut.data(), fit.eta)
                     : std::nan("");
  result.converged = fit.status == FitStatus::Success || fit.status == FitStatus::NoFiniteMle;
  result.infinite = fit.status == FitStatus::NoFiniteMle;
  result.cycles = fit.iterations;
  return result;
}

// The fold tasks `tasks` in batches of fits on the device (solver/batched_start.h: each
// pass over X serves every fold of a batch, kBatchLanes folds at a time), where the fits take
// the majorized start always and the device offers batches. Returns how many of the first
// tasks ran so (their results in `out`); the rest run one by one on threads: all of them where
// the device offers no batch, the remaining ones where it refuses a later batch (the first
// batch built the design's views, so less memory may be free). Every fold fit is still
// certified on its own.
std::size_t runFoldTaskBatches(const CrossValidationRequest& req, const std::vector<std::size_t>& tasks,
                               const std::vector<CoordinatePrior>& prior, const std::vector<double>& start,
                               ProgressSink* progress, std::vector<FoldTaskResult>* out) {
  out->assign(tasks.size(), FoldTaskResult{});
  if (req.fit.control.majorizedStart != MajorizedStartRule::Always) return 0;
  const FitRequest common = foldRequest(req, prior, start);
  std::size_t first = 0;
  for (; first < tasks.size(); first += kBatchLanes) {
    const std::size_t count = std::min<std::size_t>(kBatchLanes, tasks.size() - first);
    std::vector<std::vector<double>> training(count), heldOut(count);
    std::vector<const double*> weights(count);
    for (std::size_t i = 0; i < count; ++i) {
      taskWeights(req, tasks[first + i], &training[i], &heldOut[i]);
      weights[i] = training[i].data();
    }
    const auto batch = makeBatchedBoundSteps(common.device, *common.data, weights, common.sharedDevice);
    if (!batch) break;
    const std::vector<FitResult> fits = fitBatch(common, weights, *batch, progress);
    for (std::size_t i = 0; i < count; ++i) (*out)[first + i] = scoreFoldFit(req, fits[i], heldOut[i]);
  }
  return std::min(first, tasks.size());
}

// The fits of one cross-validation run and their warm starts.
//
// Unless resetCoefficients, each candidate variance first gets a fit on all the data (the
// user's weights), started from the all-data solution at the evaluated variance nearest in
// log scale, and every fold fit starts from it. A training set is (folds - 1) / folds of the
// data, so its solution lies much closer to the all-data one at the same variance than to
// its own at another candidate, a decade away: Cox, N = 2e4, P = 1000, 10 folds, 159
// fold-fit cycles cold and 86 from the all-data solution at the first candidate; 248 from
// the folds' previous solutions and 133 from the all-data one at the second. The all-data
// fit runs on the calling thread with `threads` (large survival columns split into chunks)
// and depends only on the variances evaluated before it, so results stay identical for any
// thread count.
class FoldFits {
 public:
  explicit FoldFits(const CrossValidationRequest& request)
      : req_(request),
        tasks_(static_cast<std::size_t>(request.folds.folds * request.folds.repetitions())),
        base_(request.fit.start.empty()
                  ? std::vector<double>(request.fit.data->design.nColumns(), 0.0)
                  : request.fit.start) {}

  CvEvaluation evaluate(double variance, ProgressSink* progress) {
    CvEvaluation out;
    out.variance = variance;
    out.values.assign(tasks_, 0.0);
    std::vector<unsigned char> converged(tasks_, 0), infinite(tasks_, 0);
    std::vector<int> cycles(tasks_, 0);
    const std::vector<CoordinatePrior> prior = withVariance(req_.fit.prior, variance);
    const std::vector<double>* start = &base_;
    if (!req_.settings.resetCoefficients) {
      const FitResult all = fitAllData(variance, prior, progress);
      out.allDataCycles = all.iterations;
      out.allDataSeconds = all.seconds;
      if (allFinite(all.beta)) start = &(allData_[variance] = all.beta);
    }
    const auto foldsStarted = std::chrono::steady_clock::now();
    if (req_.taskRunner) {
      const std::vector<FoldTaskResult> results = req_.taskRunner(variance, *start, tasks_);
      ARGUS_REQUIRE(results.size() == tasks_, "the fold task runner returned the wrong number of results");
      for (std::size_t i = 0; i < tasks_; ++i) {
        out.values[i] = results[i].value;
        converged[i] = results[i].converged;
        infinite[i] = results[i].infinite;
        cycles[i] = results[i].cycles;
      }
    } else {
      std::vector<std::size_t> all(tasks_);
      for (std::size_t i = 0; i < tasks_; ++i) all[i] = i;
      std::vector<FoldTaskResult> results;
      const std::size_t batched = runFoldTaskBatches(req_, all, prior, *start, progress, &results);
      out.batchedFits = static_cast<int>(batched);
      if (batched < tasks_)
        runTasks(tasks_ - batched, req_.settings.threads, [&](std::size_t i, ProgressSink* sink) {
          results[batched + i] = fitFoldTask(req_, batched + i, prior, *start, sink);
        }, progress);
      for (std::size_t i = 0; i < tasks_; ++i) {
        out.values[i] = results[i].value;
        converged[i] = results[i].converged;
        infinite[i] = results[i].infinite;
        cycles[i] = results[i].cycles;
      }
    }
    out.foldSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - foldsStarted).count();
    double sum = 0.0;
    for (std::size_t i = 0; i < tasks_; ++i) {
      sum += out.values[i];
      out.notConverged += converged[i] ? 0 : 1;
      out.noFiniteMle += infinite[i] ? 1 : 0;
      out.cycles += cycles[i];
    }
    out.mean = sum / static_cast<double>(tasks_);
    double squares = 0.0;
    for (double v : out.values) squares += (v - out.mean) * (v - out.mean);
    out.sd = std::sqrt(squares / static_cast<double>(tasks_ - 1));
    return out;
  }

  // Whether the all-data fit at an evaluated `variance` holds every penalized coordinate at
  // 0 (fitted now where the search kept no solutions: resetCoefficients).
  bool zeroesEveryPenalized(double variance, ProgressSink* progress) {
    const std::vector<CoordinatePrior> prior = withVariance(req_.fit.prior, variance);
    const auto kept = allData_.find(variance);
    const std::vector<double> beta =
        kept != allData_.end() ? kept->second : fitAllData(variance, prior, progress).beta;
    for (std::size_t j = 0; j < beta.size(); ++j) {
      const bool fixed = !req_.fit.fixed.empty() && req_.fit.fixed[j];
      if (prior[j].kind != PriorKind::None && !fixed && beta[j] != 0.0) return false;
    }
    return true;
  }

 private:
  FitResult fitAllData(double variance, const std::vector<CoordinatePrior>& prior,
                       ProgressSink* progress) const {
    FitRequest request = req_.fit;
    request.prior = prior;
    request.start = nearestSolution(variance);
    request.control.verbose = false;
    request.control.progressSeconds = -1.0;  // a run of fits reports as a whole
    request.control.threads = req_.settings.threads;
    request.control.tolerance *= kAllDataToleranceFactor;
    request.control.optimalityTolerance *= kAllDataToleranceFactor;
    return fitCcd(request, progress);
  }

  // The all-data solution at the evaluated variance nearest to `variance` in log scale (ties:
  // the larger variance); the request's start before any.
  const std::vector<double>& nearestSolution(double variance) const {
    const std::vector<double>* nearest = &base_;
    double nearestDistance = std::numeric_limits<double>::infinity();
    for (const auto& [v, beta] : allData_) {
      const double distance = std::fabs(std::log(v / variance));
      if (distance <= nearestDistance) {
        nearest = &beta;
        nearestDistance = distance;
      }
    }
    return *nearest;
  }

  const CrossValidationRequest& req_;
  const std::size_t tasks_;
  const std::vector<double> base_;
  std::map<double, std::vector<double>> allData_;  // all-data solutions by variance
};

std::string describe(const CvEvaluation& e) {
  char line[200];
  std::snprintf(line, sizeof line,
                "cross-validation: variance %.6g, predictive log-likelihood %.6g (sd %.4g); "
                "all-data fit %d cycles %.2f s, fold fits %lld cycles %.2f s%s",
                e.variance, e.mean, e.sd, e.allDataCycles, e.allDataSeconds, e.cycles,
                e.foldSeconds, e.notConverged ? " (some fold fits did not converge)" : "");
  return line;
}

}  // namespace

CrossValidationResult crossValidate(const CrossValidationRequest& request, ProgressSink* progress) {
  ARGUS_REQUIRE(request.fit.data != nullptr, "no data");
  const Dataset& data = *request.fit.data;
  validateDataset(data, request.fit.weights);
  CrossValidationRequest local;
  const CrossValidationRequest& req = withSharedDevice(request, &local);
  ARGUS_REQUIRE(req.fit.prior.size() == data.design.nColumns(), "one prior per covariate is required");
  ARGUS_REQUIRE(req.folds.folds >= 2 && req.folds.repetitions() >= 1, "no folds were planned");
  for (const std::vector<std::int32_t>& f : req.folds.foldOfRow)
    ARGUS_REQUIRE(static_cast<std::int64_t>(f.size()) == data.nRows(), "the fold plan does not match the data");
  bool penalized = false;
  for (const CoordinatePrior& p : req.fit.prior) penalized = penalized || p.kind != PriorKind::None;
  ARGUS_REQUIRE(penalized, "cross-validation needs at least one covariate with a laplace or normal prior");
  ARGUS_REQUIRE(req.settings.threads >= 1, "threads must be at least 1");

  CrossValidationResult result;
  result.folds = req.folds.folds;
  result.repetitions = req.folds.repetitions();
  result.unit = req.folds.unit;
  SearchSettings search = req.settings.search;
  // One null fit gives a Laplace search its start and its weak-penalty check (below).
  const bool laplace = search.type == SearchType::Auto && laplaceOnly(req.fit);
  const LaplaceNullScales scales = laplace ? laplaceNullScales(req.fit) : LaplaceNullScales{};
  search.start = req.settings.startingVariance > 0.0 ? req.settings.startingVariance
                 : scales.start > 0.0                ? scales.start
                                                     : startingVarianceGuess(req.fit);
  result.startingVariance = search.start;

  FoldFits fits(req);
  std::map<double, double> scored;  // a variance the second search meets again is not refitted
  const ScoreFunction score = [&](double variance) {
    const auto known = scored.find(variance);
    if (known != scored.end()) return known->second;
    CvEvaluation e = fits.evaluate(variance, progress);
    e.order = static_cast<int>(result.curve.size()) + 1;
    if (progress && req.settings.messages) progress->message(describe(e));
    result.curve.push_back(std::move(e));
    return scored[variance] = result.curve.back().mean;
  };
  SearchOutcome outcome = searchVariance(search, score);
  // The auto search is local. With covariates of very different scales, one Laplace variance
  // penalizes them very differently, and the held-out curve can have two humps: the
  // large-scale covariates enter first, and the 0/1 ones only at weak penalties, past a dip
  // (survival's lung with meal.cal in the hundreds: the search stopped on a plateau of all
  // zeros, 0.75 below the weak end; MASS's birthwt with lwt near 130: on lwt alone, 0.9
  // below). So where the chosen model is empty, or the covariates' information per stored
  // entry (their squared scale) spans more than kScaleDisparity, a weak penalty for every
  // covariate is scored too, and searched from if better. Designs of 0/1 covariates alone
  // (OHDSI's) span about 1 whatever the prevalences, and pay nothing.
  if (laplace) {
    constexpr double kScaleDisparity = 100.0;  // a tenfold spread of root-mean-square values
    const WeakLaplacePenalty& weak = scales.weak;
    const bool suspect = weak.variance > 10.0 * outcome.variance &&
                         (weak.scaleDisparity > kScaleDisparity ||
                          fits.zeroesEveryPenalized(outcome.variance, progress));
    if (suspect) {
      if (progress && req.settings.messages)
        progress->message("cross-validation: covariates of very different scales, or none "
                          "selected; scoring a weak penalty as well");
      if (score(weak.variance) > outcome.score + 1e-8 * (1.0 + std::fabs(outcome.score))) {
        SearchSettings fromWeak = search;
        fromWeak.start = weak.variance;
        const SearchOutcome second = searchVariance(fromWeak, score);
        if (second.score > outcome.score) outcome = second;
      }
    }
  }
  std::stable_sort(result.curve.begin(), result.curve.end(),
                   [](const CvEvaluation& a, const CvEvaluation& b) { return a.variance < b.variance; });
  result.variance = outcome.variance;
  result.score = outcome.score;
  result.bracketed = outcome.bracketed;
  return result;
}

std::vector<FoldTaskResult> runFoldTasks(const CrossValidationRequest& request, double variance,
                                         const std::vector<double>& start,
                                         const std::vector<std::size_t>& tasks,
                                         ProgressSink* progress) {
  ARGUS_REQUIRE(request.fit.data != nullptr, "no data");
  validateDataset(*request.fit.data, request.fit.weights);
  CrossValidationRequest local;
  const CrossValidationRequest& req = withSharedDevice(request, &local);
  ARGUS_REQUIRE(start.size() == req.fit.data->design.nColumns(), "one start per covariate is required");
  const std::size_t all = static_cast<std::size_t>(req.folds.folds * req.folds.repetitions());
  for (std::size_t t : tasks) ARGUS_REQUIRE(t < all, "a fold task id is out of range");
  const std::vector<CoordinatePrior> prior = withVariance(req.fit.prior, variance);
  std::vector<FoldTaskResult> out;
  const std::size_t batched = runFoldTaskBatches(req, tasks, prior, start, progress, &out);
  if (batched < tasks.size())
    runTasks(tasks.size() - batched, std::max(1, req.settings.threads), [&](std::size_t i, ProgressSink* sink) {
      out[batched + i] = fitFoldTask(req, tasks[batched + i], prior, start, sink);
    }, progress);
  return out;
}

}  // namespace argus
