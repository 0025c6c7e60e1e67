// .Call entry points of cross-validation (fitModel() with useCrossValidation) and
// runBootstrap(): the argusData payload, the fit settings of R/fit.R (fitSettings()) and a
// list of selection settings in, plain lists out. Conversions only.
#include <cmath>
#include <cstring>

#include "bridge/convert.h"
#include "bridge/fit_request.h"
#include "common/errors.h"
#include "selection/bootstrap.h"
#include "selection/cross_validation.h"

using namespace Rcpp;

namespace {

argus::SamplingUnit samplingUnit(const std::string& selector) {
  if (selector == "auto") return argus::SamplingUnit::Auto;
  if (selector == "byRow") return argus::SamplingUnit::Row;
  if (selector == "byPid") return argus::SamplingUnit::Stratum;
  throw argus::ArgusError("unknown selectorType '" + selector + "'");
}

std::string selectorName(argus::SamplingUnit unit) {
  if (unit == argus::SamplingUnit::Cluster) return "byCluster";
  return unit == argus::SamplingUnit::Stratum ? "byPid" : "byRow";
}

// Seeds arrive as whole doubles (possibly negative); their two's-complement bits seed.
std::uint64_t seedOf(const List& s) {
  const double seed = as<double>(s["seed"]);
  if (!(std::fabs(seed) <= 9007199254740992.0)) throw argus::ArgusError("the seed must be a number within 2^53");
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(seed));
}

argus::FitRequest fitRequest(const argus::bridge::DatasetBinding& binding, const List& settings) {
  return argus::bridge::fitRequestFromList(binding.data, settings);
}

argus::FoldPlan foldPlan(const argus::Dataset& data, const List& cv) {
  const argus::SamplingUnit unit = samplingUnit(as<std::string>(cv["selectorType"]));
  if (!Rf_isNull(cv["foldIds"]))
    return argus::foldPlanFromIds(data, as<std::vector<std::int32_t>>(cv["foldIds"]), unit);
  argus::FoldSettings folds;
  folds.folds = as<int>(cv["fold"]);
  folds.repetitions = as<int>(cv["cvRepetitions"]);
  folds.unit = unit;
  folds.balanceOutcome = as<std::string>(cv["foldStratification"]) == "outcome";
  folds.seed = seedOf(cv);
  if (cv.containsElementNamed("clusterOfRow") && !Rf_isNull(cv["clusterOfRow"]))
    folds.clusterOfRow = as<std::vector<std::int32_t>>(cv["clusterOfRow"]);
  return argus::makeFoldPlan(data, folds);
}

List curveList(const argus::CrossValidationResult& r) {
  const std::size_t n = r.curve.size();
  const std::size_t tasks = n ? r.curve[0].values.size() : 0;
  NumericVector variance(n), mean(n), sd(n);
  IntegerVector notConverged(n), noFiniteMle(n), order(n), allDataCycles(n), batchedFits(n);
  NumericVector cycles(n);
  NumericMatrix values(static_cast<int>(n), static_cast<int>(tasks));
  for (std::size_t i = 0; i < n; ++i) {
    variance[i] = r.curve[i].variance;
    mean[i] = r.curve[i].mean;
    sd[i] = r.curve[i].sd;
    notConverged[i] = r.curve[i].notConverged;
    noFiniteMle[i] = r.curve[i].noFiniteMle;
    cycles[i] = static_cast<double>(r.curve[i].cycles);
    allDataCycles[i] = r.curve[i].allDataCycles;
    batchedFits[i] = r.curve[i].batchedFits;
    order[i] = r.curve[i].order;
    for (std::size_t t = 0; t < tasks; ++t) values(i, t) = r.curve[i].values[t];
  }
  return List::create(_["variance"] = variance, _["mean"] = mean, _["sd"] = sd,
                      _["notConverged"] = notConverged, _["noFiniteMle"] = noFiniteMle, _["cycles"] = cycles,
                      _["allDataCycles"] = allDataCycles, _["batchedFits"] = batchedFits, _["order"] = order,
                      _["values"] = values);
}

argus::CrossValidationRequest cvRequest(const argus::bridge::DatasetBinding& binding,
                                       SEXP settingsSexp, const List& cv) {
  argus::CrossValidationRequest req;
  req.fit = fitRequest(binding, List(settingsSexp));
  req.folds = foldPlan(binding.data, cv);
  argus::SearchSettings& search = req.settings.search;
  search.type = as<std::string>(cv["cvType"]) == "grid" ? argus::SearchType::Grid
                                                        : argus::SearchType::Auto;
  search.lowerLimit = as<double>(cv["lowerLimit"]);
  search.upperLimit = as<double>(cv["upperLimit"]);
  search.gridSteps = as<int>(cv["gridSteps"]);
  req.settings.startingVariance = as<double>(cv["startingVariance"]);
  req.settings.resetCoefficients = as<bool>(cv["resetCoefficients"]);
  req.settings.threads = as<int>(cv["threads"]);
  req.settings.messages = as<bool>(cv["messages"]);
  return req;
}

// Fold task results as R's list(value, converged, cycles, infinite), and back.
List foldTaskList(const std::vector<argus::FoldTaskResult>& results) {
  const std::size_t n = results.size();
  NumericVector value(n);
  LogicalVector converged(n), infinite(n);
  IntegerVector cycles(n);
  for (std::size_t i = 0; i < n; ++i) {
    value[i] = results[i].value;
    converged[i] = results[i].converged;
    cycles[i] = results[i].cycles;
    infinite[i] = results[i].infinite;
  }
  return List::create(_["value"] = value, _["converged"] = converged, _["cycles"] = cycles,
                      _["infinite"] = infinite);
}

