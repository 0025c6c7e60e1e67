# runBootstrap(): replicates are plain weighted refits, the same for any number of threads,
# summarized per coefficient.

# The replicate fits by hand: fitModel() with weights = counts x the fit's weights.
refitByHand <- function(fit, data, counts, w = rep(1, nrow(counts))) {
  prior <- createPrior(fit$priorType, variance = fit$priorVariance)
  t(apply(counts, 2, function(c) coef(fitModel(data, prior, fit$control, weights = c * w))))
}

test_that("each replicate equals fitModel() on the resample's weights", {
  sim <- simulateLogistic(n = 250, p = 4, seed = 21)
  set.seed(21)
  w <- runif(250, 0.5, 2)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(d, createPrior("laplace", variance = 0.5), weights = w)
  boot <- runBootstrap(fit, replicates = 6, seed = 3, keepCounts = TRUE)
  expect_identical(dim(boot$counts), c(250L, 6L))
  expect_true(all(colSums(boot$counts) == 250))
  expected <- refitByHand(fit, d, boot$counts, w)
  dimnames(expected) <- dimnames(boot$estimates)
  expect_identical(boot$estimates, expected)
})

test_that("strata are resampled whole, and the replicates still equal plain refits", {
  sccs <- simulateSccs(nPatients = 150, seed = 22)
  d <- createData(sccs$outcomes, sccs$covariates, modelType = "sccs")
  fit <- fitModel(d, createPrior("normal", useCrossValidation = TRUE), createControl(seed = 1))
  boot <- runBootstrap(fit, replicates = 4, seed = 7, keepCounts = TRUE)
  expect_identical(boot$selectorType, "byPid")
  byStratum <- apply(boot$counts, 2, function(c) tapply(c, sccs$stratumId, function(v) length(unique(v))))
  expect_true(all(byStratum == 1))
  expected <- refitByHand(fit, d, boot$counts)
  dimnames(expected) <- dimnames(boot$estimates)
  expect_identical(boot$estimates, expected)
  expect_true(all(fit$variance == fit$cv$variance))
})

test_that("with a cluster() term whole clusters are drawn: a patient's (start, stop] rows together", {
  # cgd: up to 8 rows per patient. The bootstrap drew rows (selectorType "byRow") though the
  # fit's clusters were patients; its standard error of 'inherit' was 0.26 against 0.32 of the
  # cluster-robust variance and of a patient-level bootstrap by hand.
  cgd <- survival::cgd
  f <- survival::Surv(tstart, tstop, status) ~ treat + inherit + age + cluster(id)
  d <- createData(f, data = cgd, modelType = "cox")
  fit <- fitModel(d)
  boot <- runBootstrap(fit, replicates = 5, seed = 4, keepCounts = TRUE)
  expect_identical(boot$selectorType, "byCluster")
  perPatient <- apply(boot$counts, 2, function(c) tapply(c, cgd$id, function(v) length(unique(v))))
  expect_true(all(perPatient == 1))
  expect_true(all(colSums(boot$counts[!duplicated(cgd$id), ]) == length(unique(cgd$id))))
  expected <- refitByHand(fit, d, boot$counts)
  dimnames(expected) <- dimnames(boot$estimates)
  expect_equal(boot$estimates, expected, tolerance = 1e-12)
  # rows drawn as before where the control asks for rows
  byRow <- fitModel(d, control = createControl(selectorType = "byRow"))
  expect_identical(runBootstrap(byRow, replicates = 2, seed = 4)$selectorType, "byRow")
})

test_that("the bootstrap is the same, bit for bit, with 1 and 2 threads and a given seed", {
  sim <- simulatePoisson(n = 200, seed = 23)
  d <- createData(x = sim$x, y = sim$y, time = sim$time, modelType = "pr")
  fit <- fitModel(d, createPrior("laplace", variance = 0.2))
  one <- runBootstrap(fit, replicates = 9, seed = 5, threads = 1)
  two <- runBootstrap(fit, replicates = 9, seed = 5, threads = 2)
  fields <- c("estimates", "summary", "status", "seed")
  expect_identical(one[fields], two[fields])
  other <- runBootstrap(fit, replicates = 9, seed = 6)
  expect_false(identical(one$estimates, other$estimates))
  set.seed(4)
  a <- runBootstrap(fit, replicates = 3)
  set.seed(4)
  expect_identical(a$estimates, runBootstrap(fit, replicates = 3)$estimates)
})

