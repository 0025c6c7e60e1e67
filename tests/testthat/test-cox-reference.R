# Cox proportional hazards (modelType "cox") against survival::coxph, Breslow and Efron ties:
# coefficients and the partial log-likelihood (coxph's loglik[2]) to 1e-6 relative, coefficient
# by coefficient. Data: lung, veteran, ovarian, bladder2 (counting process), jasa1 / heart and a
# tmerge()-built pbc data set (time-varying covariates), a simulated data set with heavy ties.

expectCoxMatch <- function(fit, ref, tolerance = 1e-6, label = "") {
  expect_equal(fit$status, "SUCCESS", label = paste(label, "status"))
  expect_equal(names(coef(fit)), names(coef(ref)), label = paste(label, "names"))
  expect_lte(maxRelDiff(coef(fit), coef(ref)), tolerance, label = paste(label, "coefficients"))
  expect_lte(relDiff1(logLik(fit), ref$loglik[2]), tolerance, label = paste(label, "log-likelihood"))
}

# Fits one formula with Argus (formula route) and coxph, for both tie methods.
checkFormula <- function(formula, data, weights = NULL, label = deparse(formula[[3]])) {
  fits <- list()
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(formula, data, ties = ties, weights = weights)
    fit <- fitModel(createData(formula, data = data, modelType = "cox", ties = ties,
                               weights = weights),
                    control = survivalControl())
    expectCoxMatch(fit, ref, label = paste(label, ties))
    fits[[ties]] <- fit
  }
  invisible(fits)
}

test_that("lung: Breslow and Efron match coxph; the two tie methods differ", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  fits <- checkFormula(Surv(time, status == 2) ~ age + sex + ph.ecog + wt.loss, lung)
  # lung has tied death times, so the two approximations are not the same fit
  expect_gt(max(abs(coef(fits$breslow) - coef(fits$efron))), 1e-4)
  expect_false(isTRUE(all.equal(logLik(fits$breslow), logLik(fits$efron))))
  # status as a logical, as 0/1 and as coxph's 1/2 coding all give the same data
  lung$event <- as.numeric(lung$status == 2)
  byNumeric <- fitModel(createData(Surv(time, event) ~ age + sex + ph.ecog + wt.loss,
                                   data = lung, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_equal(coef(byNumeric), coef(fits$breslow), tolerance = 1e-12)
})

test_that("lung with strata (one and two strata variables) matches coxph", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  checkFormula(Surv(time, status == 2) ~ age + ph.ecog + wt.loss + strata(sex), lung)
  checkFormula(Surv(time, status == 2) ~ age + wt.loss + strata(sex, ph.ecog), lung)
  fits <- checkFormula(Surv(time, status == 2) ~ age + sex + ph.ecog + strata(inst), lung)
  # every institution is a stratum, those without events too (coxph's strata)
  expect_equal(fits$breslow$nStrata, length(unique(lung$inst)))
})

test_that("strata(a) + strata(b) is strata(a, b), named term by term as coxph names them", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  lung$sexf <- factor(lung$sex, labels = c("m", "f"))
  for (f in list(Surv(time, status) ~ age + strata(sex) + strata(ph.ecog),
                 Surv(time, status) ~ age + strata(sexf) + strata(ph.ecog))) {
    ref <- coxRef(f, lung)
    fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"), control = survivalControl())  # was refused
    expectCoxMatch(fit, ref, label = deparse(f))
    expect_equal(names(survival::survfit(fit)$strata), names(survival::survfit(ref)$strata))
    rows <- lung[c(3, 50, 100), ]
    expect_equal(unname(predict(fit, rows, type = "survival", times = 200)[, 1]),
                 vapply(1:3, function(i) summary(survival::survfit(ref, newdata = rows[i, ]), times = 200)$surv, 0),
                 tolerance = 1e-6)
  }
})

