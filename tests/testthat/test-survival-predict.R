# predict() and baselineHazard() for cox and fgr: the linear predictor and relative risk
# against predict.coxph(reference = "zero"), the cumulative baseline hazard against
# basehaz(centered = FALSE) and survfit.coxph, survival probabilities against
# survfit(coxph_fit, newdata), cumulative incidences against cmprsk::predict.crr.

# predict() gives the link by default for cox and fgr; these tests ask for it by name.
predictLink <- function(...) predict(..., type = "link")

coxFit <- function(formula, data, ties = "breslow", weights = NULL) {
  fitModel(createData(formula, data = data, modelType = "cox", ties = ties, weights = weights),
           control = survivalControl())
}

# survfit(ref, newdata = one row) at the event times of the row's stratum: time and surv.
survfitEvents <- function(ref, row) {
  sf <- survival::survfit(ref, newdata = row)
  keep <- sf$n.event > 0
  list(time = sf$time[keep], surv = sf$surv[keep])
}

# Largest relative difference of each stratum's cumulative baseline hazard from
# basehaz(ref, centered = FALSE) at the event times (ours has only those).
basehazDiff <- function(fit, ref, strataPrefix = NULL) {
  ours <- baselineHazard(fit)
  theirs <- survival::basehaz(ref, centered = FALSE)
  key <- if (is.null(strataPrefix)) ours$time else paste0(strataPrefix, ours$stratum, "|", ours$time)
  theirKey <- if (is.null(strataPrefix)) theirs$time else paste0(theirs$strata, "|", theirs$time)
  at <- match(key, theirKey)
  stopifnot(!anyNA(at))
  maxRelDiff(ours$hazard, theirs$hazard[at])
}

test_that("cox link and risk equal predict.coxph(reference = \"zero\")", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  formula <- Surv(time, status == 2) ~ age + ph.ecog + wt.loss + strata(sex)
  ref <- coxRef(formula, lung, ties = "efron")
  fit <- coxFit(formula, lung, ties = "efron")
  rows <- lung[c(5, 1, 90, 33), ]
  expect_lte(maxRelDiff(predictLink(fit, rows), predict(ref, rows, type = "lp", reference = "zero")),
             1e-6)
  expect_lte(maxRelDiff(predict(fit, rows, type = "risk"),
                        predict(ref, rows, type = "risk", reference = "zero")), 1e-6)
  expect_identical(predict(fit, rows, type = "response"), predict(fit, rows, type = "risk"))
  expect_lte(maxRelDiff(predictLink(fit), predict(ref, type = "lp", reference = "zero")), 1e-6)
  # link and risk need no strata: the strata() variable may be absent from newdata
  expect_equal(predictLink(fit, rows[, c("age", "ph.ecog", "wt.loss")]), predictLink(fit, rows))
  # coxph's other types say what they would be here: "lp" is centred by coxph, "link" is not
  expect_error(predict(fit, rows, type = "lp"), "type = \"link\" gives X beta .*uncentred")
  expect_error(predict(fit, type = "expected"), "status minus its martingale residual")
  expect_error(predict(fit, type = "terms"), "not offered")
})

