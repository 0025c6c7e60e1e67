#' Predictions from a fit
#'
#' The prediction on the outcome's scale (`type = "response"`, the default of `"ls"`, `"lr"`
#' and `"pr"`: probabilities for `"lr"`, expected counts for `"pr"`, as the incumbent's
#' `predict()` gives them), the linear predictor (`type = "link"`, the default of the
#' survival and conditional models, as `predict.coxph()` gives it and the incumbent for
#' `"cox"` and `"clr"`; its `"cpr"` and `"sccs"` default is a scale of its own), the relative
#' risk (`type = "risk"`), or, for survival models,
#' survival probabilities (`"survival"`, cox) and cumulative incidences
#' (`"cumulativeIncidence"`, fgr) at given `times`, for the rows the model was fitted to or
#' for new data.
#'
#' The link is `x' beta + offset` (with the intercept where the model has one); the exposure
#' `time` of `"pr"` is not part of it. Survival models are not centered: the link of cox is
#' `predict.coxph(type = "lp", reference = "zero")` (where the model has an `offset()`,
#' `coxph` still subtracts the offset's mean; Argus does not, and its baseline hazard is
#' `coxph`'s divided by `exp(mean offset)`, weighted as the fit, so survival probabilities agree). The response is, by
#' model:
#' \describe{
#'   \item{`"ls"`}{the link itself;}
#'   \item{`"lr"`}{the probability `plogis(link)`;}
#'   \item{`"pr"`}{the expected count `time * exp(link)` when the rows have an exposure time
#'     (the fitted rows' `time`, an `argusData` or `outcomes` table with `time`, the `time`
#'     argument, or for a formula fit made with `time = <columns of data>` the new rows' own
#'     columns), otherwise the rate per unit of time `exp(link)`;}
#'   \item{`"clr"`, `"cpr"`, `"sccs"`}{the relative risk `exp(link)` (no intercept: the
#'     stratum baselines are not estimated).}
#'   \item{`"cox"`, `"fgr"`}{the relative (subdistribution) hazard `exp(link)`, as
#'     `predict.coxph(type = "risk", reference = "zero")`.}
#' }
#' `type = "risk"` is `exp(link)` for the conditional and survival models.
#'
#' A row of a matrix or data frame `newdata` with a missing covariate, offset or exposure
#' time gets `NA` (as `predict.glm` with its default `na.pass`); in a long covariates table a
#' covariate a row lacks is 0 (the long format lists nonzero values only), and an `NA`
#' `covariateValue` is an error. An infinite covariate value, offset or exposure time is an
#' error on every route (naming the row and the covariate), as in [createData()]. A fit with
#' `NA` (aliased) coefficients warns
#' on new data, as `predict.lm`, since new rows need not share the collinearity.
#'
#' **Survival probabilities and cumulative incidences.** With `H0` the fit's cumulative
#' baseline hazard of the row's stratum ([baselineHazard()]: Breslow's estimator, or the
#' Efron-corrected one for an Efron fit, at the fitted coefficients and with the fit's
#' weights), `type = "survival"` gives `exp(-H0(t) exp(link))` for a cox fit, as
#' `survival::survfit(coxph_fit, newdata)`, and `type = "cumulativeIncidence"` gives
#' `1 - exp(-H0(t) exp(link))` for a fgr fit, as `cmprsk::predict.crr()`. `H0` is a step
#' function: 0 before the stratum's first event time, constant after its last. The result
#' is a matrix with one row per row and one column per time. A stratified fit needs each
#' row's stratum: the fitted rows and `argusData` objects carry theirs, a formula fit reads
#' its `strata()` variables from `newdata`, a long table takes `outcomes$stratumId`, a
#' matrix `stratumId`; rows of strata the fit does not have (or dropped for having no events)
#' get `NA`, with a warning. Without strata in the fit, strata are ignored.
#'
#' **Standard errors** (`se.fit = TRUE`; types `"link"`, `"risk"` and `"response"`): the
#' link's is `sqrt(x' V x)`, with `x` the row's covariates (1 for the intercept) and `V`
#' [vcov.argusFit()] at its default type (offsets and exposure times are constants; aliased
#' coefficients are left out, as `predict.lm` does). The other scales multiply it by the slope
#' of the inverse link (the delta method): `mu (1 - mu)` for the `"lr"` response, the expected
#' count for `"pr"`, `exp(link)` for `"risk"` and for the response of the survival and
#' conditional models. The result is `list(fit, se.fit)`, plus `residual.scale` (1 for `"lr"`
#' and `"pr"`, the residual standard deviation for `"ls"`) for lr, pr and ls:
#' `predict.glm(se.fit = TRUE)`'s numbers. For `"cox"` the link's standard error is
#' `predict.coxph(type = "lp", reference = "zero", se.fit = TRUE)`'s: the link is not centred
#' (see above), and coxph's default `reference = "strata"` centres the covariates, which gives
#' the smaller standard errors of a contrast with the mean row. For `type = "risk"` this is
#' `exp(link)` times the link's standard error; `predict.coxph(type = "risk", se.fit = TRUE)`
#' multiplies by `sqrt(exp(lp))` instead (survival 3.5.3; survival issues #306 and #314), so
#' its values are these divided by `sqrt(exp(link))`. A penalized fit's standard errors are
#' those of its `vcov()` (Laplace prior: nonzero coefficients only, with its warning). A
#' database table `newdata` must be collected first.
#'
#' `newdata` may be:
#' \itemize{
#'   \item `NULL`: the fitted rows, in the user's row order, named by row identifier (formula
#'     fits: by the data frame's row names, as `predict.glm`). Rows of strata that were
#'     dropped (conditional models, strata without events) are `NA`.
#'   \item an `argusData` object from [createData()]: its rows in its user's row order
#'     (`NA` for rows of strata it dropped); its offset and time are used; covariates are
#'     matched by identifier or name.
#'   \item a long covariates table (`rowId`, `covariateId`, optional `covariateValue`, as in
#'     [createData()]): predictions for the rows of `outcomes` (a table with `rowId` and
#'     optional `time` and `offset`) when given (entries of other rows are ignored, but an
#'     error when no entry is of those rows: the tables number their rows differently), else for
#'     the sorted distinct `rowId`s; each (rowId, covariateId) pair at most once. Covariates
#'     the model does not have are ignored.
#'   \item a database table of covariates (a dplyr table on a DBI connection, as in
#'     [createData()]), with `outcomes` a data frame or a database table: read `batchSize`
#'     rows at a time, sorted by `rowId` and `covariateId` by the database; the same numbers
#'     as the same tables given as data frames.
#'   \item a `matrix` or `Matrix::dgCMatrix` whose column names include every covariate of the
#'     model (in any order; other columns are ignored). Without column names, the columns must
#'     be the model's covariates in `coef()` order (the intercept excluded).
#'   \item a data frame, for fits made with a formula: the formula's terms (factor levels,
#'     contrasts and `offset()` terms included) are rebuilt from it.
#' }
#'
#' @param object An `argusFit`.
#' @param newdata New data, see Details; `NULL` for the fitted rows.
#' @param type `"response"`, `"link"`, `"risk"`, `"survival"` (cox) or
#'   `"cumulativeIncidence"` (fgr). Default: `"response"` for `"ls"`, `"lr"`, `"pr"`;
#'   `"link"` for `"cox"`, `"fgr"`, `"clr"`, `"cpr"`, `"sccs"`.
#' @param outcomes For a long covariates table: the rows to predict, with `rowId` and optional
#'   `time`, `offset` and `stratumId` (an error with any other `newdata`).
#' @param time,offset Exposure times (positive; `NA` gives `NA`; modelType `"pr"` only) and
#'   offsets of the rows of a matrix or a formula fit's data frame `newdata` (an error with
#'   other `newdata`, whose rows take them from `outcomes` or have their own). With a formula
#'   fit, `offset` is added to the formula's own `offset()` terms, which are evaluated on
#'   `newdata` (an `offset(log(py))` term already takes the new rows' `py`: give `offset`
#'   only for what the formula does not hold), and `time` replaces an exposure the fit read
#'   from a column (`createData(time = py)`).
#' @param batchSize Number of rows read at a time from a database table `newdata`.
#' @param times Times at which to give survival probabilities or cumulative
#'   incidences; by default every event time of the fit.
#' @param stratumId The stratum of each row of a matrix `newdata` (stratified survival fits).
#' @param se.fit Also return standard errors (see Details)?
#' @param ... Not used: an argument given here is an error (a misspelt argument is never
#'   ignored).
#' @return A numeric vector, named by row identifier (formula fits: the data frame's row
#'   names), or by the row names of `newdata`; for
#'   `"survival"` and `"cumulativeIncidence"` a matrix with those row names and one column per
#'   time. With `se.fit = TRUE`, a list: `fit` (that vector), `se.fit` (named alike) and, for
#'   `"lr"`, `"pr"` and `"ls"`, `residual.scale`.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' head(predict(fit))                 # probabilities
#' head(predict(fit, type = "link"))  # log-odds
#' predict(fit, x[1:3, c("b", "a")])
#' predict(fit, x[1:3, ], type = "link", se.fit = TRUE)
#' @method predict argusFit
#' @export
predict.argusFit <- function(object, newdata = NULL,
                             type = c("response", "link", "risk", "survival",
                                      "cumulativeIncidence"),
                             outcomes = NULL, time = NULL, offset = NULL, times = NULL,
                             stratumId = NULL, batchSize = 100000, se.fit = FALSE, ...) {
  rejectCyclopsPredictArguments(...)
  rejectDots("predict()", ...)
  # the link where the response would be a relative risk (predict.coxph, the incumbent)
  if (missing(type) || is.null(type))
    type <- if (object$modelType %in% c("ls", "lr", "pr")) "response" else "link"
  rejectOtherPackagesTypes(type)
  type <- match.arg(type)
  checkFitForInference(object, "predict()")
  checkPredictionType(object$modelType, type)
  checkFlag(se.fit, "se.fit")
  if (se.fit && type %in% c("survival", "cumulativeIncidence"))
    stopf(paste("se.fit is for type \"link\", \"risk\" and \"response\"; curves with their",
                "intervals come from %s"), if (type == "survival") "survival::survfit(fit, newdata)"
                                          else "cumulativeIncidence(fit, newdata)")
  # `time` is a Poisson prediction's exposure; elsewhere it was read for its checks and
  # dropped (type = "survival", time = 365 gave the whole curve, not S(365))
  if (!is.null(time) && object$modelType != "pr")
    stopf("predict() reads 'time' (an exposure) for modelType 'pr' only, not '%s'%s", object$modelType,
          if (type %in% c("survival", "cumulativeIncidence")) "; the curve's times are 'times'" else "")
  rows <- predictionRows(object, newdata, type, se.fit,
                         list(outcomes = outcomes, time = time, offset = offset,
                              stratumId = stratumId, batchSize = batchSize))
  # As predict.lm: an NA coefficient is held at 0, which new rows need not agree with.
  if (!is.null(newdata) && any(aliasedFlags(object)))
    warning("prediction from a rank-deficient fit may be misleading", call. = FALSE)
  out <- switch(type,
                link = rows$link,
                response = responseOf(object$modelType, rows$link, rows$time),
                risk = exp(rows$link),
                survivalScale(object, rows, times, type))
  if (se.fit) out <- withStandardErrors(object, type, rows, out)
  # The fitted rows of a formula fit with na.action = na.exclude: NA where a row was left out
  # for a missing value, as predict.lm (stats::napredict).
  if (is.null(newdata) && !is.null(object$data$naAction)) {
    if (se.fit) {
      out$fit <- stats::napredict(object$data$naAction, out$fit)
      out$se.fit <- stats::napredict(object$data$naAction, out$se.fit)
    } else {
      out <- stats::napredict(object$data$naAction, out)
    }
  }
  out
}