std::vector<argus::FoldTaskResult> foldTaskResults(const List& list) {
  const NumericVector value(list["value"]);
  const LogicalVector converged(list["converged"]);
  const IntegerVector cycles(list["cycles"]);
  const LogicalVector infinite(list["infinite"]);
  if (converged.size() != value.size() || cycles.size() != value.size() || infinite.size() != value.size())
    throw argus::ArgusError("fold task results differ in length");
  std::vector<argus::FoldTaskResult> results(value.size());
  for (R_xlen_t i = 0; i < value.size(); ++i)
    results[i] = {value[i], converged[i] == TRUE, cycles[i], infinite[i] == TRUE};
  return results;
}

}  // namespace

// cv$taskRunner, when given, is an R function(variance, start, tasks) returning the results
// of fold tasks 0 .. tasks - 1 as foldTaskList() shapes them (R/future_tasks.R).
extern "C" SEXP argus_cross_validate(SEXP dataSexp, SEXP settingsSexp, SEXP cvSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const List cv(cvSexp);
  argus::CrossValidationRequest req = cvRequest(binding, settingsSexp, cv);
  if (cv.containsElementNamed("taskRunner") && !Rf_isNull(cv["taskRunner"])) {
    const Function runner(cv["taskRunner"]);
    req.taskRunner = [runner](double variance, const std::vector<double>& start,
                              std::size_t tasks) {
      return foldTaskResults(List(runner(variance, wrap(start), static_cast<double>(tasks))));
    };
  }
  argus::bridge::RProgressSink progress;
  const argus::CrossValidationResult r = argus::crossValidate(req, &progress);
  return List::create(_["variance"] = r.variance, _["score"] = r.score,
                      _["bracketed"] = r.bracketed, _["startingVariance"] = r.startingVariance,
                      _["folds"] = r.folds, _["repetitions"] = r.repetitions,
                      _["selectorType"] = selectorName(r.unit), _["curve"] = curveList(r));
  END_RCPP
}

// Fold tasks `tasks` (0-based) of candidate `variance` from `start`: a share of one round of
// argus_cross_validate()'s fold fits.
extern "C" SEXP argus_cv_fold_tasks(SEXP dataSexp, SEXP settingsSexp, SEXP cvSexp,
                                    SEXP varianceSexp, SEXP startSexp, SEXP tasksSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::CrossValidationRequest req = cvRequest(binding, settingsSexp, List(cvSexp));
  const NumericVector taskIds(tasksSexp);
  std::vector<std::size_t> tasks(taskIds.size());
  for (R_xlen_t i = 0; i < taskIds.size(); ++i) {
    if (!(taskIds[i] >= 0)) throw argus::ArgusError("fold task ids must not be negative");
    tasks[i] = static_cast<std::size_t>(taskIds[i]);
  }
  argus::bridge::RProgressSink progress;
  return foldTaskList(argus::runFoldTasks(req, as<double>(varianceSexp),
                                          as<std::vector<double>>(startSexp), tasks, &progress));
  END_RCPP
}

extern "C" SEXP argus_plan_folds(SEXP dataSexp, SEXP cvSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const argus::FoldPlan plan = foldPlan(binding.data, List(cvSexp));
  const R_xlen_t n = static_cast<R_xlen_t>(binding.data.nRows());
  IntegerMatrix folds(static_cast<int>(n), plan.repetitions());  // one column per repetition
  for (int rep = 0; rep < plan.repetitions(); ++rep)
    std::memcpy(folds.begin() + rep * n, plan.foldOfRow[rep].data(), n * sizeof(std::int32_t));
  return List::create(_["folds"] = folds, _["count"] = plan.folds,
                      _["selectorType"] = selectorName(plan.unit));
  END_RCPP
}

extern "C" SEXP argus_bootstrap(SEXP dataSexp, SEXP settingsSexp, SEXP bootSexp) {
  BEGIN_RCPP
  argus::bridge::DatasetBinding binding;
  argus::bridge::bindDataset(List(dataSexp), &binding);
  const List boot(bootSexp);
  argus::BootstrapRequest req;
  req.fit = fitRequest(binding, List(settingsSexp));
  req.replicates = as<int>(boot["replicates"]);
  if (boot.containsElementNamed("firstReplicate"))
    req.firstReplicate = as<int>(boot["firstReplicate"]);
  req.seed = seedOf(boot);
  req.unit = samplingUnit(as<std::string>(boot["selectorType"]));
  req.threads = as<int>(boot["threads"]);
  req.keepCounts = as<bool>(boot["keepCounts"]);
  req.messages = as<bool>(boot["messages"]);
  if (boot.containsElementNamed("clusterOfRow") && !Rf_isNull(boot["clusterOfRow"]))
    req.clusterOfRow = as<std::vector<std::int32_t>>(boot["clusterOfRow"]);
  argus::bridge::RProgressSink progress;
  const argus::BootstrapResult r = argus::runBootstrap(req, &progress);

  const int p = static_cast<int>(binding.data.design.nColumns());
  NumericMatrix beta(p, req.replicates);  // one column per replicate
  std::memcpy(beta.begin(), r.beta.data(), r.beta.size() * sizeof(double));
  CharacterVector status(req.replicates);
  for (int b = 0; b < req.replicates; ++b) status[b] = argus::fitStatusName(r.status[b]);
  SEXP counts = R_NilValue;
  if (req.keepCounts) {
    IntegerMatrix unitCounts(static_cast<int>(r.units), req.replicates);
    std::memcpy(unitCounts.begin(), r.counts.data(), r.counts.size() * sizeof(std::int32_t));
    counts = unitCounts;
  }
  return List::create(_["beta"] = beta, _["status"] = status, _["counts"] = counts,
                      _["selectorType"] = selectorName(r.unit));
  END_RCPP
}