test_that("the summary is computed from the replicates", {
  sim <- simulateLogistic(n = 300, p = 6, seed = 24)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(d, createPrior("laplace", variance = 0.05))
  boot <- runBootstrap(fit, replicates = 40, level = 0.9, seed = 1)
  s <- boot$summary
  e <- boot$estimates
  expect_identical(s$covariate, names(coef(fit)))
  expect_equal(s$estimate, unname(coef(fit)))
  expect_equal(s$bias, unname(colMeans(e) - coef(fit)))
  expect_equal(s$se, unname(apply(e, 2, sd)))
  expect_equal(s$lower, unname(apply(e, 2, quantile, 0.05)))
  expect_equal(s$upper, unname(apply(e, 2, quantile, 0.95)))
  expect_equal(s$nonzero, unname(colMeans(e != 0)))
  expect_true(any(s$nonzero < 1))  # a strong L1 prior zeroes some coefficients sometimes
  expect_true(all(s$lower <= s$upper))
  expect_null(boot$counts)
  expect_output(print(boot), "40 replicates \\(byRow\\), 90% percentile intervals")
  # digits as print.data.frame gives them: no padding zeros that look like digits
  shown <- utils::capture.output(print(boot))
  first <- format(s$se, digits = 4)[1]
  expect_true(any(grepl(first, shown, fixed = TRUE)))
})

test_that("the fit keeps its data, and runBootstrap() can be given them", {
  sim <- simulateLogistic(n = 120, p = 2, seed = 25)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(d, createPrior("normal", variance = 1))
  expect_identical(fit$data, d)
  file <- tempfile(fileext = ".rds")
  saveRDS(fit, file)
  restored <- readRDS(file)
  expect_identical(runBootstrap(restored, replicates = 3, seed = 1)$estimates,
                   runBootstrap(fit, replicates = 3, seed = 1)$estimates)
  fit$data <- NULL
  expect_error(runBootstrap(fit, replicates = 3), "holds no data")
  expect_identical(runBootstrap(fit, replicates = 3, seed = 1, data = d)$estimates,
                   runBootstrap(restored, replicates = 3, seed = 1)$estimates)
  other <- createData(x = sim$x[, 1, drop = FALSE], y = sim$y, modelType = "lr")
  expect_error(runBootstrap(fit, replicates = 3, data = other), "not the data this fit")
})

test_that("bootstrap arguments are checked and progress is reported unless silent", {
  sim <- simulateLogistic(n = 100, p = 2, seed = 26)
  d <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(d, createPrior("normal", variance = 1))
  expect_error(runBootstrap(list()), "fitModel")
  expect_error(runBootstrap(fit, replicates = 1), "replicates")
  expect_error(runBootstrap(fit, replicates = 2.5), "whole number")
  expect_error(runBootstrap(fit, level = 1), "level")
  expect_error(runBootstrap(fit, threads = 0), "threads")
  expect_error(runBootstrap(fit, seed = NA), "seed")
  expect_error(runBootstrap(fit, keepCounts = "yes"), "keepCounts")
  expect_silent(runBootstrap(fit, replicates = 3, seed = 1))
  noisy <- suppressMessages(fitModel(d, createPrior("normal", variance = 1),
                                     createControl(noiseLevel = "quiet")))
  messages <- capture_messages(runBootstrap(noisy, replicates = 3, seed = 1))
  expect_match(messages, "Argus bootstrap", all = FALSE)
  expect_match(messages, "3 of 3 replicates", all = FALSE)
  expect_silent(suppressMessages(runBootstrap(noisy, replicates = 3, seed = 1)))
})

