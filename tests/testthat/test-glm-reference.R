# Unpenalized lr / pr / ls against glm and lm; weights against duplicated rows and glm.

test_that("logistic regression matches glm (coefficients and log-likelihood)", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 11)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  ref <- glmRef(sim$x, sim$y, family = binomial())
  expect_equal(fit$status, "SUCCESS")
  expect_named(coef(fit), c("(Intercept)", colnames(sim$x)))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
  expect_equal(attr(logLik(fit), "df"), 5)
})

test_that("Poisson regression with exposure time matches glm with offset log(time)", {
  sim <- simulatePoisson(n = 300, p = 4, seed = 12)
  ref <- glmRef(sim$x, sim$y, family = poisson(), offset = log(sim$time))
  viaTime <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "pr"),
                      control = tightControl())
  viaOffset <- fitModel(createData(x = sim$x, y = sim$y, offset = log(sim$time),
                                   modelType = "pr"), control = tightControl())
  for (fit in list(viaTime, viaOffset)) {
    expect_equal(fit$status, "SUCCESS")
    expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
    expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
  }
  expect_equal(coef(viaTime), coef(viaOffset), tolerance = 1e-8)
})

test_that("Poisson regression: time and an extra offset combine", {
  sim <- simulatePoisson(n = 250, p = 3, seed = 13)
  extra <- round(rnorm(250, 0, 0.3), 3)
  ref <- glmRef(sim$x, sim$y, offset = log(sim$time) + extra, family = poisson())
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, offset = extra,
                             modelType = "pr"), control = tightControl())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
})

test_that("logistic regression with an offset matches glm", {
  sim <- simulateLogistic(n = 300, p = 3, seed = 14)
  off <- round(rnorm(300, 0, 0.5), 3)
  ref <- glmRef(sim$x, sim$y, offset = off, family = binomial())
  fit <- fitModel(createData(x = sim$x, y = sim$y, offset = off, modelType = "lr"),
                  control = tightControl())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
})

test_that("least squares matches lm", {
  sim <- simulateGaussian(n = 200, p = 5, seed = 15)
  ref <- lm(sim$y ~ sim$x)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"), control = tightControl())
  expect_equal(fit$status, "SUCCESS")
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
  # the engine's objective is -RSS / 2 (MODELS.md section 2); logLik() is lm's
  expect_equal(fit$logLikelihood, -sum(residuals(ref)^2) / 2, tolerance = 1e-8)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
  expect_equal(attr(logLik(fit), "df"), attr(logLik(ref), "df"))
  expect_equal(attr(logLik(fit), "nobs"), attr(logLik(ref), "nobs"))
  expect_equal(AIC(fit), AIC(ref), tolerance = 1e-8)
  expect_equal(BIC(fit), BIC(ref), tolerance = 1e-8)
})

test_that("least squares' logLik, AIC and BIC are lm's on mtcars, with a factor and weights", {
  cars <- mtcars
  cars$cyl <- factor(cars$cyl)
  for (weighted in c(FALSE, TRUE)) {
    w <- if (weighted) cars$disp / 100 else NULL
    ref <- lm(mpg ~ wt + cyl + hp, data = cars, weights = w)
    fit <- fitModel(createData(mpg ~ wt + cyl + hp, data = cars, modelType = "ls"), weights = w,
                    control = tightControl())
    expect_lt(max(abs(coef(fit) - coef(ref))), 1e-6, label = paste("weighted", weighted))
    expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8,
                 label = paste("weighted", weighted))
    expect_equal(attr(logLik(fit), "df"), 6)
    expect_equal(AIC(fit), AIC(ref), tolerance = 1e-8, label = paste("weighted", weighted))
    expect_equal(BIC(fit), BIC(ref), tolerance = 1e-8, label = paste("weighted", weighted))
  }
})

test_that("least squares with an offset matches lm with an offset", {
  sim <- simulateGaussian(n = 150, p = 3, seed = 16)
  off <- rnorm(150)
  ref <- lm(sim$y ~ sim$x + offset(off))
  fit <- fitModel(createData(x = sim$x, y = sim$y, offset = off, modelType = "ls"),
                  control = tightControl())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
})

# Integer weights must give exactly the fit on the data with each row repeated w times.
duplicateRows <- function(w) rep(seq_along(w), w)