test_that("x:strata(g) is coded as coxph codes it, names and numbers (and predicted alike)", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  lung$fsex <- factor(lung$sex, labels = c("M", "F"))
  lung$e <- pmin(lung$ph.ecog, 2)
  lung$ef <- factor(lung$e)
  set.seed(1)
  lung$g3 <- factor(sample(c("a", "b", "c"), nrow(lung), TRUE))
  # before: the strata's main effect left out first, every level of x had a column in each
  # stratum (fsexM:strata(e)1 = +0.042, coxph's fsexF:strata(e)1 = -0.042 NA)
  for (f in list(Surv(time, status) ~ age + fsex * strata(e),
                 Surv(time, status) ~ age + g3:strata(ef) + strata(ef))) {
    for (ties in c("breslow", "efron")) {
      ref <- coxRef(f, lung, ties = ties)
      fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = ties), control = survivalControl())
      expect_equal(names(coef(fit)), names(coef(ref)))
      expectCoxMatch(fit, ref, label = paste(deparse(f), ties))
    }
    # new rows get X beta from the same coding (coxph's own predict() stops on these models)
    X <- model.matrix(fit)
    expect_equal(unname(predict(fit, lung[1:6, ], type = "link")),
                 unname(as.vector(X[1:6, ] %*% coef(fit))), tolerance = 1e-10)
  }
})

test_that("numeric strata that print alike are one stratum, as strata()'s factor levels", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  # 0.3 and 0.1 + 0.2 differ in the last bit: coxph pools them (factor() levels by value text)
  lung$s <- ifelse(lung$sex == 1, ifelse(lung$age > 62, 0.3, 0.1 + 0.2), 0.7)
  f <- Surv(time, status) ~ age + ph.ecog + strata(s)
  ref <- coxRef(f, lung)
  fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_equal(fit$nStrata, 2)
  expectCoxMatch(fit, ref, label = "numeric strata")
  mine <- predict(fit, lung[1:5, ], type = "survival", times = c(100, 300))
  for (i in 1:5)
    expect_equal(unname(mine[i, ]), summary(survival::survfit(ref, newdata = lung[i, ]), times = c(100, 300))$surv,
                 tolerance = 1e-6)
  # the matrix route's stratumId alike (two strata under one label, both given the first's curve)
  byMatrix <- fitModel(createData(x = as.matrix(lung[, c("age", "ph.ecog")]), y = as.numeric(lung$status == 2),
                                  time = lung$time, stratumId = lung$s, modelType = "cox", ties = "breslow"),
                       control = survivalControl())
  expect_equal(byMatrix$nStrata, 2)
  expect_equal(unname(coef(byMatrix)), unname(coef(ref)), tolerance = 1e-6)
  expect_equal(unname(predict(byMatrix, type = "survival", times = 300)[1:5, 1]), unname(mine[, 2]), tolerance = 1e-8)
})

test_that("veteran (factor covariate, Karnofsky score) matches coxph", {
  skip_if_not_installed("survival")
  checkFormula(Surv(time, status) ~ trt + karno + diagtime + age + prior + celltype,
               survival::veteran)
})

test_that("ovarian (26 rows) matches coxph", {
  skip_if_not_installed("survival")
  checkFormula(Surv(futime, fustat) ~ age + resid.ds + rx + ecog.ps, survival::ovarian)
})

