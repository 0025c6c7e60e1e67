# survival::survfit() on a Cox fit against survfit.coxph: every component of the object
# (numbers at risk, events, survival, cumulative hazard, standard errors, intervals, strata),
# with and without strata and new data, Breslow and Efron, weights.

expectSurvfitMatch <- function(curves, ref, tolerance = 1e-8, label = "") {
  expect_s3_class(curves, "survfit")
  for (field in c("n", "time", "n.risk", "n.event", "n.censor", "surv", "cumhaz", "std.err",
                  "lower", "upper")) {
    expect_equal(dim(curves[[field]]), dim(ref[[field]]), label = paste(label, field, "dim"))
    expect_lt(max(abs(unclass(curves[[field]]) - unclass(ref[[field]]))), tolerance,
              label = paste(label, field))
  }
  expect_equal(curves$strata, ref$strata, label = paste(label, "strata"))
}

test_that("survfit() of a Cox fit equals survfit.coxph, with strata and new data", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  newdata <- data.frame(age = c(50, 60, 70), sex = c(1, 2, 1), ph.ecog = c(0, 1, 1))
  for (ties in c("breslow", "efron")) {
    plain <- Surv(time, status) ~ age + sex
    ref <- coxRef(plain, lung, ties = ties)
    fit <- fitModel(createData(plain, data = lung, modelType = "cox", ties = ties),
                    control = survivalControl())
    expectSurvfitMatch(survival::survfit(fit, newdata = newdata),
                       survival::survfit(ref, newdata = newdata), label = paste(ties, "newdata"))
    expectSurvfitMatch(survival::survfit(fit), survival::survfit(ref), label = paste(ties, "means"))
    expectSurvfitMatch(survival::survfit(fit, newdata = newdata[1, ]),
                       survival::survfit(ref, newdata = newdata[1, ]), label = paste(ties, "one row"))
    # a row with a missing covariate has no curve, as survfit.coxph leaves it out (said here;
    # it was an error)
    holed <- rbind(newdata, data.frame(age = NA, sex = 1, ph.ecog = 0))
    expect_warning(curves <- survival::survfit(fit, newdata = holed), "1 row\\(s\\) of 'newdata' with missing values have no curve")
    expectSurvfitMatch(curves, survival::survfit(ref, newdata = holed), label = paste(ties, "holed"))
    stratified <- Surv(time, status) ~ age + sex + strata(ph.ecog)
    ref <- coxRef(stratified, lung, ties = ties)
    fit <- fitModel(createData(stratified, data = lung, modelType = "cox", ties = ties),
                    control = survivalControl())
    # rows with their own strata: one curve per row
    expectSurvfitMatch(survival::survfit(fit, newdata = newdata),
                       survival::survfit(ref, newdata = newdata), label = paste(ties, "own strata"))
    # ... in newdata's order, not grouped by stratum (curve [i] is row i's)
    mixed <- data.frame(age = c(50, 60, 70, 55), sex = c(1, 2, 1, 2), ph.ecog = c(1, 0, 1, 0),
                        row.names = c("a", "b", "c", "d"))
    mine <- survival::survfit(fit, newdata = mixed)
    theirs <- survival::survfit(ref, newdata = mixed)
    expectSurvfitMatch(mine, theirs, label = paste(ties, "own strata, mixed order"))
    expect_equal(names(mine$strata), c("a", "b", "c", "d"))
    expect_equal(summary(mine[1])$table[["median"]], summary(theirs[1])$table[["median"]])
    # rows without strata: every stratum for every row
    expectSurvfitMatch(survival::survfit(fit, newdata = newdata[, 1:2]),
                       survival::survfit(ref, newdata = newdata[, 1:2]), label = paste(ties, "all strata"))
    expectSurvfitMatch(survival::survfit(fit), survival::survfit(ref), label = paste(ties, "strata means"))
  }
})

test_that("survfit() with integer weights, and the survival package's methods read it", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(9)
  w <- sample(1:3, nrow(lung), TRUE)
  newdata <- data.frame(age = c(55, 65), sex = c(2, 1))
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(Surv(time, status) ~ age + sex, lung, ties = ties, weights = w)
    fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox",
                               ties = ties, weights = w), control = survivalControl())
    curves <- survival::survfit(fit, newdata = newdata)
    expectSurvfitMatch(curves, survival::survfit(ref, newdata = newdata), label = paste(ties, "weights"))
  }
  # the survival curve agrees with predict(type = "survival")
  s <- summary(curves, times = c(100, 400))
  expect_equal(unname(t(s$surv)), unname(predict(fit, newdata, type = "survival", times = c(100, 400))),
               tolerance = 1e-12)
  expect_output(print(curves), "median")
  expect_error(survival::survfit(fit, foo = 1), "unused argument")
})

test_that("predict(type = \"survival\") without times gives every event time", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow"))
  p <- predict(fit, data.frame(age = 60, sex = 1), type = "survival")
  eventTimes <- sort(unique(lung$time[lung$status == 2]))
  expect_equal(as.numeric(colnames(p)), eventTimes)
  expect_equal(p, predict(fit, data.frame(age = 60, sex = 1), type = "survival", times = eventTimes))
})

