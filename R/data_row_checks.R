# The per-row checks every createData() route shares (outcomes, times, weights, offsets,
# Fine-Gray's censoring weights), run by assembleData() (R/data.R) before the engine sees a row.

# Per-row checks that every route shares; returns the cleaned vectors.
checkRows <- function(input, modelType) {
  n <- length(input$y)
  if (n == 0) stopf("the data have no rows")
  y <- checkNumericVector(input$y, "y", allowNull = FALSE)
  # The outcome and time checks are one engine pass each (data/value_checks.h): R's one-line
  # forms made up to four temporaries as long as the rows (SCCS 1e5 cases: 500,000 rows).
  outcomeSet <- switch(modelType, lr = , clr = , cox = "binary", pr = , cpr = , sccs = "count",
                       fgr = "competing", NULL)
  bad <- if (is.null(outcomeSet)) 0 else .Call(argus_first_outside_outcome_set, y, outcomeSet) + 1
  if (bad > 0)
    stopf(switch(outcomeSet,
                 binary = if (modelType == "cox")
                   "'y' must be 0 (censored) or 1 (event) for modelType '%s' (row %d is %g)"
                 else "'y' must be 0 or 1 for modelType '%s' (row %d is %g)",
                 count = "'y' must be a non-negative count for modelType '%s' (row %d is %g)",
                 competing = paste("'y' must be 0 (censored), 1 (event of interest) or 2",
                                   "(competing event) for modelType '%s' (row %d is %g)")),
          modelType, bad, y[bad])
  # one exposure for every row (time = 1, as the error below suggests) is recycled
  if (usesExposure(modelType) && is.numeric(input$time) && length(input$time) == 1 && n > 1)
    input$time <- rep(input$time, n)
  time <- checkNumericVector(input$time, "time", n)
  weights <- checkWeights(input$weights, "weights", n)
  survival <- if (isSurvivalModel(modelType)) checkSurvivalRows(input, time, y, n, modelType, weights)
  if (modelType %in% c("cox", "fgr")) {
    merged <- mergeNearTies(time, survival$startTime)
    time <- merged$time
    survival$startTime <- merged$start
  }
  if (!is.null(time) && !isSurvivalModel(modelType)) {
    if (!usesExposure(modelType)) {
      warning(sprintf("'time' is not used by modelType '%s' and is ignored", modelType),
              call. = FALSE)
      time <- NULL
    } else {
      checkExposure(time, "time")
    }
  }
  if (!isSurvivalModel(modelType)) {
    if (!is.null(input$startTime)) stopf("'startTime' is only for modelType 'cox'")
    if (!is.null(input$censoringSurvival)) stopf("'censoringSurvival' is only for modelType 'fgr'")
  }
  if (isConditionalModel(modelType) && is.null(input$stratumId))
    stopf("modelType '%s' needs a stratum for each row ('stratumId')", modelType)
  if (isConditionalModel(modelType)) checkWeightedEvents(y, weights, modelType)
  if (modelType %in% c("cpr", "sccs") && is.null(time))
    stopf(paste("modelType '%s' needs each row's exposure length in 'time' (a 'time' column of",
                "'outcomes', or the 'time' argument); if all rows have equal exposure, say so",
                "with time = 1 (one value serves every row)"), modelType)
  list(n = n, y = y, time = time, weights = weights,
       offset = checkNumericVector(input$offset, "offset", n), startTime = survival$startTime,
       censoringSurvival = survival$censoringSurvival)
}

# G is a function of time (per stratum): events tied at one time must share G(t-). Values
# from several censoring groups (crr's cengroup) would otherwise be taken row by row, which
# is neither the grouped nor the pooled estimator.
checkCensoringSurvivalOfTies <- function(g, time, y, stratumId) {
  events <- which(y == 1)
  if (length(events) < 2) return(invisible())
  s <- if (is.null(stratumId)) rep(0L, length(events)) else match(stratumKey(stratumId)[events], unique(stratumKey(stratumId)))
  t <- time[events]
  o <- order(s, t)
  tied <- diff(s[o]) == 0 & diff(t[o]) == 0
  same <- which(tied & abs(diff(g[events][o])) > 1e-12)
  if (length(same))
    stopf(paste("'censoringSurvival' must be one value per event time (within a stratum): rows",
                "%d and %d are events at time %g with %g and %g (censoring survival of",
                "several groups, as crr's cengroup, is not supported)"),
          events[o][same[1]], events[o][same[1] + 1], time[events[o][same[1]]],
          g[events[o][same[1]]], g[events[o][same[1] + 1]])
}

