# The majorized start of the survival fits (createControl(majorizedStart = ...), the engine's
# src/engine/solver/majorized_start.h): where "auto" takes it (sparse covariates, distinct
# event times), the fit must reach coxph's estimates and the same optimum as without it, in
# fewer exact cycles. Data it was not designed on: model.matrix() dummies of two factors
# (one of 40 levels), an uncentered continuous covariate (age around 65), continuous times.

majorizedData <- function(n = 6000, seed = 17) {
  set.seed(seed)
  site <- factor(sample(sprintf("site%02d", 1:40), n, TRUE))
  drug <- factor(sample(c("none", "a", "b", "c"), n, TRUE, prob = c(0.7, 0.1, 0.1, 0.1)))
  age <- rnorm(n, 65, 9)
  lp <- 0.04 * (age - 65) + rnorm(40, 0, 0.3)[as.integer(site)] + c(0, 0.4, -0.3, 0.2)[as.integer(drug)]
  t <- rexp(n, exp(lp) / 300)
  cens <- runif(n, 0, 600)
  list(x = model.matrix(~ site + drug + age)[, -1], time = pmin(t, cens), y = as.integer(t <= cens))
}

test_that("auto takes the majorized start on sparse dummies with continuous times and matches coxph", {
  sim <- majorizedData()
  expect_equal(length(unique(sim$time)), length(sim$time))
  data <- createData(x = sim$x, y = sim$y, time = sim$time, modelType = "cox")
  # Default control: both certified within 1e-4 standard errors of the optimum.
  auto <- fitModel(data, createPrior("none"))
  never <- fitModel(data, createPrior("none"), control = createControl(majorizedStart = "never"))
  expect_equal(auto$status, "SUCCESS")
  expect_equal(never$status, "SUCCESS")
  expect_gt(auto$majorizedSteps, 2)
  expect_equal(never$majorizedSteps, 0L)
  expect_lt(auto$iterations, never$iterations)
  expect_lt(max(abs(coef(auto) - coef(never))), 2e-4)

  # Tight control against coxph.
  tight <- fitModel(data, createPrior("none"), control = createControl(tolerance = 1e-10))
  expect_gt(tight$majorizedSteps, 2)
  ref <- survival::coxph(survival::Surv(sim$time, sim$y) ~ sim$x, ties = "breslow",
                         control = survival::coxph.control(eps = 1e-10, iter.max = 50))
  expect_lt(max(abs(coef(tight) - unname(coef(ref)))), 1e-6)
  expect_lt(abs(tight$logLikelihood - ref$loglik[2]), 1e-9 * abs(ref$loglik[2]))
})

test_that("a start that meets the rule and passes the optimality check needs no exact cycle", {
  # The papers' design, small: sparse binary covariates, continuous times, Laplace prior.
  set.seed(5)
  n <- 4000
  x <- matrix(rbinom(n * 30, 1, 0.05), n, 30)
  t <- rexp(n, exp(x %*% c(rep(0.5, 5), rep(-0.4, 5), rep(0, 20))))
  cens <- rexp(n, 0.5)
  data <- createData(x = x, y = as.integer(t <= cens), time = pmin(t, cens), modelType = "cox")
  prior <- createPrior("laplace", variance = 1)
  auto <- fitModel(data, prior)
  never <- fitModel(data, prior, control = createControl(majorizedStart = "never"))
  expect_equal(auto$status, "SUCCESS")
  expect_gt(auto$majorizedSteps, 2)
  expect_equal(auto$iterations, 0L)
  expect_lte(auto$optimality, 1e-4)
  expect_gt(never$iterations, 2)
  expect_lt(max(abs(coef(auto) - coef(never))), 2e-4)
  # Asked for more than the start gives, the exact cycles take over and certify as before.
  further <- fitModel(data, prior, control = createControl(optimalityTolerance = 1e-8))
  expect_equal(further$status, "SUCCESS")
  expect_gte(further$iterations, 1L)
  expect_lte(further$optimality, 1e-8)
  expect_lt(max(abs(coef(further) - coef(never))), 2e-4)
})

test_that("the majorized start reaches the penalized optimum without it, Efron and strata included", {
  sim <- majorizedData(n = 4000, seed = 29)
  stratum <- rep(1:3, length.out = length(sim$y))
  for (ties in c("breslow", "efron")) {
    data <- createData(x = sim$x, y = sim$y, time = round(sim$time, 1), modelType = "cox",
                       stratumId = stratum, ties = ties)
    for (prior in list(createPrior("laplace", variance = 0.05), createPrior("normal", variance = 0.5))) {
      fits <- lapply(c("always", "never"), function(rule)
        fitModel(data, prior, control = createControl(tolerance = 1e-10, majorizedStart = rule)))
      label <- paste(ties, prior$priorType)
      expect_equal(fits[[1]]$status, "SUCCESS", label = label)
      expect_gt(fits[[1]]$majorizedSteps, 0, label = label)
      expect_lt(max(abs(coef(fits[[1]]) - coef(fits[[2]]))), 1e-6, label = label)
      objective <- function(f) f$logLikelihood + f$logPrior
      expect_lt(abs(objective(fits[[1]]) - objective(fits[[2]])), 1e-10 * abs(objective(fits[[2]])),
                label = label)
    }
  }
})

test_that("majorizedStart takes only auto, always or never", {
  expect_error(createControl(majorizedStart = "sometimes"), "'majorizedStart' must be one of")
  expect_equal(createControl()$majorizedStart, "auto")
})
