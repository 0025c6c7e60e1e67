# argusData and argusFit objects are plain lists that a user may edit (`d$stratumStart[3] <-
# 1e7`, `fit$coefficients <- fit$coefficients[1:2]`). Before an object reaches the engine, or
# an R method reads it, the fields that the engine and the methods read are checked here for
# type, length and range, so that an edited object is a clear error naming the field: an
# edited stratum offset was read out of bounds (a segfault), a truncated coefficient vector
# was read as zeros by predict(), a prior kind of 7 as a flat prior. The checks cost O(number
# of covariates and strata), plus one pass over `order` and the weights; the per-row values
# (finite outcomes, rows within range, contiguous strata) are the engine's own checks
# (validateDataset, src/engine/data/dataset.cpp), which run before it reads anything.

checkDataObject <- function(data, name = "data") {
  if (!inherits(data, "argusData") || !is.list(data)) stopf("'%s' must come from createData()", name)
  bad <- function(field, why, ...)
    stopf(paste0("'%s' is not a valid argusData object: its %s ", why,
                 " (was it edited? rebuild it with createData())"), name, field, ...)
  modelType <- data$modelType
  if (!is.character(modelType) || length(modelType) != 1 || !(modelType %in% modelTypes()))
    bad("modelType", "must be one of %s", paste(modelTypes(), collapse = ", "))
  n <- data$nRows
  if (!isWholeNumber(n) || n < 1 || n > .Machine$integer.max)
    bad("nRows", "must be a positive whole number")
  perRow <- function(field, required = FALSE) {
    x <- data[[field]]
    if (is.null(x) && !required) return(invisible())
    if (!is.double(x) || length(x) != n || !is.null(dim(x)))
      bad(field, "must be a double vector of one value per row (%d)", n)
  }
  perRow("y", required = TRUE)
  if (modelType %in% c("cpr", "sccs") || isSurvivalModel(modelType)) perRow("time", required = TRUE)
  for (field in c("time", "offset", "weights", "startTime", "censoringSurvival")) perRow(field)
  if (!is.null(data$weights)) checkWeightRange(data$weights, "data$weights")
  if (!is.null(data$ties) && !(isString(data$ties) && data$ties %in% c("breslow", "efron", "exact")))
    bad("ties", "must be \"breslow\", \"efron\" or \"exact\"")
  if (!is.null(data$censoringByStratum) && !isFlag(data$censoringByStratum))
    bad("censoringByStratum", "must be TRUE or FALSE")
  if (!isFlag(data$hasIntercept)) bad("hasIntercept", "must be TRUE or FALSE")
  checkDesignObject(data, n, bad)
  checkStrataObject(data, n, bad)
  if (!is.null(data$cluster) && length(data$cluster) != n)
    bad("cluster", "must have one label per row (%d)", n)
  users <- length(data$rowIds)
  order <- data$order
  if (users < n) bad("rowIds", "must have at least one identifier per row (%d)", n)
  if (!is.numeric(order) || length(order) != n || anyNA(order) ||
      any(range(order) < 1 | range(order) > users))
    bad("order", "must give each row's position among the %d rows of the user's data", users)
  invisible(data)
}

# The design's five arrays (src/engine/data/design_storage.h): column kinds, offsets into the
# rows and values of each column, and those arrays, consistent with each other and the names.
checkDesignObject <- function(data, n, bad) {
  d <- data$design
  p <- length(data$columnNames)
  if (!(is.character(data$columnNames) || p == 0) || anyNA(data$columnNames))
    bad("columnNames", "must name each covariate")
  if (!is.list(d)) bad("design", "must be the list createData() made")
  kinds <- d$kinds
  if (!is.integer(kinds) || length(kinds) != p || anyNA(kinds) || any(kinds < 0L | kinds > 3L))
    bad("design$kinds", "must be one column kind (0 to 3) per covariate (%d)", p)
  if (!is.integer(d$rows)) bad("design$rows", "must be an integer vector")
  if (!is.double(d$values)) bad("design$values", "must be a double vector")
  offsets <- function(field, length) {
    x <- d[[field]]
    if (!is.numeric(x) || length(x) != p + 1 || anyNA(x) || any(x != round(x)) || x[1] != 0 ||
        any(diff(x) < 0) || x[p + 1] != length)
      bad(sprintf("design$%s", field), "must rise from 0 to %.0f in %d steps", length, p)
    diff(x)
  }
  rowCounts <- offsets("rowStart", length(d$rows))
  valueCounts <- offsets("valueStart", length(d$values))
  wrong <- ifelse(kinds == 0L, valueCounts != 0,                          # indicator: rows only
           ifelse(kinds == 1L, valueCounts != rowCounts,                 # sparse: a value per row
           ifelse(kinds == 2L, rowCounts != 0 | valueCounts != n,        # dense: a value per row
                  rowCounts != 0 | valueCounts != 0)))                   # intercept: nothing
  if (any(wrong)) bad("design", "has column %d with entries that do not fit its kind", which(wrong)[1])
  if (data$hasIntercept && kinds[1] != 3L) bad("hasIntercept", "says there is an intercept, and the first column is none")
}

