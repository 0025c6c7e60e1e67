# Calls written the incumbent's (Cyclops's) way: each gives the incumbent's meaning, as its
# documentation states it, or stops with an error naming the Argus way. Expected values come
# from the incumbent's definitions, computed here independently of Argus.

compatCase <- function(seed = 5, n = 300) {
  set.seed(seed)
  x <- cbind(rbinom(n, 1, 0.4), rbinom(n, 1, 0.3), round(rnorm(n), 2))
  y <- rbinom(n, 1, plogis(-0.4 + drop(x %*% c(0.8, -0.6, 0.5))))
  at <- which(x != 0, arr.ind = TRUE)
  outcomes <- data.frame(rowId = seq_len(n), y = y)
  covariates <- data.frame(rowId = at[, 1], covariateId = c(11, 12, 13)[at[, 2]],
                           covariateValue = x[at])
  list(x = x, y = y, outcomes = outcomes, covariates = covariates,
       data = createData(outcomes, covariates, modelType = "lr"))
}

test_that("predict(newOutcomes =, newCovariates =) stops and names the Argus call, which gives the incumbent's values", {
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("laplace", 1))
  new <- 1:20
  newOutcomes <- case$outcomes[rev(new), ]
  newCovariates <- case$covariates[case$covariates$rowId %in% new, ]
  expect_error(predict(fit, newOutcomes = newOutcomes, newCovariates = newCovariates),
               "predict\\(fit, newdata = c, outcomes = o\\) in Argus \\(by default the response scale for lr and pr")
  # The incumbent: response scale (probabilities for lr), rows in the order of newOutcomes
  # merged by rowId (sorted by rowId).
  beta <- coef(fit)
  expected <- stats::plogis(beta[[1]] + drop(case$x[new, ] %*% beta[-1]))
  got <- predict(fit, newdata = newCovariates, outcomes = newOutcomes[order(newOutcomes$rowId), ],
                 type = "response")
  expect_equal(unname(got), expected, tolerance = 1e-12)
  expect_identical(names(got), as.character(new))
})

test_that("exclude = c(0) is the intercept, as in the incumbent", {
  case <- compatCase()
  control <- createControl(tolerance = 1e-10)
  byZero <- fitModel(case$data, createPrior("laplace", 0.05, exclude = c(0), forceIntercept = TRUE),
                     control)
  byName <- fitModel(case$data, createPrior("laplace", 0.05, exclude = "(Intercept)",
                                            forceIntercept = TRUE), control)
  penalized <- fitModel(case$data, createPrior("laplace", 0.05, forceIntercept = TRUE), control)
  expect_identical(coef(byZero), coef(byName))
  expect_identical(unname(byZero$priorType), c("none", "laplace", "laplace", "laplace"))
  expect_gt(abs(coef(byZero)[[1]] - coef(penalized)[[1]]), 1e-3)
  both <- fitModel(case$data, createPrior("laplace", 0.05, exclude = c(0, 13), forceIntercept = TRUE),
                   control)
  expect_identical(unname(both$priorType), c("none", "laplace", "laplace", "none"))
  # a covariate whose id is 0 next to an intercept would make 0 ambiguous (getCovariateIds()
  # listed 0 twice): the data are refused; without the intercept 0 is an ordinary id
  zero <- case$covariates
  zero$covariateId[zero$covariateId == 13] <- 0
  expect_error(createData(case$outcomes, zero, modelType = "lr"), "covariate id 0 is the intercept's")
  zeroData <- createData(case$outcomes, zero, modelType = "lr", addIntercept = FALSE)
  expect_identical(unname(fitModel(zeroData, createPrior("laplace", 1, exclude = 0))$priorType[
    names(coef(fitModel(zeroData))) == "0"]), "none")
  # without an intercept, 0 is an ordinary (absent) id
  noIntercept <- createData(case$outcomes, case$covariates, modelType = "lr", addIntercept = FALSE)
  expect_error(fitModel(noIntercept, createPrior("laplace", 1, exclude = 0)),
               "'exclude' names covariate\\(s\\) not in the data: 0")
})