test_that("survfit() of a counting-process Cox fit equals survfit.coxph", {
  skip_if_not_installed("survival")
  b <- survival::bladder2
  newdata <- data.frame(rx = c(1, 2), number = c(2, 1))
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(Surv(start, stop, event) ~ rx + number, b, ties = ties)
    fit <- fitModel(createData(Surv(start, stop, event) ~ rx + number, data = b, modelType = "cox",
                               ties = ties), control = survivalControl())
    expectSurvfitMatch(survival::survfit(fit, newdata = newdata),
                       survival::survfit(ref, newdata = newdata), label = paste(ties, "counting process"))
  }
})

test_that("survfit() intervals of every conf.type, and no standard errors, as survfit.coxph", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  ref <- coxRef(Surv(time, status) ~ age + sex, lung)
  fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow"),
                  control = survivalControl())
  newdata <- data.frame(age = c(50, 70), sex = 1:2)
  for (type in c("log", "log-log", "plain")) {
    mine <- survival::survfit(fit, newdata = newdata, conf.type = type, conf.int = 0.9)
    theirs <- survival::survfit(ref, newdata = newdata, conf.type = type, conf.int = 0.9)
    expect_equal(is.na(mine$lower), is.na(theirs$lower))
    expect_lt(max(abs(mine$lower - theirs$lower), na.rm = TRUE), 1e-8, label = type)
    expect_lt(max(abs(mine$upper - theirs$upper), na.rm = TRUE), 1e-8, label = type)
  }
  none <- survival::survfit(fit, newdata = newdata, conf.type = "none")
  expect_null(none$lower)
  bare <- survival::survfit(fit, newdata = newdata, se.fit = FALSE)
  expect_null(bare$std.err)
  expect_lt(max(abs(bare$surv - survival::survfit(ref, newdata = newdata, se.fit = FALSE)$surv)), 1e-8)
})

test_that("survfit() without newdata is at coxph's reference point: factors and 0/1 columns at 0", {
  skip_if_not_installed("survival")
  vet <- survival::veteran
  vet$prior01 <- as.integer(vet$prior == 10)
  # celltype (a factor) and prior01 take coxph's nocenter values: their 'means' are 0, and the
  # curve at the plain column means was up to 0.22 off in survival
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(Surv(time, status) ~ karno + age + celltype + prior01, vet, ties = ties)
    fit <- fitModel(createData(Surv(time, status) ~ karno + age + celltype + prior01, data = vet,
                               modelType = "cox", ties = ties), control = survivalControl())
    expectSurvfitMatch(survival::survfit(fit), survival::survfit(ref), tolerance = 1e-7,
                       label = paste(ties, "factor means"))
  }
  # counting-process data: coxph's means are unweighted there (agreg.fit)
  b <- survival::bladder2
  set.seed(3)
  b$w <- round(runif(nrow(b), 0.5, 2))
  ref <- coxRef(Surv(start, stop, event) ~ rx + number + size, b, ties = "breslow", weights = b$w)
  fit <- fitModel(createData(Surv(start, stop, event) ~ rx + number + size, data = b,
                             modelType = "cox", ties = "breslow", weights = b$w), control = survivalControl())
  expectSurvfitMatch(survival::survfit(fit), survival::survfit(ref), tolerance = 1e-7,
                     label = "weighted counting process")
})

test_that("survfit() with non-integer weights gives coxph's robust curves, as one cluster per row does", {
  skip_if_not_installed("survival")
  set.seed(1)
  v <- survival::veteran
  v$w <- runif(nrow(v), 0.5, 2)
  v$id <- seq_len(nrow(v))
  newdata <- data.frame(karno = c(60, 80), age = c(50, 65))
  # coxph takes its robust variance by default with such weights
  ref <- coxRef(Surv(time, status) ~ karno + age, v, ties = "efron", weights = v$w)
  plain <- fitModel(createData(Surv(time, status) ~ karno + age, data = v, modelType = "cox",
                               ties = "efron", weights = v$w))
  # (the model-based variance was the default, with a warning, before coxph's became it)
  expect_no_warning(byDefault <- survival::survfit(plain, newdata = newdata))
  expectSurvfitMatch(byDefault, survival::survfit(ref, newdata = newdata), label = "robust by default")
  robust <- fitModel(createData(Surv(time, status) ~ karno + age + cluster(id), data = v,
                                modelType = "cox", ties = "efron", weights = v$w))
  expect_no_warning(curves <- survival::survfit(robust, newdata = newdata))
  expectSurvfitMatch(curves, survival::survfit(ref, newdata = newdata), label = "robust, weights")
})

