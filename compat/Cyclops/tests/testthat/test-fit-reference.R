local_edition(3)

lungData <- function() {
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
  lung2$status <- lung2$status - 1
  lung2$rowId <- seq_len(nrow(lung2))
  lung2
}

lungLong <- function(lung2) {
  covariates <- rbind(data.frame(rowId = lung2$rowId, covariateId = 1, covariateValue = lung2$age),
                      data.frame(rowId = lung2$rowId, covariateId = 2, covariateValue = lung2$sex))
  list(outcomes = data.frame(rowId = lung2$rowId, y = lung2$status, time = lung2$time),
       covariates = covariates)
}

test_that("logistic, Poisson and least squares are glm's and lm's", {
  fit <- fitCyclopsModel(createCyclopsData(am ~ wt + hp, data = mtcars, modelType = "lr"))
  gold <- glm(am ~ wt + hp, family = binomial(), data = mtcars)
  expect_equal(coef(fit), coef(gold), tolerance = 1e-5)
  expect_equal(fit$log_likelihood, as.numeric(logLik(gold)), tolerance = 1e-8)
  expect_equal(predict(fit), fitted(gold), tolerance = 1e-5)
  expect_equal(fit$engine, "Argus")
  expect_equal(fit$return_flag, "SUCCESS")
  insurance <- MASS::Insurance
  pr <- fitCyclopsModel(createCyclopsData(Claims ~ District + Age + offset(log(Holders)),
                                          data = insurance, modelType = "pr"))
  goldPr <- glm(Claims ~ District + Age + offset(log(Holders)), family = poisson(), data = insurance)
  expect_equal(coef(pr), coef(goldPr), tolerance = 1e-5)
  ls <- fitCyclopsModel(createCyclopsData(mpg ~ wt + hp, data = mtcars, modelType = "ls"),
                        control = createControl(tolerance = 1e-9))
  expect_equal(coef(ls), coef(lm(mpg ~ wt + hp, data = mtcars)), tolerance = 1e-5)
  # the incumbent's least-squares log-likelihood is -RSS
  expect_equal(ls$log_likelihood, -sum(residuals(lm(mpg ~ wt + hp, data = mtcars))^2), tolerance = 1e-6)
})

test_that("conditional logistic: 'clr' is clogit's Breslow form, 'clr_exact' its exact likelihood", {
  set.seed(5)
  sets <- data.frame(stratum = rep(1:40, each = 5), x = rnorm(200), z = rbinom(200, 1, 0.4))
  sets$case <- 0
  for (s in 1:40) {
    rows <- which(sets$stratum == s)
    sets$case[sample(rows, 1 + (s %% 3 == 0), prob = exp(sets$x[rows]))] <- 1  # some sets have 2 cases
  }
  breslow <- fitCyclopsModel(createCyclopsData(case ~ x + z + strata(stratum), data = sets, modelType = "clr"))
  exact <- fitCyclopsModel(createCyclopsData(case ~ x + z + strata(stratum), data = sets, modelType = "clr_exact"))
  expect_equal(coef(breslow), coef(clogit(case ~ x + z + strata(stratum), data = sets, method = "breslow")),
               tolerance = 1e-5)
  expect_equal(coef(exact), coef(clogit(case ~ x + z + strata(stratum), data = sets)), tolerance = 1e-5)
})

