#' @export
coef.argusFit <- function(object, ...) {
  rejectDots("coef()", ...)
  checkFitObject(object, deep = FALSE)
  beta <- object$coefficients
  beta[aliasedFlags(object)] <- NA
  beta
}

#' @export
logLik.argusFit <- function(object, ...) {
  rejectDots("logLik()", ...)
  checkFitObject(object, deep = FALSE)
  free <- sum(object$coefficients != 0 & !object$fixed)
  # A penalized fit has no honest count of parameters (glance() says NA): df NA, so that AIC()
  # and BIC() are NA too, not the nonzero coefficients' count (a ridge fit counted them all)
  if (any(object$priorType[!object$fixed] != "none")) free <- NA_real_
  # nobs as nobs() gives it (events for survival models, as coxph), which BIC() uses
  n <- if (is.null(object$data)) object$nRows else nobs.argusFit(object)
  if (object$modelType == "ls") return(gaussianLogLik(object, free))
  structure(object$logLikelihood, df = free, nobs = n, class = "logLik")
}

# The log-likelihood print() and summary() show: logLik()'s, which for least squares is
# lm's, not the engine's objective -RSS / 2 kept in fit$logLikelihood.
reportedLogLik <- function(fit) {
  if (fit$modelType == "ls" && !is.null(fit$settings)) as.numeric(logLik.argusFit(fit))
  else fit$logLikelihood
}

# Least squares: the engine's objective is -RSS / 2 (unit variance); logLik() gives the normal
# log-likelihood at the maximum-likelihood variance RSS / n, with that variance counted in df,
# as logLik.lm (weights w > 0: sum(log(w)) / 2 added), so AIC() and BIC() are lm's.
gaussianLogLik <- function(object, free) {
  w <- object$settings$weights %||% rep(1, object$nRows)
  w <- w[w > 0]
  n <- length(w)
  rss <- -2 * object$logLikelihood
  value <- 0.5 * (sum(log(w)) - n * (log(2 * pi) + 1 - log(n) + log(rss)))
  structure(value, df = free + 1, nobs = n, class = "logLik")
}

#' @method print argusFit
#' @export
print.argusFit <- function(x, digits = NULL, ...) {
  rejectDots("print()", ...)
  checkFitObject(x, deep = FALSE)
  cat(sprintf("Argus fit: modelType '%s'%s, %s\n", x$modelType,
              if (x$modelType %in% c("cox", "clr") && !is.null(x$data$ties))
                sprintf(" (%s ties)", x$data$ties) else "", describePrior(x)))
  cat(sprintf("Status %s after %d cycles (%.3f s%s); log-likelihood %.6g\n", x$status,
              x$iterations, x$seconds, if (is.null(x$device)) "" else paste(" on", x$device),
              reportedLogLik(x)))
  if (length(x$na.action)) cat(sprintf("(%s)\n", stats::naprint(x$na.action)))
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
  # Every nonzero coefficient in the model's order, as print.glm: up to 100 of a flat-prior
  # fit's (a 24-term glm-like fit showed 10), 20 of a penalized one; more (thousands of
  # covariates), the 10 largest in size, and a pointer to the rest.
  shownAll <- if (all(x$priorType == "none")) 100 else 20
  if (length(nonzero) > 0 && length(nonzero) <= shownAll) {
    print(nonzero, digits = digits)
  } else if (length(nonzero)) {
    cat("Largest in absolute value (coef() has them all):\n")
    print(utils::head(nonzero[order(-abs(nonzero))], 10), digits = digits)
  }
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
