# Invalid input stops with a clear message naming the problem.

# stratumId = NULL drops the column (lr, pr, ls: createData() would say it is not used)
badOutcomes <- function(...) {
  o <- data.frame(rowId = 1:6, stratumId = c(1, 1, 2, 2, 3, 3), y = c(1, 0, 0, 1, 0, 1))
  changes <- list(...)
  for (name in names(changes)) o[[name]] <- changes[[name]]
  o
}
badCovariates <- function() {
  data.frame(rowId = c(1, 2, 3, 5, 6), covariateId = c(10, 10, 11, 11, 10),
             covariateValue = c(1, 2, 1, 1, 3))
}
badX <- matrix(c(1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1), 6, dimnames = list(NULL, c("a", "b")))

test_that("missing or non-finite values in y, covariate values, time and offset", {
  cv <- badCovariates()
  expect_error(createData(badOutcomes(y = c(NA, 0, 0, 1, 0, 1)), cv, modelType = "lr"),
               "'y' has 1 missing or non-finite")
  expect_error(createData(x = badX, y = c(0, 1, NA, 1, 0, 1), modelType = "lr"),
               "'y' has 1 missing or non-finite value\\(s\\), the first at position 3")
  cvNA <- cv
  cvNA$covariateValue[2] <- NA
  expect_error(createData(badOutcomes(), cvNA, modelType = "lr"),
               "covariateValue' has 1 missing or non-finite")
  xNA <- badX
  xNA[2, 1] <- NA
  expect_error(createData(x = xNA, y = badOutcomes()$y, modelType = "lr"),
               "'x' has 1 missing or non-finite")
  expect_error(createData(badOutcomes(time = c(1, NA, 3, 4, 5, 6)), cv, modelType = "pr"),
               "'time' has 1 missing or non-finite")
  expect_error(createData(x = badX, y = badOutcomes()$y, time = c(1, 2, 3, NA, 5, 6),
                          stratumId = badOutcomes()$stratumId, modelType = "sccs"),
               "'time' has 1 missing or non-finite")
  expect_error(createData(badOutcomes(offset = c(0, Inf, 0, 0, 0, 0)), cv, modelType = "lr"),
               "'offset' has 1 missing or non-finite")
  expect_error(createData(x = badX, y = badOutcomes()$y, offset = c(0, 0, -Inf, 0, 0, 0),
                          modelType = "lr"), "'offset' has 1 missing or non-finite")
})

test_that("negative weights and non-positive exposure time", {
  cv <- badCovariates()
  expect_error(createData(badOutcomes(weights = c(1, -1, 1, 1, 1, 1)), cv, modelType = "lr"),
               "'weights' must be non-negative")
  expect_error(createData(x = badX, y = badOutcomes()$y, weights = c(1, 1, 1, 1, 1, -0.5),
                          modelType = "lr"), "'weights' must be non-negative")
  data <- createData(badOutcomes(stratumId = NULL), cv, modelType = "lr")
  expect_error(fitModel(data, weights = c(1, -1, 1, 1, 1, 1)), "'weights' must be non-negative")
  expect_error(createData(badOutcomes(time = c(1, 0, 3, 4, 5, 6)), cv, modelType = "pr"),
               "'time' is an exposure length and must be positive")
  expect_error(createData(badOutcomes(time = c(1, 2, -3, 4, 5, 6)), cv, modelType = "sccs"),
               "'time' is an exposure length and must be positive")
  expect_error(createData(x = badX, y = badOutcomes()$y, time = c(0, 2, 3, 4, 5, 6),
                          stratumId = badOutcomes()$stratumId, modelType = "cpr"),
               "must be positive")
})

