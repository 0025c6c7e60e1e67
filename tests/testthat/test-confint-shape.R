# confint() returns R's shape whatever `parm` is, names its method, profiles penalized
# coefficients only when asked, and says so before a long profile.

simulatedLr <- function(n = 300, p = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  y <- rbinom(n, 1, plogis(0.3 + x %*% seq(0.5, by = -0.3, length.out = p)))
  list(x = x, y = y)
}

test_that("one shape, R's, whether parm is numbers, names or covariate ids", {
  sim <- simulatedLr()
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  byName <- confint(fit, c("x1", "x3"))
  byPosition <- confint(fit, c(2, 4))
  expect_identical(dimnames(byName), list(c("x1", "x3"), c("2.5 %", "97.5 %")))
  expect_identical(unclass(byPosition), unclass(byName))
  # long tables: parm as covariate ids (the incumbent's call) gives the same two columns
  long <- data.frame(rowId = rep(seq_along(sim$y), 3), covariateId = rep(c(11, 12, 13), each = length(sim$y)),
                     covariateValue = as.vector(sim$x))
  byIdFit <- fitModel(createData(data.frame(rowId = seq_along(sim$y), y = sim$y), long, modelType = "lr"))
  byId <- confint(byIdFit, c(11, 13))
  expect_identical(dimnames(byId), list(c("11", "13"), c("2.5 %", "97.5 %")))
  expect_equal(unname(unclass(byId)), unname(unclass(byName)), ignore_attr = TRUE, tolerance = 1e-6)
  expect_identical(dim(confint(byIdFit, bit64::as.integer64(12))), c(1L, 2L))
  expect_identical(dim(confint(byIdFit, 0)), c(1L, 2L))  # the intercept by its id
  # every method, level and parm form: two columns labelled in percent
  for (method in c("profile", "wald", "robust")) {
    ci <- confint(fit, 3, level = 0.9, method = method)
    expect_identical(colnames(ci), c("5 %", "95 %"))
    expect_true(is.matrix(ci))
  }
})

test_that("the method and variance are attributes, and print() names them", {
  sim <- simulatedLr()
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  profile <- confint(fit)
  expect_identical(attr(profile, "method"), "profile")  # confint.glm's default, for lr
  expect_true(all(attr(profile, "evaluations") > 2))
  expect_output(print(profile), "Profile-likelihood intervals")
  wald <- confint(fit, method = "wald")
  expect_identical(attr(wald, c("method")), "wald")
  expect_identical(attr(wald, "variance"), "model")
  expect_output(print(wald), "Wald intervals, model-based variance")
  robust <- confint(fit, method = "robust")
  expect_identical(attr(robust, "variance"), "robust")
  expect_identical(unclass(confint(fit, method = "wald", type = "robust")), unclass(robust))
  expect_output(print(robust), "robust \\(sandwich\\) variance")
  expect_error(confint(fit, method = "profile", type = "robust"), "for Wald intervals")
  expect_error(confint(fit, method = "robust", type = "model"), "not \"model\"")
  # Cox: Wald by default, as confint.coxph
  skip_if_not_installed("survival")
  cox <- fitModel(createData(Surv(time, status) ~ age + sex, data = survival::lung, modelType = "cox"))
  expect_identical(attr(confint(cox), "method"), "wald")
})

test_that("penalized coefficients are profiled only when asked, with the reason", {
  sim <- simulatedLr(p = 5)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), createPrior("normal", 1))
  expect_message(ci <- confint(fit), "5 penalized coefficients .* get NA: under a prior")
  expect_true(all(is.na(ci[-1, ])))
  expect_false(anyNA(ci[1, ]))  # the unpenalized intercept
  expect_message(one <- confint(fit, "x2"), "penalized = TRUE")
  expect_true(all(is.na(one)))
  asked <- confint(fit, "x2", penalized = TRUE)
  expect_false(anyNA(asked))
  expect_identical(unclass(confint(fit, "x2", overrideNoRegularization = TRUE)), unclass(asked))
  expect_error(confint(fit, "x2", penalized = FALSE, overrideNoRegularization = TRUE), "not both")
  wald <- confint(fit, "x2", method = "wald", penalized = TRUE)  # the normal posterior's
  s <- summary(fit)$coefficients
  expect_equal(unname(wald[1, ]), unname(unlist(s[s$covariate == "x2", c("lower", "upper")])), tolerance = 1e-10)
})

test_that("confint() on a 1,000-covariate penalized fit does not silently profile every coefficient", {
  set.seed(3)
  n <- 2000
  p <- 1000
  x <- Matrix::rsparsematrix(n, p, density = 0.01, rand.x = function(k) rep(1, k))
  colnames(x) <- paste0("v", seq_len(p))
  y <- rbinom(n, 1, plogis(-1 + as.vector(x[, 1:5] %*% rep(1, 5))))
  fit <- fitModel(createData(x = x, y = y, modelType = "lr"), createPrior("laplace", 0.1))
  started <- proc.time()[["elapsed"]]
  expect_message(ci <- confint(fit), "1,000 penalized coefficients")
  expect_lt(proc.time()[["elapsed"]] - started, 10)
  expect_identical(dim(ci), c(1001L, 2L))
  expect_identical(sum(!is.na(attr(ci, "evaluations"))), 1L)  # the intercept alone
  expect_true(all(is.na(ci[-1, ])))
})

test_that("a profile of more than 10 coefficients says so before it starts", {
  sim <- simulatedLr(p = 12)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  expect_message(confint(fit), "profiling 13 coefficients")
  expect_silent(confint(fit, 1:10))
})
