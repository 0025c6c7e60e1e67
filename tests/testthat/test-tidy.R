# summary() coefficient table, tidy() / glance() / augment() for fits and bootstraps, and
# confint() of a bootstrap, against glm, lm and the bootstrap replicates themselves.

test_that("tidy() of an unpenalized lr equals summary(glm)'s estimates, standard errors and p-values", {
  set.seed(2)
  n <- 300
  df <- data.frame(a = rnorm(n), b = rnorm(n), c = rnorm(n))
  df$y <- rbinom(n, 1, plogis(0.3 + df$a))
  ref <- glm(y ~ a + b + c, family = binomial, data = df,
             control = glm.control(epsilon = 1e-14, maxit = 100))
  fit <- fitModel(createData(y ~ a + b + c, data = df, modelType = "lr"),
                  control = createControl(tolerance = 1e-12, maxIterations = 10000))
  td <- tidy(fit, conf.int = TRUE, conf.method = "wald")  # (lr's default is the profile, as confint.glm)
  s <- summary(ref)$coefficients
  expect_equal(td$term, rownames(s))
  expect_lt(max(abs(td$estimate - s[, 1])), 1e-6)
  expect_lt(max(abs(td$std.error - s[, 2])), 1e-6)
  expect_lt(max(abs(td$statistic - s[, 3])), 1e-6)
  expect_lt(max(abs(td$p.value - s[, 4])), 1e-6)
  expect_lt(max(abs(td$conf.low - confint.default(ref)[, 1])), 1e-6)
  expect_equal(unique(td$interval), "Wald")
  # odds ratios
  tdExp <- tidy(fit, conf.int = TRUE, conf.method = "wald", exponentiate = TRUE)
  expect_lt(max(abs(tdExp$estimate - exp(coef(ref)))), 1e-6)
  expect_lt(max(abs(tdExp$conf.high - exp(confint.default(ref)[, 2]))), 1e-6)
  # profile intervals are confint()'s, and its default for lr, as broom's tidy.glm
  tdProfile <- tidy(fit, conf.int = TRUE, conf.method = "profile")
  expect_equal(unname(tdProfile$conf.low), unname(confint(fit)[, 1]))
  expect_equal(unique(tdProfile$interval), "profile")
  expect_identical(tidy(fit, conf.int = TRUE), tdProfile)
  # robust standard errors
  tdRobust <- tidy(fit, type = "robust")
  expect_lt(max(abs(tdRobust$std.error - sqrt(diag(vcov(fit, type = "robust"))))), 1e-12)
  # summary() holds the same table
  sm <- summary(fit)$coefficients
  expect_equal(sm$std.error, td$std.error)
  expect_equal(sm$p.value, td$p.value)
  # glance(): logLik, AIC, BIC and nobs of glm
  gl <- glance(fit)
  expect_lt(abs(gl$logLik - as.numeric(logLik(ref))), 1e-6)
  expect_lt(abs(gl$AIC - AIC(ref)), 1e-6)
  expect_lt(abs(gl$BIC - BIC(ref)), 1e-6)
  expect_equal(gl$nobs, nobs(ref))
  # augment(): fitted link and deviance residuals of glm, next to the data's columns
  au <- augment(fit, data = df)
  expect_equal(names(au), c(".rowId", "a", "b", "c", "y", ".fitted", ".resid"))
  expect_lt(max(abs(au$.fitted - predict(ref))), 1e-6)
  expect_lt(max(abs(au$.resid - residuals(ref))), 1e-6)
  auNew <- augment(fit, newdata = df[1:5, ], type.predict = "response")
  expect_lt(max(abs(auNew$.fitted - predict(ref, df[1:5, ], type = "response"))), 1e-6)
  if (requireNamespace("tibble", quietly = TRUE)) expect_s3_class(td, "tbl_df")
})

test_that("summary() of ls uses the residual variance and t, as summary.lm", {
  ref <- lm(mpg ~ wt + hp, data = mtcars)
  fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"),
                  control = createControl(tolerance = 1e-12, maxIterations = 10000))
  sm <- summary(fit)$coefficients
  s <- summary(ref)$coefficients
  expect_lt(max(abs(sm$std.error - s[, 2])), 1e-6)
  expect_lt(max(abs(sm$p.value - s[, 4])), 1e-6)
  expect_lt(max(abs(sm$lower - confint(ref)[, 1])), 1e-6)
  expect_equal(unique(sm$interval), "t")
})

