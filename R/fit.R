#' Fit a model
#'
#' Maximizes the log posterior (log-likelihood plus log prior) by cyclic coordinate descent.
#'
#' @param data An `argusData` object from [createData()].
#' @param prior An `argusPrior` from [createPrior()].
#' @param control An `argusControl` from [createControl()].
#' @param weights Optional non-negative row weights, not all zero, one per row of the user's
#'   input (in the user's row order); they replace the weights given to [createData()]. For
#'   formula data whose rows with missing values were left out (`na.action = na.omit` or
#'   `na.exclude`), one per kept row or one per row of the data frame (those of left-out rows
#'   are ignored). For long tables, weights named by every rowId are matched by name in any
#'   order; outcomes read from a database table have no row order (they are read sorted by
#'   rowId), so there they must be named. Elsewhere names are not read: the order is the
#'   data's. They are bounded as [createData()]'s `weights` are.
#' @param startingCoefficients Optional starting values, one per covariate in `coef()` order
#'   (or named by covariate).
#' @param ... Only the incumbent's `fitCyclopsModel()` arguments that change nothing here,
#'   for ported code: `forceNewObject`, `warnings` (any value), `returnEstimates = TRUE` and
#'   `computeDevice = "native"`. Any other argument is an error. `control` and `prior` may
#'   also be the incumbent's own `createControl()` and `createPrior()` objects, read as the
#'   same calls of Argus's (an error names a setting without an equivalent).
#' @param fixedCoefficients Covariates whose coefficients stay at their starting value: a
#'   logical vector in `coef()` order (or named by covariate: the named ones only), or
#'   covariate identifiers / names. Numbers must be identifiers exactly (whole, and below
#'   2^53 as doubles: larger ones as `bit64::integer64` or text), as everywhere a covariate
#'   is named by its identifier (`exclude`, `parm`, ...).
#' @details With `createPrior(..., useCrossValidation = TRUE)` the prior variance is chosen by
#'   cross-validation first (settings in [createControl()]: `cvType`, `fold`,
#'   `cvRepetitions`, `selectorType`, `foldStratification`, `foldIds`, ...): every candidate
#'   variance is scored by the mean held-out predictive log-likelihood of fold fits, which are
#'   weighted fits of the same data (held-out rows get weight 0, the others keep `weights`).
#'   The returned model is then fitted on all data at the chosen variance, with `weights`.
#'   The chosen variance applies to every penalized covariate.
#' @return An object of class `argusFit`: `coef()`, `logLik()` (its `df` the estimated nonzero
#'   coefficients, `NA` for a penalized fit, so that `AIC()` and `BIC()` are `NA` there; for
#'   `"cpr"` and `"sccs"` the conditional log-likelihood `sum(y * eta) - sum_s n_s *
#'   log(sum_{r in s} time_r * exp(eta_r))`, which moves with the unit of `time` by `n *
#'   log(unit)`: compare fits of the same data, or add the incumbent's constant for its
#'   value: `sum(y * log(time))` for `"sccs"`, `sum(y * log(time) - lfactorial(y))` for
#'   `"cpr"`, sums over the rows fitted (the incumbent's `"sccs"` value leaves out the
#'   `lfactorial(y)` that its `"cpr"` value subtracts)), `nobs()`, `print()`,
#'   [summary.argusFit()], [tidy.argusFit()], `glance()`, `augment()`, [predict.argusFit()],
#'   `fitted()`, [residuals.argusFit()], [vcov.argusFit()], [confint.argusFit()],
#'   [profileLogLikelihood()], [runBootstrap()], [baselineHazard()], `survival::survfit()`
#'   ([survfit.argusFit()], cox) and [cumulativeIncidence()] (fgr) work on it. Its fields:
#'   \describe{
#'     \item{`coefficients`}{the estimates, named by covariate (aliased ones held at 0;
#'       `coef()` shows them as `NA`);}
#'     \item{`status`, `iterations`, `seconds`}{how the fit ended, after how many CCD cycles
#'       and in how long;}
#'     \item{`majorizedSteps`}{the proximal Newton steps taken before the cycles (the
#'       engine's `src/engine/solver/majorized_start.h`; `majorizedStart` in
#'       [createControl()]): survival models, and on a device with `majorizedStart = "always"`
#'       the GLMs and conditional models too; 0 where none were taken;}
#'     \item{`logLikelihood`, `logPrior`}{the log-likelihood and the log prior at the
#'       estimates (for `"ls"` the objective `-RSS / 2`, at unit variance; `logLik()` gives
#'       `logLik.lm`'s normal log-likelihood at the variance `RSS / n`, with that variance
#'       counted in its degrees of freedom);}
#'     \item{`optimality`, `optimalityCovariate`}{the largest optimality violation (standard
#'       errors) and where;}
#'     \item{`aliased`, `infinite`, `pinned`, `fixed`}{flags of coefficients that cannot be
#'       estimated, names of those without a finite estimate and, of those, one per direction
#'       in which the likelihood keeps rising (what a profile holds where the fit left them:
#'       [confint.argusFit()]), flags of those held fixed;}
#'     \item{`modelType`, `priorType`, `priorVariance`, `prior`, `control`}{the model, each
#'       coefficient's prior kind and variance (named by coefficient; the variance of a
#'       coefficient whose kind is `"none"` means nothing), the prior and control objects;}
#'     \item{`nRows`, `nStrata`, `dropped`, `covariateIds`, `hasIntercept`, `weighted`}{facts
#'       of the data fitted;}
#'     \item{`na.action`}{the rows of a formula's data left out for missing values (an
#'       `"omit"` or `"exclude"` object, as `glm`'s; `stats::na.action(fit)`), or `NULL`;}
#'     \item{`device`}{where the fit ran: `"cpu"`, `"cuda:N"` or `"emulated"`; for
#'       `device = "auto"` the device it chose, and `"cuda"` as `"cuda:0"` (print(),
#'       summary() and glance() show it). Where "auto" chose a GPU whose free memory could
#'       not hold the fit, the fit ran on the CPU, and this says `"cpu"`;}
#'     \item{`cv`}{the cross-validation results (see below), or `NULL`;}
#'     \item{`data`, `settings`, `weights`, `startingCoefficients`, `call`}{what the fit was
#'       made from, for refits (below).}
#'   }
#'   `fit$status` is `"SUCCESS"` only when
#'   the optimality conditions hold at the returned coefficients (see [createControl()],
#'   `optimalityTolerance`; `fit$optimality` is the largest violation, in standard errors, and
#'   `fit$optimalityCovariate` where it is reached), `"MAX_ITERATIONS"` when the cycles ran
#'   out first, `"NO_FINITE_MLE"` when some coefficients run off to infinity (`fit$infinite`
#'   names them; a warning says so) or `"ILLCONDITIONED"` when the numbers overflowed.
#'   Covariates the data cannot identify under a flat prior (collinear with earlier ones,
#'   duplicated, constant next to the intercept or within strata, or without information) are
#'   held at 0, flagged in `fit$aliased`, reported as `NA` by `coef()` and named in a warning,
#'   as `lm()` does: taken in order, a covariate is aliased when the earlier ones explain all
#'   but 1e-12 of it (1 - R^2, over the rows that inform the model: for Cox and Fine-Gray the
#'   rows at risk at some event time, centred within overlapping risk sets; for the
#'   conditional models the strata with a case, centred within each), `coxph()`'s tolerance; `lm()` keeps columns down
#'   to about 1e-14, so one between the two is `NA` here and estimated there. Past 1000 such
#'   covariates, only exact duplicates are found among the rest. With cross-validation, `fit$cv` holds the chosen `variance`, the `curve` (a data frame of
#'   `variance`, `mean` and `sd` of the held-out predictive log-likelihood over the folds, and
#'   `notConverged` fold fits and `noFiniteMle` ones (coefficients running off to infinity on
#'   the fold's training rows, scored where they stopped, with a warning), with `cycles`, the
#'   CCD cycles of its fold fits summed,
#'   `allDataCycles`, those of the fit on all data that the fold fits start from (0 with
#'   `resetCoefficients = TRUE`), `batchedFits`, how many of its fold fits ran together in a
#'   batch on the device (with `majorizedStart = "always"` on a device; 0 on the CPU), and
#'   `order`, the order in which the search scored it),
#'   every fold's value (`values`, one column per repetition and
#'   fold), `folds`, `repetitions`, `selectorType`, `seed` and `bracketed`; `plot(fit)` draws
#'   the curve.
#'
#'   The fit keeps the data it was fitted to in `fit$data` (the `argusData` object itself: R
#'   does not copy it, and `saveRDS(fit)` saves it along), with `fit$weights` and
#'   `fit$startingCoefficients`, so that [runBootstrap()] can refit it. Set `fit$data <- NULL`
#'   to drop the data and give them to `runBootstrap(data = )` instead.
#'
#'   Both objects are plain lists. Every function that reads one checks the fields it reads
#'   first: a field edited to a wrong type, length or range (`d$stratumStart[3] <- 1e7`, a
#'   truncated `fit$coefficients`, a prior kind of 7 in `fit$settings`) is an error naming it.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' coef(fit)
#' @export
fitModel <- function(data, prior = createPrior("none"), control = createControl(),
                     weights = NULL, startingCoefficients = NULL, fixedCoefficients = NULL, ...) {
  cyclopsFitArguments(...)
  checkDataObject(data)
  control <- fromCyclopsControl(control)
  prior <- fromCyclopsPrior(prior)
  if (!inherits(control, "argusControl")) stopf("'control' must come from createControl()")
  resolved <- resolvePrior(prior, data)
  start <- coefficientVector(startingCoefficients, data, "startingCoefficients")
  fixed <- fixedFlags(fixedCoefficients, data)
  if (any(fixed) && is.null(start) && data$hasIntercept && fixed[1])
    message("the intercept is fixed at 0")
  rowWeights <- internalWeights(weights, data)
  checkExactWeights(data, rowWeights, if (is.null(weights)) "weights" else "fitModel(weights)")
  if (hasStratumBaseline(data$modelType)) checkWeightedEvents(data$y, rowWeights, data$modelType)
  settings <- fitSettings(resolved, start, fixed, rowWeights, control)
  checkDeviceAvailable(control$device)

  cv <- NULL
  if (prior$useCrossValidation) {
    cv <- crossValidateVariance(data, prior, resolved, control, settings)
    resolved$variance[resolved$kind != 0L] <- cv$variance
    settings$variance <- resolved$variance
  }
  result <- fitWithProgress(data, settings, control)
  if (control$noiseLevel != "silent")
    message(sprintf("Argus %s fit on %s: %s after %s%d cycles in %.3f s (%s, optimality %.2g)",
                    data$modelType, result$device, result$status,
                    if (result$majorizedSteps > 0) sprintf("%d majorized steps and ", result$majorizedSteps) else "",
                    result$iterations, result$seconds,
                    # least squares: the engine's objective is -RSS/2, not lm's log-likelihood
                    if (data$modelType == "ls") sprintf("residual sum of squares %.6g", -2 * result$logLikelihood)
                    else sprintf("log-likelihood %.6g", result$logLikelihood),
                    result$optimality))
  aliased <- seq_along(data$columnNames) %in% result$aliased
  reportFitProblems(result, data$columnNames, riskSetSpanBeyondRange(result, data))
  # Aliased coefficients are held at 0 in the engine: they stay fixed in everything that
  # refits this model (vcov, confint, profiles, the bootstrap), and coef() shows them as NA.
  fixed <- fixed | aliased
  settings["fixed"] <- list(if (any(fixed)) fixed else NULL)
  beta <- stats::setNames(result$beta, data$columnNames)
  structure(c(list(
    coefficients = beta, status = result$status, iterations = result$iterations,
    majorizedSteps = result$majorizedSteps,
    logLikelihood = result$logLikelihood, logPrior = result$logPrior,
    optimality = result$optimality,
    optimalityCovariate = if (result$worstCoordinate >= 1) data$columnNames[result$worstCoordinate] else NA_character_,
    aliased = stats::setNames(aliased, data$columnNames),
    infinite = data$columnNames[result$infinite], pinned = data$columnNames[result$pinned],
    seconds = result$seconds, modelType = data$modelType,
    priorType = stats::setNames(c("none", "laplace", "normal")[resolved$kind + 1], data$columnNames),
    priorVariance = stats::setNames(resolved$variance, data$columnNames),
    prior = prior, control = control, fixed = fixed, weighted = !is.null(rowWeights),
    nRows = data$nRows, nStrata = data$nStrata, dropped = data$dropped,
    na.action = data$naAction, device = result$device,
    covariateIds = data$covariateIds, hasIntercept = data$hasIntercept, cv = cv,
    # What vcov(), confint(), predict() and runBootstrap() rebuild the engine from: plain R
    # objects, so a fit survives saveRDS()/readRDS() (the data are shared with the caller's
    # copy, not duplicated, until one of them is modified).
    data = data, settings = settings, weights = weights, startingCoefficients = start,
    call = match.call()
  ), cyclopsFitFields(result, data, resolved, cv)), class = "argusFit")
}

