# Conditional logistic regression with several cases per matched set: the exact conditional
# likelihood (the default, as survival::clogit) and the Breslow and Efron approximations,
# each against survival::clogit with the same method. infert has one case per set (all three
# agree there; test-conditional-reference.R), so these use simulated sets of 5 to 8 rows
# with 2 to 4 cases.

# `nSets` matched sets of `size` rows, `cases` of them cases (recycled over the sets), chosen
# with probability rising in the covariates: a continuous `dose`, a binary `smoker`, and a
# continuous `age` that varies within sets.
simulateMatchedSets <- function(nSets = 20, size = 5, cases = c(2, 3), seed = 1) {
  set.seed(seed)
  n <- nSets * size
  d <- data.frame(set = rep(seq_len(nSets), each = size), dose = rnorm(n),
                  smoker = rbinom(n, 1, 0.4), age = round(rnorm(n, 50, 8)))
  risk <- 0.8 * d$dose + 0.9 * d$smoker - 0.03 * (d$age - 50) + rnorm(n, sd = 0.5)
  nCases <- rep_len(cases, nSets)
  d$case <- 0
  for (s in seq_len(nSets)) {
    rows <- which(d$set == s)
    d$case[rows[order(-risk[rows])[seq_len(nCases[s])]]] <- 1
  }
  # Not a perfect ranking: swap one case and one control in every third set.
  for (s in seq(1, nSets, by = 3)) {
    rows <- which(d$set == s)
    d$case[rows[c(which(d$case[rows] == 1)[1], which(d$case[rows] == 0)[1])]] <- c(0, 1)
  }
  d
}

clogitFit <- function(data, method) {
  env <- new.env(parent = asNamespace("survival"))
  env$data <- data
  env$method <- method
  evalq(clogit(case ~ dose + smoker + age + strata(set), data = data, method = method,
               control = coxph.control(eps = 1e-10, iter.max = 100)), env)
}

clrControl <- function() createControl(tolerance = 1e-10)

fitClr <- function(data, ties = NULL, ...) {
  fitModel(createData(case ~ dose + smoker + age + strata(set), data = data, modelType = "clr",
                      ties = ties), control = clrControl(), ...)
}

expectClogitMatch <- function(fit, ref, label) {
  expect_equal(fit$status, "SUCCESS", label = label)
  expect_equal(coef(fit), coef(ref), tolerance = 1e-6, label = paste(label, "coefficients"))
  expect_equal(as.numeric(logLik(fit)), ref$loglik[2], tolerance = 1e-6,
               label = paste(label, "log-likelihood"))
}

test_that("clr ties = exact (the default) matches clogit(method = \"exact\")", {
  skip_if_not_installed("survival")
  for (layout in list(list(size = 5, cases = c(2, 3), seed = 1),
                      list(size = 8, cases = c(2, 4, 3, 1), seed = 2))) {
    sim <- do.call(simulateMatchedSets, layout)
    label <- sprintf("sets of %d", layout$size)
    expect_silent(data <- createData(case ~ dose + smoker + age + strata(set), data = sim,
                                     modelType = "clr"))
    expect_identical(data$ties, "exact")
    expect_output(print(data), "exact ties")
    fit <- fitModel(data, control = clrControl())
    ref <- clogitFit(sim, "exact")
    expectClogitMatch(fit, ref, label)
    # the approximations are clearly different on these data
    expect_gt(max(abs(coef(fit) - coef(clogitFit(sim, "breslow")))), 0.01)
    # and the curvature at the optimum is clogit's too
    expect_equal(unname(vcov(fit)), unname(vcov(ref)), tolerance = 1e-5, label = label)
  }
})

test_that("clr ties = breslow and efron match clogit with the same method, with a message", {
  skip_if_not_installed("survival")
  sim <- simulateMatchedSets(seed = 3)
  for (method in c("breslow", "efron")) {
    expect_message(data <- createData(case ~ dose + smoker + age + strata(set), data = sim,
                                      modelType = "clr", ties = method),
                   sprintf("ties = \"%s\": 20 of 20 matched sets have several cases.*ties = \"exact\"",
                           method))
    expect_output(print(data), sprintf("%s ties", method))
    expectClogitMatch(fitModel(data, control = clrControl()), clogitFit(sim, method), method)
  }
  # no message where the approximation changes nothing (one case per set)
  inf <- datasets::infert
  expect_silent(createData(x = as.matrix(inf[, c("spontaneous", "induced")]), y = inf$case,
                           stratumId = inf$stratum, modelType = "clr", ties = "breslow"))
})

test_that("clr exact fits agree across the formula, matrix and long routes", {
  sim <- simulateMatchedSets(seed = 4)
  x <- as.matrix(sim[, c("dose", "smoker", "age")])
  byFormula <- fitClr(sim)
  byMatrix <- fitModel(createData(x = x, y = sim$case, stratumId = sim$set, modelType = "clr"),
                       control = clrControl())
  long <- toLong(x, sim$case, rowIds = seq_len(nrow(sim)), covariateIds = 1:3,
                 stratumId = sim$set)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "clr"),
                     control = clrControl())
  expect_equal(coef(byMatrix), coef(byFormula), tolerance = 1e-8)
  expect_equal(unname(byColumnName(coef(byLong), 1:3, colnames(x))), unname(coef(byFormula)),
               tolerance = 1e-8)
  expect_equal(as.numeric(logLik(byLong)), as.numeric(logLik(byFormula)), tolerance = 1e-10)
})

