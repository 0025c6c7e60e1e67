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
    "saveRDS(list(coef = coef(s$fit), link = predict(s$fit),",
    "new = predict(s$fit, s$covariates, outcomes = s$outcomes, type = 'response'),",
    "vcov = vcov(s$fit), profile = confint(s$fit), wald = confint(s$fit, method = 'wald'),",
    "print = capture.output(print(s$fit))), '%s.out')"),
    paste(deparse(.libPaths()), collapse = ""), file, file)
  status <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)),
                    stdout = FALSE, stderr = paste0(file, ".err"))
  expect_equal(status, 0, info = paste(readLines(paste0(file, ".err")), collapse = "\n"))
  other <- readRDS(paste0(file, ".out"))
  expect_identical(other$coef, coef(fit))
  expect_identical(other$link, predict(fit))
  expect_identical(other$new, predict(fit, sim$covariates, outcomes = sim$outcomes,
                                      type = "response"))
  expect_identical(other$vcov, vcov(fit))
  expect_identical(other$profile, confint(fit))
  expect_identical(other$wald, confint(fit, method = "wald"))
  expect_identical(other$print, capture.output(print(fit)))
})
