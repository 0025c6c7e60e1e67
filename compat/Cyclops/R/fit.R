# fitCyclopsModel(): the incumbent's call, fitted by Argus::fitModel() with every setting
# passed explicitly (prior, ties, control, weights), and returned as the incumbent's
# cyclopsFit: a list with its fields, plus `engine` ("Argus") and the Argus fit itself.

#' Fit a Cyclops model
#'
#' Fits the model of a `cyclopsData` object with the Argus engine. Arguments, defaults and
#' the result are the incumbent's: a `cyclopsFit` with `estimation` (a data frame of
#' `column_label`, the covariate ids, and `estimate`), `return_flag` (`"SUCCESS"`,
#' `"MAX_ITERATIONS"`, `"ILLCONDITIONED"` or `"NO_FINITE_MLE"`), `log_likelihood`, `log_prior`,
#' `variance` (the prior's variance: the cross-validated one, the given ones of the penalized
#' covariates, or none for a flat prior), `prior_info`, `iterations`, `timeFit`, `seed`,
#' `coefficientNames`, `rowNames`, `cross_validation` and `cyclopsData`; and `engine`
#' (`"Argus"`) and `argusFit` (the Argus fit).
#'
#' `weights` (or the data's own, from `outcomes$weights` or `createCyclopsData(weights = )`)
#' weight the rows in the order of the data's outcomes (for outcomes from a database table:
#' sorted by `rowId`), as `glm()` and `coxph()` read weights. For Cox and conditional models
#' the incumbent applied `fitCyclopsModel(weights = )` in its internal sort order instead (see
#' [Cyclops-package]). With `useCrossValidation` in the prior, the variance is chosen by
#' Argus's cross-validation with the control's settings; the folds are Argus's, so the chosen
#' variance agrees with the incumbent's within the noise of the fold assignment.
#'
#' Conditional logistic models (`"clr"`) use Breslow's likelihood for matched sets with
#' several cases, as the incumbent's `"clr"`; `"clr_exact"` the exact conditional likelihood
#' (`clogit()`'s default). Cox models use Breslow's ties, as the incumbent.
#'
#' @param cyclopsData A `cyclopsData` object.
#' @param prior A `cyclopsPrior` from [createPrior()].
#' @param control A `cyclopsControl` from [createControl()].
#' @param weights Optional non-negative row weights (see Details).
#' @param forceNewObject,returnEstimates Accepted; a fit always starts from the data and
#'   returns its estimates.
#' @param startingCoefficients Optional starting values, one per coefficient.
#' @param fixedCoefficients Optional logical vector, one per coefficient: `TRUE` holds the
#'   coefficient at its starting value (0 by default).
#' @param warnings Warn when the intercept is excluded from the prior and when censoring
#'   weights are given to a model that does not use them.
#' @param computeDevice `"native"`; other devices (the incumbent's OpenCL) are not available.
#' @return A `cyclopsFit`.
#' @examples
#' counts <- c(18, 17, 15, 20, 10, 20, 25, 13, 12)
#' outcome <- gl(3, 1, 9)
#' treatment <- gl(3, 3)
#' fit <- fitCyclopsModel(createCyclopsData(counts ~ outcome + treatment, modelType = "pr"))
#' coef(fit)
#' confint(fit, c("outcome2", "treatment3"))
#' fit$engine
#' @export
fitCyclopsModel <- function(cyclopsData, prior = createPrior("none"), control = createControl(),
                            weights = NULL, forceNewObject = FALSE, returnEstimates = TRUE,
                            startingCoefficients = NULL, fixedCoefficients = NULL,
                            warnings = TRUE, computeDevice = "native") {
  if (!is.null(control$setHook) || !is.null(prior$fitHook) || !is.null(prior$setHook))
    refuse("a prior or control with a fitting hook (fitHook, setHook: BAR, iterative hard thresholding)",
           "Argus fits separable priors only: 'none', 'laplace' and 'normal'")
  call <- match.call()
  checkCyclopsData(cyclopsData)
  if (!identical(computeDevice, "native"))
    refuse(sprintf("computeDevice = \"%s\" (OpenCL devices)", computeDevice),
           "Argus chooses its device with Argus::createControl(device = )")
  stopifnot(inherits(prior, "cyclopsPrior"))
  stopifnot(inherits(control, "cyclopsControl"))
  # settings restored from JSON (CohortMethod, SelfControlledCaseSeries) may hold lists
  for (field in c("priorType", "variance", "exclude"))
    if (is.list(prior[[field]])) prior[field] <- list(unlist(prior[[field]]))
  data <- cyclopsData
  argus <- argusData(data)
  p <- getNumberOfCovariates(data)
  if (getNumberOfRows(data) < 1 || p < 1) stop("Data are incompletely loaded")
  translated <- argusPrior(prior, data, warnings)
  settings <- argusControl(control, data, prior)
  rowWeights <- fitWeights(data, weights, warnings)
  if (!is.null(startingCoefficients) && length(startingCoefficients) != p)
    stop("Must provide a value for each coefficient")
  if (!is.null(fixedCoefficients) && length(fixedCoefficients) != p)
    stop("Must provide a boolean for each coefficient")
  fit <- withInfiniteWarning(Argus::fitModel(
    argus, prior = translated, control = settings$control, weights = rowWeights,
    startingCoefficients = if (!is.null(startingCoefficients)) unname(as.numeric(startingCoefficients)),
    fixedCoefficients = if (!is.null(fixedCoefficients)) unname(as.logical(fixedCoefficients))))
  cyclopsFit(fit, data, prior, settings, call, fixedCoefficients, rowWeights)
}