test_that("outcomes outside the model's range", {
  cv <- badCovariates()
  expect_error(createData(badOutcomes(y = c(2, 0, 0, 1, 0, 1)), cv, modelType = "lr"),
               "'y' must be 0 or 1 for modelType 'lr'")
  expect_error(createData(badOutcomes(y = c(1, 0, 0, 1, 0, 0.5)), cv, modelType = "clr"),
               "'y' must be 0 or 1 for modelType 'clr'")
  expect_error(createData(badOutcomes(y = c(1, 0, -1, 1, 0, 1)), cv, modelType = "pr"),
               "'y' must be a non-negative count for modelType 'pr'")
  expect_error(createData(badOutcomes(y = c(1, 0, 2.5, 1, 0, 1)), cv, modelType = "pr"),
               "'y' must be a non-negative count")
  expect_error(createData(badOutcomes(y = c(1, 0, 2.5, 1, 0, 1)), cv, modelType = "sccs"),
               "'y' must be a non-negative count for modelType 'sccs'")
  # The first offending row and its value, for every outcome set (one engine pass each).
  times <- c(5, 4, 3, 2, 1, 6)
  expect_error(createData(badOutcomes(y = c(1, 0, 1, 3, 0, -1)), cv, modelType = "lr"),
               "'y' must be 0 or 1 for modelType 'lr' (row 4 is 3)", fixed = TRUE)
  expect_error(createData(badOutcomes(y = c(1, 0, 1, 0, 0.5, -1), time = times), cv, modelType = "cox"),
               "'y' must be 0 (censored) or 1 (event) for modelType 'cox' (row 5 is 0.5)", fixed = TRUE)
  expect_error(createData(badOutcomes(y = c(1, 2, 0, 3, 0, 1), time = times), cv, modelType = "fgr"),
               paste("'y' must be 0 (censored), 1 (event of interest) or 2 (competing event)",
                     "for modelType 'fgr' (row 4 is 3)"), fixed = TRUE)
  expect_error(createData(badOutcomes(y = c(1, 0, 2, 4, -2, 1.5), time = times), cv, modelType = "pr"),
               "'y' must be a non-negative count for modelType 'pr' (row 5 is -2)", fixed = TRUE)
  expect_error(createData(badOutcomes(y = c(1, 0, 2, 4, 7, 1.5), time = times), cv, modelType = "cpr"),
               "'y' must be a non-negative count for modelType 'cpr' (row 6 is 1.5)", fixed = TRUE)
  # ls takes any finite y
  expect_s3_class(createData(badOutcomes(stratumId = NULL, y = c(-1.5, 0, 2, 4, 7, 1e6)), cv, modelType = "ls"),
                  "argusData")
})

test_that("a grouped binomial response cbind(successes, failures) is refused with the way to write it", {
  d <- data.frame(s = c(3, 5, 2, 7), f = c(4, 2, 6, 1), x = c(1, 2, 3, 4))
  expect_error(createData(cbind(s, f) ~ x, data = d, modelType = "lr"),
               "matrix response \\(cbind\\(s, f\\)\\) is not supported.*counts as weights")
  for (modelType in c("pr", "ls"))
    expect_error(createData(cbind(s, f) ~ x, data = d, modelType = modelType),
                 "matrix response \\(cbind\\(s, f\\)\\) is not supported: give one outcome per row")
  expect_error(createData(cbind(s, f) ~ x, data = d, modelType = "cox"),
               "modelType 'cox' needs a Surv\\(time, status\\) response")
  expect_error(createData(x = cbind(d$x), y = cbind(d$s, d$f), time = d$x, modelType = "cox"),
               "a matrix 'y' is not read for modelType 'cox': give a Surv\\(time, status\\) response")
  expect_error(createData(x = cbind(d$x), y = cbind(d$s, d$f), modelType = "lr"),
               "a matrix 'y' is not supported: for grouped binomial data")
  # a survival model without a Surv() response or times
  expect_error(createData(s ~ x, data = d, modelType = "cox"), "needs a Surv\\(time, status\\) response")
  # what the message says, against glm's grouped fit
  long <- data.frame(y = rep(c(1, 0), each = 4), x = rep(d$x, 2), w = c(d$s, d$f))
  fit <- fitModel(createData(y ~ x, data = long, modelType = "lr"), weights = long$w,
                  control = createControl(tolerance = 1e-10))
  reference <- glm(cbind(s, f) ~ x, family = binomial, data = d)
  expect_lt(max(abs(coef(fit) - coef(reference))), 1e-6)
})

test_that("non-positive exposures name their first row; survival times may be negative", {
  cv <- badCovariates()
  expect_s3_class(createData(badOutcomes(time = c(5, 4, -3, 2, -1, 6)), cv, modelType = "cox"),
                  "argusData")
  expect_error(createData(badOutcomes(time = c(5, 0, 3, 2, 1, 6)), cv, modelType = "sccs"),
               "'time' is an exposure length and must be positive (row 2 is 0)", fixed = TRUE)
  # a zero survival time is allowed (an event or censoring at the origin)
  expect_s3_class(createData(badOutcomes(time = c(5, 0, 3, 2, 1, 6)), cv, modelType = "cox"),
                  "argusData")
})