# The rows to predict, from any `newdata` (see predict.argusFit's Details): their link, exposure
# time and stratum, and with `keepDesign` their covariates (`design`, user order). `given`: the
# per-row arguments outcomes, time, offset, stratumId and batchSize of predict().
predictionRows <- function(object, newdata, type, keepDesign, given) {
  outcomes <- given$outcomes
  time <- given$time
  offset <- given$offset
  stratumId <- given$stratumId
  newdata <- denseMatrixAsMatrix(newdata)
  if (is.null(object$data$formulaTerms)) {  # OHDSI's snake_case long tables, as createData()
    newdata <- ohdsiColumns(newdata, "newdata")
    outcomes <- ohdsiColumns(outcomes, "outcomes")
  }
  longTable <- isDatabaseTable(newdata) ||
    (is.data.frame(newdata) && is.null(object$data$formulaTerms) &&
       all(c("rowId", "covariateId") %in% names(newdata)))
  if (!is.null(outcomes) && !longTable)
    stopf(paste("'outcomes' is for newdata in the long format (rowId, covariateId,",
                "covariateValue); with other newdata give 'time', 'offset' or 'stratumId'"))
  if (is.null(newdata)) {
    rejectRowArguments(time, offset, stratumId, "the fitted rows: they have their own")
    argusDataRows(object, object$data, keepDesign)
  } else if (inherits(newdata, "argusData")) {
    rejectRowArguments(time, offset, stratumId, "argusData: its rows have their own")
    checkDataObject(newdata, "newdata")
    checkNewArgusData(object, newdata)
    argusDataRows(object, newdata, keepDesign)
  } else if (is.matrix(newdata) || methods::is(newdata, "sparseMatrix")) {
    matrixRows(object, newdata, time, offset, rownames(newdata), stratumId, keepDesign)
  } else if (is.data.frame(newdata) && !is.null(object$data$formulaTerms)) {
    formulaRows(object, newdata, time, offset, stratumId,
                needStrata = type %in% c("survival", "cumulativeIncidence"), keepDesign = keepDesign)
  } else if (longTable) {
    rejectRowArguments(time, offset, stratumId,
                       "a long covariates table: give them as columns of 'outcomes' (by rowId)")
    longRows(object, newdata, outcomes, checkBatchSize(given$batchSize %||% 100000), keepDesign)
  } else if (is.data.frame(newdata)) {
    stopf(paste("a data frame 'newdata' needs a fit made with a formula, or the long format",
                "(rowId, covariateId, covariateValue)"))
  } else {
    stopf(paste("'newdata' must be an argusData object, a long covariates table, a matrix or",
                "a data frame, not %s"), class(newdata)[1])
  }
}