# The Argus fit in the incumbent's shape.
cyclopsFit <- function(fit, data, prior, settings, call, fixedCoefficients, weights) {
  beta <- unname(fit$coefficients)
  interface <- new.env(parent = emptyenv())
  interface$beta <- beta
  interface$argusFit <- fit
  interface$cyclopsData <- data
  class(interface) <- "cyclopsInterface"
  out <- list(
    interface = interface, timeFit = fit$seconds,
    log_likelihood = incumbentLogLikelihood(fit$logLikelihood, data, weights),
    log_prior = incumbentLogPrior(fit$logPrior, data),
    return_flag = incumbentStatus(fit$status), iterations = fit$iterations,
    prior_info = priorInfo(prior, fit, data), variance = reportedVariance(prior, fit, data),
    covariate_count = length(beta),
    cross_validation = if (is.null(fit$cv)) "" else crossValidationInfo(fit),
    timeLog = 0,
    estimation = data.frame(column_label = as.numeric(idText(data$ids)), estimate = beta),
    call = call, cyclopsData = data, coefficientNames = data$coefficientNames)
  if (!is.null(fixedCoefficients)) out$fixedCoefficients <- as.logical(fixedCoefficients)
  out$rowNames <- data$rowNames
  out$scale <- data$scale
  out$threads <- settings$control$threads
  out$seed <- settings$seed
  if (isTRUE(prior$useCrossValidation)) out$cvRepetitions <- settings$control$cvRepetitions
  out$engine <- "Argus"
  out$argusFit <- fit
  out$dataVersion <- data$version
  class(out) <- "cyclopsFit"
  out
}

# A fit whose coefficients run off to infinity (separation) is, as in glm() and coxph(), a
# fit: "SUCCESS" with the warning that a coefficient may be infinite, the estimates where the
# fit stopped (Argus's own status, NO_FINITE_MLE, stays in fit$argusFit$status).
incumbentStatus <- function(status) if (status == "NO_FINITE_MLE") "SUCCESS" else status

# Argus's warning for coefficients without a finite estimate, in the words the incumbent's
# users look for ("coefficient may be infinite"); other warnings pass unchanged.
withInfiniteWarning <- function(expr) {
  withCallingHandlers(expr, warning = function(w) {
    message <- conditionMessage(w)
    if (startsWith(message, "no finite maximum-likelihood estimate")) {
      warning(paste("coefficient may be infinite:", message), call. = FALSE)
      invokeRestart("muffleWarning")
    }
  })
}

# The weights of a fit, in the order of the data's outcomes, with the incumbent's checks.
fitWeights <- function(data, weights, warnings) {
  if (!is.null(data$weights) && !is.null(weights)) warning("Using weights passed to fitCyclopsModel()")
  weights <- weights %||% data$weights
  if (!is.null(data$censorWeights) && data$modelType != "fgr") {
    if (warnings)
      warning(sprintf(paste0("modelType = '%s' does not use censorWeights. These weights will",
                             " not be passed further."), data$modelType))
  }
  if (is.null(weights)) return(NULL)
  if (length(weights) != getNumberOfRows(data)) stop("Must provide a weight for each data row")
  if (any(weights < 0)) stop("Only non-negative weights are allowed")
  as.numeric(weights)
}

# The fit's log-likelihood on the incumbent's scale: least squares' -RSS (Argus: -RSS / 2);
# the conditional Poisson's with the constant sum(y log(time) - log(y!)) of the exposure
# times (Argus's leaves it out; offsets of a formula do not enter it, as in the incumbent).
incumbentLogLikelihood <- function(value, data, weights = NULL) {
  switch(data$modelType,
         ls = 2 * value,
         cpr = , sccs = value + conditionalPoissonConstant(data, weights),
         value)
}

incumbentLogPrior <- function(value, data) if (data$modelType == "ls") 2 * value else value

conditionalPoissonConstant <- function(data, weights = NULL) {
  o <- data$outcomes
  sum((weights %||% rep(1, nrow(o))) * (o$y * log(o$time) - lfactorial(o$y)))
}
