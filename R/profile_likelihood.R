# profileLogLikelihood(): the profile of the fit's objective over a grid of one coefficient's
# values (confint()'s profile limits are in inference.R).

#' Profile log-likelihood
#'
#' Evaluates the profile of the fit's objective for one or more coefficients: at each value
#' `b`, the coefficient is held at `b` and the others are refitted (warm-started from the
#' fit); the value is the log-likelihood there, plus the log prior when `includePenalty`.
#' (With `includePenalty = FALSE` and penalized other coefficients, the profile need not peak
#' at the estimate.)
#'
#' With `x`, the profile is evaluated at those values. Otherwise on an adaptive grid within
#' `bounds`: `initialGridSize` equally spaced points, then the midpoint of every interval
#' whose midpoint value differs from the straight line between its ends by more than
#' `tolerance` (so the piecewise-linear curve through the points is accurate to about
#' `tolerance`), repeatedly, up to `maxPoints` points. Without `bounds`, the estimate plus or
#' minus four Wald standard errors. Grid points are evaluated in parallel on the fit's
#' `createControl(threads = )` threads. In an interactive session a line reports the
#' progress over the coefficients ([argusProgress]).
#'
#' @param fit An `argusFit`.
#' @param parm Coefficients, as in [confint.argusFit()].
#' @param x Values at which to evaluate the profile (one set for all of `parm`).
#' @param bounds Lower and upper bound of the adaptive grid.
#' @param tolerance Absolute accuracy of the adaptive grid's linear interpolation.
#' @param initialGridSize Number of points of the first grid.
#' @param includePenalty Count the prior in the profiled objective.
#' @param maxPoints Largest number of points per coefficient of the adaptive grid; the memory
#'   they need must be available, as for [createControl()]'s `cvRepetitions`.
#' @param ... Only the incumbent's `maxResets` and `optimalWarmStart`, which change nothing
#'   here (for ported code). Any other argument is an error.
#' @param returnDerivatives Add a column `derivative`, as the incumbent does: at each point,
#'   the partial derivative of the log-likelihood along the coefficient at the refit (plus
#'   that of its log prior when `includePenalty`; then it is the slope of the profile).
#' @return A data frame with columns `covariate`, `point` and `value` (and `derivative`),
#'   sorted by coefficient and point, of class `argusProfile` (attributes `estimate`,
#'   `maximum`, the objective at the fit, `modelType` and `namedById`, whether the
#'   coefficients are named by covariate id), which [plot.argusProfile()] draws.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' head(profileLogLikelihood(fit, "a", bounds = c(0, 2)))
#' @export
profileLogLikelihood <- function(fit, parm, x = NULL, bounds = NULL, tolerance = 1e-3,
                                 initialGridSize = 10, includePenalty = TRUE, maxPoints = 500,
                                 returnDerivatives = FALSE, ...) {
  cyclopsProfileArguments(...)
  checkFitForInference(fit, "profileLogLikelihood()")
  columns <- parmColumns(fit, parm)
  aliased <- aliasedFlags(fit)[columns]
  if (any(aliased))
    stopf("coefficient(s) %s could not be estimated (aliased: see the fit's warning) and have no profile",
          paste(names(fit$coefficients)[columns][aliased], collapse = ", "))
  if (any(fit$fixed[columns])) stopf("fixed coefficients have no profile")
  checkScalar(tolerance, "tolerance", lower = .Machine$double.xmin)
  checkScalar(initialGridSize, "initialGridSize", lower = 2, integer = TRUE)
  checkScalar(maxPoints, "maxPoints", lower = initialGridSize, integer = TRUE)
  checkFlag(includePenalty, "includePenalty")
  checkFlag(returnDerivatives, "returnDerivatives")
  if (!is.null(x)) {
    x <- checkNumericVector(x, "x")
    if (length(x) == 0) stopf("'x' is empty: give the values at which to evaluate the profile")
  }
  if (!is.null(bounds)) {
    bounds <- checkNumericVector(bounds, "bounds", 2)
    if (bounds[1] >= bounds[2]) stopf("'bounds' must be increasing")
  }
  # per point: the engine's value and flag, the data frame's columns and their orderings
  points <- if (is.null(x)) maxPoints else length(unique(x))
  checkMemory(96 * as.double(points) * length(columns),
              sprintf("profileLogLikelihood() with %s points for %d coefficient(s)",
                      format(points, big.mark = ","), length(columns)))
  progress <- progressLine("profile", length(columns))
  on.exit(progress$done())
  pieces <- lapply(seq_along(columns), function(k) {
    column <- columns[k]
    on.exit(progress$tick(k, names(fit$coefficients)[column]))
    grid <- if (!is.null(x)) profileAt(fit, column, sort(unique(x)), includePenalty, returnDerivatives)
            else adaptiveProfile(fit, column, bounds %||% defaultBounds(fit, column), tolerance,
                                 initialGridSize, maxPoints, includePenalty, returnDerivatives)
    out <- data.frame(covariate = names(fit$coefficients)[column], point = grid$points,
                      value = grid$values, stringsAsFactors = FALSE)
    if (returnDerivatives) out$derivative <- grid$derivatives
    out
  })
  # plot() marks the estimate and the interval: it needs the value at the fit
  structure(do.call(rbind, pieces), class = c("argusProfile", "data.frame"),
            estimate = fit$coefficients[columns],
            maximum = fit$logLikelihood + if (includePenalty) fit$logPrior else 0,
            modelType = fit$modelType, namedById = !is.null(fit$covariateIds))  # for plot()'s axes
}

