# Cross-validation and the bootstrap with survival models (cox, fgr): the same, bit for bit,
# with 1 and 2 threads; a sensible variance on data with a known sparse truth; fold ids
# honoured, fold scores that are plain weighted fits scored on the held-out rows; user weights
# kept in the final refit; bootstrap replicates that are plain weighted refits.

cvPrior <- function(type = "laplace") createPrior(type, useCrossValidation = TRUE)
withoutTime <- function(cv) cv[setdiff(names(cv), "seconds")]

# n rows, p covariates (half continuous, half binary), a sparse truth: the first three
# covariates only. Integer times (ties). competing > 0 turns that share of the events into
# competing events (y = 2) for Fine-Gray.
simulateSparseSurvival <- function(n = 600, p = 12, seed = 1, beta = c(0.9, -0.7, 0.6),
                                   competing = 0) {
  set.seed(seed)
  half <- p %/% 2
  x <- cbind(matrix(round(rnorm(n * half), 3), n, half),
             matrix(rbinom(n * (p - half), 1, 0.3), n, p - half))
  colnames(x) <- paste0("v", seq_len(p))
  truth <- c(beta, rep(0, p - length(beta)))
  event <- rexp(n, 0.05 * exp(drop(x %*% truth)))
  censor <- runif(n, 1, 40)
  time <- ceiling(pmin(event, censor))
  y <- as.numeric(event <= censor)
  if (competing > 0) y[y == 1 & runif(n) < competing] <- 2
  list(x = x, y = y, time = time, truth = stats::setNames(truth, colnames(x)))
}

# (Cox as before Efron became the default: Breslow unless asked)
survivalData <- function(sim, modelType = "cox", ties = if (modelType == "cox") "breslow", ...) {
  createData(x = sim$x, y = sim$y, time = sim$time, modelType = modelType, ties = ties, ...)
}

test_that("survival CV is the same, bit for bit, with 1 and 2 threads", {
  sim <- simulateSparseSurvival(n = 300, p = 8, seed = 2)
  competing <- simulateSparseSurvival(n = 300, p = 8, seed = 3, competing = 0.3)
  strata <- rep(1:3, length.out = 300)
  cases <- list(
    cox = survivalData(sim),
    coxEfron = survivalData(sim, ties = "efron"),
    coxStrata = survivalData(sim, stratumId = strata),
    fgr = survivalData(competing, "fgr"))
  for (name in names(cases)) {
    for (type in c("auto", "grid")) {
      control <- function(threads) createControl(seed = 5, cvType = type, gridSteps = 5,
                                                 fold = 5, cvRepetitions = 2, threads = threads)
      one <- fitModel(cases[[name]], cvPrior(), control(1))
      two <- fitModel(cases[[name]], cvPrior(), control(2))
      expect_identical(withoutTime(one$cv), withoutTime(two$cv), label = paste(name, type))
      expect_identical(coef(one), coef(two), label = paste(name, type))
      expect_true(all(is.finite(one$cv$curve$mean)), label = paste(name, type))
      expect_identical(one$cv$selectorType, "byRow")
    }
  }
  # A normal prior too.
  one <- fitModel(cases$cox, cvPrior("normal"), createControl(seed = 6, threads = 1))
  two <- fitModel(cases$cox, cvPrior("normal"), createControl(seed = 6, threads = 2))
  expect_identical(withoutTime(one$cv), withoutTime(two$cv))
})

test_that("Cox and Fine-Gray CV choose a sensible variance on a known sparse truth", {
  for (model in c("cox", "fgr")) {
    for (seed in 11:12) {
      sim <- simulateSparseSurvival(n = 800, p = 12, seed = seed,
                                    competing = if (model == "fgr") 0.25 else 0)
      d <- survivalData(sim, model)
      label <- paste(model, seed)
      auto <- fitModel(d, cvPrior(), createControl(seed = seed))
      grid <- fitModel(d, cvPrior(), createControl(seed = seed, cvType = "grid", gridSteps = 13,
                                                   lowerLimit = 1e-5, upperLimit = 10))
      expect_true(auto$cv$bracketed, label = label)
      # The auto search finds the grid's optimum to within about half a decade.
      expect_lt(abs(log10(auto$cv$variance / grid$cv$variance)), 0.75, label = label)
      # Neither no penalty nor a penalty that zeroes everything: the true effects stay, with
      # their signs, and the refit is shrunk towards 0 compared with the unpenalized fit.
      beta <- coef(auto)
      expect_identical(sign(beta[1:3]), sign(sim$truth[1:3]), label = label)
      flat <- coef(fitModel(d))
      expect_lt(sum(abs(beta)), sum(abs(flat)), label = label)
      expect_gt(auto$cv$variance, 1e-3)
      expect_lt(auto$cv$variance, 10)
      # The held-out score at the chosen variance beats the strongest and weakest grid ends.
      ends <- grid$cv$curve$mean[c(1, 13)]
      expect_gt(auto$cv$score, max(ends), label = label)
    }
  }
  # No signal at all: CV prefers a penalty that keeps (almost) every coefficient at 0.
  sim <- simulateSparseSurvival(n = 800, p = 12, seed = 13, beta = 0)
  noise <- fitModel(survivalData(sim), cvPrior(), createControl(seed = 1))
  expect_lte(sum(coef(noise) != 0), 2)
})

