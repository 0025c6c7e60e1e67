# The incumbent's settings objects: createPrior() (class cyclopsPrior) and createControl()
# (class cyclopsControl), plain lists with the incumbent's field names, since OHDSI packages
# store them as JSON and restore them by setting the class again. fitCyclopsModel() reads
# them field by field and passes every setting to Argus explicitly.

#' Create a Cyclops prior object
#'
#' `"none"`, `"laplace"` (L1, rate `sqrt(2 / variance)`) and `"normal"` (L2) priors, one for all
#' covariates or one per covariate; `exclude` names covariates (ids or names) that get no
#' prior. The intercept is excluded unless `forceIntercept`, with a warning, as in the
#' incumbent. `"jeffreys"`, `"barupdate"` and `"hierarchical"` priors, and `graph` and
#' `neighborhood`, can be written down (stored settings load) but have no Argus equivalent:
#' [fitCyclopsModel()] stops with an error that says so.
#'
#' @param priorType `"none"`, `"laplace"`, `"normal"` (or one per covariate).
#' @param variance Prior variance (one per `priorType`).
#' @param exclude Covariate ids or names without a prior.
#' @param graph,neighborhood Hierarchical and fused priors (not available).
#' @param useCrossValidation Choose the variance by cross-validation.
#' @param forceIntercept Put the prior on the intercept too.
#' @return An object of class `cyclopsPrior`.
#' @examples
#' createPrior("laplace", variance = 0.1, exclude = c(0))
#' @export
createPrior <- function(priorType, variance = 1, exclude = c(), graph = NULL,
                        neighborhood = NULL, useCrossValidation = FALSE,
                        forceIntercept = FALSE) {
  valid <- c("none", "laplace", "normal", "barupdate", "hierarchical", "jeffreys")
  stopifnot(priorType %in% valid)
  if (!is.null(exclude) && !is.character(exclude) && !is.numeric(exclude) &&
      !bit64::is.integer64(exclude))
    stop("Unable to parse excluded covariates: ", paste(exclude, collapse = ", "))
  if (length(priorType) != length(variance))
    stop("Prior types and variances have a dimensionality mismatch")
  if (all(priorType == "none") && useCrossValidation)
    stop("Cannot perform cross validation with a flat prior")
  if (any(priorType == "barupdate") && useCrossValidation)
    stop("Cannot perform cross validation with BAR updates")
  if (any(priorType == "hierarchical") && missing(graph))
    stop("Must provide a graph for a hierarchical prior")
  structure(list(priorType = priorType, variance = variance, exclude = exclude, graph = graph,
                 neighborhood = neighborhood, useCrossValidation = useCrossValidation,
                 forceIntercept = forceIntercept),
            class = "cyclopsPrior")
}

