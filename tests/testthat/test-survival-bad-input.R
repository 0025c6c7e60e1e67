# Invalid survival input (cox, fgr) stops with a clear message naming the problem; a stratum
# without events is handled and reported.

survX <- matrix(c(0.5, -1, 2, 0, 1, -0.3, 1, 0, 0, 1, 1, 0), 6,
                dimnames = list(NULL, c("a", "b")))
survY <- c(1, 0, 1, 1, 0, 0)
survTime <- c(5, 3, 8, 2, 6, 4)
survOutcomes <- function(...) {
  o <- data.frame(rowId = 1:6, y = survY, time = survTime)
  changes <- list(...)
  for (name in names(changes)) o[[name]] <- changes[[name]]
  o
}
survCovariates <- function() toLong(survX, survY)$covariates
survFrame <- function(...) {
  f <- data.frame(survX, status = survY, time = survTime, start = 0, site = c(1, 1, 1, 2, 2, 2))
  changes <- list(...)
  for (name in names(changes)) f[[name]] <- changes[[name]]
  f
}

test_that("missing or non-finite times are refused (negative ones are times like any other)", {
  for (model in c("cox", "fgr")) {
    expect_error(createData(x = survX, y = survY, time = replace(survTime, 3, NA),
                            modelType = model),
                 "'time' has 1 missing or non-finite value\\(s\\), the first at position 3")
    expect_error(createData(x = survX, y = survY, time = replace(survTime, 4, Inf),
                            modelType = model), "'time' has 1 missing or non-finite")
    expect_error(createData(survOutcomes(time = replace(survTime, 1, NaN)), survCovariates(),
                            modelType = model), "'time' has 1 missing or non-finite")
  }
  expect_error(createData(Surv(time, status) ~ a + b,
                          data = survFrame(time = replace(survTime, 6, NA)), modelType = "cox", ties = "breslow",
                          na.action = na.fail),
               "'time' has 1 missing or non-finite value\\(s\\), the first at position 6")
})

test_that("a missing time is refused", {
  for (model in c("cox", "fgr")) {
    expect_error(createData(x = survX, y = survY, modelType = model),
                 sprintf("modelType '%s' needs the event or censoring 'time' of each row", model))
    expect_error(createData(survOutcomes()[, c("rowId", "y")], survCovariates(),
                            modelType = model), "needs the event or censoring 'time'")
  }
  # a plain response in the formula: no time
  expect_error(createData(status ~ a + b, data = survFrame(), modelType = "cox", ties = "breslow"),
               "modelType 'cox' needs a Surv\\(time, status\\) response .*or the times in 'time'")
  expect_error(createData(Surv() ~ a + b, data = survFrame(), modelType = "cox", ties = "breslow"),
               "Surv\\(\\) needs \\(time, status\\) or \\(start, stop, status\\)")
  expect_error(createData(x = survX, y = survY, time = survTime[1:5], modelType = "cox", ties = "breslow"),
               "'time' has length 5 but 6 values are needed")
})