test_that("fold ids from createFolds() are honoured, and fold scores are plain fits", {
  sim <- simulateSparseSurvival(n = 240, p = 6, seed = 21)
  d <- survivalData(sim)
  control <- createControl(seed = 8, fold = 4)
  folds <- createFolds(d, control)
  expect_identical(dim(folds), c(240L, 1L))
  expect_identical(sort(unique(as.vector(folds))), 1:4)
  expect_identical(attr(folds, "selectorType"), "byRow")
  planned <- fitModel(d, cvPrior(), control)
  given <- fitModel(d, cvPrior(), createControl(seed = 99, foldIds = folds[, 1]))
  expect_true(given$cv$userFolds)
  same <- c("variance", "score", "curve", "values", "folds", "repetitions", "bracketed")
  expect_identical(given$cv[same], planned$cv[same])
  expect_identical(coef(given), coef(planned))

  # Other labels (any values, user row order): the fold fits of the first candidate start
  # from the fit on all the data at its variance (itself started from 0), so each equals
  # fitModel() on the training rows from there, scored on the held-out rows.
  w <- runif(240, 0.5, 2)
  labels <- c("a", "b", "c")[(seq_len(240) %% 3) + 1]
  fit <- fitModel(d, cvPrior(), createControl(foldIds = labels, cvType = "grid", gridSteps = 3),
                  weights = w)
  expect_identical(fit$cv$folds, 3L)
  first <- which(fit$cv$curve$order == 1)
  v <- fit$cv$curve$variance[first]
  # (at 100 x the tolerances: it only places the folds' starts)
  loose <- createControl(tolerance = 100 * createControl()$tolerance,
                         optimalityTolerance = 100 * createControl()$optimalityTolerance)
  allData <- fitModel(d, createPrior("laplace", variance = v), weights = w, control = loose)
  expect_identical(fit$cv$curve$allDataCycles[first], allData$iterations)
  for (k in 1:3) {
    inFold <- labels == c("a", "b", "c")[k]
    train <- fitModel(d, createPrior("laplace", variance = v), weights = w * !inFold,
                      startingCoefficients = coef(allData))
    heldOut <- fitModel(d, weights = w * inFold, startingCoefficients = coef(train),
                        fixedCoefficients = rep(TRUE, 6))
    expect_identical(unname(fit$cv$values[first, k]), heldOut$logLikelihood)
  }
  expect_error(fitModel(d, cvPrior(), createControl(foldIds = labels[-1])), "labels but the data have .*one per row")
})

test_that("user weights are kept in the final refit after survival CV", {
  for (model in c("cox", "fgr")) {
    sim <- simulateSparseSurvival(n = 300, p = 6, seed = 31,
                                  competing = if (model == "fgr") 0.3 else 0)
    d <- survivalData(sim, model)
    set.seed(32)
    w <- runif(300, 0.2, 3)
    fit <- fitModel(d, cvPrior(), createControl(seed = 2), weights = w)
    byHand <- fitModel(d, createPrior("laplace", variance = fit$cv$variance), weights = w)
    expect_identical(coef(fit), coef(byHand), label = model)
    expect_identical(fit$logLikelihood, byHand$logLikelihood, label = model)
    expect_identical(fit$weights, w)
    unweighted <- fitModel(d, createPrior("laplace", variance = fit$cv$variance))
    expect_false(isTRUE(all.equal(coef(fit), coef(unweighted))), label = model)
    # and the weights reach the fold fits: the curve differs from the unweighted one
    plain <- fitModel(d, cvPrior(), createControl(seed = 2))
    expect_false(identical(fit$cv$values, plain$cv$values), label = model)
  }
})

test_that("a Cox and a Fine-Gray bootstrap equal plain weighted refits", {
  refitByHand <- function(fit, data, counts, w = rep(1, nrow(counts))) {
    prior <- createPrior(fit$priorType, variance = fit$priorVariance)
    t(apply(counts, 2, function(c) coef(fitModel(data, prior, fit$control, weights = c * w))))
  }
  for (model in c("cox", "fgr")) {
    sim <- simulateSparseSurvival(n = 200, p = 5, seed = 41,
                                  competing = if (model == "fgr") 0.3 else 0)
    d <- survivalData(sim, model)
    set.seed(42)
    w <- runif(200, 0.5, 2)
    fit <- fitModel(d, createPrior("laplace", variance = 0.5), weights = w)
    boot <- runBootstrap(fit, replicates = 5, seed = 3, keepCounts = TRUE)
    expect_identical(dim(boot$counts), c(200L, 5L))
    expect_true(all(colSums(boot$counts) == 200))
    expect_identical(boot$selectorType, "byRow")
    expected <- refitByHand(fit, d, boot$counts, w)
    dimnames(expected) <- dimnames(boot$estimates)
    expect_identical(boot$estimates, expected, label = model)
    two <- runBootstrap(fit, replicates = 5, seed = 3, threads = 2)
    expect_identical(two$estimates, boot$estimates, label = model)
  }
  # After CV, with strata resampled as rows (the auto selector for survival models).
  sim <- simulateSparseSurvival(n = 200, p = 5, seed = 43)
  d <- survivalData(sim, stratumId = rep(1:4, 50))
  fit <- fitModel(d, cvPrior(), createControl(seed = 1, fold = 4))
  boot <- runBootstrap(fit, replicates = 3, seed = 9, keepCounts = TRUE)
  expected <- refitByHand(fit, d, boot$counts)
  dimnames(expected) <- dimnames(boot$estimates)
  expect_identical(boot$estimates, expected)
})