#' Create a Cyclops control object
#'
#' The incumbent's settings of the fit and of cross-validation, with its names and defaults.
#' Each is passed to the Argus engine explicitly: `maxIterations`, `tolerance`,
#' `convergenceType` (`"gradient"`, `"lange"`, `"mittal"`, `"zhang"`), `cvType`, `fold`,
#' `lowerLimit`, `upperLimit`, `gridSteps`, `cvRepetitions` (or `"auto"`: the incumbent's
#' rule, `ceiling(100 / sqrt(rows))` between 1 and 10), `minCVData`, `noiseLevel`, `threads`
#' (`-1`: all cores), `seed` (`NULL`: drawn from the clock, as the incumbent; kept in
#' `fit$seed`), `resetCoefficients`, `startingVariance` (`-1`: a data-based guess),
#' `selectorType` (`"auto"`: the incumbent's rule) and `initialBound`. The settings that tune
#' the incumbent's own search (`useKKTSwindle`, `tuneSwindle`, `maxBoundCount`, `doItAll`,
#' `syncCV`) change nothing: the optimum is the same. `algorithm = "mm"` (the incumbent's
#' majorization-minimization) is fitted by cyclic coordinate descent: the same optimum.
#'
#' @param maxIterations,tolerance,convergenceType,cvType,fold,lowerLimit,upperLimit,gridSteps,cvRepetitions,minCVData,noiseLevel,threads,seed,resetCoefficients,startingVariance,useKKTSwindle,tuneSwindle,selectorType,initialBound,maxBoundCount,algorithm,doItAll,syncCV
#'   See Details and the incumbent's documentation.
#' @return An object of class `cyclopsControl`.
#' @examples
#' createControl(cvType = "auto", fold = 10, seed = 1, startingVariance = 0.01)
#' @export
createControl <- function(maxIterations = 1000, tolerance = 1e-06, convergenceType = "gradient",
                          cvType = "auto", fold = 10, lowerLimit = 0.01, upperLimit = 20,
                          gridSteps = 10, cvRepetitions = 1, minCVData = 100,
                          noiseLevel = "silent", threads = 1, seed = NULL,
                          resetCoefficients = FALSE, startingVariance = -1,
                          useKKTSwindle = FALSE, tuneSwindle = 10, selectorType = "auto",
                          initialBound = 2, maxBoundCount = 5, algorithm = "ccd",
                          doItAll = TRUE, syncCV = FALSE) {
  stopifnot(cvType %in% c("grid", "auto"))
  stopifnot(noiseLevel %in% c("silent", "quiet", "noisy"))
  stopifnot(threads == -1 || threads >= 1)
  stopifnot(startingVariance == -1 || startingVariance > 0)
  stopifnot(selectorType %in% c("auto", "byPid", "byRow"))
  stopifnot(algorithm %in% c("ccd", "mm"))
  structure(list(maxIterations = maxIterations, tolerance = tolerance,
                 convergenceType = convergenceType, autoSearch = (cvType == "auto"),
                 fold = fold, lowerLimit = lowerLimit, upperLimit = upperLimit,
                 gridSteps = gridSteps, minCVData = minCVData, cvRepetitions = cvRepetitions,
                 noiseLevel = noiseLevel, threads = threads, seed = seed,
                 resetCoefficients = resetCoefficients, startingVariance = startingVariance,
                 useKKTSwindle = useKKTSwindle, tuneSwindle = tuneSwindle,
                 selectorType = selectorType, initialBound = initialBound,
                 maxBoundCount = maxBoundCount, algorithm = algorithm, doItAll = doItAll,
                 syncCV = syncCV),
            class = "cyclopsControl")
}

#' Settings of the incumbent without an Argus equivalent
#'
#' Non-separable (BAR, iterative hard thresholding through a `fitHook`) and parameterized
#' priors, and the incumbent's weight-based and auto-grid cross-validation searches, are not
#' available: each of these calls stops with an error that says so.
#'
#' @param ... The incumbent's arguments (not used).
#' @return Does not return.
#' @name refusedSettings
NULL

#' @rdname refusedSettings
#' @export
createNonSeparablePrior <- function(...) {
  refuse("createNonSeparablePrior() (BAR and other non-separable priors, fitHook)",
         "Argus fits separable priors only: 'none', 'laplace' and 'normal'")
}

#' @rdname refusedSettings
#' @export
createParameterizedPrior <- function(...) {
  refuse("createParameterizedPrior() (priors whose variances are functions of parameters)",
         "give per-covariate variances to createPrior() instead")
}

#' @rdname refusedSettings
#' @export
createWeightBasedSearchControl <- function(...) {
  refuse("createWeightBasedSearchControl() (the weight-based cross-validation search)",
         "use createControl(cvType = \"auto\" or \"grid\")")
}

#' @rdname refusedSettings
#' @export
createAutoGridCrossValidationControl <- function(...) {
  refuse("createAutoGridCrossValidationControl() (the auto-grid search over several variances)",
         "use createControl(cvType = \"auto\" or \"grid\")")
}