# time, offset and stratumId are per-row vectors for a matrix or formula data frame; with other
# newdata they were silently left out (a pr prediction at a time of 2 and 3 came back a rate).
rejectRowArguments <- function(time, offset, stratumId, why) {
  given <- c("time", "offset", "stratumId")[!c(is.null(time), is.null(offset), is.null(stratumId))]
  if (length(given))
    stopf("predict() does not take %s for %s", paste(sprintf("'%s'", given), collapse = ", "), why)
}

# predict.coxph's and predict.glm's other types, said what they would be here rather than
# refused by match.arg() alone: "lp" is centred by coxph (reference = "strata"), which
# "link" is not, so it is no silent synonym.
rejectOtherPackagesTypes <- function(type) {
  if (!is.character(type) || length(type) != 1) return(invisible())
  why <- switch(type,
    lp = paste("type = \"link\" gives X beta (plus offsets), uncentred:",
               "predict.coxph(type = \"lp\", reference = \"zero\"); coxph's default centres it"),
    expected = paste("the expected number of events of a fitted Cox row is its status minus its",
                     "martingale residual: y - residuals(fit, \"martingale\")"),
    terms = "per-term contributions are not offered: multiply the columns by coef()",
    NULL)
  if (!is.null(why)) stopf("predict() has no type = \"%s\": %s", type, why)
}

