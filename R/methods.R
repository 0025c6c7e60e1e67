#' @export
coef.argusFit <- function(object, ...) {
  rejectDots("coef()", ...)
  beta <- object$coefficients
  beta[aliasedFlags(object)] <- NA
  beta
}

#' @export
logLik.argusFit <- function(object, ...) {
  rejectDots("logLik()", ...)
  free <- sum(object$coefficients != 0 & !object$fixed)
  structure(object$logLikelihood, df = free, nobs = object$nRows, class = "logLik")
}

#' @method print argusFit
#' @export
print.argusFit <- function(x, digits = NULL, ...) {
  rejectDots("print()", ...)
  cat(sprintf("Argus fit: modelType '%s', %s\n", x$modelType, describePrior(x)))
  cat(sprintf("Status %s after %d cycles (%.3f s); log-likelihood %.6g\n", x$status,
              x$iterations, x$seconds, x$logLikelihood))
  if (any(x$aliased))
    cat(sprintf("Not identifiable (NA): %s\n", paste(names(x$coefficients)[x$aliased], collapse = ", ")))
  if (length(x$infinite))
    cat(sprintf("No finite estimate: %s\n", paste(x$infinite, collapse = ", ")))
  if (!is.null(x$cv))
    cat(sprintf("Variance %.6g chosen by %d-fold cross-validation%s (%s, %d candidates)\n",
                x$cv$variance, x$cv$folds,
                if (x$cv$repetitions > 1) sprintf(" x %d", x$cv$repetitions) else "",
                x$cv$cvType, nrow(x$cv$curve)))
  if (x$dropped$strata > 0)
    cat(sprintf("%d strata without events were dropped (%s rows)\n", x$dropped$strata,
                format(x$dropped$rows, big.mark = ",")))
  beta <- x$coefficients
  nonzero <- beta[beta != 0]
  cat(sprintf("%d of %d coefficients nonzero\n", length(nonzero), length(beta)))
  if (length(nonzero)) print(utils::head(nonzero[order(-abs(nonzero))], 10), digits = digits)
  invisible(x)
}

#' @method summary argusFit
#' @export
summary.argusFit <- function(object, ...) {
  rejectDots("summary()", ...)
  structure(list(
    modelType = object$modelType, status = object$status, iterations = object$iterations,
    logLikelihood = object$logLikelihood, logPrior = object$logPrior,
    optimality = object$optimality, optimalityCovariate = object$optimalityCovariate,
    optimalityTolerance = object$control$optimalityTolerance,
    prior = describePrior(object), variance = object$variance, seconds = object$seconds,
    nRows = object$nRows, nStrata = object$nStrata, dropped = object$dropped,
    coefficients = data.frame(covariate = names(object$coefficients),
                              estimate = unname(coef(object)),
                              prior = object$priorType, variance = columnVariances(object),
                              fixed = object$fixed & !aliasedFlags(object),
                              aliased = aliasedFlags(object), stringsAsFactors = FALSE)
  ), class = "summary.argusFit")
}

#' @method print summary.argusFit
#' @export
print.summary.argusFit <- function(x, digits = NULL, ...) {
  rejectDots("print()", ...)
  cat(sprintf("Argus fit summary: modelType '%s'\n", x$modelType))
  cat(sprintf("  status:          %s\n  iterations:      %d\n", x$status, x$iterations))
  cat(sprintf("  log-likelihood:  %.8g\n  log prior:       %.8g\n", x$logLikelihood, x$logPrior))
  if (!is.null(x$optimality))
    cat(sprintf("  optimality:      largest violation %.3g standard errors (%s; tolerance %g)\n",
                x$optimality, x$optimalityCovariate, x$optimalityTolerance))
  cat(sprintf("  prior:           %s\n  elapsed:         %.3f s\n", x$prior, x$seconds))
  cat(sprintf("  rows:            %s", format(x$nRows, big.mark = ",")))
  if (x$nStrata > 0) cat(sprintf(" in %s strata", format(x$nStrata, big.mark = ",")))
  cat("\n")
  if (x$dropped$strata > 0)
    cat(sprintf("  dropped:         %d strata without events\n", x$dropped$strata))
  print(x$coefficients, digits = digits, row.names = FALSE)
  invisible(x)
}

describePrior <- function(fit) {
  penalized <- fit$priorType != "none"
  if (!any(penalized)) return("flat prior")
  types <- unique(fit$priorType[penalized])
  vars <- unique(columnVariances(fit)[penalized])
  sprintf("%s prior, variance %s%s", paste(types, collapse = "/"),
          if (length(vars) == 1) format(vars) else "per covariate",
          if (any(!penalized)) sprintf(" (%d unpenalized)", sum(!penalized)) else "")
}

# Which coefficients could not be estimated (fits made before the flag existed: none).
aliasedFlags <- function(fit) {
  if (is.null(fit$aliased)) rep(FALSE, length(fit$coefficients)) else unname(fit$aliased)
}
