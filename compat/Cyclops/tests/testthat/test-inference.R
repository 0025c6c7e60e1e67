local_edition(3)

dobsonFit <- function(...) {
  dobson <- data.frame(counts = c(18, 17, 15, 20, 10, 20, 25, 13, 12), outcome = gl(3, 1, 9),
                       treatment = gl(3, 3))
  list(fit = fitCyclopsModel(createCyclopsData(counts ~ outcome + treatment, data = dobson,
                                               modelType = "pr"), ...),
       gold = glm(counts ~ outcome + treatment, family = poisson(), data = dobson), data = dobson)
}

test_that("confint: exact profile limits, the incumbent's columns and row names", {
  both <- dobsonFit()
  ci <- confint(both$fit, c("outcome2", "treatment3"))
  expect_equal(colnames(ci), c("covariate", "2.5 %", "97.5 %", "evaluations"))
  expect_equal(rownames(ci), c("outcome2", "treatment3"))
  expect_equal(unname(ci[, "covariate"]), c(2, 5))
  ll <- function(b) {
    as.numeric(logLik(glm(counts ~ outcome + offset(b * (treatment == "2")) + I(treatment == "3"),
                          family = poisson(), data = both$data)))
  }
  llTreatment3 <- function(b) {
    as.numeric(logLik(glm(counts ~ outcome + I(treatment == "2") + offset(b * (treatment == "3")),
                          family = poisson(), data = both$data)))
  }
  exact <- exactProfileLimits(llTreatment3, coef(both$gold)[["treatment3"]])
  expect_equal(unname(ci["treatment3", 2:3]), exact, tolerance = 1e-6)
  expect_equal(confint(both$fit, c(2, 5)), ci)
  # level, as the incumbent labels it
  expect_equal(colnames(confint(both$fit, 2, level = 0.9))[2:3], c("5.0 %", "95.0 %"))
})

test_that("confint refuses penalized coefficients unless overrideNoRegularization, and fixed ones", {
  both <- dobsonFit(prior = createPrior("laplace", exclude = "(Intercept)"))
  expect_error(confint(both$fit, "outcome2"), "regularized")
  expect_true(is.matrix(confint(both$fit, "(Intercept)")))
  override <- confint(both$fit, "outcome2", overrideNoRegularization = TRUE)
  expect_true(all(is.finite(override[, 2:3])))
  fixed <- dobsonFit(startingCoefficients = rep(0, 5),
                     fixedCoefficients = c(FALSE, TRUE, FALSE, FALSE, FALSE))
  expect_equal(unname(coef(fixed$fit)[2]), 0)
  expect_error(confint(fixed$fit, "outcome2"), "fixed coefficient")
})

test_that("profile log-likelihood: grid, adaptive grid with the estimate, derivatives, a fixed coefficient", {
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  data <- createCyclopsData(Surv(time, status) ~ age + sex, data = lung2, modelType = "cox")
  fit <- fitCyclopsModel(data)
  gold <- coxph(Surv(time, status) ~ age + sex, data = lung2, ties = "breslow")
  profileAt <- function(b) coxph(Surv(time, status) ~ age + offset(b * sex), data = lung2,
                                 ties = "breslow")$loglik[2]
  grid <- getCyclopsProfileLogLikelihood(fit, "sex", x = c(-0.8, -0.5, 0))
  expect_equal(names(grid), c("point", "value"))
  expect_equal(grid$value, vapply(c(-0.8, -0.5, 0), profileAt, 0), tolerance = 1e-7)
  adaptive <- getCyclopsProfileLogLikelihood(fit, "sex", bounds = c(-1, 0.5), tolerance = 0.1,
                                             returnDerivatives = TRUE)
  expect_true(coef(fit)[["sex"]] %in% adaptive$point)
  top <- which.max(adaptive$value)
  expect_equal(adaptive$derivative[top], 0, tolerance = 1e-4)
  expect_gt(adaptive$derivative[top - 1], 0)
  expect_error(getCyclopsProfileLogLikelihood(fit, "sex"), "either")
  expect_error(getCyclopsProfileLogLikelihood(fit, "sex", bounds = c(0, 0)), "bounds")
  # EvidenceSynthesis fits with the coefficient fixed and then profiles it
  fixed <- fitCyclopsModel(data, fixedCoefficients = c(FALSE, TRUE))
  expect_equal(unname(coef(fixed)["sex"]), 0)
  expect_equal(getCyclopsProfileLogLikelihood(fixed, "sex", x = c(-0.8, -0.5, 0))$value,
               grid$value, tolerance = 1e-7)
})