test_that("fit fields return_flag, log_likelihood, estimation and variance mean what the incumbent's do", {
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("laplace", 0.5))
  expect_identical(fit$return_flag, "SUCCESS")
  expect_identical(fit$log_likelihood, as.numeric(logLik(fit)))
  expect_identical(fit$estimation$column_label, names(coef(fit)))
  expect_identical(fit$estimation$estimate, unname(fit$coefficients))
  expect_identical(fit$variance, 0.5)  # the hyperparameter, not the intercept's flat prior
  cv <- fitModel(case$data, createPrior("laplace", useCrossValidation = TRUE),
                 createControl(fold = 5, seed = 3, cvType = "grid", lowerLimit = 0.01,
                               upperLimit = 10, gridSteps = 4))
  expect_identical(cv$variance, cv$cv$variance)
  expect_identical(cv$variance[1], cv$cv$variance)
  expect_identical(unname(cv$priorVariance[-1]), rep(cv$cv$variance, 3))
  expect_true(is.na(fitModel(case$data)$variance))  # no penalized covariate: no hyperparameter
  expect_identical(fitModel(case$data, createPrior("normal", c(1, 2, 3, 4)))$variance, c(2, 3, 4))
})

test_that("createControl() takes the incumbent's arguments with its meanings", {
  case <- compatCase()
  control <- createControl(maxIterations = 500, tolerance = 1e-7, convergenceType = "gradient",
                           cvType = "grid", fold = 4, lowerLimit = 0.01, upperLimit = 20,
                           gridSteps = 5, cvRepetitions = 2, minCVData = 100,
                           noiseLevel = "silent", threads = 2, seed = 7,
                           resetCoefficients = TRUE, startingVariance = -1,
                           selectorType = "byRow", initialBound = 2, algorithm = "ccd")
  expect_null(control$startingVariance)  # -1: a data-based starting variance
  expect_identical(control$maxIterations, 500L)
  fit <- fitModel(case$data, createPrior("laplace", useCrossValidation = TRUE), control)
  # the incumbent's grid: gridSteps variances log-spaced from lowerLimit to upperLimit
  expect_equal(sort(fit$cv$curve$variance), exp(seq(log(0.01), log(20), length.out = 5)),
               tolerance = 1e-12)
  expect_identical(c(fit$cv$folds, fit$cv$repetitions, fit$cv$seed), c(4L, 2L, 7))
  expect_identical(fit$cv$curve$allDataCycles, rep(0L, 5))  # resetCoefficients: no warm starts
  # minCVData: fewer sampling units than that refuse cross-validation
  expect_error(fitModel(case$data, createPrior("laplace", useCrossValidation = TRUE),
                        createControl(minCVData = 301)),
               "insufficient data for cross-validation: 300 rows, fewer than minCVData = 301")
  expect_identical(createControl(threads = -1)$threads,
                   as.integer(max(1L, parallel::detectCores(), na.rm = TRUE)))
  expect_error(createControl(algorithm = "mm"), "algorithm = \"mm\" has no Argus equivalent")
  expect_error(createControl(initialBoundType = "trust"), "initialBoundType = \"trust\" has no Argus")
  expect_error(createControl(startingVariance = -2), "'startingVariance' must be between")
  expect_error(createControl(tolerence = 1), "createControl\\(\\): unused argument\\(s\\): tolerence")
})

