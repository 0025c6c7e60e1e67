# The three input routes, id handling, starting / fixed coefficients, per-covariate priors,
# printing and the iteration limit.

routeIds <- c(907, 15, 300, 42)   # deliberately unsorted covariate ids for columns a..d

lrRoutes <- function(sim, shuffle = FALSE) {
  long <- toLong(sim$x, sim$y, rowIds = 1000 + 2 * seq_along(sim$y), covariateIds = routeIds)
  if (shuffle) {
    long$outcomes <- long$outcomes[sample(nrow(long$outcomes)), ]
    long$covariates <- long$covariates[sample(nrow(long$covariates)), ]
  }
  long
}

test_that("lr: long, matrix, dgCMatrix and formula routes give the same fit", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 51)
  ctl <- tightControl()
  ref <- glmRef(sim$x, sim$y, family = binomial())
  expected <- stats::setNames(unname(coef(ref)), c("(Intercept)", colnames(sim$x)))

  byMatrix <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = ctl)
  bySparse <- fitModel(createData(x = Matrix::Matrix(sim$x, sparse = TRUE), y = sim$y,
                                  modelType = "lr"), control = ctl)
  byFormula <- fitModel(createData(y ~ a + b + c + d, data = data.frame(y = sim$y, sim$x),
                                   modelType = "lr"), control = ctl)
  long <- lrRoutes(sim)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"), control = ctl)

  expect_equal(coef(byMatrix), expected, tolerance = 1e-5)
  expect_equal(coef(bySparse), coef(byMatrix), tolerance = 1e-8)
  expect_equal(coef(byFormula), coef(byMatrix), tolerance = 1e-8)
  # a dense Matrix (Matrix::Matrix() of dense data: dgeMatrix) was refused, in predict() too
  dense <- Matrix::Matrix(sim$x, sparse = FALSE)
  expect_true(methods::is(dense, "denseMatrix"))
  byDense <- fitModel(createData(x = dense, y = sim$y, modelType = "lr"), control = ctl)
  expect_equal(coef(byDense), coef(byMatrix), tolerance = 1e-12)
  expect_equal(predict(byDense, dense[1:5, , drop = FALSE]), predict(byMatrix, sim$x[1:5, ]), tolerance = 1e-12)
  # the long route names coefficients by covariate id
  expect_setequal(names(coef(byLong)), c("(Intercept)", as.character(routeIds)))
  expect_equal(coef(byLong)[["(Intercept)"]], expected[["(Intercept)"]], tolerance = 1e-5)
  expect_equal(byColumnName(coef(byLong), routeIds, colnames(sim$x)), expected[-1],
               tolerance = 1e-5)
  expect_equal(as.numeric(logLik(byLong)), as.numeric(logLik(byMatrix)), tolerance = 1e-10)
  expect_equal(as.numeric(logLik(byFormula)), as.numeric(logLik(byMatrix)), tolerance = 1e-10)
})

test_that("lr: shuffled long input gives the same fit", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 52)
  sorted <- lrRoutes(sim)
  set.seed(520)
  shuffled <- lrRoutes(sim, shuffle = TRUE)
  expect_false(identical(shuffled$outcomes$rowId, sorted$outcomes$rowId))
  a <- fitModel(createData(sorted$outcomes, sorted$covariates, modelType = "lr"),
                control = tightControl())
  b <- fitModel(createData(shuffled$outcomes, shuffled$covariates, modelType = "lr"),
                control = tightControl())
  expect_equal(b$coefficients[names(a$coefficients)], a$coefficients, tolerance = 1e-8)
  expect_equal(as.numeric(logLik(b)), as.numeric(logLik(a)), tolerance = 1e-10)
})

