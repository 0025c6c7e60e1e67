# Looking at and reshaping Cyclops data: summary(), print(), column sums (reduce()),
# normalization, and finalizeSqlCyclopsData()'s changes (intercept, offset covariate, dense
# storage). Reshaping works on the rows held in memory and rebuilds the Argus data.

#' Summary of Cyclops data
#'
#' One row per coefficient: `covariateId`, the number of nonzero values `nzCount`, their mean
#' `nzMean` and variance `nzVar`, the storage `type`, and `scale` after normalization.
#'
#' @param object A `cyclopsData` object.
#' @param ... Not used.
#' @return A data frame named by coefficient.
#' @method summary cyclopsData
#' @export
summary.cyclopsData <- function(object, ...) {
  data <- checkCyclopsData(object)
  types <- covariateTypes(data)
  covariates <- collectCovariates(data)
  byId <- split(covariates$covariateValue, idText(covariates$covariateId))
  stats <- t(vapply(seq_along(types), function(j) {
    x <- if (data$hasIntercept && j == 1) rep(1, nrow(data$outcomes)) else byId[[idText(data$ids[j])]]
    x <- x[x != 0]
    c(length(x), if (length(x)) mean(x) else 0, if (length(x)) mean(x^2) - mean(x)^2 else 0)
  }, numeric(3)))
  out <- data.frame(covariateId = as.numeric(idText(data$ids)), nzCount = stats[, 1],
                    nzMean = stats[, 2], nzVar = stats[, 3], type = types,
                    row.names = data$info$name)
  if (!is.null(data$scale)) out$scale <- data$scale
  out
}

