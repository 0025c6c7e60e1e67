# residuals(), fitted() and nobs() against residuals.glm / residuals.lm and residuals.coxph.

test_that("lr, pr and ls residuals and fitted values equal glm's", {
  set.seed(4)
  n <- 200
  df <- data.frame(a = rnorm(n), b = rnorm(n), w = runif(n, 0.5, 2), exposure = runif(n, 1, 2))
  df$y <- rbinom(n, 1, plogis(df$a))
  df$count <- rpois(n, df$exposure * exp(0.3 + df$b))
  df$z <- 1 + df$a - df$b + rnorm(n)
  tight <- glm.control(epsilon = 1e-14, maxit = 100)
  control <- createControl(tolerance = 1e-12, maxIterations = 10000)
  cases <- list(
    list(ref = suppressWarnings(glm(y ~ a + b, family = binomial, data = df, weights = w, control = tight)),
         fit = fitModel(createData(y ~ a + b, data = df, modelType = "lr", weights = w), control = control)),
    list(ref = glm(count ~ a + b + offset(log(exposure)), family = poisson, data = df, control = tight),
         fit = fitModel(createData(count ~ a + b, data = df, modelType = "pr", time = df$exposure),
                        control = control)),
    list(ref = glm(z ~ a + b, data = df, weights = w, control = tight),
         fit = fitModel(createData(z ~ a + b, data = df, modelType = "ls", weights = w), control = control)))
  for (case in cases) {
    for (type in c("deviance", "pearson", "response", "working"))
      expect_lt(max(abs(residuals(case$fit, type = type) - residuals(case$ref, type = type))), 1e-6,
                label = paste(case$fit$modelType, type))
    expect_lt(max(abs(residuals(case$fit) - residuals(case$ref))), 1e-6)  # deviance by default
    expect_lt(max(abs(fitted(case$fit) - fitted(case$ref))), 1e-6)
    expect_equal(names(residuals(case$fit)), as.character(seq_len(n)))
    expect_equal(nobs(case$fit), nobs(case$ref))
  }
  # lm's residuals too
  expect_lt(max(abs(residuals(cases[[3]]$fit, "response") - residuals(lm(z ~ a + b, df, weights = w)))), 1e-6)
})

test_that("Cox residuals equal residuals.coxph (martingale, deviance, score, schoenfeld, dfbeta)", {
  skip_if_not_installed("survival")
  for (case in weightedLungCoxCases()) {
    fit <- case$fit
    ref <- case$ref
    label <- case$label
    lung <- case$data
    for (type in c("martingale", "deviance", "score", "schoenfeld", "dfbeta"))
      expect_lt(max(abs(unname(residuals(fit, type = type)) - unname(residuals(ref, type = type)))), 1e-6,
                label = paste(label, type))
    expect_lt(max(abs(residuals(fit, "martingale", weighted = TRUE) -
                      residuals(ref, "martingale", weighted = TRUE))), 1e-6)
    # dfbeta is weighted by default, as coxph's; weighted = FALSE was ignored
    unweighted <- unname(residuals(fit, "dfbeta", weighted = FALSE))
    expect_lt(max(abs(unweighted - unname(residuals(ref, "dfbeta", weighted = FALSE)))), 1e-6,
              label = paste(label, "unweighted dfbeta"))
    expect_gt(max(abs(unweighted - unname(residuals(fit, "dfbeta")))), 1e-4)
    expect_equal(rownames(residuals(fit, "schoenfeld")), rownames(residuals(ref, "schoenfeld")))
    expect_equal(nobs(fit), nobs(ref))
    expect_equal(attr(logLik(fit), "nobs"), nobs(ref))
  }
})

test_that("Cox residuals of counting-process data equal residuals.coxph", {
  skip_if_not_installed("survival")
  b <- survival::bladder2
  for (ties in c("breslow", "efron")) {
    ref <- coxRef(Surv(start, stop, event) ~ rx + number + size, b, ties = ties)
    fit <- fitModel(createData(Surv(start, stop, event) ~ rx + number + size, data = b,
                               modelType = "cox", ties = ties), control = survivalControl())
    for (type in c("martingale", "score", "schoenfeld"))
      expect_lt(max(abs(unname(residuals(fit, type = type)) - unname(residuals(ref, type = type)))), 1e-6,
                label = paste(ties, type))
  }
})

test_that("residuals() says where it has no definition; arguments are checked", {
  sim <- simulateSccs(nPatients = 30, nDrugs = 2, seed = 2)
  fit <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"))
  expect_error(residuals(fit), "not 'sccs'")
  expect_equal(nobs(fit), fit$nRows)
  set.seed(1)
  lr <- fitModel(createData(x = matrix(rnorm(40), 20, 2), y = rbinom(20, 1, 0.5), modelType = "lr"))
  expect_error(residuals(lr, type = "martingale"), "should be one of")
  expect_error(residuals(lr, foo = 1), "unused argument")
  # a glm's residuals have no weighted form: asked for, it was silently ignored
  expect_error(residuals(lr, weighted = TRUE), "'weighted' is for Cox residuals")
  expect_equal(residuals(lr, weighted = FALSE), residuals(lr))
  expect_error(residuals(lr, weighted = "no"), "'weighted' must be")
  expect_equal(nobs(fitModel(createData(x = matrix(rnorm(40), 20, 2), y = rbinom(20, 1, 0.5),
                                        modelType = "lr"), weights = rep(0:1, 10))), 10)
})