test_that("bladder2 in counting-process form Surv(start, stop, event) matches coxph", {
  skip_if_not_installed("survival")
  bladder2 <- survival::bladder2
  fits <- checkFormula(Surv(start, stop, event) ~ rx + number + size, bladder2)
  data <- createData(Surv(start, stop, event) ~ rx + number + size, data = bladder2,
                     modelType = "cox", ties = "breslow")
  expect_false(is.null(data$startTime))
  expect_output(print(data), "counting process")
  # strata by recurrence number (the Prentice-Williams-Peterson gap-free form)
  checkFormula(Surv(start, stop, event) ~ rx + number + size + strata(enum), bladder2)
  # ignoring the entry times is a different (wrong) model: startTime is really used
  naive <- fitModel(createData(Surv(stop, event) ~ rx + number + size, data = bladder2,
                               modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_gt(max(abs(coef(naive) - coef(fits$breslow))), 1e-3)
})

test_that("time-varying covariates (jasa1, heart, tmerge on pbc/pbcseq) match coxph", {
  skip_if_not_installed("survival")
  checkFormula(Surv(start, stop, event) ~ transplant + age + surgery, survival::jasa1)
  checkFormula(Surv(start, stop, event) ~ transplant + age + surgery + year, survival::heart)
  # the survival vignette's time-dependent example: lab values as they change over follow-up
  base <- survival::pbc[1:312, c("id", "time", "status", "age", "sex")]
  pbc2 <- survival::tmerge(base, base, id = id, death = event(time, status == 2))
  pbc2 <- survival::tmerge(pbc2, survival::pbcseq, id = id, lbili = tdc(day, log(bili)),
                           albumin = tdc(day, albumin))
  pbc2 <- pbc2[stats::complete.cases(pbc2[, c("lbili", "albumin")]), ]
  expect_gt(nrow(pbc2), 1500)
  checkFormula(Surv(tstart, tstop, death) ~ age + sex + lbili + albumin, pbc2)
})

test_that("non-integer weights match coxph (right-censored, strata, counting process)", {
  skip_if_not_installed("survival")
  set.seed(101)
  veteran <- survival::veteran
  w <- round(runif(nrow(veteran), 0.2, 3), 3)
  fits <- checkFormula(Surv(time, status) ~ trt + karno + age + celltype, veteran, weights = w,
                       label = "veteran weighted")
  unweighted <- fitModel(createData(Surv(time, status) ~ trt + karno + age + celltype,
                                    data = veteran, modelType = "cox", ties = "breslow"),
                         control = survivalControl())
  expect_gt(max(abs(coef(unweighted) - coef(fits$breslow))), 1e-3)
  lung <- lungComplete()
  checkFormula(Surv(time, status == 2) ~ age + ph.ecog + strata(sex), lung,
               weights = runif(nrow(lung), 0.5, 2), label = "lung strata weighted")
  bladder2 <- survival::bladder2
  checkFormula(Surv(start, stop, event) ~ rx + number + size, bladder2,
               weights = runif(nrow(bladder2), 0.2, 3), label = "bladder2 weighted")
})

test_that("weights given to fitModel() replace those of createData() and match coxph", {
  skip_if_not_installed("survival")
  veteran <- survival::veteran
  set.seed(102)
  w <- runif(nrow(veteran), 0.2, 3)
  data <- createData(Surv(time, status) ~ trt + karno + age, data = veteran, modelType = "cox",
                     ties = "efron")
  fit <- fitModel(data, weights = w, control = survivalControl())
  expectCoxMatch(fit, coxRef(Surv(time, status) ~ trt + karno + age, veteran, "efron", w))
})

test_that("a simulated data set with >= 5000 rows and heavy ties (integer days) matches coxph", {
  skip_if_not_installed("survival")
  sim <- simulateCox(n = 6000, seed = 103, nStrata = 3)
  expect_gte(nrow(sim), 5000)
  expect_lte(length(unique(sim$time)), 120)       # about 6000 rows share 120 distinct days
  expect_gt(sum(sim$status), 3000)
  fits <- checkFormula(Surv(time, status) ~ a + b + c + d, sim, label = "heavy ties")
  # heavy ties: Breslow and Efron are clearly different
  expect_gt(max(abs(coef(fits$breslow) - coef(fits$efron))), 1e-2)
  checkFormula(Surv(time, status) ~ a + b + c + d + strata(stratum), sim,
               label = "heavy ties, strata")
  checkFormula(Surv(time, status) ~ a + b + c + d, sim, weights = runif(nrow(sim), 0.5, 2),
               label = "heavy ties, weights")
  # the same data split at days 30 and 60 (counting process), with a covariate that changes
  # at the split: a * (period 2)
  split <- survival::survSplit(inSurvival(Surv(time, status) ~ .), data = sim, cut = c(30, 60),
                               episode = "period")
  split$a2 <- split$a * (split$period == 2)
  expect_gt(nrow(split), nrow(sim))
  checkFormula(Surv(tstart, time, status) ~ a + b + c + d + a2, split,
               label = "heavy ties, split")
})

test_that("a split data set without time-varying covariates gives the unsplit fit", {
  skip_if_not_installed("survival")
  sim <- simulateCox(n = 800, seed = 104)
  split <- survival::survSplit(inSurvival(Surv(time, status) ~ .), data = sim,
                               cut = c(10, 25, 50))
  for (ties in c("breslow", "efron")) {
    whole <- fitModel(createData(Surv(time, status) ~ a + b + c + d, data = sim,
                                 modelType = "cox", ties = ties), control = survivalControl())
    pieces <- fitModel(createData(Surv(tstart, time, status) ~ a + b + c + d, data = split,
                                  modelType = "cox", ties = ties), control = survivalControl())
    expect_lte(maxRelDiff(coef(pieces), coef(whole)), 1e-9)
    expect_lte(relDiff1(logLik(pieces), logLik(whole)), 1e-12)
  }
})

test_that("Breslow: integer weights are duplicated rows; Efron: each form matches coxph", {
  skip_if_not_installed("survival")
  set.seed(105)
  sim <- simulateCox(n = 400, seed = 105, nStrata = 2)
  copies <- sample(1:3, nrow(sim), replace = TRUE)
  repeated <- sim[rep(seq_len(nrow(sim)), copies), ]
  formula <- Surv(time, status) ~ a + b + c + d + strata(stratum)
  weighted <- fitModel(createData(formula, data = sim, weights = copies, modelType = "cox", ties = "breslow"),
                       control = survivalControl())
  duplicated <- fitModel(createData(formula, data = repeated, modelType = "cox", ties = "breslow"),
                         control = survivalControl())
  expect_lte(maxRelDiff(coef(weighted), coef(duplicated)), 1e-9)
  expect_lte(relDiff1(logLik(weighted), logLik(duplicated)), 1e-12)
  # Efron counts tied events, so a weight of 2 is not two rows (in coxph either); both forms
  # still match their coxph fits
  efronWeighted <- fitModel(createData(formula, data = sim, weights = copies, modelType = "cox",
                                       ties = "efron"), control = survivalControl())
  efronDuplicated <- fitModel(createData(formula, data = repeated, modelType = "cox",
                                         ties = "efron"), control = survivalControl())
  expectCoxMatch(efronWeighted, coxRef(formula, sim, "efron", copies), label = "efron weights")
  expectCoxMatch(efronDuplicated, coxRef(formula, repeated, "efron"), label = "efron copies")
  expect_gt(max(abs(coef(efronWeighted) - coef(efronDuplicated))), 1e-6)
  # zero weights are absent rows
  zero <- rbinom(nrow(sim), 1, 0.2) == 1
  withZeros <- fitModel(createData(formula, data = sim, weights = as.numeric(!zero),
                                   modelType = "cox", ties = "efron"),
                        control = survivalControl())
  without <- fitModel(createData(formula, data = sim[!zero, ], modelType = "cox",
                                 ties = "efron"), control = survivalControl())
  expect_lte(maxRelDiff(coef(withZeros), coef(without)), 1e-9)
})

test_that("long tables, matrix and formula routes give the same counting-process fit", {
  skip_if_not_installed("survival")
  bladder2 <- survival::bladder2
  x <- as.matrix(bladder2[, c("rx", "number", "size")])
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(Surv(start, stop, event) ~ rx + number + size + strata(enum), bladder2, ties)
    byFormula <- fitModel(createData(Surv(start, stop, event) ~ rx + number + size + strata(enum),
                                     data = bladder2, modelType = "cox", ties = ties),
                          control = survivalControl())
    byMatrix <- fitModel(createData(x = x, y = bladder2$event, time = bladder2$stop,
                                    startTime = bladder2$start, stratumId = bladder2$enum,
                                    modelType = "cox", ties = ties),
                         control = survivalControl())
    bySparse <- fitModel(createData(x = Matrix::Matrix(x, sparse = TRUE), y = bladder2$event,
                                    time = bladder2$stop, startTime = bladder2$start,
                                    stratumId = bladder2$enum, modelType = "cox", ties = ties),
                         control = survivalControl())
    long <- toLong(x, bladder2$event, rowIds = 1000 + 7 * seq_len(nrow(x)),
                   covariateIds = c(31, 32, 33), time = bladder2$stop,
                   startTime = bladder2$start, stratumId = bladder2$enum)
    byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "cox", ties = ties),
                       control = survivalControl())
    expectCoxMatch(byFormula, ref, label = paste("formula", ties))
    expectCoxMatch(byMatrix, ref, label = paste("matrix", ties))
    expect_equal(coef(bySparse), coef(byMatrix), tolerance = 1e-12)
    longBeta <- byColumnName(coef(byLong), c(31, 32, 33), colnames(x))
    expect_lte(maxRelDiff(longBeta, coef(ref)), 1e-6)
    expect_equal(longBeta, coef(byFormula), tolerance = 1e-12)
    expect_equal(as.numeric(logLik(byLong)), as.numeric(logLik(byFormula)), tolerance = 1e-12)
    expect_equal(as.numeric(logLik(byMatrix)), as.numeric(logLik(byFormula)), tolerance = 1e-12)
  }
})