test_that("startTime must be before time, finite, and is for cox only", {
  expect_error(createData(x = survX, y = survY, time = survTime,
                          startTime = c(0, 0, 8, 0, 0, 0), modelType = "cox", ties = "breslow"),
               "'startTime' must be before 'time' \\(row 3: startTime 8, time 8\\)")
  expect_error(createData(x = survX, y = survY, time = survTime,
                          startTime = c(0, 0, 0, 0, 7, 0), modelType = "cox", ties = "breslow"),
               "'startTime' must be before 'time' \\(row 5: startTime 7, time 6\\)")
  # apart by rounding: every digit shown ("startTime 0.3, time 0.3" said nothing)
  expect_error(createData(x = survX, y = survY, time = c(survTime[1:4], 0.3, survTime[6]),
                          startTime = c(0, 0, 0, 0, 0.1 + 0.2, 0), modelType = "cox", ties = "breslow"),
               "row 5: startTime 0.30000000000000004, time 0.29999999999999999")
  expect_error(createData(survOutcomes(startTime = c(0, 3, 0, 0, 0, 0)), survCovariates(),
                          modelType = "cox", ties = "breslow"), "'startTime' must be before 'time' \\(row 2")
  expect_error(createData(Surv(start, time, status) ~ a + b,
                          data = survFrame(start = c(0, 0, 0, 2, 0, 0)), modelType = "cox", ties = "breslow"),
               "'startTime' must be before 'time' \\(row 4: startTime 2, time 2\\)")
  expect_error(createData(x = survX, y = survY, time = survTime,
                          startTime = c(0, NA, 0, 0, 0, 0), modelType = "cox", ties = "breslow"),
               "'startTime' has 1 missing or non-finite value\\(s\\), the first at position 2")
  expect_error(createData(x = survX, y = survY, time = survTime, startTime = rep(0, 5),
                          modelType = "cox", ties = "breslow"), "'startTime' has length 5 but 6 values are needed")
  # Fine-Gray takes no counting-process data
  expect_error(createData(x = survX, y = survY, time = survTime, startTime = rep(0, 6),
                          modelType = "fgr"), "'startTime' .* is for modelType 'cox' only")
  expect_error(createData(Surv(start, time, status) ~ a + b, data = survFrame(),
                          modelType = "fgr"), "'startTime' .* is for modelType 'cox' only")
  expect_error(createData(survOutcomes(startTime = rep(0, 6)), survCovariates(),
                          modelType = "fgr"), "is for modelType 'cox' only")
  expect_error(createData(x = survX, y = survY, startTime = rep(0, 6), modelType = "lr"),
               "'startTime' is only for modelType 'cox'")
})

test_that("y codes outside the model's set are refused", {
  expect_error(createData(x = survX, y = replace(survY, 2, 2), time = survTime, modelType = "cox", ties = "breslow"),
               "'y' must be 0 \\(censored\\) or 1 \\(event\\) for modelType 'cox' \\(row 2 is 2\\)")
  expect_error(createData(survOutcomes(y = replace(survY, 6, -1)), survCovariates(),
                          modelType = "cox", ties = "breslow"), "for modelType 'cox' \\(row 6 is -1\\)")
  # 0/1/2 is not survival's 1/2 coding shifted: the 0 cannot be read
  expect_error(createData(Surv(time, status) ~ a + b, data = survFrame(status = c(1, 0, 2, 1, 0, 0)),
                          modelType = "cox", ties = "breslow"),
               paste("the Surv\\(\\) status of row 2 is 0: modelType 'cox' reads statuses 0/1",
                     ".*statuses 0, 1 and 2 are competing risks: modelType 'fgr'"))
  expect_error(createData(x = survX, y = replace(survY, 2, 3), time = survTime, modelType = "fgr"),
               paste0("'y' must be 0 \\(censored\\), 1 \\(event of interest\\) or 2 \\(competing ",
                      "event\\) for modelType 'fgr' \\(row 2 is 3\\)"))
  expect_error(createData(x = survX, y = replace(survY, 4, 0.5), time = survTime, modelType = "fgr"),
               "for modelType 'fgr' \\(row 4 is 0.5\\)")
  expect_error(createData(x = survX, y = replace(survY, 1, NA), time = survTime, modelType = "fgr"),
               "'y' has 1 missing or non-finite")
  expect_error(createData(Surv(time, status) ~ a + b, data = survFrame(status = c(1, 0, 3, 1, 2, 0)),
                          modelType = "fgr"), "for modelType 'fgr' \\(row 3 is 3\\)")
})