test_that("createPrior() takes per-covariate types, exclude, forceIntercept and useCrossValidation", {
  case <- compatCase()
  control <- createControl(tolerance = 1e-10)
  vector <- fitModel(case$data, createPrior(c("none", "laplace", "normal", "none"),
                                            variance = c(1, 0.5, 0.7, 1)), control)
  expect_identical(unname(vector$priorType), c("none", "laplace", "normal", "none"))
  expect_identical(unname(vector$priorVariance), c(1, 0.5, 0.7, 1))
  forced <- fitModel(case$data, createPrior("normal", 0.01, forceIntercept = TRUE), control)
  expect_identical(forced$priorType[[1]], "normal")
  expect_lt(abs(coef(forced)[[1]]), abs(coef(vector)[[1]]))
  expect_error(createPrior("hierarchical"), "'priorType' must be one of none, laplace, normal")
  # a per-covariate prior named for the intercept is used or refused (a normal prior on it was
  # replaced by a flat one without a word)
  expect_error(fitModel(case$data, createPrior(c("normal", "laplace", "normal", "none"))),
               "gives the intercept a normal prior, but the intercept is not penalized unless forceIntercept")
  both <- createPrior(c("normal", "laplace", "normal", "none"), variance = 0.01, forceIntercept = TRUE)
  expect_identical(fitModel(case$data, both, control)$priorType[[1]], "normal")
  excluded <- createPrior(c("normal", "laplace", "normal", "none"), exclude = "(Intercept)")
  expect_identical(fitModel(case$data, excluded, control)$priorType[[1]], "none")
})

test_that("confint() with the incumbent's level, includePenalty and overrideNoRegularization", {
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("laplace", 2), createControl(tolerance = 1e-10))
  # a penalized coefficient gets no interval unless asked, as the incumbent (it refused with
  # an error; Argus says why in a message and gives NA, R's shape kept)
  expect_message(refused <- confint(fit, "11", overrideNoRegularization = FALSE), "'11'.*penalized = TRUE")
  expect_true(all(is.na(refused)))
  override <- confint(fit, c("11", "12"), level = 0.9, includePenalty = TRUE,
                      overrideNoRegularization = TRUE)
  expect_identical(override, confint(fit, c("11", "12"), level = 0.9, penalized = TRUE))
  expect_identical(colnames(override), c("5 %", "95 %"))
  # an unpenalized coefficient (the intercept) is profiled whatever the override
  expect_identical(confint(fit, "(Intercept)", overrideNoRegularization = FALSE),
                   confint(fit, "(Intercept)"))
  expect_error(confint(fit, "11", rescale = TRUE), "unused argument\\(s\\): rescale")
})

test_that("confint() by covariate id has R's shape, as by name (the incumbent's layout is compat/Cyclops's)", {
  # CohortMethod reads ci[2] and ci[3] of the incumbent's 4-column layout; Argus's own
  # confint() gives R's two columns whatever parm is (it gave that layout for numeric ids
  # and R's for names), and the Cyclops-compatible front end builds the incumbent's
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("laplace", 2, exclude = 12), createControl(tolerance = 1e-10))
  byName <- confint(fit, c("12", "13"), penalized = TRUE)
  ci <- confint(fit, parm = c(12, 13), includePenalty = TRUE, penalized = TRUE)
  expect_identical(ci, byName)
  expect_identical(dimnames(ci), list(c("12", "13"), c("2.5 %", "97.5 %")))
  expect_true(all(attr(ci, "evaluations") >= 3))
  expect_identical(attr(ci, "method"), "profile")
  expect_true(all(is.na(attr(suppressWarnings(confint(fit, 12, method = "wald")), "evaluations"))))
  # the incumbent's id 0 is the intercept
  zero <- confint(fit, parm = 0, includePenalty = TRUE)
  expect_identical(zero, confint(fit, "(Intercept)"))
  # ids beyond 2^53 (integer64) name their rows exactly
  skip_if_not_installed("bit64")
  set.seed(5)
  n <- 200
  big <- bit64::as.integer64(c("9000000000000000002", "9000000000000000003"))
  outcomes <- data.frame(rowId = 1:n, y = rbinom(n, 1, 0.4))
  covariates <- data.frame(rowId = rep(1:n, 2), covariateId = rep(big, each = n), covariateValue = rnorm(2 * n))
  bigFit <- fitModel(createData(outcomes, covariates, modelType = "lr"))
  wide <- confint(bigFit, parm = big, method = "wald")
  expect_equal(rownames(wide), c("9000000000000000002", "9000000000000000003"))
  expect_identical(dim(wide), c(2L, 2L))
})