#' @export
print.cyclopsData <- function(x, show.call = TRUE, ...) {
  cat("Cyclops data object (engine: Argus)\n\n")
  if (show.call && !is.null(x$call))
    cat("Call: ", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n\n", sep = "")
  cat("     Model: ", x$modelType, "\n", sep = "")
  cat("      Rows: ", getNumberOfRows(x), "\n", sep = "")
  cat("Covariates: ", getNumberOfCovariates(x), "\n", sep = "")
  if (!is.null(x$outcomes$stratumId)) cat("    Strata: ", getNumberOfStrata(x), "\n", sep = "")
  invisible(x)
}

# A column's value in every row (outcomes order). Database covariates are read.
columnValues <- function(data, j) {
  n <- nrow(data$outcomes)
  if (data$hasIntercept && j == 1) return(rep(1, n))
  covariates <- collectCovariates(data)
  mine <- covariates[idText(covariates$covariateId) == idText(data$ids[j]), , drop = FALSE]
  x <- numeric(n)
  x[match(idText(mine$rowId), idText(data$outcomes$rowId))] <- mine$covariateValue
  x
}

# Sums of covariates' values to a power (0: counts of nonzero values), overall, by stratum
# or by the value (0 or not) of another covariate.
reduce <- function(object, covariates, groupBy, power = 1) {
  data <- checkCyclopsData(object)
  at <- covariatePositions(data, covariates)
  if (length(at) == 0) stop("Unable to match all covariates: ", paste(covariates, collapse = ", "))
  if (!power %in% c(0, 1, 2)) stop("Only powers 0, 1 and 2 are allowed.")
  columns <- lapply(at, function(j) {
    x <- columnValues(data, j)
    ifelse(x != 0, x^power, 0)
  })
  if (missing(groupBy)) return(vapply(columns, sum, 0))
  if (length(groupBy) != 1L) stop("Only single stratification is currently implemented")
  group <- if (identical(groupBy, "stratum")) {
    data$outcomes$stratumId %||% seq_len(nrow(data$outcomes))
  } else {
    as.numeric(columnValues(data, covariatePositions(data, groupBy)) != 0)
  }
  sums <- vapply(columns, function(x) tapply(x, group, sum), numeric(length(unique(group))))
  as.data.frame(matrix(sums, ncol = length(at)))
}

# The incumbent's .normalizeCovariates(): each covariate other than the intercept and 0/1
# indicators is divided by its standard deviation over the rows, its largest absolute value
# or its median; the scales multiply across calls and `coef(rescale = TRUE)` undoes them.
normalizeCovariates <- function(data, type) {
  checkCyclopsData(data)
  if (!type %in% c("stdev", "max", "median")) stopf("unknown normalization '%s'", type)
  if (isDatabaseTable(data$covariates))
    stopf("normalizing covariates read from a database table is not available: normalize them in the database")
  types <- covariateTypes(data)
  scale <- rep(1, length(types))
  for (j in which(!types %in% c("indicator", "intercept") & data$info$name != "(Intercept)")) {
    x <- columnValues(data, j)
    statistic <- switch(type, stdev = stats::sd(x), max = max(abs(x)), median = stats::median(x))
    if (is.finite(statistic) && statistic > 0) scale[j] <- 1 / statistic
  }
  covariates <- data$covariates
  position <- match(idText(covariates$covariateId), idText(data$ids))
  covariates$covariateValue <- covariates$covariateValue * scale[position]
  data$covariates <- covariates
  data$scale <- if (is.null(data$scale)) scale else data$scale * scale
  rowsChanged(data)
  invisible(scale)
}

.normalizeCovariates <- normalizeCovariates

#' Finish Cyclops data
#'
#' Adds an intercept (`addIntercept`; an error if there is one already or the model takes
#' none), moves a covariate into the offset (`useOffsetCovariate`, its log unless
#' `offsetAlreadyOnLogScale`; `-1` makes the rows' time their exposure, as data from
#' [convertToCyclopsData()] and [createCyclopsData()] have it already), and marks
#' covariates as dense (`makeCovariatesDense`). The Argus data are rebuilt.
#'
#' @param object A `cyclopsData` object.
#' @param addIntercept Add an intercept.
#' @param useOffsetCovariate A covariate id or name to use as the offset, or `-1`.
#' @param offsetAlreadyOnLogScale Whether that covariate is on the log scale already.
#' @param sortCovariates Not needed (accepted).
#' @param makeCovariatesDense Covariate ids or names to store dense.
#' @return Nothing useful (the data are changed in place).
#' @export
finalizeSqlCyclopsData <- function(object, addIntercept = FALSE, useOffsetCovariate = NULL,
                                   offsetAlreadyOnLogScale = FALSE, sortCovariates = FALSE,
                                   makeCovariatesDense = NULL) {
  data <- checkCyclopsData(object)
  if (addIntercept) {
    if (data$hasIntercept) stop("Data already have an intercept")
    if (!takesIntercept(data$modelType)) stopf("modelType '%s' takes no intercept", data$modelType)
    data$hasIntercept <- TRUE
    data$ids <- c(if (bit64::is.integer64(data$ids)) bit64::as.integer64(0) else 0, data$ids)
    data$info <- rbind(data.frame(name = "(Intercept)", type = "intercept"), data$info)
    if (!is.null(data$scale)) data$scale <- c(1, data$scale)
  }
  if (is.numeric(useOffsetCovariate) && identical(as.numeric(useOffsetCovariate), -1))
    data$timeIsExposure <- TRUE
  else if (!is.null(useOffsetCovariate))
    moveToOffset(data, covariatePositions(data, useOffsetCovariate), offsetAlreadyOnLogScale)
  if (!is.null(makeCovariatesDense)) {
    covariateTypes(data)
    data$info$type[covariatePositions(data, makeCovariatesDense)] <- "dense"
  }
  rowsChanged(data)
  invisible(data)
}

moveToOffset <- function(data, j, onLogScale) {
  x <- columnValues(data, j)
  data$outcomes$offset <- (data$outcomes$offset %||% 0) + if (onLogScale) x else log(x)
  covariates <- collectCovariates(data)
  data$covariates <- covariates[idText(covariates$covariateId) != idText(data$ids[j]), , drop = FALSE]
  data$ids <- data$ids[-j]
  data$info <- data$info[-j, , drop = FALSE]
  if (!is.null(data$scale)) data$scale <- data$scale[-j]
}

.cyclopsGetMeanOffset <- function(x) {
  if (!inherits(x, "cyclopsData")) stop("Input must be a cyclopsData object")
  mean(x$outcomes$offset %||% 0)
}
