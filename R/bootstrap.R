#' Bootstrap a fit
#'
#' Resamples the rows (or whole strata, as `selectorType` of the fit's control says) with
#' replacement, refits the model at the fit's prior and variance (the one chosen by
#' cross-validation, if it was), and summarizes each coefficient over the replicates.
#'
#' Where the data have a `cluster()` term (a patient's `(start, stop]` rows, a site) and
#' `selectorType` is `"auto"`, whole clusters are drawn (`selectorType` of the result
#' `"byCluster"`), as the clustered robust variance treats them; conditional models keep their
#' strata as the units. `selectorType = "byRow"` in the fit's control draws rows regardless.
#'
#' A replicate in which a row (or stratum, or cluster) was drawn `c` times is the fit with
#' that row's weight multiplied by `c`: `fitModel(data, prior, control, weights = c * w)` with the fit's
#' prior at its variance, `w` the fit's weights, and the fit's starting coefficients. Each
#' replicate has its own random stream derived from `seed`, so the results are the same for
#' any number of `threads`.
#'
#' The data come from the fit: [fitModel()] keeps its `argusData` in `fit$data` (R shares it,
#' nothing is copied; `saveRDS(fit)` saves it too). Give `data` if `fit$data` was removed.
#'
#' @param fit An `argusFit` from [fitModel()].
#' @param replicates Number of bootstrap replicates; the memory their estimates (and counts)
#'   need must be available, as for [createControl()]'s `cvRepetitions`.
#' @param level Confidence level of the percentile intervals.
#' @param threads Number of threads.
#' @param seed Seed of the resampling (a whole number); `NULL` draws one from R's random
#'   number generator. The seed used is kept in the result.
#' @param data The `argusData` the fit was made from, when `fit$data` is `NULL`.
#' @param keepCounts Keep every replicate's resampling counts (`counts`, an integer matrix
#'   with one row per row of the data, in the user's row order and named as [fitted()] names
#'   them (a formula's `na.omit` leaves its incomplete rows out), and one column per
#'   replicate; 4 bytes per entry).
#' @param parallel `"threads"` (this process, on `threads` threads) or `"future"`: the
#'   replicates are spread over the workers of the current `future::plan()` (multisession, a
#'   cluster, ...), each using `threads` threads, with the same results. `NULL`: the fit's
#'   `createControl(parallel =)`.
#' @param ... Not used: an argument given here is an error (the incumbent's `ciCoverage` is
#'   `level`).
#' @return An object of class `argusBootstrap`: `estimates` (one row per replicate, one column
#'   per coefficient), `summary` (a data frame with, per coefficient, the fit's `estimate`,
#'   `bias` = mean of the replicates - estimate, `se` = their standard deviation, the
#'   percentile interval `lower`, `upper`, `nonzero`, the proportion of replicates in
#'   which the coefficient is not 0, and `estimable`, the number of replicates that could
#'   estimate it: a replicate in which a factor level or a sparse covariate was not drawn
#'   cannot, and has `NA` in `estimates` there, with a warning; fixed coefficients have `NA`
#'   summaries), `status` of each replicate's fit, `counts`, `seed`,
#'   `level`, `selectorType` (`"byRow"`, `"byPid"` or `"byCluster"`), `modelType` and
#'   `namedById` (whether the coefficients are named by covariate id). The summary uses
#'   every replicate whose fit did not break down (status other than `ILLCONDITIONED`, no
#'   infinite or NaN estimate; `NA` where a coefficient was not estimable): replicates without a finite maximum-likelihood estimate
#'   (`NO_FINITE_MLE`, separation in the resample) are kept at the values where their fit
#'   stopped, with a warning, so that the intervals show that instability rather than hide
#'   it; their count is in `glance()`.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(200, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"), createPrior("laplace", 1))
#' runBootstrap(fit, replicates = 50, seed = 1)
#' @export
runBootstrap <- function(fit, replicates = 200, level = 0.95, threads = 1, seed = NULL,
                         data = NULL, keepCounts = FALSE, parallel = NULL, ...) {
  cyclopsBootstrapArguments(...)
  checkFitObject(fit)
  checkScalar(replicates, "replicates", lower = 2, upper = .Machine$integer.max, integer = TRUE)
  checkScalar(level, "level", lower = 0, upper = 1)
  if (level <= 0 || level >= 1) stopf("'level' must be between 0 and 1 (exclusive)")
  checkScalar(threads, "threads", lower = 1, upper = 1024, integer = TRUE)
  if (!is.null(seed)) checkScalar(seed, "seed", lower = -2^53, upper = 2^53, integer = TRUE)
  checkFlag(keepCounts, "keepCounts")
  parallel <- checkParallel(parallel %||% fit$control$parallel %||% "threads")
  data <- data %||% fit$data
  if (is.null(data)) stopf("the fit holds no data (fit$data is NULL): give them as 'data'")
  checkDataObject(data)
  if (!identical(data$columnNames, names(fit$coefficients)) || data$modelType != fit$modelType)
    stopf("'data' are not the data this fit was made from")
  control <- fit$control
  resolved <- list(kind = match(fit$priorType, c("none", "laplace", "normal")) - 1L,
                   variance = columnVariances(fit))
  settings <- fitSettings(resolved, fit$startingCoefficients, fit$fixed,
                          internalWeights(fit$weights, data), control)
  settings$verbose <- FALSE
  seed <- resolveSeed(seed)
  # per replicate: its coefficients in the engine, the bridge's matrix and $estimates, and
  # with keepCounts its counts per unit (engine and bridge) and per user row
  units <- if (isConditionalModel(data$modelType)) length(data$stratumStart) - 1 else data$nRows
  perReplicate <- 24 * length(fit$coefficients) + 64 +
    if (keepCounts) 8 * as.double(units) + 4 * length(data$rowIds) else 0
  checkMemory(perReplicate * replicates,
              sprintf("runBootstrap() with %d replicates%s", as.integer(replicates),
                      if (keepCounts) " and keepCounts = TRUE" else ""))
  bootSettings <- list(replicates = as.integer(replicates), seed = seed,
                       selectorType = control$selectorType, threads = as.integer(threads),
                       keepCounts = keepCounts, messages = control$noiseLevel != "silent",
                       clusterOfRow = clusterCodes(data))
  started <- proc.time()[["elapsed"]]
  result <- if (parallel == "future") futureBootstrap(data, settings, bootSettings)
            else threadBootstrap(data, settings, bootSettings, quiet = control$noiseLevel == "silent")
  seconds <- proc.time()[["elapsed"]] - started
  estimates <- t(result$beta)
  dimnames(estimates) <- list(NULL, names(fit$coefficients))
  # NaN from the engine: the replicate could not identify the coefficient (its covariate
  # not drawn, or constant in the resample); NA here, left out of that coefficient's summary
  unidentified <- is.nan(estimates)
  estimates[unidentified] <- NA_real_
  failed <- result$status %in% c("MAX_ITERATIONS", "ILLCONDITIONED")
  if (any(failed))
    warning(sprintf("%d of %d bootstrap fits did not converge (see $status)", sum(failed),
                    replicates), call. = FALSE)
  infinite <- result$status == "NO_FINITE_MLE"
  if (any(infinite))
    warning(sprintf(paste("%d of %d bootstrap fits have coefficients without a finite estimate",
                          "(NO_FINITE_MLE in $status: separation in the resample); their",
                          "percentile intervals reach out to where those fits stopped"),
                    sum(infinite), replicates), call. = FALSE)
  missingIn <- colSums(unidentified[usableRows(result$status, estimates), , drop = FALSE])
  if (any(missingIn > 0)) {
    at <- which(missingIn > 0)
    warning(sprintf(paste("coefficient(s) %s could not be estimated in some replicates (%s of %d:",
                          "a level or covariate not drawn, or constant, in the resample); NA",
                          "there ($estimates), and their summaries use the other replicates"),
                    paste(sprintf("'%s'", utils::head(names(at), 5)), collapse = ", "),
                    paste(utils::head(missingIn[at], 5), collapse = ", "), replicates), call. = FALSE)
  }
  if (control$noiseLevel != "silent")
    message(sprintf("Argus bootstrap: %d replicates (%s) in %.3f s", replicates,
                    result$selectorType, seconds))
  structure(list(
    estimates = estimates,
    summary = bootstrapSummary(coef(fit), estimates, result$status, level, fit$fixed),
    status = result$status, counts = userRowCounts(result$counts, result$selectorType, data),
    replicates = as.integer(replicates), level = level, seed = seed,
    selectorType = result$selectorType, seconds = seconds,
    modelType = fit$modelType, namedById = !is.null(fit$covariateIds)  # for plot()'s axes
  ), class = "argusBootstrap")
}

