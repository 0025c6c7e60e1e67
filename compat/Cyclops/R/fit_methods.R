# Methods of a cyclopsFit: coefficients, log-likelihood, printing, the variance matrix and
# standard errors, Wald intervals and the gradient. Each reads the Argus fit (through
# Argus's exported functions) and names its result as the incumbent does.

# The Argus fit behind a cyclopsFit, refusing fits whose data changed since (normalized,
# extended by the row-by-row constructor): the incumbent's fit is then gone too.
argusFitOf <- function(object) {
  if (!inherits(object, "cyclopsFit") || is.null(object$argusFit))
    stop("Improperly constructed cyclopsFit object")
  if (!identical(object$dataVersion, object$cyclopsData$version))
    stop("Interface object is not initialized: the data were changed after this fit; refit it")
  object$argusFit
}

#' Coefficients, log-likelihood and hyperparameter of a Cyclops fit
#'
#' `coef()` reads `fit$estimation` (so code that adjusts an estimate there, as CohortMethod
#' does with the intercept of a sampled propensity model, sees its change in `coef()` and
#' [predict.cyclopsFit()]) and names the values by `coefficientNames`; it stops for a fit that
#' did not succeed unless `ignoreConvergence`. `rescale = TRUE` undoes a normalization of the
#' covariates. `logLik()` has the number of coefficients as `df` and the rows as `nobs`.
#' `getHyperParameter()` is `fit$variance`.
#'
#' @param object A `cyclopsFit`.
#' @param rescale Undo the data's normalization.
#' @param ignoreConvergence Give the estimates of a fit that did not succeed.
#' @param ... Not used.
#' @return A named vector, a `logLik` object, or the variance(s).
#' @examples
#' fit <- fitCyclopsModel(createCyclopsData(am ~ wt, data = mtcars, modelType = "lr"))
#' coef(fit)
#' logLik(fit)
#' @name coef.cyclopsFit
NULL

#' @rdname coef.cyclopsFit
#' @method coef cyclopsFit
#' @export
coef.cyclopsFit <- function(object, rescale = FALSE, ignoreConvergence = FALSE, ...) {
  if (object$return_flag != "SUCCESS" && !ignoreConvergence)
    stop("Cyclops estimation is null; suspect that estimation did not converge.")
  result <- object$estimation$estimate
  names(result) <- object$coefficientNames %||% as.character(object$estimation$column_label)
  if (!is.null(object$scale) && rescale) result <- result * object$scale
  result
}

#' @rdname coef.cyclopsFit
#' @method logLik cyclopsFit
#' @export
logLik.cyclopsFit <- function(object, ...) {
  structure(object$log_likelihood, df = sum(!is.na(object$estimation$estimate)),
            nobs = getNumberOfRows(object$cyclopsData), class = "logLik")
}

#' @rdname coef.cyclopsFit
#' @export
getHyperParameter <- function(object) if (inherits(object, "cyclopsFit")) object$variance

