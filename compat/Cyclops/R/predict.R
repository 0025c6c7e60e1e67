# Predictions of a Cyclops fit (Argus's predict() at the estimates of fit$estimation), and
# the incumbent's Breslow ("aalen") survival curve of a Cox fit.

# The Argus fit at the coefficients of fit$estimation (code may have adjusted them there).
argusAtEstimates <- function(object) {
  fit <- argusFitOf(object)
  estimates <- object$estimation$estimate
  if (!identical(unname(fit$coefficients), estimates)) fit$coefficients[] <- estimates
  fit
}

#' Predictions of a Cyclops fit
#'
#' For the fitted rows (no new data): the probability for `"lr"`, the expected count
#' (exposure times rate) for `"pr"`, the linear predictor for `"ls"`, `"cox"`, `"fgr"` and
#' `"clr"`, and the linear predictor plus log exposure for `"cpr"`, as the incumbent gives
#' them. For new rows (`newOutcomes` with `rowId` and, for `"pr"`, `time`; `newCovariates`
#' in the long layout, data frames or database tables alike): the probability (`"lr"`) or
#' the expected count (`"pr"`); covariates the model does not have count as 0, as do rows
#' without covariates. Predictions are named by `rowId` and sorted by it (formula data:
#' named by row name, in the data's order). The estimates are those in `fit$estimation`.
#'
#' @param object A `cyclopsFit`.
#' @param newOutcomes,newCovariates New rows (both or neither).
#' @param ... Not used.
#' @return A named numeric vector.
#' @examples
#' fit <- fitCyclopsModel(createCyclopsData(am ~ wt, data = mtcars, modelType = "lr"))
#' head(predict(fit))
#' @method predict cyclopsFit
#' @export
predict.cyclopsFit <- function(object, newOutcomes, newCovariates, ...) {
  if (!missing(newOutcomes) && (missing(newCovariates) || is.null(newCovariates)))
    stop("Need to specify both newOutcomes and newCovariates")
  if (!missing(newCovariates) && (missing(newOutcomes) || is.null(newOutcomes)))
    stop("Need to specify both newOutcomes and newCovariates")
  data <- object$cyclopsData
  fit <- argusAtEstimates(object)
  if (missing(newOutcomes)) return(fittedRows(fit, data))
  modelType <- data$modelType
  if (modelType == "cox") stop("Prediction for Cox models not implemented")
  if (isConditionalType(modelType)) stop("Prediction for conditional models not implemented")
  if (isDatabaseTable(newOutcomes) != isDatabaseTable(newCovariates))
    stop("`newCovariates` and `newOutcomes` must be of the same type")
  outcomes <- newOutcomes
  keep <- intersect(c("rowId", if (modelType == "pr") "time"), colnames(outcomes))
  if (isDatabaseTable(outcomes)) outcomes <- dplyr::collect(dplyr::select(outcomes, dplyr::all_of(keep)))
  outcomes <- as.data.frame(outcomes)[, keep, drop = FALSE]
  covariates <- modelCovariates(newCovariates, data)
  value <- stats::predict(fit, newdata = covariates, outcomes = outcomes, type = "response")
  value <- stats::setNames(as.numeric(value), idText(outcomes$rowId))
  value[order(outcomes$rowId)]
}

# New covariates restricted to the model's covariates (others count as 0, as the
# incumbent's join with the coefficients leaves them out).
modelCovariates <- function(covariates, data) {
  ids <- data$ids
  ids <- ids[data$info$name != "(Intercept)"]
  if (isDatabaseTable(covariates)) {
    covariates <- dplyr::select(covariates, "rowId", "covariateId", "covariateValue")
    return(dplyr::filter(covariates, covariateId %in% !!as.numeric(idText(ids))))
  }
  covariates <- as.data.frame(covariates)[, c("rowId", "covariateId", "covariateValue")]
  covariates[idText(covariates$covariateId) %in% idText(ids), , drop = FALSE]
}

# The incumbent's predictions of the fitted rows.
fittedRows <- function(fit, data) {
  type <- switch(data$modelType, lr = , pr = "response", "link")
  value <- as.numeric(stats::predict(fit, type = type))
  if (data$modelType %in% c("cpr", "sccs")) value <- value + log(data$outcomes$time)
  if (!isTRUE(data$formula)) {
    ids <- data$outcomes$rowId
    return(stats::setNames(value, idText(ids))[order(ids)])
  }
  stats::setNames(value, data$rowNames)
}

#' Mean linear predictor of a Cyclops fit
#'
#' The linear predictor `x' beta` (without offsets) averaged over the fitted rows.
#'
#' @param cyclopsFit A `cyclopsFit`.
#' @return A number.
#' @export
meanLinearPredictor <- function(cyclopsFit) {
  fit <- argusAtEstimates(cyclopsFit)
  offset <- cyclopsFit$cyclopsData$outcomes$offset %||% 0
  mean(as.numeric(stats::predict(fit, type = "link")) - offset)
}

#' Baseline survival of a Cox fit
#'
#' `survfit(fit, type = "aalen")`: the survival curve at the mean linear predictor of the
#' fitted rows, from the Breslow estimate of the baseline hazard: `exp(-H0(t) exp(m))`, at
#' every distinct time of the data, as `survfit(coxph(..., ties = "breslow"))` gives it for
#' covariates centred at their means (`nocenter = NULL`). Weighted fits use the weighted
#' Breslow estimate and the weighted mean, as `survfit.coxph` does (the incumbent ignored the
#' weights here). Stratified fits have a curve per stratum: use `Argus::survfit()` on
#' `fit$argusFit` for those.
#'
#' @param formula A `cyclopsFit` of a `"cox"` model (the generic's argument name).
#' @param type `"aalen"`.
#' @param ... Not used.
#' @return A list with `time` and `surv`.
#' @method survfit cyclopsFit
#' @export
survfit.cyclopsFit <- function(formula, type = "aalen", ...) {
  object <- formula
  if (type != "aalen") stopf("survfit(type = \"%s\"): only type = \"aalen\" is available", type)
  data <- object$cyclopsData
  if (data$modelType != "cox") stop("survfit() is for Cox fits")
  if (!is.null(data$outcomes$stratumId) && length(unique(data$outcomes$stratumId)) > 1)
    stop("survfit(type = \"aalen\") of a stratified fit: use survival::survfit(fit$argusFit)")
  fit <- argusAtEstimates(object)
  hazard <- Argus::baselineHazard(fit)
  times <- sort(unique(data$outcomes$time))
  cumulative <- c(0, hazard$hazard)[findInterval(times, hazard$time) + 1]
  weights <- fit$weights %||% rep(1, nrow(data$outcomes))
  centre <- stats::weighted.mean(as.numeric(stats::predict(fit, type = "link")), weights)
  list(time = times, surv = exp(-cumulative * exp(centre)))
}