# Which model types have which prediction scales.
checkPredictionType <- function(modelType, type) {
  if (type == "risk" && !hasStratumBaseline(modelType))
    stopf("type = \"risk\" (the relative risk exp(link)) is for conditional and survival models, not '%s'",
          modelType)
  if (type == "survival" && modelType != "cox")
    stopf("type = \"survival\" is for modelType 'cox'%s", if (modelType == "fgr")
      "; use type = \"cumulativeIncidence\" for 'fgr'" else "")
  if (type == "cumulativeIncidence" && modelType != "fgr")
    stopf("type = \"cumulativeIncidence\" is for modelType 'fgr'%s", if (modelType == "cox")
      "; use type = \"survival\" for 'cox'" else "")
}

# The response scale of each model.
responseOf <- function(modelType, link, time) {
  switch(modelType,
         ls = link,
         lr = stats::plogis(link),
         pr = if (is.null(time)) exp(link) else time * exp(link),
         clr = , cpr = , sccs = , cox = , fgr = exp(link))
}

interceptOf <- function(fit) if (fit$hasIntercept) fit$coefficients[[1]] else 0

# Rows of an argusData object (the fitted data or new data) in its user's row order;
# `keepDesign`: with their covariates (predict(se.fit = TRUE)).
argusDataRows <- function(fit, data, keepDesign = FALSE) {
  beta <- fit$coefficients
  mapped <- unname(beta[data$columnNames])
  mapped[is.na(mapped)] <- 0  # covariates the model does not have
  shift <- if (fit$hasIntercept && !data$hasIntercept) interceptOf(fit) else 0
  eta <- .Call(argus_linear_predictor, data, as.double(mapped)) + shift
  n <- length(data$rowIds)
  link <- rep(NA_real_, n)
  link[data$order] <- eta
  names(link) <- rowLabels(data)
  time <- NULL
  if (!is.null(data$time)) {
    time <- rep(NA_real_, n)
    time[data$order] <- data$time
  }
  strata <- NULL
  if (!is.null(data$stratumLabels)) {
    strata <- rep(NA_character_, n)
    strata[data$order] <- data$stratumLabels[data$stratum + 1]
  }
  design <- if (keepDesign) argusDataDesign(fit, data)
  list(link = link, time = time, strata = strata, design = design)
}

