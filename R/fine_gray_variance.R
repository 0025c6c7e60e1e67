# Per-row score contributions of a Fine-Gray fit for its robust variance, as cmprsk::crr
# computes its `var` (Fine and Gray 1999, section 4): eta_i, the row's share of the score of
# the weighted pseudo-likelihood, plus psi_i, the effect of the row on the Kaplan-Meier
# estimate G of the censoring distribution that the weights G(t-) / G(X_j-) use. With r =
# exp(linear predictor), event times t_k, risk-set sums S0, S1 (competing rows weighted),
# means zbar_k = S1 / S0 and hazard jumps dL_k = d_k / S0:
#   eta_i = [event] (z_i - zbar(X_i)) - sum_k w_i(t_k) r_i dL_k (z_i - zbar_k),
#   q(u)  = sum over competing j with X_j < u of r_j / G(X_j-) sum_{t_k >= u} G(t_k-) dL_k (z_j - zbar_k),
#   psi_i = [censored] q(X_i) / pi(X_i) - sum_{censoring times u <= X_i} q(u) c(u) / pi(u)^2,
# pi(u) the rows with X >= u and c(u) those censored at u. Everything is a cumulative sum over
# sorted times, O(N p).

fineGrayScores <- function(fit, X) {
  Z <- as.matrix(X)
  sets <- fineGrayRiskSets(fit)
  r <- sets$r
  time <- sets$time
  event <- sets$event
  competing <- sets$competing
  censored <- sets$censored
  censorTimes <- sets$censorTimes
  atRiskCensor <- sets$atRiskCensor
  nCensored <- sets$nCensored
  GX <- sets$GX
  tk <- sets$tk
  Gk <- sets$Gk
  ratio <- sets$ratio
  S0 <- sets$S0
  dL <- sets$dL
  zbar <- fineGrayMeans(sets, Z)
  upTo <- findInterval(time, tk)               # event times t_k <= X_i
  A <- c(0, cumsum(dL))[upTo + 1]
  B <- rbind(0, apply(zbar * dL, 2, cumsum))[upTo + 1, , drop = FALSE]
  GdL <- Gk * dL
  C <- c(0, cumsum(GdL))
  D <- rbind(0, apply(zbar * GdL, 2, cumsum))
  Cafter <- C[length(C)] - C[upTo + 1]         # t_k > X_i
  Dafter <- sweep(-D[upTo + 1, , drop = FALSE], 2, D[nrow(D), ], "+")
  eta <- -(Z * (r * A) - B * r)
  eta[event, ] <- eta[event, , drop = FALSE] + Z[event, , drop = FALSE] -
    zbar[match(time[event], tk), , drop = FALSE]
  eta[competing, ] <- eta[competing, , drop = FALSE] -
    (Z[competing, , drop = FALSE] * Cafter[competing] - Dafter[competing, , drop = FALSE]) *
    (r / GX)[competing]
  # Without censored rows G is 1 throughout and has no effect to add (the sums below over no
  # censoring times are empty: R's arithmetic on them stopped with "non-conformable arrays")
  if (!any(censored)) return(eta)
  # q(u) at the censoring times
  fromU <- findInterval(censorTimes, tk, left.open = TRUE)  # t_k < u: t_k >= u are after
  Ctail <- C[length(C)] - C[fromU + 1]
  Dtail <- sweep(-D[fromU + 1, , drop = FALSE], 2, D[nrow(D), ], "+")
  E0 <- headSums(time, ratio, censorTimes)
  E1 <- headSums(time, Z * ratio, censorTimes)
  q <- E1 * Ctail - Dtail * E0
  jump <- q * (nCensored / atRiskCensor^2)
  cumJump <- rbind(0, apply(jump, 2, cumsum))
  psi <- -cumJump[findInterval(time, censorTimes) + 1, , drop = FALSE]
  at <- match(time[censored], censorTimes)
  psi[censored, ] <- psi[censored, , drop = FALSE] + q[at, , drop = FALSE] / atRiskCensor[at]
  eta + psi
}

# What the robust variance and the cumulative incidence's bands share: per row r = exp(eta),
# time, the outcome flags and ratio = r / G(X-) for competing rows (0 otherwise); the censoring
# distribution's Kaplan-Meier (censorTimes, atRiskCensor = rows with X >= u, nCensored), GX =
# G(X_i-); per event time t_k (tk): Gk = G(t_k-), d, S0 (competing rows weighted G(t_k-) /
# G(X-)) and dL = d / S0.
fineGrayRiskSets <- function(fit) {
  rows <- fitRows(fit)
  if (!fineGrayRobustSupported(fit))
    stopf(paste("the robust variance of a Fine-Gray fit is implemented as cmprsk::crr's: without",
                "weights, strata or a given censoringSurvival; use runBootstrap() for these"))
  r <- exp(rows$eta)
  time <- rows$time
  event <- rows$y == 1
  competing <- rows$y == 2
  censored <- rows$y == 0
  # Kaplan-Meier of the censoring distribution, G(t-), at any times
  censorTimes <- sort(unique(time[censored]))
  atRiskCensor <- tailSums(time, rep(1, length(time)), censorTimes)
  nCensored <- as.vector(table(factor(time[censored], levels = censorTimes)))
  survivalAfter <- cumprod(1 - nCensored / atRiskCensor)
  Gminus <- function(t) c(1, survivalAfter)[findInterval(t, censorTimes, left.open = TRUE) + 1]
  GX <- Gminus(time)
  tk <- sort(unique(time[event]))
  Gk <- Gminus(tk)
  d <- as.vector(table(factor(time[event], levels = tk)))
  # risk sets: rows still in follow-up, plus competing rows weighted G(t-) / G(X-)
  ratio <- ifelse(competing, r / GX, 0)
  S0 <- tailSums(time, r, tk) + Gk * headSums(time, ratio, tk)
  list(r = r, time = time, event = event, competing = competing, censored = censored,
       censorTimes = censorTimes, atRiskCensor = atRiskCensor, nCensored = nCensored, GX = GX,
       tk = tk, Gk = Gk, d = d, ratio = ratio, S0 = S0, dL = d / S0)
}

# The risk sets' covariate means zbar_k = S1 / S0 at the event times (one row per t_k).
fineGrayMeans <- function(sets, Z) {
  S1 <- tailSums(sets$time, Z * sets$r, sets$tk) + sets$Gk * headSums(sets$time, Z * sets$ratio, sets$tk)
  S1 / sets$S0
}

# crr's variance is defined where crr can make the fit: without weights, strata (several
# censoring groups are crr's cengroup, another estimator) or a given censoringSurvival.
fineGrayRobustSupported <- function(fit) {
  w <- fit$settings$weights
  (is.null(w) || all(w == 1)) && is.null(fit$data$censoringSurvival) && fit$data$nStrata <= 1
}

# Sums of `v` over rows with key < t (the complement of tailSums()).
headSums <- function(key, v, times) {
  if (is.matrix(v)) sweep(-tailSums(key, v, times), 2, colSums(v), "+")
  else sum(v) - tailSums(key, v, times)
}
