# A straight port of a coxph(), crr(), clogit() or glm() call (the same formula, every argument
# at its default on both sides) gives the reference's coefficients, standard errors,
# intervals and p-values: Efron ties, rows with missing values dropped (getOption("na.action")),
# the robust variance where coxph (non-integer weights) and crr report it. On survival's lung,
# pbc, veteran and mgus2, MASS's birthwt, infert and a simulated IPTW cohort.

relativeGap <- function(mine, theirs) max(abs(unname(mine) - unname(theirs)) / abs(unname(theirs)))

# Everything the reference reports about its coefficients, checked to `tolerance` relative.
expectPort <- function(fit, coefs, se, lower, upper, p, tolerance = 1e-6, label = "") {
  expect_equal(fit$status, "SUCCESS", label = paste(label, "status"))
  expect_lt(relativeGap(coef(fit), coefs), tolerance, label = paste(label, "coefficients"))
  expect_lt(relativeGap(sqrt(diag(vcov(fit))), se), tolerance, label = paste(label, "vcov()"))
  td <- tidy(fit, conf.int = TRUE)
  s <- summary(fit)$coefficients
  expect_lt(relativeGap(td$std.error, se), tolerance, label = paste(label, "tidy() std.error"))
  expect_lt(relativeGap(s$std.error, se), tolerance, label = paste(label, "summary() std.error"))
  expect_lt(relativeGap(td$p.value, p), tolerance, label = paste(label, "tidy() p.value"))
  expect_lt(relativeGap(s$p.value, p), tolerance, label = paste(label, "summary() p.value"))
  ci <- confint(fit)
  expect_identical(colnames(ci), c("2.5 %", "97.5 %"))
  expect_identical(rownames(ci), names(coefs))
  # limits relative to the interval's width (a limit near 0 has no relative precision)
  width <- unname(upper - lower)
  limitGap <- function(mine, theirs) max(abs(unname(mine) - unname(theirs)) / width)
  expect_lt(limitGap(ci[, 1], lower), tolerance, label = paste(label, "confint() lower"))
  expect_lt(limitGap(ci[, 2], upper), tolerance, label = paste(label, "confint() upper"))
  expect_lt(limitGap(td$conf.low, lower), tolerance, label = paste(label, "tidy() conf.low"))
  expect_lt(limitGap(td$conf.high, upper), tolerance, label = paste(label, "tidy() conf.high"))
}

expectCoxPort <- function(fit, ref, label) {
  s <- summary(ref)
  ci <- stats::confint(ref)
  se <- s$coefficients[, if (is.null(ref$naive.var)) "se(coef)" else "robust se"]
  expectPort(fit, coef(ref), se, ci[, 1], ci[, 2], s$coefficients[, "Pr(>|z|)"], label = label)
  expect_equal(fit$data$ties, ref$method)
  expect_equal(fit$nRows, ref$n, label = paste(label, "rows kept"))
}

test_that("coxph ported: lung, pbc and veteran (Efron ties, rows with NA dropped)", {
  skip_if_not_installed("survival")
  survivalFormula <- function(f) { environment(f) <- asNamespace("survival"); f }
  cases <- list(
    lung = list(Surv(time, status) ~ age + sex + ph.ecog + wt.loss, survival::lung),
    pbc = list(Surv(time, status == 2) ~ age + edema + log(bili) + log(albumin) + log(protime),
               survival::pbc),
    veteran = list(Surv(time, status) ~ trt + karno + celltype + diagtime + age + prior,
                   survival::veteran))
  for (name in names(cases)) {
    f <- survivalFormula(cases[[name]][[1]])
    data <- cases[[name]][[2]]
    ref <- survival::coxph(f, data = data)
    fit <- fitModel(createData(f, data = data, modelType = "cox"))
    expectCoxPort(fit, ref, name)
    # the dropped rows are coxph's, and print() counts them as print.coxph does
    expect_equal(unname(sort(as.integer(stats::na.action(fit)))), unname(sort(as.integer(ref$na.action))))
    if (length(ref$na.action))
      expect_output(print(fit), stats::naprint(ref$na.action), fixed = TRUE)
  }
})