# An argusData newdata: ids the model does not have are ignored (misspellings said so). A
# formula-built newdata whose formula lacks a variable of the fit's would have it at 0 on
# every row, so that is an error, as for a data frame; a factor level it does not hold is 0,
# as it is (long-built data leave a covariate out where it is 0).
checkNewArgusData <- function(fit, data) {
  warnUnknownCovariates(fit, setdiff(data$columnNames, "(Intercept)"))
  fitTerms <- fit$data$formulaTerms$terms
  newTerms <- data$formulaTerms$terms
  if (is.null(fitTerms) || is.null(newTerms)) return(invisible())
  missing <- setdiff(all.vars(fitTerms), all.vars(newTerms))
  if (length(missing))
    stopf("'newdata' was made without the model's variable(s) %s", paste(missing, collapse = ", "))
}

# Covariates of the model other than the intercept, in coef() order.
modelCovariates <- function(fit) {
  labels <- names(fit$coefficients)
  if (fit$hasIntercept) labels[-1] else labels
}

matrixRows <- function(fit, x, time, offset, rowNames, stratumId = NULL, keepDesign = FALSE) {
  if (isInteger64(x)) x <- integer64AsDouble(x, "'newdata'")
  covariates <- modelCovariates(fit)
  columnNames <- colnames(x)
  if (is.null(columnNames)) {
    if (ncol(x) != length(covariates))
      stopf("'newdata' has no column names and %d columns, but the model has %d covariates",
            ncol(x), length(covariates))
    columnNames <- covariates
  }
  rejectDuplicateNames(columnNames[columnNames %in% covariates], "newdata")  # (the first was used)
  at <- match(covariates, columnNames)
  if (anyNA(at))
    stopf("'newdata' lacks column(s) for covariate(s) %s",
          paste(utils::head(covariates[is.na(at)], 5), collapse = ", "))
  n <- nrow(x)
  beta <- fit$coefficients[covariates]
  x <- x[, at, drop = FALSE]
  rejectInfiniteEntries(x, rowNames)
  # A row with a missing covariate value gets NA, as predict.glm's default na.pass gives.
  link <- as.numeric(x %*% beta) + interceptOf(fit)
  if (is.null(offset)) needNoOffset(fit)
  offset <- checkNumericVector(offset, "offset", n, missingOk = TRUE)
  if (!is.null(offset)) link <- link + offset
  time <- checkExposure(checkNumericVector(time, "time", n, missingOk = TRUE), "time")
  names(link) <- rowNames
  list(link = link, time = time, strata = rowStrataKeys(stratumId, n, "stratumId"),
       design = if (keepDesign) `colnames<-`(x, covariates))  # (x: the model's columns, in order)
}

# An infinite covariate value in new rows is an error naming the row and the covariate, on
# every route (a matrix row with an Inf came back 1 with no message, while createData()
# refuses Inf); a missing value (NA, NaN) gives NA on the matrix and formula routes, as
# predict.glm's na.pass. `x`: the model's columns of a matrix or sparse Matrix.
rejectInfiniteEntries <- function(x, rowNames) {
  if (methods::is(x, "sparseMatrix")) {
    triplets <- methods::as(x, "TsparseMatrix")
    if (!methods::.hasSlot(triplets, "x")) return(invisible())  # a pattern matrix: all 1
    at <- which(is.infinite(triplets@x))
    if (length(at) == 0) return(invisible())
    row <- triplets@i[at[1]] + 1L
    column <- triplets@j[at[1]] + 1L
    value <- triplets@x[at[1]]
  } else {
    if (!any(is.infinite(x))) return(invisible())
    first <- which(is.infinite(x), arr.ind = TRUE)[1, ]
    row <- first[[1]]
    column <- first[[2]]
    value <- x[row, column]
  }
  infiniteValueError(if (is.null(rowNames)) row else rowNames[row], colnames(x)[column], value)
}

