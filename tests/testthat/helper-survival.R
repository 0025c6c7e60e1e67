# Shared helpers for the survival (cox, fgr) tests: references from survival::coxph and
# cmprsk::crr, censoring survival by hand, simulators.

# Largest relative difference, coefficient by coefficient (no floor: every coefficient counts).
maxRelDiff <- function(current, target) {
  current <- unname(as.numeric(current))
  target <- unname(as.numeric(target))
  stopifnot(length(current) == length(target))
  max(abs(current - target) / abs(target))
}

relDiff1 <- function(current, target) abs(as.numeric(current) - as.numeric(target)) / abs(as.numeric(target))

# Tight solver settings for survival comparisons.
survivalControl <- function(tolerance = 1e-12, ...) {
  createControl(tolerance = tolerance, convergenceType = "zhang", maxIterations = 10000, ...)
}

# Formulas evaluated by survival's own functions need Surv() and strata() in scope; give the
# formula an environment that sees the survival namespace (without attaching survival).
inSurvival <- function(formula) {
  env <- new.env(parent = asNamespace("survival"))
  environment(formula) <- env
  formula
}

# survival::lung without missing values in the columns the tests use.
lungComplete <- function() {
  stats::na.omit(survival::lung[, c("inst", "time", "status", "age", "sex", "ph.ecog",
                                    "wt.loss")])
}

# survival::coxph with tight convergence; weights are a vector (or NULL). The model frame is
# kept (model = TRUE): predict() and survfit() of the fit would otherwise look for `data`.
coxRef <- function(formula, data, ties = "breslow", weights = NULL) {
  data$.argusWeight <- if (is.null(weights)) rep(1, nrow(data)) else weights
  survival::coxph(inSurvival(formula), data = data, ties = ties, weights = .argusWeight,
                  model = TRUE, control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15,
                                                    iter.max = 100))
}

# The weighted lung fits the residual tests compare with coxph: Breslow and Efron, plain and
# stratified by ph.ecog, weights runif(0.5, 2) drawn with seed 5. Each case: fit (Argus), ref
# (coxph), label, and the data, formula and ties they were fitted with. Built once per test
# run (three test files read them).
weightedLungCoxCaseStore <- new.env()
weightedLungCoxCases <- function() {
  if (is.null(weightedLungCoxCaseStore$cases)) weightedLungCoxCaseStore$cases <- buildWeightedLungCoxCases()
  weightedLungCoxCaseStore$cases
}
buildWeightedLungCoxCases <- function() {
  lung <- lungComplete()
  set.seed(5)
  lung$w <- stats::runif(nrow(lung), 0.5, 2)
  cases <- list()
  for (ties in c("breslow", "efron")) for (f in list(Surv(time, status) ~ age + sex + wt.loss,
                                                      Surv(time, status) ~ age + sex + strata(ph.ecog))) {
    cases[[length(cases) + 1]] <- list(
      ref = coxRef(f, lung, ties = ties, weights = lung$w),
      fit = fitModel(createData(f, data = lung, modelType = "cox", ties = ties, weights = lung$w),
                     control = survivalControl()),
      label = paste(ties, deparse(f[[3]])), data = lung, formula = f, ties = ties)
  }
  cases
}

# Score (gradient of the partial log-likelihood) of a Cox model at beta, from coxph's score
# residuals at init = beta without iterating.
coxScore <- function(formula, data, beta, ties = "breslow", weights = NULL) {
  data$.argusWeight <- if (is.null(weights)) rep(1, nrow(data)) else weights
  fit <- survival::coxph(inSurvival(formula), data = data, ties = ties, weights = .argusWeight,
                         init = unname(beta), model = TRUE,
                         control = survival::coxph.control(iter.max = 0))
  colSums(stats::residuals(fit, type = "score"))
}

# Largest violation of the optimality conditions of L(beta) + log prior for a Laplace prior
# with rate lambda (or a flat one where lambda = 0); `score` is dL/dbeta.
laplaceKkt <- function(score, beta, lambda) {
  max(ifelse(beta != 0, abs(score - lambda * sign(beta)), pmax(0, abs(score) - lambda)))
}

# cmprsk::crr with a tight gradient tolerance.
crrRef <- function(time, y, x, ...) {
  cmprsk::crr(time, y, x, gtol = 1e-12, maxiter = 100, ...)
}

# crr's log-likelihood, score and information at beta, without iterating.
crrAt <- function(time, y, x, beta, ...) {
  fit <- suppressWarnings(cmprsk::crr(time, y, x, init = unname(beta), maxiter = 0, ...))
  list(loglik = fit$loglik, score = fit$score, inf = fit$inf)
}