test_that("baselineHazard equals basehaz(centered = FALSE): ties, strata, weights, counting process", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(401)
  wLung <- runif(nrow(lung), 0.5, 2)
  bladder2 <- survival::bladder2
  cases <- list(
    list(Surv(time, status == 2) ~ age + sex + ph.ecog, lung, NULL, NULL),
    list(Surv(time, status == 2) ~ age + ph.ecog + strata(sex), lung, wLung, "sex="),
    list(Surv(start, stop, event) ~ rx + number + size, bladder2, NULL, NULL),
    list(Surv(start, stop, event) ~ rx + number + size + strata(enum), bladder2, NULL, "enum="))
  for (case in cases) {
    for (ties in c("breslow", "efron")) {
      label <- paste(deparse(case[[1]][[3]]), ties)
      ref <- coxRef(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      fit <- coxFit(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      expect_lte(basehazDiff(fit, ref, case[[4]]), 1e-6, label = label)
    }
  }
  fit <- coxFit(Surv(time, status == 2) ~ age + ph.ecog + strata(sex), lung)
  expect_named(baselineHazard(fit), c("time", "hazard", "stratum"))
  expect_setequal(baselineHazard(fit)$stratum, c("1", "2"))
})

test_that("cox survival probabilities equal survfit(coxph, newdata) at the event times", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(402)
  w <- runif(nrow(lung), 0.5, 2)
  bladder2 <- survival::bladder2
  cases <- list(
    list(Surv(time, status == 2) ~ age + sex + ph.ecog + wt.loss, lung, NULL),
    list(Surv(time, status == 2) ~ age + ph.ecog + strata(sex), lung, w),
    list(Surv(start, stop, event) ~ rx + number + size + strata(enum), bladder2, NULL))
  for (case in cases) {
    rows <- case[[2]][c(3, 40, 77, 120), ]
    for (ties in c("breslow", "efron")) {
      label <- paste(deparse(case[[1]][[3]]), ties)
      ref <- coxRef(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      fit <- coxFit(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      for (i in seq_len(nrow(rows))) {
        want <- survfitEvents(ref, rows[i, ])
        got <- predict(fit, rows[i, ], type = "survival", times = want$time)
        expect_equal(dim(got), c(1L, length(want$time)))
        expect_lte(max(abs(got[1, ] - want$surv)), 1e-6, label = label)
      }
    }
  }
})

test_that("survival predictions: times, rows, strata from every route", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  formula <- Surv(time, status == 2) ~ age + ph.ecog + strata(sex)
  fit <- coxFit(formula, lung)
  base <- baselineHazard(fit)
  first <- min(base$time)
  times <- c(0, first - 0.5, first, 200, 1e5)
  rows <- lung[c(2, 9, 31), ]
  S <- predict(fit, rows, type = "survival", times = times)
  expect_equal(dimnames(S), list(rownames(rows), as.character(times)))
  expect_true(all(S[, 1:2] == 1))
  expect_true(all(S[, 3] <= 1))
  expect_false(is.unsorted(rev(S[1, ])))
  # after the last event time the curve stays at its last value
  last <- tapply(base$time, base$stratum, max)
  atLast <- predict(fit, rows, type = "survival", times = max(last))
  expect_equal(S[, 5], atLast[, 1])
  # fitted rows, in the user's order
  fitted <- predict(fit, type = "survival", times = c(100, 300))
  expect_equal(unname(fitted[c(2, 9, 31), ]), unname(predict(fit, rows, type = "survival",
                                                             times = c(100, 300))))
  # a matrix with stratumId, a long table with outcomes$stratumId, an argusData object
  x <- as.matrix(rows[, c("age", "ph.ecog")])
  byMatrix <- predict(fit, x, type = "survival", times = times, stratumId = rows$sex)
  expect_equal(unname(byMatrix), unname(S))
  n <- nrow(lung)
  longFit <- fitModel(createData(
    data.frame(rowId = seq_len(n), y = as.numeric(lung$status == 2), time = lung$time,
               stratumId = lung$sex),
    data.frame(rowId = rep(seq_len(n), 2), covariateId = rep(c(11, 12), each = n),
               covariateValue = c(lung$age, lung$ph.ecog)),
    modelType = "cox", ties = "breslow"), control = survivalControl())
  long <- data.frame(rowId = rep(1:3, 2), covariateId = rep(c(11, 12), each = 3),
                     covariateValue = c(rows$age, rows$ph.ecog))
  byLong <- predict(longFit, long, type = "survival", times = times,
                    outcomes = data.frame(rowId = 1:3, stratumId = rows$sex))
  expect_equal(unname(byLong), unname(S), tolerance = 1e-10)
  newData <- createData(formula, data = rows, modelType = "cox", ties = "breslow")
  expect_equal(unname(predict(fit, newData, type = "survival", times = times)), unname(S))
  # strata are needed, must be known, and are ignored without strata in the fit
  expect_error(predict(fit, x, type = "survival", times = 100), "this fit has strata")
  expect_warning(odd <- predict(fit, x, type = "survival", times = 100,
                                stratumId = c(1, 7, 2)), "strata the fit does not have")
  expect_true(is.na(odd[2, 1]) && all(!is.na(odd[-2, 1])))
  plain <- coxFit(Surv(time, status == 2) ~ age + ph.ecog, lung)
  expect_equal(predict(plain, x, type = "survival", times = 100, stratumId = c(1, 7, 2)),
               predict(plain, x, type = "survival", times = 100))
  # without times: every event time of the fit
  everyTime <- predict(fit, rows, type = "survival")
  expect_equal(as.numeric(colnames(everyTime)), sort(unique(baselineHazard(fit)$time)))
  expect_error(predict(fit, rows, type = "survival", times = numeric(0)), "at least one time")
  expect_equal(predict(fit, rows, type = "survival", times = -1), matrix(1, nrow(rows), 1),
               ignore_attr = TRUE)  # before the first event time
  expect_error(predict(fit, rows, type = "cumulativeIncidence", times = 1), "use type = \"survival\"")
})

test_that("fgr cumulative incidence equals predict.crr; the baseline is crr's bfitj", {
  skip_if_not_installed("cmprsk")
  for (resolution in list(NULL, 1)) {
    sim <- simulateCompeting(n = 500, seed = 403, resolution = resolution)
    ref <- crrRef(sim$time, sim$y, sim$x)
    fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                    control = survivalControl())
    base <- baselineHazard(fit)
    expect_equal(base$time, ref$uftime)
    expect_lte(maxRelDiff(diff(c(0, base$hazard)), ref$bfitj), 1e-5)
    newX <- sim$x[c(4, 17, 250, 301), ]
    want <- stats::predict(ref, newX)
    got <- predict(fit, newX, type = "cumulativeIncidence", times = want[, 1])
    expect_lte(max(abs(t(got) - want[, -1])), 1e-5)
    expect_lte(maxRelDiff(t(got), want[, -1]), 1e-5)
    expect_equal(unname(predictLink(fit, newX)), drop(newX %*% coef(fit)))
    expect_equal(predict(fit, newX, type = "risk"), exp(predictLink(fit, newX)))
  }
  expect_error(predict(fit, newX, type = "survival", times = 1),
               "use type = \"cumulativeIncidence\"")
})