infiniteValueError <- function(row, covariate, value) {
  stopf(paste("'newdata' has an infinite value (%s) for row %s, covariate '%s': predictions need",
              "finite covariate values, as createData() does (a missing value gives NA)"),
        format(value), row, covariate)
}

# A long newdata table's values: +-Inf named by row and covariate (as the other routes do),
# the rest checked as createData() checks them.
longTableValues <- function(value, rowIds, ids) {
  if (is.numeric(value) && any(is.infinite(value))) {
    at <- which(is.infinite(value))[1]
    infiniteValueError(idLabel(rowIds[at]), ids[at], value[at])
  }
  checkNumericVector(value, "newdata$covariateValue")
}

# A 0/1 variable given as logical in newdata where the fit saw numbers, or the reverse:
# model.matrix() names its column after the class ('obstruct' or 'obstructTRUE'), so the
# model's covariate looked absent; predict.coxph takes either. Other classes are
# model.frame()'s to judge.
matchNewdataClasses <- function(terms, newdata) {
  classes <- attr(terms, "dataClasses")
  for (v in intersect(names(classes), names(newdata))) {
    x <- newdata[[v]]
    if (classes[[v]] == "numeric" && is.logical(x)) {
      newdata[[v]] <- as.numeric(x)
    } else if (classes[[v]] == "logical" && is.numeric(x) && all(x %in% c(0, 1, NA))) {
      newdata[[v]] <- as.logical(x)
    }
  }
  newdata
}

# A matrix newdata carries no offset: on a fit with one, taking the new rows' at 0 in
# silence put predictions 0.05-0.4 off, so the caller must say (0 for none).
needNoOffset <- function(fit) {
  offset <- fit$data$offset
  if (!is.null(offset) && any(offset != 0))
    stopf("the fit has an offset: give 'offset' for the rows of a matrix 'newdata' (0 for none)")
}

# Stratum labels of new rows (NULL when not given), as createData() labels them.
rowStrataKeys <- function(stratumId, n, name) {
  if (is.null(stratumId)) return(NULL)
  if (length(stratumId) != n) stopf("'%s' has length %d but there are %d rows", name,
                                    length(stratumId), n)
  stratumKey(stratumId)
}

formulaRows <- function(fit, frame, time, offset, stratumId, needStrata = FALSE, keepDesign = FALSE) {
  ft <- fit$data$formulaTerms
  frame <- integer64ColumnsAsDouble(frame)  # as createData() reads them
  # A formula's strata() term gives the strata of new rows from their own columns (only
  # read when the prediction needs them, so that link and risk do not need those columns).
  if (needStrata && !is.null(ft$strata)) {
    lacking <- setdiff(all.vars(ft$strata), names(frame))
    if (length(lacking))
      stopf("'newdata' lacks the strata() variable(s) %s: a stratified fit's curves need each row's stratum",
            paste(lacking, collapse = ", "))
    stratumId <- strataValues(ft$strata, frame, environment(ft$terms) %||% parent.frame())
  }
  checkNewLevels(ft$xlevels, frame)
  mf <- stats::model.frame(ft$terms, matchNewdataClasses(ft$terms, frame), xlev = ft$xlevels,
                           na.action = stats::na.pass)
  # each variable of the type it was fitted with, as predict.lm checks (a numeric covariate
  # given as a factor was "lacking"; a factor given as numbers met R's internal messages)
  if (!is.null(classes <- attr(ft$terms, "dataClasses"))) stats::.checkMFClasses(classes, mf)
  x <- stats::model.matrix(ft$terms, mf, contrasts.arg = ft$contrasts)
  x <- x[, colnames(x) != "(Intercept)", drop = FALSE]
  total <- stats::model.offset(mf)
  offset <- checkNumericVector(offset, "offset", nrow(x), missingOk = TRUE)
  if (!is.null(offset)) total <- (total %||% 0) + offset
  # createData(time = Holders): the new rows' own exposure, unless `time` is given
  if (is.null(time) && !is.null(ft$time)) {
    env <- environment(ft$terms) %||% parent.frame()
    vars <- setdiff(all.vars(ft$time), names(frame))
    missingVars <- vars[!vapply(vars, exists, TRUE, envir = env)]
    if (length(missingVars))
      stopf(paste("'newdata' has no column %s, which the fit's exposure time (%s) reads: add it,",
                  "or give 'time'"), paste(sprintf("'%s'", missingVars), collapse = ", "),
            deparse(ft$time, width.cutoff = 500L))
    time <- eval(ft$time, frame, env)
    if (length(time) != nrow(frame))
      stopf(paste("the fit's exposure time (%s) does not read the new rows' own columns (%d values for",
                  "%d rows): give predict() 'time'"), deparse(ft$time, width.cutoff = 500L), length(time),
            nrow(frame))
  }
  matrixRows(fit, x, time, total, rownames(frame), stratumId, keepDesign)
}