# Survival fits: the risk sets' sums hold a linear predictor that spans up to about 700
# within a stratum (riskSetShift, src/engine/models/survival_functors.h: hazard ratios of
# 1e304); beyond that a slot's curvature overflows, and a fit that did not succeed cannot
# tell a finite optimum from coefficients running off (a tester's x in [0, 800] with
# coxph's 1.08 ended NO_FINITE_MLE), nor, since separation itself drives the span past 700,
# the other way round: the status stays, and a warning says so. Returns the largest span
# where that is so, else NULL.
riskSetSpanBeyondRange <- function(result, data) {
  if (!isSurvivalModel(data$modelType) || result$status == "SUCCESS") return(NULL)
  eta <- .Call(argus_linear_predictor, data, as.double(result$beta))
  stratum <- if (is.null(data$stratum)) rep(0L, data$nRows) else data$stratum
  finite <- is.finite(eta)
  if (!any(finite)) return(NULL)
  span <- max(vapply(split(eta[finite], stratum[finite]), function(e) max(e) - min(e), 0))
  if (span > 700) span else NULL
}

# One warning per problem the engine reported: coefficients it could not identify (aliased),
# coefficients without a finite estimate, a fit that did not converge. `span`: a survival
# fit's linear predictor range beyond what its risk sets hold (riskSetSpanBeyondRange).
reportFitProblems <- function(result, columnNames, span = NULL) {
  listed <- function(at) {
    names <- columnNames[at]
    paste0(paste(sprintf("'%s'", utils::head(names, 8)), collapse = ", "),
           if (length(names) > 8) sprintf(" and %d more", length(names) - 8) else "")
  }
  if (!is.null(span))
    warning(sprintf(paste("the linear predictor spans %.0f within a stratum (hazard ratios of",
                          "exp(%.0f)), beyond the about 700 over which the risk sets' sums are exact",
                          "in double precision: status %s may come from coefficients running off",
                          "to infinity or from that overflow. Check the scale of covariates and",
                          "offsets, or use a prior"), span, span, result$status), call. = FALSE)
  if (length(result$aliased))
    warning(sprintf(paste("covariate(s) %s cannot be estimated: collinear with earlier covariates",
                          "(or duplicates, or constant where the model cannot use a constant),",
                          "or without information in the data; their coefficients are NA",
                          "(held at 0 in the fit)"), listed(result$aliased)), call. = FALSE)
  if (result$status == "NO_FINITE_MLE") {
    warning(sprintf(paste("no finite maximum-likelihood estimate: the coefficient(s) of %s run off",
                          "to infinity (separation, an outcome that never or always occurs, or a",
                          "group without events); the values reported are where the fit stopped.",
                          "A prior (createPrior(\"normal\" or \"laplace\")) gives finite estimates"),
                    listed(result$infinite)), call. = FALSE)
  } else if (result$status == "ILLCONDITIONED") {
    warning(sprintf(paste("the fit broke down: status ILLCONDITIONED after %d cycles (the",
                          "log-likelihood or its derivatives overflowed; look for extreme values",
                          "of time, offsets, weights or covariates, or rescale them)"),
                    result$iterations), call. = FALSE)
  } else if (result$status != "SUCCESS") {
    warning(sprintf(paste("the fit did not converge: status %s after %d cycles (largest optimality",
                          "violation %.3g standard errors); raise maxIterations in createControl()"),
                    result$status, result$iterations, result$optimality), call. = FALSE)
  }
}

