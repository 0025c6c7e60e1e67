# The incumbent's piece-by-piece constructor (unexported there too, reached with `:::`):
# outcomes and covariate columns loaded one call at a time into an empty cyclopsData object.
# The pieces are kept in the long layout; the Argus data (matrix route, every column kept) are
# built when a fit or a question needs them.

createSqlCyclopsData <- function(modelType, control, floatingPoint = 64) {
  modelType <- checkModelType(modelType)
  data <- newCyclopsData(modelType, data.frame(rowId = numeric(0), y = numeric(0)),
                         data.frame(rowId = numeric(0), covariateId = numeric(0),
                                    covariateValue = numeric(0)),
                         ids = numeric(0), info = data.frame(name = character(0), type = character(0)),
                         hasIntercept = FALSE, floatingPoint = floatingPoint)
  data$formula <- TRUE
  data$timeIsExposure <- FALSE
  data
}

# Something was loaded: the Argus data are rebuilt on next use, fits made before are stale.
piecesChanged <- function(data) {
  data$argus <- NULL
  data$version <- data$version + 1L
  invisible(data)
}

loadNewSqlCyclopsDataY <- function(object, stratumId, rowId, y, time) {
  data <- checkCyclopsData(object)
  n <- length(y)
  outcomes <- data.frame(rowId = if (is.null(rowId)) seq_len(n) else rowId, y = as.numeric(y))
  if (!is.null(stratumId)) outcomes$stratumId <- stratumId
  if (!is.null(time)) outcomes$time <- as.numeric(time)
  data$outcomes <- outcomes
  data$rowNames <- as.character(outcomes$rowId)
  piecesChanged(data)
}

# One column: dense (values for every row, no rowId), indicator (rowIds without values) or
# sparse (rowIds with values); without rowIds and values, the intercept.
loadNewSqlCyclopsDataX <- function(object, covariateId, rowId = NULL, covariateValue = NULL,
                                   name = NULL, replace = FALSE, append = FALSE,
                                   forceSparse = FALSE) {
  data <- checkCyclopsData(object)
  if (is.null(rowId) && is.null(covariateValue)) {
    if (data$hasIntercept || length(data$ids) > 0) stop("The intercept must be loaded first, once")
    data$hasIntercept <- TRUE
    addColumns(data, covariateId, name %||% "(Intercept)", "intercept", NULL)
    return(piecesChanged(data))
  }
  if (!is.null(rowId) && anyDuplicated(rowId)) stop("Duplicate row ids for a covariate")
  type <- if (is.null(rowId)) "dense" else columnType(covariateValue, forceSparse)
  if (is.null(rowId)) rowId <- data$outcomes$rowId
  if (is.null(covariateValue)) covariateValue <- rep(1, length(rowId))
  entries <- data.frame(rowId = rowId, covariateId = covariateId, covariateValue = covariateValue)
  addColumns(data, covariateId, name %||% idText(covariateId), type, entries[entries$covariateValue != 0, ])
  piecesChanged(data)
}

# Several columns in coordinate form (covariateId, rowId, value), in order of first appearance;
# `append` adds entries to columns loaded before.
loadNewSqlCyclopsDataMultipleX <- function(object, covariateId, rowId, covariateValue = NULL,
                                           name = NULL, append = FALSE, forceSparse = FALSE) {
  data <- checkCyclopsData(object)
  if (is.null(covariateValue)) covariateValue <- rep(1, length(rowId))
  entries <- data.frame(rowId = rowId, covariateId = covariateId, covariateValue = covariateValue)
  if (anyDuplicated(entries[, c("rowId", "covariateId")])) stop("Duplicate row ids for a covariate")
  ids <- unique(covariateId)
  known <- idText(ids) %in% idText(data$ids)
  if (any(known) && !append) stop("Covariates already loaded: give append = TRUE")
  labels <- if (is.null(name)) idText(ids) else as.character(name)
  for (k in which(!known)) {
    values <- entries$covariateValue[idText(entries$covariateId) == idText(ids[k])]
    addColumns(data, ids[k], labels[k], columnType(values, forceSparse), NULL)
  }
  data$covariates <- rbind(data$covariates, entries[entries$covariateValue != 0, ])
  piecesChanged(data)
}

appendSqlCyclopsData <- function(object, oStratumId, oRowId, oY, oTime, cRowId, cCovariateId,
                                 cCovariateValue) {
  data <- checkCyclopsData(object)
  outcomes <- data.frame(rowId = oRowId, y = as.numeric(oY), stratumId = oStratumId,
                         time = as.numeric(oTime))
  data$outcomes <- rbind(data$outcomes[, intersect(names(data$outcomes), names(outcomes)), drop = FALSE],
                         outcomes)
  data$rowNames <- as.character(data$outcomes$rowId)
  loadNewSqlCyclopsDataMultipleX(data, cCovariateId, cRowId, cCovariateValue, append = TRUE)
  invisible(nrow(outcomes))
}

columnType <- function(values, forceSparse) {
  if (!forceSparse && (is.null(values) || all(values[values != 0] == 1))) "indicator" else "sparse"
}

addColumns <- function(data, id, name, type, entries) {
  data$ids <- c(data$ids, id)
  data$info <- rbind(data$info, data.frame(name = name, type = type))
  data$coefficientNames <- data$info$name
  if (!is.null(entries)) data$covariates <- rbind(data$covariates, entries)
}
