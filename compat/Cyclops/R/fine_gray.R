# Fine-Gray's censoring weights: the Kaplan-Meier estimate of remaining uncensored just
# before each row's time, G(time-), which the Argus engine takes as `censoringSurvival`.

#' Fine-Gray censoring weights
#'
#' The Kaplan-Meier estimate of the censoring distribution (rows whose status is `cencode`
#' are the "events"), weighted by `cvweights`, evaluated just before each row's time:
#' `G(ftime-)`, times `cvweights`. With the Fine-Gray status these are the weights of
#' `cmprsk::crr()` (its `uuu`); give them to [createCyclopsData()] as `censorWeights`.
#'
#' @param ftime Event or censoring times (non-negative).
#' @param fstatus Status of each row: `cencode` censored, `failcode` the event of interest,
#'   anything else a competing event.
#' @param cvweights Optional 0/1 weights (rows of weight 0 are left out of the estimate and
#'   get weight 0).
#' @param cencode,failcode The codes of censoring and of the event of interest.
#' @return A list: `surv`, a `Surv` object whose status is 0 censored, 1 the event and 2 a
#'   competing event; `weights`, the censoring weights.
#' @examples
#' w <- getFineGrayWeights(c(4, 3.5, 3, 2.5, 2), c(1, 2, 0, 2, 1))
#' w$weights
#' @export
getFineGrayWeights <- function(ftime, fstatus, cvweights = NULL, cencode = 0, failcode = 1) {
  if (is.null(cvweights)) cvweights <- rep(1, length(ftime))
  if (!all(cvweights %in% c(0, 1))) stop("Only 0/1 weights are currently supported")
  if (!cencode %in% unique(fstatus)) stop("cencode must be a valid value from fstatus")
  if (!failcode %in% unique(fstatus)) stop("failcode must be a valid value from fstatus")
  if (any(ftime < 0)) stop("all values of ftime must be positive valued")
  censored <- as.numeric(fstatus == cencode)
  status <- ifelse(fstatus == failcode, 1, 2 * (1 - censored))
  surv <- survival::Surv(ftime, status > 0)
  surv[, 2] <- status
  list(surv = surv, weights = cvweights * censoringBefore(ftime, censored, cvweights))
}

# G(t-) at each t: the weighted Kaplan-Meier survival of the censoring times strictly before t.
censoringBefore <- function(ftime, censored, weights) {
  keep <- weights > 0
  km <- survival::survfit(survival::Surv(ftime[keep], censored[keep]) ~ 1, weights = weights[keep])
  before <- findInterval(ftime, km$time, left.open = TRUE)
  c(1, km$surv)[before + 1]
}

# The censoring weights a Fine-Gray fit of these data uses: those given, else computed.
fineGrayCensoring <- function(data) {
  if (!is.null(data$censorWeights)) return(withoutZeros(data$censorWeights, data$outcomes$time))
  y <- data$outcomes$y
  if (!any(y == 0)) return(rep(1, length(y)))
  censoringBefore(data$outcomes$time, as.numeric(y == 0), rep(1, length(y)))
}

# getFineGrayWeights(cvweights =) gives 0 to rows left out of the estimate (they get weight 0
# in the fit too); the engine needs a probability for every row: such a row takes the value
# of the first row kept at or after its time (G(t-) is constant between kept rows' times).
withoutZeros <- function(weights, time) {
  zero <- weights == 0
  if (!any(zero) || all(zero)) return(weights)
  kept <- order(time[!zero])
  keptTimes <- time[!zero][kept]
  keptValues <- weights[!zero][kept]
  following <- findInterval(time[zero], keptTimes, left.open = TRUE) + 1
  weights[zero] <- ifelse(following > length(keptValues), min(keptValues),
                          keptValues[pmin(following, length(keptValues))])
  weights
}
