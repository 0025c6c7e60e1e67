# Cross-validation of the prior variance: fitModel(prior = createPrior(..., useCrossValidation
# = TRUE)), createFolds(), plot().

# Ridge regression with a known Bayes-optimal variance: y = X beta + N(0, 1) noise and
# beta_j ~ N(0, tau2), so the normal prior with variance tau2 is the true prior.
simulateRidge <- function(seed, n = 200, p = 40, tau2 = 0.05) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p, dimnames = list(NULL, paste0("v", seq_len(p))))
  beta <- rnorm(p, 0, sqrt(tau2))
  list(x = x, y = drop(x %*% beta) + rnorm(n), tau2 = tau2)
}

cvPrior <- function(type = "normal") createPrior(type, useCrossValidation = TRUE)
withoutTime <- function(cv) cv[setdiff(names(cv), "seconds")]

test_that("cross-validation picks a variance near the known truth", {
  for (seed in 1:3) {
    sim <- simulateRidge(seed)
    d <- createData(x = sim$x, y = sim$y, modelType = "ls", addIntercept = FALSE)
    for (type in c("auto", "grid")) {
      fit <- fitModel(d, cvPrior(), createControl(seed = seed, cvType = type, gridSteps = 13,
                                                  lowerLimit = 1e-3, upperLimit = 10))
      expect_gt(fit$cv$variance, sim$tau2 / 5)
      expect_lt(fit$cv$variance, sim$tau2 * 5)
      expect_identical(unname(fit$priorVariance), rep(fit$cv$variance, 40))
      expect_identical(fit$variance, fit$cv$variance)
    }
  }
  # Logistic regression, normal truth with variance 0.25.
  set.seed(11)
  x <- matrix(rnorm(600 * 30), 600, 30)
  y <- rbinom(600, 1, plogis(drop(x %*% rnorm(30, 0, 0.5))))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"), cvPrior(), createControl(seed = 2))
  expect_gt(fit$cv$variance, 0.05)
  expect_lt(fit$cv$variance, 1.25)
  # No signal at all: strong shrinkage wins.
  set.seed(12)
  noise <- fitModel(createData(x = x, y = rbinom(600, 1, 0.4), modelType = "lr"),
                    cvPrior("laplace"), createControl(seed = 3))
  expect_lt(noise$cv$variance, 0.05)
})

test_that("the CV result is the same, bit for bit, with 1 and 2 threads", {
  sim <- simulateLogistic(n = 300, p = 6, seed = 5)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  sccs <- simulateSccs(nPatients = 200, seed = 6)
  ds <- createData(sccs$outcomes, sccs$covariates, modelType = "sccs")
  for (data in list(d, ds)) {
    for (type in c("auto", "grid")) {
      control <- function(threads) createControl(seed = 9, cvType = type, gridSteps = 6,
                                                 cvRepetitions = 2, fold = 5, threads = threads)
      one <- fitModel(data, cvPrior("laplace"), control(1))
      two <- fitModel(data, cvPrior("laplace"), control(2))
      expect_identical(withoutTime(one$cv), withoutTime(two$cv))
      expect_identical(coef(one), coef(two))
    }
  }
})

test_that("grid and auto agree on a problem with a broad maximum", {
  sim <- simulateRidge(2)
  d <- createData(x = sim$x, y = sim$y, modelType = "ls", addIntercept = FALSE)
  auto <- fitModel(d, cvPrior(), createControl(seed = 4, cvType = "auto"))
  grid <- fitModel(d, cvPrior(), createControl(seed = 4, cvType = "grid", gridSteps = 25,
                                               lowerLimit = 1e-3, upperLimit = 10))
  expect_lt(abs(log10(auto$cv$variance / grid$cv$variance)), 0.5)
  best <- max(grid$cv$curve$mean)
  expect_gt(auto$cv$score, best - 0.01 * abs(best))
  expect_true(auto$cv$bracketed)
  expect_lte(nrow(auto$cv$curve), 10 + 3 + 2 + 3)
  expect_identical(grid$cv$curve$variance[c(1, 25)], c(1e-3, 10))
  expect_true(all(diff(auto$cv$curve$variance) > 0))
})

