# The Cox partial likelihood taken apart by event time, for every stratum at once: at each
# distinct (stratum, event time) the share of the score, the share of the information (the
# risk-weighted covariance of the covariates) and the mean that a Schoenfeld residual
# subtracts. The proportional-hazards test (R/proportional_hazards.R) weights these shares by a
# function of time. Everything is cumulative sums over rows sorted once, O(N log N + N p^2) for
# N rows and p covariates, with no loop over strata (matched sets can number 1e5).
#
# R/cox_risk_sets.R computes the same risk sets stratum by stratum for the residuals, without
# the second moments; the information needs those, and a loop over 1e5 strata would dominate.
#
# With r = exp(eta) and w the weights, at event time t of a stratum: S0, S1, S2 are the sums
# of w r, w r x and w r x x' over the risk set (start < t <= stop), F0, F1, F2 the same over
# the events at t, E1 the sum of w x over the events, d their weight and m their number.
# Efron's approximation takes m sub-steps k = 0..m-1 with the events at t counted with
# fraction f = k/m removed: denominator S0 - f F0, mean (S1 - f F1) / (S0 - f F0), each
# sub-step carrying d/m of the events' weight; Breslow is the single step f = 0 carrying d.
# Summed over sub-steps, with c = d/m:
#   score share        E1 - (S1 A0 - F1 A1)
#   information share  S2 A0 - F2 A1 - (S1 S1' B0 - (S1 F1' + F1 S1') B1 + F1 F1' B2)
#   Schoenfeld mean    (S1 A0 - F1 A1) / d
# where A0 = sum c/den, A1 = sum c f/den, B0 = sum c/den^2, B1 = sum c f/den^2,
# B2 = sum c f^2/den^2. The information share is the sub-steps' covariances sum c V_k in
# moment form; the covariates should be centred first (coxTimeMoments() callers centre them)
# so that the moments do not cancel.

# `rows`: stratum (integer codes), time (stop), start (NULL when right-censored), event
# (logical), weights, eta, for the rows in the fit (positive weights). `X`: a dense matrix of
# the covariates, one row per row. Returns the groups (one per distinct stratum and event time,
# sorted by stratum and time) and, per group, d, score (G x p), xbar (G x p) and information
# (G x p(p+1)/2, the columns of `pairs`: i <= j).
coxTimeMoments <- function(rows, X, ties) {
  groups <- eventTimeGroups(rows)
  # risk weights scaled within each stratum (ratios in a stratum are all that count), so that
  # the sums over sorted rows, which run across strata, keep their precision
  wr <- rows$weights * exp(rows$eta - stratumMaximum(rows$eta, rows$stratum))
  atRisk <- riskSetSummer(rows, groups)
  ev <- groups$events
  byGroup <- function(v) as.vector(rowsum(v, groups$of, reorder = TRUE))
  p <- ncol(X)
  pairs <- which(upper.tri(diag(p), diag = TRUE), arr.ind = TRUE)
  S0 <- atRisk(wr)
  F0 <- byGroup(wr[ev])
  d <- byGroup(rows$weights[ev])
  m <- tabulate(groups$of, length(groups$time))
  tie <- tieSums(S0, F0, d, m, ties)
  S1 <- F1 <- E1 <- matrix(0, length(S0), p)
  for (j in seq_len(p)) {
    S1[, j] <- atRisk(wr * X[, j])
    F1[, j] <- byGroup(wr[ev] * X[ev, j])
    E1[, j] <- byGroup(rows$weights[ev] * X[ev, j])
  }
  meanPart <- S1 * tie$A0 - F1 * tie$A1  # d times the Schoenfeld mean
  information <- matrix(0, length(S0), nrow(pairs))
  for (k in seq_len(nrow(pairs))) {
    i <- pairs[k, 1]
    j <- pairs[k, 2]
    xx <- X[, i] * X[, j]
    S2 <- atRisk(wr * xx)
    F2 <- byGroup(wr[ev] * xx[ev])
    information[, k] <- S2 * tie$A0 - F2 * tie$A1 -
      (S1[, i] * S1[, j] * tie$B0 - (S1[, i] * F1[, j] + F1[, i] * S1[, j]) * tie$B1 +
         F1[, i] * F1[, j] * tie$B2)
  }
  list(groups = groups, d = d, score = E1 - meanPart, xbar = meanPart / d,
       information = information, pairs = pairs)
}

# Sums of the information shares, each weighted by `weight` (one per group), as a p x p matrix.
informationMatrix <- function(moments, weight = 1) {
  p <- ncol(moments$score)
  out <- matrix(0, p, p)
  out[moments$pairs] <- colSums(moments$information * weight)
  out[moments$pairs[, 2:1, drop = FALSE]] <- out[moments$pairs]
  out
}

# One group per distinct (stratum, event time), sorted by stratum and time: `of` gives each
# event's group, `events` the events (row positions, in the same order as `of`), `first` one
# event row of each group.
eventTimeGroups <- function(rows) {
  events <- which(rows$event)
  if (length(events) == 0) stopf("the fit has no events of positive weight")
  o <- order(rows$stratum[events], rows$time[events])
  events <- events[o]
  s <- rows$stratum[events]
  t <- rows$time[events]
  starts <- c(TRUE, s[-1] != s[-length(s)] | t[-1] != t[-length(t)])
  list(events = events, of = cumsum(starts), first = events[starts], stratum = s[starts],
       time = t[starts])
}

# A function that sums a per-row vector over each group's risk set: rows of the group's stratum
# with stop >= t, less those with start >= t (not yet entered). Rows are keyed by
# stratum * K + rank of the time, so that one sort covers every stratum and a group's risk set
# is a run of keys in [stratum * K + rank(t), (stratum + 1) * K).
riskSetSummer <- function(rows, groups) {
  times <- sort(unique(c(rows$time, rows$start, groups$time)))
  K <- length(times) + 1
  from <- as.numeric(groups$stratum) * K + match(groups$time, times)
  to <- (as.numeric(groups$stratum) + 1) * K
  run <- function(timeOfRow) {
    key <- as.numeric(rows$stratum) * K + match(timeOfRow, times)
    o <- order(key)
    sorted <- key[o]
    list(order = o, below = findInterval(from, sorted, left.open = TRUE),
         end = findInterval(to, sorted, left.open = TRUE))
  }
  stopRun <- run(rows$time)
  startRun <- if (!is.null(rows$start)) run(rows$start)
  sumOver <- function(r, v) {
    prefix <- c(0, cumsum(v[r$order]))
    prefix[r$end + 1] - prefix[r$below + 1]
  }
  function(v) {
    out <- sumOver(stopRun, v)
    if (!is.null(startRun)) out <- out - sumOver(startRun, v)
    out
  }
}

# The Efron sub-step sums A0, A1, B0, B1, B2 per group (Breslow: one step, f = 0).
tieSums <- function(S0, F0, d, m, ties) {
  if (ties != "efron") m <- rep(1L, length(m))
  group <- rep(seq_along(m), m)
  f <- (sequence(m) - 1) / m[group]
  den <- S0[group] - f * F0[group]
  share <- d[group] / m[group]
  total <- function(v) as.vector(rowsum(v, group, reorder = TRUE))
  list(A0 = total(share / den), A1 = total(share * f / den), B0 = total(share / den^2),
       B1 = total(share * f / den^2), B2 = total(share * f^2 / den^2))
}

# Each row's stratum maximum of `eta`.
stratumMaximum <- function(eta, stratum) {
  o <- order(stratum, -eta)
  top <- o[!duplicated(stratum[o])]
  eta[top][match(stratum, stratum[top])]
}