# The settings list that the engine's fit entry points read (src/bridge/fit_request.cpp,
# fitRequestFromList()): per-column prior kinds and variances, start, fixed flags, weights in
# the internal row order, and the solver controls.
fitSettings <- function(resolved, start, fixed, rowWeights, control) {
  list(priorKind = resolved$kind, variance = resolved$variance, start = start,
       fixed = if (any(fixed)) fixed else NULL, weights = rowWeights,
       # controls saved before optimalityTolerance existed take its default
       tolerance = control$tolerance, optimalityTolerance = control$optimalityTolerance %||% 1e-4,
       maxIterations = control$maxIterations,
       convergenceType = control$convergenceType, initialBound = control$initialBound,
       device = control$device, verbose = control$noiseLevel == "noisy",
       threads = control$threads, majorizedStart = control$majorizedStart %||% "auto")
}

coefficientVector <- function(v, data, name) {
  if (is.null(v)) return(NULL)
  p <- length(data$columnNames)
  labels <- names(v)
  v <- checkNumericVector(v, name)
  names(v) <- labels
  if (!is.null(labels)) {
    if (anyDuplicated(labels))
      stopf("'%s' names covariate '%s' twice", name, labels[anyDuplicated(labels)])
    unknown <- setdiff(labels, data$columnNames)
    if (length(unknown))
      stopf("'%s' names covariate(s) not in the data: %s", name,
            paste(utils::head(unknown, 5), collapse = ", "))
    at <- match(data$columnNames, names(v))
    if (anyNA(at)) stopf("'%s' has no value for covariate '%s'", name, data$columnNames[is.na(at)][1])
    v <- v[at]
  } else if (length(v) != p) {
    stopf("'%s' has %d values but the data have %d covariates", name, length(v), p)
  }
  unname(v)
}