test_that("the curve, the chosen variance and the fold values fit together", {
  sim <- simulateLogistic(n = 250, p = 4, seed = 7)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(d, cvPrior(), createControl(seed = 1, cvType = "grid", gridSteps = 5,
                                              fold = 4, cvRepetitions = 3))
  cv <- fit$cv
  expect_identical(dim(cv$values), c(5L, 12L))
  expect_equal(cv$curve$mean, rowMeans(cv$values), tolerance = 1e-12)
  expect_equal(cv$curve$sd, apply(cv$values, 1, sd), tolerance = 1e-12)
  expect_identical(cv$variance, cv$curve$variance[which.max(cv$curve$mean)])
  expect_identical(c(cv$folds, cv$repetitions), c(4L, 3L))
  expect_identical(cv$selectorType, "byRow")
  expect_output(print(fit), "chosen by 4-fold cross-validation x 3")
  file <- tempfile(fileext = ".pdf")
  grDevices::pdf(file)
  expect_invisible(plot(fit))
  grDevices::dev.off()
  expect_gt(file.size(file), 0)
  expect_error(plot(fitModel(d)), "no cross-validation curve")
})

test_that("the final fit keeps the user's weights", {
  sim <- simulateLogistic(n = 300, p = 5, seed = 8)
  set.seed(8)
  w <- runif(300, 0.2, 3)
  w[1:20] <- 0
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  control <- createControl(seed = 2)
  fit <- fitModel(d, cvPrior("laplace"), control, weights = w)
  ref <- fitModel(d, createPrior("laplace", variance = fit$cv$variance), control, weights = w)
  expect_identical(coef(fit), coef(ref))
  unweighted <- fitModel(d, createPrior("laplace", variance = fit$cv$variance), control)
  expect_false(identical(coef(fit), coef(unweighted)))
})

test_that("a fold's value is the held-out log-likelihood of a weighted fit on the other folds", {
  sim <- simulateLogistic(n = 200, p = 3, seed = 9)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  set.seed(1)
  w <- runif(200, 0.5, 2)
  ids <- rep(c("a", "b", "c"), length.out = 200)
  control <- createControl(cvType = "grid", lowerLimit = 0.3, upperLimit = 0.3, gridSteps = 2,
                           foldIds = ids, resetCoefficients = TRUE)
  fit <- fitModel(d, cvPrior(), control, weights = w)
  expect_identical(fit$cv$folds, 3L)
  expect_true(fit$cv$userFolds)
  for (k in 1:3) {
    out <- ids == c("a", "b", "c")[k]
    foldFit <- fitModel(d, createPrior("normal", variance = 0.3), weights = w * !out)
    eta <- drop(cbind(1, sim$x) %*% coef(foldFit))
    heldOut <- sum((w * (sim$y * eta - log1p(exp(eta))))[out])
    expect_equal(unname(fit$cv$values[1, k]), heldOut, tolerance = 1e-10)
  }
  expect_identical(unname(createFolds(d, control)[, 1]), match(ids, c("a", "b", "c")))
})

test_that("folds: balanced, strata kept whole, outcome stratification, determinism", {
  sim <- simulateLogistic(n = 403, p = 2, seed = 10)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  folds <- createFolds(d, createControl(fold = 10, cvRepetitions = 2, seed = 5))
  expect_identical(dim(folds), c(403L, 2L))
  expect_lte(diff(range(table(folds[, 1]))), 1)
  expect_false(identical(folds[, 1], folds[, 2]))
  expect_identical(folds, createFolds(d, createControl(fold = 10, cvRepetitions = 2, seed = 5)))
  set.seed(3)
  a <- createFolds(d, createControl(fold = 10))
  set.seed(3)
  expect_identical(a, createFolds(d, createControl(fold = 10)))

  # Ten events in 400 rows: without stratification some fold almost surely has none.
  y <- rep(0, 400)
  y[seq(7, 400, by = 40)] <- 1
  rare <- createData(x = matrix(rnorm(400), 400, 1), y = y, modelType = "lr")
  plain <- createFolds(rare, createControl(fold = 10, seed = 1))
  balanced <- createFolds(rare, createControl(fold = 10, seed = 1, foldStratification = "outcome"))
  expect_lt(length(unique(plain[y == 1, 1])), 10)
  expect_identical(sort(balanced[y == 1, 1]), 1:10)
  fit <- fitModel(rare, cvPrior(), createControl(fold = 10, seed = 1, cvType = "grid",
                                                 gridSteps = 3, foldStratification = "outcome"))
  expect_identical(fit$cv$foldStratification, "outcome")

  sccs <- simulateSccs(nPatients = 150, seed = 11)
  ds <- createData(sccs$outcomes, sccs$covariates, modelType = "sccs")
  f <- createFolds(ds, createControl(fold = 5, seed = 2))
  expect_identical(attr(f, "selectorType"), "byPid")
  kept <- !is.na(f[, 1])
  perStratum <- tapply(f[kept, 1], sccs$stratumId[kept], function(v) length(unique(v)))
  expect_true(all(perStratum == 1))
  expect_lte(diff(range(table(tapply(f[kept, 1], sccs$stratumId[kept], `[`, 1)))), 1)
  expect_true(all(is.na(f[!kept, 1])))
  expect_identical(attr(createFolds(ds, createControl(fold = 5, seed = 2, selectorType = "byRow")),
                        "selectorType"), "byRow")
})