test_that("coxph ported with IPTW (non-integer) weights: its robust variance by default", {
  skip_if_not_installed("survival")
  set.seed(41)
  n <- 800
  cohort <- data.frame(age = rnorm(n, 60, 10), sex = rbinom(n, 1, 0.5))
  cohort$treated <- rbinom(n, 1, plogis(-0.5 + 0.05 * (cohort$age - 60) + 0.6 * cohort$sex))
  rate <- 0.02 * exp(log(0.7) * cohort$treated + 0.03 * (cohort$age - 60) + 0.3 * cohort$sex)
  eventTime <- ceiling(rexp(n, rate))  # whole days: tied event times, where Efron is not Breslow
  censorTime <- ceiling(runif(n, 10, 60))
  cohort$time <- pmin(eventTime, censorTime)
  cohort$status <- as.numeric(eventTime <= censorTime)
  ps <- fitted(glm(treated ~ age + sex, binomial, cohort))
  cohort$iptw <- ifelse(cohort$treated == 1, 1 / ps, 1 / (1 - ps))
  f <- survival::Surv(time, status) ~ treated + age + sex
  ref <- survival::coxph(f, data = cohort, weights = iptw)
  expect_false(is.null(ref$naive.var))  # coxph switched to its robust variance
  fit <- fitModel(createData(f, data = cohort, modelType = "cox", weights = iptw))
  expect_silent(summary(fit))  # no warning: the default is the robust variance now
  expectCoxPort(fit, ref, "IPTW")
  expect_equal(unname(sqrt(diag(vcov(fit, type = "model")))), unname(sqrt(diag(ref$naive.var))),
               tolerance = 1e-6)
  expect_output(print(summary(fit)), "robust variance")
  # integer (frequency) weights keep the model-based variance, as coxph
  freq <- round(cohort$iptw)
  refFreq <- survival::coxph(f, data = cohort, weights = freq)
  expect_null(refFreq$naive.var)
  expectCoxPort(fitModel(createData(f, data = cohort, modelType = "cox", weights = freq)),
                refFreq, "frequency weights")
})

test_that("clogit ported: infert (exact conditional likelihood)", {
  skip_if_not_installed("survival")
  # (clogit() evaluates a coxph() call in its caller's frame: one that sees survival)
  ref <- evalq(clogit(case ~ spontaneous + induced + strata(stratum), data = datasets::infert),
               new.env(parent = asNamespace("survival")))
  fit <- fitModel(createData(case ~ spontaneous + induced + strata(stratum), data = datasets::infert,
                             modelType = "clr"))
  expectCoxPort(fit, ref, "infert")
})

test_that("crr ported: mgus2 (its robust variance, by default in every accessor)", {
  skip_if_not_installed("survival")
  skip_if_not_installed("cmprsk")
  m <- survival::mgus2
  m$etime <- ifelse(m$pstat == 0, m$futime, m$ptime)
  m$event <- ifelse(m$pstat == 0, 2 * m$death, 1)
  m$male <- as.numeric(m$sex == "M")
  ref <- cmprsk::crr(m$etime, m$event, cbind(age = m$age, male = m$male, hgb = m$hgb))  # crr: na.omit
  fit <- fitModel(createData(Surv(etime, event) ~ age + male + hgb, data = m, modelType = "fgr"))
  s <- summary(ref)
  # summary.crr prints its p-values rounded to 2 digits (signif(2 * (1 - pnorm(|z|)), 2));
  # its z with pnorm's tail, unrounded and without 1 - pnorm's cancellation, is the reference
  z <- ref$coef / sqrt(diag(ref$var))
  expect_equal(s$coef[, "p-value"], signif(2 * (1 - stats::pnorm(abs(z))), 2))
  expectPort(fit, ref$coef, sqrt(diag(ref$var)), log(s$conf.int[, "2.5%"]),
             log(s$conf.int[, "97.5%"]), 2 * stats::pnorm(-abs(z)), label = "mgus2")
  expect_equal(fit$nRows, ref$n)
  expect_equal(unname(sqrt(diag(vcov(fit, type = "model")))), unname(sqrt(diag(ref$invinf))),
               tolerance = 1e-6)
  expect_output(print(summary(fit)), "crr's var")
})