test_that("vcov, getSEs and aconfint are glm's", {
  both <- dobsonFit()
  expect_equal(unname(vcov(both$fit)), unname(vcov(both$gold)), tolerance = 1e-5)
  expect_equal(rownames(vcov(both$fit)), both$fit$coefficientNames)
  expect_equal(unname(Cyclops:::getSEs(both$fit, 1:5)), unname(sqrt(diag(vcov(both$gold)))), tolerance = 1e-5)
  expect_equal(unname(aconfint(both$fit)), unname(confint.default(both$gold)), tolerance = 1e-5)
})

test_that("bootstrap: the incumbent's summary, named by covariate id", {
  infertLong <- data.frame(rowId = rep(seq_len(nrow(infert)), 2), stratumId = rep(infert$stratum, 2),
                           covariateId = rep(c(21, 22), each = nrow(infert)),
                           covariateValue = c(infert$spontaneous, infert$induced))
  data <- convertToCyclopsData(data.frame(rowId = seq_len(nrow(infert)), stratumId = infert$stratum,
                                          y = infert$case),
                               infertLong[infertLong$covariateValue != 0, ], modelType = "clr",
                               addIntercept = FALSE)
  fit <- fitCyclopsModel(data, control = createControl(seed = 3))
  boot <- runBootstrap(fit, 100)
  expect_equal(names(boot$summary), c("original", "bias", "std_err", "bpi_lower", "bpi_upper"))
  expect_equal(rownames(boot$summary), c("21", "22"))
  expect_equal(dim(boot$samples), c(100, 2))
  row <- boot$summary[as.character(22), ]
  expect_lt(row$bpi_lower, coef(fit)[["22"]])
  expect_gt(row$bpi_upper, coef(fit)[["22"]])
  # the bootstrap standard error is near the model-based one (clogit's)
  expect_equal(row$std_err, sqrt(vcov(fit)[2, 2]), tolerance = 0.35)
  expect_identical(runBootstrap(fit, 100)$summary, boot$summary)  # the fit's seed
})

test_that("predict: the fitted rows and new rows by rowId, on the response scale", {
  set.seed(8)
  o <- data.frame(rowId = c(5, 3, 9, 1, 7, 2, 8, 4, 6, 10) * 10, y = rbinom(10, 1, 0.5), time = 1:10)
  cv <- data.frame(rowId = o$rowId, covariateId = 3, covariateValue = rnorm(10))
  fit <- fitCyclopsModel(convertToCyclopsData(o, cv, modelType = "lr", quiet = TRUE))
  p <- predict(fit)
  expect_equal(names(p), as.character(sort(o$rowId)))
  gold <- glm(o$y ~ cv$covariateValue, family = binomial())
  expect_equal(unname(p), unname(fitted(gold)[order(o$rowId)]), tolerance = 1e-5)
  expect_equal(predict(fit, newOutcomes = o, newCovariates = cv), p, tolerance = 1e-12)
  # a covariate the model does not know counts as 0; a row without covariates gets the intercept
  extra <- rbind(cv[-1, ], data.frame(rowId = 50, covariateId = 99, covariateValue = 1))
  q <- predict(fit, newOutcomes = o, newCovariates = extra)
  expect_equal(q[["50"]], plogis(coef(fit)[["(Intercept)"]]), tolerance = 1e-12)
  expect_error(predict(fit, newOutcomes = o), "both")
  pr <- fitCyclopsModel(convertToCyclopsData(o, cv, modelType = "pr", quiet = TRUE))
  expect_equal(unname(predict(pr, o, cv)), unname(predict(pr)), tolerance = 1e-12)
})

