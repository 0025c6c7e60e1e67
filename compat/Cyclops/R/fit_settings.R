# The incumbent's prior and control read into Argus's createPrior() and createControl(),
# every setting explicit; and the incumbent's reports of them (prior_info, variance).

# Least squares: the incumbent fits -RSS, Argus -RSS / 2, so the same penalty needs a
# Laplace variance 4 times (a normal one 2 times) the incumbent's.
lsVarianceFactor <- function(data, priorType) {
  if (data$modelType != "ls") return(rep(1, length(priorType)))
  ifelse(priorType == "laplace", 4, ifelse(priorType == "normal", 2, 1))
}

argusPrior <- function(prior, data, warnings) {
  types <- prior$priorType
  unsupported <- intersect(types, c("jeffreys", "barupdate", "hierarchical"))
  if (length(unsupported))
    refuse(sprintf("createPrior(\"%s\")", unsupported[1]),
           paste("Argus fits 'none', 'laplace' and 'normal' priors; the Jeffreys prior (which",
                 "the incumbent implements for 1 covariate, and for indicator covariates only),",
                 "BAR updates and hierarchical priors are not available"))
  if (!is.null(prior$graph) || !is.null(prior$neighborhood))
    refuse("a hierarchical or fused prior (graph, neighborhood)",
           "Argus fits separable priors only: 'none', 'laplace' and 'normal'")
  p <- getNumberOfCovariates(data)
  excluded <- covariatePositions(data, prior$exclude)
  if (types[1] != "none" && data$hasIntercept && !isTRUE(prior$forceIntercept) &&
      !1L %in% excluded) {
    excluded <- c(1L, excluded)
    if (warnings) warning("Excluding intercept from regularization")
  }
  variance <- prior$variance
  if (length(types) > 1) {
    if (length(types) != p) stop("Length of priors must equal the number of covariates")
    types[excluded] <- "none"
    variance[types == "none"] <- 1
    return(Argus::createPrior(types, variance = variance * lsVarianceFactor(data, types),
                              exclude = NULL, useCrossValidation = isTRUE(prior$useCrossValidation),
                              forceIntercept = TRUE))
  }
  Argus::createPrior(types, variance = variance * lsVarianceFactor(data, types),
                     exclude = if (length(excluded)) argusLabels(data, excluded),
                     useCrossValidation = isTRUE(prior$useCrossValidation),
                     forceIntercept = isTRUE(prior$forceIntercept))
}

# The control as Argus's createControl(), with the incumbent's automatic choices made here
# (selector type, repetitions) and its minimum amount of data for cross-validation.
argusControl <- function(control, data, prior) {
  seed <- control$seed %||% as.integer(Sys.time())
  threads <- if (control$threads == -1) max(1L, parallel::detectCores(), na.rm = TRUE)
             else control$threads
  selector <- selectorType(control$selectorType, data)
  repetitions <- control$cvRepetitions
  if (identical(repetitions, "auto"))
    repetitions <- pmax(pmin(ceiling(100 / sqrt(getNumberOfRows(data))), 10), 1)
  cv <- isTRUE(prior$useCrossValidation)
  if (cv) checkCrossValidationData(control$minCVData, selector, data)
  factor <- lsVarianceFactor(data, prior$priorType[1])
  start <- if (is.null(control$startingVariance) || control$startingVariance == -1) NULL
           else control$startingVariance * factor
  argus <- Argus::createControl(
    tolerance = control$tolerance, maxIterations = control$maxIterations,
    convergenceType = control$convergenceType, optimalityTolerance = 1e-4,
    threads = threads, seed = seed, noiseLevel = control$noiseLevel,
    initialBound = control$initialBound, device = "cpu",
    cvType = if (isFALSE(control$autoSearch)) "grid" else "auto",
    fold = control$fold, cvRepetitions = repetitions,
    lowerLimit = control$lowerLimit * factor, upperLimit = control$upperLimit * factor,
    gridSteps = control$gridSteps, selectorType = selector, startingVariance = start,
    resetCoefficients = isTRUE(control$resetCoefficients), foldStratification = "none",
    parallel = "threads")
  list(control = argus, seed = seed)
}

# "auto": rows for lr and pr; for the other models whole strata where strata are on
# average smaller than their number, else rows (the incumbent's rule).
selectorType <- function(selector, data) {
  if (!identical(selector, "auto")) return(selector)
  if (data$modelType %in% c("lr", "pr", "ls")) return("byRow")
  if (getNumberOfRows(data) / getNumberOfStrata(data) < getNumberOfStrata(data)) "byPid" else "byRow"
}

checkCrossValidationData <- function(minCVData, selector, data) {
  minCVData <- minCVData %||% 100
  units <- if (selector == "byPid") getNumberOfStrata(data) else getNumberOfRows(data)
  if (minCVData > units) stop("Insufficient data count for cross validation")
}

# The incumbent's summary of the prior: one entry per covariate for per-covariate priors,
# else the prior followed by "None" for each covariate without it (the intercept, exclude).
priorInfo <- function(prior, fit, data) {
  describe <- function(type, variance) {
    switch(type, none = "None",
           laplace = sprintf("Laplace(%s)", format(signif(sqrt(2 / variance), 6))),
           normal = sprintf("Normal(%s)", format(signif(variance, 6))))
  }
  types <- prior$priorType
  variance <- reportedVariance(prior, fit, data)
  if (length(types) > 1)
    return(paste0(paste(mapply(describe, unname(fit$priorType), incumbentVariances(fit, data)),
                        collapse = " "), " "))
  if (types == "none") return("None")
  flat <- sum(fit$priorType == "none")
  paste0(describe(types, variance[1]), " ", strrep("None ", flat))
}

# Each coefficient's prior variance on the incumbent's scale.
incumbentVariances <- function(fit, data) {
  unname(fit$priorVariance) / lsVarianceFactor(data, unname(fit$priorType))
}

# `variance` of the incumbent's fit: the chosen variance after cross-validation, else the
# variances of the penalized priors as given; none for a flat prior.
reportedVariance <- function(prior, fit, data) {
  penalized <- fit$priorType != "none"
  if (!is.null(fit$cv)) return(unique(incumbentVariances(fit, data)[penalized])[1])
  if (length(prior$priorType) > 1) return(prior$variance[prior$priorType != "none"])
  if (prior$priorType == "none") return(numeric(0))
  prior$variance
}

# "ordinate point": the best mean held-out log-likelihood and the variance that gave it.
crossValidationInfo <- function(fit) {
  curve <- fit$cv$curve
  best <- which.max(curve$mean)
  paste(curve$mean[best], fit$cv$variance)
}
