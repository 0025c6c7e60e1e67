# Survival fits whose linear predictor spans hundreds within a stratum (a wide continuous
# covariate, an offset, starting values near such an optimum). The risk sets' sums were kept
# relative to the stratum's largest eta, so a late risk set's den fell below 1e-154 and its
# curvature d / den^2 overflowed: fits ended NO_FINITE_MLE at a finite optimum, SUCCESS short
# of it, or SUCCESS with every covariate called aliased. Against coxph on the same data.

wideCox <- function(n, range, seed = 1) {
  set.seed(seed)
  d <- data.frame(x = stats::runif(n, 0, range), z = stats::rnorm(n), w = stats::rbinom(n, 1, 0.5))
  d$t <- -d$x + log(stats::rexp(n)) - 0.5 * d$z + 0.3 * d$w
  d$s <- stats::rbinom(n, 1, 0.8)
  d
}
tightCoxph <- function(formula, data) {
  survival::coxph(formula, data = data, ties = "breslow",
                  control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-13, iter.max = 100))
}

test_that("a Cox fit whose linear predictor spans about 370 reaches coxph's optimum", {
  skip_if_not_installed("survival")
  d <- wideCox(200, 380)
  ref <- tightCoxph(survival::Surv(t, s) ~ x + z, d)
  fit <- fitModel(createData(survival::Surv(t, s) ~ x + z, data = d, modelType = "cox"))
  expect_identical(fit$status, "SUCCESS")
  # was 0.96408 for coxph's 0.96465, with SUCCESS and optimality 0
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  expect_equal(fit$logLikelihood, ref$loglik[2], tolerance = 1e-9)
})

test_that("an offset spanning 420 and starting values near a wide optimum do not alias every covariate", {
  skip_if_not_installed("survival")
  d <- wideCox(300, 420)
  ref <- tightCoxph(survival::Surv(t, s) ~ z + offset(x), d)
  fit <- fitModel(createData(survival::Surv(t, s) ~ z + offset(x), data = d, modelType = "cox"))
  expect_false(any(fit$aliased))  # was z = NA, SUCCESS, log-likelihood 16 below coxph's
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  expect_equal(fit$logLikelihood, ref$loglik[2], tolerance = 1e-9)
  ref3 <- tightCoxph(survival::Surv(t, s) ~ x + z + w, d)
  started <- fitModel(createData(survival::Surv(t, s) ~ x + z + w, data = d, modelType = "cox"),
                      startingCoefficients = unname(coef(ref3)))
  expect_false(any(started$aliased))  # was NA NA NA with SUCCESS
  expect_equal(unname(coef(started)), unname(coef(ref3)), tolerance = 1e-7)
})

test_that("Fine-Gray without competing events equals coxph on a wide linear predictor", {
  skip_if_not_installed("survival")
  d <- wideCox(300, 420, seed = 2)
  ref <- tightCoxph(survival::Surv(t, s) ~ x + z, d)
  fit <- fitModel(createData(survival::Surv(t, s) ~ x + z, data = d, modelType = "fgr"))
  expect_identical(fit$status, "SUCCESS")
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
})

test_that("beyond a span of about 700 the fit says that its status may come from the overflow", {
  skip_if_not_installed("survival")
  set.seed(1)
  n <- 400
  d <- data.frame(x = stats::runif(n, 0, 800), z = stats::rnorm(n))
  d$t <- -d$x + log(stats::rexp(n))
  d$s <- stats::rbinom(n, 1, 0.8)
  data <- createData(survival::Surv(t, s) ~ x + z, data = d, modelType = "cox")
  # coxph finds 1.08 here; the fit cannot (Q0 leaves the double range), and says why
  warnings <- character(0)
  fit <- withCallingHandlers(fitModel(data, control = createControl(maxIterations = 200)),
                             warning = function(w) {
                               warnings <<- c(warnings, conditionMessage(w))
                               invokeRestart("muffleWarning")
                             })
  expect_false(fit$status == "SUCCESS")
  expect_true(any(grepl("linear predictor spans [0-9]+ within a stratum.*about 700.*may come from",
                        warnings)))
  # a genuine separation keeps its NO_FINITE_MLE (its span passes 700 as the fit runs off)
  set.seed(2)
  sep <- data.frame(x = stats::runif(200, 0, 10))
  sep$t <- rank(-sep$x)  # x orders the times exactly: monotone likelihood
  sep$s <- 1
  sepFit <- suppressWarnings(fitModel(createData(survival::Surv(t, s) ~ x, data = sep, modelType = "cox")))
  expect_identical(sepFit$status, "NO_FINITE_MLE")
  expect_identical(sepFit$infinite, "x")
  # the log-likelihood itself is exact there: at coxph's coefficients, coxph's value
  ref <- tightCoxph(survival::Surv(t, s) ~ x + z, d)
  held <- fitModel(data, startingCoefficients = unname(coef(ref)), fixedCoefficients = c(TRUE, TRUE))
  expect_equal(held$logLikelihood, ref$loglik[2], tolerance = 1e-9)
})