test_that("deviance() and df.residual() are glm's and lm's (they were NULL)", {
  birthwt <- MASS::birthwt
  lr <- fitModel(createData(low ~ age + lwt + factor(race) + smoke, data = birthwt, modelType = "lr"))
  g <- glm(low ~ age + lwt + factor(race) + smoke, binomial, birthwt)
  expect_equal(deviance(lr), deviance(g), tolerance = 1e-8)
  expect_equal(df.residual(lr), df.residual(g))
  insurance <- MASS::Insurance
  pr <- fitModel(createData(Claims ~ District + Group + Age + offset(log(Holders)), data = insurance,
                            modelType = "pr", weights = rep(c(1, 2), 32)))
  gp <- glm(Claims ~ District + Group + Age + offset(log(Holders)), poisson, insurance,
            weights = rep(c(1, 2), 32))
  expect_equal(deviance(pr), deviance(gp), tolerance = 1e-8)
  expect_equal(df.residual(pr), df.residual(gp))
  ls <- fitModel(createData(mpg ~ wt + hp + factor(cyl), data = mtcars, modelType = "ls"))
  l <- lm(mpg ~ wt + hp + factor(cyl), mtcars)
  expect_equal(deviance(ls), deviance(l), tolerance = 1e-8)
  expect_equal(df.residual(ls), df.residual(l))
  # an aliased column counts as glm's rank does; a penalized fit has no residual df
  expect_warning(aliased <- fitModel(createData(mpg ~ wt + I(2 * wt), data = mtcars, modelType = "ls")),
                 "'I\\(2 \\* wt\\)' cannot be estimated")
  expect_equal(df.residual(aliased), df.residual(lm(mpg ~ wt + I(2 * wt), mtcars)))
  ridge <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"),
                    prior = createPrior("normal", 1, exclude = "(Intercept)"))
  expect_true(is.na(df.residual(ridge)))
  cox <- fitModel(createData(Surv(time, status) ~ age, data = survival::lung, modelType = "cox"))
  expect_error(deviance(cox), "-2 \\* logLik\\(fit\\)")
})

test_that("strata in survival's order: Schoenfeld rows and baselineHazard() by factor level, not first appearance", {
  skip_if_not_installed("survival")
  cgd <- survival::cgd  # hos.cat's first row is "US:other", its first level "US:NIH"
  f <- survival::Surv(tstart, tstop, status) ~ treat + age + strata(hos.cat)
  ref <- coxRef(f, cgd, ties = "efron")
  fit <- fitModel(createData(f, data = cgd, modelType = "cox", ties = "efron"),
                  control = survivalControl())
  expect_lt(max(abs(residuals(fit, "schoenfeld") - residuals(ref, "schoenfeld"))), 1e-6)  # 22.4 row by row
  expect_equal(rownames(residuals(fit, "schoenfeld")), rownames(residuals(ref, "schoenfeld")))
  hazard <- baselineHazard(fit)
  expect_equal(unique(hazard$stratum), levels(cgd$hos.cat))
  base <- survival::basehaz(ref, centered = FALSE)
  base <- base[c(TRUE, diff(base$hazard) != 0 | base$strata[-1] != base$strata[-nrow(base)]), ]
  base <- base[base$hazard > 0, ]
  expect_equal(hazard$time, base$time)
  expect_equal(hazard$hazard, base$hazard, tolerance = 1e-6)
})

test_that("Cox residuals of rows held out at weight 0 keep their events", {
  skip_if_not_installed("survival")
  set.seed(5)
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex")])
  n <- nrow(lung)
  w <- ifelse(seq_len(n) %% 7 == 0, 0, 1)  # every 7th row held out
  # Breslow only: coxph's Efron counts a row of weight 1e-9 among the tied events (it moves the
  # other rows' fractions), where weight 0 leaves a row out of the fit
  for (ties in "breslow") {
    fit <- fitModel(createData(survival::Surv(time, status) ~ age + sex, data = lung, modelType = "cox",
                               ties = ties), weights = w, control = survivalControl())
    # the reference: coxph with those rows at weight 1e-9 and the coefficients held at Argus's
    ref <- survival::coxph(survival::Surv(time, status) ~ age + sex, data = lung, ties = ties,
                           weights = pmax(w, 1e-9), init = coef(fit),
                           control = survival::coxph.control(iter.max = 0))
    held <- w == 0 & lung$status == 2
    expect_gt(sum(held), 5)
    # their events were dropped: 0 - expected where 1 - expected is theirs
    expect_lt(max(abs(residuals(fit, "martingale") - residuals(ref, "martingale"))), 1e-6, label = ties)
    expect_lt(max(abs(residuals(fit, "score") - residuals(ref, "score"))), 1e-5, label = ties)
    # and their deviance residuals too (NaN, or a wrong number, with the fit's events alone)
    expect_false(anyNA(residuals(fit, "deviance")))
    expect_lt(max(abs(residuals(fit, "deviance") - residuals(ref, "deviance"))), 1e-6, label = ties)
  }
})