#' @export
print.cyclopsFit <- function(x, show.call = TRUE, ...) {
  cat("Cyclops model fit object (engine: Argus)\n\n")
  if (show.call && !is.null(x$call))
    cat("Call: ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("           Model: ", x$cyclopsData$modelType, "\n", sep = "")
  cat("           Prior: ", x$prior_info, "\n", sep = "")
  cat("  Hyperparameter: ", paste(x$variance, collapse = " "), "\n", sep = "")
  cat("     Return flag: ", x$return_flag, "\n", sep = "")
  if (x$return_flag == "SUCCESS") {
    cat("Log likelikehood: ", x$log_likelihood, "\n", sep = "")
    cat("       Log prior: ", x$log_prior, "\n", sep = "")
  }
  invisible(x)
}

#' Variance matrix, standard errors and Wald intervals of a Cyclops fit
#'
#' `vcov()`: the inverse of minus the Hessian of the fit's objective (Argus's model-based
#' variance: with a flat prior that of `glm`, `coxph`, `clogit`), named by coefficient.
#' `getSEs()`: the standard errors of `covariates` from the information of those covariates
#' alone (a warning when they are not all of the model's), as the incumbent computes them.
#' `aconfint()`: Wald intervals from `vcov()`.
#'
#' @param object A `cyclopsFit`.
#' @param control,overrideNoRegularization The incumbent's (not used).
#' @param covariates Covariate ids or names.
#' @param parm Coefficient names (default: all).
#' @param level Confidence level.
#' @param ... Not used.
#' @return A matrix, or a named vector of standard errors.
#' @examples
#' fit <- fitCyclopsModel(createCyclopsData(am ~ wt, data = mtcars, modelType = "lr"))
#' vcov(fit)
#' Cyclops:::getSEs(fit, c(1, 2))
#' aconfint(fit)
#' @name vcov.cyclopsFit
NULL

#' @rdname vcov.cyclopsFit
#' @method vcov cyclopsFit
#' @export
vcov.cyclopsFit <- function(object, control, overrideNoRegularization = FALSE, ...) {
  fit <- argusFitOf(object)
  V <- stats::vcov(fit, type = "model")
  labels <- names(fit$coefficients)
  names <- object$coefficientNames[match(rownames(V), labels)]
  dimnames(V) <- list(names, names)
  if (object$cyclopsData$modelType == "ls") V <- V / residualVariance(fit)
  V
}

# vcov() of Argus's least squares includes the residual variance (vcov(lm)); the
# incumbent's is the inverse information of its objective -RSS, half of Argus's unit one.
residualVariance <- function(fit) {
  e <- stats::residuals(fit, type = "response")
  2 * sum(e^2) / (length(e) - sum(!fit$fixed))
}

#' @rdname vcov.cyclopsFit
getSEs <- function(object, covariates) {
  data <- object$cyclopsData
  at <- covariatePositions(data, covariates)
  if (getNumberOfCovariates(data) != length(at))
    warning("Asymptotic standard errors are only valid if computed for all covariates simultaneously")
  information <- solve(vcov(object))
  ses <- sqrt(diag(solve(information[at, at, drop = FALSE])))
  stats::setNames(ses, object$coefficientNames[at])
}

#' @rdname vcov.cyclopsFit
#' @export
aconfint <- function(object, parm, level = 0.95, control, overrideNoRegularization = FALSE, ...) {
  cf <- coef(object)
  if (missing(parm)) parm <- names(cf)
  if (level < 0.01 || level > 0.99) stop("level must be between 0 and 1")
  a <- (1 - level) / 2
  a <- c(a, 1 - a)
  ci <- array(NA_real_, dim = c(length(parm), 2L),
              dimnames = list(parm, paste(sprintf("%.1f", a * 100), "%")))
  ses <- sqrt(diag(vcov(object)))[parm]
  ci[] <- cf[parm] + ses %o% stats::qnorm(a)
  ci
}

#' Gradient of the log-likelihood of a Cyclops fit
#'
#' The derivative of the log-likelihood with respect to each coefficient at the fit's
#' current coefficients (those of the fit, or set since), from `Argus::logLikelihoodAt()`.
#'
#' @param object A `cyclopsFit`.
#' @return A named vector.
#' @examples
#' fit <- fitCyclopsModel(createCyclopsData(am ~ wt, data = mtcars, modelType = "lr"))
#' gradient(fit)
#' @export
gradient <- function(object) {
  at <- likelihoodAt(object$interface)
  stats::setNames(at$gradient, object$coefficientNames)
}

# The likelihood at the interface's current coefficients (weights: the fit's, or given).
likelihoodAt <- function(interface, weights = NULL) {
  if (!inherits(interface, "cyclopsInterface")) stop("Improperly constructed interface object")
  Argus::logLikelihoodAt(interface$argusFit, interface$beta, weights)
}
