# Questions about an argusData object that the incumbent's users ask of their data: counts,
# covariate identifiers, univariable correlation and separability. Each takes an argusData
# object or a fit (whose data it reads).

dataOf <- function(object, what) {
  if (inherits(object, "argusFit")) object <- object$data
  if (!inherits(object, "argusData"))
    stopf("%s needs an argusData object from createData() or a fit that holds its data", what)
  object
}

#' Counts and identifiers of an argusData object
#'
#' `getNumberOfRows()`: the rows given to [createData()], those of strata dropped for having
#' no events included (the incumbent counts every row it was given; `object$nRows` is the
#' number of rows the fit uses). `getNumberOfStrata()`: the strata given, dropped ones
#' included (0 without strata). `getNumberOfCovariates()`: the coefficients, the intercept
#' included. `getCovariateIds()`: the covariate identifiers in `coef()` order as
#' `bit64::integer64`, the intercept as 0 (the incumbent's id for it); data whose covariates
#' have names rather than numeric identifiers (labels, or the matrix and formula routes)
#' have none, and asking is an error.
#'
#' @param object An `argusData` object, or an `argusFit` (its data are used).
#' @return A number, or for `getCovariateIds()` a `bit64::integer64` vector.
#' @examples
#' outcomes <- data.frame(rowId = 1:6, y = c(1, 0, 1, 0, 0, 1))
#' covariates <- data.frame(rowId = c(1, 2, 3, 5), covariateId = c(10, 10, 11, 11))
#' d <- createData(outcomes, covariates, modelType = "lr")
#' getNumberOfRows(d)
#' getNumberOfCovariates(d)
#' getCovariateIds(d)
#' @name dataCounts
NULL

#' @rdname dataCounts
#' @export
getNumberOfRows <- function(object) length(dataOf(object, "getNumberOfRows()")$rowIds)

#' @rdname dataCounts
#' @export
getNumberOfStrata <- function(object) {
  data <- dataOf(object, "getNumberOfStrata()")
  data$nStrata + (data$dropped$strata %||% 0L)
}

#' @rdname dataCounts
#' @export
getNumberOfCovariates <- function(object) length(dataOf(object, "getNumberOfCovariates()")$columnNames)

#' @rdname dataCounts
#' @export
getCovariateIds <- function(object) {
  data <- dataOf(object, "getCovariateIds()")
  ids <- data$covariateIds
  if (is.null(ids) || is.character(ids))
    stopf(paste("these data name their covariates (%s) rather than giving numeric ids: use",
                "names(coef(fit)) or data$columnNames"),
          if (is.null(ids)) "matrix or formula route" else "labels")
  if (!requireNamespace("bit64", quietly = TRUE)) stopf("getCovariateIds() needs the package bit64")
  ids <- bit64::as.integer64(ids)
  if (data$hasIntercept) c(bit64::as.integer64(0), ids) else ids
}

# One column of the design over the rows the fit uses: its values at every row.
designColumn <- function(data, j) {
  d <- data$design
  x <- numeric(data$nRows)
  rows <- if (d$kinds[j] <= 1 && d$rowStart[j + 1] > d$rowStart[j])
    d$rows[seq.int(d$rowStart[j] + 1, d$rowStart[j + 1])] + 1L
  values <- if (d$valueStart[j + 1] > d$valueStart[j])
    d$values[seq.int(d$valueStart[j] + 1, d$valueStart[j + 1])]
  switch(d$kinds[j] + 1,
         x[rows] <- 1,        # indicator
         x[rows] <- values,   # sparse
         x <- values,         # dense
         x[] <- 1)            # intercept
  x
}

queriedColumns <- function(data, covariates) {
  if (is.null(covariates)) return(seq_along(data$columnNames))
  columnsOf(interceptAsZero(covariates, data, "covariates"), data, "covariates")
}

#' Univariable correlation and separability
#'
#' `getUnivariableCorrelation()`: the Pearson correlation of each covariate with the outcome
#' `y` over the rows, unweighted, as the incumbent computes it (`NaN` for a constant
#' covariate, such as the intercept). Survival models are refused, as by the incumbent.
#' `getUnivariableSeparability()`: whether a 0/1 (indicator) covariate, or the intercept,
#' separates the outcome on its own: the outcomes of the rows where it is 1 sum to 0 or to
#' the number of those rows (for the intercept: over all rows). For other covariates the
#' incumbent answers `FALSE` with a warning; Argus answers `NA` with a warning (not known).
#' Both read the rows that the fit uses: for conditional models, rows of strata dropped for
#' having no events are not among them (the incumbent keeps them).
#'
#' @param object An `argusData` object, or an `argusFit` (its data are used).
#' @param covariates Covariate identifiers or names (0 for the intercept, as in the
#'   incumbent); `NULL` for all.
#' @param threshold Only correlations at least this large in absolute value are returned.
#' @return A named numeric (correlation) or logical (separability) vector.
#' @examples
#' outcomes <- data.frame(rowId = 1:6, y = c(1, 0, 1, 0, 0, 1))
#' covariates <- data.frame(rowId = c(1, 3, 6, 2, 3), covariateId = c(10, 10, 10, 11, 11))
#' d <- createData(outcomes, covariates, modelType = "lr")
#' getUnivariableCorrelation(d)
#' getUnivariableSeparability(d)
#' @name univariable
NULL

#' @rdname univariable
#' @export
getUnivariableCorrelation <- function(object, covariates = NULL, threshold = 0) {
  data <- dataOf(object, "getUnivariableCorrelation()")
  if (isSurvivalModel(data$modelType))
    stopf("univariable correlation is not defined for survival models ('%s')", data$modelType)
  checkScalar(threshold, "threshold", lower = 0)
  columns <- queriedColumns(data, covariates)
  y <- data$y
  n <- length(y)
  ey <- sum(y) / n
  vy <- sum(y^2) / n - ey^2
  result <- vapply(columns, function(j) {
    x <- designColumn(data, j)
    ex <- sum(x) / n
    vx <- sum(x^2) / n - ex^2
    if (vx > 0 && vy > 0) (sum(x * y) / n - ex * ey) / sqrt(vx) / sqrt(vy) else NaN
  }, 0)
  names(result) <- data$columnNames[columns]
  if (threshold > 0) result <- result[!is.na(result) & abs(result) >= threshold]
  result
}

#' @rdname univariable
#' @export
getUnivariableSeparability <- function(object, covariates = NULL) {
  data <- dataOf(object, "getUnivariableSeparability()")
  columns <- queriedColumns(data, covariates)
  # Argus stores a 0/1 column as indicator, sparse or dense by its density: decide by values.
  result <- vapply(columns, function(j) {
    x <- designColumn(data, j)
    if (!all(x == 0 | x == 1)) return(NA)
    xy <- sum(x * data$y)
    xy == 0 || xy == sum(x)
  }, NA)
  names(result) <- data$columnNames[columns]
  if (anyNA(result))
    warning(sprintf(paste("separability is only decided for 0/1 covariates and the intercept:",
                          "NA for %s"), paste(utils::head(names(result)[is.na(result)], 5),
                                              collapse = ", ")), call. = FALSE)
  result
}
