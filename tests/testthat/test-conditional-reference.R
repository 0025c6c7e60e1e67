# Conditional models against their references: clr against survival::clogit, cpr and sccs
# against a Poisson glm with one fixed effect per stratum and offset log(time).

# clogit() builds and evaluates a coxph() call in its caller's frame, so evaluate it where
# the survival namespace is visible (without attaching survival).
clogitReference <- function(method = "breslow") {
  env <- new.env(parent = asNamespace("survival"))
  env$method <- method
  evalq(clogit(case ~ spontaneous + induced + strata(stratum), data = datasets::infert,
               method = method, control = coxph.control(eps = 1e-10, iter.max = 100)), env)
}

test_that("clr (formula route) matches survival::clogit on infert", {
  skip_if_not_installed("survival")
  ref <- clogitReference()
  data <- createData(case ~ spontaneous + induced + strata(stratum), data = datasets::infert,
                     modelType = "clr")
  expect_false(data$hasIntercept)
  fit <- fitModel(data, control = tightControl())
  expect_equal(fit$status, "SUCCESS")
  expect_named(coef(fit), c("spontaneous", "induced"))
  expect_equal(coef(fit), coef(ref), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fit)), ref$loglik[2], tolerance = 1e-8)
  # one case per matched set: the exact conditional likelihood is the same
  exact <- clogitReference("exact")
  expect_equal(coef(fit), coef(exact), tolerance = 1e-5)
})

test_that("clr long and matrix routes match survival::clogit on infert", {
  skip_if_not_installed("survival")
  ref <- clogitReference()
  inf <- datasets::infert
  x <- as.matrix(inf[, c("spontaneous", "induced")])

  byMatrix <- fitModel(createData(x = x, y = inf$case, stratumId = inf$stratum,
                                  modelType = "clr"), control = tightControl())
  expect_equal(coef(byMatrix), coef(ref), tolerance = 1e-5)
  expect_equal(as.numeric(logLik(byMatrix)), ref$loglik[2], tolerance = 1e-8)

  bySparse <- fitModel(createData(x = Matrix::Matrix(x, sparse = TRUE), y = inf$case,
                                  stratumId = inf$stratum, modelType = "clr"),
                       control = tightControl())
  expect_equal(coef(bySparse), coef(ref), tolerance = 1e-5)

  long <- toLong(x, inf$case, rowIds = 100 + seq_len(nrow(inf)), covariateIds = c(501, 502),
                 stratumId = inf$stratum)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "clr"),
                     control = tightControl())
  expect_named(coef(byLong), c("501", "502"), ignore.order = TRUE)
  expect_equal(byColumnName(coef(byLong), c(501, 502), colnames(x)), coef(ref),
               tolerance = 1e-5)
  expect_equal(as.numeric(logLik(byLong)), ref$loglik[2], tolerance = 1e-8)
})

test_that("clr: a covariate constant within every matched set is NA with a warning, as clogit", {
  # infert is matched on age, so age carries no information in the conditional likelihood
  # (clogit reports NA for it). Its gradient and curvature are exactly zero in theory.
  inf <- datasets::infert
  x <- as.matrix(inf[, c("spontaneous", "induced", "age")])
  expect_warning(
    fit <- fitModel(createData(x = x, y = inf$case, stratumId = inf$stratum, modelType = "clr"),
                    control = tightControl()),
    "'age' cannot be estimated")
  expect_equal(fit$status, "SUCCESS")
  expect_true(is.na(coef(fit)[["age"]]))
  expect_equal(fit$coefficients[["age"]], 0)
  expect_true(fit$aliased[["age"]])
})

test_that("sccs and cpr match a Poisson glm with one fixed effect per patient", {
  sim <- simulateSccs(nPatients = 500, nDrugs = 6, seed = 31)
  expect_gte(length(unique(sim$stratumId)), 500)
  ref <- sccsReference(sim)
  for (model in c("sccs", "cpr")) {
    data <- createData(sim$outcomes, sim$covariates, modelType = model)
    fit <- fitModel(data, control = tightControl())
    expect_equal(fit$status, "SUCCESS")
    expect_false(fit$hasIntercept)
    expect_setequal(names(coef(fit)), as.character(sim$covariateIds))
    expect_equal(byColumnName(coef(fit), sim$covariateIds, colnames(sim$x)), ref,
                 tolerance = 1e-5)
  }
})

