#' Create a prior
#'
#' The prior on the coefficients: flat (`"none"`), Laplace (L1, lasso-like) or normal (L2,
#' ridge-like). A Laplace prior with variance `v` has rate `lambda = sqrt(2 / v)` applied to
#' the summed log-likelihood; glmnet's `lambda` for the same fit is `sqrt(2 / v) / n`, and
#' `sqrt(2 / v) / sum(w)` with weights `w` (glmnet scales its weights to sum to `n`).
#'
#' @param priorType `"none"`, `"laplace"` or `"normal"`; or a vector with one type per
#'   covariate (in the order of `coef()`), for per-covariate priors.
#' @param variance Prior variance; a single value or one per covariate.
#' @param exclude Covariates that get a flat prior: covariate identifiers (long format:
#'   numbers, `bit64::integer64` or labels, a number matching the label of its digits) or
#'   column names (matrix and formula routes), `"(Intercept)"` included.
#' @param useCrossValidation Choose the variance by cross-validation in [fitModel()] (settings
#'   in [createControl()]); `variance` is then ignored, and the chosen variance applies to
#'   every penalized covariate.
#' @param forceIntercept Penalize the intercept too (by default it is not, and a
#'   per-covariate `priorType` must then give it `"none"`: another type is an error, not
#'   ignored). An intercept named in `exclude` stays flat even so (the incumbent's
#'   `exclude = 0, forceIntercept = TRUE`).
#' @return An object of class `argusPrior`.
#' @examples
#' createPrior("laplace", variance = 0.1)
#' createPrior("normal", variance = 1, exclude = c(1001, 1002))
#' @export
createPrior <- function(priorType = c("none", "laplace", "normal"), variance = 1, exclude = NULL,
                        useCrossValidation = FALSE, forceIntercept = FALSE) {
  allowed <- c("none", "laplace", "normal")
  if (missing(priorType)) priorType <- "none"
  if (!is.character(priorType) || length(priorType) == 0 || anyNA(priorType) ||
      !all(priorType %in% allowed))
    stopf("'priorType' must be one of %s (per covariate, or once for all)",
          paste(allowed, collapse = ", "))
  if (!is.numeric(variance) || length(variance) == 0 || any(!is.finite(variance)) ||
      any(variance <= 0))
    stopf("'variance' must be positive and finite")
  if (!is.null(exclude) && (anyNA(exclude) || !(is.numeric(exclude) || is.character(exclude) ||
                                                  is.factor(exclude) || isInteger64(exclude))))
    stopf("'exclude' must hold covariate identifiers or names without missing values")
  checkFlag(useCrossValidation, "useCrossValidation")
  checkFlag(forceIntercept, "forceIntercept")
  structure(list(priorType = priorType, variance = variance, exclude = exclude,
                 useCrossValidation = useCrossValidation, forceIntercept = forceIntercept),
            class = "argusPrior")
}

#' @method print argusPrior
#' @export
print.argusPrior <- function(x, ...) {
  rejectDots("print()", ..., .allow = "digits")
  types <- unique(x$priorType)
  cat(sprintf("Argus prior: %s", paste(types, collapse = "/")))
  if (any(x$priorType != "none"))
    cat(sprintf(", variance %s", if (length(x$variance) == 1) format(x$variance)
                                 else sprintf("per covariate (%d values)", length(x$variance))))
  if (length(x$exclude)) cat(sprintf(", %d covariate(s) excluded", length(x$exclude)))
  if (x$useCrossValidation) cat(", variance by cross-validation")
  cat("\n")
  invisible(x)
}

# Per-column prior kinds (0 none, 1 laplace, 2 normal; the engine's PriorKind) and variances.
resolvePrior <- function(prior, data) {
  if (!inherits(prior, "argusPrior")) stopf("'prior' must come from createPrior()")
  p <- length(data$columnNames)
  perColumn <- function(v, name) {
    if (length(v) == 1) return(rep(v, p))
    if (length(v) != p)
      stopf("'%s' has %d values but the data have %d covariates (one per covariate, in coef() order)",
            name, length(v), p)
    if (!is.null(names(v))) {
      at <- match(data$columnNames, names(v))
      if (anyNA(at)) stopf("'%s' has no value named '%s'", name, data$columnNames[is.na(at)][1])
      v <- v[at]
    }
    unname(v)
  }
  type <- perColumn(prior$priorType, "priorType")
  variance <- perColumn(prior$variance, "variance")
  kind <- match(type, c("none", "laplace", "normal")) - 1L
  excluded <- columnsOf(interceptAsZero(prior$exclude, data, "exclude"), data, "exclude")
  # A per-covariate prior named for the intercept is used or refused, never dropped (a
  # "normal" for it was replaced by a flat prior). exclude = 0 beside forceIntercept = TRUE
  # is the incumbent's idiom, exclude winning, and stays so.
  if (data$hasIntercept) {
    if (!prior$forceIntercept && length(prior$priorType) > 1 && type[1] != "none" && !(1L %in% excluded))
      stopf(paste("'priorType' gives the intercept a %s prior, but the intercept is not penalized",
                  "unless forceIntercept = TRUE: give it \"none\", or set forceIntercept"), type[1])
    if (!prior$forceIntercept) excluded <- union(excluded, 1L)
  }
  kind[excluded] <- 0L
  list(kind = as.integer(kind), variance = as.double(variance), excluded = sort(excluded))
}

# Positions (1-based) of covariates named by identifier or name; errors on unknown ones.
columnsOf <- function(ids, data, what) {
  if (is.null(ids) || length(ids) == 0) return(integer(0))
  labels <- userIdLabels(ids, what)
  at <- match(labels, data$columnNames)
  if (anyNA(at))
    stopf("'%s' names covariate(s) not in the data: %s", what,
          paste(utils::head(labels[is.na(at)], 5), collapse = ", "))
  at
}