test_that("integer weights equal duplicated rows for lr", {
  sim <- simulateLogistic(n = 200, p = 3, seed = 17)
  w <- rep(c(1, 2, 3, 0), length.out = 200)
  k <- duplicateRows(w)
  weighted <- fitModel(createData(x = sim$x, y = sim$y, weights = w, modelType = "lr"),
                       control = tightControl())
  duplicated <- fitModel(createData(x = sim$x[k, ], y = sim$y[k], modelType = "lr"),
                         control = tightControl())
  expect_equal(coef(weighted), coef(duplicated), tolerance = 1e-6)
  expect_equal(as.numeric(logLik(weighted)), as.numeric(logLik(duplicated)), tolerance = 1e-8)
  # and glm agrees
  ref <- glmRef(sim$x, sim$y, weights = w, family = binomial())
  expect_equal(unname(coef(weighted)), unname(coef(ref)), tolerance = 1e-5)
})

test_that("integer weights equal duplicated rows for pr", {
  sim <- simulatePoisson(n = 200, p = 3, seed = 18)
  w <- rep(c(2, 1, 0, 3), length.out = 200)
  k <- duplicateRows(w)
  weighted <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, weights = w,
                                  modelType = "pr"), control = tightControl())
  duplicated <- fitModel(createData(x = sim$x[k, ], y = sim$y[k], time = sim$time[k],
                                    modelType = "pr"), control = tightControl())
  expect_equal(coef(weighted), coef(duplicated), tolerance = 1e-6)
  expect_equal(as.numeric(logLik(weighted)), as.numeric(logLik(duplicated)), tolerance = 1e-8)
})

test_that("integer weights equal duplicated rows for clr (rows duplicated within their set)", {
  # Breslow's likelihood only: a duplicated case makes a set with two cases, whose exact
  # conditional likelihood (the clr default) is not the one-case term weighted twice.
  inf <- datasets::infert
  x <- as.matrix(inf[, c("spontaneous", "induced")])
  w <- rep(c(1, 2, 1, 3), length.out = nrow(inf))
  k <- duplicateRows(w)
  weighted <- fitModel(createData(x = x, y = inf$case, stratumId = inf$stratum,
                                  weights = w, modelType = "clr", ties = "breslow"),
                       control = tightControl())
  expect_message(dupData <- createData(x = x[k, ], y = inf$case[k], stratumId = inf$stratum[k],
                                       modelType = "clr", ties = "breslow"), "several cases")
  duplicated <- fitModel(dupData, control = tightControl())
  expect_equal(coef(weighted), coef(duplicated), tolerance = 1e-6)
  expect_equal(as.numeric(logLik(weighted)), as.numeric(logLik(duplicated)), tolerance = 1e-8)
  # weights given to fitModel() instead of createData() give the same fit
  viaFit <- fitModel(createData(x = x, y = inf$case, stratumId = inf$stratum,
                                modelType = "clr"), weights = w, control = tightControl())
  expect_equal(coef(viaFit), coef(weighted), tolerance = 1e-8)
})

test_that("integer weights equal duplicated rows for sccs (rows duplicated within patient)", {
  sim <- simulateSccs(nPatients = 200, nDrugs = 5, seed = 19)
  w <- rep(c(1, 3, 2, 1, 0), length.out = length(sim$y))
  k <- duplicateRows(w)
  weighted <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time,
                                  stratumId = sim$stratumId, weights = w, modelType = "sccs"),
                       control = tightControl())
  duplicated <- fitModel(createData(x = sim$x[k, ], y = sim$y[k], time = sim$time[k],
                                    stratumId = sim$stratumId[k], modelType = "sccs"),
                         control = tightControl())
  expect_equal(coef(weighted), coef(duplicated), tolerance = 1e-6)
  expect_equal(as.numeric(logLik(weighted)), as.numeric(logLik(duplicated)), tolerance = 1e-8)
  # an unweighted fit differs: the weights are not ignored
  unweighted <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time,
                                    stratumId = sim$stratumId, modelType = "sccs"),
                         control = tightControl())
  expect_gt(max(abs(coef(unweighted) - coef(weighted))), 1e-3)
})

