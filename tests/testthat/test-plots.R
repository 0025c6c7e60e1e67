# Every plot method draws into a PNG file; the numbers drawn are checked against their source
# (profile limits against confint(), nonzero counts against fits at those variances,
# cumulative incidences against cmprsk::predict.crr).

drawsPng <- function(expr) {
  file <- tempfile(fileext = ".png")
  grDevices::png(file, width = 640, height = 480)
  value <- tryCatch(force(expr), finally = grDevices::dev.off())
  expect_gt(file.size(file), 2000)  # a blank 640 x 480 PNG is smaller
  invisible(value)
}

test_that("plot() of a cross-validated fit: curve with standard errors and nonzero counts", {
  set.seed(11)
  x <- matrix(rnorm(3000), 300, 10)
  y <- rbinom(300, 1, plogis(x[, 1] - x[, 2]))
  data <- createData(x = x, y = y, modelType = "lr")
  fit <- fitModel(data, createPrior("laplace", useCrossValidation = TRUE), createControl(fold = 5, seed = 1))
  expect_identical(drawsPng(plot(fit)), fit)
  drawsPng(plot(fit, nonzeros = FALSE, col = "blue"))
  variances <- fit$cv$curve$variance[1:3]
  counts <- Argus:::nonzerosAlongCurve(fit, variances)
  direct <- vapply(variances, function(v)
    sum(coef(fitModel(data, createPrior("laplace", variance = v), createControl(tolerance = 1e-10))) != 0), 0)
  expect_equal(counts, direct)
})

test_that("plot() of a profile likelihood marks the profile interval", {
  set.seed(12)
  x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(200, 1, plogis(0.5 * x[, 1]))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"), control = createControl(tolerance = 1e-10))
  profile <- profileLogLikelihood(fit, c("a", "b"))
  expect_s3_class(profile, "argusProfile")
  limits <- drawsPng(plot(profile))
  exact <- confint(fit, c("a", "b"))
  expect_lt(max(abs(limits - exact)), 5e-3)  # linear interpolation on the grid
  # a level the grid does not reach gives NA, not a wrong number
  expect_true(all(is.na(drawsPng(plot(profileLogLikelihood(fit, "a", bounds = c(0.3, 0.6))))[1, ])))
})

test_that("plot() of a bootstrap: intervals and histograms", {
  set.seed(13)
  x <- matrix(rnorm(600), 200, 3, dimnames = list(NULL, c("a", "b", "a_long_covariate_name")))
  y <- rbinom(200, 1, plogis(x[, 1]))
  boot <- runBootstrap(fitModel(createData(x = x, y = y, modelType = "lr")), replicates = 50, seed = 1)
  expect_identical(drawsPng(plot(boot)), boot)
  drawsPng(plot(boot, type = "histogram"))
  drawsPng(plot(boot, type = "histogram", parm = "a"))
  expect_error(plot(boot, parm = "zz"), "unknown")
})

test_that("cumulativeIncidence() of a Fine-Gray fit equals cmprsk::predict.crr, and plots", {
  skip_if_not_installed("cmprsk")
  set.seed(8)
  n <- 300
  x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.5))
  time <- rexp(n)
  code <- sample(0:2, n, TRUE)
  ref <- crrRef(time, code, x)
  fit <- fitModel(createData(x = x, y = code, time = time, modelType = "fgr"), control = survivalControl())
  newdata <- rbind(low = c(-1, 0), high = c(1, 1))
  colnames(newdata) <- c("a", "b")
  incidence <- cumulativeIncidence(fit, newdata)
  expected <- cmprsk::predict.crr(ref, unname(newdata))
  expect_lt(max(abs(incidence$time - expected[, 1])), 1e-12)
  expect_lt(max(abs(incidence$incidence - expected[, -1])), 1e-8)
  expect_equal(colnames(incidence$incidence), c("low", "high"))
  # at the covariate means
  atMeans <- cumulativeIncidence(fit)
  expect_lt(max(abs(atMeans$incidence - cmprsk::predict.crr(ref, t(colMeans(x)))[, 2])), 1e-8)
  expect_output(print(incidence), "2 curve\\(s\\)")
  expect_identical(drawsPng(plot(incidence)), incidence)
  expect_error(cumulativeIncidence(fitModel(createData(x = x, y = rbinom(n, 1, 0.5), modelType = "lr"))),
               "modelType 'fgr'")
})

test_that("plot() of survfit(fit) draws the Cox survival curves with intervals", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  fit <- fitModel(createData(Surv(time, status) ~ age + sex + strata(ph.ecog), data = lung,
                             modelType = "cox"))
  curves <- survival::survfit(fit, newdata = data.frame(age = 60, sex = 1))
  drawsPng(plot(curves, col = 1:4, conf.int = TRUE, xlab = "days", ylab = "survival"))
  expect_equal(length(curves$strata), 4)
})
