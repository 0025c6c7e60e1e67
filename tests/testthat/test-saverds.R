# A fit keeps plain R objects only, so saveRDS()/readRDS() gives back a fit that predicts,
# gives covariances and intervals, and prints exactly as before.

# Paths to every external pointer inside x (lists and attributes; environments are not
# entered: terms keep their formula's environment, which is not the fit's data).
externalPointers <- function(x, path = "x") {
  found <- character(0)
  if (typeof(x) == "externalptr") found <- path
  if (is.list(x))
    for (i in seq_along(x))
      found <- c(found, externalPointers(x[[i]], sprintf("%s[[%d]]", path, i)))
  for (a in setdiff(names(attributes(x)), c("names", "class", "dim", "dimnames")))
    found <- c(found, externalPointers(attr(x, a), sprintf("attr(%s, '%s')", path, a)))
  found
}

roundTrip <- function(object) {
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(object, file)
  readRDS(file)
}

test_that("the walker finds external pointers (so the next tests can fail)", {
  expect_length(externalPointers(list(a = 1, b = list(c = new("externalptr")))), 1)
})

test_that("a formula lr fit survives saveRDS with identical results", {
  frame <- datasets::infert
  fit <- fitModel(createData(case ~ spontaneous + induced + factor(education), data = frame,
                             modelType = "lr"), control = tightControl())
  expect_length(externalPointers(fit$data), 0)
  expect_length(externalPointers(fit), 0)
  again <- roundTrip(fit)
  expect_identical(coef(again), coef(fit))
  expect_identical(predict(again), predict(fit))
  expect_identical(predict(again, frame[1:30, ], type = "response"),
                   predict(fit, frame[1:30, ], type = "response"))
  expect_identical(vcov(again), vcov(fit))
  expect_identical(confint(again), confint(fit))
  expect_identical(confint(again, method = "wald"), confint(fit, method = "wald"))
  expect_identical(profileLogLikelihood(again, "induced", x = c(0, 0.5)),
                   profileLogLikelihood(fit, "induced", x = c(0, 0.5)))
  expect_identical(capture.output(print(again)), capture.output(print(fit)))
  expect_identical(capture.output(print(summary(again))), capture.output(print(summary(fit))))
})

test_that("a weighted sccs fit from long tables survives saveRDS in a fresh R session", {
  sim <- simulateSccs(nPatients = 100, nDrugs = 3, seed = 41)
  set.seed(42)
  fit <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"),
                  weights = sample(1:2, length(sim$y), replace = TRUE),
                  prior = createPrior("normal", variance = 2), control = tightControl())
  expect_length(externalPointers(fit), 0)
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(paste0(file, c("", ".out", ".err"))))
  saveRDS(list(fit = fit, covariates = sim$covariates, outcomes = sim$outcomes), file)
  # A new process has no state left from this one: everything must come from the file.
  script <- sprintf(paste(
    ".libPaths(%s); library(Argus); s <- readRDS('%s');",
    "saveRDS(list(coef = coef(s$fit), link = predict(s$fit, type = 'link'),",
    "new = predict(s$fit, s$covariates, outcomes = s$outcomes, type = 'response'),",
    "vcov = vcov(s$fit), profile = confint(s$fit), wald = confint(s$fit, method = 'wald'),",
    "print = capture.output(print(s$fit))), '%s.out')"),
    paste(deparse(.libPaths()), collapse = ""), file, file)
  status <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)),
                    stdout = FALSE, stderr = paste0(file, ".err"))
  expect_equal(status, 0, info = paste(readLines(paste0(file, ".err")), collapse = "\n"))
  other <- readRDS(paste0(file, ".out"))
  expect_identical(other$coef, coef(fit))
  expect_identical(other$link, predict(fit, type = "link"))
  expect_identical(other$new, predict(fit, sim$covariates, outcomes = sim$outcomes,
                                      type = "response"))
  expect_identical(other$vcov, vcov(fit))
  expect_identical(other$profile, confint(fit))
  expect_identical(other$wald, confint(fit, method = "wald"))
  expect_identical(other$print, capture.output(print(fit)))
})

test_that("cox and fgr fits survive saveRDS with identical results", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(43)
  cox <- fitModel(createData(Surv(time, status == 2) ~ age + ph.ecog + strata(sex), data = lung,
                             modelType = "cox", ties = "efron",
                             weights = runif(nrow(lung), 0.5, 2)),
                  control = survivalControl())
  sim <- simulateCompeting(n = 300, seed = 44, resolution = 1)
  fgr <- fitModel(createData(x = sim$x[, 1:3], y = sim$y, time = sim$time, modelType = "fgr"),
                  control = survivalControl())
  cases <- list(
    list(fit = cox, newdata = lung[c(4, 60, 111), ], probability = "survival"),
    list(fit = fgr, newdata = sim$x[c(2, 9), 1:3], probability = "cumulativeIncidence"))
  for (case in cases) {
    fit <- case$fit
    expect_length(externalPointers(fit), 0)
    again <- roundTrip(fit)
    expect_identical(coef(again), coef(fit))
    for (type in c("link", "response", "risk")) {
      expect_identical(predict(again, type = type), predict(fit, type = type))
      expect_identical(predict(again, case$newdata, type = type),
                       predict(fit, case$newdata, type = type))
    }
    times <- c(5, 100, 300)
    expect_identical(predict(again, type = case$probability, times = times),
                     predict(fit, type = case$probability, times = times))
    expect_identical(predict(again, case$newdata, type = case$probability, times = times),
                     predict(fit, case$newdata, type = case$probability, times = times))
    expect_identical(baselineHazard(again), baselineHazard(fit))
    expect_identical(vcov(again), vcov(fit))
    # (some cases have non-integer weights: the intervals warn that they are too narrow)
    expect_identical(suppressWarnings(confint(again)), suppressWarnings(confint(fit)))
    expect_identical(suppressWarnings(confint(again, method = "wald")),
                     suppressWarnings(confint(fit, method = "wald")))
  }
})