test_that("glm ported: birthwt (confint.glm's profile likelihood by default)", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  bw$race <- factor(bw$race, labels = c("white", "black", "other"))
  f <- low ~ age + lwt + race + smoke + ptl + ht + ui
  ref <- stats::glm(f, binomial, bw)
  fit <- fitModel(createData(f, data = bw, modelType = "lr"))
  expect_lt(relativeGap(coef(fit), coef(ref)), 1e-6)
  # glm's default vcov() is the information of the IRLS step before its last (1.7e-5 relative
  # on these data); solved to its limit it is the information at the estimate, Argus's
  tight <- stats::update(ref, control = stats::glm.control(epsilon = 1e-14, maxit = 100))
  s <- summary(tight)$coefficients
  # confint.glm interpolates a spline through profile points (1.1e-4 from the profile's roots
  # on these data); the roots themselves, by uniroot() on glm fits with the coefficient as an
  # offset, are the reference
  X <- model.matrix(tight)
  drop <- stats::qchisq(0.95, 1) / 2
  root <- function(j, side) {
    objective <- function(b) {
      refit <- stats::glm.fit(X[, -j, drop = FALSE], bw$low, offset = X[, j] * b, family = binomial(),
                              control = stats::glm.control(epsilon = 1e-14, maxit = 100))
      (tight$deviance - refit$deviance) / 2 + drop
    }
    b <- coef(tight)[[j]]
    se <- s[j, "Std. Error"]
    stats::uniroot(objective, sort(c(b, b + side * 5 * se)), tol = 1e-12)$root
  }
  lower <- vapply(seq_len(ncol(X)), root, 0, side = -1)
  upper <- vapply(seq_len(ncol(X)), root, 0, side = 1)
  expectPort(fit, coef(tight), s[, "Std. Error"], lower, upper, s[, "Pr(>|z|)"], label = "birthwt")
  expect_identical(attr(confint(fit), "method"), "profile")
  expect_lt(max(abs(unclass(confint(fit)) - suppressMessages(stats::confint(ref)))), 2e-4)
})

test_that("the defaults stay available by name: Breslow ties, model-based variance, na.fail", {
  skip_if_not_installed("survival")
  lung <- survival::lung
  f <- survival::Surv(time, status) ~ age + sex + ph.ecog
  environment(f) <- asNamespace("survival")
  breslow <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"))
  expect_lt(relativeGap(coef(breslow), coef(survival::coxph(f, lung, ties = "breslow"))), 1e-6)
  expect_output(print(breslow), "breslow ties")
  expect_output(print(fitModel(createData(f, data = lung, modelType = "cox"))), "efron ties")
  withr::with_options(list(na.action = "na.fail"),
    expect_error(createData(f, data = lung, modelType = "cox"), "na.fail.*na.omit"))
  withr::with_options(list(na.action = NULL),
    expect_error(createData(f, data = lung, modelType = "cox"), "unset"))
  withr::with_options(list(na.action = "na.pass"),
    expect_error(createData(f, data = lung, modelType = "cox"), "getOption\\(\"na.action\"\\) is 'na.pass'"))
  expect_error(createData(f, data = lung, modelType = "cox", na.action = na.pass), "'na.action' is 'na.pass'")
  excluded <- fitModel(createData(f, data = lung, modelType = "cox", na.action = na.exclude))
  expect_length(residuals(excluded), nrow(lung))
  expect_true(is.na(residuals(excluded)[which(is.na(lung$ph.ecog))]))
  expect_s3_class(stats::na.action(excluded), "exclude")
})

test_that("the long and matrix routes take Efron ties for cox too", {
  skip_if_not_installed("survival")
  lung <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  x <- as.matrix(lung[, c("age", "sex")])
  ref <- survival::coxph(survival::Surv(time, status) ~ age + sex, data = lung)
  byMatrix <- fitModel(createData(x = x, y = lung$status - 1, time = lung$time, modelType = "cox"))
  expect_equal(byMatrix$data$ties, "efron")
  expect_lt(relativeGap(coef(byMatrix), coef(ref)), 1e-6)
  outcomes <- data.frame(rowId = seq_len(nrow(lung)), y = lung$status - 1, time = lung$time)
  covariates <- data.frame(rowId = rep(seq_len(nrow(lung)), 2), covariateId = rep(1:2, each = nrow(lung)),
                           covariateValue = c(lung$age, lung$sex))
  byLong <- fitModel(createData(outcomes, covariates, modelType = "cox"))
  expect_lt(relativeGap(coef(byLong), coef(ref)), 1e-6)
  expect_output(print(byLong$data), "efron ties")
})