test_that("unknown modelType and empty data", {
  cv <- badCovariates()
  expect_error(createData(badOutcomes(), cv, modelType = "logistic"),
               "unknown modelType 'logistic'; expected one of ls, lr, pr, clr, cpr, sccs")
  expect_error(createData(badOutcomes(), cv), "'modelType' is required")
  expect_error(createData(badOutcomes()[0, ], cv, modelType = "lr"), "'outcomes' has no rows")
  expect_error(createData(x = badX[0, , drop = FALSE], y = numeric(0), modelType = "lr"),
               "no rows")
  expect_error(createData(x = badX[, 0, drop = FALSE], y = badOutcomes()$y, modelType = "lr"),
               "'x' has no columns")
  expect_error(createData(y ~ 0, data = badOutcomes(), modelType = "lr"),
               "the formula has no covariates")  # (y ~ 1 is the null model, as glm)
  # no covariates at all and no intercept: nothing to fit (at createData or at fitModel)
  expect_error(fitModel(createData(badOutcomes(stratumId = NULL), cv[0, ], modelType = "lr",
                                   addIntercept = FALSE)), "no covariates|no columns")
  expect_error(fitModel(createData(badOutcomes(), cv[0, ], modelType = "clr")),
               "no covariates|no columns")
})

test_that("inconsistent identifiers in the long format", {
  cv <- badCovariates()
  orphan <- cv
  orphan$rowId[5] <- 99
  expect_error(createData(badOutcomes(), orphan, modelType = "lr"),
               "covariates\\$rowId 99 does not appear in outcomes\\$rowId")
  expect_error(createData(badOutcomes(), rbind(cv, cv[3, ]), modelType = "lr"),
               "covariate '11' appears more than once for row 3")
  expect_error(createData(badOutcomes(rowId = c(1, 2, 3, 4, 4, 6)), cv[-4, ], modelType = "lr"),
               "'outcomes\\$rowId' must be unique; 4 appears more than once")
  lgl <- cv
  lgl$covariateId <- lgl$covariateId > 10
  expect_error(createData(badOutcomes(), lgl, modelType = "lr"),
               paste("'covariates\\$covariateId' must be numeric, bit64::integer64, character or a",
                     "factor, not logical"))
  expect_error(createData(badOutcomes(), cv[, c("rowId", "covariateValue")], modelType = "lr"),
               "'covariates' lacks column\\(s\\) 'covariateId'")
  expect_error(createData(badOutcomes()[, c("rowId", "stratumId")], cv, modelType = "lr"),
               "'outcomes' lacks column\\(s\\) 'y'")
})

test_that("conditional models need strata, no intercept, and at least one event", {
  cv <- badCovariates()
  noStrata <- badOutcomes()[, c("rowId", "y")]
  expect_error(createData(noStrata, cv, modelType = "sccs"),
               "modelType 'sccs' needs a 'stratumId'")
  expect_error(createData(noStrata, cv, modelType = "clr"),
               "modelType 'clr' needs a 'stratumId'")
  expect_error(createData(x = badX, y = badOutcomes()$y, modelType = "clr"),
               "needs a stratum for each row")
  expect_error(createData(badOutcomes(stratumId = c(1, 1, NA, 2, 3, 3)), cv, modelType = "clr"),
               "'stratumId' has missing values")
  expect_error(createData(badOutcomes(), cv, modelType = "clr", addIntercept = TRUE),
               "intercept is not identifiable in a conditional or survival model \\('clr'\\)")
  expect_error(createData(x = badX, y = badOutcomes()$y, stratumId = badOutcomes()$stratumId,
                          modelType = "sccs", addIntercept = TRUE),
               "intercept is not identifiable")
  for (model in c("clr", "cpr", "sccs")) {
    exposure <- if (model == "clr") NULL else rep(1, 6)   # cpr and sccs need time
    expect_error(createData(badOutcomes(y = rep(0, 6), time = exposure), cv, modelType = model),
                 "no stratum has an event")
  }
})

test_that("priors and fitModel arguments of the wrong shape", {
  data <- createData(badOutcomes(stratumId = NULL), badCovariates(), modelType = "lr")   # 3 covariates
  expect_error(fitModel(data, createPrior("laplace", variance = c(1, 2))),
               "'variance' has 2 values but the data have 3 covariates")
  expect_error(fitModel(data, createPrior(c("laplace", "normal"))),
               "'priorType' has 2 values but the data have 3 covariates")
  expect_error(fitModel(data, createPrior("laplace", exclude = 999)),
               "'exclude' names covariate\\(s\\) not in the data: 999")
  expect_error(createPrior("laplace", variance = 0), "'variance' must be positive")
  expect_error(createPrior("lasso"), "'priorType' must be one of none, laplace, normal")
  expect_error(fitModel(data, weights = c(1, 2)), "'weights' has 2 values but the data have 6 rows")
  expect_error(fitModel(data, startingCoefficients = c(0.1, 0.2)),
               "'startingCoefficients' has 2 values but the data have 3 covariates")
  expect_error(fitModel(data, fixedCoefficients = 12345),
               "'fixedCoefficients' names covariate\\(s\\) not in the data")
  expect_error(fitModel(data, createPrior("laplace", useCrossValidation = TRUE)),
               "10 folds need at least as many rows \\(the data have 6\\)")
  expect_error(fitModel(list(), createPrior()), "'data' must come from createData\\(\\)")
  expect_error(createControl(device = "gpu"), "'device' must be")
  expect_error(createControl(tolerance = -1), "'tolerance' must be between")
})