test_that("a message handler that stops during a threaded bootstrap is an R error, not a crash", {
  # the progress report ran inside the worker loop; an exception from it (an exiting or
  # stopping handler) left runTasks() with running threads: std::terminate, R gone
  set.seed(5)
  x <- matrix(rnorm(600), 200, 3)
  d <- createData(x = x, y = rbinom(200, 1, 0.4), modelType = "lr")
  fit <- suppressMessages(fitModel(d, createPrior("normal", 1), createControl(noiseLevel = "quiet")))
  caught <- tryCatch(runBootstrap(fit, replicates = 60, threads = 2, seed = 1),
                     message = function(m) "caught")
  expect_identical(caught, "caught")
  expect_error(withCallingHandlers(runBootstrap(fit, replicates = 60, threads = 2, seed = 1),
                                   message = function(m) stop("handler stopped")),
               "handler stopped")
  # byPid on data without strata resamples rows, each its own person
  byPid <- fitModel(d, createPrior("normal", 1), createControl(selectorType = "byPid"))
  boot <- runBootstrap(byPid, replicates = 4, seed = 2, keepCounts = TRUE)
  expect_identical(boot$selectorType, "byRow")
  expect_equal(unname(colSums(boot$counts)), rep(200, 4))
})

test_that("a coefficient a replicate cannot estimate is NA there, not 0 in the summaries", {
  # mtcars' carb has one car at 6 and one at 8: a resample without the car of carb = 8 cannot
  # estimate carb8, which lm gives as NA. Counting the fit's held 0 gave se 2.89 and the
  # interval (-8.49, 0) for (-8.98, -2.27) over the replicates that estimate it.
  d <- mtcars
  d$carb <- factor(d$carb)
  f <- mpg ~ wt + carb
  fit <- fitModel(createData(f, data = d, modelType = "ls"), createPrior("none"))
  expect_warning(boot <- runBootstrap(fit, replicates = 200, seed = 1, keepCounts = TRUE),
                 "could not be estimated in some replicates")
  X <- stats::model.matrix(f, d)
  byHand <- t(apply(boot$counts, 2, function(cn) {
    k <- cn > 0
    stats::coef(stats::lm.wfit(X[k, , drop = FALSE], d$mpg[k], cn[k]))
  }))
  colnames(byHand) <- colnames(X)
  expect_identical(rownames(boot$counts), rownames(d))  # the rows, named as fitted() names them
  expect_identical(is.na(boot$estimates[, "carb8"]), is.na(byHand[, "carb8"]))
  expect_gt(sum(is.na(byHand[, "carb8"])), 20)
  ok <- !is.na(byHand[, "carb8"])
  expect_equal(boot$estimates[ok, "carb8"], unname(byHand[ok, "carb8"]), tolerance = 1e-8)
  s <- boot$summary[boot$summary$covariate == "carb8", ]
  expect_equal(s$se, stats::sd(byHand[ok, "carb8"]), tolerance = 1e-8)
  expect_equal(c(s$lower, s$upper), unname(stats::quantile(byHand[ok, "carb8"], c(0.025, 0.975))),
               tolerance = 1e-8)
  expect_identical(s$estimable, sum(ok))
  expect_equal(unname(confint(boot, "carb8")[1, ]), c(s$lower, s$upper))
  # the other coefficients use every replicate
  expect_identical(boot$summary$estimable[boot$summary$covariate == "wt"], 200L)
  # a fixed coefficient has no bootstrap spread: NA, as summary() and confint() of the fit
  held <- fitModel(createData(f, data = d, modelType = "ls"), createPrior("none"),
                   startingCoefficients = unname(coef(fit)), fixedCoefficients = names(coef(fit)) == "wt")
  heldBoot <- suppressWarnings(runBootstrap(held, replicates = 20, seed = 2))
  expect_true(is.na(tidy(heldBoot)$std.error[tidy(heldBoot)$term == "wt"]))
})
