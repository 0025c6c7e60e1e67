#' Predictions from a fit
#'
#' The linear predictor (`type = "link"`) or the prediction on the outcome's scale
#' (`type = "response"`), for the rows the model was fitted to or for new data.
#'
#' The link is `x' beta + offset` (with the intercept where the model has one); the exposure
#' `time` of `"pr"` is not part of it. The response is, by model:
#' \describe{
#'   \item{`"ls"`}{the link itself;}
#'   \item{`"lr"`}{the probability `plogis(link)`;}
#'   \item{`"pr"`}{the expected count `time * exp(link)` when the rows have an exposure time
#'     (the fitted rows' `time`, an `argusData` or `outcomes` table with `time`, or the `time`
#'     argument), otherwise the rate per unit of time `exp(link)`;}
#'   \item{`"clr"`, `"cpr"`, `"sccs"`}{the relative risk `exp(link)` (no intercept: the
#'     stratum baselines are not estimated).}
#' }
#'
#' `newdata` may be:
#' \itemize{
#'   \item `NULL`: the fitted rows, in the user's row order, named by row identifier. Rows of
#'     strata that were dropped (conditional models, strata without events) are `NA`.
#'   \item an `argusData` object from [createData()]: its rows in its user's row order
#'     (`NA` for rows of strata it dropped); its offset and time are used; covariates are
#'     matched by identifier or name.
#'   \item a long covariates table (`rowId`, `covariateId`, optional `covariateValue`, as in
#'     [createData()]): predictions for the rows of `outcomes` (a table with `rowId` and
#'     optional `time` and `offset`) when given (entries of other rows are ignored), else for
#'     the sorted distinct `rowId`s; each (rowId, covariateId) pair at most once. Covariates
#'     the model does not have are ignored.
#'   \item a `matrix` or `Matrix::dgCMatrix` whose column names include every covariate of the
#'     model (in any order; other columns are ignored). Without column names, the columns must
#'     be the model's covariates in `coef()` order (the intercept excluded).
#'   \item a data frame, for fits made with a formula: the formula's terms (factor levels,
#'     contrasts and `offset()` terms included) are rebuilt from it.
#' }
#'
#' @param object An `argusFit`.
#' @param newdata New data, see Details; `NULL` for the fitted rows.
#' @param type `"link"` or `"response"`.
#' @param outcomes For a long covariates table: the rows to predict, with `rowId` and optional
#'   `time` and `offset`.
#' @param time,offset Exposure times and offsets of the rows of a matrix or data frame
#'   `newdata`.
#' @param ... Not used.
#' @return A numeric vector, named by row identifier (or by the row names of `newdata`).
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' head(predict(fit, type = "response"))
#' predict(fit, x[1:3, c("b", "a")])
#' @method predict argusFit
#' @export
predict.argusFit <- function(object, newdata = NULL, type = c("link", "response"),
                             outcomes = NULL, time = NULL, offset = NULL, ...) {
  type <- match.arg(type)
  checkFitForInference(object, "predict()")
  rows <- if (is.null(newdata)) {
    argusDataRows(object, object$data)
  } else if (inherits(newdata, "argusData")) {
    argusDataRows(object, newdata)
  } else if (is.matrix(newdata) || methods::is(newdata, "sparseMatrix")) {
    matrixRows(object, newdata, time, offset, rownames(newdata))
  } else if (is.data.frame(newdata) && !is.null(object$data$formulaTerms)) {
    formulaRows(object, newdata, time, offset)
  } else if (is.data.frame(newdata) && all(c("rowId", "covariateId") %in% names(newdata))) {
    longRows(object, newdata, outcomes)
  } else if (is.data.frame(newdata)) {
    stopf(paste("a data frame 'newdata' needs a fit made with a formula, or the long format",
                "(rowId, covariateId, covariateValue)"))
  } else {
    stopf(paste("'newdata' must be an argusData object, a long covariates table, a matrix or",
                "a data frame, not %s"), class(newdata)[1])
  }
  if (type == "link") return(rows$link)
  responseOf(object$modelType, rows$link, rows$time)
}

# The response scale of each model; one place to add cox and fgr.
responseOf <- function(modelType, link, time) {
  switch(modelType,
         ls = link,
         lr = stats::plogis(link),
         pr = if (is.null(time)) exp(link) else time * exp(link),
         clr = , cpr = , sccs = exp(link),
         stopf("predict(type = \"response\") is not available yet for modelType '%s'", modelType))
}

interceptOf <- function(fit) if (fit$hasIntercept) fit$coefficients[[1]] else 0