# Strata: the models with a baseline per stratum have each row's stratum (0-based, integer)
# and the offsets of the strata, rising from 0 to the number of rows; the others have none.
checkStrataObject <- function(data, n, bad) {
  if (!hasStratumBaseline(data$modelType)) {
    if (!is.null(data$stratum) || !is.null(data$stratumStart))
      bad("stratum", "must be NULL for modelType '%s'", data$modelType)
    return(invisible())
  }
  if (!is.integer(data$stratum) || length(data$stratum) != n)
    bad("stratum", "must be an integer vector of one stratum per row (%d)", n)
  start <- data$stratumStart
  if (!is.numeric(start) || length(start) < 2 || anyNA(start) || any(start != round(start)) ||
      start[1] != 0 || any(diff(start) <= 0) || start[length(start)] != n)
    bad("stratumStart", "must rise from 0 to the number of rows (%d)", n)
  strata <- length(start) - 1
  if (!isWholeNumber(data$nStrata) || !(data$nStrata %in% c(0, strata)))
    bad("nStrata", "must be the number of strata (%d)", strata)
}

# The fields of a fit that its methods and the engine read: the coefficients (one per
# covariate of its data, named as them), the flags and priors per coefficient, the stored
# results that print() and summary() report, and the settings the fit was made with
# (R/fit.R, fitSettings()). O(number of coefficients): coef(), print(), logLik() run it.
# `deep`: also the values of the settings' weights and the control (what the engine entry
# points and the bootstrap read), O(rows).
checkFitObject <- function(fit, name = "fit", deep = TRUE) {
  if (!inherits(fit, "argusFit") || !is.list(fit)) stopf("'%s' must come from fitModel()", name)
  bad <- function(field, why, ...)
    stopf(paste0("'%s' is not a valid argusFit object: its %s ", why,
                 " (was it edited? refit it with fitModel())"), name, field, ...)
  beta <- fit$coefficients
  labels <- names(beta)
  p <- length(beta)
  if (!is.double(beta) || p == 0 || !all(is.finite(beta)) || is.null(labels) || !is.null(dim(beta)))
    bad("coefficients", "must be finite numbers named by covariate")
  if (!is.null(fit$data)) {
    if (!identical(labels, fit$data$columnNames))
      bad("coefficients", "must be one per covariate of its data (%d), named as them",
          length(fit$data$columnNames))
    if (!identical(fit$modelType, fit$data$modelType)) bad("modelType", "must be its data's")
    if (!identical(as.double(fit$nRows), as.double(fit$data$nRows))) bad("nRows", "must be its data's")
  }
  if (!isString(fit$modelType) || !(fit$modelType %in% modelTypes()))
    bad("modelType", "must be one of %s", paste(modelTypes(), collapse = ", "))
  if (!isFlag(fit$hasIntercept) || (!is.null(fit$data) && !identical(fit$hasIntercept, fit$data$hasIntercept)))
    bad("hasIntercept", "must be TRUE or FALSE, as its data say")
  flags <- function(field) {
    x <- fit[[field]]
    if (!is.null(x) && (!is.logical(x) || length(x) != p || anyNA(x)))
      bad(field, "must be one TRUE or FALSE per coefficient (%d)", p)
  }
  flags("aliased")
  flags("fixed")
  if (!is.character(fit$priorType) || length(fit$priorType) != p ||
      !all(fit$priorType %in% c("none", "laplace", "normal")))
    bad("priorType", "must be one prior (\"none\", \"laplace\" or \"normal\") per coefficient (%d)", p)
  variance <- columnVariances(fit)
  if (!is.numeric(variance) || length(variance) != p || anyNA(variance) ||
      any(fit$priorType != "none" & !(variance > 0 & is.finite(variance))))
    bad("priorVariance", "must be one positive variance per coefficient (%d)", p)
  for (field in c("infinite", "pinned"))
    if (!is.null(fit[[field]]) && (!is.character(fit[[field]]) || !all(fit[[field]] %in% labels)))
      bad(field, "must name coefficients")
  checkFitResults(fit, bad)
  start <- fit$startingCoefficients
  if (!is.null(start) && (!is.double(start) || length(start) != p || !all(is.finite(start))))
    bad("startingCoefficients", "must be NULL or one finite value per coefficient (%d)", p)
  if (!is.null(fit$settings)) checkFitSettings(fit$settings, p, fit$data$nRows, bad, deep)
  if (!inherits(fit$control, "argusControl") || !is.list(fit$control))
    bad("control", "must come from createControl()")
  tolerance <- fit$control$optimalityTolerance  # (summary() shows it; older controls lack it)
  if (!is.null(tolerance) && !(is.numeric(tolerance) && length(tolerance) == 1 && is.finite(tolerance) && tolerance > 0))
    bad("control$optimalityTolerance", "must be a positive number")
  if (deep) checkControlObject(fit$control, bad)
  invisible(fit)
}