test_that("options that belong to the other survival model are refused", {
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                          ties = "efron"), "ties = \"efron\" is for modelType 'cox' and 'clr' only")
  expect_error(createData(x = survX, y = survY, modelType = "lr", ties = "efron"),
               "ties = \"efron\" is for modelType 'cox' and 'clr' only")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "cox",
                          ties = "exact"), "ties = \"exact\" is not implemented for modelType 'cox'")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "cox",
                          ties = "approximate"), "should be one of")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "cox", ties = "breslow",
                          censoringSurvival = rep(1, 6)),
               "'censoringSurvival' is for modelType 'fgr' only")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "cox", ties = "breslow",
                          censoringByStratum = TRUE),
               "'censoringByStratum' is for modelType 'fgr' only")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                          censoringByStratum = NA), "censoringByStratum")
  expect_error(createData(Surv(time, status) ~ a + b, data = survFrame(), modelType = "lr"),
               "a Surv\\(\\) response is for modelType 'cox' or 'fgr', not 'lr'")
})

test_that("censoringSurvival must lie in (0, 1], one finite value per row", {
  bad <- list(c(1, 1, 0, 1, 1, 1), c(1, 1, 1.2, 1, 1, 1), c(1, -0.1, 1, 1, 1, 1))
  rows <- c(3, 3, 2)
  for (k in seq_along(bad)) {
    expect_error(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                            censoringSurvival = bad[[k]]),
                 sprintf("'censoringSurvival' must lie in \\(0, 1\\] \\(row %d is", rows[k]))
  }
  expect_error(createData(survOutcomes(censoringSurvival = c(1, 1, 0, 1, 1, 1)),
                          survCovariates(), modelType = "fgr"),
               "'censoringSurvival' must lie in \\(0, 1\\] \\(row 3 is 0\\)")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                          censoringSurvival = c(1, 1, NA, 1, 1, 1)),
               "'censoringSurvival' has 1 missing or non-finite value\\(s\\), the first at position 3")
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                          censoringSurvival = c(1, 0.5)),
               "'censoringSurvival' has length 2 but 6 values are needed")
  expect_error(createData(Surv(time, status) ~ a + b, data = survFrame(), modelType = "fgr",
                          censoringSurvival = rep(2, 6)), "must lie in \\(0, 1\\]")
  # the boundary 1 is allowed
  expect_s3_class(createData(x = survX, y = survY, time = survTime, modelType = "fgr",
                             censoringSurvival = rep(1, 6)), "argusData")
})

test_that("an intercept is refused for survival models, and none is added", {
  for (model in c("cox", "fgr")) {
    expect_error(createData(x = survX, y = survY, time = survTime, modelType = model,
                            addIntercept = TRUE),
                 sprintf("an intercept is not identifiable in a conditional or survival model \\('%s'\\)",
                         model))
    expect_error(createData(survOutcomes(), survCovariates(), modelType = model,
                            addIntercept = TRUE), "intercept is not identifiable")
    d <- createData(Surv(time, status) ~ a + b, data = survFrame(), modelType = model)
    expect_false(d$hasIntercept)
    expect_equal(d$columnNames, c("a", "b"))
    expect_false(createData(x = survX, y = survY, time = survTime, modelType = model)$hasIntercept)
  }
  expect_error(createData(Surv(time, status) ~ a + b, data = survFrame(), modelType = "cox", ties = "breslow",
                          addIntercept = TRUE), "intercept is not identifiable")
})

test_that("data without events (or with only zero-weight events) are refused", {
  expect_error(createData(x = survX, y = rep(0, 6), time = survTime, modelType = "cox", ties = "breslow"),
               "no row has an event \\(y = 1\\): modelType 'cox' has nothing to fit")
  expect_error(createData(survOutcomes(y = rep(0, 6)), survCovariates(), modelType = "cox", ties = "breslow"),
               "no row has an event")
  # competing events alone are not events of interest
  expect_error(createData(x = survX, y = c(0, 2, 0, 2, 0, 2), time = survTime, modelType = "fgr"),
               "no row has an event \\(y = 1\\): modelType 'fgr' has nothing to fit")
  expect_error(createData(Surv(start, time, status) ~ a + b, data = survFrame(status = 0),
                          modelType = "cox", ties = "breslow"), "no row has an event")
  # every event weighted 0: nothing to fit either
  zeroOnEvents <- ifelse(survY == 1, 0, 1)
  for (model in c("cox", "fgr")) {
    expect_error(createData(x = survX, y = survY, time = survTime, modelType = model,
                            weights = zeroOnEvents),
                 sprintf("every event \\(y = 1\\) has weight 0: modelType '%s'", model))
    data <- createData(x = survX, y = survY, time = survTime, modelType = model)
    expect_error(fitModel(data, weights = zeroOnEvents), "every event \\(y = 1\\) has weight 0")
    # one event with a positive weight is enough to fit (here it is the last row at risk at
    # its time, so the covariates carry no information: flagged, not guessed)
    expect_warning(fit <- fitModel(data, weights = replace(zeroOnEvents, 3, 1)),
                   "'a', 'b' cannot be estimated")
    expect_s3_class(fit, "argusFit")
  }
  expect_error(createData(x = survX, y = survY, time = survTime, modelType = "cox", ties = "breslow",
                          weights = replace(rep(1, 6), 2, -1)),
               "'weights' must be non-negative \\(position 2 is -1\\)")
})

