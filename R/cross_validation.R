# Cross-validation of the prior variance: fitModel() calls crossValidateVariance() when the
# prior asks for it. The engine (src/engine/selection/) plans the folds, runs the fold fits on
# `threads` threads and searches the variance; this file checks the settings, passes them on
# and shapes the result into `fit$cv`.

crossValidateVariance <- function(data, prior, resolved, control, settings) {
  if (all(resolved$kind == 0L))
    stopf("cross-validation needs a laplace or normal prior on at least one covariate")
  if (length(prior$variance) > 1)
    stopf("cross-validation chooses one variance for all penalized covariates; give a single 'variance'")
  seed <- resolveSeed(control$seed)
  folds <- foldSettings(control, data, seed)
  checkMemory(crossValidationBytes(control, data),
              sprintf("cross-validation with cvRepetitions = %d, fold = %d%s on %d rows",
                      control$cvRepetitions, control$fold,
                      if (control$cvType == "grid") sprintf(", gridSteps = %d", control$gridSteps) else "",
                      data$nRows))
  cvSettings <- c(folds, list(
    cvType = control$cvType, lowerLimit = control$lowerLimit,
    upperLimit = control$upperLimit, gridSteps = control$gridSteps,
    startingVariance = control$startingVariance %||% 0,
    resetCoefficients = control$resetCoefficients, threads = control$threads,
    messages = control$noiseLevel != "silent"))
  if (identical(control$parallel, "future"))
    cvSettings$taskRunner <- futureFoldRunner(data, settings, cvSettings)
  started <- proc.time()[["elapsed"]]
  result <- crossValidateWithProgress(data, settings, cvSettings, control)
  seconds <- proc.time()[["elapsed"]] - started
  curve <- result$curve
  # A variance "chosen" from a curve with no finite point is no choice (a Fine-Gray fold's NaN
  # once made every point NaN, and the first candidate came back with SUCCESS)
  if (!any(is.finite(curve$mean)))
    stopf(paste("cross-validation failed: no candidate variance has a finite held-out",
                "log-likelihood (%d fold fit(s) did not converge); fit with a given variance,",
                "or check the data"), sum(curve$notConverged))
  # Every fold scoring 0 at every variance is no curve: a Cox or Fine-Gray fold's held-out
  # rows form their own risk sets, and a fold of one row (leave-one-out) has a partial
  # likelihood of 1 whatever beta (lung, 213 folds: variance 2667 "chosen" from rounding noise)
  scored <- curve$values[is.finite(curve$values)]
  if (length(scored) && all(abs(scored) < 1e-10))
    stopf(paste("cross-validation has nothing to compare: every fold's held-out log-likelihood is 0",
                "at every variance (%d folds; in a %s model a fold's held-out rows are scored on their",
                "own risk sets or strata, and a fold of a single row scores nothing): use fewer,",
                "larger folds"),
          result$folds, data$modelType)
  if (!result$bracketed)
    warning(sprintf(paste("cross-validation did not bracket the best variance within 10",
                          "decades of where its search set out: the held-out log-likelihood",
                          "still rises at %g, the best variance tried (the data may prefer",
                          "almost no penalty)"), result$variance), call. = FALSE)
  if (any(curve$notConverged > 0))
    warning(sprintf("%d fold fit(s) did not converge during cross-validation",
                    sum(curve$notConverged)), call. = FALSE)
  # as runBootstrap() says of its replicates: such a fold's held-out score is taken where its
  # fit stopped (it was counted silently, 21.7 of a fold's -46 from the stopping point)
  if (any(curve$noFiniteMle > 0))
    warning(sprintf(paste("%d fold fit(s) had coefficients running off to infinity (no finite",
                          "estimate on the fold's training rows: an unpenalized covariate rare",
                          "enough to separate there); their held-out scores are where those",
                          "fits stopped"), sum(curve$noFiniteMle)), call. = FALSE)
  values <- curve$values
  dimnames(values) <- list(NULL, sprintf("rep%d.fold%d", rep(seq_len(result$repetitions),
                                                            each = result$folds),
                                         rep(seq_len(result$folds), result$repetitions)))
  if (control$noiseLevel != "silent")
    message(sprintf("Argus cross-validation: %d folds x %d, variance %.6g chosen in %.3f s",
                    result$folds, result$repetitions, result$variance, seconds))
  list(variance = result$variance, score = result$score,
       curve = data.frame(variance = curve$variance, mean = curve$mean, sd = curve$sd,
                          notConverged = curve$notConverged, noFiniteMle = curve$noFiniteMle,
                          cycles = curve$cycles,
                          allDataCycles = curve$allDataCycles, batchedFits = curve$batchedFits,
                          order = curve$order),
       values = values, folds = result$folds, repetitions = result$repetitions,
       selectorType = result$selectorType, cvType = control$cvType,
       foldStratification = control$foldStratification,
       userFolds = !is.null(control$foldIds), seed = seed, bracketed = result$bracketed,
       startingVariance = if (control$cvType == "auto") result$startingVariance else NULL,
       seconds = seconds)
}

