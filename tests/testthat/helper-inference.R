# References for inference tests, built from glm alone (no MASS needed).

# Profile-likelihood interval of coefficient j of a glm with design X (intercept included as
# a column when wanted): hold beta_j at b through the offset, refit the rest with glm.fit,
# and solve -deviance/2 = max - qchisq(level, 1)/2 with uniroot at a tight tolerance.
# Deviance differences equal twice log-likelihood differences for binomial and Poisson.
glmProfileInterval <- function(X, y, family, j, level = 0.95, weights = NULL, offset = NULL) {
  n <- length(y)
  w <- if (is.null(weights)) rep(1, n) else weights
  o <- if (is.null(offset)) rep(0, n) else offset
  control <- stats::glm.control(epsilon = 1e-14, maxit = 200)
  full <- stats::glm.fit(X, y, weights = w, offset = o, family = family, control = control)
  bHat <- full$coefficients[j]
  se <- sqrt(chol2inv(chol(crossprod(X * sqrt(full$weights))))[j, j])
  target <- -full$deviance / 2 - stats::qchisq(level, 1) / 2
  excess <- function(b) {
    g <- stats::glm.fit(X[, -j, drop = FALSE], y, weights = w, offset = o + X[, j] * b,
                        family = family, control = control)
    -g$deviance / 2 - target
  }
  c(stats::uniroot(excess, c(bHat - 6 * se, bHat), tol = 1e-12)$root,
    stats::uniroot(excess, c(bHat, bHat + 6 * se), tol = 1e-12)$root)
}

# MASS's profile intervals for a glm (stats::confint.glm since R 4.4), or NULL when MASS is
# not installed.
massProfileIntervals <- function(ref, level = 0.95) {
  if (getRversion() < "4.4.0" && !requireNamespace("MASS", quietly = TRUE)) return(NULL)
  suppressWarnings(suppressMessages(stats::confint(ref, level = level)))
}

# Largest relative difference, elementwise.
maxRelDiff <- function(a, b) max(abs(unname(as.matrix(a)) - unname(as.matrix(b))) / abs(unname(as.matrix(b))))

# A logistic data set where covariate "sep" separates the outcome (y = 1 whenever sep = 1).
simulateSeparated <- function(n = 200, seed = 5) {
  set.seed(seed)
  x <- cbind(sep = rbinom(n, 1, 0.3), z = round(rnorm(n), 3))
  y <- ifelse(x[, "sep"] == 1, 1, rbinom(n, 1, plogis(-0.5 + 0.5 * x[, "z"])))
  list(x = x, y = y)
}