test_that("user fold ids work per stratum and are checked", {
  sccs <- simulateSccs(nPatients = 120, seed = 12)
  ds <- createData(sccs$outcomes, sccs$covariates, modelType = "sccs")
  strata <- unique(sccs$stratumId)
  stratumFold <- rep(1:4, length.out = length(strata))
  ids <- stratumFold[match(sccs$stratumId, strata)]
  control <- createControl(foldIds = ids, cvType = "grid", gridSteps = 3)
  fit <- fitModel(ds, cvPrior(), control)
  expect_identical(fit$cv$folds, 4L)
  expect_identical(fit$cv$selectorType, "byPid")
  split <- seq_along(ids) %% 3
  expect_error(fitModel(ds, cvPrior(), createControl(foldIds = split)), "rows of a stratum")
  expect_error(fitModel(ds, cvPrior(), createControl(foldIds = ids[-1])), "labels but the data have .*one per row")
})

test_that("cross-validation works for every model type", {
  sim <- simulatePoisson(n = 200, seed = 13)
  gauss <- simulateGaussian(n = 150, seed = 14)
  sccs <- simulateSccs(nPatients = 150, seed = 15)
  data <- list(
    lr = createData(x = sim$x, y = as.numeric(sim$y > 0), modelType = "lr"),
    pr = createData(x = sim$x, y = sim$y, time = sim$time, modelType = "pr"),
    ls = createData(x = gauss$x, y = gauss$y, modelType = "ls"),
    clr = createData(x = sim$x, y = as.numeric(sim$y > 0), stratumId = rep(1:40, each = 5),
                     modelType = "clr"),
    cpr = createData(sccs$outcomes, sccs$covariates, modelType = "cpr"),
    sccs = createData(sccs$outcomes, sccs$covariates, modelType = "sccs"))
  for (m in names(data)) {
    fit <- fitModel(data[[m]], cvPrior("laplace"),
                    createControl(seed = 1, fold = 4, cvType = "grid", gridSteps = 4))
    expect_true(is.finite(fit$cv$score), label = m)
    expect_identical(fit$status, "SUCCESS", label = m)
    expect_identical(fit$cv$selectorType, if (m %in% c("clr", "cpr", "sccs")) "byPid" else "byRow")
  }
  # This Poisson problem prefers no penalty: the auto search says so.
  expect_warning(fit <- fitModel(data$pr, cvPrior("laplace"), createControl(seed = 1, fold = 4)),
                 "did not bracket")
  expect_false(fit$cv$bracketed)
  # Ten decades up from the start (the Laplace universal threshold), still rising.
  expect_equal(fit$cv$variance, fit$cv$startingVariance * 1e11)
  expect_identical(which.max(fit$cv$curve$mean), nrow(fit$cv$curve))
  expect_gt(fit$cv$variance, 1e6)
})

test_that("cross-validation settings are checked", {
  d <- createData(x = simulateLogistic(100, 2)$x, y = rbinom(100, 1, 0.5), modelType = "lr")
  expect_error(fitModel(d, createPrior("none", useCrossValidation = TRUE)), "laplace or normal")
  expect_error(fitModel(d, createPrior("normal", variance = c(1, 2, 3), useCrossValidation = TRUE)),
               "single 'variance'")
  # byPid of data without strata samples rows (each row its own person), as the incumbent
  expect_identical(fitModel(d, cvPrior(), createControl(selectorType = "byPid", seed = 2, fold = 5))$cv$variance,
                   fitModel(d, cvPrior(), createControl(selectorType = "byRow", seed = 2, fold = 5))$cv$variance)
  expect_error(fitModel(d, cvPrior(), createControl(fold = 101)), "at least as many rows")
  expect_error(createControl(foldStratification = "events"), "'foldStratification' must be one of \"none\", \"outcome\"")
  expect_error(createControl(startingVariance = -2), "startingVariance")  # -1: data-based
  expect_error(createControl(resetCoefficients = NA), "resetCoefficients")
  expect_error(createControl(foldIds = c(1, NA, 2)), "foldIds")
  expect_error(createControl(foldIds = 1:4, cvRepetitions = 2), "cvRepetitions")
  expect_error(createControl(foldIds = 1:4, foldStratification = "outcome"), "foldStratification")
  expect_error(createControl(seed = 0.5), "whole number")
  expect_error(createControl(threads = 0), "threads")
  expect_error(fitModel(d, cvPrior(), createControl(foldIds = rep(1, 100))), "at least 2 folds")
  expect_error(createFolds(d, createControl(), seed = "a"), "seed")
})