# Memory of a cross-validation that its settings size: the fold plan (4 bytes per row and
# repetition) and every candidate variance's held-out values (one per fold and repetition,
# in the engine, the bridge's list and fit$cv: 8 bytes each, three times). A grid has
# gridSteps candidates; the "auto" search at most about 40.
crossValidationBytes <- function(control, data) {
  folds <- if (is.null(control$foldIds)) control$fold else length(unique(control$foldIds))
  candidates <- if (control$cvType == "grid") control$gridSteps else 40
  4 * as.double(data$nRows) * control$cvRepetitions +
    24 * as.double(candidates) * control$cvRepetitions * folds
}

# The engine's search. Where progress is shown (argusProgress) and the engine's own lines are
# not (noiseLevel "silent"), its line per candidate variance moves the progress line
# instead: the same single call, at no cost (the total is known for a grid only).
crossValidateWithProgress <- function(data, settings, cvSettings, control) {
  progress <- progressLine("cross-validation", if (control$cvType == "grid") control$gridSteps,
                           unit = "variances scored")
  if (!progress$show || control$noiseLevel != "silent")
    return(.Call(argus_cross_validate, data, settings, cvSettings))
  on.exit(progress$done())
  cvSettings$messages <- TRUE
  scored <- 0
  withEngineLines("cross-validation: ", "^cross-validation: variance ([0-9.eE+-]+), predictive", function(variance) {
    scored <<- scored + 1
    progress$tick(scored, sprintf("last %.3g", as.numeric(variance)))
  }, .Call(argus_cross_validate, data, settings, cvSettings))
}

# The fold part of the engine's cross-validation settings (src/bridge/selection_bridge.cpp).
foldSettings <- function(control, data, seed) {
  foldIds <- internalFoldIds(control$foldIds, data)
  if (is.null(foldIds)) checkFoldPlan(control, data)
  list(fold = control$fold, cvRepetitions = control$cvRepetitions,
       selectorType = control$selectorType, foldStratification = control$foldStratification,
       seed = seed, foldIds = foldIds, clusterOfRow = clusterCodes(data))
}

# Most entries of a fold plan (one fold number per row and repetition): the engine keeps
# them as 32-bit integers, createFolds() as an R integer matrix; 2^31 - 1 entries (8 GiB in
# each) is also the longest ordinary R vector.
maxFoldEntries <- 2^31 - 1

# Fold settings the engine would refuse, or could not hold, refused before it allocates.
# The sampling unit mirrors resolveSamplingUnits() in src/engine/selection/folds.cpp: strata
# for "byPid", and for "auto" with a conditional model; for "auto" with a cluster() term the
# clusters; rows otherwise.
checkFoldPlan <- function(control, data) {
  strata <- if (is.null(data$stratumStart)) 0 else length(data$stratumStart) - 1
  # byPid without strata (or with one) samples rows, each its own person, as the incumbent;
  # "auto" samples the strata of a conditional model whatever their number
  byStratum <- (control$selectorType == "byPid" && strata > 1) ||
    (control$selectorType == "auto" && isConditionalModel(data$modelType))
  byCluster <- !byStratum && control$selectorType == "auto" && !is.null(data$cluster)
  units <- if (byStratum) length(data$stratumStart) - 1 else if (byCluster)
    length(unique(data$cluster)) else data$nRows
  what <- if (byStratum) "strata" else if (byCluster) "clusters" else "rows"
  if (!is.null(control$minCVData) && units < control$minCVData)
    stopf("insufficient data for cross-validation: %d %s, fewer than minCVData = %d", units,
          what, control$minCVData)
  if (units < control$fold)
    stopf("%d folds need at least as many %s (the data have %d)", control$fold, what, units)
  rows <- length(data$rowIds)
  if (as.double(control$cvRepetitions) * rows > maxFoldEntries)
    stopf(paste("cvRepetitions = %d on %d rows needs a fold plan of %.4g entries, more than",
                "the limit of 2^31 - 1 (one 32-bit fold number per row and repetition)"),
          control$cvRepetitions, rows, as.double(control$cvRepetitions) * rows)
}

