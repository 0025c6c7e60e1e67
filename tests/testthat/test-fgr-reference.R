# Fine-Gray subdistribution hazards (modelType "fgr") against cmprsk::crr (gtol = 1e-12):
# coefficients and crr's log pseudo-likelihood to 1e-5 relative, coefficient by coefficient.
#
# crr weights a row with a competing event at time s < t_e by G(t_e-) / G(s-), G the
# Kaplan-Meier estimate of the censoring distribution; with `cengroup` G is estimated per
# group, and a competing row uses its own group's G, but the risk set is common to all
# groups. Argus's strata stratify the risk set itself (one baseline per stratum), and
# censoringByStratum = TRUE estimates G per stratum; that model is crr fitted on each stratum
# separately with the log-likelihoods summed.

# crr's Newton iterations with gtol = 1e-12 can stop short of its own criterion (its line
# search runs into rounding) with a score of about 1e-8; that is still the maximum to far
# better than 1e-5, so the check is on the score instead of crr's `converged` flag.
expectCrrMatch <- function(fit, ref, tolerance = 1e-5, label = "") {
  expect_equal(fit$status, "SUCCESS", label = paste(label, "status"))
  expect_lt(max(abs(ref$score)), 1e-6, label = paste(label, "crr score at its estimate"))
  expect_lte(maxRelDiff(coef(fit), ref$coef), tolerance, label = paste(label, "coefficients"))
  expect_lte(relDiff1(logLik(fit), ref$loglik), tolerance, label = paste(label, "log-likelihood"))
}

fitFgr <- function(sim, ...) {
  fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr", ...),
           control = survivalControl())
}

test_that("fgr matches crr without tied times", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 400, seed = 201)
  expect_equal(length(unique(sim$time)), length(sim$time))
  expect_true(all(table(sim$y) > 80))
  ref <- crrRef(sim$time, sim$y, sim$x)
  fit <- fitFgr(sim)
  expect_named(coef(fit), colnames(sim$x))
  expectCrrMatch(fit, ref, label = "no ties")
  # Fine-Gray is not Cox with competing events censored
  cox <- fitModel(createData(x = sim$x, y = as.numeric(sim$y == 1), time = sim$time,
                             modelType = "cox"), control = survivalControl())
  expect_gt(max(abs(coef(cox) - coef(fit))), 1e-2)
})

test_that("fgr matches crr with tied (integer) times and several covariates", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 1000, seed = 202, resolution = 1)
  expect_lt(length(unique(sim$time)), 40)
  # ties between events, competing events and censorings at the same time
  tiedKinds <- tapply(sim$y, sim$time, function(y) length(unique(y)))
  expect_gt(sum(tiedKinds == 3), 5)
  ref <- crrRef(sim$time, sim$y, sim$x)
  expectCrrMatch(fitFgr(sim), ref, label = "integer times")
  # the formula route, status coded 0 / 1 / 2
  frame <- data.frame(time = sim$time, status = sim$y, sim$x)
  byFormula <- fitModel(createData(Surv(time, status) ~ a + b + c + d + e, data = frame,
                                   modelType = "fgr"), control = survivalControl())
  expectCrrMatch(byFormula, ref, label = "formula")
  # the long route, with covariate ids and only the nonzero entries stored
  long <- toLong(sim$x, sim$y, rowIds = 10 * seq_along(sim$y), covariateIds = 71:75,
                 time = sim$time)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "fgr"),
                     control = survivalControl())
  expect_lte(maxRelDiff(byColumnName(coef(byLong), 71:75, colnames(sim$x)), ref$coef), 1e-5)
  expect_lte(relDiff1(logLik(byLong), ref$loglik), 1e-5)
})

test_that("user-supplied censoring survival G(t-) reproduces crr and the internal estimate", {
  skip_if_not_installed("cmprsk")
  skip_if_not_installed("survival")
  for (resolution in list(NULL, 1)) {
    sim <- simulateCompeting(n = 500, seed = 203, resolution = resolution)
    g <- censoringSurvivalBefore(sim$time, sim$y)
    expect_true(all(g > 0 & g <= 1))
    expect_lt(min(g), 0.7)
    ref <- crrRef(sim$time, sim$y, sim$x)
    supplied <- fitFgr(sim, censoringSurvival = g)
    internal <- fitFgr(sim)
    expectCrrMatch(supplied, ref, label = "supplied G")
    expect_lte(maxRelDiff(coef(supplied), coef(internal)), 1e-10)
    expect_lte(relDiff1(logLik(supplied), logLik(internal)), 1e-12)
    # G(t) instead of G(t-) is a different weighting (with tied times it changes the fit)
    if (!is.null(resolution)) {
      km <- survival::survfit(survival::Surv(sim$time, sim$y == 0) ~ 1)
      after <- stats::stepfun(km$time, c(1, km$surv))  # right-continuous: G(t)
      wrong <- fitFgr(sim, censoringSurvival = pmax(after(sim$time), 0.01))
      expect_gt(max(abs(coef(wrong) - ref$coef)), 1e-4)
    }
  }
  # the long route takes censoringSurvival as a column of outcomes
  long <- toLong(sim$x, sim$y, time = sim$time, censoringSurvival = g)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "fgr"),
                     control = survivalControl())
  expect_lte(maxRelDiff(coef(byLong), ref$coef), 1e-5)
})