test_that("survfit(type = 'aalen'): survfit.coxph at the mean covariates, weighted too", {
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  for (w in list(NULL, runif(nrow(lung2), 0.5, 2))) {
    data <- createCyclopsData(Surv(time, status) ~ age + sex, data = lung2, modelType = "cox")
    fit <- fitCyclopsModel(data, weights = w)
    lung2$w <- if (is.null(w)) 1 else w
    gold <- survfit(coxph(Surv(time, status) ~ age + sex, data = lung2, weights = w,
                          ties = "breslow", nocenter = NULL))
    curve <- survfit(fit, type = "aalen")
    expect_equal(curve$time, gold$time)
    expect_equal(curve$surv, gold$surv, tolerance = 1e-5)
  }
})

test_that("univariable correlation and separability: named, never NA for separability", {
  d <- createCyclopsData(am ~ wt + vs, data = mtcars, modelType = "lr")
  correlation <- getUnivariableCorrelation(d)
  expect_equal(unname(correlation[2:3]), c(cor(mtcars$am, mtcars$wt), cor(mtcars$am, mtcars$vs)),
               tolerance = 1e-10)
  expect_true(is.na(correlation[["(Intercept)"]]))
  expect_length(getUnivariableCorrelation(d, threshold = 0.5), 1)
  expect_warning(separability <- getUnivariableSeparability(d), "0/1")
  expect_false(anyNA(separability))
  expect_false(any(separability))
  separated <- createCyclopsData(vs ~ I(cyl == 8), data = mtcars, modelType = "lr")
  expect_true(getUnivariableSeparability(separated)[["I(cyl == 8)TRUE"]])
})

test_that("Schoenfeld residuals are coxph's; gradient and held-out log-likelihood", {
  ovarian <- survival::ovarian
  gfit <- coxph(Surv(futime, fustat) ~ age + strata(ecog.ps), data = ovarian, method = "breslow")
  cfit <- fitCyclopsModel(createCyclopsData(Surv(futime, fustat) ~ age + strata(ecog.ps),
                                            data = ovarian, modelType = "cox"))
  expect_equal(as.numeric(residuals(cfit, "schoenfeld")), as.numeric(residuals(gfit, "schoenfeld")),
               tolerance = 1e-5)
  expect_equal(unname(gradient(cfit)), 0, tolerance = 1e-3)
  half <- rep(c(1, 0), length.out = nrow(ovarian))
  held <- Cyclops:::getCyclopsPredictiveLogLikelihood(cfit, half)
  gold <- coxph(Surv(futime, fustat) ~ age + strata(ecog.ps), data = ovarian[half == 1, ],
                method = "breslow", init = coef(cfit), control = coxph.control(iter.max = 0))
  expect_equal(held, gold$loglik[1], tolerance = 1e-8)
})

test_that("testProportionality is cox.zph's (Argus's proportional-hazards test)", {
  skip_if_not(exists("testProportionalHazards", asNamespace("Argus")))
  ovarian <- survival::ovarian
  for (transform in c("km", "identity", "rank", "log")) {
    gfit <- coxph(Surv(futime, fustat) ~ age + strata(ecog.ps), data = ovarian, method = "breslow")
    cfit <- fitCyclopsModel(createCyclopsData(Surv(futime, fustat) ~ age + strata(ecog.ps),
                                              data = ovarian, modelType = "cox"))
    test <- testProportionality(cfit, transform = transform)
    expect_s3_class(test, "cyclopsZph")
    expect_equal(test$table, cox.zph(gfit, transform = transform, global = FALSE)$table,
                 tolerance = 1e-6)
  }
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  gfit <- coxph(Surv(time, status) ~ age + sex, data = lung2, ties = "breslow")
  cfit <- fitCyclopsModel(createCyclopsData(Surv(time, status) ~ age + sex, data = lung2,
                                            modelType = "cox"))
  expect_equal(testProportionality(cfit)$table, cox.zph(gfit)$table, tolerance = 1e-6)
})
