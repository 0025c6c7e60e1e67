# Shared simulators and settings for the Argus test suite.

# Tight solver settings for comparisons with reference implementations.
tightControl <- function(tolerance = 1e-10, ...) {
  createControl(tolerance = tolerance, convergenceType = "zhang", maxIterations = 10000, ...)
}

# glm of y on the columns of x (plus an intercept unless intercept = FALSE), with a tight
# convergence criterion so that it is an accurate reference.
glmRef <- function(x, y, family, weights = NULL, offset = NULL, intercept = TRUE) {
  n <- length(y)
  frame <- data.frame(y = y, w = if (is.null(weights)) rep(1, n) else weights,
                      o = if (is.null(offset)) rep(0, n) else offset)
  frame$x <- x
  formula <- if (intercept) y ~ x else y ~ x - 1
  stats::glm(formula, data = frame, weights = w, offset = o, family = family,
             control = stats::glm.control(epsilon = 1e-14, maxit = 100))
}

# Dense design with named columns: a mix of continuous and binary covariates.
simulateDesign <- function(n, p, seed) {
  set.seed(seed)
  x <- matrix(0, n, p, dimnames = list(NULL, letters[seq_len(p)]))
  for (j in seq_len(p)) {
    x[, j] <- if (j %% 2 == 1) round(rnorm(n), 3) else rbinom(n, 1, 0.3)
  }
  x
}

simulateLogistic <- function(n = 300, p = 4, seed = 1) {
  x <- simulateDesign(n, p, seed)
  beta <- seq(0.8, -0.6, length.out = p)
  y <- rbinom(n, 1, plogis(-0.3 + drop(x %*% beta)))
  list(x = x, y = y, beta = beta)
}

simulatePoisson <- function(n = 300, p = 4, seed = 2) {
  x <- simulateDesign(n, p, seed)
  beta <- seq(0.5, -0.4, length.out = p)
  time <- round(runif(n, 0.5, 4), 2)
  y <- rpois(n, time * exp(-0.5 + drop(x %*% beta)))
  list(x = x, y = y, time = time, beta = beta)
}

simulateGaussian <- function(n = 200, p = 5, seed = 3) {
  x <- simulateDesign(n, p, seed)
  beta <- seq(1, -1, length.out = p)
  y <- 0.5 + drop(x %*% beta) + rnorm(n)
  list(x = x, y = y, beta = beta)
}

# Long (OHDSI) tables from a matrix: outcomes with rowIds, covariates with the nonzero
# entries; covariate ids map to the matrix columns.
toLong <- function(x, y, rowIds = seq_len(nrow(x)), covariateIds = seq_len(ncol(x)),
                   ...) {
  at <- which(x != 0, arr.ind = TRUE)
  outcomes <- data.frame(rowId = rowIds, y = y, ...)
  covariates <- data.frame(rowId = rowIds[at[, 1]], covariateId = covariateIds[at[, 2]],
                           covariateValue = x[at])
  list(outcomes = outcomes, covariates = covariates)
}

# A self-controlled case series data set: patients (strata) with several exposure eras
# each (rows), era lengths in days, sparse binary drug exposures, Poisson event counts.
# Some patients have no event at all (their strata are dropped by conditional models).
simulateSccs <- function(nPatients = 500, nDrugs = 6, seed = 4) {
  set.seed(seed)
  nEras <- sample(2:6, nPatients, replace = TRUE)
  stratumId <- rep(seq_len(nPatients) * 7L + 100L, nEras)
  n <- length(stratumId)
  time <- sample(10:365, n, replace = TRUE)
  x <- matrix(rbinom(n * nDrugs, 1, 0.15), n, nDrugs,
              dimnames = list(NULL, paste0("drug", seq_len(nDrugs))))
  beta <- c(0.7, -0.5, 0.3, 0, 1.1, -0.9, rep(0.2, max(0, nDrugs - 6)))[seq_len(nDrugs)]
  alpha <- rnorm(nPatients, -6, 1)
  patient <- match(stratumId, unique(stratumId))
  y <- rpois(n, time * exp(alpha[patient] + drop(x %*% beta)))
  rowId <- 5000 + 3 * seq_len(n)
  covariateIds <- 9000 + 11 * seq_len(nDrugs)
  long <- toLong(x, y, rowIds = rowId, covariateIds = covariateIds,
                 stratumId = stratumId, time = time)
  list(x = x, y = y, time = time, stratumId = stratumId, rowId = rowId,
       covariateIds = covariateIds, outcomes = long$outcomes, covariates = long$covariates,
       frame = data.frame(y = y, time = time, stratumId = stratumId, x), beta = beta)
}

# Reference for conditional Poisson / SCCS: Poisson glm with one fixed effect per stratum
# and offset log(time), on the strata that have events.
sccsReference <- function(sim) {
  keep <- ave(sim$y, sim$stratumId, FUN = sum) > 0
  frame <- data.frame(y = sim$y[keep], o = log(sim$time[keep]),
                      stratum = factor(sim$stratumId[keep]))
  frame$x <- sim$x[keep, , drop = FALSE]
  fit <- stats::glm(y ~ x + stratum - 1, offset = o, data = frame, family = stats::poisson(),
                    control = stats::glm.control(epsilon = 1e-14, maxit = 100))
  beta <- coef(fit)[paste0("x", colnames(sim$x))]
  stats::setNames(unname(beta), colnames(sim$x))
}

# Coefficients of an Argus fit on the long route, renamed to the matrix column names.
byColumnName <- function(beta, ids, names) {
  stats::setNames(unname(beta[as.character(ids)]), names)
}

# Largest violation of the optimality conditions of the log posterior for lr / ls with a
# per-coordinate prior (kind "none", "laplace", "normal"); the gradient is dL/dbeta.
kktViolation <- function(gradient, beta, kind, variance) {
  lambda <- sqrt(2 / variance)
  v <- numeric(length(beta))
  for (j in seq_along(beta)) {
    v[j] <- switch(kind[j],
      none = abs(gradient[j]),
      normal = abs(gradient[j] - beta[j] / variance[j]),
      laplace = if (beta[j] != 0) abs(gradient[j] - lambda[j] * sign(beta[j]))
                else max(0, abs(gradient[j]) - lambda[j]))
  }
  max(v)
}

lrGradient <- function(x, y, beta) {
  X <- cbind(1, x)
  drop(crossprod(X, y - plogis(drop(X %*% beta))))
}