# Kaplan-Meier of the censoring distribution (y == 0 is the "event"), evaluated just before
# each time: G(t-), the weight crr uses. stepfun(right = TRUE) is left-continuous.
censoringSurvivalBefore <- function(time, y, weights = NULL) {
  w <- if (is.null(weights)) rep(1, length(time)) else weights
  km <- survival::survfit(survival::Surv(time, y == 0) ~ 1, weights = w)
  stats::stepfun(km$time, c(1, km$surv), right = TRUE)(time)
}

# Fine-Gray log partial likelihood, written naively (O(N^2)): for each event time t_e of a
# stratum, rows with time >= t_e are at risk with weight w, rows with a competing event before
# t_e with weight w * G(t_e-) / G(time_r-); Breslow for tied events.
fineGrayLogLik <- function(beta, time, y, x, g, stratum = rep(1, length(time)),
                           weights = rep(1, length(time))) {
  eta <- drop(x %*% beta)
  total <- 0
  for (s in unique(stratum)) {
    at <- which(stratum == s)
    for (t in unique(time[at][y[at] == 1])) {
      events <- at[time[at] == t & y[at] == 1]
      gt <- g[events[1]]
      risk <- ifelse(time[at] >= t, 1, ifelse(y[at] == 2, gt / g[at], 0))
      total <- total + sum(weights[events] * eta[events]) -
        sum(weights[events]) * log(sum(weights[at] * risk * exp(eta[at])))
    }
  }
  total
}

# Central-difference gradient.
numericGradient <- function(f, beta, h = 1e-5) {
  vapply(seq_along(beta), function(j) {
    e <- replace(numeric(length(beta)), j, h)
    (f(beta + e) - f(beta - e)) / (2 * h)
  }, numeric(1))
}

# Right-censored survival data with covariates: continuous and binary covariates, event
# times from a proportional hazards model, rounded up to `resolution` (integer days by
# default: heavy ties), uniform censoring, and `nStrata` strata with their own baselines.
simulateCox <- function(n = 500, seed = 1, resolution = 1, nStrata = 1, rate = 0.02,
                        maxFollowUp = 120) {
  set.seed(seed)
  x <- cbind(a = round(rnorm(n), 3), b = rbinom(n, 1, 0.4), c = round(runif(n, 0, 3)),
             d = rbinom(n, 1, 0.1))
  stratum <- sample(seq_len(nStrata), n, replace = TRUE)
  eta <- drop(x %*% c(0.5, -0.7, 0.3, 1)) + 0.4 * (stratum - 1)
  event <- ceiling(rexp(n, rate * exp(eta)) / resolution) * resolution
  censor <- ceiling(runif(n, 1, maxFollowUp) / resolution) * resolution
  data.frame(time = pmin(event, censor), status = as.numeric(event <= censor), x,
             stratum = stratum * 10 + 3)
}

# Competing risks data: event of interest (1), competing event (2), censored (0). Times
# rounded up to `resolution` (NULL: continuous, no ties). `nGroups` groups with their own
# censoring distributions (and baselines).
simulateCompeting <- function(n = 400, seed = 1, resolution = NULL, nGroups = 1) {
  set.seed(seed)
  x <- cbind(a = round(rnorm(n), 4), b = rbinom(n, 1, 0.4), c = round(runif(n), 4),
             d = rbinom(n, 1, 0.15), e = round(rnorm(n), 4))
  group <- sample(seq_len(nGroups), n, replace = TRUE)
  t1 <- rexp(n, 0.1 * exp(drop(x %*% c(0.6, -0.5, 0.4, 0.8, 0)) + 0.3 * (group - 1)))
  t2 <- rexp(n, 0.08 * exp(drop(x %*% c(-0.3, 0.4, 0, 0.2, 0.3))))
  censor <- runif(n, 0, c(10, 18, 30, 14)[(group - 1) %% 4 + 1])
  time <- pmin(t1, t2, censor)
  if (!is.null(resolution)) time <- ceiling(time / resolution) * resolution
  y <- ifelse(censor < pmin(t1, t2), 0, ifelse(t1 < t2, 1, 2))
  list(time = time, y = y, x = x, group = group)
}

# n times in tenths, half of them recomputed by arithmetic so that they differ from their
# twins by rounding alone (coxph's timefix merges them); the random stream is left where a
# test's further draws expect it (set the seed before).
timesOffByRounding <- function(n) {
  tenths <- sample(1:40, n, TRUE) / 10
  again <- (tenths * 10 - 1) / 10 + 0.1  # the same times up to rounding
  ifelse(stats::runif(n) < 0.5, tenths, again)
}
