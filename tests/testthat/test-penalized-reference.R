# Laplace (L1) and normal (L2) priors against glmnet, plus the optimality (KKT) conditions
# of the log posterior checked directly.
#
# Conversions (MODELS.md section 3), N = number of rows:
#  Laplace, variance v: log prior -sqrt(2 / v) |beta| on the summed log-likelihood;
#    glmnet (alpha = 1) minimizes -L / N + lambda |beta|  =>  lambda = sqrt(2 / v) / N.
#  Normal, variance v: log prior -beta^2 / (2 v);
#    glmnet (alpha = 0) minimizes -L / N + lambda / 2 beta^2  =>  lambda = 1 / (v N).
#  Gaussian (ls): L = -RSS / 2, glmnet minimizes RSS / (2 N) + lambda |beta|
#    =>  lambda = sqrt(2 / v) / N as well.

glmnetCoef <- function(...) {
  fit <- glmnet::glmnet(..., standardize = FALSE, thresh = 1e-14, maxit = 1e6)
  beta <- as.numeric(as.matrix(stats::coef(fit)))
  beta
}

test_that("Laplace lr matches glmnet (alpha = 1) with lambda = sqrt(2 / variance) / N", {
  skip_if_not_installed("glmnet")
  sim <- simulateLogistic(n = 400, p = 8, seed = 41)
  n <- nrow(sim$x)
  for (variance in c(0.02, 0.5)) {
    fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                    prior = createPrior("laplace", variance = variance),
                    control = tightControl(1e-12))
    expect_equal(fit$status, "SUCCESS")
    ref <- glmnetCoef(sim$x, sim$y, family = "binomial", alpha = 1,
                      lambda = sqrt(2 / variance) / n)
    expect_lte(max(abs(unname(coef(fit)) - ref)), 1e-4)
    # the same coefficients are exactly zero
    expect_equal(unname(coef(fit)) == 0, ref == 0)
    # and the fit satisfies the optimality conditions of the log posterior
    kind <- c("none", rep("laplace", ncol(sim$x)))
    expect_lt(kktViolation(lrGradient(sim$x, sim$y, coef(fit)), coef(fit), kind,
                           rep(variance, ncol(sim$x) + 1)), 1e-5)
  }
  # the strong prior sets some coefficients to zero, the weak one none
  strong <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                     prior = createPrior("laplace", variance = 0.02), control = tightControl())
  expect_gt(sum(coef(strong)[-1] == 0), 0)
  expect_lt(sum(coef(strong)[-1] == 0), ncol(sim$x))
})

test_that("Laplace lr log prior is -sqrt(2 / v) * sum |beta| (+ normalizing constant)", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 42)
  v <- 0.1
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                  prior = createPrior("laplace", variance = v), control = tightControl())
  b <- coef(fit)[-1]
  # log density of Laplace with rate lambda: log(lambda / 2) - lambda |b|
  expected <- sum(log(sqrt(2 / v) / 2) - sqrt(2 / v) * abs(b))
  expect_equal(fit$logPrior, expected, tolerance = 1e-8)
})

test_that("Normal (ridge) lr matches glmnet (alpha = 0) with lambda = 1 / (variance N)", {
  skip_if_not_installed("glmnet")
  sim <- simulateLogistic(n = 400, p = 8, seed = 43)
  n <- nrow(sim$x)
  for (variance in c(0.05, 1)) {
    fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                    prior = createPrior("normal", variance = variance),
                    control = tightControl(1e-12))
    expect_equal(fit$status, "SUCCESS")
    ref <- glmnetCoef(sim$x, sim$y, family = "binomial", alpha = 0,
                      lambda = 1 / (variance * n))
    expect_lte(max(abs(unname(coef(fit)) - ref)), 1e-4)
    kind <- c("none", rep("normal", ncol(sim$x)))
    expect_lt(kktViolation(lrGradient(sim$x, sim$y, coef(fit)), coef(fit), kind,
                           rep(variance, ncol(sim$x) + 1)), 1e-5)
  }
})

test_that("Laplace ls matches glmnet gaussian with lambda = sqrt(2 / variance) / N", {
  skip_if_not_installed("glmnet")
  sim <- simulateGaussian(n = 300, p = 8, seed = 44)
  n <- nrow(sim$x)
  for (variance in c(0.001, 0.05)) {
    fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"),
                    prior = createPrior("laplace", variance = variance),
                    control = tightControl(1e-12))
    expect_equal(fit$status, "SUCCESS")
    ref <- glmnetCoef(sim$x, sim$y, family = "gaussian", alpha = 1,
                      lambda = sqrt(2 / variance) / n)
    expect_lte(max(abs(unname(coef(fit)) - ref)), 1e-4)
    expect_equal(unname(coef(fit)) == 0, ref == 0)
    X <- cbind(1, sim$x)
    gradient <- drop(crossprod(X, sim$y - X %*% coef(fit)))
    kind <- c("none", rep("laplace", ncol(sim$x)))
    expect_lt(kktViolation(gradient, coef(fit), kind, rep(variance, ncol(sim$x) + 1)), 1e-5)
  }
})

test_that("the intercept is not penalized unless forceIntercept = TRUE", {
  sim <- simulateLogistic(n = 300, p = 3, seed = 45)
  sim$y <- rbinom(300, 1, 0.85)   # intercept far from zero
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(data, prior = createPrior("laplace", variance = 1e-4),
                  control = tightControl())
  # a very strong prior empties the covariates, the intercept is the empirical logit
  expect_equal(unname(coef(fit)[-1]), rep(0, 3))
  expect_equal(unname(coef(fit)[1]), qlogis(mean(sim$y)), tolerance = 1e-6)
  forced <- fitModel(data, prior = createPrior("laplace", variance = 1e-4, forceIntercept = TRUE),
                     control = tightControl())
  expect_equal(unname(coef(forced)), rep(0, 4))
})