test_that("progress messages appear unless silent", {
  sim <- simulateLogistic(n = 150, p = 3, seed = 16)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  control <- function(noise) createControl(seed = 1, cvType = "grid", gridSteps = 3, noiseLevel = noise)
  expect_silent(fitModel(d, cvPrior(), control("silent")))
  # the engine's progress lines are messages too: suppressMessages() silences all of them
  messages <- capture_messages(fitModel(d, cvPrior(), control("quiet")))
  expect_match(messages, "predictive log-likelihood", all = FALSE)
  expect_silent(suppressMessages(fitModel(d, cvPrior(), control("noisy"))))
  expect_match(messages, "Argus cross-validation: 10 folds x 1", all = FALSE)
  expect_match(messages, "Argus lr fit", all = FALSE)
})

test_that("auto CV finds the better of two humps when covariate scales differ (birthwt)", {
  # lwt (mother's weight, ~130) and age enter at small variances and give a first maximum;
  # the 0/1 covariates enter only at weak penalties, past a dip, where the held-out fit is
  # 0.9 better. The local search stopped on the first hump (lwt alone) with SUCCESS.
  b <- MASS::birthwt
  b$race <- factor(b$race)
  d <- createData(low ~ age + lwt + race + smoke + ptl + ht + ui + ftv, data = b, modelType = "lr")
  prior <- createPrior("laplace", useCrossValidation = TRUE, exclude = "(Intercept)")
  auto <- fitModel(d, prior, createControl(fold = 5, seed = 1))
  grid <- fitModel(d, prior, createControl(fold = 5, seed = 1, cvType = "grid", lowerLimit = 1e-6,
                                           upperLimit = 100, gridSteps = 17))
  expect_gte(auto$cv$score, max(grid$cv$curve$mean) - 0.01)
  firstHump <- max(grid$cv$curve$mean[grid$cv$curve$variance < 0.1])
  expect_gt(auto$cv$score, firstHump + 0.5)
  expect_gt(sum(coef(auto)[-1] != 0), 5)
})

test_that("user folds that split a stratum of a conditional model name two of its rows", {
  sim <- simulateSccs(nPatients = 60, nDrugs = 3, seed = 5)
  data <- createData(sim$outcomes, sim$covariates, modelType = "sccs")
  folds <- rep(1:3, length.out = nrow(sim$outcomes))  # eras of one case in several folds
  # the engine said "split stratum 1 (internal numbering)"
  message <- tryCatch(fitModel(data, createPrior("laplace", useCrossValidation = TRUE),
                               control = createControl(foldIds = folds)),
                      error = conditionMessage)
  expect_match(message, "'foldIds' put rows [0-9]+ and [0-9]+, of one stratum, in different folds")
  rows <- as.numeric(regmatches(message, gregexpr("[0-9]+", message))[[1]][1:2])
  at <- match(rows, sim$outcomes$rowId)
  expect_equal(sim$outcomes$stratumId[at[1]], sim$outcomes$stratumId[at[2]])
  expect_false(folds[at[1]] == folds[at[2]])
})

test_that("a CV whose every fold scores 0 stops (Cox leave-one-out), not a choice from rounding", {
  skip_if_not_installed("survival")
  l <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])[1:80, ]
  data <- createData(Surv(time, status) ~ age + sex + ph.ecog, data = l, modelType = "cox")
  # one row per fold: a fold's partial likelihood on its own risk sets is 1 whatever beta
  # (a variance of 2667 came back, SUCCESS, with no warning)
  expect_error(fitModel(data, createPrior("laplace", useCrossValidation = TRUE),
                        createControl(fold = nrow(l), seed = 1, cvType = "grid", gridSteps = 3,
                                      noiseLevel = "silent")),
               "nothing to compare: every fold's held-out log-likelihood is 0 at every variance \\(80 folds")
})