test_that("clr exact takes one weight per matched set and refuses weights varying within one", {
  sim <- simulateMatchedSets(seed = 5)
  x <- as.matrix(sim[, c("dose", "smoker", "age")])
  plain <- fitModel(createData(x = x, y = sim$case, stratumId = sim$set, modelType = "clr"),
                    control = clrControl())
  # every set weighted 2: the same optimum
  twice <- fitModel(createData(x = x, y = sim$case, stratumId = sim$set, weights = rep(2, 100),
                               modelType = "clr"), control = clrControl())
  expect_equal(coef(twice), coef(plain), tolerance = 1e-7)
  # a set weighted 0 is a set removed
  w <- ifelse(sim$set == 7, 0, 1)
  zero <- fitModel(createData(x = x, y = sim$case, stratumId = sim$set, weights = w,
                              modelType = "clr"), control = clrControl())
  keep <- sim$set != 7
  dropped <- fitModel(createData(x = x[keep, ], y = sim$case[keep], stratumId = sim$set[keep],
                                 modelType = "clr"), control = clrControl())
  expect_equal(coef(zero), coef(dropped), tolerance = 1e-7)
  expect_equal(as.numeric(logLik(zero)), as.numeric(logLik(dropped)), tolerance = 1e-8)
  # weights varying within a set with several cases: an error in createData and fitModel
  vary <- rep(1, 100)
  vary[sim$set == 4][2] <- 3
  expect_error(createData(x = x, y = sim$case, stratumId = sim$set, weights = vary,
                          modelType = "clr"),
               "ties = \"exact\" needs one weight for all rows of a matched set.*\\(stratum 4\\)")
  data <- createData(x = x, y = sim$case, stratumId = sim$set, modelType = "clr")
  expect_error(fitModel(data, weights = vary, control = clrControl()),
               "'fitModel\\(weights\\)' gives rows 16 and 17 \\(stratum 4\\) the weights 1 and 3")
  # the approximations take any weights
  expect_message(efron <- createData(x = x, y = sim$case, stratumId = sim$set, weights = vary,
                                     modelType = "clr", ties = "efron"), "approximated")
  expect_equal(fitModel(efron, control = clrControl())$status, "SUCCESS")
})

test_that("ties choices outside cox and clr are refused", {
  sim <- simulateMatchedSets(seed = 6)
  x <- as.matrix(sim[, c("dose", "smoker", "age")])
  expect_error(createData(x = x, y = sim$case, stratumId = sim$set, modelType = "clr",
                          ties = "exakt"), "'ties' should be one of")
  expect_error(createData(x = x, y = sim$case, stratumId = sim$set, time = rep(1, 100),
                          modelType = "sccs", ties = "exact"),
               "ties = \"exact\" is for modelType 'cox' and 'clr' only")
  expect_error(createData(x = x, y = sim$case, modelType = "lr", ties = "efron"),
               "ties = \"efron\" is for modelType 'cox' and 'clr' only")
  expect_identical(createData(x = x, y = sim$case, modelType = "lr")$ties, "breslow")
})

test_that("cross-validation and the bootstrap run with exact clr (whole sets resampled)", {
  sim <- simulateMatchedSets(nSets = 40, size = 5, cases = c(2, 3), seed = 7)
  data <- createData(case ~ dose + smoker + age + strata(set), data = sim, modelType = "clr")
  fit <- fitModel(data, createPrior("normal", useCrossValidation = TRUE),
                  createControl(tolerance = 1e-8, seed = 1, fold = 4, cvType = "grid",
                                gridSteps = 4))
  expect_identical(fit$cv$selectorType, "byPid")
  expect_true(is.finite(fit$cv$score))
  expect_identical(fit$status, "SUCCESS")
  boot <- runBootstrap(fitClr(sim), replicates = 20, seed = 2)
  expect_true(all(is.finite(unlist(boot$summary[c("bias", "se")]))))
})

test_that("exact clr running off along a recession ends NO_FINITE_MLE, not an error; its bootstrap completes", {
  # Six of lung's institutions as matched sets: the exact conditional likelihood has no
  # finite maximum (clogit runs off to sex -190, its log-likelihood still rising to 0). Once
  # eta spread by ~700 within a set, the exact recursion left the double range and the fit
  # stopped with an error; a bootstrap of ten sets met such a resample and returned nothing.
  lu <- na.omit(survival::lung[, c("inst", "status", "age", "sex", "ph.ecog")])
  lu$case <- as.numeric(lu$status == 2)
  fm <- case ~ age + sex + ph.ecog + strata(inst)
  sub <- lu[lu$inst %in% c(2, 4, 5, 26, 32, 33), ]
  expect_warning(fit <- fitModel(createData(fm, data = sub, modelType = "clr")), "run off to infinity")
  expect_equal(fit$status, "NO_FINITE_MLE")
  expect_true("sex" %in% fit$infinite)
  expect_lt(fit$logLik, -1e-12)
  expect_gt(fit$logLik, -1e-4)  # near the supremum, 0
  ten <- lu[lu$inst %in% names(which(table(lu$inst) <= 12)), ]
  fit10 <- fitModel(createData(fm, data = ten, modelType = "clr"))
  expect_equal(fit10$status, "SUCCESS")
  boot <- suppressWarnings(runBootstrap(fit10, replicates = 60, seed = 1))
  expect_equal(nrow(boot$estimates), 60)
  expect_true(any(boot$status == "NO_FINITE_MLE"))
})