# The stored results that print(), summary() and logLik() report as they are.
checkFitResults <- function(fit, bad) {
  statuses <- c("SUCCESS", "MAX_ITERATIONS", "ILLCONDITIONED", "NO_FINITE_MLE")
  if (!isString(fit$status) || !(fit$status %in% statuses))
    bad("status", "must be one of %s", paste(statuses, collapse = ", "))
  for (field in c("iterations", "nRows"))
    if (!isWholeNumber(fit[[field]]) || fit[[field]] < 0) bad(field, "must be a whole number")
  if (!is.null(fit$nStrata) && (!isWholeNumber(fit$nStrata) || fit$nStrata < 0))
    bad("nStrata", "must be a whole number")
  for (field in c("logLikelihood", "logPrior", "seconds", "optimality"))
    if (!(is.numeric(fit[[field]]) && length(fit[[field]]) == 1)) bad(field, "must be a number")
  if (!(is.character(fit$optimalityCovariate) && length(fit$optimalityCovariate) == 1 &&
        fit$optimalityCovariate %in% c(names(fit$coefficients), NA)))
    bad("optimalityCovariate", "must be a covariate's name (or NA)")
  # where the fit ran, and a formula's rows left out for missing values (older fits: NULL)
  if (!is.null(fit$device) && !(isString(fit$device) && grepl("^(cpu|cuda(:[0-9]+)?|emulated)$", fit$device)))
    bad("device", "must be where the fit ran (\"cpu\", \"cuda:N\" or \"emulated\")")
  if (!is.null(fit$na.action) && !(is.numeric(fit$na.action) && inherits(fit$na.action, c("omit", "exclude"))))
    bad("na.action", "must be the rows left out for missing values (na.omit's or na.exclude's)")
}

# The settings list that the engine's fit entry points read (fitSettings() in R/fit.R).
checkFitSettings <- function(settings, p, n, bad, deep = TRUE) {
  if (!is.list(settings)) bad("settings", "must be the list fitModel() made")
  kind <- settings$priorKind
  if (!is.numeric(kind) || length(kind) != p || anyNA(kind) || !all(kind %in% 0:2))
    bad("settings$priorKind", "must be one prior kind (0 none, 1 laplace, 2 normal) per coefficient (%d)", p)
  if (!is.numeric(settings$variance) || length(settings$variance) != p || anyNA(settings$variance) ||
      any(kind != 0 & !(settings$variance > 0 & is.finite(settings$variance))))
    bad("settings$variance", "must be one positive variance per coefficient (%d)", p)
  if (!is.null(settings$start) && (!is.numeric(settings$start) || length(settings$start) != p ||
                                   !all(is.finite(settings$start))))
    bad("settings$start", "must be NULL or one finite value per coefficient (%d)", p)
  if (!is.null(settings$fixed) && (!is.logical(settings$fixed) || length(settings$fixed) != p ||
                                   anyNA(settings$fixed)))
    bad("settings$fixed", "must be NULL or one TRUE or FALSE per coefficient (%d)", p)
  if (!is.null(settings$weights)) {
    range <- if (is.double(settings$weights)) .Call(argus_value_range, settings$weights)
    if (!is.double(settings$weights) || (!is.null(n) && length(settings$weights) != n) ||
        !all(is.finite(range)) || range[1] < 0)
      bad("settings$weights", "must be NULL or one finite, non-negative weight per row of its data")
    if (deep) checkWeights(settings$weights, "settings$weights")
  }
  positive <- function(field) {
    x <- settings[[field]]
    if (!is.numeric(x) || length(x) != 1 || !is.finite(x) || x <= 0)
      bad(sprintf("settings$%s", field), "must be a positive number")
  }
  for (field in c("tolerance", "initialBound", "maxIterations", "threads")) positive(field)
  if (!is.null(settings$optimalityTolerance)) positive("optimalityTolerance")
  if (!isWholeNumber(settings$maxIterations) || !isWholeNumber(settings$threads))
    bad("settings", "must have whole numbers of maxIterations and threads")
  for (field in c("convergenceType", "device"))
    if (!isString(settings[[field]])) bad(sprintf("settings$%s", field), "must be a string")
  if (!isFlag(settings$verbose)) bad("settings$verbose", "must be TRUE or FALSE")
}

# A fit's control is what createControl() made: the same call must accept its values (the
# bootstrap and the profiles read its settings and threads).
checkControlObject <- function(control, bad) {
  if (!inherits(control, "argusControl") || !is.list(control)) bad("control", "must come from createControl()")
  arguments <- control[intersect(names(control), c(names(formals(createControl)), "minCVData"))]
  tryCatch(do.call(createControl, arguments),
           error = function(e) bad("control", "is not valid: %s", conditionMessage(e)))
  invisible()
}

isWholeNumber <- function(x) is.numeric(x) && length(x) == 1 && is.finite(x) && x == round(x)
isFlag <- function(x) is.logical(x) && length(x) == 1 && !is.na(x)
isString <- function(x) is.character(x) && length(x) == 1 && !is.na(x)
