# The Cyclops call sequences of the OHDSI packages' current releases (CohortMethod 6.0.2,
# SelfControlledCaseSeries 6.1.4, PatientLevelPrediction 6.6.0, EvidenceSynthesis 1.0.0),
# written here in our own code with the packages' arguments, on the simulated data of
# helper-ohdsi-data.R. Each returns a flat named list of the numbers the package keeps.
# Run on this package in its tests; tools/compare-ohdsi.R runs them on the real incumbent
# too and compares.

# CohortMethod createPs(): lasso logistic propensity model, cross-validated (createCreatePsArgs()
# defaults), then predict() on the fitted rows and on new rows after adjusting the intercept
# (the sampled-population branch).
cohortMethodPs <- function(cohort, cvRepetitions = 10) {
  outcomes <- data.frame(rowId = cohort$population$rowId, y = cohort$population$treatment)
  data <- Cyclops::convertToCyclopsData(outcomes, cohort$covariates, modelType = "lr",
                                        floatingPoint = 64)
  suspect <- Cyclops::getUnivariableCorrelation(data, threshold = 0.5)
  prior <- Cyclops::createPrior(priorType = "laplace", exclude = c(0), useCrossValidation = TRUE)
  control <- Cyclops::createControl(noiseLevel = "silent", cvType = "auto", seed = 1,
                                    resetCoefficients = TRUE, tolerance = 2e-07,
                                    cvRepetitions = cvRepetitions, startingVariance = 0.01)
  fit <- Cyclops::fitCyclopsModel(data, prior = prior, control = control)
  ps <- predict(fit)
  fit$estimation$estimate[1] <- fit$estimation$estimate[1] - 0.1
  shifted <- predict(fit, newOutcomes = outcomes, newCovariates = cohort$covariates)
  list(returnFlag = fit$return_flag, variance = fit$variance[1], coefficients = coef(fit),
       nonzero = sum(coef(fit)[-1] != 0), propensityScore = ps[order(as.numeric(names(ps)))],
       shiftedScore = shifted, suspect = length(suspect[!is.na(suspect)]))
}

# CohortMethod fitOutcomeModel() without covariates: the treatment alone, flat prior, with
# its likelihood profile, profile interval, likelihood ratio and (optionally) bootstrap.
cohortMethodOutcome <- function(cohort, modelType, stratified, weighted, bootstrap = 0) {
  population <- informativePopulation(cohort$population, modelType, stratified, weighted)
  treatmentVarId <- 1
  covariates <- data.frame(rowId = population$rowId, covariateValue = population$treatment,
                           covariateId = treatmentVarId)
  if (stratified) covariates$stratumId <- population$stratumId[match(covariates$rowId, population$rowId)]
  outcomes <- population
  cyclopsType <- switch(modelType, logistic = if (stratified) "clr" else "lr",
                        poisson = if (stratified) "cpr" else "pr", cox = "cox")
  data <- Cyclops::convertToCyclopsData(outcomes = outcomes, covariates = covariates,
                                        addIntercept = (!stratified && modelType != "cox"),
                                        modelType = cyclopsType, checkRowIds = FALSE,
                                        normalize = NULL, quiet = TRUE)
  control <- Cyclops::createControl(cvType = "auto", seed = 1, resetCoefficients = TRUE,
                                    startingVariance = 0.01, tolerance = 2e-07,
                                    cvRepetitions = 10, noiseLevel = "quiet")
  fit <- Cyclops::fitCyclopsModel(data, prior = Cyclops::createPrior("none"), control = control)
  profile <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = treatmentVarId, x = NULL,
                                                     bounds = c(log(0.1), log(10)), tolerance = 0.1,
                                                     includePenalty = TRUE, returnDerivatives = TRUE)
  logRr <- coef(fit)[names(coef(fit)) == as.character(treatmentVarId)]
  ci <- confint(fit, parm = treatmentVarId, includePenalty = TRUE)
  llNull <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = treatmentVarId, x = 0,
                                                    includePenalty = FALSE)$value
  out <- list(returnFlag = fit$return_flag, logRr = unname(logRr), logLb95 = ci[2],
              logUb95 = ci[3], seLogRr = (ci[3] - ci[2]) / (2 * stats::qnorm(0.975)),
              llr = fit$log_likelihood - llNull, logLikelihood = fit$log_likelihood,
              profileAt = stats::approx(profile$point, profile$value, c(-1, 0, 1))$y - max(profile$value))
  if (bootstrap > 0) {
    summary <- Cyclops::runBootstrap(fit, bootstrap)$summary[as.character(treatmentVarId), ]
    out$bootstrap <- c(summary$bpi_lower, summary$bpi_upper, summary$std_err)
  }
  out
}