test_that("auto CV looks past an empty model when covariates differ in scale (lung)", {
  # meal.cal is in the hundreds, sex is 1 or 2: one Laplace variance zeroes everything on a
  # plateau, then lets meal.cal in alone (held-out fit worse), and only at weak penalties
  # reaches the better model. The local search used to stop on the plateau: every
  # coefficient 0, 0.75 below the best held-out log-likelihood, with status SUCCESS.
  l <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog", "meal.cal")])
  d <- createData(survival::Surv(time, status) ~ age + sex + ph.ecog + meal.cal, data = l,
                  modelType = "cox", ties = "breslow")
  auto <- fitModel(d, cvPrior(), createControl(fold = 5, seed = 1))
  grid <- fitModel(d, cvPrior(), createControl(fold = 5, seed = 1, cvType = "grid",
                                               lowerLimit = 1e-9, upperLimit = 1e3,
                                               gridSteps = 13))
  expect_true(all(coef(auto) != 0))
  expect_gte(auto$cv$score, max(grid$cv$curve$mean) - 1e-4)
  emptyScore <- grid$cv$curve$mean[1]  # variance 1e-9: every coefficient 0
  expect_gt(auto$cv$score, emptyScore + 0.5)
  # At such a weak penalty the fit is coxph's to within the penalty's pull.
  ref <- survival::coxph(survival::Surv(time, status) ~ age + sex + ph.ecog + meal.cal,
                         data = l, ties = "breslow")
  expect_equal(unname(coef(auto)), unname(coef(ref)), tolerance = 0.05)
})

test_that("auto CV keeps the empty model when no covariate carries signal", {
  set.seed(2)
  n <- 200
  x <- cbind(a = rnorm(n) * 300, b = rbinom(n, 1, 0.5), c = rnorm(n), d = rnorm(n))
  time <- ceiling(rexp(n, 0.05))
  y <- rbinom(n, 1, 0.7)
  d <- createData(x = x, y = y, time = time, modelType = "cox", ties = "breslow")
  lines <- capture_messages(
    auto <- fitModel(d, cvPrior(), createControl(fold = 5, seed = 2, noiseLevel = "quiet")))
  # The weak penalty was scored (the chosen model was empty) and did not win.
  expect_true(any(grepl("scoring a weak penalty as well", lines)))
  expect_gt(max(auto$cv$curve$variance), 1e4 * auto$cv$variance)
  expect_true(all(coef(auto) == 0))
  expect_equal(auto$cv$score, max(auto$cv$curve$mean))
})

test_that("with a cluster() term a patient's (start, stop] rows share a fold", {
  # cgd: up to 8 rows per patient. Folds of rows held out part of a patient while fitting on
  # the rest of them.
  cgd <- survival::cgd
  d <- createData(survival::Surv(tstart, tstop, status) ~ treat + inherit + age + sex + cluster(id),
                  data = cgd, modelType = "cox", ties = "breslow")
  folds <- createFolds(d, createControl(fold = 5, seed = 1, foldStratification = "outcome"))
  expect_identical(attr(folds, "selectorType"), "byCluster")
  perPatient <- tapply(folds[, 1], cgd$id, function(v) length(unique(v)))
  expect_true(all(perPatient == 1))
  patients <- table(folds[!duplicated(cgd$id), 1])
  expect_lte(max(patients) - min(patients), 1)
  # (the data prefer almost no penalty: the search says so in a warning)
  fit <- suppressWarnings(fitModel(d, createPrior("laplace", useCrossValidation = TRUE),
                                   createControl(fold = 5, seed = 1)))
  expect_identical(fit$cv$selectorType, "byCluster")
  # rows again where the control asks for them
  expect_identical(attr(createFolds(d, createControl(fold = 5, seed = 1, selectorType = "byRow")),
                        "selectorType"), "byRow")
  expect_error(createFolds(d, createControl(fold = 200)), "200 folds need at least as many clusters")
  # user folds that split a patient are taken, with a warning; whole patients, silently
  byRowFolds <- rep(1:5, length.out = nrow(cgd))
  expect_warning(createFolds(d, createControl(foldIds = byRowFolds)), "rows of one cluster")
  expect_silent(createFolds(d, createControl(foldIds = folds[, 1])))
})