# Rows of an argusData object (the fitted data or new data) in its user's row order.
argusDataRows <- function(fit, data) {
  beta <- fit$coefficients
  mapped <- unname(beta[data$columnNames])
  mapped[is.na(mapped)] <- 0  # covariates the model does not have
  shift <- if (fit$hasIntercept && !data$hasIntercept) interceptOf(fit) else 0
  eta <- .Call(argus_linear_predictor, data, as.double(mapped)) + shift
  n <- length(data$rowIds)
  link <- rep(NA_real_, n)
  link[data$order] <- eta
  names(link) <- idLabel(data$rowIds)
  time <- NULL
  if (!is.null(data$time)) {
    time <- rep(NA_real_, n)
    time[data$order] <- data$time
  }
  list(link = link, time = time)
}

# Covariates of the model other than the intercept, in coef() order.
modelCovariates <- function(fit) {
  labels <- names(fit$coefficients)
  if (fit$hasIntercept) labels[-1] else labels
}

matrixRows <- function(fit, x, time, offset, rowNames) {
  covariates <- modelCovariates(fit)
  columnNames <- colnames(x)
  if (is.null(columnNames)) {
    if (ncol(x) != length(covariates))
      stopf("'newdata' has no column names and %d columns, but the model has %d covariates",
            ncol(x), length(covariates))
    columnNames <- covariates
  }
  at <- match(covariates, columnNames)
  if (anyNA(at))
    stopf("'newdata' lacks column(s) for covariate(s) %s",
          paste(utils::head(covariates[is.na(at)], 5), collapse = ", "))
  n <- nrow(x)
  beta <- fit$coefficients[covariates]
  link <- as.numeric(x[, at, drop = FALSE] %*% beta) + interceptOf(fit)
  if (anyNA(link)) stopf("'newdata' has missing values")
  offset <- checkNumericVector(offset, "offset", n)
  if (!is.null(offset)) link <- link + offset
  time <- checkNumericVector(time, "time", n)
  names(link) <- rowNames
  list(link = link, time = time)
}

formulaRows <- function(fit, frame, time, offset) {
  ft <- fit$data$formulaTerms
  mf <- stats::model.frame(ft$terms, frame, xlev = ft$xlevels, na.action = stats::na.pass)
  x <- stats::model.matrix(ft$terms, mf, contrasts.arg = ft$contrasts)
  x <- x[, colnames(x) != "(Intercept)", drop = FALSE]
  total <- stats::model.offset(mf)
  offset <- checkNumericVector(offset, "offset", nrow(x))
  if (!is.null(offset)) total <- (total %||% 0) + offset
  matrixRows(fit, x, time, total, rownames(frame))
}

longRows <- function(fit, covariates, outcomes) {
  covRowIds <- checkIds(covariates$rowId, "newdata$rowId")
  if (is.null(outcomes)) {
    rowIds <- sort(unique(covRowIds))
    time <- NULL
    offset <- NULL
  } else {
    if (!is.data.frame(outcomes)) stopf("'outcomes' must be a data frame")
    needColumns(outcomes, "rowId", "outcomes")
    rowIds <- checkIds(outcomes$rowId, "outcomes$rowId")
    time <- checkNumericVector(outcomes$time, "outcomes$time")
    offset <- checkNumericVector(outcomes$offset, "outcomes$offset")
  }
  if (isInteger64(covRowIds) != isInteger64(rowIds)) {
    if (!requireNamespace("bit64", quietly = TRUE)) stopf("mixing integer64 ids needs bit64")
    covRowIds <- bit64::as.integer64(covRowIds)
    rowIds <- bit64::as.integer64(rowIds)
  }
  # Covariate rows not among the rows asked for are ignored (position -1), so a full table
  # can serve a subset of rows.
  found <- .Call(argus_lookup_ids, covRowIds, rowIds, isInteger64(rowIds))
  ids <- idLabel(checkIds(covariates$covariateId, "newdata$covariateId"))
  value <- if (is.null(covariates$covariateValue)) rep(1, length(ids))
           else checkNumericVector(covariates$covariateValue, "newdata$covariateValue")
  beta <- unname(fit$coefficients[ids])  # NA for covariates the model does not have
  keep <- !is.na(beta) & beta != 0 & found$position >= 0
  n <- length(rowIds)
  link <- rep(interceptOf(fit), n)
  if (!is.null(offset)) link <- link + offset
  if (any(keep)) {
    sums <- rowsum(value[keep] * beta[keep], found$position[keep] + 1L)
    at <- as.integer(rownames(sums))
    link[at] <- link[at] + sums[, 1]
  }
  names(link) <- idLabel(rowIds)
  list(link = link, time = time)
}
