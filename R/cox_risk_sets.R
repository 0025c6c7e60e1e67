# Risk-set sums of a Cox fit at its event times, and the per-row residuals built from them
# (martingale, score, Schoenfeld). These are O(N p) cumulative sums over the rows sorted by
# time within each stratum, so R computes them from the fit's linear predictor; the engine
# is not needed beyond eta.
#
# With r = exp(eta), w the weights, at an event time t of a stratum: S0 = sum of w r over the
# risk set (start < t <= stop), S1 the same sum of w r x, d the weighted number of events,
# m the number of positively weighted events, F0 and F1 the events' share of S0 and S1.
# Breslow: one hazard jump dL = d / S0 with mean xbar = S1 / S0. Efron: m sub-steps
# k = 0..m-1 with denominators S0 - (k/m) F0, jumps (d/m) / (S0 - (k/m) F0) and means
# (S1 - (k/m) F1) / (S0 - (k/m) F0); an event row is at risk for a fraction (1 - k/m) of
# sub-step k, every other row of the risk set for all of it (the terms coxph uses for its
# residuals and survfit.coxph for an Efron fit).

coxEventTable <- function(rows, X, ties) {
  w <- rows$weights
  r <- exp(rows$eta)
  wr <- w * r
  p <- ncol(X)
  Xd <- as.matrix(X)
  event <- rows$y == 1 & w > 0
  out <- list()
  # rows of each stratum found once (a which() per stratum would be quadratic in the strata)
  byStratum <- split(seq_along(rows$stratum), rows$stratum)
  for (s in names(byStratum)) {
    inS <- byStratum[[s]]
    ev <- inS[event[inS]]
    if (length(ev) == 0) next
    times <- sort(unique(rows$time[ev]))
    # sums over rows with stop >= t, minus rows with start >= t (entered later)
    S0 <- tailSums(rows$time[inS], wr[inS], times)
    S1 <- tailSums(rows$time[inS], Xd[inS, , drop = FALSE] * wr[inS], times)
    if (!is.null(rows$start)) {
      S0 <- S0 - tailSums(rows$start[inS], wr[inS], times)
      S1 <- S1 - tailSums(rows$start[inS], Xd[inS, , drop = FALSE] * wr[inS], times)
    }
    slot <- match(rows$time[ev], times)
    d <- as.vector(rowsum(w[ev], slot, reorder = TRUE))
    m <- tabulate(slot, length(times))
    F0 <- as.vector(rowsum(wr[ev], slot, reorder = TRUE))
    F1 <- rowsum(Xd[ev, , drop = FALSE] * wr[ev], slot, reorder = TRUE)
    out[[length(out) + 1]] <- c(list(stratum = as.integer(s), rows = inS, time = times, d = d,
                                     m = m, S0 = S0, S1 = S1),
                                efronSteps(d, m, S0, S1, F0, F1, ties))
  }
  out
}

# Sums of `v` (vector or matrix rows) over the rows with key >= t, for each t in `times`:
# with stop times, the rows still at risk at t; with entry times, the rows that enter at t or
# later and so are not yet at risk (the risk set is start < t <= stop).
tailSums <- function(key, v, times) {
  o <- order(key)
  below <- findInterval(times, key[o], left.open = TRUE)  # rows with key < t
  if (is.matrix(v)) {
    cs <- rbind(apply(v[o, , drop = FALSE], 2, function(col) rev(cumsum(rev(col)))), 0)
    cs[below + 1, , drop = FALSE]
  } else {
    cs <- c(rev(cumsum(rev(v[o]))), 0)
    cs[below + 1]
  }
}

# Per event time: hazard jumps and x-weighted jumps for rows at risk that are not events at t
# (H1, G1) and for the events at t (H2, G2), and the mean over sub-steps of the risk-set mean
# (xbar: what a Schoenfeld residual subtracts), and the variance of the hazard increment V1
# (d / S0^2, Efron: sum of (d/m) / den_k^2).
efronSteps <- function(d, m, S0, S1, F0, F1, ties) {
  if (ties != "efron") {
    H <- d / S0
    xbar <- S1 / S0
    return(list(H1 = H, H2 = H, G1 = xbar * H, G2 = xbar * H, xbar = xbar, V1 = d / S0^2))
  }
  # a time with one event has one sub-step, Breslow's: only tied times need the loop
  single <- efronSteps(d, m, S0, S1, F0, F1, "breslow")
  H1 <- H2 <- single$H1
  G1 <- G2 <- single$G1
  V1 <- single$V1
  xbar <- single$xbar
  for (e in which(m > 1)) {
    f <- (seq_len(m[e]) - 1) / m[e]
    den <- S0[e] - f * F0[e]
    jump <- (d[e] / m[e]) / den
    means <- (matrix(S1[e, ], m[e], ncol(S1), byrow = TRUE) -
              outer(f, F1[e, ])) / den
    H1[e] <- sum(jump)
    H2[e] <- sum((1 - f) * jump)
    V1[e] <- sum(jump / den)  # the variance of the hazard increment, as survfit.coxph
    G1[e, ] <- colSums(jump * means)
    G2[e, ] <- colSums((1 - f) * jump * means)
    xbar[e, ] <- colMeans(means)
  }
  list(H1 = H1, H2 = H2, G1 = G1, G2 = G2, xbar = xbar, V1 = V1)
}