test_that("shuffled rows give the same fit", {
  skip_if_not_installed("survival")
  sim <- simulateCox(n = 1500, seed = 106, nStrata = 3)
  split <- survival::survSplit(inSurvival(Surv(time, status) ~ .), data = sim, cut = c(20, 50),
                               episode = "period")
  split$a2 <- split$a * (split$period > 1)
  set.seed(107)
  perm <- sample(nrow(split))
  shuffled <- split[perm, ]
  formula <- Surv(tstart, time, status) ~ a + b + c + d + a2 + strata(stratum)
  for (ties in c("breslow", "efron")) {
    w <- runif(nrow(split), 0.5, 2)
    ordered <- fitModel(createData(formula, data = split, modelType = "cox", ties = ties,
                                   weights = w), control = survivalControl())
    mixed <- fitModel(createData(formula, data = shuffled, modelType = "cox", ties = ties,
                                 weights = w[perm]),
                      control = survivalControl())
    expect_lte(maxRelDiff(coef(mixed), coef(ordered)), 1e-9)
    expect_lte(relDiff1(logLik(mixed), logLik(ordered)), 1e-12)
    expectCoxMatch(mixed, coxRef(formula, split, ties, w), label = paste("shuffled", ties))
  }
  # long route: rowIds out of order and covariate rows in a different order again
  x <- as.matrix(split[, c("a", "b", "c", "d", "a2")])
  long <- toLong(x, split$status, rowIds = sample(nrow(split)) * 3, time = split$time,
                 startTime = split$tstart, stratumId = split$stratum)
  byLong <- fitModel(createData(long$outcomes[sample(nrow(long$outcomes)), ],
                                long$covariates[sample(nrow(long$covariates)), ],
                                modelType = "cox", ties = "breslow"), control = survivalControl())
  ref <- coxRef(formula, split)
  expect_lte(maxRelDiff(byColumnName(coef(byLong), 1:5, colnames(x)), coef(ref)), 1e-6)
})

