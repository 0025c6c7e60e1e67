# convertToCyclopsData(): outcomes and covariates in the OHDSI long layout, as data frames or
# as database tables (Andromeda, dbplyr), into a cyclopsData object. The rows keep the order
# of `outcomes` (database outcomes: sorted by rowId); the Argus engine orders them itself.

#' Convert long tables into a Cyclops data object
#'
#' `outcomes` has a row per observation: `rowId`, `y` and, as the model needs them,
#' `stratumId` (conditional and stratified survival models), `time` (exposure for `"pr"`,
#' `"cpr"`; event or censoring time for `"cox"`, `"fgr"`), `weights` (non-negative row weights)
#' and, for `"fgr"`, `censorWeights` (the probability of remaining uncensored just before each
#' row's time; computed with [getFineGrayWeights()] when absent). `covariates` has `rowId`,
#' `covariateId` and `covariateValue` (other columns, such as `stratumId`, are ignored).
#' Both may be data frames or database tables (`dplyr::tbl()` of a DBI connection, which is
#' what Andromeda holds); the covariates of a database table are read by the Argus engine in
#' batches, never whole.
#'
#' As in Cyclops 3.7.0: an intercept is not allowed in `"clr"` and `"cpr"` (a warning, unless
#' `quiet`, and it is left out) and never added to `"cox"` and `"fgr"`; `time` must be
#' positive for `"pr"` and `"cpr"`; `"cox"` accepts two outcome values only; covariate rows
#' whose `rowId` is not in `outcomes` are left out (with a message unless `quiet`, when
#' `checkRowIds`). `floatingPoint = 32` is accepted and recorded ([getFloatingPointSize()]),
#' but the Argus engine computes in double precision (a message says so): the results are
#' those of `floatingPoint = 64`, to more digits than the incumbent's single precision.
#'
#' @param outcomes A data frame or database table of outcomes (see Details).
#' @param covariates A data frame or database table of covariates.
#' @param modelType `"lr"`, `"pr"`, `"clr"`, `"clr_exact"`, `"cpr"`, `"cox"`, `"fgr"`, `"ls"`
#'   or `"sccs"`.
#' @param timeEffectMap Time-varying coefficients: not available (an error if given).
#' @param addIntercept Add an intercept (`"lr"`, `"pr"`, `"ls"`)?
#' @param checkSorting Deprecated in the incumbent too (a warning if given): rows need no sorting.
#' @param checkRowIds Say when covariate rows have a `rowId` that is not in `outcomes`.
#' @param normalize `NULL`, or `"stdev"`, `"max"` or `"median"`: rescale each non-indicator
#'   covariate by that statistic (see [coef.cyclopsFit()]'s `rescale`).
#' @param quiet Suppress messages and the intercept warning.
#' @param floatingPoint 64, or 32 (recorded; the arithmetic stays double).
#' @return A `cyclopsData` object.
#' @examples
#' outcomes <- data.frame(stratumId = infert$stratum, rowId = seq_len(nrow(infert)),
#'                        y = infert$case)
#' covariates <- data.frame(rowId = rep(seq_len(nrow(infert)), 2),
#'                          covariateId = rep(1:2, each = nrow(infert)),
#'                          covariateValue = c(infert$spontaneous, infert$induced))
#' covariates <- covariates[covariates$covariateValue != 0, ]
#' d <- convertToCyclopsData(outcomes, covariates, modelType = "clr", addIntercept = FALSE)
#' coef(fitCyclopsModel(d))
#' @export
convertToCyclopsData <- function(outcomes, covariates, modelType = "lr", timeEffectMap = NULL,
                                 addIntercept = TRUE, checkSorting = NULL, checkRowIds = TRUE,
                                 normalize = NULL, quiet = FALSE, floatingPoint = 64) {
  UseMethod("convertToCyclopsData")
}

#' @rdname convertToCyclopsData
#' @method convertToCyclopsData data.frame
#' @export
convertToCyclopsData.data.frame <- function(outcomes, covariates, modelType = "lr",
                                            timeEffectMap = NULL, addIntercept = TRUE,
                                            checkSorting = NULL, checkRowIds = TRUE,
                                            normalize = NULL, quiet = FALSE,
                                            floatingPoint = 64) {
  settings <- conversionSettings(modelType, timeEffectMap, addIntercept, checkSorting,
                                 floatingPoint, quiet)
  prepared <- prepareOutcomes(as.data.frame(outcomes), settings$modelType)
  covariates <- as.data.frame(covariates)
  if (!all(c("rowId", "covariateId") %in% names(covariates)))
    stopf("'covariates' needs the columns rowId, covariateId and covariateValue")
  if (is.null(covariates$covariateValue)) covariates$covariateValue <- 1
  known <- matchRowIds(covariates$rowId, prepared$outcomes$rowId)
  if (!all(known)) {
    if (checkRowIds && !quiet) message("Removing covariate values with rowIds that are not in outcomes")
    covariates <- covariates[known, , drop = FALSE]
  }
  covariates <- covariates[, c("rowId", "covariateId", "covariateValue")]
  finishConversion(settings, prepared, covariates, normalize, quiet)
}

