# Profile likelihood of a Cyclops fit: confint() and getCyclopsProfileLogLikelihood(), by
# Argus's confint(method = "profile") and profileLogLikelihood(), in the incumbent's shapes.

#' Profile-likelihood confidence intervals of a Cyclops fit
#'
#' The limits where the profile of the objective (the other coefficients refitted) has
#' dropped by `qchisq(level, 1) / 2`, computed by Argus. As the incumbent: a matrix with
#' columns `covariate` (the covariate id), the two limits (`"2.5 %"`, `"97.5 %"`) and
#' `evaluations` (`NA`: Argus does not report its count of refits), one row per covariate
#' named by coefficient; penalized coefficients are refused unless
#' `overrideNoRegularization`; fixed coefficients are refused. A limit that does not exist
#' (a coefficient running off to infinity on that side) is `NA`.
#'
#' @param object A `cyclopsFit`.
#' @param parm Covariate ids or names.
#' @param level Confidence level.
#' @param overrideNoRegularization Allow intervals of penalized coefficients.
#' @param includePenalty Count the prior in the profiled objective.
#' @param rescale Undo the data's normalization.
#' @param maximumCurvature The incumbent's (not used: Argus reports a flat profile itself).
#' @param ... Not used.
#' @return A matrix (see Description).
#' @examples
#' d <- createCyclopsData(case ~ spontaneous + induced + strata(stratum), data = infert,
#'                        modelType = "clr")
#' confint(fitCyclopsModel(d), c("spontaneous", "induced"))
#' @method confint cyclopsFit
#' @export
confint.cyclopsFit <- function(object, parm, level = 0.95, overrideNoRegularization = FALSE,
                               includePenalty = TRUE, rescale = FALSE, maximumCurvature = -1e-3,
                               ...) {
  fit <- argusFitOf(object)
  data <- object$cyclopsData
  at <- covariatePositions(data, parm)
  if (level < 0.01 || level > 0.99) stop("level must be between 0 and 1")
  if (!is.null(object$fixedCoefficients) && any(object$fixedCoefficients[at]))
    stop("Cannot estimate confidence interval for a fixed coefficient")
  penalized <- fit$priorType[at] != "none"
  if (any(penalized) && !overrideNoRegularization)
    stopf(paste("Cannot estimate confidence interval for a regularized coefficient (%s);",
                "give overrideNoRegularization = TRUE to profile the posterior"),
          paste(object$coefficientNames[at][penalized], collapse = ", "))
  labels <- argusLabels(data, at)
  limits <- profileLimits(fit, labels, level, includePenalty, any(penalized))
  limits[!is.finite(limits)] <- NA_real_
  if (!is.null(object$scale) && rescale) limits <- limits * object$scale[at]
  a <- (1 - level) / 2
  out <- cbind(as.numeric(idText(data$ids[at])), limits, NA_real_)
  dimnames(out) <- list(object$coefficientNames[at],
                        c("covariate", paste(sprintf("%.1f", 100 * c(a, 1 - a)), "%"),
                          "evaluations"))
  out
}

# Argus's profile limits of the named coefficients (two unnamed columns).
profileLimits <- function(fit, labels, level, includePenalty, penalized) {
  arguments <- list(fit, parm = labels, level = level, method = "profile",
                    includePenalty = includePenalty)
  if (penalized) arguments$overrideNoRegularization <- TRUE
  ci <- do.call(stats::confint, arguments)
  unname(ci[labels, ncol(ci) - c(1, 0), drop = FALSE])
}