#' Cross-validation folds
#'
#' The folds that [fitModel()] uses for cross-validation with these data, control settings
#' and seed (`fold`, `cvRepetitions`, `selectorType`, `foldStratification`, `foldIds` of
#' [createControl()]), to inspect them or to reuse them elsewhere.
#'
#' @param data An `argusData` object from [createData()].
#' @param control An `argusControl` from [createControl()].
#' @param seed The seed; by default the control's. `NULL` draws one from R's generator, as
#'   [fitModel()] does, so after the same `set.seed()` both use the same folds.
#' @return An integer matrix with one row per row of the user's data (in the order given to
#'   [createData()]) and one column per repetition, holding fold numbers 1, 2, ...; `NA` for
#'   rows of strata that were dropped. Attributes `seed` and `selectorType` (the resolved
#'   sampling unit, `"byRow"`, `"byPid"`, or `"byCluster"` where the data have a `cluster()`
#'   term: a cluster's rows share a fold).
#' @examples
#' d <- createData(x = matrix(rnorm(40), 20, 2), y = rbinom(20, 1, 0.3), modelType = "lr")
#' table(createFolds(d, createControl(fold = 4, seed = 1)))
#' @export
createFolds <- function(data, control = createControl(), seed = control$seed) {
  checkDataObject(data)
  control <- fromCyclopsControl(control)
  if (!inherits(control, "argusControl")) stopf("'control' must come from createControl()")
  if (!is.null(seed)) checkScalar(seed, "seed", lower = -2^53, upper = 2^53, integer = TRUE)
  seed <- resolveSeed(seed)
  settings <- foldSettings(control, data, seed)
  # the engine's plan, its R copy, the plan + 1 and the result: 4 bytes an entry each
  entries <- as.double(length(data$rowIds)) * control$cvRepetitions
  checkMemory(16 * entries, sprintf("createFolds() with cvRepetitions = %d on %d rows (%.3g fold numbers)",
                                    control$cvRepetitions, length(data$rowIds), entries))
  plan <- .Call(argus_plan_folds, data, settings)
  folds <- matrix(NA_integer_, length(data$rowIds), ncol(plan$folds))
  folds[data$order, ] <- plan$folds + 1L
  structure(folds, seed = seed, selectorType = plan$selectorType)
}

# A seed for the engine's generator: the user's, or one drawn from R's generator.
resolveSeed <- function(seed) {
  if (!is.null(seed)) return(as.double(seed))
  as.double(sample.int(.Machine$integer.max, 1))
}

# User fold labels (user row order) -> 0-based fold codes in the internal row order.
internalFoldIds <- function(foldIds, data) {
  if (is.null(foldIds)) return(NULL)
  foldIds <- rowsOfData(foldIds, data, "foldIds", "labels")
  labels <- sort(unique(foldIds))
  codes <- as.integer((match(foldIds, labels) - 1L)[data$order])
  # a matched set or a case's eras are one unit: name two of its rows (the engine can only
  # count strata in its own numbering)
  if (isConditionalModel(data$modelType) && !is.null(data$stratum)) {
    first <- codes[match(data$stratum, data$stratum)]
    split <- which(codes != first)
    if (length(split)) {
      other <- match(data$stratum[split[1]], data$stratum)
      stopf(paste("'foldIds' put rows %s and %s, of one stratum, in different folds: the rows",
                  "of a stratum must share a fold"),
            idLabel(data$rowIds[data$order[other]]), idLabel(data$rowIds[data$order[split[1]]]))
    }
  }
  # the folds are the user's to choose, but one that splits a cluster() group (a patient's
  # rows in two folds) is said, as the generated folds never do it
  if (!is.null(data$cluster) && any(tapply(codes, data$cluster, function(v) any(v != v[1]))))
    warning(paste("'foldIds' put rows of one cluster() group in different folds: the fold",
                  "fits then see part of a held-out cluster"), call. = FALSE)
  codes
}