test_that("a cox stratum without events is kept (its rows predicted, as coxph), not a crash", {
  skip_if_not_installed("survival")
  set.seed(401)
  n <- 60
  frame <- data.frame(a = rnorm(n), b = rbinom(n, 1, 0.5), time = sample(1:30, n, TRUE),
                      status = rbinom(n, 1, 0.6), site = rep(c(1, 2, 3), each = 20))
  frame$status[frame$site == 2] <- 0
  data <- createData(Surv(time, status) ~ a + b + strata(site), data = frame, modelType = "cox", ties = "breslow")
  expect_equal(data$nStrata, 3L)
  expect_equal(data$nRows, 60)
  expect_equal(data$dropped$strata, 0)
  expect_output(print(data), "rows: 60 in 3 strata")
  fit <- fitModel(data, control = survivalControl())
  expect_equal(fit$status, "SUCCESS")
  ref <- coxRef(Surv(time, status) ~ a + b + strata(site), frame)
  expect_lte(maxRelDiff(coef(fit), coef(ref)), 1e-6)
  expect_false(anyNA(predict(fit)))
  # the same through the matrix and long routes; weights for fitModel() are given for all the
  # user's rows
  byMatrix <- createData(x = as.matrix(frame[, c("a", "b")]), y = frame$status, time = frame$time,
                         stratumId = frame$site, modelType = "cox", ties = "breslow")
  expect_equal(byMatrix$dropped$strata, 0)
  w <- runif(n, 0.5, 2)
  weighted <- fitModel(byMatrix, weights = w, control = survivalControl())
  expect_lte(maxRelDiff(coef(weighted),
                        coef(coxRef(Surv(time, status) ~ a + b + strata(site), frame, weights = w))),
             1e-6)
  expect_error(fitModel(byMatrix, weights = w[1:40]), "'weights' has 40 values but the data have 60 rows")
  # a Fine-Gray stratum without events of interest is kept: its rows still shape the
  # censoring distribution
  fg <- createData(Surv(time, status) ~ a + b + strata(site), data = frame, modelType = "fgr")
  expect_equal(fg$nStrata, 3L)
  expect_equal(fg$dropped$strata, 0)
  # every stratum without events: nothing to fit
  expect_error(createData(Surv(time, status) ~ a + b + strata(site),
                          data = transform(frame, status = 0), modelType = "cox", ties = "breslow"),
               "no row has an event")
})

test_that("user-supplied censoringSurvival must agree between events tied at one time", {
  # G(t_e-) weights every competing row at event time t_e, so tied events need one value
  # (per stratum). Per-group G, as crr's cengroup would use, gives tied events of two groups
  # different values: refused rather than fitted with one of them.
  x <- cbind(a = c(0.5, -1, 2, 0, 1, -0.3))
  y <- c(1, 1, 2, 0, 1, 0)
  time <- c(5, 5, 3, 2, 6, 4)
  expect_error(createData(x = x, y = y, time = time, modelType = "fgr",
                          censoringSurvival = c(0.9, 0.8, 1, 1, 0.7, 1)),
               "'censoringSurvival' must be one value per event time.*rows 1 and 2 .*cengroup")
  # in different strata the two events are not tied (on six rows, 'a' separates them: said)
  expect_warning(
    fit <- fitModel(createData(x = x, y = y, time = time, stratumId = c(1, 2, 1, 2, 1, 2),
                               modelType = "fgr", censoringSurvival = c(0.9, 0.8, 1, 1, 0.7, 1))),
    "no finite maximum-likelihood estimate: the coefficient\\(s\\) of 'a'")
  expect_s3_class(fit, "argusFit")
})

