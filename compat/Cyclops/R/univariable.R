# Univariable screening of the covariates (Argus's functions, named the incumbent's way).

#' Univariable correlation and separability
#'
#' `getUnivariableCorrelation()`: the Pearson correlation of each covariate with the outcome
#' over the rows (`NA` for a constant covariate such as the intercept); with `threshold`, only
#' those at least that large in absolute value. Survival models are refused, as by the
#' incumbent. `getUnivariableSeparability()`: `TRUE` where a 0/1 covariate (or the intercept)
#' separates the outcome on its own (the outcomes of its rows are all 0 or all 1). Covariates
#' with other values are reported `FALSE` with a warning, as the incumbent reports them, never
#' `NA`, so that `if (any(getUnivariableSeparability(d)))` works. Results are named by
#' coefficient name (the covariate id for long tables).
#'
#' @param cyclopsData A `cyclopsData` object.
#' @param covariates Covariate ids or names (default: all).
#' @param threshold Smallest absolute correlation reported.
#' @return A named numeric or logical vector.
#' @examples
#' d <- createCyclopsData(am ~ wt + vs, data = mtcars, modelType = "lr")
#' getUnivariableCorrelation(d)
#' getUnivariableSeparability(d)
#' @name univariable
NULL

#' @rdname univariable
#' @export
getUnivariableCorrelation <- function(cyclopsData, covariates = NULL, threshold = 0.0) {
  data <- checkCyclopsData(cyclopsData)
  if (isSurvivalType(data$modelType))
    stop("Univariable correlation for time-to-events model is not yet implemented.")
  at <- if (is.null(covariates)) seq_len(getNumberOfCovariates(data)) else covariatePositions(data, covariates)
  values <- Argus::getUnivariableCorrelation(argusData(data), covariates = argusLabels(data, at))
  values <- stats::setNames(as.numeric(values), data$info$name[at])
  values[is.nan(values)] <- NA
  if (threshold > 0) values <- values[!is.na(values) & abs(values) >= threshold]
  values
}

#' @rdname univariable
#' @export
getUnivariableSeparability <- function(cyclopsData, covariates = NULL) {
  data <- checkCyclopsData(cyclopsData)
  at <- if (is.null(covariates)) seq_len(getNumberOfCovariates(data)) else covariatePositions(data, covariates)
  values <- suppressWarnings(Argus::getUnivariableSeparability(argusData(data),
                                                               covariates = argusLabels(data, at)))
  values <- stats::setNames(as.logical(values), data$info$name[at])
  if (anyNA(values)) {
    warning("separability is decided for 0/1 covariates only: the others are reported FALSE")
    values[is.na(values)] <- FALSE
  }
  values
}