test_that("sccs: long, matrix, dgCMatrix and formula routes give the same fit", {
  sim <- simulateSccs(nPatients = 200, nDrugs = 5, seed = 53)
  ctl <- tightControl()
  ref <- sccsReference(sim)
  byLong <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"),
                     control = ctl)
  byMatrix <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time,
                                  stratumId = sim$stratumId, modelType = "sccs"), control = ctl)
  bySparse <- fitModel(createData(x = Matrix::Matrix(sim$x, sparse = TRUE), y = sim$y,
                                  time = sim$time, stratumId = sim$stratumId,
                                  modelType = "sccs"), control = ctl)
  formula <- y ~ drug1 + drug2 + drug3 + drug4 + drug5 + strata(stratumId)
  byFormula <- fitModel(createData(formula, data = sim$frame, time = sim$frame$time,
                                   modelType = "sccs"), control = ctl)
  # exposure time as an explicit log offset (with time = 1: equal exposure besides the
  # offset) gives the same conditional likelihood
  byOffset <- fitModel(createData(update(formula, . ~ . + offset(log(time))), data = sim$frame,
                                  time = rep(1, nrow(sim$frame)), modelType = "sccs"),
                       control = ctl)

  expect_named(coef(byMatrix), colnames(sim$x))
  expect_equal(coef(byMatrix), ref, tolerance = 1e-5)
  expect_equal(byColumnName(coef(byLong), sim$covariateIds, colnames(sim$x)), coef(byMatrix),
               tolerance = 1e-8)
  expect_equal(coef(bySparse), coef(byMatrix), tolerance = 1e-8)
  expect_equal(coef(byFormula), coef(byMatrix), tolerance = 1e-8)
  expect_equal(coef(byOffset), coef(byMatrix), tolerance = 1e-8)
  expect_equal(as.numeric(logLik(byFormula)), as.numeric(logLik(byMatrix)), tolerance = 1e-10)
  expect_equal(byFormula$nStrata, byMatrix$nStrata)
})

test_that("sccs: shuffled long input (strata interleaved) gives the same fit", {
  sim <- simulateSccs(nPatients = 200, nDrugs = 5, seed = 54)
  set.seed(540)
  outcomes <- sim$outcomes[sample(nrow(sim$outcomes)), ]
  covariates <- sim$covariates[sample(nrow(sim$covariates)), ]
  a <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"),
                control = tightControl())
  b <- fitModel(createData(outcomes, covariates, modelType = "sccs"), control = tightControl())
  expect_equal(b$coefficients[names(a$coefficients)], a$coefficients, tolerance = 1e-8)
  expect_equal(as.numeric(logLik(b)), as.numeric(logLik(a)), tolerance = 1e-10)
})

test_that("results come back in the user's covariate ids, mapped to the right covariate", {
  set.seed(55)
  n <- 400
  x <- cbind(rbinom(n, 1, 0.4), rbinom(n, 1, 0.4), rbinom(n, 1, 0.4))
  y <- rbinom(n, 1, plogis(-0.5 + drop(x %*% c(2, -2, 0.5))))
  ids <- c(1e15 + 7, 3, 77)   # a big id stays exact (no scientific notation, no rounding)
  long <- toLong(x, y, covariateIds = ids)
  fit <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"),
                  control = tightControl())
  expect_setequal(names(coef(fit)), c("(Intercept)", "1000000000000007", "3", "77"))
  ref <- coef(glmRef(x, y, family = binomial()))
  expect_equal(coef(fit)[["1000000000000007"]], unname(ref[2]), tolerance = 1e-5)
  expect_equal(coef(fit)[["3"]], unname(ref[3]), tolerance = 1e-5)
  expect_equal(coef(fit)[["77"]], unname(ref[4]), tolerance = 1e-5)
  expect_gt(coef(fit)[["1000000000000007"]], 1)
  expect_lt(coef(fit)[["3"]], -1)
})