# CohortMethod fitOutcomeModel(useCovariates = TRUE): treatment plus baseline covariates,
# the treatment (and intercept) excluded from a cross-validated lasso.
cohortMethodOutcomeWithCovariates <- function(cohort, modelType, stratified) {
  population <- informativePopulation(cohort$population, modelType, stratified, FALSE)
  treatmentVarId <- max(cohort$covariates$covariateId) + 1
  covariates <- cohort$covariates[cohort$covariates$rowId %in% population$rowId, ]
  covariates <- rbind(covariates, data.frame(rowId = population$rowId, covariateId = treatmentVarId,
                                             covariateValue = population$treatment))
  if (stratified) covariates$stratumId <- population$stratumId[match(covariates$rowId, population$rowId)]
  prior <- Cyclops::createPrior(priorType = "laplace", useCrossValidation = TRUE)
  prior$exclude <- if (stratified || modelType == "cox") treatmentVarId else c(0, treatmentVarId)
  cyclopsType <- switch(modelType, logistic = if (stratified) "clr" else "lr",
                        poisson = if (stratified) "cpr" else "pr", cox = "cox")
  data <- Cyclops::convertToCyclopsData(outcomes = population, covariates = covariates,
                                        addIntercept = (!stratified && modelType != "cox"),
                                        modelType = cyclopsType, checkRowIds = FALSE,
                                        normalize = NULL, quiet = TRUE)
  control <- Cyclops::createControl(cvType = "auto", seed = 1, resetCoefficients = TRUE,
                                    startingVariance = 0.01, tolerance = 2e-07,
                                    cvRepetitions = 1, noiseLevel = "quiet")
  fit <- Cyclops::fitCyclopsModel(data, prior = prior, control = control)
  ci <- confint(fit, parm = treatmentVarId, includePenalty = TRUE)
  list(returnFlag = fit$return_flag, variance = fit$variance[1],
       logRr = unname(coef(fit)[as.character(treatmentVarId)]), logLb95 = ci[2], logUb95 = ci[3])
}

# CohortMethod's interaction-term check and the Dobson example of its helper functions.
cohortMethodHelpers <- function(cohort) {
  population <- informativePopulation(cohort$population, "cox", TRUE, FALSE)
  covariates <- cohort$covariates[cohort$covariates$rowId %in% population$rowId, ]
  covariates$stratumId <- population$stratumId[match(covariates$rowId, population$rowId)]
  data <- Cyclops::convertToCyclopsData(population, covariates, addIntercept = FALSE,
                                        modelType = "cox", checkSorting = TRUE, normalize = NULL,
                                        quiet = TRUE)
  separability <- Cyclops::getUnivariableSeparability(data)
  counts <- c(18, 17, 15, 20, 10, 20, 25, 13, 12)
  outcome <- gl(3, 1, 9)
  treatment <- gl(3, 3)
  dobson <- Cyclops::createCyclopsData(counts ~ outcome + treatment, modelType = "pr")
  fit <- Cyclops::fitCyclopsModel(dobson)
  list(separable = sum(separability), anySeparable = any(separability),
       dobson = coef(fit), dobsonCi = confint(fit, c("outcome2", "treatment3"))[, 2:3])
}