# A level of a factor that no fitted row had (new, or declared but unused, which the fit
# dropped as lm() does) has no coefficient: said so, where model.frame() says only "new
# levels", and a user whose factor declared the level thinks it is not new.
checkNewLevels <- function(xlevels, frame) {
  for (name in intersect(names(xlevels), names(frame))) {
    values <- frame[[name]]
    if (!(is.factor(values) || is.character(values))) next
    unseen <- setdiff(unique(as.character(values[!is.na(values)])), xlevels[[name]])
    if (length(unseen))
      stopf(paste("'newdata' has level(s) %s of '%s' that no row of the fitted data had, so the",
                  "model has no coefficient for them (fitted levels: %s)"),
            paste(sprintf("'%s'", unseen), collapse = ", "), name,
            paste(sprintf("'%s'", xlevels[[name]]), collapse = ", "))
  }
}

# Each (row, covariate) pair at most once in a long newdata table, as createData() requires
# (a repeated entry would otherwise be summed into the row's prediction).
checkUniquePairs <- function(position, ids, rowIds) {
  if (length(position) < 2) return(invisible())
  code <- match(ids, unique(ids))
  o <- order(position, code)
  same <- which(diff(position[o]) == 0 & diff(code[o]) == 0)
  if (length(same))
    stopf("covariate '%s' appears more than once for row %s of 'newdata': each (row, covariate) pair must be unique",
          ids[o[same[1]]], idLabel(rowIds[position[o[same[1]]] + 1]))
}