# The settings of a profile's refits: the fit's, with one coefficient per direction in which
# the likelihood keeps rising (status NO_FINITE_MLE: `fit$pinned`, the engine's pins of
# solver/recession.h) held where the fit left them, unless `ofInfinite` (their own profile).
# Refitted free, they drift on towards infinity and stop wherever the recession is detected,
# so each refit's value fell short of the profile's supremum by another amount: a Cox age
# interval beside a separated indicator came out (-0.0004, 0.0383) against the limiting
# likelihood's (0.0070, 0.0449). Held at the fit's value (30.7 there), their share of the
# likelihood is within exp(-30) of its limit. Only the pins: holding every infinite
# coefficient froze their finite combinations too (a Poisson rate table whose reference age
# has no events: intercept and age levels all infinite, their sums the other ages' rates; the
# exposure's interval came out (0.187, 0.767) against the limiting data's (0.132, 0.836)).
profileSettings <- function(fit, ofInfinite = FALSE) {
  settings <- engineSettings(fit)
  pinned <- names(fit$coefficients) %in% (fit$pinned %||% fit$infinite)
  if (!ofInfinite && any(pinned)) {
    fixed <- settings$fixed %||% rep(FALSE, length(pinned))
    settings["fixed"] <- list(fixed | pinned)
  }
  settings
}

infiniteFlags <- function(fit) names(fit$coefficients) %in% fit$infinite

# The profile at `points`: list(points, values, derivatives). The derivatives (the partial
# derivative along the coefficient at each refit, plus the log prior's with includePenalty:
# the incumbent's returnDerivatives) come from the same refits as the values.
profileAt <- function(fit, column, points, includePenalty, derivatives = FALSE) {
  out <- .Call(argus_profile_values, fit$data, profileSettings(fit, infiniteFlags(fit)[column]),
               as.integer(column - 1L), as.double(points), includePenalty,
               as.integer(fit$control$threads), derivatives)
  warnUnconverged(out$converged, names(fit$coefficients)[column])
  list(points = points, values = out$value, derivatives = if (derivatives) out$derivative)
}

warnUnconverged <- function(converged, label) {
  if (!all(converged))
    warning(sprintf("%d profile refit(s) for '%s' ended without convergence", sum(!converged),
                    label), call. = FALSE)
}

defaultBounds <- function(fit, column) {
  se <- sqrt(diag(suppressWarnings(coefficientVcov(fit, "model"))))[names(fit$coefficients)[column]]
  if (!is.finite(se) || se <= 0)
    stopf("no standard error for '%s' to set default bounds; give 'bounds'",
          names(fit$coefficients)[column])
  fit$coefficients[[column]] + c(-4, 4) * se
}

# Adaptive grid: refine, by midpoints, the intervals where the linear interpolation misses
# the midpoint's value by more than `tolerance` (a failed refit closes its interval). An
# interval whose midpoint passes is done (the error of a smooth curve shrinks four-fold with
# each halving). The engine runs every round in one call (adaptiveProfile(),
# src/engine/solver/profile.h), each round's midpoints in parallel, its refits sharing their
# set-up; the first grid is R's seq().
adaptiveProfile <- function(fit, column, bounds, tolerance, initialGridSize, maxPoints,
                            includePenalty, derivatives = FALSE) {
  initial <- seq(bounds[1], bounds[2], length.out = initialGridSize)
  if (any(diff(initial) <= 0))
    stopf(paste("bounds %s and %s are too close for an initial grid of %d distinct points",
                "(doubles between them): widen 'bounds' or lower 'initialGridSize'"),
          format(bounds[1], digits = 17), format(bounds[2], digits = 17), initialGridSize)
  grid <- list(initial = initial, tolerance = as.double(tolerance),
               maxPoints = as.integer(min(maxPoints, .Machine$integer.max)),
               includePenalty = includePenalty, threads = as.integer(fit$control$threads),
               withDerivative = derivatives)
  out <- .Call(argus_profile_adaptive, fit$data, profileSettings(fit, infiniteFlags(fit)[column]),
               as.integer(column - 1L), grid)
  warnUnconverged(out$converged, names(fit$coefficients)[column])
  if (!out$complete)
    warning(sprintf("the adaptive profile of '%s' reached maxPoints = %d before the tolerance",
                    names(fit$coefficients)[column], maxPoints), call. = FALSE)
  list(points = out$point, values = out$value, derivatives = if (derivatives) out$derivative)
}