# The replicates a summary uses: their fit did not break down (NO_FINITE_MLE ones included).
# NA estimates (a coefficient the replicate could not identify) leave the replicate usable.
usableRows <- function(status, estimates) {
  status != "ILLCONDITIONED" & !apply(is.nan(estimates) | is.infinite(estimates), 1, any)
}

# Per coefficient: estimate, bias, standard error, percentile interval and the proportion of
# nonzero replicates, over the usable replicates that could identify it (`estimable`: how
# many). Fixed and aliased coefficients (held in every replicate) have no spread: NA.
bootstrapSummary <- function(estimate, estimates, status, level, fixed = NULL) {
  kept <- estimates[usableRows(status, estimates), , drop = FALSE]
  if (nrow(kept) < 2) stopf("fewer than 2 bootstrap fits succeeded; nothing to summarize")
  probs <- c((1 - level) / 2, (1 + level) / 2)
  s <- vapply(seq_len(ncol(kept)), function(j) replicateSpread(kept[, j], probs), numeric(6))
  out <- data.frame(covariate = names(estimate), estimate = unname(estimate),
                    bias = s[1, ] - unname(estimate), se = s[2, ], lower = s[3, ], upper = s[4, ],
                    nonzero = s[5, ], estimable = as.integer(s[6, ]), stringsAsFactors = FALSE)
  held <- is.na(out$estimate) | (if (is.null(fixed)) FALSE else fixed)
  out[held, c("bias", "se", "lower", "upper", "nonzero")] <- NA
  out
}

