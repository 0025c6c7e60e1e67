# Penalized Cox against glmnet(family = "cox"), and the optimality (KKT) conditions of penalized
# Cox and Fine-Gray fits checked with the scores of survival::coxph and cmprsk::crr.
#
# glmnet's Cox objective is -L_w / sum(w) + lambda * penalty, L_w the weighted Breslow log
# partial likelihood: glmnet rescales the observation weights to sum to one, so without weights
# it divides by N, the number of ROWS (not of events; with counting-process data, of
# (start, stop] rows). Hence, with W = sum(w) (= N without weights):
#   Laplace, variance v (alpha = 1): lambda = sqrt(2 / v) / W
#   Normal, variance v (alpha = 0):  lambda = 1 / (v W)     (glmnet's ridge term is lambda/2 beta^2)
# glmnet's stratified and (start, stop] Cox fits run an R-level Newton loop whose convergence
# is set by glmnet.control(epsnr); it is tightened below and restored afterwards.

glmnetCox <- function(x, y, lambda, alpha, ...) {
  fit <- glmnet::glmnet(x, y, family = "cox", alpha = alpha, lambda = lambda,
                        standardize = FALSE, thresh = 1e-14, maxit = 1e7, ...)
  stats::setNames(as.numeric(as.matrix(stats::coef(fit))), colnames(x))
}

tightGlmnetNewton <- function(envir = parent.frame()) {
  glmnet::glmnet.control(epsnr = 1e-13, mxitnr = 1000)
  withr::defer(glmnet::glmnet.control(factory = TRUE), envir = envir)
}

coxPenaltyData <- function(n = 500, p = 8, seed = 301) {
  set.seed(seed)
  x <- matrix(round(rnorm(n * p), 4), n, p, dimnames = list(NULL, paste0("v", seq_len(p))))
  event <- rexp(n, 0.1 * exp(drop(x %*% c(0.8, -0.5, 0.3, 0, 0, 0.2, 0, -0.1)[seq_len(p)])))
  censor <- runif(n, 0, 15)
  # tenths of a time unit: ties, and no zero times (glmnet refuses them)
  time <- ceiling(pmin(event, censor) * 10) / 10
  list(x = x, time = time, status = as.numeric(event <= censor),
       frame = data.frame(time = time, status = as.numeric(event <= censor), x),
       formula = stats::as.formula(paste("Surv(time, status) ~", paste(colnames(x), collapse = " + "))))
}

fitCox <- function(d, prior, ...) {
  fitModel(createData(x = d$x, y = d$status, time = d$time, modelType = "cox", ties = "breslow", ...),
           prior = prior, control = survivalControl())
}

test_that("Laplace Cox matches glmnet (alpha = 1) at lambda = sqrt(2 / variance) / N", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("survival")
  d <- coxPenaltyData()
  n <- nrow(d$x)
  expect_lt(length(unique(d$time)), n)   # tied times: glmnet and Argus both use Breslow
  for (variance in c(0.005, 0.05, 1)) {
    fit <- fitCox(d, createPrior("laplace", variance = variance))
    expect_equal(fit$status, "SUCCESS")
    ref <- glmnetCox(d$x, survival::Surv(d$time, d$status), sqrt(2 / variance) / n, alpha = 1)
    expect_lte(max(abs(coef(fit) - ref)), 1e-4)
    expect_equal(coef(fit) == 0, ref == 0)
    # optimality of the log posterior, with coxph's score
    score <- coxScore(d$formula, d$frame, coef(fit))
    expect_lt(laplaceKkt(score, coef(fit), sqrt(2 / variance)), 1e-6)
  }
  strong <- fitCox(d, createPrior("laplace", variance = 0.005))
  expect_gt(sum(coef(strong) == 0), 0)
  expect_lt(sum(coef(strong) == 0), ncol(d$x))
  # the scale is the number of rows: the number of events would be a different fit
  events <- glmnetCox(d$x, survival::Surv(d$time, d$status), sqrt(2 / 0.05) / sum(d$status),
                      alpha = 1)
  expect_gt(max(abs(coef(fitCox(d, createPrior("laplace", variance = 0.05))) - events)), 1e-3)
})

test_that("Normal (ridge) Cox matches glmnet (alpha = 0) at lambda = 1 / (variance N)", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("survival")
  d <- coxPenaltyData(seed = 302)
  n <- nrow(d$x)
  for (variance in c(0.01, 0.2, 5)) {
    fit <- fitCox(d, createPrior("normal", variance = variance))
    expect_equal(fit$status, "SUCCESS")
    ref <- glmnetCox(d$x, survival::Surv(d$time, d$status), 1 / (variance * n), alpha = 0)
    expect_lte(max(abs(coef(fit) - ref)), 1e-4)
    score <- coxScore(d$formula, d$frame, coef(fit))
    expect_lt(max(abs(score - coef(fit) / variance)), 1e-6)
    expect_equal(fit$logPrior, sum(stats::dnorm(coef(fit), 0, sqrt(variance), log = TRUE)),
                 tolerance = 1e-8)
  }
})