test_that("bit64::integer64 covariate ids work, including ids beyond 2^53", {
  skip_if_not_installed("bit64")
  set.seed(56)
  n <- 400
  x <- cbind(rbinom(n, 1, 0.4), rbinom(n, 1, 0.4), rbinom(n, 1, 0.4))
  y <- rbinom(n, 1, plogis(-0.5 + drop(x %*% c(1.5, -1, 0.5))))
  # 2^53 and 2^53 + 1 are the same double: they must stay two covariates
  labels <- c("9007199254740992", "9007199254740993", "1000000000000007")
  ids64 <- bit64::as.integer64(labels)
  at <- which(x != 0, arr.ind = TRUE)
  outcomes <- data.frame(rowId = seq_len(n), y = y)
  covariates <- data.frame(rowId = at[, 1], covariateValue = x[at])
  covariates$covariateId <- ids64[at[, 2]]
  data <- createData(outcomes, covariates, modelType = "lr")
  fit <- fitModel(data, control = tightControl())
  expect_length(coef(fit), 4)
  expect_setequal(names(coef(fit)), c("(Intercept)", labels))
  ref <- coef(glmRef(x, y, family = binomial()))
  expect_equal(unname(coef(fit)[labels]), unname(ref[-1]), tolerance = 1e-5)
  expect_true(inherits(fit$covariateIds, "integer64"))
  expect_setequal(as.character(fit$covariateIds), labels)
  # integer64 row ids as well, and an integer64 id in exclude
  outcomes64 <- outcomes
  outcomes64$rowId <- bit64::as.integer64(outcomes$rowId) + bit64::as.integer64("5000000000000000000")
  covariates64 <- covariates
  covariates64$rowId <- bit64::as.integer64(covariates$rowId) + bit64::as.integer64("5000000000000000000")
  fit64 <- fitModel(createData(outcomes64, covariates64, modelType = "lr"),
                    control = tightControl())
  expect_equal(coef(fit64)[labels], coef(fit)[labels], tolerance = 1e-8)
  excl <- fitModel(data, prior = createPrior("laplace", variance = 1e-4, exclude = ids64[2]),
                   control = tightControl())
  expect_equal(unname(coef(excl)[labels[c(1, 3)]]), c(0, 0))
  expect_true(coef(excl)[[labels[2]]] != 0)
})

test_that("starting at the optimum converges at once to the same answer", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 57)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(data, control = tightControl())
  expect_gt(fit$iterations, 3)
  again <- fitModel(data, control = tightControl(), startingCoefficients = coef(fit))
  expect_lte(again$iterations, 2)
  expect_equal(coef(again), coef(fit), tolerance = 1e-8)
  # named starting values in another order are matched by name
  named <- fitModel(data, control = tightControl(), startingCoefficients = rev(coef(fit)))
  expect_lte(named$iterations, 2)
  expect_equal(coef(named), coef(fit), tolerance = 1e-8)
  # a poor start still reaches the optimum
  far <- fitModel(data, control = tightControl(), startingCoefficients = rep(1, 5))
  expect_equal(coef(far), coef(fit), tolerance = 1e-6)
})

test_that("a fixed coefficient stays put and the others are re-maximized (glm with offset)", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 58)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  start <- c("(Intercept)" = 0, a = 0, b = 0.5, c = 0, d = 0)
  fit <- fitModel(data, control = tightControl(), startingCoefficients = start,
                  fixedCoefficients = "b")
  expect_identical(coef(fit)[["b"]], 0.5)
  ref <- glmRef(sim$x[, -2], sim$y, family = binomial(), offset = 0.5 * sim$x[, 2])
  expect_equal(unname(coef(fit)[c("(Intercept)", "a", "c", "d")]), unname(coef(ref)),
               tolerance = 1e-5)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(ref)), tolerance = 1e-8)
  expect_equal(attr(logLik(fit), "df"), 4)
  # the same through a logical vector
  flags <- c(FALSE, FALSE, TRUE, FALSE, FALSE)
  fit2 <- fitModel(data, control = tightControl(), startingCoefficients = start,
                   fixedCoefficients = flags)
  expect_equal(coef(fit2), coef(fit), tolerance = 1e-10)
  # a named start is matched by name, whatever its order
  fit3 <- fitModel(data, control = tightControl(), startingCoefficients = start[c(3, 1, 2, 5, 4)],
                   fixedCoefficients = "b")
  expect_identical(coef(fit3)[["b"]], 0.5)
  expect_equal(coef(fit3), coef(fit), tolerance = 1e-10)
  # fixing the intercept without a start fixes it at 0, and says so
  expect_message(fit0 <- fitModel(data, control = tightControl(),
                                  fixedCoefficients = "(Intercept)"), "intercept is fixed at 0")
  expect_identical(coef(fit0)[["(Intercept)"]], 0)
  ref0 <- glmRef(sim$x, sim$y, family = binomial(), intercept = FALSE)
  expect_equal(unname(coef(fit0)[-1]), unname(coef(ref0)), tolerance = 1e-5)
})