test_that("fractional row weights match glm(weights = ) for lr and pr", {
  simL <- simulateLogistic(n = 250, p = 3, seed = 20)
  w <- round(runif(250, 0.1, 3), 3)
  refL <- suppressWarnings(glmRef(simL$x, simL$y, weights = w, family = binomial()))
  fitL <- fitModel(createData(x = simL$x, y = simL$y, weights = w, modelType = "lr"),
                   control = tightControl())
  expect_equal(unname(coef(fitL)), unname(coef(refL)), tolerance = 1e-5)
  # weights given to fitModel() replace those of createData()
  fitL2 <- fitModel(createData(x = simL$x, y = simL$y, modelType = "lr"), weights = w,
                    control = tightControl())
  expect_equal(coef(fitL2), coef(fitL), tolerance = 1e-8)

  simP <- simulatePoisson(n = 250, p = 3, seed = 21)
  refP <- suppressWarnings(glmRef(simP$x, simP$y, weights = w, offset = log(simP$time),
                                    family = poisson()))
  fitP <- fitModel(createData(x = simP$x, y = simP$y, time = simP$time, weights = w,
                              modelType = "pr"), control = tightControl())
  expect_equal(unname(coef(fitP)), unname(coef(refP)), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fitP)),
               sum(w * dpois(simP$y, fitted(refP), log = TRUE)), tolerance = 1e-8)
})

test_that("weighted least squares matches lm(weights = )", {
  sim <- simulateGaussian(n = 200, p = 4, seed = 22)
  w <- round(runif(200, 0, 3), 2)
  ref <- lm(sim$y ~ sim$x, weights = w)
  fit <- fitModel(createData(x = sim$x, y = sim$y, weights = w, modelType = "ls"),
                  control = tightControl())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
  expect_equal(fit$logLikelihood, -sum(w * residuals(ref)^2) / 2, tolerance = 1e-8)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)  # rows of weight 0 left out
})

test_that("least squares with an outcome in the hundreds of millions is lm's fit, not NO_FINITE_MLE", {
  # The recession probes move eta by 10 outcome units, which next to -RSS/2 of 1e18 read as
  # flat: every coefficient was reported running off to infinity (a tester's revenue in
  # dollars). Least squares has no direction of recession.
  set.seed(4)
  n <- 300
  d <- data.frame(ads = runif(n, 0, 10), region = factor(sample(c("N", "S", "E", "W"), n, TRUE)))
  d$revenue <- 5e8 + 2e7 * d$ads + 1e8 * rnorm(n)
  fit <- fitModel(createData(revenue ~ ads + region, data = d, modelType = "ls"))
  expect_equal(fit$status, "SUCCESS")
  expect_length(fit$infinite, 0)
  expect_lt(max(abs(coef(fit) / coef(lm(revenue ~ ads + region, d)) - 1)), 1e-8)
  z <- 1e7 * (5 + d$ads + rnorm(n))
  through <- fitModel(createData(z ~ 0 + ads, data = data.frame(ads = d$ads, z = z), modelType = "ls"))
  expect_equal(through$status, "SUCCESS")
  expect_equal(coef(through)[["ads"]], coef(lm(z ~ 0 + d$ads))[[1]], tolerance = 1e-8)
})

test_that("a null model (y ~ 1) is glm's and lm's", {
  bw <- MASS::birthwt
  ref <- glm(low ~ 1, binomial, bw)
  fit <- fitModel(createData(low ~ 1, data = bw, modelType = "lr"))  # refused before: "no covariates"
  expect_equal(fit$status, "SUCCESS")
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-8)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-10)
  expect_equal(unname(sqrt(diag(vcov(fit)))), unname(sqrt(diag(vcov(ref)))), tolerance = 1e-6)
  expect_equal(unname(predict(fit, bw[1:3, ])), unname(predict(ref, bw[1:3, ], type = "response")), tolerance = 1e-8)
  pr <- fitModel(createData(low ~ 1 + offset(log(age)), data = bw, modelType = "pr"))
  expect_equal(unname(coef(pr)), unname(coef(glm(low ~ 1 + offset(log(age)), poisson, bw))), tolerance = 1e-8)
  ls <- fitModel(createData(bwt ~ 1, data = bw, modelType = "ls"))
  expect_equal(unname(confint(ls)), unname(confint(lm(bwt ~ 1, bw))), tolerance = 1e-8,
               ignore_attr = TRUE)  # (the method is an attribute of confint()'s matrix)
  expect_error(createData(low ~ 0, data = bw, modelType = "lr"), "no covariates")
  expect_error(createData(survival::Surv(time, status) ~ 1, data = survival::lung, modelType = "cox", ties = "breslow"),
               "no intercept to fit alone")
})
