# logLikelihoodAt(): the log-likelihood and its gradient at coefficients of the caller's
# choosing, with the fit's data and weights or others (held-out rows' predictive
# log-likelihood, a finite-difference check, a front end that keeps its own coefficients).
# The engine evaluates; this file only picks the coefficients and weights.

#' Log-likelihood and gradient at given coefficients
#'
#' Evaluates the fit's log-likelihood (without the prior) and its gradient with respect to
#' every coefficient at `coefficients`, with the fit's row weights or with `weights`. Nothing
#' is refitted: this is the likelihood surface itself, so at the coefficients of a fit
#' without a prior the gradient is 0 up to the convergence tolerance. With `weights` that are
#' 1 on held-out rows and 0 elsewhere, the value is the held-out (predictive) log-likelihood
#' that cross-validation scores; for the survival and conditional models rows of weight 0
#' leave their risk sets and strata, as in `coxph(weights = )`.
#'
#' @param fit An `argusFit` from [fitModel()] that holds its data.
#' @param coefficients Values of the coefficients, one per coefficient in `coef()` order (or
#'   named by coefficient); `NULL` for the fit's own.
#' @param weights Non-negative row weights in the user's row order, as [fitModel()] takes
#'   them; `NULL` for the fit's own.
#' @return A list: `logLikelihood` (a number, on the scale of `fit$logLikelihood`) and
#'   `gradient` (named by coefficient).
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' logLikelihoodAt(fit)$gradient                   # 0 at the estimate
#' logLikelihoodAt(fit, c(0, 1, 0))$logLikelihood  # elsewhere
#' @export
logLikelihoodAt <- function(fit, coefficients = NULL, weights = NULL) {
  checkFitForInference(fit, "logLikelihoodAt()")
  labels <- names(fit$coefficients)
  beta <- if (is.null(coefficients)) unname(fit$coefficients)
          else coefficientVector(coefficients, fit$data, "coefficients")
  if (anyNA(beta) || any(!is.finite(beta))) stopf("'coefficients' must be finite numbers")
  settings <- engineSettings(fit)
  if (!is.null(weights)) {
    settings$weights <- internalWeights(weights, fit$data)
    checkExactWeights(fit$data, settings$weights, "weights")
  }
  out <- .Call(argus_hessian, fit$data, settings, as.double(beta),
               seq_along(labels) - 1L, FALSE, FALSE)
  list(logLikelihood = out$logLikelihood, gradient = stats::setNames(out$gradient, labels))
}