test_that("conditional Poisson is the fixed-effects Poisson glm; the incumbent's log-likelihood scale", {
  set.seed(6)
  d <- data.frame(stratumId = rep(1:60, each = 3), x = rbinom(180, 1, 0.4), time = runif(180, 10, 100))
  d$y <- rpois(180, 0.02 * d$time * exp(0.5 * d$x))
  long <- convertToCyclopsData(data.frame(rowId = 1:180, stratumId = d$stratumId, y = d$y, time = d$time),
                               data.frame(rowId = 1:180, stratumId = d$stratumId, covariateId = 7,
                                          covariateValue = d$x),
                               modelType = "cpr", addIntercept = FALSE, quiet = TRUE)
  fit <- fitCyclopsModel(long)
  gold <- glm(y ~ x + factor(stratumId) + offset(log(time)), family = poisson(), data = d)
  expect_equal(unname(coef(fit)), unname(coef(gold)["x"]), tolerance = 1e-5)
  formula <- fitCyclopsModel(createCyclopsData(y ~ x + strata(stratumId) + offset(log(time)),
                                               data = d, modelType = "cpr"))
  expect_equal(unname(coef(formula)), unname(coef(gold)["x"]), tolerance = 1e-5)
  # exposure as time or as offset: one log-likelihood, the incumbent's (with -sum(log(y!)))
  expect_equal(fit$log_likelihood, formula$log_likelihood, tolerance = 1e-8)
  expect_equal(fit$log_likelihood,
               fit$argusFit$logLikelihood + sum(d$y * log(d$time) - lfactorial(d$y)), tolerance = 1e-8)
})

test_that("Cox: coxph with Breslow ties, strata, and weights in the order of the outcomes", {
  lung2 <- lungData()
  gold <- coxph(Surv(time, status) ~ age + sex + strata(ph.ecog), data = lung2, ties = "breslow")
  fit <- fitCyclopsModel(createCyclopsData(Surv(time, status) ~ age + sex + strata(ph.ecog),
                                           data = lung2, modelType = "cox"))
  expect_equal(coef(fit), coef(gold), tolerance = 1e-5)
  expect_equal(fit$log_likelihood, gold$loglik[2], tolerance = 1e-8)
  # fitCyclopsModel(weights =) on long tables: the weights of the outcomes' rows (the
  # incumbent applied them in its internal sort order)
  set.seed(1)
  w <- runif(nrow(lung2), 0.2, 3)
  long <- lungLong(lung2)
  data <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "cox", quiet = TRUE)
  weighted <- fitCyclopsModel(data, weights = w)
  goldWeighted <- coxph(Surv(time, status) ~ age + sex, data = lung2, weights = w, ties = "breslow")
  expect_equal(unname(coef(weighted)), unname(coef(goldWeighted)), tolerance = 1e-5)
  # the same weights as an outcomes column
  long$outcomes$weights <- w
  column <- fitCyclopsModel(convertToCyclopsData(long$outcomes, long$covariates, modelType = "cox",
                                                 quiet = TRUE))
  expect_equal(coef(column), coef(weighted), tolerance = 1e-8)
})

test_that("Fine-Gray is crr's, with getFineGrayWeights() or the censoring computed", {
  skip_if_not_installed("cmprsk")
  set.seed(7)
  n <- 300
  x1 <- rnorm(n)
  x2 <- rbinom(n, 1, 0.5)
  time <- round(rexp(n, 0.1 * exp(0.4 * x1)), 1) + 0.1
  status <- sample(0:2, n, replace = TRUE, prob = c(0.3, 0.4, 0.3))
  gold <- cmprsk::crr(time, status, cbind(x1, x2), variance = FALSE)
  weights <- getFineGrayWeights(time, status)
  data <- createCyclopsData(weights$surv ~ x1 + x2, modelType = "fgr", censorWeights = weights$weights)
  expect_equal(unname(coef(fitCyclopsModel(data))), unname(gold$coef), tolerance = 1e-4)
  long <- convertToCyclopsData(data.frame(rowId = 1:n, y = status, time = time),
                               rbind(data.frame(rowId = 1:n, covariateId = 1, covariateValue = x1),
                                     data.frame(rowId = which(x2 == 1), covariateId = 2, covariateValue = 1)),
                               modelType = "fgr", quiet = TRUE)
  expect_equal(unname(coef(fitCyclopsModel(long))), unname(gold$coef), tolerance = 1e-4)
})

