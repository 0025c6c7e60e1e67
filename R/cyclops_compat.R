# Calls written the incumbent's (Cyclops's) way: each either means the same in Argus or stops
# with an error that names the Argus way. Nothing here runs with a different meaning.

# predict(fit, newOutcomes =, newCovariates =): the incumbent's new data, on the response
# scale; the Argus way names the table 'newdata' and the rows 'outcomes'.
rejectCyclopsPredictArguments <- function(...) {
  given <- names(as.list(substitute(list(...)))[-1])
  cyclops <- intersect(given, c("newOutcomes", "newCovariates"))
  if (length(cyclops) == 0) return(invisible())
  stopf(paste("predict(): unused argument(s): %s. The incumbent's predict(fit, newOutcomes =",
              "o, newCovariates = c) is predict(fit, newdata = c, outcomes = o) in Argus (by",
              "default the response scale for lr and pr, the linear predictor otherwise; see",
              "'type')"),
        paste(given, collapse = ", "))
}

# Arguments of the incumbent's createControl() that Argus has not. A value that means what
# Argus does anyway is taken and changes nothing (the incumbent's defaults among them, which
# stored analysis settings carry: CohortMethod serializes every field); any other value is
# an error that says why. autoSearch is the incumbent's name for cvType.
cyclopsControlArguments <- function(...) {
  given <- list(...)
  labels <- names(given) %||% rep("", length(given))
  if (any(labels == ""))
    stopf("createControl(): unused unnamed argument(s); give settings by name")
  # accepted values (NULL: any) and why another value has no Argus equivalent
  noEffect <- list(
    useKKTSwindle = list(NULL, ""),  # a screening device of the incumbent's; the optimum is the same
    tuneSwindle = list(NULL, ""),
    maxBoundCount = list(NULL, ""),  # Argus's trust region needs no retry count
    doItAll = list(NULL, ""),        # unused in the incumbent too
    syncCV = list(NULL, ""),
    algorithm = list("ccd", "Argus fits by cyclic coordinate descent only (\"ccd\")"),
    initialBoundType = list("auto", "Argus's bound is set per coordinate; see 'initialBound'"))
  known <- c("minCVData", "autoSearch", names(noEffect))
  unknown <- setdiff(labels, known)
  if (length(unknown))
    stopf("createControl(): unused argument(s): %s", paste(unknown, collapse = ", "))
  for (name in intersect(labels, names(noEffect))) {
    accepted <- noEffect[[name]][[1]]
    if (is.null(accepted) || identical(given[[name]], accepted)) next
    stopf("createControl(): the incumbent's %s = %s has no Argus equivalent: %s", name,
          deparse(given[[name]]), noEffect[[name]][[2]])
  }
  minCVData <- given$minCVData
  if (!is.null(minCVData))
    minCVData <- checkScalar(minCVData, "minCVData", lower = 1, integer = TRUE)
  autoSearch <- given$autoSearch
  if (!is.null(autoSearch)) checkFlag(autoSearch, "autoSearch")
  list(minCVData = minCVData, autoSearch = autoSearch)
}

# Arguments of the incumbent's convertToCyclopsData(), fitCyclopsModel() and
# getCyclopsProfileLogLikelihood() that OHDSI packages pass and Argus has not: those in
# `anyValue` change nothing in Argus whatever their value; those in `onlyValue` only with the
# value given there (the incumbent's default). Anything else is an error naming the argument
# and, where there is one, the Argus way.
cyclopsExtraArguments <- function(call, anyValue, onlyValue = list(), hints = character(0), ...) {
  # by name first, evaluating only the values that are compared: an argument of another
  # function's (lm's subset = z > 1) is unused, not an "object 'z' not found"
  n <- ...length()
  if (n == 0) return(invisible())
  labels <- ...names() %||% rep("", n)
  labels[is.na(labels)] <- ""
  if (any(labels == "")) stopf("%s: unused unnamed argument(s)", call)
  for (k in seq_len(n)) {
    name <- labels[k]
    if (name %in% anyValue) next
    value <- if (name %in% names(onlyValue)) ...elt(k)
    if (name %in% names(onlyValue) && identical(value, onlyValue[[name]])) next
    stopf("%s: unused argument %s%s", call,
          if (name %in% names(onlyValue))
            sprintf("%s = %s (the incumbent's; Argus takes only %s)", name,
                    deparse(value), deparse(onlyValue[[name]]))
          else name,
          if (name %in% names(hints)) paste0(": ", hints[[name]]) else "")
  }
  invisible()
}

cyclopsDataArguments <- function(...) {
  cyclopsExtraArguments("createData()", anyValue = c("checkRowIds", "quiet", "checkSorting"),
                        onlyValue = list(normalize = NULL),
                        hints = c(normalize = "Argus does not rescale covariates"), ...)
}

cyclopsFitArguments <- function(...) {
  cyclopsExtraArguments("fitModel()", anyValue = c("forceNewObject", "warnings"),
                        onlyValue = list(returnEstimates = TRUE, computeDevice = "native"),
                        hints = c(computeDevice = "choose the device with createControl(device = )",
                                  returnEstimates = "Argus always returns the estimates"), ...)
}

cyclopsProfileArguments <- function(...) {
  cyclopsExtraArguments("profileLogLikelihood()", anyValue = c("maxResets", "optimalWarmStart"), ...)
}

