# The cyclopsData object: an environment of class "cyclopsData", as the incumbent's (code
# that sets data$weights after construction keeps working), holding the rows in the long
# layout the Argus engine reads (outcomes and covariates tables) and the Argus data built
# from them. Everything that changes the rows (normalization, finalizeSqlCyclopsData(), the
# row-by-row constructor) rebuilds the Argus data and bumps `version`, so that fits made
# before know that their data are gone.

# outcomes: data frame with rowId, y and, where the model reads them, stratumId, time,
#   startTime, offset (Argus's meanings: time is the exposure of pr/cpr/sccs and the event
#   time of cox/fgr; offset is on the linear predictor's scale).
# covariates: data frame (rowId, covariateId, covariateValue) or a database table of them.
# ids, info: the coefficients' ids (numbers or integer64) and a data frame of their names and
#   storage types, in coefficient order; NULL until built when the covariates are a database
#   table (they are then read from the Argus data).
newCyclopsData <- function(modelType, outcomes, covariates, ids, info, hasIntercept,
                           weights = NULL, censorWeights = NULL, rowNames = NULL,
                           call = NULL, floatingPoint = 64) {
  data <- new.env(parent = emptyenv())
  data$modelType <- modelType
  data$outcomes <- outcomes
  data$covariates <- covariates
  data$ids <- ids
  data$info <- info
  data$hasIntercept <- hasIntercept
  data$weights <- weights
  data$censorWeights <- censorWeights
  data$rowNames <- rowNames %||% as.character(outcomes$rowId)
  data$sortOrder <- NULL
  data$call <- call
  data$floatingPoint <- floatingPoint
  data$scale <- NULL
  data$engine <- "Argus"
  data$version <- 0L
  # the exposure of pr and cpr rows is their time (the incumbent's converters finalize so;
  # its piece-by-piece constructor only after finalizeSqlCyclopsData(useOffsetCovariate = -1))
  data$timeIsExposure <- TRUE
  data$cyclopsDataPtr <- NULL
  data$cyclopsInterfacePtr <- NULL
  class(data) <- "cyclopsData"
  data
}

# The Argus data of the rows as they stand; built on first use and after every change.
argusData <- function(data) {
  checkCyclopsData(data)
  if (is.null(data$argus)) buildArgusData(data)
  data$argus
}

buildArgusData <- function(data) {
  started <- Sys.time()
  outcomes <- data$outcomes
  if (data$modelType == "fgr") outcomes$censoringSurvival <- fineGrayCensoring(data)
  if (data$modelType %in% c("pr", "cpr", "sccs") && !data$timeIsExposure) outcomes$time <- NULL
  if (data$modelType %in% c("cpr", "sccs") && is.null(outcomes$time)) outcomes$time <- 1
  # strata are read by the conditional and survival models only (the incumbent's too)
  if (!isConditionalType(data$modelType) && !isSurvivalType(data$modelType)) outcomes$stratumId <- NULL
  # Weights and covariates enter through fitModel(weights =) and the covariates table; the
  # Argus data carry none (fitCyclopsModel() decides which weights a fit uses).
  data$argus <- withArgusMessages(
    if (isTRUE(data$formula)) matrixArgusData(data, outcomes) else longArgusData(data, outcomes))
  if (is.null(data$info)) infoFromArgus(data, data$argus)
  data$coefficientNames <- data$info$name
  data$timeLoad <- as.numeric(Sys.time() - started, units = "secs")
  invisible(data)
}

# Long tables (convertToCyclopsData()): Argus's long route, which reads a database table of
# covariates in batches.
longArgusData <- function(data, outcomes) {
  covariates <- data$covariates
  if (isDatabaseTable(covariates))
    covariates <- dplyr::select(covariates, "rowId", "covariateId", "covariateValue")
  Argus::createData(outcomes, covariates, modelType = argusModel(data$modelType),
                    addIntercept = data$hasIntercept, ties = argusTies(data$modelType))
}

# Formula and row-by-row data: Argus's matrix route, a sparse matrix with every column,
# those without a nonzero value too (they are then not estimable, as in glm), named by id.
matrixArgusData <- function(data, outcomes) {
  covariates <- data$covariates
  columns <- if (data$hasIntercept) data$ids[-1] else data$ids
  X <- Matrix::sparseMatrix(i = match(idText(covariates$rowId), idText(outcomes$rowId)),
                            j = match(idText(covariates$covariateId), idText(columns)),
                            x = as.numeric(covariates$covariateValue),
                            dims = c(nrow(outcomes), length(columns)),
                            dimnames = list(NULL, idText(columns)))
  Argus::createData(x = X, y = outcomes$y, stratumId = outcomes$stratumId, time = outcomes$time,
                    offset = outcomes$offset, startTime = outcomes$startTime,
                    censoringSurvival = outcomes$censoringSurvival,
                    modelType = argusModel(data$modelType), addIntercept = data$hasIntercept,
                    ties = argusTies(data$modelType))
}

# Called after anything changed the rows: the Argus data are rebuilt, fits made before are
# stale.
rowsChanged <- function(data) {
  data$argus <- NULL
  data$version <- data$version + 1L
  buildArgusData(data)
}

# Argus's own notes (strata without events dropped, a stratum column not used by lr) are
# what the incumbent does silently: they are kept from the console; warnings stay.
withArgusMessages <- function(expr) {
  withCallingHandlers(expr,
    message = function(m) invokeRestart("muffleMessage"),
    warning = function(w) {
      if (grepl("is not used by modelType|has no baseline per stratum", conditionMessage(w)))
        invokeRestart("muffleWarning")
    })
}