test_that("summary() and tidy() of a fit with every coefficient under a Laplace prior", {
  # no coefficient had a standard error, and summary() stopped on an NA comparison
  set.seed(3)
  n <- 400
  outcomes <- data.frame(rowId = 1:n, y = rbinom(n, 1, 0.6), time = ceiling(rexp(n, 0.05)))
  at <- which(matrix(rbinom(n * 4, 1, 0.3), n, 4) != 0, arr.ind = TRUE)
  covariates <- data.frame(rowId = at[, 1], covariateId = 100 + at[, 2], covariateValue = 1)
  fit <- fitModel(createData(outcomes, covariates, modelType = "cox", ties = "breslow"), createPrior("laplace", 1))
  s <- summary(fit)
  expect_true(all(is.na(s$coefficients$std.error)))
  expect_equal(s$coefficients$estimate, unname(coef(fit)))
  skip_if_not_installed("generics")
  # Laplace coefficients have no honest interval in the table (selection): NA, no error
  t <- generics::tidy(fit, conf.int = TRUE, conf.method = "profile")
  expect_equal(t$estimate, unname(coef(fit)))
  expect_true(all(is.na(t$conf.low)))
})

test_that("profileLogLikelihood(returnDerivatives = TRUE) gives the slope of the profile", {
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("normal", 1), createControl(tolerance = 1e-12))
  points <- c(0.2, 0.5, 0.9)
  h <- 1e-4
  profile <- profileLogLikelihood(fit, "11", x = points, returnDerivatives = TRUE)
  expect_identical(names(profile), c("covariate", "point", "value", "derivative"))
  up <- profileLogLikelihood(fit, "11", x = points + h)$value
  down <- profileLogLikelihood(fit, "11", x = points - h)$value
  expect_equal(profile$derivative, (up - down) / (2 * h), tolerance = 1e-5)
  # at the estimate the profiled log posterior is flat
  atEstimate <- profileLogLikelihood(fit, "11", x = coef(fit)[["11"]], returnDerivatives = TRUE)
  expect_lt(abs(atEstimate$derivative), 1e-5)
  # without the penalty: the log-likelihood's partial derivative, which at the estimate
  # balances the normal prior's -b / variance
  noPenalty <- profileLogLikelihood(fit, "11", x = coef(fit)[["11"]], includePenalty = FALSE,
                                    returnDerivatives = TRUE)
  expect_equal(noPenalty$derivative, coef(fit)[["11"]] / 1, tolerance = 1e-5)
})

test_that("runBootstrap() summary columns carry the incumbent's meanings", {
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("laplace", 1))
  expect_error(runBootstrap(fit, replicates = 20, ciCoverage = 0.9),
               "'ciCoverage': Argus calls the interval's coverage 'level'")
  bs <- runBootstrap(fit, replicates = 40, level = 0.9, seed = 2)
  samples <- bs$estimates
  expect_identical(dim(samples), c(40L, 4L))
  s <- bs$summary
  # incumbent: original, bias = mean - original, std_err = sqrt(var), bpi_lower/upper quantiles
  expect_equal(s$estimate, unname(coef(fit)))
  expect_equal(s$bias, unname(colMeans(samples) - coef(fit)), tolerance = 1e-12)
  expect_equal(s$se, unname(sqrt(apply(samples, 2, stats::var))), tolerance = 1e-12)
  expect_equal(s$lower, unname(apply(samples, 2, stats::quantile, probs = 0.05)), tolerance = 1e-12)
  expect_equal(s$upper, unname(apply(samples, 2, stats::quantile, probs = 0.95)), tolerance = 1e-12)
})