#' Profile log-likelihood of a Cyclops fit
#'
#' Evaluates the profile of the fit's objective for one coefficient at the values `x`, or on
#' an adaptive grid within `bounds` refined until linear interpolation is accurate to
#' `tolerance` (give one of the two). At each point the coefficient is held there and the
#' others are refitted (those fixed in the fit stay fixed). The value is the log-likelihood,
#' plus the log prior when `includePenalty`, on the scale of `fit$log_likelihood`.
#'
#' @param object A `cyclopsFit`.
#' @param parm One covariate id or name.
#' @param x Values of the coefficient.
#' @param bounds Lower and upper bound of the adaptive grid.
#' @param tolerance Accuracy of the adaptive grid.
#' @param initialGridSize Points of the first adaptive grid.
#' @param maxResets,optimalWarmStart The incumbent's (not used: Argus warm-starts each point).
#' @param includePenalty Count the prior.
#' @param returnDerivatives Add `derivative`: the derivative of the log-likelihood (plus the
#'   log prior's when `includePenalty`) along the coefficient at each point.
#' @return A data frame with `point`, `value` (and `derivative`), sorted by `point` (a
#'   tibble for the adaptive grid, as the incumbent's).
#' @examples
#' d <- createCyclopsData(case ~ spontaneous + induced + strata(stratum), data = infert,
#'                        modelType = "clr")
#' getCyclopsProfileLogLikelihood(fitCyclopsModel(d), "induced", x = c(0, 0.5, 1))
#' @export
getCyclopsProfileLogLikelihood <- function(object, parm, x = NULL, bounds = NULL, tolerance = 1e-3,
                                           initialGridSize = 10, maxResets = 10,
                                           includePenalty = TRUE, optimalWarmStart = TRUE,
                                           returnDerivatives = FALSE) {
  if (!xor(is.null(x), is.null(bounds))) stop("Must provide either `x` or `bounds`, but not both.")
  if (!is.null(bounds) && (length(bounds) != 2 || bounds[1] >= bounds[2]))
    stop("Must provide bounds[1] < bounds[2]")
  data <- object$cyclopsData
  at <- covariatePositions(data, parm)
  if (length(at) != 1) stop("Profile one coefficient at a time")
  fit <- profilable(argusFitOf(object), at)
  label <- argusLabels(data, at)
  profile <- as.data.frame(Argus::profileLogLikelihood(
    fit, label, x = x, bounds = bounds, tolerance = tolerance, initialGridSize = initialGridSize,
    includePenalty = includePenalty, returnDerivatives = returnDerivatives,
    maxPoints = 100000))  # the incumbent refines until the tolerance, without a cap
  # the adaptive grid keeps the estimate itself where it lies within the bounds
  estimate <- object$estimation$estimate[at]
  if (!is.null(bounds) && object$return_flag == "SUCCESS" && !argusFitOf(object)$fixed[at] &&
      estimate > bounds[1] && estimate < bounds[2])
    profile <- rbind(profile, as.data.frame(Argus::profileLogLikelihood(
      fit, label, x = estimate, includePenalty = includePenalty,
      returnDerivatives = returnDerivatives)))
  profile <- profile[order(profile$point), , drop = FALSE]
  out <- data.frame(point = profile$point,
                    value = incumbentLogLikelihood(profile$value, data, fit$weights))
  if (returnDerivatives)
    out$derivative <- profile$derivative * if (data$modelType == "ls") 2 else 1
  if (is.null(bounds)) return(out)
  # the adaptive grid's result is a tibble whose estimate point carries the coefficient's
  # name, as the incumbent's (tibble is imported, so loaded with the package as the
  # incumbent's dplyr loads it: loaded here, on the first profile, it took 0.3 s of it)
  out <- as_tibble(out)
  out$point <- stats::setNames(out$point, ifelse(out$point == estimate, object$coefficientNames[at], ""))
  out
}

# A coefficient held fixed in the fit (EvidenceSynthesis fits with every coefficient fixed,
# then profiles) is freed, the others keeping their flags, so that Argus can profile it: the
# profile at a point does not depend on where the fit left the coefficient.
profilable <- function(fit, at) {
  if (!fit$fixed[at]) return(fit)
  fixed <- fit$fixed
  fixed[at] <- FALSE
  Argus::fitModel(fit$data, prior = fixedVariancePrior(fit), control = fit$control,
                  weights = fit$weights, startingCoefficients = unname(fit$coefficients),
                  fixedCoefficients = fixed)
}

# The fit's prior at the variances it ended with (cross-validation done), per coefficient.
fixedVariancePrior <- function(fit) {
  types <- unname(fit$priorType)
  variance <- unname(fit$priorVariance)
  variance[types == "none" | !is.finite(variance)] <- 1
  Argus::createPrior(types, variance = variance, forceIntercept = TRUE)
}