# Coefficient ids, names and storage types read from Argus data (database covariates).
infoFromArgus <- function(data, argus) {
  ids <- Argus::getCovariateIds(argus)
  names <- as.character(ids)
  types <- rep(NA_character_, length(ids))
  if (argus$hasIntercept) {
    names[1] <- "(Intercept)"
    types[1] <- "intercept"
  }
  data$ids <- ids
  data$info <- data.frame(name = names, type = types, stringsAsFactors = FALSE)
}

checkCyclopsData <- function(x) {
  if (missing(x) || !inherits(x, "cyclopsData") || !is.environment(x) || is.null(x$outcomes))
    stop("Improperly constructed cyclopsData object")
  invisible(x)
}

isDatabaseTable <- function(x) inherits(x, "tbl_dbi") || inherits(x, "tbl_lazy")

# Positions (in coefficient order) of covariates named by the incumbent's rules: names
# (coefficientNames) or covariate ids (numbers or integer64; the formula route numbers its
# columns 1, 2, ... with the intercept first, the long route gives the intercept id 0).
covariatePositions <- function(data, covariates) {
  if (is.null(covariates)) return(integer(0))
  info <- data$info
  at <- if (is.character(covariates)) match(covariates, info$name)
        else if (is.numeric(covariates) || bit64::is.integer64(covariates) || is.factor(covariates))
          match(idText(covariates), idText(data$ids))
        else rep(NA_integer_, length(covariates))
  if (anyNA(at)) stop("Unable to match all covariates: ", paste(covariates, collapse = ", "))
  at
}

# ids compared as text of their digits (integer64 and doubles alike)
idText <- function(ids) {
  if (bit64::is.integer64(ids)) return(as.character(ids))
  if (is.factor(ids)) return(as.character(ids))
  format(ids, scientific = FALSE, trim = TRUE, digits = 22)
}

# The Argus labels of positions (Argus names its columns by id, "(Intercept)" for 0).
argusLabels <- function(data, positions) argusData(data)$columnNames[positions]

#' Counts and identifiers of Cyclops data
#'
#' `getNumberOfRows()`, `getNumberOfStrata()` (1 for unstratified survival data, as the
#' incumbent; each row its own stratum for models without strata), `getNumberOfCovariates()`
#' (the intercept included), `getCovariateIds()` (`bit64::integer64`, in coefficient order;
#' the intercept is 0 in data from `convertToCyclopsData()` and 1 in formula data, as in the
#' incumbent), `getCovariateTypes()` (`"indicator"`, `"sparse"`, `"dense"` or `"intercept"`),
#' `getFloatingPointSize()` and `isInitialized()`.
#'
#' @param object A `cyclopsData` object (for `getNumberOfRows()` and friends also a
#'   `cyclopsFit`, whose data are used).
#' @param covariateLabel Covariate ids or names.
#' @return A number, a vector of ids or types, or `TRUE`/`FALSE`.
#' @examples
#' d <- createCyclopsData(mpg > 20 ~ wt + hp, data = mtcars, modelType = "lr")
#' getNumberOfRows(d)
#' getCovariateIds(d)
#' @name cyclopsDataCounts
NULL

dataFrom <- function(object) {
  if (inherits(object, "cyclopsFit")) object <- object$cyclopsData
  checkCyclopsData(object)
}

#' @rdname cyclopsDataCounts
#' @export
getNumberOfRows <- function(object) nrow(dataFrom(object)$outcomes)

#' @rdname cyclopsDataCounts
#' @export
getNumberOfStrata <- function(object) {
  data <- dataFrom(object)
  strata <- data$outcomes$stratumId
  if (!is.null(strata)) return(length(unique(strata)))
  if (isSurvivalType(data$modelType)) 1L else nrow(data$outcomes)
}

#' @rdname cyclopsDataCounts
#' @export
getNumberOfCovariates <- function(object) {
  data <- dataFrom(object)
  if (is.null(data$info)) argusData(data)
  nrow(data$info)
}

#' @rdname cyclopsDataCounts
#' @export
getCovariateIds <- function(object) {
  data <- dataFrom(object)
  if (is.null(data$info)) argusData(data)
  bit64::as.integer64(idText(data$ids))
}

#' @rdname cyclopsDataCounts
#' @export
getCovariateTypes <- function(object, covariateLabel) {
  data <- dataFrom(object)
  types <- covariateTypes(data)
  at <- covariatePositions(data, covariateLabel)
  stats::setNames(types[at], data$info$name[at])
}

#' @rdname cyclopsDataCounts
#' @export
getFloatingPointSize <- function(object) dataFrom(object)$floatingPoint

#' @rdname cyclopsDataCounts
#' @export
isInitialized <- function(object) {
  inherits(object, "cyclopsData") && is.environment(object) && !is.null(object$outcomes)
}

# Storage types as the incumbent reports them: formula columns keep their formula's type;
# long-table covariates are "indicator" when every stored value is 1, else "sparse".
covariateTypes <- function(data) {
  if (is.null(data$info)) argusData(data)
  types <- data$info$type
  missingTypes <- is.na(types)
  if (any(missingTypes)) {
    values <- collectCovariates(data)
    allOne <- tapply(values$covariateValue == 1, idText(values$covariateId), all)
    types[missingTypes] <- ifelse(allOne[idText(data$ids[missingTypes])] %in% TRUE,
                                  "indicator", "sparse")
    if (data$hasIntercept) types[1] <- "intercept"
    data$info$type <- types
  }
  types
}

collectCovariates <- function(data) {
  covariates <- data$covariates
  if (isDatabaseTable(covariates))
    covariates <- as.data.frame(dplyr::collect(dplyr::select(covariates, "rowId", "covariateId",
                                                             "covariateValue")))
  covariates
}