test_that("censoringSurvival = 1 keeps competing rows at risk: Cox with them never failing", {
  skip_if_not_installed("survival")
  # weight G(t_e) / G(s) = 1: a competing event at s stays in every later risk set, which is
  # a Cox model (Breslow) where the competing rows are censored after the last time
  sim <- simulateCompeting(n = 400, seed = 204, resolution = 1)
  fit <- fitFgr(sim, censoringSurvival = rep(1, length(sim$y)))
  frame <- data.frame(time = ifelse(sim$y == 2, max(sim$time) + 1, sim$time),
                      status = as.numeric(sim$y == 1), sim$x)
  ref <- coxRef(Surv(time, status) ~ a + b + c + d + e, frame)
  expect_lte(maxRelDiff(coef(fit), coef(ref)), 1e-6)
  expect_lte(relDiff1(logLik(fit), ref$loglik[2]), 1e-6)
})

test_that("censoringByStratum = TRUE with strata is crr fitted per stratum, log-likelihoods summed", {
  skip_if_not_installed("cmprsk")
  skip_if_not_installed("survival")
  sim <- simulateCompeting(n = 900, seed = 205, resolution = 0.5, nGroups = 3)
  groups <- sort(unique(sim$group))
  # the reference: Newton's method on the sum of crr's per-stratum log-likelihoods, with
  # crr's own score and information at each step (crr evaluated without iterating)
  summed <- function(beta) {
    parts <- lapply(groups, function(k) {
      at <- sim$group == k
      crrAt(sim$time[at], sim$y[at], sim$x[at, , drop = FALSE], beta)
    })
    list(loglik = sum(vapply(parts, `[[`, 0, "loglik")),
         score = Reduce(`+`, lapply(parts, `[[`, "score")),
         inf = Reduce(`+`, lapply(parts, `[[`, "inf")))
  }
  beta <- numeric(ncol(sim$x))
  for (i in 1:50) {
    step <- solve(summed(beta)$inf, summed(beta)$score)
    beta <- beta + step
    if (max(abs(step)) < 1e-12) break
  }
  ref <- summed(beta)
  expect_lt(max(abs(ref$score)), 1e-8)

  fit <- fitFgr(sim, stratumId = sim$group, censoringByStratum = TRUE)
  expect_equal(fit$nStrata, 3L)
  expect_lte(maxRelDiff(coef(fit), beta), 1e-5)
  expect_lte(relDiff1(logLik(fit), ref$loglik), 1e-5)

  # the same with G(t-) computed per stratum by hand
  g <- numeric(length(sim$y))
  for (k in groups) {
    at <- sim$group == k
    g[at] <- censoringSurvivalBefore(sim$time[at], sim$y[at])
  }
  supplied <- fitFgr(sim, stratumId = sim$group, censoringSurvival = g)
  expect_lte(maxRelDiff(coef(supplied), coef(fit)), 1e-10)
  expect_lte(relDiff1(logLik(supplied), logLik(fit)), 1e-12)

  # pooled G with stratified risk sets is another model: check it against a direct
  # O(N^2) evaluation of the likelihood and its gradient
  pooled <- fitFgr(sim, stratumId = sim$group)
  gPooled <- censoringSurvivalBefore(sim$time, sim$y)
  f <- function(b) fineGrayLogLik(b, sim$time, sim$y, sim$x, gPooled, stratum = sim$group)
  expect_lte(relDiff1(logLik(pooled), f(coef(pooled))), 1e-10)
  expect_lt(max(abs(numericGradient(f, coef(pooled)))), 1e-5)
  expect_gt(max(abs(coef(pooled) - coef(fit))), 1e-3)
})

test_that("crr's cengroup: Argus reproduces it when G per group is the same on all risk sets", {
  skip_if_not_installed("cmprsk")
  skip_if_not_installed("survival")
  # crr's cengroup keeps one risk set and weights a competing row by its own group's G. A
  # per-row censoringSurvival fixes G(t_e) per event time, so it can express cengroup only
  # where the groups that hold events and competing events share the weights: here every
  # event and competing event is in group 1; group 2 holds only censored rows (with their own,
  # earlier censoring), which changes crr's G for group 1.
  sim <- simulateCompeting(n = 600, seed = 206, resolution = 1)
  extra <- simulateCompeting(n = 300, seed = 207, resolution = 1)
  time <- c(sim$time, pmax(1, extra$time - 3))
  y <- c(sim$y, rep(0, 300))
  x <- rbind(sim$x, extra$x)
  group <- rep(1:2, c(600, 300))
  ref <- crrRef(time, y, x, cengroup = group)
  pooledRef <- crrRef(time, y, x)
  expect_gt(max(abs(ref$coef - pooledRef$coef)), 1e-3)
  g <- numeric(length(y))
  for (k in 1:2) g[group == k] <- censoringSurvivalBefore(time[group == k], y[group == k])
  fit <- fitModel(createData(x = x, y = y, time = time, censoringSurvival = g,
                             modelType = "fgr"), control = survivalControl())
  expectCrrMatch(fit, ref, label = "cengroup")
  pooled <- fitModel(createData(x = x, y = y, time = time, modelType = "fgr"),
                     control = survivalControl())
  expectCrrMatch(pooled, pooledRef, label = "pooled")
})