test_that("a stratum without events is kept: fit, predictions, residuals and curves as coxph", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  lung$site <- ifelse(lung$inst %in% c(1, 12), lung$inst, 99)
  # a stratum whose patients are all censored
  extra <- lung[lung$site == 99, ][1:15, ]
  extra$site <- 500
  extra$status <- 1
  withEmpty <- rbind(lung, extra)
  formula <- Surv(time, status == 2) ~ age + sex + ph.ecog + strata(site)
  empty <- nrow(lung) + seq_len(15)
  for (ties in c("breslow", "efron")) {
    data <- createData(formula, data = withEmpty, modelType = "cox", ties = ties)
    expect_equal(data$dropped$strata, 0)
    expect_equal(data$nRows, nrow(withEmpty))
    fit <- fitModel(data, control = survivalControl())
    ref <- coxRef(formula, withEmpty, ties)
    expectCoxMatch(fit, ref, label = paste("empty stratum", ties))
    expectCoxMatch(fit, coxRef(formula, lung, ties), label = paste("without it", ties))
    # its rows' linear predictors are X beta (they were NA when the stratum was dropped)
    link <- predict(fit, type = "link")
    expect_false(anyNA(link))
    expect_equal(unname(link), unname(predict(ref, type = "lp", reference = "zero")), tolerance = 1e-6)
    expect_equal(unname(link[empty]), unname(predict(fit, withEmpty[empty, ], type = "link")))
    # no hazard in their stratum: survival 1 at every time, as survfit.coxph
    expect_equal(unname(predict(fit, type = "survival", times = c(100, 400))[empty, ]), matrix(1, 15, 2))
    mine <- survival::survfit(fit)
    theirs <- survival::survfit(ref)
    expect_equal(mine$strata, theirs$strata)
    expect_equal(mine$surv, theirs$surv, tolerance = 1e-6)
    expect_equal(mine$n.risk, theirs$n.risk)
    # their residuals are 0, as coxph's (no event, no hazard in their stratum)
    for (type in c("martingale", "deviance")) {
      mine <- residuals(fit, type = type)
      expect_false(anyNA(mine), label = type)
      expect_equal(unname(mine[empty]), rep(0, 15), label = type)
      expect_lt(max(abs(unname(mine) - unname(residuals(ref, type = type)))), 1e-5, label = type)
    }
    score <- residuals(fit, type = "score")
    expect_equal(unname(score[empty, ]), matrix(0, 15, 3))
    expect_lt(max(abs(unname(score) - unname(residuals(ref, type = "score")))), 1e-5)
  }
})