fixedFlags <- function(fixed, data) {
  p <- length(data$columnNames)
  if (is.null(fixed)) return(rep(FALSE, p))
  if (is.logical(fixed)) {
    if (anyNA(fixed)) stopf("'fixedCoefficients' has missing values")
    # named flags name their covariates (as startingCoefficients' names do): applied by
    # position, c("(Intercept)" = FALSE, "22" = FALSE, "11" = TRUE) held 22 and fitted 11
    if (!is.null(names(fixed))) {
      if (anyDuplicated(names(fixed)))
        stopf("'fixedCoefficients' names covariate '%s' twice", names(fixed)[anyDuplicated(names(fixed))])
      flags <- rep(FALSE, p)
      flags[columnsOf(names(fixed), data, "fixedCoefficients")] <- unname(fixed)
      return(flags)
    }
    if (length(fixed) != p)
      stopf("'fixedCoefficients' as a logical vector needs %d values without NA", p)
    return(fixed)
  }
  flags <- rep(FALSE, p)
  flags[columnsOf(fixed, data, "fixedCoefficients")] <- TRUE
  flags
}

# Weights come in the user's row order (all rows, including any dropped strata).
internalWeights <- function(weights, data) {
  w <- if (is.null(weights)) NULL
       else checkWeights(rowsOfData(weights, data, "weights"), "weights", length(data$rowIds))
  if (is.null(w)) return(data$weights)
  w[data$order]
}