test_that("a censoringSurvival that rises with time, or spans more than 1e10, is an error; a steep one fits, as a direct optimization", {
  skip_if_not_installed("survival")
  # Issue 38: one competing row's G(t-) of 1e-300, later events' about 0.5: that row weighed
  # 1e300 in every later risk set, the sums lost the other rows, and the fit reported SUCCESS
  # with two coefficients "cannot be estimated", several log-likelihood units below the
  # maximum. G is a survival function: it does not rise with time.
  sim <- simulateCompeting(n = 300, seed = 38)
  g <- censoringSurvivalBefore(sim$time, sim$y)
  events <- which(sim$y == 1)
  competing <- which(sim$y == 2 & sim$time < max(sim$time[events]))
  k <- competing[which.max(sim$time[competing])]  # the last competing row before an event
  rising <- replace(g, k, 1e-300)
  expect_error(createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = rising, modelType = "fgr"),
               sprintf("'censoringSurvival' must not rise with time .* the competing row %d .* has 1e-300", k))
  long <- toLong(sim$x, sim$y, time = sim$time, censoringSurvival = rising)
  expect_error(createData(long$outcomes, long$covariates, modelType = "fgr"), "must not rise with time")
  # the engine refuses it as well (an edited data object)
  d <- createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = g, modelType = "fgr")
  d$censoringSurvival[match(k, d$order)] <- 1e-300
  expect_error(fitModel(d), "censoring survival rises with time")
  # A G that falls 1e-6-fold after the 80th percentile of time (a censoring all but certain
  # there) is a survival function: competing rows from before weigh 1e-6 in the late risk
  # sets. The fit is the maximum of the pseudo-likelihood written here in R.
  late <- sim$time > stats::quantile(sim$time, 0.8)
  steep <- ifelse(late, g * 1e-6, g)
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = steep,
                             modelType = "fgr"), control = survivalControl())
  expect_equal(fit$status, "SUCCESS")
  expect_false(any(is.na(coef(fit))))
  objective <- function(b) -fineGrayLogLik(b, sim$time, sim$y, sim$x, steep)
  direct <- stats::optim(rep(0, ncol(sim$x)), objective, method = "BFGS",
                         control = list(reltol = 1e-14, maxit = 1000))
  expect_equal(direct$convergence, 0)
  expect_lte(maxRelDiff(coef(fit), direct$par), 1e-4)
  expect_lte(abs(as.numeric(logLik(fit)) + direct$value), 1e-7)
  expect_lte(objective(coef(fit)), direct$value + 1e-9)  # the direct search found no better point
  # and it differs from the fit with G itself (the late weights matter)
  plain <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = g,
                               modelType = "fgr"), control = survivalControl())
  expect_gt(max(abs(coef(fit) - coef(plain))), 1e-3)
  # Falling 1e-20-fold, the late competing rows' curvature was lost to rounding in the
  # risk-set sums (a coefficient called aliased, with SUCCESS): beyond a span of 1e10, refused.
  # Scaled as a whole (1e-300 times), G weighs every row as before.
  expect_error(createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = ifelse(late, g * 1e-20, g),
                          modelType = "fgr"),
               "'censoringSurvival' spans a ratio of [0-9.e+]+ among the event and competing rows \\(row")
  scaled <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, censoringSurvival = steep * 1e-290,
                                modelType = "fgr"), control = survivalControl())
  expect_equal(coef(scaled), coef(fit), tolerance = 1e-10)
})