test_that("a CUDA device in a CPU-only build is refused with a message about CUDA", {
  skip_if(hasCuda(), "this build has CUDA and a GPU")
  data <- createData(badOutcomes(stratumId = NULL), badCovariates(), modelType = "lr")
  expect_error(fitModel(data, control = createControl(device = "cuda")), "CUDA")
  expect_error(fitModel(data, control = createControl(device = "cuda:1")), "CUDA")
  expect_false("cuda:0" %in% listDevices()$device)
})

test_that("one exposure time serves every row, as the missing-time error suggests; a broken-down fit says why", {
  set.seed(5)
  x <- matrix(rbinom(120, 1, 0.4), 40, 3, dimnames = list(NULL, c("a", "b", "c")))
  stratum <- rep(1:10, each = 4)
  y <- rpois(40, exp(0.5 * x[, 1]))
  expect_error(createData(x = x, y = y, stratumId = stratum, modelType = "sccs"), "say so\\s+with time = 1")
  one <- fitModel(createData(x = x, y = y, stratumId = stratum, time = 1, modelType = "sccs"))
  ones <- fitModel(createData(x = x, y = y, stratumId = stratum, time = rep(1, 40), modelType = "sccs"))
  expect_identical(coef(one), coef(ones))
  expect_error(createData(x = x, y = y, stratumId = stratum, time = c(1, 2), modelType = "sccs"),
               "'time' has length 2 but 40 values are needed")
  # exposures whose sum overflows within a patient: the fit breaks down, and the warning
  # points at the data, not at maxIterations
  time <- rep(1, 40)
  time[1:2] <- 1e308
  expect_warning(broken <- fitModel(createData(x = x, y = y, stratumId = stratum, time = time,
                                               modelType = "sccs")),
                 "broke down: status ILLCONDITIONED.*extreme values of time")
  expect_equal(broken$status, "ILLCONDITIONED")
})

test_that("weights beyond what double precision carries are an error; large ones within it fit as glm", {
  # Issue 38: lr with one weight of 1e300 reported NO_FINITE_MLE with every coefficient NA
  # (and a log-likelihood that was not the one at the reported coefficients); from 1e17 on
  # beside weights of 1, the other covariates were called collinear.
  set.seed(4)
  n <- 100
  x <- matrix(rnorm(2 * n), n, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(n, 1, plogis(x[, "a"]))
  huge <- c(1e300, rep(1, n - 1))
  expect_error(createData(x = x, y = y, weights = huge, modelType = "lr"),
               paste("'weights' span a ratio of 1e\\+300 \\(position 1: 1e\\+300; position 2: 1\\), beyond",
                     "the 2\\^52 \\(4.5e15\\) that double precision carries"))
  data <- createData(x = x, y = y, modelType = "lr")
  expect_error(fitModel(data, weights = huge), "'weights' span a ratio of 1e\\+300")
  expect_error(fitModel(data, weights = c(2^52 * 1.5, rep(1, n - 1))), "span a ratio")
  expect_error(fitModel(data, weights = rep(1e-120, n)), "positive weight of 1e-120 \\(position 1\\), below 1e-100")
  expect_error(fitModel(data, weights = rep(1e14, n)), "'weights' total 1e\\+16, more than 2\\^53")
  expect_error(fitModel(data, weights = c(0, 1e300, rep(1, n - 2))), "position 2: 1e\\+300; position 3: 1")
  # Within the bounds the fit is glm's (the weighted MLE is finite: row 1 near p = y[1])
  for (w1 in c(1e10, 1e14)) {
    w <- c(w1, rep(1, n - 1))
    fit <- fitModel(createData(x = x, y = y, weights = w, modelType = "lr"), control = tightControl())
    ref <- suppressWarnings(glmRef(x, y, stats::binomial(), weights = w))
    expect_equal(fit$status, "SUCCESS")
    expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
    # the log-likelihood at glm's coefficients (not from fitted(), which glm clamps at 1e-16)
    eta <- drop(stats::predict(ref, type = "link"))
    expect_equal(fit$logLikelihood, sum(w * (y * eta - pmax(eta, 0) - log1p(exp(-abs(eta))))), tolerance = 1e-8)
  }
  # scaling every weight leaves the estimates
  w <- runif(n, 0.5, 2)
  expect_equal(coef(fitModel(data, weights = w * 1e12)), coef(fitModel(data, weights = w)), tolerance = 1e-8)
})