test_that("sccs log-likelihood equals the conditional Poisson likelihood at the fit", {
  sim <- simulateSccs(nPatients = 150, nDrugs = 5, seed = 32)
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, stratumId = sim$stratumId,
                             modelType = "sccs"), control = tightControl())
  eta <- drop(sim$x %*% coef(fit)[colnames(sim$x)])
  n <- tapply(sim$y, sim$stratumId, sum)
  den <- tapply(sim$time * exp(eta), sim$stratumId, sum)
  expected <- sum(sim$y * eta) - sum(n * log(den))
  expect_equal(as.numeric(logLik(fit)), expected, tolerance = 1e-8)
  # the unit of time moves it by n log(unit); the documented constant takes that out
  inYears <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time / 365.25, stratumId = sim$stratumId,
                                 modelType = "sccs"), control = tightControl())
  expect_equal(as.numeric(logLik(inYears)) - as.numeric(logLik(fit)), sum(sim$y) * log(365.25), tolerance = 1e-8)
  unitFree <- function(f, time) as.numeric(logLik(f)) + sum(sim$y * log(time) - lfactorial(sim$y))
  expect_equal(unitFree(inYears, sim$time / 365.25), unitFree(fit, sim$time), tolerance = 1e-10)
})

test_that("strata without events are dropped and reported", {
  sim <- simulateSccs(nPatients = 500, nDrugs = 6, seed = 31)
  events <- tapply(sim$y, sim$stratumId, sum)
  nEmpty <- sum(events == 0)
  rowsEmpty <- sum(ave(sim$y, sim$stratumId, FUN = sum) == 0)
  expect_gt(nEmpty, 0)
  data <- createData(sim$outcomes, sim$covariates, modelType = "sccs")
  expect_equal(data$dropped$strata, nEmpty)
  expect_equal(data$dropped$rows, rowsEmpty)
  expect_equal(data$nStrata, sum(events > 0))
  expect_equal(data$nRows, length(sim$y) - rowsEmpty)
  expect_output(print(data), sprintf("dropped: %d strata without events", nEmpty))
  expect_output(print(summary(data)), sprintf("Dropped %d strata without events", nEmpty))
  fit <- fitModel(data, control = tightControl())
  expect_output(print(fit), sprintf("%d strata without events were dropped", nEmpty))
  # dropping them does not change the fit: same as fitting only the strata with events
  keep <- sim$outcomes$rowId[ave(sim$y, sim$stratumId, FUN = sum) > 0]
  kept <- createData(sim$outcomes[sim$outcomes$rowId %in% keep, ],
                     sim$covariates[sim$covariates$rowId %in% keep, ], modelType = "sccs")
  expect_equal(kept$dropped$strata, 0)
  expect_equal(coef(fitModel(kept, control = tightControl())), coef(fit), tolerance = 1e-8)
})

test_that("clr drops matched sets without a case", {
  inf <- datasets::infert
  x <- as.matrix(inf[, c("spontaneous", "induced")])
  y <- inf$case
  noCase <- inf$stratum %in% c(3, 17, 40)
  y[noCase] <- 0
  data <- createData(x = x, y = y, stratumId = inf$stratum, modelType = "clr")
  expect_equal(data$dropped$strata, 3)
  expect_equal(data$dropped$rows, sum(noCase))
  expect_equal(data$nStrata, 80)
  expect_output(print(data), "dropped: 3 strata")
  full <- fitModel(data, control = tightControl())
  sub <- fitModel(createData(x = x[!noCase, ], y = y[!noCase], stratumId = inf$stratum[!noCase],
                             modelType = "clr"), control = tightControl())
  expect_equal(coef(full), coef(sub), tolerance = 1e-8)
})

test_that("fitModel(weights = ) are in the user's row order, dropped strata included", {
  sim <- simulateSccs(nPatients = 150, nDrugs = 5, seed = 33)
  expect_gt(sum(tapply(sim$y, sim$stratumId, sum) == 0), 0)
  set.seed(330)
  w <- sample(1:3, length(sim$y), replace = TRUE)
  viaData <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"),
                      weights = w, control = tightControl())
  outcomes <- sim$outcomes
  outcomes$weights <- w
  viaColumn <- fitModel(createData(outcomes, sim$covariates, modelType = "sccs"),
                        control = tightControl())
  k <- rep(seq_along(w), w)
  duplicated <- fitModel(createData(x = sim$x[k, ], y = sim$y[k], time = sim$time[k],
                                    stratumId = sim$stratumId[k], modelType = "sccs"),
                         control = tightControl())
  expect_equal(byColumnName(coef(viaColumn), sim$covariateIds, colnames(sim$x)),
               coef(duplicated), tolerance = 1e-6)
  expect_equal(coef(viaData), coef(viaColumn), tolerance = 1e-8)
  expect_true(viaData$weighted)
})

test_that("nobs() and BIC() of clr count the cases, as clogit's", {
  skip_if_not_installed("survival")
  ref <- clogitReference()
  fit <- fitModel(createData(case ~ spontaneous + induced + strata(stratum), data = datasets::infert,
                             modelType = "clr"), control = tightControl())
  expect_equal(nobs(fit), nobs(ref))  # 83 cases of 248 rows
  expect_equal(nobs(fit), 83)
  expect_equal(BIC(fit), BIC(ref), tolerance = 1e-6)
})