test_that("weighted penalized Cox matches glmnet at lambda = sqrt(2 / variance) / sum(w)", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("survival")
  d <- coxPenaltyData(seed = 303)
  set.seed(304)
  w <- round(runif(nrow(d$x), 0.3, 2.5), 3)
  for (variance in c(0.02, 0.5)) {
    fit <- fitCox(d, createPrior("laplace", variance = variance), weights = w)
    ref <- glmnetCox(d$x, survival::Surv(d$time, d$status), sqrt(2 / variance) / sum(w),
                     alpha = 1, weights = w)
    expect_lte(max(abs(coef(fit) - ref)), 1e-4)
    expect_equal(coef(fit) == 0, ref == 0)
    fit <- fitCox(d, createPrior("normal", variance = variance), weights = w)
    ref <- glmnetCox(d$x, survival::Surv(d$time, d$status), 1 / (variance * sum(w)),
                     alpha = 0, weights = w)
    expect_lte(max(abs(coef(fit) - ref)), 1e-4)
  }
})

test_that("stratified and counting-process penalized Cox match glmnet (N = rows)", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("survival")
  skip_if_not_installed("withr")
  tightGlmnetNewton()
  d <- coxPenaltyData(seed = 305)
  n <- nrow(d$x)
  set.seed(306)
  stratum <- sample(1:3, n, replace = TRUE)
  variance <- 0.05
  fit <- fitCox(d, createPrior("laplace", variance = variance), stratumId = stratum)
  ref <- glmnetCox(d$x, glmnet::stratifySurv(survival::Surv(d$time, d$status), stratum),
                   sqrt(2 / variance) / n, alpha = 1)
  expect_lte(max(abs(coef(fit) - ref)), 1e-4)
  frame <- cbind(d$frame, stratum = stratum)
  score <- coxScore(stats::update(d$formula, . ~ . + strata(stratum)), frame, coef(fit))
  expect_lt(laplaceKkt(score, coef(fit), sqrt(2 / variance)), 1e-6)

  # (start, stop] rows: the same likelihood as the unsplit data, but glmnet's N is the number
  # of split rows
  split <- survival::survSplit(inSurvival(Surv(time, status) ~ .), data = d$frame,
                               cut = c(3, 6, 9))
  xs <- as.matrix(split[, colnames(d$x)])
  expect_gt(nrow(split), n)
  for (prior in list(createPrior("laplace", variance = variance),
                     createPrior("normal", variance = variance))) {
    fit <- fitModel(createData(x = xs, y = split$status, time = split$time,
                               startTime = split$tstart, modelType = "cox", ties = "breslow"),
                    prior = prior, control = survivalControl())
    ref <- if (prior$priorType == "laplace") {
      glmnetCox(xs, survival::Surv(split$tstart, split$time, split$status),
                sqrt(2 / variance) / nrow(split), alpha = 1)
    } else {
      glmnetCox(xs, survival::Surv(split$tstart, split$time, split$status),
                1 / (variance * nrow(split)), alpha = 0)
    }
    expect_lte(max(abs(coef(fit) - ref)), 1e-4)
    unsplit <- fitCox(d, prior)
    expect_lte(max(abs(coef(fit) - coef(unsplit))), 1e-9)
  }
})

test_that("penalized Efron Cox satisfies the optimality conditions with coxph's Efron score", {
  skip_if_not_installed("survival")
  sim <- simulateCox(n = 2000, seed = 307)
  formula <- Surv(time, status) ~ a + b + c + d
  for (variance in c(0.001, 0.05)) {
    lambda <- sqrt(2 / variance)
    fit <- fitModel(createData(formula, data = sim, modelType = "cox", ties = "efron"),
                    prior = createPrior("laplace", variance = variance),
                    control = survivalControl())
    expect_lt(laplaceKkt(coxScore(formula, sim, coef(fit), ties = "efron"), coef(fit), lambda),
              1e-6)
    # with Breslow's score the same coefficients are not optimal (heavy ties)
    expect_gt(laplaceKkt(coxScore(formula, sim, coef(fit), ties = "breslow"), coef(fit), lambda),
              1e-2)
  }
  fit <- fitModel(createData(formula, data = sim, modelType = "cox", ties = "efron"),
                  prior = createPrior("normal", variance = 0.01), control = survivalControl())
  score <- coxScore(formula, sim, coef(fit), ties = "efron")
  expect_lt(max(abs(score - coef(fit) / 0.01)), 1e-6)
})

test_that("penalized Fine-Gray satisfies the optimality conditions with crr's score", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 500, seed = 308, resolution = 1)
  for (variance in c(0.002, 0.05)) {
    lambda <- sqrt(2 / variance)
    fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                    prior = createPrior("laplace", variance = variance),
                    control = survivalControl())
    at <- crrAt(sim$time, sim$y, sim$x, coef(fit))
    expect_lt(laplaceKkt(at$score, coef(fit), lambda), 1e-6)
    expect_equal(as.numeric(logLik(fit)), at$loglik, tolerance = 1e-10)
  }
  strong <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                     prior = createPrior("laplace", variance = 0.002), control = survivalControl())
  expect_gt(sum(coef(strong) == 0), 0)
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                  prior = createPrior("normal", variance = 0.1), control = survivalControl())
  at <- crrAt(sim$time, sim$y, sim$x, coef(fit))
  expect_lt(max(abs(at$score - coef(fit) / 0.1)), 1e-6)
})