test_that("per-covariate Laplace variances match glmnet penalty.factor", {
  skip_if_not_installed("glmnet")
  sim <- simulateLogistic(n = 400, p = 6, seed = 59)
  n <- nrow(sim$x)
  v <- c(0.002, 0.5, 0.005, 2, 0.001, 0.1)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  # one value per covariate in coef() order (the intercept's value is not used)
  fit <- fitModel(data, prior = createPrior("laplace", variance = c(1, v)),
                  control = tightControl(1e-12))
  # glmnet rescales penalty.factor to sum to the number of variables
  pf <- sqrt(2 / v) / n
  ref <- glmnet::glmnet(sim$x, sim$y, family = "binomial", alpha = 1, penalty.factor = pf,
                        lambda = sum(pf) / length(pf), standardize = FALSE, thresh = 1e-14)
  refBeta <- as.numeric(as.matrix(coef(ref)))
  expect_lte(max(abs(unname(coef(fit)) - refBeta)), 1e-4)
  expect_equal(unname(coef(fit)) == 0, refBeta == 0)
  expect_gt(sum(coef(fit) == 0), 0)
  # named variances in another order give the same fit
  named <- fitModel(data, prior = createPrior("laplace",
                                              variance = rev(c("(Intercept)" = 1,
                                                               stats::setNames(v, colnames(sim$x))))),
                    control = tightControl(1e-12))
  expect_equal(coef(named), coef(fit), tolerance = 1e-10)
})

test_that("per-covariate prior types satisfy their own optimality conditions", {
  sim <- simulateLogistic(n = 400, p = 4, seed = 60)
  kind <- c("none", "laplace", "normal", "none", "laplace")
  v <- c(1, 0.01, 0.05, 1, 0.5)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                  prior = createPrior(kind, variance = v), control = tightControl(1e-12))
  expect_equal(fit$status, "SUCCESS")
  expect_lt(kktViolation(lrGradient(sim$x, sim$y, coef(fit)), coef(fit), kind, v), 1e-5)
  # it differs from a uniform Laplace prior
  uniform <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                      prior = createPrior("laplace", variance = 0.01), control = tightControl())
  expect_gt(max(abs(coef(uniform) - coef(fit))), 1e-2)
})

test_that("exclude gives a covariate a flat prior (glmnet penalty.factor = 0)", {
  skip_if_not_installed("glmnet")
  sim <- simulateLogistic(n = 400, p = 4, seed = 61)
  n <- nrow(sim$x)
  v <- 0.005
  pf <- c(1, 0, 1, 1)   # column b unpenalized
  ref <- glmnet::glmnet(sim$x, sim$y, family = "binomial", alpha = 1, penalty.factor = pf,
                        lambda = sqrt(2 / v) / n * sum(pf) / length(pf),
                        standardize = FALSE, thresh = 1e-14)
  refBeta <- as.numeric(as.matrix(coef(ref)))
  byName <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"),
                     prior = createPrior("laplace", variance = v, exclude = "b"),
                     control = tightControl(1e-12))
  expect_lte(max(abs(unname(coef(byName)) - refBeta)), 1e-4)
  expect_true(coef(byName)[["b"]] != 0)
  long <- toLong(sim$x, sim$y, covariateIds = routeIds)
  byId <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"),
                   prior = createPrior("laplace", variance = v, exclude = routeIds[2]),
                   control = tightControl(1e-12))
  expect_equal(byColumnName(coef(byId), routeIds, colnames(sim$x)), coef(byName)[-1],
               tolerance = 1e-8)
  expect_output(print(byName), "\\(2 unpenalized\\)")  # the intercept and b
})

