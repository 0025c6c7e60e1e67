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

# Every string a plot drew (titles, axis labels, tick labels, margin text), from the device's
# display list.
drawnText <- function(expr) {
  grDevices::pdf(NULL)
  grDevices::dev.control("enable")
  on.exit(grDevices::dev.off())
  force(expr)
  strings <- character(0)
  walk <- function(e) {
    if (is.character(e)) strings <<- c(strings, e)
    else if (is.list(e) || is.pairlist(e)) for (z in e) walk(z)
  }
  walk(grDevices::recordPlot()[[1]])
  strings
}

test_that("plot() of cumulative incidences takes the usual graphical arguments and names the time axis", {
  skip_if_not_installed("survival")
  m <- survival::mgus2
  m$etime <- ifelse(m$pstat == 0, m$futime, m$ptime)
  m$event <- ifelse(m$pstat == 0, 2 * m$death, 1)
  fit <- fitModel(createData(Surv(etime, event) ~ age + sex, data = m, modelType = "fgr"))
  incidence <- cumulativeIncidence(fit, data.frame(age = c(60, 80), sex = c("F", "M"),
                                                   row.names = c("woman 60", "man 80")))
  # xlab, ylab, main, col, lty, ylim and type were "matched by multiple actual arguments"
  text <- drawnText(plot(incidence, xlab = "months", ylab = "PCM incidence", main = "mgus2",
                         col = c("darkgreen", "purple"), lty = 1:2, ylim = c(0, 0.4), type = "s", lwd = 2))
  expect_true(all(c("months", "PCM incidence", "mgus2", "woman 60", "man 80") %in% text))
  expect_false("time" %in% text)
  # by default the x axis is the time variable of Surv(), and the bands are said
  text <- drawnText(plot(incidence))
  expect_true("etime" %in% text)
  expect_true(any(grepl("95% pointwise confidence bands", text)))
  expect_identical(drawsPng(plot(incidence, bands = FALSE, legend = FALSE)), incidence)
  expect_error(plot(incidence, TRUE, TRUE, "months"), "must be named")
})

test_that("plot() of a profile names the covariate and its scale, takes graphical arguments, and has a relative scale", {
  set.seed(12)
  n <- 300
  value <- rnorm(n)
  outcomes <- data.frame(rowId = 1:n, y = rbinom(n, 1, plogis(-0.5 + 0.6 * value)))
  covariates <- data.frame(rowId = rep(1:n, 2), covariateId = rep(c(34, 1002), each = n),
                           covariateValue = c(value, rbinom(n, 1, 0.3)))
  fit <- fitModel(createData(outcomes = outcomes, covariates = covariates, modelType = "lr"))
  profile <- profileLogLikelihood(fit, 34)
  text <- drawnText(limits <- plot(profile))
  # the x axis was the bare id "34"
  expect_true("covariate 34: log odds ratio" %in% text)
  expect_false("34" %in% text)
  expect_true("profile log-likelihood" %in% text)
  # names from a covariateRef table, and the log-likelihood ratio scale: same interval
  reference <- data.frame(covariateId = c(34, 1002), covariateName = c("age (standardized)", "diabetes"))
  text <- drawnText(relative <- plot(profile, relative = TRUE, labels = reference))
  expect_true(all(c("age (standardized): log odds ratio", "log-likelihood ratio") %in% text))
  expect_equal(relative, limits)
  # xlab, main, col, lty, ylim were "matched by multiple actual arguments"
  text <- drawnText(plot(profile, xlab = "coefficient of age", main = "age", col = "blue", lty = 2,
                         ylim = c(-192, -183), type = "l"))
  expect_true(all(c("coefficient of age", "age") %in% text))
  skip_if_not_installed("survival")
  lung <- lungComplete()
  cox <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung, modelType = "cox",
                             ties = "efron"))
  text <- drawnText(plot(profileLogLikelihood(cox, c("sex", "ph.ecog")), main = c("Sex", "ECOG")))
  expect_true(all(c("sex: log hazard ratio", "ph.ecog: log hazard ratio", "Sex", "ECOG") %in% text))
  expect_error(plot(profile, labels = 1:2), "'labels' must be")
})

test_that("the bootstrap's forest plot shows covariates only, with how often each was selected", {
  set.seed(13)
  x <- matrix(rnorm(600), 200, 3, dimnames = list(NULL, c("a", "b", "a_long_covariate_name")))
  y <- rbinom(200, 1, plogis(1 + x[, 1]))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"),
                  createPrior("laplace", variance = 0.05, exclude = "(Intercept)"))
  boot <- runBootstrap(fit, replicates = 60, seed = 1)
  text <- drawnText(plot(boot))
  expect_false("(Intercept)" %in% text)
  expect_true(all(c("a", "b", "a_long_covariate_name", "log odds ratio", "% of replicates nonzero") %in% text))
  rows <- boot$summary[boot$summary$covariate != "(Intercept)", ]
  expect_true(all(sprintf("%.0f%%", 100 * rows$nonzero) %in% text))
  expect_true(any(rows$nonzero < 1))  # the Laplace prior selects: not 100% throughout
  # the intercept when asked for by name
  expect_true("(Intercept)" %in% drawnText(plot(boot, parm = c("(Intercept)", "a"))))
  # main, xlab, col, pch were "matched by multiple actual arguments"
  text <- drawnText(plot(boot, main = "my title", xlab = "log OR", col = "red", pch = 17))
  expect_true(all(c("my title", "log OR") %in% text))
  text <- drawnText(plot(boot, type = "histogram", parm = "a", col = "grey", main = "A", breaks = 10))
  expect_true(all(c("A", "replicate estimate (log odds ratio)") %in% text))
  # a cross-validated fit's curve takes them too
  set.seed(11)
  xx <- matrix(rnorm(3000), 300, 10)
  yy <- rbinom(300, 1, plogis(xx[, 1] - xx[, 2]))
  cv <- fitModel(createData(x = xx, y = yy, modelType = "lr"), createPrior("laplace", useCrossValidation = TRUE),
                 createControl(fold = 5, seed = 1))
  text <- drawnText(plot(cv, main = "CV", xlab = "variance", nonzeros = FALSE))
  expect_true(all(c("CV", "variance") %in% text))
})