# The fit's engine call. Where progress is shown (argusProgress) and the engine's own lines
# are not (noiseLevel "noisy": one per cycle), the engine reports where the fit stands at most
# every argus.progressInterval, after a cycle or a step of the majorized start, and never
# before that much time has passed (ControlSettings::progressSeconds,
# src/engine/common/progress_pace.h): its lines move the progress line, at no cost to the fit.
# A large fit says at once what runs: its first cycle may take a while.
fitWithProgress <- function(data, settings, control) {
  # the engine paces the reports; the line draws each one it gets
  progress <- progressLine(sprintf("%s fit", data$modelType), every = 0, unit = "cycles")
  if (!progress$show || control$noiseLevel == "noisy") return(.Call(argus_fit, data, settings))
  on.exit(progress$done())
  entries <- storedEntries(data)
  if (entries >= 1e7)
    progress$note(sprintf("Argus %s fit: %s rows, %s covariates, %s stored entries, on %s ...", data$modelType,
                          format(data$nRows, big.mark = ","), format(length(data$columnNames), big.mark = ","),
                          format(entries, big.mark = ",", scientific = FALSE), settings$device))
  settings$progressInterval <- progressInterval()
  withCallingHandlers(.Call(argus_fit, data, settings), message = function(m) {
    text <- sub("\n$", "", conditionMessage(m))
    if (!startsWith(text, "fit: ")) return()
    cycles <- if (startsWith(text, "fit: cycle ")) as.numeric(sub("^fit: cycle ([0-9]+):.*", "\\1", text)) else 0
    progress$tick(cycles, sub("^fit: (cycle [0-9]+: )?", "", text))
    invokeRestart("muffleMessage")
  })
}

# Entries the engine stores: every nonzero of sparse and indicator columns, every row of
# dense ones.
storedEntries <- function(data) {
  length(data$design$rows) + sum(data$design$kinds == 2) * as.double(data$nRows)
}

# A device the build does not have is named as the user wrote it ("cuda", not the "cuda:0"
# the engine resolves it to) before the engine is asked.
checkDeviceAvailable <- function(device) {
  if (!grepl("^cuda", device)) return(invisible())
  info <- .Call(argus_cuda_info)
  if (!isTRUE(info$built))
    stopf(paste("device '%s' was requested but Argus was built without CUDA (reinstall with",
                "ARGUS_CUDA=on and a CUDA toolkit; listDevices() shows what this build has)"), device)
  index <- if (device == "cuda") 0L else as.integer(sub("^cuda:", "", device))
  if (index >= info$deviceCount)
    stopf("device '%s' was requested but %s (listDevices() shows them)", device,
          if (info$deviceCount == 0) "no CUDA device is visible"
          else sprintf("only %d CUDA device(s) are visible, cuda:0 to cuda:%d", info$deviceCount,
                       info$deviceCount - 1L))
  invisible()
}