test_that("weights enter the baselines: integer weights are duplicated rows", {
  skip_if_not_installed("cmprsk")
  skip_if_not_installed("survival")
  sim <- simulateCompeting(n = 300, seed = 404, resolution = 1)
  set.seed(405)
  w <- sample(1:3, 300, replace = TRUE)
  dup <- rep(seq_len(300), w)
  ref <- crrRef(sim$time[dup], sim$y[dup], sim$x[dup, ])
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, weights = w,
                             modelType = "fgr"), control = survivalControl())
  want <- stats::predict(ref, sim$x[1:3, ])
  got <- predict(fit, sim$x[1:3, ], type = "cumulativeIncidence", times = want[, 1])
  expect_lte(max(abs(t(got) - want[, -1])), 1e-5)
  # cox: the weighted fit against coxph with the same weights
  frame <- data.frame(time = sim$time, status = as.numeric(sim$y == 1), sim$x)
  formula <- Surv(time, status) ~ a + b + c
  refCox <- coxRef(formula, frame, ties = "efron", weights = w)
  fitCox <- coxFit(formula, frame, ties = "efron", weights = w)
  expect_lte(basehazDiff(fitCox, refCox), 1e-6)
  # weight 0 is a row left out (coxph refuses zero weights: compare with the subset)
  w[sample(300, 60)] <- 0
  keep <- w > 0
  refKept <- coxRef(formula, frame[keep, ], ties = "efron", weights = w[keep])
  fitZero <- coxFit(formula, frame, ties = "efron", weights = w)
  expect_lte(basehazDiff(fitZero, refKept), 1e-6)
  rows <- frame[1:3, ]
  expect_equal(predict(fitZero, rows, type = "survival", times = c(3, 8)),
               predict(coxFit(formula, frame[keep, ], ties = "efron", weights = w[keep]), rows,
                       type = "survival", times = c(3, 8)), tolerance = 1e-8)
})