longRows <- function(fit, covariates, outcomes, batchSize = 100000, keepDesign = FALSE) {
  streamed <- isDatabaseTable(covariates)
  if (!streamed) covRowIds <- checkIds(covariates[["rowId"]], "newdata$rowId")
  if (isDatabaseTable(outcomes)) outcomes <- collectOutcomes(outcomes)
  if (is.null(outcomes)) {
    rowIds <- if (streamed) NULL else sortedIds(covRowIds)
    time <- NULL
    offset <- NULL
    strata <- NULL
  } else {
    if (!is.data.frame(outcomes)) stopf("'outcomes' must be a data frame or a database table")
    needColumns(outcomes, "rowId", "outcomes")
    warnNearMissColumns(names(outcomes), c("time", "offset", "stratumId"), "outcomes")
    rowIds <- checkIds(outcomes[["rowId"]], "outcomes$rowId")
    time <- checkExposure(checkNumericVector(outcomes[["time"]], "outcomes$time"), "outcomes$time")
    offset <- checkNumericVector(outcomes[["offset"]], "outcomes$offset")
    strata <- rowStrataKeys(outcomes[["stratumId"]], length(rowIds), "outcomes$stratumId")
  }
  if (streamed && keepDesign)
    stopf(paste("se.fit needs the new rows' covariates in memory: collect the database table",
                "(dplyr::collect()) and give it as a data frame"))
  if (streamed) {
    streamedLinks <- streamLinks(fit, covariates, rowIds, batchSize)
    rowIds <- streamedLinks$rowIds
    link <- rep(interceptOf(fit), length(rowIds))
    if (!is.null(offset)) link <- link + offset
    link <- link + streamedLinks$sums
    names(link) <- idLabel(rowIds)
    return(list(link = link, time = time, strata = strata))
  }
  # Covariate rows not among the rows asked for are ignored (position -1), so a full table
  # can serve a subset of rows. Labels (character or factor ids) are matched by their text.
  found <- lookupIds(covRowIds, rowIds)
  checkRowsMatched(length(found$position), sum(found$position >= 0))
  warnNearMissColumns(names(covariates), "covariateValue", "newdata")
  ids <- idLabel(checkIds(covariates[["covariateId"]], "newdata$covariateId"))
  warnUnknownCovariates(fit, unique(ids))
  value <- if (is.null(covariates[["covariateValue"]])) rep(1, length(ids))
           else longTableValues(covariates[["covariateValue"]], covRowIds, ids)
  # NA for covariates the model does not have (the intercept is not a covariate)
  beta <- unname(fit$coefficients[modelCovariates(fit)][ids])
  # entries of value 0 add nothing and are skipped, as createData() skips them (a repeated
  # pair whose second value was 0 was refused here, taken there)
  keep <- !is.na(beta) & beta != 0 & found$position >= 0 & value != 0
  checkUniquePairs(found$position[keep], ids[keep], rowIds)
  n <- length(rowIds)
  link <- rep(interceptOf(fit), n)
  if (!is.null(offset)) link <- link + offset
  sums <- entrySums(value[keep], beta[keep], found$position[keep], ids[keep], fit)
  link[sums$at] <- link[sums$at] + sums$sum
  names(link) <- idLabel(rowIds)
  design <- NULL
  if (keepDesign) {
    # every entry of a model covariate, those whose coefficient is 0 too (a variance may remain)
    entry <- !is.na(beta) & found$position >= 0 & value != 0
    design <- Matrix::sparseMatrix(i = found$position[entry] + 1L,
                                   j = match(ids[entry], modelCovariates(fit)), x = value[entry],
                                   dims = c(n, length(modelCovariates(fit))),
                                   dimnames = list(NULL, modelCovariates(fit)))
  }
  list(link = link, time = time, strata = strata, design = design)
}

# Covariate ids of a long newdata table that the model does not have are ignored (a row
# without an entry of a covariate has it at 0; OHDSI tables hold many a model leaves out),
# but a misspelt id ('Age' for 'age', 'bmi_1' for 'bmi1') would then go unnoticed: say so
# where an unknown id is a model covariate's but for case and punctuation, or where no id
# of newdata is the model's. `ids`: the distinct ids of newdata.
# Covariate rows of a long newdata whose rowId is not among the rows asked for are ignored (a
# full table may serve a subset of rows), but when none of them is, every row came back the
# intercept alone (ids renumbered in one table only, or written as text "1e+05" against the
# number 100000): that is an error, as createData() makes any unmatched row.
checkRowsMatched <- function(read, matched) {
  if (read > 0 && matched == 0)
    stopf(paste("none of newdata's %d covariate row(s) has a rowId among outcomes$rowId, so every",
                "prediction would be the intercept's: check that the two tables number the rows",
                "alike"), read)
}

warnUnknownCovariates <- function(fit, ids) {
  known <- modelCovariates(fit)
  unknown <- unique(ids[!ids %in% known])
  if (length(unknown) == 0) return(invisible())
  near <- unknown[looseName(unknown) %in% looseName(known)]
  if (length(near) == 0 && any(ids %in% known)) return(invisible())
  shown <- if (length(near)) near else unknown
  warning(sprintf("'newdata' has %d covariate id(s) the model does not have, which are ignored%s: %s%s",
                  length(shown), if (length(near)) " (spelt like the model's but for case or punctuation)"
                                 else " (none of its ids is the model's)",
                  paste(sprintf("'%s'", utils::head(shown, 5)), collapse = ", "),
                  if (length(shown) > 5) ", ..." else ""), call. = FALSE)
}

# Per row (0-based `position`), the sum of value * beta over its entries, added in the order
# of the model's covariates whatever the order of the table (so that a data frame and a
# database table, read sorted and in batches, give the same numbers). `at` is 1-based.
entrySums <- function(value, beta, position, ids, fit) {
  if (length(position) == 0) return(list(at = integer(0), sum = numeric(0)))
  o <- order(position, match(ids, modelCovariates(fit)))
  sums <- rowsum(value[o] * beta[o], position[o] + 1L)
  list(at = as.integer(rownames(sums)), sum = sums[, 1])
}