test_that("survfit() lists and names strata as survival's strata() does: factor levels, text, numbers, several variables", {
  skip_if_not_installed("survival")
  # cgd's hospital category is a factor whose levels are not alphabetical: its curves come in
  # level order, named by the bare levels (they came alphabetically, as "hos.cat=...", and
  # the first curve was another hospital's: surv 0.58 apart position by position)
  cgd <- survival::cgd
  formula <- Surv(tstart, tstop, status) ~ treat + age + inherit + strata(hos.cat)
  ref <- coxRef(formula, cgd, ties = "breslow")
  fit <- fitModel(createData(formula, data = cgd, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_equal(names(survival::survfit(fit)$strata), levels(cgd$hos.cat))
  expectSurvfitMatch(survival::survfit(fit), survival::survfit(ref), label = "factor strata")
  # text (bare labels, sorted), numbers ("var=value", numeric order) and two variables, the
  # first varying slowest
  v <- survival::veteran
  v$cell <- as.character(v$celltype)
  v$cellFactor <- factor(v$celltype, levels = rev(levels(v$celltype)))
  v$group <- ifelse(v$karno > 50, 10, 2)
  for (strata in c("strata(cell)", "strata(group)", "strata(cellFactor, prior)",
                   "strata(group, cellFactor)")) {
    formula <- stats::as.formula(paste("Surv(time, status) ~ age + diagtime +", strata))
    ref <- coxRef(formula, v, ties = "breslow")
    fit <- fitModel(createData(formula, data = v, modelType = "cox", ties = "breslow"), control = survivalControl())
    curves <- survival::survfit(fit)
    expected <- survival::survfit(ref)
    # strata() pads some "var=value" labels of several variables with spaces
    expect_equal(names(curves$strata), trimws(names(expected$strata)), label = strata)
    names(expected$strata) <- trimws(names(expected$strata))
    expectSurvfitMatch(curves, expected, label = strata)
  }
})

test_that("survfit() leaves rows of weight 0 out of n and of the curve's times (coxph on the others)", {
  skip_if_not_installed("survival")
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex")])
  set.seed(5)
  lung$w <- sample(0:2, nrow(lung), TRUE)
  fo <- survival::Surv(time, status) ~ age + sex
  fit <- fitModel(createData(fo, data = lung, modelType = "cox", ties = "breslow", weights = w), control = survivalControl())
  kept <- lung[lung$w > 0, ]
  ref <- survival::survfit(survival::coxph(fo, data = kept, ties = "breslow", weights = w),
                           newdata = data.frame(age = 60, sex = 1))
  curve <- survival::survfit(fit, newdata = data.frame(age = 60, sex = 1))
  # n counted the 0-weight rows (228 against 150) and the curve ran on past the last time at risk
  expect_equal(curve$n, ref$n)
  expect_equal(curve$time, ref$time)
  expect_equal(as.vector(curve$surv), as.vector(ref$surv), tolerance = 1e-6)
})

test_that("cumulativeIncidence() without newdata is at the mean offset, as survfit()'s default curve", {
  skip_if_not_installed("survival")
  m <- stats::na.omit(survival::mgus2[, c("age", "sex", "ptime", "pstat", "futime", "death", "hgb")])
  # as survival's competing-risks vignette: progression (1) first, else death (2), else censored
  m$etime <- ifelse(m$pstat == 1, m$ptime, m$futime)
  m$status <- ifelse(m$pstat == 1, 1, 2 * m$death)
  m$o <- 0.01 * (m$hgb - 13)
  fit <- fitModel(createData(survival::Surv(etime, status) ~ age + sex + offset(o), data = m,
                             modelType = "fgr"), control = survivalControl())
  at <- cumulativeIncidence(fit, times = c(100, 300))$incidence[, 1]
  # the same curve by predict() at the mean covariates and the mean offset (offset 0 before)
  X <- stats::model.matrix(~ age + sex, m)[, -1]
  lp <- sum(colMeans(X) * coef(fit)[colnames(X)]) + mean(m$o)
  H <- baselineHazard(fit)
  expected <- 1 - exp(-stats::stepfun(H$time, c(0, H$hazard))(c(100, 300)) * exp(lp))
  expect_equal(unname(at), expected, tolerance = 1e-10)
})

test_that("survfit is re-exported: survfit(fit) works without attaching survival", {
  lung <- lungComplete()
  fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "efron"),
                  control = survivalControl())
  expect_true("survfit" %in% getNamespaceExports("Argus"))
  curves <- Argus::survfit(fit, newdata = data.frame(age = 60, sex = 1))
  expect_s3_class(curves, "survfit")
  expect_equal(curves$surv, survival::survfit(fit, newdata = data.frame(age = 60, sex = 1))$surv)
  # in a fresh session with Argus alone attached
  skip_on_cran()
  script <- tempfile(fileext = ".R")
  writeLines(c("suppressMessages(library(Argus))",
               "stopifnot(!'package:survival' %in% search())",
               "lung <- na.omit(survival::lung[, c('time', 'status', 'age')])",
               "fit <- fitModel(createData(Surv(time, status) ~ age, data = lung, modelType = 'cox', ties = 'efron'))",
               "cat(class(survfit(fit))[2], '\\n')"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE,
                 env = paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep)))
  expect_match(paste(out, collapse = "\n"), "survfit")
})