test_that("penalized coefficients: no p-value; Laplace-selected ones no interval; printing shows the largest", {
  set.seed(3)
  n <- 400
  p <- 60
  x <- matrix(rnorm(n * p), n, p, dimnames = list(NULL, sprintf("v%02d", 1:p)))
  y <- rbinom(n, 1, plogis(-0.5 + x[, 1] - 0.8 * x[, 2]))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"), createPrior("laplace", variance = 0.05))
  sm <- summary(fit)
  tab <- sm$coefficients
  expect_true(is.finite(tab$std.error[1]) && is.finite(tab$p.value[1]))   # the intercept
  expect_true(all(is.na(tab$std.error[-1]) & is.na(tab$p.value[-1]) & is.na(tab$lower[-1])))
  # the intercept's SE is vcov()'s over the nonzero coefficients
  V <- suppressWarnings(vcov(fit))
  expect_equal(tab$std.error[1], sqrt(V[1, 1]))
  out <- capture.output(print(sm))
  expect_true(any(grepl("more coefficients not shown", out)))
  expect_true(any(grepl("^\\s+v01", out)) && any(grepl("^\\s+v02", out)))
  expect_lte(sum(grepl("^\\s+v[0-9]", out)), 20)
  # a normal prior: posterior standard deviations, no p-values
  fitN <- fitModel(createData(x = x[, 1:3], y = y, modelType = "lr"), createPrior("normal", variance = 1))
  tabN <- summary(fitN)$coefficients
  expect_equal(tabN$interval[-1], rep("normal posterior", 3))
  expect_true(all(is.na(tabN$p.value[-1])) && is.finite(tabN$p.value[1]))
  expect_equal(tabN$std.error, unname(sqrt(diag(vcov(fitN)))))
  expect_true(is.na(glance(fit)$AIC))
  expect_equal(glance(fit)$variance, 0.05)
})

test_that("tidy(), glance() and confint() of a bootstrap come from its replicates", {
  set.seed(1)
  x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(200, 1, plogis(x[, 1]))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
  boot <- runBootstrap(fit, replicates = 60, seed = 1)
  td <- tidy(boot)
  expect_equal(td$term, c("(Intercept)", "a", "b"))
  expect_equal(td$std.error, unname(apply(boot$estimates, 2, sd)))
  expect_equal(td$conf.low, unname(apply(boot$estimates, 2, quantile, 0.025, names = FALSE)))
  expect_equal(td$conf.low, boot$summary$lower)
  ci <- confint(boot, "a", level = 0.8)
  expect_equal(unname(ci[1, ]), quantile(boot$estimates[, "a"], c(0.1, 0.9), names = FALSE))
  expect_equal(colnames(ci), c("10 %", "90 %"))
  ciN <- confint(boot, 2, type = "normal")
  expect_equal(unname(ciN[1, 2]), unname(coef(fit)["a"] + qnorm(0.975) * sd(boot$estimates[, "a"])))
  gl <- glance(boot)
  expect_equal(gl$replicates, 60L)
  expect_equal(gl$usable, 60L)
  expect_equal(tidy(boot, exponentiate = TRUE)$conf.high, exp(td$conf.high))
  expect_error(confint(boot, "zz"), "unknown")
})

test_that("tidy() and augment() of a weighted Cox fit match summary(coxph(robust = TRUE))", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(14)
  lung$iptw <- 1 / runif(nrow(lung), 0.2, 0.8)
  ref <- survival::coxph(inSurvival(Surv(time, status) ~ age + sex), data = lung, weights = iptw,
                         robust = TRUE, ties = "breslow", model = TRUE,
                         control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
  fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow",
                             weights = iptw), control = survivalControl())
  td <- tidy(fit, conf.int = TRUE, type = "robust", exponentiate = TRUE)
  s <- summary(ref)
  expect_lt(max(abs(td$std.error - s$coefficients[, "robust se"])), 1e-6)
  expect_lt(max(abs(td$p.value - s$coefficients[, "Pr(>|z|)"])), 1e-6)
  expect_lt(max(abs(td$conf.low - s$conf.int[, "lower .95"])), 1e-6)
  expect_equal(unique(td$interval), "robust Wald")
  expect_warning(tidy(fit, type = "model"), "robust")  # model-based standard errors with sampling weights
  expect_identical(tidy(fit, conf.int = TRUE, exponentiate = TRUE), td)  # robust by default, as coxph
  au <- augment(fit, data = lung)
  expect_lt(max(abs(au$.resid - residuals(ref, "martingale"))), 1e-6)
  expect_lt(max(abs(au$.fitted - predict(ref, type = "lp", reference = "zero"))), 1e-6)
  expect_equal(glance(fit)$nobs, ref$nevent)
  # the majorized start's steps are counted beside the exact cycles (a fit it certified said
  # iterations 0 and nothing else)
  expect_equal(glance(fit)$majorizedSteps, fit$majorizedSteps)
  expect_equal(glance(fit)$iterations, fit$iterations)
})

test_that("a penalized fit has no AIC or BIC, as glance() says (logLik df NA)", {
  fit <- fitModel(createData(mpg ~ wt + hp + qsec, data = mtcars, modelType = "ls"),
                  prior = createPrior("normal", variance = 1))
  # the nonzero coefficients were counted: a ridge fit's AIC 3284.7-like numbers
  expect_true(is.na(attr(logLik(fit), "df")))
  expect_true(is.na(AIC(fit)))
  expect_true(is.na(BIC(fit)))
  expect_true(is.na(glance(fit)$df))
  lasso <- fitModel(createData(am ~ wt + hp + qsec, data = mtcars, modelType = "lr"),
                    prior = createPrior("laplace", variance = 1))
  expect_true(is.na(AIC(lasso)))
  flat <- fitModel(createData(mpg ~ wt + hp + qsec, data = mtcars, modelType = "ls"))
  expect_equal(AIC(flat), AIC(lm(mpg ~ wt + hp + qsec, data = mtcars)), tolerance = 1e-8)
  expect_equal(glance(flat)$df, 5)  # four coefficients and the variance, as logLik.lm
})