test_that("integer weights are duplicated rows (the censoring distribution included)", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 300, seed = 208, resolution = 1)
  set.seed(209)
  copies <- sample(1:3, length(sim$y), replace = TRUE)
  at <- rep(seq_along(sim$y), copies)
  ref <- crrRef(sim$time[at], sim$y[at], sim$x[at, ])
  weighted <- fitFgr(sim, weights = copies)
  expectCrrMatch(weighted, ref, label = "weights = copies")
  # fitModel(weights =) replaces them, the censoring weights are recomputed
  reweighted <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                         weights = copies, control = survivalControl())
  expectCrrMatch(reweighted, ref, label = "fitModel weights")
  unweighted <- fitFgr(sim)
  expect_gt(max(abs(coef(unweighted) - coef(weighted))), 1e-3)
})

test_that("fgr: shuffled rows give the same fit; print() reports competing events", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 600, seed = 210, resolution = 0.5, nGroups = 2)
  set.seed(211)
  perm <- sample(length(sim$y))
  shuffled <- list(time = sim$time[perm], y = sim$y[perm], x = sim$x[perm, ])
  ref <- crrRef(sim$time, sim$y, sim$x)
  a <- fitFgr(sim)
  b <- fitFgr(shuffled)
  expectCrrMatch(b, ref, label = "shuffled")
  expect_lte(maxRelDiff(coef(b), coef(a)), 1e-10)
  strat <- fitFgr(sim, stratumId = sim$group, censoringByStratum = TRUE)
  stratShuffled <- fitFgr(shuffled, stratumId = sim$group[perm], censoringByStratum = TRUE)
  expect_lte(maxRelDiff(coef(stratShuffled), coef(strat)), 1e-10)
  data <- createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr")
  expect_output(print(data), sprintf("%d events, %d competing", sum(sim$y == 1), sum(sim$y == 2)))
})

test_that("Fine-Gray times that differ by rounding alone are one time (crr on the rounded times)", {
  skip_if_not_installed("cmprsk")
  set.seed(9)
  n <- 300
  time <- timesOffByRounding(n)
  expect_gt(length(unique(time)), length(unique(round(time, 8))))  # near-ties present
  code <- sample(0:2, n, TRUE, prob = c(0.3, 0.4, 0.3))
  x <- cbind(a = stats::rnorm(n), b = stats::rbinom(n, 1, 0.5))
  # crr on the times as they are meant (rounded): kept apart, a difference of 1e-13 moved a
  # coefficient by 1% with no message
  ref <- crrRef(round(time, 8), code, x)
  fit <- fitModel(createData(x = x, y = code, time = time, modelType = "fgr"),
                  control = createControl(tolerance = 1e-10))
  expect_lt(max(abs(coef(fit) - ref$coef)), 1e-6)
  rounded <- fitModel(createData(x = x, y = code, time = round(time, 8), modelType = "fgr"),
                      control = createControl(tolerance = 1e-10))
  expect_equal(coef(fit), coef(rounded), tolerance = 1e-12)
})

test_that("a Fine-Gray row of weight 0 after the last censoring of weight carries nothing", {
  skip_if_not_installed("cmprsk")
  set.seed(201)
  n <- 150
  df <- data.frame(a = stats::rnorm(n), b = stats::rnorm(n), time = stats::rexp(n),
                   status = sample(0:2, n, TRUE))
  o <- order(df$time)
  df$status[o[n]] <- 2  # the last row a competing event, the one before it censored
  df$status[o[n - 1]] <- 0
  w <- rep(1, n)
  w[o[n]] <- 0  # its G(time-) is 0 once it does not count: 1 / G was inf, every sum NaN
  x <- as.matrix(df[, c("a", "b")])
  fit <- fitModel(createData(x = x, y = df$status, time = df$time, modelType = "fgr"),
                  weights = w, control = createControl(tolerance = 1e-10))
  expect_equal(fit$status, "SUCCESS")  # MAX_ITERATIONS at beta = 0 before
  ref <- crrRef(df$time[w > 0], df$status[w > 0], x[w > 0, ])
  expect_lt(max(abs(coef(fit) - ref$coef)), 1e-6)
})
