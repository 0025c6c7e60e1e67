# Pointwise confidence bands of a Fine-Gray fit's cumulative incidence curves. The curve of
# covariates z is F(t | z) = 1 - exp(-H0(t) exp(z' beta)); its complementary log-log,
# L(t | z) = log H0(t) + z' beta, is a smooth function of the estimates, and its variance is the
# sum over rows of the squared influence of each row on it (the linearisation behind crr's
# robust `var`, carried to the baseline hazard):
#   IF_i(t | z) = h_i(t) / H0(t) + (z - Bbar(t))' IFbeta_i,
# with IFbeta_i = (crr's invinf) times row i's score contribution (fineGrayScores(): the
# pseudo-likelihood score plus the censoring distribution's share, so sum_i IFbeta_i IFbeta_i'
# is crr's var), Bbar(t) = sum_{t_k <= t} zbar_k dL_k / H0(t) (d log H0 / d beta), and h_i(t)
# the influence of row i on H0(t) = sum_{t_k <= t} d_k / S0_k at fixed beta:
#   a_i(t) = [event, X_i <= t] / S0(X_i) - r_i (P(min(t, X_i)) + [competing] (R(t) - R(X_i))+ / G(X_i-)),
#   c_i(t) = sum over censoring times u of (dNc_i(u) - Y_i(u) c(u) / pi(u)) / (pi(u) - c(u)) q(u, t),
#   q(u, t) = E(u) (R(t) - R(u))+,
# P(t) = sum_{t_k <= t} dL_k / S0_k, R(t) = sum_{t_k <= t} G(t_k-) dL_k / S0_k, E(u) the sum of
# r_j / G(X_j-) over competing rows with X_j <= u, pi(u) the rows with X >= u and c(u) those
# censored at u. c_i is the effect of row i on the Kaplan-Meier G (its exact derivative) through
# the competing rows' weights G(t_k-) / G(X_j-), which move where X_j <= u < t_k. Each time
# costs O(N p): the band at T times is O(N p T) with O(N p) memory.

# The standard error of L(t | z) at `times` (rows) for the covariate rows of `Z` (columns), NA
# where H0(t) = 0 (before the first event). Z's columns: the estimated coefficients.
incidenceLogLogSe <- function(fit, times, Z) {
  labels <- colnames(Z)
  X <- designColumns(fit$data, match(labels, names(fit$coefficients)))
  sets <- fineGrayRiskSets(fit)
  invinf <- coefficientVcov(fit, "model")[labels, labels, drop = FALSE]
  IFbeta <- fineGrayScores(fit, X) %*% invinf
  Vbeta <- crossprod(IFbeta)
  zbar <- fineGrayMeans(sets, as.matrix(X))
  cumH <- c(0, cumsum(sets$dL))
  cumB <- rbind(0, apply(zbar * sets$dL, 2, cumsum))
  out <- matrix(NA_real_, length(times), nrow(Z))
  for (m in seq_along(times)) {
    k <- findInterval(times[m], sets$tk)
    H <- cumH[k + 1]
    if (H <= 0) next
    h <- baselineInfluence(sets, times[m])
    centred <- sweep(Z, 2, cumB[k + 1, ] / H)
    cross <- colSums(IFbeta * h) / H
    quadratic <- rowSums((centred %*% Vbeta) * centred)
    out[m, ] <- sqrt(pmax(sum(h^2) / H^2 + 2 * as.vector(centred %*% cross) + quadratic, 0))
  }
  out
}

# h_i(t): the influence of each row on H0(t) at fixed coefficients (see the top of the file).
baselineInfluence <- function(sets, t) {
  time <- sets$time
  tk <- sets$tk
  P <- c(0, cumsum(sets$dL / sets$S0))
  R <- c(0, cumsum(sets$Gk * sets$dL / sets$S0))
  Rt <- R[findInterval(t, tk) + 1]
  own <- findInterval(time, tk)                       # event times t_k <= X_i
  a <- -sets$r * P[findInterval(pmin(time, t), tk) + 1]
  a <- a - sets$competing * sets$r * pmax(Rt - R[own + 1], 0) / sets$GX
  events <- sets$event & time <= t
  a[events] <- a[events] + 1 / sets$S0[match(time[events], tk)]
  u <- sets$censorTimes
  if (length(u) == 0) return(a)
  # E(u): competing rows with X_j <= u, each r_j / G(X_j-)
  competingTimes <- time[sets$competing]
  o <- order(competingTimes)
  E <- c(0, cumsum(sets$ratio[sets$competing][o]))[findInterval(u, competingTimes[o]) + 1]
  q <- ifelse(u < t, E * (Rt - R[findInterval(u, tk) + 1]), 0)
  left <- sets$atRiskCensor - sets$nCensored
  left[left <= 0] <- sets$atRiskCensor[left <= 0]  # the last time, with nothing after it
  # at risk at u (X_i >= u): minus c(u) / pi(u) of the jump; censored at u: plus the jump
  J <- c(0, cumsum(q * sets$nCensored / (sets$atRiskCensor * left)))
  cPart <- -J[findInterval(time, u) + 1]
  at <- match(time[sets$censored], u)
  cPart[sets$censored] <- cPart[sets$censored] + q[at] / left[at]
  a + cPart
}
