# logLikelihoodAt(): the likelihood surface at given coefficients, against glm's and coxph's.

test_that("logistic: value and score at any coefficients are glm's", {
  set.seed(11)
  x <- matrix(rnorm(300), 100, 3, dimnames = list(NULL, c("a", "b", "c")))
  y <- rbinom(100, 1, plogis(0.3 + x[, 1] - x[, 2]))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
  beta <- c(0.1, 0.5, -0.2, 0.7)
  X <- cbind(1, x)
  p <- plogis(drop(X %*% beta))
  at <- logLikelihoodAt(fit, beta)
  expect_equal(at$logLikelihood, sum(dbinom(y, 1, p, log = TRUE)), tolerance = 1e-10)
  expect_equal(unname(at$gradient), unname(drop(crossprod(X, y - p))), tolerance = 1e-8)
  expect_named(at$gradient, c("(Intercept)", "a", "b", "c"))
  # at the estimate the score vanishes and the value is glm's maximum
  gold <- glm(y ~ x, family = binomial())
  own <- logLikelihoodAt(fit)
  expect_equal(own$logLikelihood, as.numeric(logLik(gold)), tolerance = 1e-8)
  expect_lt(max(abs(own$gradient)), 1e-4)
})

test_that("Cox with weights: coxph's partial likelihood at its initial values; held-out rows", {
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  d <- createData(survival::Surv(time, status) ~ age + sex, data = lung2, modelType = "cox",
                  ties = "breslow")
  fit <- fitModel(d)
  beta <- c(0.02, -0.3)
  gold <- survival::coxph(survival::Surv(time, status) ~ age + sex, lung2, ties = "breslow",
                          init = beta, control = survival::coxph.control(iter.max = 0))
  expect_equal(logLikelihoodAt(fit, beta)$logLikelihood, gold$loglik[1], tolerance = 1e-10)
  # weights 1 on half the rows, 0 elsewhere: the partial likelihood of that half alone
  half <- rep(c(1, 0), length.out = nrow(lung2))
  sub <- survival::coxph(survival::Surv(time, status) ~ age + sex, lung2[half == 1, ],
                         ties = "breslow", init = beta,
                         control = survival::coxph.control(iter.max = 0))
  expect_equal(logLikelihoodAt(fit, beta, weights = half)$logLikelihood, sub$loglik[1],
               tolerance = 1e-10)
  # the gradient is the derivative of the value (central differences)
  h <- 1e-5
  g <- logLikelihoodAt(fit, beta)$gradient
  up <- logLikelihoodAt(fit, beta + c(h, 0))$logLikelihood
  down <- logLikelihoodAt(fit, beta - c(h, 0))$logLikelihood
  expect_equal(unname(g[1]), (up - down) / (2 * h), tolerance = 1e-6)
})

test_that("bad coefficients are errors", {
  x <- matrix(c(1, 0, 1, 1, 0, 0), 3, dimnames = list(NULL, c("a", "b")))
  fit <- fitModel(createData(x = x, y = c(1, 0, 1), modelType = "lr"), createPrior("normal", 1))
  expect_error(logLikelihoodAt(fit, c(1, 2)), "coefficients")
  expect_error(logLikelihoodAt(fit, c(1, NA, 2)), "coefficients")
})