# Columns a, b and c (about 40,000, 16,000 and 33,000 entries) are scanned in four chunks. The chunks' cross
# terms enter only the Hessian, which the optimum does not depend on: the C++ oracle test
# (ChunkedScansMatchTheOracleForAnyThreadCount) checks them; here the fit and its identity
# across thread counts.
test_that("columns split into chunks (over 4,096 entries) match coxph, on 1 or 2 threads", {
  skip_if_not_installed("survival")
  sim <- simulateCox(n = 40000, seed = 11, nStrata = 3)
  for (ties in c("breslow", "efron")) {
    formula <- Surv(time, status) ~ a + b + c + d + strata(stratum)
    ref <- coxRef(formula, sim, ties = ties)
    data <- createData(formula, data = sim, modelType = "cox", ties = ties)
    one <- fitModel(data, control = survivalControl(threads = 1))
    two <- fitModel(data, control = survivalControl(threads = 2))
    expectCoxMatch(two, ref, label = paste("40,000 rows", ties))
    expect_identical(coef(two), coef(one))
    expect_identical(logLik(two), logLik(one))
  }
  comp <- simulateCompeting(n = 40000, seed = 12, resolution = 0.05)
  data <- createData(x = comp$x, y = comp$y, time = comp$time, modelType = "fgr")
  prior <- createPrior("laplace", variance = 0.5)
  one <- fitModel(data, prior = prior, control = survivalControl(threads = 1))
  two <- fitModel(data, prior = prior, control = survivalControl(threads = 2))
  expect_equal(two$status, "SUCCESS")
  expect_identical(coef(two), coef(one))
})