test_that("univariable correlation and separability, covariate ids and counts", {
  case <- compatCase()
  cors <- getUnivariableCorrelation(case$data)
  expect_identical(names(cors), c("(Intercept)", "11", "12", "13"))
  expect_true(is.nan(cors[["(Intercept)"]]))
  expect_equal(unname(cors[-1]), as.vector(stats::cor(case$x, case$y)), tolerance = 1e-12)
  strong <- getUnivariableCorrelation(case$data, threshold = 0.15)
  expect_identical(names(strong), names(cors)[-1][abs(cors[-1]) >= 0.15])
  expect_equal(getUnivariableCorrelation(case$data, covariates = 12), cors["12"])
  # separability of indicators: a covariate present only in rows with y = 1 separates
  outcomes <- data.frame(rowId = 1:8, y = c(1, 1, 0, 0, 1, 0, 1, 0))
  covariates <- data.frame(rowId = c(1, 2, 5, 1, 3, 4, 6), covariateId = c(1, 1, 1, 2, 2, 2, 3),
                           covariateValue = c(1, 1, 1, 1, 1, 1, 2.5))
  data <- createData(outcomes, covariates, modelType = "lr")
  expect_warning(sep <- getUnivariableSeparability(data), "NA for 3")
  expect_identical(sep, c("(Intercept)" = FALSE, "1" = TRUE, "2" = FALSE, "3" = NA))
  expect_identical(getUnivariableSeparability(data, covariates = c(0, 1)),
                   c("(Intercept)" = FALSE, "1" = TRUE))
  expect_error(getUnivariableCorrelation(createData(data.frame(rowId = 1:3, y = c(1, 0, 1),
                                                              time = 1:3),
                                                   data.frame(rowId = 1:3, covariateId = 1),
                                                   modelType = "cox", ties = "breslow")),
               "not defined for survival models")
  # ids (integer64, the intercept as 0) and counts; dropped strata still count
  ids <- getCovariateIds(case$data)
  expect_true(bit64::is.integer64(ids))
  expect_identical(as.character(ids), c("0", "11", "12", "13"))
  expect_identical(getNumberOfCovariates(case$data), 4L)
  expect_identical(getNumberOfRows(case$data), 300L)
  sccs <- data.frame(rowId = 1:8, stratumId = rep(1:4, each = 2), y = c(1, 0, 0, 0, 0, 2, 1, 1),
                     time = 1)
  d <- createData(sccs, data.frame(rowId = c(1, 3, 6, 7), covariateId = 5), modelType = "sccs")
  expect_identical(c(getNumberOfRows(d), getNumberOfStrata(d), d$nRows), c(8L, 4L, 6L))
  expect_error(getCovariateIds(createData(x = case$x, y = case$y, modelType = "lr")),
               "rather than giving numeric ids")
})

test_that("tidy() profile intervals of long-table data take coefficients by name, not as ids", {
  # tidy() asked confint() for positions 1..4, which long-table data read as covariate ids
  skip_if_not_installed("generics")
  case <- compatCase()
  fit <- fitModel(case$data, createPrior("none"))
  t <- generics::tidy(fit, conf.int = TRUE, conf.method = "profile")
  expect_equal(t$conf.low, unname(confint(fit)[, 1]), tolerance = 1e-10)
  expect_equal(t$conf.high, unname(confint(fit)[, 2]), tolerance = 1e-10)
})