# G(t-) is a survival function: it does not rise with time (within a stratum), so that a
# competing row's weight G(t-) / G(time_r-) in the risk set of a later event time t is at
# most 1. One that rose (a competing row's G of 1e-300, later events' about 0.5) weighted that
# row 1e300 in every later risk set, where the sums lost every other row: two coefficients
# came back "cannot be estimated", with SUCCESS, 6.4 log-likelihood units below the maximum.
# Nor may it span more than 1e10 over the rows it weighs (events and competing rows) within
# a stratum: the risk-set sums then lose a late competing row's curvature to rounding (a G
# falling 1e-17-fold after the median time made a coefficient "aliased", with SUCCESS; at
# 1e-15 and above the fit was the maximum). Scaled as a whole, G changes nothing. (The
# engine refuses both too.) Values at one time may differ (ties are checked above).
checkCensoringSurvivalShape <- function(g, time, y, stratumId) {
  weighed <- which(y == 1 | y == 2)
  groups <- if (is.null(stratumId)) list(weighed) else split(weighed, stratumKey(stratumId)[weighed])
  for (rows in groups) {
    events <- rows[y[rows] == 1]
    competing <- rows[y[rows] == 2]
    if (length(events) == 0 || length(competing) == 0) next
    events <- events[order(time[events])]
    laterMax <- rev(cummax(rev(g[events])))  # the largest G of the events from each one on
    first <- findInterval(time[competing], time[events]) + 1L  # the first strictly later event
    has <- first <= length(events)
    rises <- laterMax[first[has]] > g[competing[has]] * (1 + 1e-12)
    if (!any(rises)) next
    r <- competing[has][rises][1]
    later <- events[time[events] > time[r]]
    e <- later[which.max(g[later])]
    stopf(paste("'censoringSurvival' must not rise with time (it is G(t-), the probability of",
                "remaining uncensored): the competing row %d (time %g) has %g, and the later",
                "event row %d (time %g) %g, which would weight row %d by %.3g in that risk set"),
          r, time[r], g[r], e, time[e], g[e], r, g[e] / g[r])
  }
  for (rows in groups) {
    if (length(rows) == 0) next
    hi <- rows[which.max(g[rows])]
    lo <- rows[which.min(g[rows])]
    if (g[hi] > 1e10 * g[lo])
      stopf(paste("'censoringSurvival' spans a ratio of %.3g among the event and competing rows%s",
                  "(row %d: %g; row %d: %g), beyond the 1e10 that the Fine-Gray risk-set sums carry",
                  "in double precision (scaling it as a whole changes nothing)"),
            g[hi] / g[lo], if (is.null(stratumId)) "" else " of a stratum", hi, g[hi], lo, g[lo])
  }
}

# Survival rows: event or censoring times, counting-process entry times, and (Fine-Gray)
# user-supplied censoring survival probabilities.
checkSurvivalRows <- function(input, time, y, n, modelType, weights = NULL) {
  if (is.null(time)) stopf("modelType '%s' needs the event or censoring 'time' of each row", modelType)
  # Any finite times: the likelihoods, the censoring distribution and the baseline hazard
  # depend on their order only (coxph and crr take negative times too: days from an index).
  start <- checkNumericVector(input$startTime, "startTime", n)
  if (!is.null(start)) {
    if (modelType != "cox") stopf("'startTime' (counting-process data) is for modelType 'cox' only")
    bad <- which(start >= time)
    if (length(bad))
      stopf("'startTime' must be before 'time' (row %d: startTime %s, time %s)", bad[1],
            format(start[bad[1]], digits = 17), format(time[bad[1]], digits = 17))  # 0.3 and 0.3 said nothing
  }
  g <- checkNumericVector(input$censoringSurvival, "censoringSurvival", n)
  if (!is.null(g)) {
    if (modelType != "fgr") stopf("'censoringSurvival' is for modelType 'fgr' only")
    bad <- which(g <= 0 | g > 1)
    if (length(bad))
      stopf("'censoringSurvival' must lie in (0, 1] (row %d is %g)", bad[1], g[bad[1]])
    checkCensoringSurvivalOfTies(g, time, y, input$stratumId)
    checkCensoringSurvivalShape(g, time, y, input$stratumId)
  }
  if (!any(y == 1)) stopf("no row has an event (y = 1): modelType '%s' has nothing to fit", modelType)
  checkWeightedEvents(y, weights, modelType)
  list(startTime = start, censoringSurvival = g)
}

# Cox times as coxph() takes them by default (timefix = TRUE): distinct values that differ by
# rounding alone (1.1 - 1e-16 against 1.1, say, from time arithmetic) are one time. Sorted,
# the distinct event, censoring and entry times are cut into runs wherever the gap exceeds
# sqrt(.Machine$double.eps), both absolutely and relative to the mean |time|; each value
# takes its run's first value. Entry times that then meet their exit are an error.
mergeNearTies <- function(time, start = NULL) {
  values <- sort(unique(c(time, start)))
  if (length(values) < 2) return(list(time = time, start = start))
  tolerance <- sqrt(.Machine$double.eps)
  gap <- diff(values)
  joined <- gap <= tolerance | gap / mean(abs(values)) <= tolerance
  if (!any(joined)) return(list(time = time, start = start))
  first <- values[c(TRUE, !joined)][cumsum(c(TRUE, !joined))]  # per distinct value
  time <- first[match(time, values)]
  if (!is.null(start)) {
    start <- first[match(start, values)]
    bad <- which(start >= time)
    if (length(bad))
      stopf(paste("row %d's startTime and time differ by rounding alone and are one time (as",
                  "coxph's timefix): give an interval of positive length"), bad[1])
  }
  list(time = time, start = start)
}

# Events with zero weight carry nothing: a survival or conditional fit needs one with a
# positive weight (a stratum's outcomes weigh its whole contribution).
checkWeightedEvents <- function(y, weights, modelType) {
  if (is.null(weights)) return(invisible())
  survival <- isSurvivalModel(modelType)
  event <- if (survival) y == 1 else y > 0
  if (any(event) && !any(event & weights > 0))
    stopf("every %s has weight 0: modelType '%s' has nothing to fit",
          if (survival) "event (y = 1)" else "row with an outcome (y > 0)", modelType)
}