test_that("the fit is Argus's fit of the same rows with the same settings", {
  lung2 <- lungData()
  long <- lungLong(lung2)
  data <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "cox", quiet = TRUE)
  fit <- fitCyclopsModel(data, prior = createPrior("laplace", variance = 0.5))
  argus <- Argus::fitModel(Argus::createData(long$outcomes, long$covariates, modelType = "cox",
                                             ties = "breslow"),
                           prior = Argus::createPrior("laplace", variance = 0.5),
                           control = Argus::createControl(tolerance = 1e-6))
  expect_equal(unname(coef(fit)), unname(coef(argus)), tolerance = 1e-6)
  expect_equal(fit$log_prior, argus$logPrior, tolerance = 1e-8)
  expect_identical(fit$argusFit$status, "SUCCESS")
})

test_that("the incumbent's fields, prior_info and variance", {
  counts <- c(18, 17, 15, 20, 10, 20, 25, 13, 12)
  outcome <- gl(3, 1, 9)
  treatment <- gl(3, 3)
  data <- createCyclopsData(counts ~ outcome + treatment, modelType = "pr")
  flat <- fitCyclopsModel(data)
  expect_true(all(c("estimation", "return_flag", "log_likelihood", "variance", "iterations",
                    "coefficientNames", "log_prior", "prior_info", "timeFit", "seed") %in% names(flat)))
  expect_s3_class(flat, "cyclopsFit")
  expect_equal(flat$prior_info, "None")
  expect_length(flat$variance, 0)
  expect_equal(flat$estimation$column_label, 1:5)
  expect_warning(laplace <- fitCyclopsModel(data, prior = createPrior("laplace", 0.5)),
                 "Excluding intercept")
  expect_equal(laplace$prior_info, "Laplace(2) None ")
  expect_equal(laplace$variance, 0.5)
  mixed <- fitCyclopsModel(data, prior = createPrior(c("none", "laplace", "none", "normal", "none"),
                                                     c(0, 1, 0, 2, 1)))
  expect_equal(mixed$prior_info, "None Laplace(1.41421) None Normal(2) None ")
  expect_equal(getHyperParameter(mixed), c(1, 2))
  # CohortMethod adjusts an estimate in place: coef() sees it
  flat$estimation$estimate[1] <- 0
  expect_equal(unname(coef(flat)[1]), 0)
})

test_that("separation: SUCCESS with a warning that a coefficient may be infinite, as coxph", {
  set.seed(123)
  n <- 500
  exposure <- runif(n) < 0.5
  event <- ifelse(exposure, Inf, rexp(n, 0.01))
  censor <- rexp(n, 0.01)
  d <- data.frame(time = pmin(event, censor), outcome = event < censor, exposure = exposure)
  expect_warning(fit <- fitCyclopsModel(createCyclopsData(Surv(time, outcome) ~ exposure, data = d,
                                                          modelType = "cox")),
                 "coefficient may be infinite")
  expect_equal(fit$return_flag, "SUCCESS")
  expect_equal(fit$argusFit$status, "NO_FINITE_MLE")
  expect_lt(coef(fit), -5)
  ci <- suppressWarnings(confint(fit, "exposureTRUE"))
  expect_true(is.na(ci[2]))
})

test_that("settings restored from JSON (lists, the class set again) fit as the originals", {
  data <- createCyclopsData(am ~ wt + hp + qsec, data = mtcars, modelType = "lr")
  prior <- createPrior("laplace", variance = 0.5, exclude = c("(Intercept)", "hp"))
  restored <- unclass(prior)
  restored$exclude <- as.list(restored$exclude)
  class(restored) <- "cyclopsPrior"
  control <- createControl(seed = 1)
  storedControl <- structure(lapply(unclass(control), identity), class = "cyclopsControl")
  expect_equal(coef(fitCyclopsModel(data, restored, storedControl, warnings = FALSE)),
               coef(fitCyclopsModel(data, prior, control, warnings = FALSE)))
})