# Martingale, score and Schoenfeld residuals of every row (internal order), unweighted as
# residuals.coxph gives them by default. `X` holds the columns the score residuals are for.
coxResidualParts <- function(fit, X = designColumns(fit$data, estimatedColumns(fit))) {
  rows <- fitRows(fit)
  table <- coxEventTable(rows, X, fit$data$ties)
  n <- length(rows$eta)
  Xd <- as.matrix(X)
  r <- exp(rows$eta)
  event <- rows$y == 1 & rows$weights > 0
  # A row of weight 0 is not in the fit, but its residuals are still its own: its event counts
  # (martingale 1 - expected, not 0 - expected: residuals of rows held out at weight 0 lost
  # their events), and it is at risk as any row that is not one of the fit's events at its
  # time, its own event term against the risk set's mean there (heldOutEventMeans()).
  heldOut <- rows$y == 1 & rows$weights == 0
  martingale <- as.numeric(rows$y == 1)
  score <- Xd * as.numeric(rows$y == 1)
  schoenfeld <- matrix(NA_real_, n, ncol(Xd), dimnames = list(NULL, colnames(Xd)))
  for (tab in table) {
    inS <- tab$rows
    # cumulative sums over event times: a row at risk on (start, stop] collects the slots
    # with start < t <= stop
    cumH <- c(0, cumsum(tab$H1))
    cumG <- rbind(0, apply(tab$G1, 2, cumsum))
    upTo <- findInterval(rows$time[inS], tab$time)
    from <- if (is.null(rows$start)) rep(0L, length(inS)) else findInterval(rows$start[inS], tab$time)
    H <- cumH[upTo + 1] - cumH[from + 1]
    G <- cumG[upTo + 1, , drop = FALSE] - cumG[from + 1, , drop = FALSE]
    # an event row's own time: the Efron fraction (1 - k/m) instead of the full step
    isEvent <- event[inS]
    at <- match(rows$time[inS][isEvent], tab$time)
    H[isEvent] <- H[isEvent] - tab$H1[at] + tab$H2[at]
    G[isEvent, ] <- G[isEvent, , drop = FALSE] - tab$G1[at, , drop = FALSE] + tab$G2[at, , drop = FALSE]
    martingale[inS] <- martingale[inS] - r[inS] * H
    score[inS, ] <- score[inS, , drop = FALSE] - Xd[inS, , drop = FALSE] * (r[inS] * H) + G * r[inS]
    score[inS[isEvent], ] <- score[inS[isEvent], , drop = FALSE] - tab$xbar[at, , drop = FALSE]
    schoenfeld[inS[isEvent], ] <- Xd[inS[isEvent], , drop = FALSE] - tab$xbar[at, , drop = FALSE]
  }
  if (any(heldOut)) {
    held <- which(heldOut)
    score[held, ] <- score[held, , drop = FALSE] - heldOutEventMeans(rows, Xd, r, table, held)
  }
  colnames(score) <- colnames(Xd)
  list(martingale = martingale, score = score, schoenfeld = schoenfeld, event = event,
       table = table)
}

# For rows of weight 0 with an event (`held`), the mean of x that their event is measured
# against: the fit's own mean at that time where the time is one of its event times (Efron's
# mean over sub-steps), else the risk set's weighted mean there, sum w r x / sum w r over the
# rows of the stratum with start < t <= stop. One row per held row.
heldOutEventMeans <- function(rows, Xd, r, table, held) {
  out <- matrix(0, length(held), ncol(Xd))
  wr <- rows$weights * r
  tableStrata <- vapply(table, function(tab) tab$stratum, 0L)
  for (s in unique(rows$stratum[held])) {
    mine <- which(rows$stratum[held] == s)
    t <- rows$time[held[mine]]
    inS <- which(rows$stratum == s)
    # at risk at t: stop >= t, less those entering at t or later (start >= t)
    s0 <- tailSums(rows$time[inS], wr[inS], t)
    s1 <- tailSums(rows$time[inS], Xd[inS, , drop = FALSE] * wr[inS], t)
    if (!is.null(rows$start)) {
      s0 <- s0 - tailSums(rows$start[inS], wr[inS], t)
      s1 <- s1 - tailSums(rows$start[inS], Xd[inS, , drop = FALSE] * wr[inS], t)
    }
    means <- s1 / ifelse(s0 > 0, s0, NA_real_)
    means[is.na(means)] <- 0
    tab <- table[match(s, tableStrata)][[1]]
    at <- if (is.null(tab)) rep(NA_integer_, length(t)) else match(t, tab$time)
    if (any(!is.na(at))) means[!is.na(at), ] <- tab$xbar[at[!is.na(at)], , drop = FALSE]
    out[mine, ] <- means
  }
  out
}

# Estimated (not fixed) coefficients: the columns residuals and variances are about.
estimatedColumns <- function(fit) which(!fit$fixed)