test_that("baselineHazard and survival types are for survival models only", {
  sim <- simulateLogistic(n = 100, p = 2, seed = 406)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  expect_error(baselineHazard(fit), "for modelType 'cox' or 'fgr'")
  expect_error(predict(fit, type = "survival", times = 1), "is for modelType 'cox'")
  expect_error(predict(fit, type = "risk"), "conditional and survival models")
})

test_that("cox with an offset: coxph centres the offset, survival probabilities agree", {
  skip_if_not_installed("survival")
  v <- survival::veteran
  v$o <- log(v$diagtime + 1) * 0.1
  fit <- fitModel(createData(Surv(time, status) ~ karno + offset(o), data = v, modelType = "cox", ties = "breslow"),
                  control = survivalControl())
  ref <- survival::coxph(survival::Surv(time, status) ~ karno + offset(o), data = v,
                         ties = "breslow")
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  # the documented differences: the link by the offset's mean, the baseline by its exp
  expect_equal(unname(predict(fit, v[1:5, ], type = "link")),
               unname(predict(ref, v[1:5, ], type = "lp", reference = "zero")) + mean(v$o),
               tolerance = 1e-7)
  base <- baselineHazard(fit)
  refBase <- survival::basehaz(ref, centered = FALSE)
  at <- match(base$time, refBase$time)
  expect_equal(base$hazard * exp(mean(v$o)), refBase$hazard[at], tolerance = 1e-7)
  # and the survival probabilities are the same
  times <- c(30, 100, 200)
  curves <- summary(survival::survfit(ref, newdata = v[1:3, ]), times = times)
  expect_equal(unname(predict(fit, v[1:3, ], type = "survival", times = times)),
               unname(t(curves$surv)), tolerance = 1e-7)
})

test_that("predict() defaults to the link for survival and conditional models, as predict.coxph", {
  skip_if_not_installed("survival")
  v <- survival::veteran
  fit <- fitModel(createData(Surv(time, status) ~ karno + age, data = v, modelType = "cox", ties = "breslow"))
  ref <- survival::coxph(survival::Surv(time, status) ~ karno + age, data = v, ties = "breslow")
  expect_equal(predict(fit), predict(fit, type = "link"))
  expect_equal(unname(predict(fit, v[1:5, ])),
               unname(predict(ref, v[1:5, ], reference = "zero")), tolerance = 1e-6)
  expect_equal(predict(fit, type = NULL), predict(fit, type = "link"))
  # ... and for the conditional models
  inf <- datasets::infert
  clr <- fitModel(createData(case ~ spontaneous + induced + strata(stratum), data = inf,
                             modelType = "clr"))
  expect_equal(predict(clr), predict(clr, type = "link"))
  # the GLMs keep the response scale (the incumbent's propensity scores)
  lr <- fitModel(createData(am ~ wt, data = mtcars, modelType = "lr"))
  expect_equal(predict(lr), predict(lr, type = "response"))
  expect_equal(predict(lr, type = NULL), predict(lr, type = "response"))
})

test_that("predict() refuses 'time' where it reads no exposure (type = \"survival\", time = 365 gave the whole curve)", {
  skip_if_not_installed("survival")
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex")])
  fit <- fitModel(createData(survival::Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow"))
  nd <- data.frame(age = 60, sex = 1)
  expect_error(predict(fit, nd, type = "survival", time = 365), "the curve's times are 'times'")
  expect_error(predict(fit, nd, time = 2), "modelType 'pr' only")
  expect_equal(dim(predict(fit, nd, type = "survival", times = 365)), c(1L, 1L))
})