test_that("print() and summary() of data and fit objects report the key facts", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 62)
  sim$x[, "b"] <- rbinom(300, 1, 0.1)   # an indicator column
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  expect_output(print(data), "modelType 'lr'")
  expect_output(print(data), "rows: 300")
  expect_output(print(data), "covariates: 5 \\(including the intercept\\)")
  expect_output(print(data), "indicator")
  s <- summary(data)
  expect_equal(s$covariates$nonzero, c(300, colSums(sim$x != 0)), ignore_attr = TRUE)
  expect_equal(s$outcomes, sum(sim$y))
  expect_output(print(s), sprintf("300 rows, total outcome %d", sum(sim$y)))

  fit <- fitModel(data, prior = createPrior("laplace", variance = 0.1), control = tightControl())
  expect_output(print(fit), "Status SUCCESS")
  expect_output(print(fit), "laplace prior, variance 0.1 \\(1 unpenalized\\)")
  expect_output(print(fit), sprintf("log-likelihood %.6g", fit$logLikelihood), fixed = TRUE)
  sf <- summary(fit)
  expect_equal(sf$coefficients$estimate, unname(coef(fit)))
  expect_equal(sf$coefficients$prior, c("none", rep("laplace", 4)))
  expect_output(print(sf), "status:\\s+SUCCESS")
  expect_output(print(sf), "rows:\\s+300")

  sccs <- createData(simulateSccs(nPatients = 50, nDrugs = 5, seed = 63)$outcomes,
                     simulateSccs(nPatients = 50, nDrugs = 5, seed = 63)$covariates,
                     modelType = "sccs")
  expect_output(print(sccs), sprintf("in %d strata", sccs$nStrata))
  expect_output(print(createPrior("normal", variance = 2)), "normal, variance 2")
  expect_output(print(createControl(tolerance = 1e-7)), "tolerance 1e-07")
})

test_that("the iteration limit gives status MAX_ITERATIONS and a warning", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 64)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  expect_warning(fit <- fitModel(data, control = createControl(maxIterations = 1)),
                 "did not converge.*MAX_ITERATIONS")
  expect_equal(fit$status, "MAX_ITERATIONS")
  expect_equal(fit$iterations, 1)
  expect_output(print(fit), "MAX_ITERATIONS")
  converged <- fitModel(data, control = tightControl())
  expect_gt(max(abs(coef(fit) - coef(converged))), 1e-4)
})

test_that("long-format weights and offset columns match the matrix route", {
  sim <- simulatePoisson(n = 250, p = 3, seed = 65)
  set.seed(650)
  w <- round(runif(250, 0.2, 2), 2)
  off <- round(rnorm(250, 0, 0.2), 3)
  long <- toLong(sim$x, sim$y, covariateIds = c(31, 32, 33), time = sim$time, weights = w,
                 offset = off)
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "pr"),
                     control = tightControl())
  byMatrix <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, weights = w,
                                  offset = off, modelType = "pr"), control = tightControl())
  expect_equal(unname(coef(byLong)[c("(Intercept)", "31", "32", "33")]),
               unname(coef(byMatrix)), tolerance = 1e-8)
  ref <- suppressWarnings(glmRef(sim$x, sim$y, family = poisson(), weights = w,
                                 offset = log(sim$time) + off))
  expect_equal(unname(coef(byMatrix)), unname(coef(ref)), tolerance = 1e-5)
})