test_that("the incumbent's control and prior objects, defaults and pass-through arguments", {
  # what CohortMethod stores and PatientLevelPrediction passes: the incumbent's defaults for
  # settings Argus has not, which change nothing here
  control <- createControl(useKKTSwindle = FALSE, tuneSwindle = 10, maxBoundCount = 5,
                           doItAll = TRUE, syncCV = FALSE, algorithm = "ccd",
                           initialBoundType = "auto", autoSearch = TRUE, minCVData = 100)
  expect_identical(control, createControl(minCVData = 100))
  expect_identical(createControl(autoSearch = FALSE)$cvType, "grid")
  expect_identical(createControl(autoSearch = FALSE, cvType = "auto")$cvType, "auto")
  # the incumbent's createControl() and createPrior() objects (their documented fields)
  cyclopsControl <- structure(list(maxIterations = 1000, tolerance = 1e-6, convergenceType = "gradient",
                                   autoSearch = TRUE, fold = 5, lowerLimit = 0.01, upperLimit = 20,
                                   gridSteps = 10, minCVData = 100, cvRepetitions = 1,
                                   noiseLevel = "silent", threads = 1, seed = 7,
                                   resetCoefficients = FALSE, startingVariance = -1,
                                   useKKTSwindle = FALSE, tuneSwindle = 10, selectorType = "auto",
                                   initialBound = 2, maxBoundCount = 5, algorithm = "ccd",
                                   doItAll = TRUE, syncCV = FALSE), class = "cyclopsControl")
  cyclopsPrior <- structure(list(priorType = "laplace", variance = 1, exclude = 0, graph = NULL,
                                 neighborhood = NULL, useCrossValidation = TRUE,
                                 forceIntercept = FALSE), class = "cyclopsPrior")
  case <- compatCase()
  viaObjects <- fitModel(case$data, cyclopsPrior, cyclopsControl)
  direct <- fitModel(case$data, createPrior("laplace", 1, exclude = 0, useCrossValidation = TRUE),
                     createControl(fold = 5, seed = 7, minCVData = 100, startingVariance = -1))
  expect_equal(coef(viaObjects), coef(direct))
  expect_equal(viaObjects$variance, direct$variance)
  cyclopsPrior$graph <- "parent"
  expect_error(fitModel(case$data, cyclopsPrior), "hierarchical priors")
  # convertToCyclopsData() / fitCyclopsModel() / profile arguments that change nothing here
  data <- createData(case$outcomes, case$covariates, modelType = "lr", checkRowIds = FALSE,
                     quiet = TRUE, checkSorting = NULL)
  expect_error(createData(case$outcomes, case$covariates, modelType = "lr", normalize = "stdev"),
               "normalize = \"stdev\".*does not rescale")
  expect_error(createData(case$outcomes, case$covariates, modelType = "lr", chekRowIds = FALSE),
               "unused argument chekRowIds")
  plain <- fitModel(data)
  expect_equal(coef(fitModel(data, forceNewObject = TRUE, returnEstimates = TRUE, warnings = FALSE,
                             computeDevice = "native")), coef(plain))
  expect_error(fitModel(data, computeDevice = "cuda"), "createControl\\(device = \\)")
  expect_equal(profileLogLikelihood(plain, "11", x = 0.5, maxResets = 10, optimalWarmStart = TRUE),
               profileLogLikelihood(plain, "11", x = 0.5))
})

test_that("tibbles as the long tables give no warnings", {
  skip_if_not_installed("tibble")
  case <- compatCase()
  expect_no_warning(d <- createData(tibble::as_tibble(case$outcomes), tibble::as_tibble(case$covariates),
                                    modelType = "lr"))
  expect_equal(coef(fitModel(d)), coef(fitModel(case$data)))
})

test_that("priorType and priorVariance are named by coefficient; variance keeps the incumbent's meaning", {
  x <- as.matrix(MASS::Boston[, c("crim", "tax", "rm")])
  fit <- fitModel(createData(x = x, y = MASS::Boston$medv, modelType = "ls"),
                  prior = createPrior("normal", variance = c(1, 2, 3, 4), exclude = "tax"))
  expect_identical(names(fit$priorType), names(coef(fit)))
  expect_identical(fit$priorType[c("(Intercept)", "crim", "tax", "rm")],
                   c("(Intercept)" = "none", crim = "normal", tax = "none", rm = "normal"))
  expect_identical(fit$priorVariance[c("crim", "rm")], c(crim = 2, rm = 4))
  expect_identical(fit$variance, c(2, 4))  # the incumbent's: the penalized covariates' variances
})
