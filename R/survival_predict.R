# Survival probabilities (cox) and cumulative incidences (fgr) of rows, from the fit's
# cumulative baseline hazard. The engine gives the hazard's jumps at the fitted coefficients
# (src/engine/models/survival_baseline.h: the likelihood's own risk sets, weights and ties
# rule); this file sums them per stratum and finds each row's stratum.

#' Cumulative baseline hazard of a survival fit
#'
#' The cumulative baseline hazard `H0(t)` of a `"cox"` fit, or the cumulative baseline
#' subdistribution hazard of a `"fgr"` fit, per stratum, at the fitted coefficients, with
#' the fit's weights. It is the baseline of a row whose linear predictor is 0 (no centering
#' at the covariate means), so a row with linear predictor `eta` (see [predict.argusFit()],
#' offsets included) has survival `exp(-H0(t) exp(eta))` (cox) or cumulative incidence
#' `1 - exp(-H0(t) exp(eta))` (fgr).
#'
#' At each distinct event time `t` of a stratum, with `d` the weighted number of events
#' there and `den` the weighted sum of `exp(eta)` over the risk set at `t`, the hazard jumps
#' by
#' \describe{
#'   \item{Breslow ties (cox), fgr}{`d / den` (Breslow's estimator): for cox this equals
#'     `survival::basehaz(coxph_fit, centered = FALSE)` (with an `offset()` in the model, that
#'     one is `exp(mean offset)` times larger, the mean weighted with the fit's weights: `coxph` centres the offset); for fgr, with Fine-Gray's risk set
#'     (competing events kept at risk with weight `G(t-) / G(time-)`), `cmprsk::crr()`'s
#'     `bfitj`, from which `predict.crr()` builds its cumulative incidences.}
#'   \item{Efron ties (cox)}{`d / m` times the sum over `k = 0, ..., m - 1` of
#'     `1 / (den - (k / m) F)`, with `m` tied events and `F` their share of `den`: the
#'     tie-corrected hazard that `survival::survfit.coxph()` uses for an Efron fit.}
#' }
#'
#' @param fit An `argusFit` of modelType `"cox"` or `"fgr"`.
#' @return A data frame with one row per distinct event time of each stratum: `time`,
#'   `hazard` (cumulative, including the jump at `time`) and, when the data have strata,
#'   `stratum` (the stratum's value as text; the values of several `strata()` variables
#'   joined by `", "`, e.g. `"1, 0"`).
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' time <- ceiling(rexp(100, 0.1 * exp(x[, 1])))
#' fit <- fitModel(createData(x = x, y = rbinom(100, 1, 0.7), time = time, modelType = "cox"))
#' head(baselineHazard(fit))
#' @export
baselineHazard <- function(fit) {
  checkFitForInference(fit, "baselineHazard()")
  if (!isSurvivalModel(fit$modelType))
    stopf("baselineHazard() is for modelType 'cox' or 'fgr', not '%s'", fit$modelType)
  jumps <- baselineJumps(fit)
  out <- data.frame(time = jumps$time,
                    hazard = stats::ave(jumps$jump, jumps$stratum, FUN = cumsum))
  labels <- stratumLabelsOf(fit)
  keep <- jumps$jump > 0
  if (!is.null(labels)) {
    out$stratum <- displayStrata(labels)[jumps$stratum]
    # strata in survival's order (as survfit() lists them), each by time
    keep <- which(keep)[order(survivalStratumPosition(fit)[jumps$stratum[keep]], jumps$time[keep])]
  }
  # Times whose events all have weight 0 add nothing: leave them out, as if those rows
  # were not in the data.
  out <- out[keep, , drop = FALSE]
  rownames(out) <- NULL
  out
}

baselineJumps <- function(fit) {
  .Call(argus_baseline_hazard, fit$data, engineSettings(fit), unname(fit$coefficients))
}

# The fit's stratum labels, NULL without strata.
stratumLabelsOf <- function(fit) {
  labels <- fit$data$stratumLabels
  if (is.null(labels) && fit$data$nStrata > 0)
    stopf("this fit has strata but no stratum labels (made by an older version?): refit it")
  labels
}

# Cumulative baseline hazard of every stratum (rows) at `times` (columns): a right-continuous
# step function, 0 before the first event time.
baselineAt <- function(fit, times) {
  jumps <- baselineJumps(fit)
  nStrata <- length(fit$data$stratumStart) - 1L
  out <- matrix(0, nStrata, length(times))
  bySlot <- split(seq_along(jumps$jump), factor(jumps$stratum, levels = seq_len(nStrata)))
  for (s in seq_len(nStrata)) {
    at <- bySlot[[s]]
    if (length(at) == 0) next
    cumulative <- c(0, cumsum(jumps$jump[at]))
    out[s, ] <- cumulative[findInterval(times, jumps$time[at]) + 1L]
  }
  out
}

# The fit's stratum (1-based) of each row from the rows' stratum labels; NA, with a warning,
# for a stratum the fit does not have (none of its rows, or dropped for having no events).
rowStrata <- function(fit, keys, n) {
  labels <- stratumLabelsOf(fit)
  if (is.null(labels)) return(rep(1L, n))
  if (is.null(keys))
    stopf(paste("this fit has strata: give each row's stratum ('stratumId', a 'stratumId'",
                "column of 'outcomes', the strata() variables of the formula in 'newdata',",
                "or an argusData object made with strata)"))
  at <- match(keys, labels)
  unknown <- !is.na(keys) & is.na(at)
  if (any(unknown))
    warning(sprintf("%d row(s) in strata the fit does not have (e.g. '%s'): predictions set to NA",
                    sum(unknown), displayStrata(keys[unknown][1])), call. = FALSE)
  at
}

# A stratum key as text for people: the values of several strata() variables are kept apart
# by a carriage return inside the key (pasteStrata), which printed overwrites the line.
displayStrata <- function(keys) gsub("\r", ", ", keys, fixed = TRUE)

# predict(type = "survival" | "cumulativeIncidence"): one row per row, one column per time.
survivalScale <- function(fit, rows, times, type) {
  # without times: every event time of the fit (where the curves step)
  if (is.null(times)) times <- sort(unique(baselineHazard(fit)$time))
  times <- checkNumericVector(times, "times", allowNull = FALSE)
  if (length(times) == 0) stopf("'times' must hold at least one time")
  checkMemory(32 * as.double(length(rows$link)) * length(times),
              sprintf("%s predictions for %d rows at %d times", type, length(rows$link), length(times)))
  stratum <- rowStrata(fit, rows$strata, length(rows$link))
  cumulative <- baselineAt(fit, times)[stratum, , drop = FALSE] * exp(rows$link)
  out <- if (type == "survival") exp(-cumulative) else -expm1(-cumulative)
  dimnames(out) <- list(names(rows$link), as.character(times))
  out
}