test_that("'.' in a formula means the other columns of data, as in glm and coxph", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt[, c("low", "age", "lwt", "race", "smoke")]
  bw$race <- factor(bw$race)
  fit <- fitModel(createData(low ~ ., data = bw, modelType = "lr"))
  ref <- stats::glm(low ~ ., data = bw, family = stats::binomial(),
                    control = stats::glm.control(epsilon = 1e-14))
  expect_equal(names(coef(fit)), names(coef(ref)))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  # Surv(time, status) ~ . took time and status themselves as covariates (NO_FINITE_MLE)
  vet <- survival::veteran[, c("time", "status", "karno", "age", "diagtime", "prior")]
  cox <- fitModel(createData(survival::Surv(time, status) ~ ., data = vet, modelType = "cox", ties = "breslow"))
  coxRef <- survival::coxph(survival::Surv(time, status) ~ ., data = vet, ties = "breslow")
  expect_equal(cox$status, "SUCCESS")
  expect_equal(names(coef(cox)), names(coef(coxRef)))
  expect_equal(unname(coef(cox)), unname(coef(coxRef)), tolerance = 1e-7)
  # with missing values dropped, and a strata() term beside the dot
  lung <- survival::lung[, c("time", "status", "age", "ph.ecog", "sex")]
  strat <- fitModel(createData(survival::Surv(time, status) ~ . - sex + strata(sex), data = lung,
                               modelType = "cox", ties = "breslow", na.action = na.omit))
  stratFormula <- survival::Surv(time, status) ~ . - sex + strata(sex)
  environment(stratFormula) <- asNamespace("survival")  # coxph evaluates strata() there
  stratRef <- survival::coxph(stratFormula, data = lung, ties = "breslow")
  expect_equal(unname(coef(strat)), unname(coef(stratRef)), tolerance = 1e-7)
})

test_that("terms Argus does not fit are refused, not read as covariates", {
  lung <- na.omit(survival::lung[, c("time", "status", "age", "sex", "inst")])
  for (term in c("frailty(inst)", "ridge(sex)", "pspline(age)", "tt(age)")) {
    f <- stats::as.formula(paste("survival::Surv(time, status) ~ age +", term))
    expect_error(createData(f, data = lung, modelType = "cox", ties = "breslow"), "term is not supported",
                 label = term)
  }
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  expect_error(createData(low ~ age + strata(race), data = bw, modelType = "lr"),
               "strata\\(\\) is for the models with a baseline per stratum")
  expect_error(createData(x = as.matrix(bw[, c("age", "lwt")]), y = bw$low, stratumId = bw$race,
                          modelType = "lr"), "'stratumId' is for the models with a baseline")
  outcomes <- data.frame(rowId = seq_len(nrow(bw)), y = bw$low, stratumId = bw$race)
  covariates <- data.frame(rowId = seq_len(nrow(bw)), covariateId = 1, covariateValue = bw$age)
  expect_warning(d <- createData(outcomes, covariates, modelType = "lr"),
                 "'outcomes\\$stratumId' is not used by modelType 'lr'")
  expect_equal(unname(coef(fitModel(d))), unname(coef(stats::glm(low ~ age, bw, family = "binomial"))),
               tolerance = 1e-6)
})

test_that("a response that is already a Surv object is read as coxph reads it", {
  skip_if_not_installed("survival")
  lung <- survival::lung[, c("time", "status", "age", "sex", "ph.ecog")]
  lung$s <- survival::Surv(lung$time, lung$status)
  fit <- fitModel(createData(s ~ age + sex + ph.ecog, data = lung, modelType = "cox", ties = "breslow", na.action = na.omit),
                  control = createControl(tolerance = 1e-10))
  reference <- survival::coxph(s ~ age + sex + ph.ecog, data = lung, ties = "breslow")
  expect_lt(max(abs(coef(fit) - coef(reference))), 1e-6)
  expect_equal(nobs(fit), reference$nevent)
  heart <- survival::heart
  heart$ss <- survival::Surv(heart$start, heart$stop, heart$event)
  counting <- fitModel(createData(ss ~ age + surgery, data = heart, modelType = "cox", ties = "breslow"),
                       control = createControl(tolerance = 1e-10))
  reference <- survival::coxph(ss ~ age + surgery, data = heart, ties = "breslow")
  expect_lt(max(abs(coef(counting) - coef(reference))), 1e-6)
  expect_error(createData(s ~ age, data = lung, modelType = "fgr"),
               "prebuilt Surv object of type 'right' is not read for modelType 'fgr'")
})