# One coefficient's replicates, less those that could not estimate it (NA): mean, standard
# deviation, the quantiles at `probs` (type 7), share not 0 and how many (NA with fewer than 2).
replicateSpread <- function(v, probs) {
  v <- v[!is.na(v)]
  if (length(v) < 2) return(c(NA, NA, rep(NA, length(probs)), NA, length(v)))
  c(mean(v), stats::sd(v), stats::quantile(v, probs = probs, names = FALSE, type = 7),
    mean(v != 0), length(v))
}

# The data's cluster() term as 0-based codes in internal row order (the engine's bootstrap
# units where it resamples clusters), or NULL.
clusterCodes <- function(data) {
  if (is.null(data$cluster)) return(NULL)
  match(data$cluster, unique(data$cluster)) - 1L
}

# Engine counts per unit (internal rows, strata or clusters) -> counts per user row (0 for rows
# of dropped strata).
userRowCounts <- function(unitCounts, selectorType, data) {
  if (is.null(unitCounts)) return(NULL)
  perRow <- switch(selectorType,
                   byPid = unitCounts[data$stratum + 1L, , drop = FALSE],
                   byCluster = unitCounts[clusterCodes(data) + 1L, , drop = FALSE],
                   unitCounts)
  counts <- matrix(0L, length(data$rowIds), ncol(unitCounts))
  counts[data$order, ] <- perRow
  rownames(counts) <- rowLabels(data)  # as fitted() names the rows (na.omit leaves some out)
  counts
}

#' @method print argusBootstrap
#' @export
print.argusBootstrap <- function(x, digits = 4, ...) {
  rejectDots("print()", ...)
  cat(sprintf("Argus bootstrap: %d replicates (%s), %g%% percentile intervals, seed %s\n",
              x$replicates, x$selectorType, 100 * x$level, format(x$seed, scientific = FALSE)))
  failed <- sum(x$status %in% c("MAX_ITERATIONS", "ILLCONDITIONED"))
  if (failed) cat(sprintf("%d replicate fit(s) did not converge\n", failed))
  infinite <- sum(x$status == "NO_FINITE_MLE")
  if (infinite) cat(sprintf("%d replicate fit(s) without a finite estimate\n", infinite))
  # print.data.frame's `digits` (significant digits per column, as print.lm's tables): the
  # values rounded first with signif() were padded by the column's format, 1.555045 shown as
  # "1.55500" beside a column needing more digits
  print(utils::head(x$summary, 20), digits = digits, row.names = FALSE)
  if (nrow(x$summary) > 20) cat(sprintf("... and %d more covariates\n", nrow(x$summary) - 20))
  invisible(x)
}