test_that("times that differ by rounding alone are one time, as coxph's default timefix", {
  skip_if_not_installed("survival")
  set.seed(9)
  n <- 300
  ds <- data.frame(time = timesOffByRounding(n), status = stats::rbinom(n, 1, 0.7), z = stats::rnorm(n))
  expect_gt(length(unique(ds$time)), length(unique(round(ds$time, 8))))  # near-ties present
  for (ties in c("breslow", "efron")) {
    fit <- fitModel(createData(Surv(time, status) ~ z, data = ds, modelType = "cox", ties = ties),
                    control = createControl(tolerance = 1e-10))
    reference <- survival::coxph(survival::Surv(time, status) ~ z, data = ds, ties = ties)
    expect_lt(abs(coef(fit) - coef(reference)) / abs(coef(reference)), 1e-7, label = ties)
    expect_lt(abs(as.numeric(logLik(fit)) - reference$loglik[2]), 1e-7, label = ties)
  }
  # (start, stop] rows: entries rounded to 3 decimals against exits of 2 (near-ties between them)
  set.seed(8)
  n <- 400
  cp <- data.frame(z = stats::rnorm(n), x = stats::rnorm(n))
  cp$time <- round(stats::rexp(n, exp(0.5 * cp$z)), 2) + 0.01
  cp$status <- stats::rbinom(n, 1, 0.6)
  cp$start <- round(cp$time * stats::runif(n, 0, 0.9), 3)
  fit <- fitModel(createData(Surv(start, time, status) ~ z + x, data = cp, modelType = "cox", ties = "breslow"),
                  control = createControl(tolerance = 1e-10))
  reference <- survival::coxph(survival::Surv(start, time, status) ~ z + x, data = cp, ties = "breslow")
  expect_lt(max(abs(coef(fit) - coef(reference)) / abs(coef(reference))), 1e-7)
})


test_that("negative times (days from an index date) give coxph's and crr's fits, and predictions that shift with them", {
  skip_if_not_installed("survival")
  # heart's (start, stop] with every time 400 days earlier: most stops are negative
  h <- survival::heart
  h$start <- h$start - 400
  h$stop <- h$stop - 400
  formula <- Surv(start, stop, event) ~ age + year + surgery + transplant
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(formula, h, ties = ties)
    fit <- fitModel(createData(formula, data = h, modelType = "cox", ties = ties),
                    control = survivalControl())
    expect_lt(max(abs(coef(fit) - coef(ref))), 1e-8)
    expect_equal(fit$logLikelihood, ref$loglik[2], tolerance = 1e-10)
  }
  # right-censored lung times moved to straddle 0: the same fit and baseline, shifted
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
  shifted <- transform(lung, time = time - 500)
  a <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung, modelType = "cox", ties = "breslow"),
                control = survivalControl())
  b <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = shifted, modelType = "cox", ties = "breslow"),
                control = survivalControl())
  expect_equal(coef(b), coef(a), tolerance = 1e-12)
  expect_equal(baselineHazard(b)$time, baselineHazard(a)$time - 500)
  expect_equal(baselineHazard(b)$hazard, baselineHazard(a)$hazard, tolerance = 1e-12)
  expect_equal(unname(predict(b, shifted[1:3, ], type = "survival", times = c(-600, -300, 100))),
               unname(predict(a, lung[1:3, ], type = "survival", times = c(-100, 200, 600))),
               tolerance = 1e-12)
  # Fine-Gray with times from -1 on, against crr
  skip_if_not_installed("cmprsk")
  set.seed(1)
  n <- 300
  x <- cbind(x = rnorm(n), z = rbinom(n, 1, 0.4))
  time <- rexp(n) - 1
  cause <- sample(0:2, n, TRUE, prob = c(0.3, 0.4, 0.3))
  ref <- crrRef(time, cause, x)
  fit <- fitModel(createData(x = x, y = cause, time = time, modelType = "fgr"),
                  control = survivalControl())
  expect_lt(max(abs(coef(fit) - ref$coef)), 1e-7)
})