# An object of the incumbent's createControl() or createPrior() (class cyclopsControl,
# cyclopsPrior) given to fitModel(): read as the same call of Argus's, or an error naming the
# field that has no equivalent.
fromCyclopsControl <- function(control) {
  if (!inherits(control, "cyclopsControl")) return(control)
  fields <- unclass(control)
  fields <- fields[!vapply(fields, is.null, TRUE)]
  do.call(createControl, fields)
}

fromCyclopsPrior <- function(prior) {
  if (!inherits(prior, "cyclopsPrior")) return(prior)
  fields <- unclass(prior)
  if (!is.null(fields$graph) || !is.null(fields$neighborhood))
    stopf("the incumbent's hierarchical priors (graph, neighborhood) have no Argus equivalent")
  fields$graph <- NULL
  fields$neighborhood <- NULL
  do.call(createPrior, fields)
}

# The incumbent's special values: startingVariance = -1 is "a data-based guess" (Argus:
# NULL); threads = -1 is "as many as there are cores".
cyclopsStartingVariance <- function(startingVariance) {
  if (is.numeric(startingVariance) && identical(as.double(startingVariance), -1)) NULL
  else startingVariance
}

cyclopsThreads <- function(threads) {
  if (is.numeric(threads) && identical(as.double(threads), -1))
    max(1L, parallel::detectCores(logical = TRUE), na.rm = TRUE)
  else threads
}

# The incumbent names the intercept by the covariate id 0 (exclude = c(0) leaves the
# intercept unpenalized). Where the data have an intercept and no covariate with id 0, a
# numeric 0 names the intercept; with a covariate 0 as well, the id is ambiguous.
interceptAsZero <- function(ids, data, what) {
  if (is.null(ids) || !(is.numeric(ids) || isInteger64(ids)) || !data$hasIntercept) return(ids)
  zero <- which(as.character(ids) == "0")
  if (length(zero) == 0) return(ids)
  if ("0" %in% data$columnNames)
    stopf(paste("covariate id 0 is ambiguous: these data have a covariate 0 and an intercept",
                "(the incumbent's id 0); name the intercept \"(Intercept)\""))
  labels <- userIdLabels(ids, what)
  labels[zero] <- "(Intercept)"
  labels
}

# Per-column prior variances of a fit (fits made before 'priorVariance' existed kept them in
# 'variance').
columnVariances <- function(fit) unname(fit$priorVariance %||% fit$variance)

# The incumbent's fields of a fit, with the incumbent's meanings: 'return_flag' (the status),
# 'log_likelihood', 'estimation' (a data frame of column_label and estimate) and 'variance',
# the prior's variance (the hyperparameter): the cross-validated one when the variance was
# chosen by cross-validation, the given one(s) otherwise, NA when no covariate is penalized.
cyclopsFitFields <- function(result, data, resolved, cv) {
  penalized <- resolved$kind != 0L
  variance <- if (!is.null(cv)) cv$variance
              else if (!any(penalized)) NA_real_
              else if (length(unique(resolved$variance[penalized])) == 1) resolved$variance[penalized][1]
              else resolved$variance[penalized]
  list(return_flag = result$status, log_likelihood = result$logLikelihood,
       estimation = data.frame(column_label = data$columnNames, estimate = result$beta,
                               stringsAsFactors = FALSE),
       variance = variance)
}

# runBootstrap(): the incumbent's argument names.
cyclopsBootstrapArguments <- function(...) {
  given <- names(as.list(substitute(list(...)))[-1]) %||% character(0)
  if (length(given) == 0) return(invisible())
  hints <- c(ciCoverage = "Argus calls the interval's coverage 'level'",
             na.rm = paste("Argus leaves replicates whose fit broke down out of the summary",
                           "(see $status)"),
             outFileName = "Argus returns the replicates in $estimates",
             treatmentId = "Argus bootstraps every coefficient")
  known <- given[given %in% names(hints)]
  stopf("runBootstrap(): unused argument(s): %s%s", paste(given, collapse = ", "),
        if (length(known)) paste0(". ", paste(sprintf("'%s': %s", known, hints[known]),
                                              collapse = "; ")) else "")
}

# The incumbent's profile derivatives (returnDerivatives = TRUE): at each point b, with the
# coefficient held at b and the others refitted, the partial derivative of the
# log-likelihood along the coefficient, plus that of its log prior when includePenalty.
# Where the objective is the profiled one (includePenalty = TRUE), this is the slope of the
# profile itself (the others are at their optimum).
profileDerivatives <- function(fit, column, points, includePenalty) {
  settings <- profileSettings(fit, infiniteFlags(fit)[column])
  settings$threads <- 1L
  fixed <- settings$fixed %||% rep(FALSE, length(fit$coefficients))
  fixed[column] <- TRUE
  settings$fixed <- fixed
  kind <- fit$priorType[column]
  variance <- columnVariances(fit)[column]
  vapply(points, function(b) {
    settings$start[column] <- b
    refit <- .Call(argus_fit, fit$data, settings)
    gradient <- .Call(argus_hessian, fit$data, settings, refit$beta, as.integer(column - 1L),
                      FALSE, FALSE)$gradient
    prior <- if (!includePenalty || kind == "none") 0
             else if (kind == "normal") -b / variance
             else -sqrt(2 / variance) * sign(b)
    gradient[1] + prior
  }, 0)
}