test_that("fold fits without a finite estimate are counted and said, as the bootstrap says them", {
  skip_if_not_installed("MASS")
  d <- MASS::birthwt
  d$rare <- 0
  d$rare[which(d$low == 1)[1:2]] <- 1
  d$rare[which(d$low == 0)[1]] <- 1
  data <- createData(low ~ age + lwt + smoke + ht + ui + rare, data = d, modelType = "lr")
  control <- createControl(seed = 1, fold = 5, cvType = "grid", lowerLimit = 0.01, upperLimit = 1,
                           gridSteps = 3, noiseLevel = "silent")
  expect_warning(fit <- fitModel(data, createPrior("laplace", exclude = "rare", useCrossValidation = TRUE), control),
                 "fold fit\\(s\\) had coefficients running off to infinity")
  expect_true(all(fit$cv$curve$noFiniteMle >= 1))
  expect_equal(fit$cv$curve$notConverged, rep(0L, 3))
})

test_that("requests sized beyond the machine's memory are refused before anything is allocated", {
  # Issue 38: createFolds(<100 rows>, createControl(cvRepetitions = 2e7)) passed the 2^31 - 1
  # check, grew to 5.8 GB and ended in std::bad_alloc after 48 s.
  expect_error(Argus:::checkMemory(2^40, "this request", available = 2^30),
               "^this request needs about 1 TiB of memory, but this machine has 1 GiB available: ask for less$")
  expect_silent(Argus:::checkMemory(2^20, "a small request", available = 0))  # not checked
  available <- Argus:::availableMemory()
  if (file.exists("/proc/meminfo")) expect_true(is.finite(available) && available > 0)
  set.seed(38)
  x <- matrix(rnorm(200), 100, 2)
  data <- createData(x = x, y = rbinom(100, 1, 0.4), modelType = "lr")
  fit <- fitModel(data, createPrior("normal", 1))
  # sizes no machine holds: terabytes
  expect_error(runBootstrap(fit, replicates = .Machine$integer.max, keepCounts = TRUE),
               "runBootstrap\\(\\) with 2147483647 replicates and keepCounts = TRUE needs about [0-9.]+ TiB of memory, but this machine has")
  expect_error(profileLogLikelihood(fit, 2, maxPoints = 1e13),
               "profileLogLikelihood\\(\\) with 1e\\+13 points for 1 coefficient\\(s\\) needs about [0-9.]+ TiB")
  expect_error(fitModel(data, createPrior("normal", useCrossValidation = TRUE),
                        createControl(cvType = "grid", gridSteps = 1e6, cvRepetitions = 1e5, fold = 10)),
               "cross-validation with cvRepetitions = 100000, fold = 10, gridSteps = 1000000 on 100 rows needs about")
  expect_error(Argus::simulateSccs(1e12, 10), "simulateSccs\\(\\) with 1e\\+12 cases, up to 4 eras each, and 10 drugs needs about")
  cox <- fitModel(createData(x = x, y = rbinom(100, 1, 0.7), time = rexp(100), modelType = "cox"))
  expect_error(predict(cox, matrix(0, 1e5, 2), type = "survival", times = seq_len(1e6)),
               "survival predictions for 100000 rows at 1000000 times needs about [0-9.]+ TiB")
  # the fold plan itself, in a process limited to 2 GB of address space (ulimit -v): 2e6
  # repetitions on 100 rows need 3 GB; the limit is read from /proc/self/limits
  skip_on_os(c("windows", "mac", "solaris"))
  skip_if(!file.exists("/proc/self/limits"), "no /proc/self/limits")
  skip_if(nzchar(Sys.getenv("ASAN_OPTIONS")), "address space limits and ASan do not mix")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script), add = TRUE)
  writeLines(c('library(Argus)',
               'd <- createData(x = matrix(rnorm(200), 100, 2), y = rbinom(100, 1, 0.4), modelType = "lr")',
               'cat(tryCatch({createFolds(d, createControl(cvRepetitions = 2e6)); "allocated"},',
               '             error = function(e) conditionMessage(e)))'), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  out <- suppressWarnings(system2("bash", c("-c", shQuote(sprintf("ulimit -v 2000000; R_LIBS=%s %s --vanilla %s",
                                                                   shQuote(lib), shQuote(file.path(R.home("bin"), "Rscript")),
                                                                   shQuote(script)))),
                                  stdout = TRUE, stderr = TRUE))
  expect_true(any(grepl(paste("createFolds\\(\\) with cvRepetitions = 2000000 on 100 rows \\(2e\\+08 fold numbers\\)",
                              "needs about 2.98 GiB of memory, but this machine has [0-9.]+ [MG]iB available"), out)),
              info = paste(out, collapse = "\n"))
})