# SelfControlledCaseSeries fitSccsModel(): conditional Poisson with the drugs regularized by
# a cross-validated lasso (createFitSccsModelArgs() defaults), one drug's estimate kept
# unregularized with its interval, likelihood ratio and profile; the flat-prior path too.
sccsFit <- function(sccs, regularized = TRUE) {
  needCi <- 1001
  prior <- if (regularized) Cyclops::createPrior("laplace", useCrossValidation = TRUE)
           else Cyclops::createPrior("none")
  covariateIds <- unique(sccs$covariates$covariateId)
  if (regularized) prior$exclude <- intersect(needCi, covariateIds)
  control <- Cyclops::createControl(cvType = "auto", selectorType = "byPid", startingVariance = 0.1,
                                    seed = 1, resetCoefficients = TRUE, noiseLevel = "quiet")
  data <- Cyclops::convertToCyclopsData(sccs$outcomes, sccs$covariates, modelType = "cpr",
                                        addIntercept = FALSE, checkRowIds = FALSE, quiet = TRUE)
  fit <- Cyclops::fitCyclopsModel(data, prior = prior, control = control)
  ids <- intersect(needCi, as.numeric(Cyclops::getCovariateIds(data)))
  profile <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = ids[1], x = NULL,
                                                     bounds = c(log(0.1), log(10)), tolerance = 0.1,
                                                     includePenalty = TRUE, returnDerivatives = TRUE)
  estimates <- coef(fit)
  ci <- as.data.frame(confint(fit, parm = intersect(needCi, as.numeric(names(estimates))),
                              includePenalty = TRUE))
  llNull <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = needCi, x = 0,
                                                    includePenalty = TRUE)$value
  list(returnFlag = fit$return_flag, variance = fit$variance[1], estimates = estimates,
       logLb95 = ci[["2.5 %"]], logUb95 = ci[["97.5 %"]], covariate = ci$covariate,
       llr = fit$log_likelihood - llNull, logLikelihood = fit$log_likelihood,
       profileAt = stats::approx(profile$point, profile$value, c(-1, 0, 1))$y - max(profile$value),
       derivativeRange = range(profile$derivative))
}

# SelfControlledCaseSeries's diagnostic of the end of observation: a one-covariate cpr fit
# on a table that is both outcomes and covariates, profiled at 0.
sccsDiagnostic <- function(sccs) {
  poissonData <- sccs$outcomes
  poissonData$covariateId <- 1
  poissonData$covariateValue <- as.numeric(poissonData$rowId %% 3 == 0)
  data <- Cyclops::convertToCyclopsData(outcomes = poissonData, covariates = poissonData,
                                        addIntercept = FALSE, modelType = "cpr", quiet = TRUE)
  fit <- Cyclops::fitCyclopsModel(data)
  llNull <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = 1, x = 0)$value
  list(returnFlag = fit$return_flag, beta = unname(coef(fit)), llr = fit$log_likelihood - llNull)
}

# PatientLevelPrediction's lasso logistic regression (setLassoLogisticRegression() defaults,
# 3 folds) with its cross-validation fold refits, and its Cox lasso with the Breslow baseline.
plpLogistic <- function(cohort) {
  labels <- data.frame(rowId = cohort$population$rowId, outcomeCount = cohort$population$outcomeCount,
                       survivalTime = cohort$population$survivalTime)
  labels$y <- pmin(1, labels$outcomeCount)
  labels$time <- labels$survivalTime
  data <- Cyclops::convertToCyclopsData(outcomes = labels, covariates = cohort$covariates,
                                        addIntercept = TRUE, modelType = "lr", checkRowIds = FALSE,
                                        normalize = NULL, quiet = TRUE)
  prior <- do.call(eval(parse(text = "Cyclops::createPrior")),
                   list(priorType = "laplace", forceIntercept = FALSE, variance = 0.01,
                        exclude = c(0), useCrossValidation = TRUE))
  control <- Cyclops::createControl(cvType = "auto", fold = 3, startingVariance = 0.01,
                                    lowerLimit = 0.01, upperLimit = 20, tolerance = 2e-06,
                                    cvRepetitions = 1, selectorType = "byPid", noiseLevel = "silent",
                                    threads = 1, maxIterations = 3000, seed = 42)
  fit <- Cyclops::fitCyclopsModel(cyclopsData = data, prior = prior, control = control,
                                  fixedCoefficients = NULL, startingCoefficients = NULL)
  folds <- rep_len(1:3, nrow(labels))
  fixedPrior <- Cyclops::createPrior(priorType = "laplace", variance = fit$variance,
                                     useCrossValidation = FALSE)
  foldLogLik <- vapply(1:3, function(i) {
    weights <- rep(1.0, Cyclops::getNumberOfRows(data))
    weights[folds == i] <- 0.0
    subset <- suppressWarnings(Cyclops::fitCyclopsModel(data, prior = fixedPrior, weights = weights))
    subset$log_likelihood
  }, 0)
  list(returnFlag = fit$return_flag, variance = fit$variance, coefficients = coef(fit),
       foldLogLik = foldLogLik, prediction = predict(fit))
}

