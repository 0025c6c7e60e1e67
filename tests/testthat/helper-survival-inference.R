# References for the survival inference tests: likelihood-ratio (profile) intervals computed
# from survival::coxph and cmprsk::crr themselves.

# Likelihood-ratio interval of coefficient `term` (a numeric column of `data`) of a Cox model:
# hold it at b through an offset, refit the others with coxph, and solve
# loglik(b) = loglik(fit) - qchisq(level, 1) / 2 with uniroot at a tight tolerance.
coxProfileInterval <- function(formula, data, term, ties = "breslow", weights = NULL,
                               level = 0.95) {
  full <- coxRef(formula, data, ties = ties, weights = weights)
  target <- full$loglik[2] - stats::qchisq(level, 1) / 2
  reduced <- stats::update(formula, stats::as.formula(paste(". ~ . -", term,
                                                           "+ offset(.argusOffset)")))
  excess <- function(b) {
    data$.argusOffset <- data[[term]] * b
    coxRef(reduced, data, ties = ties, weights = weights)$loglik[2] - target
  }
  bHat <- coef(full)[[term]]
  se <- sqrt(stats::vcov(full)[term, term])
  c(stats::uniroot(excess, c(bHat - 6 * se, bHat), tol = 1e-11)$root,
    stats::uniroot(excess, c(bHat, bHat + 6 * se), tol = 1e-11)$root)
}

# The same for Fine-Gray with crr's own log pseudo-likelihood: crr cannot hold a coefficient
# fixed, so the others are maximized by Newton steps on crr's score and information at
# init = beta (maxiter = 0).
crrProfileInterval <- function(time, y, x, j, level = 0.95) {
  full <- crrRef(time, y, x)
  target <- full$loglik - stats::qchisq(level, 1) / 2
  profile <- function(b) {
    beta <- full$coef
    beta[j] <- b
    for (k in 1:50) {
      at <- crrAt(time, y, x, beta)
      step <- solve(at$inf[-j, -j, drop = FALSE], at$score[-j])
      beta[-j] <- beta[-j] + step
      if (max(abs(step)) < 1e-11) break
    }
    crrAt(time, y, x, beta)$loglik
  }
  excess <- function(b) profile(b) - target
  bHat <- full$coef[[j]]
  se <- sqrt(full$invinf[j, j])
  c(stats::uniroot(excess, c(bHat - 6 * se, bHat), tol = 1e-11)$root,
    stats::uniroot(excess, c(bHat, bHat + 6 * se), tol = 1e-11)$root)
}