#' @rdname convertToCyclopsData
#' @method convertToCyclopsData tbl_dbi
#' @export
convertToCyclopsData.tbl_dbi <- function(outcomes, covariates, modelType = "lr",
                                         timeEffectMap = NULL, addIntercept = TRUE,
                                         checkSorting = NULL, checkRowIds = TRUE,
                                         normalize = NULL, quiet = FALSE,
                                         floatingPoint = 64) {
  settings <- conversionSettings(modelType, timeEffectMap, addIntercept, checkSorting,
                                 floatingPoint, quiet)
  # the outcomes are read whole (one row per observation), sorted by rowId: that order is
  # the one fitCyclopsModel(weights =) refers to for these data
  collected <- as.data.frame(dplyr::collect(outcomes))
  collected <- collected[order(collected$rowId), , drop = FALSE]
  prepared <- prepareOutcomes(collected, settings$modelType)
  if (!isDatabaseTable(covariates))
    stopf("'covariates' must be a database table too when 'outcomes' is one")
  columns <- colnames(covariates)
  if (!all(c("rowId", "covariateId", "covariateValue") %in% columns))
    stopf("'covariates' needs the columns rowId, covariateId and covariateValue")
  # covariate rows of other rowIds are left out in the database, never read
  covariates <- dplyr::semi_join(covariates, dplyr::select(outcomes, "rowId"), by = "rowId")
  covariates <- dplyr::select(covariates, "rowId", "covariateId", "covariateValue")
  finishConversion(settings, prepared, covariates, normalize, quiet)
}

conversionSettings <- function(modelType, timeEffectMap, addIntercept, checkSorting,
                               floatingPoint, quiet) {
  modelType <- checkModelType(modelType)
  if (!is.null(timeEffectMap))
    refuse("'timeEffectMap' (time-varying coefficients, modelType \"cox_time\")",
           "Argus fits proportional hazards only; split follow-up into (start, stop] rows instead")
  if (!is.null(checkSorting))
    warning("The 'checkSorting' argument has been deprecated. Sorting is now always checked")
  checkFloatingPoint(floatingPoint)
  if (modelType %in% c("clr", "cpr", "clr_exact", "clr_efron", "sccs") && isTRUE(addIntercept)) {
    if (!quiet) warning("Intercepts are not allowed in conditional models, removing intercept",
                        call. = FALSE)
    addIntercept <- FALSE
  }
  list(modelType = modelType, addIntercept = isTRUE(addIntercept) && takesIntercept(modelType),
       floatingPoint = floatingPoint)
}

checkFloatingPoint <- function(floatingPoint) {
  if (!is.numeric(floatingPoint) || length(floatingPoint) != 1 || !floatingPoint %in% c(32, 64))
    stop("Invalid floating point precision")
  if (floatingPoint == 32)
    message("floatingPoint = 32 is recorded, but the Argus engine computes in double precision")
  invisible()
}

# The outcome columns the model reads, with the incumbent's checks; weights and censoring
# weights kept aside (fitCyclopsModel() passes them to the engine).
prepareOutcomes <- function(outcomes, modelType) {
  if (!all(c("rowId", "y") %in% names(outcomes))) stopf("'outcomes' needs the columns rowId and y")
  if (modelType %in% c("pr", "cpr", "sccs") && !is.null(outcomes$time) && any(outcomes$time <= 0))
    stop("time cannot be non-positive", call. = FALSE)
  if (modelType == "cox" && length(unique(outcomes$y)) > 2)
    stop("Cox model only accepts one outcome type")
  keep <- c("rowId", "y")
  if ((isConditionalType(modelType) || isSurvivalType(modelType)) && !is.null(outcomes$stratumId))
    keep <- c(keep, "stratumId")
  if (isConditionalType(modelType) && is.null(outcomes$stratumId))
    stopf("modelType '%s' needs outcomes$stratumId", modelType)
  if (isSurvivalType(modelType) || modelType %in% c("pr", "cpr", "sccs")) {
    if (is.null(outcomes$time)) {
      if (isSurvivalType(modelType)) stopf("modelType '%s' needs outcomes$time", modelType)
      if (modelType != "pr") outcomes$time <- 1  # equal exposure, as the incumbent without time
    }
    if (!is.null(outcomes$time)) keep <- c(keep, "time")
  }
  list(outcomes = outcomes[, keep, drop = FALSE], weights = outcomes$weights,
       censorWeights = outcomes$censorWeights)
}

finishConversion <- function(settings, prepared, covariates, normalize, quiet) {
  data <- newCyclopsData(settings$modelType, prepared$outcomes, covariates, ids = NULL,
                         info = NULL, hasIntercept = settings$addIntercept,
                         weights = prepared$weights, censorWeights = prepared$censorWeights,
                         call = sys.call(-1), floatingPoint = settings$floatingPoint)
  if (settings$modelType == "fgr" && is.null(data$censorWeights) && !quiet)
    message("Generating censoring weights")
  buildArgusData(data)
  if (!is.null(normalize)) normalizeCovariates(data, normalize)
  data
}

# TRUE for each covariate rowId that is among the outcomes' rowIds: numbers as numbers (R's
# match() on the values; their text at 22 digits was 70% of an SCCS conversion, 1.25 million
# covariate rows: 0.5 s, and each text depended on its vector's other values, 1 becoming "1.0"
# beside 1.5), integer64 and text as text
matchRowIds <- function(ids, outcomeIds) {
  plainNumbers <- function(x) is.numeric(x) && !bit64::is.integer64(x)
  if (plainNumbers(ids) && plainNumbers(outcomeIds)) return(!is.na(match(ids, outcomeIds)))
  !is.na(match(idText(ids), idText(outcomeIds)))
}