plpCox <- function(cohort) {
  labels <- data.frame(rowId = cohort$population$rowId,
                       y = pmin(1, cohort$population$outcomeCount),
                       time = cohort$population$survivalTime)
  data <- Cyclops::convertToCyclopsData(outcomes = labels, covariates = cohort$covariates,
                                        addIntercept = FALSE, modelType = "cox", checkRowIds = FALSE,
                                        normalize = NULL, quiet = TRUE)
  prior <- Cyclops::createPrior(priorType = "laplace", variance = 0.01, exclude = c(),
                                useCrossValidation = TRUE)
  control <- Cyclops::createControl(cvType = "auto", fold = 3, startingVariance = 0.01,
                                    lowerLimit = 0.01, upperLimit = 20, tolerance = 2e-06,
                                    cvRepetitions = 1, selectorType = "byRow", noiseLevel = "silent",
                                    threads = 1, maxIterations = 3000, seed = 42)
  fit <- Cyclops::fitCyclopsModel(cyclopsData = data, prior = prior, control = control)
  baseline <- survival::survfit(fit, type = "aalen")
  list(returnFlag = fit$return_flag, variance = fit$variance, coefficients = coef(fit),
       baselineTime = baseline$time, baselineSurv = baseline$surv)
}

# EvidenceSynthesis: Cox per database (fitted and with the coefficient fixed), profiles on an
# adaptive grid, on a grid and with gradients, the normal approximation's interval; the
# pooled SCCS as a formula conditional Poisson with an offset. Each fit gets its own data
# object, as EvidenceSynthesis makes them (the incumbent's fits on one object share its
# engine's state: fixed coefficients stay fixed in later fits).
evidenceSynthesis <- function(database) {
  population <- database$cox
  coxData <- function() Cyclops::createCyclopsData(Surv(time, y) ~ x + strata(stratumId),
                                                   data = population, modelType = "cox")
  fit <- Cyclops::fitCyclopsModel(coxData(), fixedCoefficients = c(FALSE))
  fixed <- Cyclops::fitCyclopsModel(coxData(), fixedCoefficients = c(TRUE))
  bounds <- c(log(0.1), log(10))
  adaptive <- Cyclops::getCyclopsProfileLogLikelihood(fixed, "x", bounds = bounds, tolerance = 0.001)
  grid <- Cyclops::getCyclopsProfileLogLikelihood(fixed, "x", seq(bounds[1], bounds[2], length.out = 100))$value
  gradients <- Cyclops::getCyclopsProfileLogLikelihood(object = fit, parm = "x",
                                                       x = seq(bounds[1], bounds[2], length.out = 8),
                                                       returnDerivatives = TRUE)
  ci95 <- confint(fit, "x", level = 0.95)
  pooledCi <- confint(fit, 1, level = 0.95)
  sccs <- database$sccs
  formula <- stats::as.formula("y ~ a + x1 + x2 + strata(stratumId) + offset(log(time))")
  sccsFit <- Cyclops::fitCyclopsModel(Cyclops::createCyclopsData(formula, data = sccs, modelType = "cpr"))
  sccsFixed <- Cyclops::fitCyclopsModel(Cyclops::createCyclopsData(formula, data = sccs, modelType = "cpr"),
                                        fixedCoefficients = rep(TRUE, 3))
  sccsGrid <- Cyclops::getCyclopsProfileLogLikelihood(sccsFixed, "a", seq(-1, 2, length.out = 20))$value
  sccsCi <- confint(sccsFit, parm = "a", level = 0.95)
  list(logRr = unname(coef(fit)), ci = c(as.numeric(ci95[2]), as.numeric(ci95[3])),
       pooledCi = c(pooledCi[2], pooledCi[3]),
       adaptiveAt = stats::approx(adaptive$point, adaptive$value, c(-1, 0, 1))$y,
       grid = grid, gradientValue = gradients$value, gradientDerivative = gradients$derivative,
       sccs = coef(sccsFit), sccsCi = c(sccsCi[2], sccsCi[3]), sccsGrid = sccsGrid,
       sccsLogLikelihood = sccsFit$log_likelihood)
}
