# plot() methods: the cross-validation curve of a fit, a profile likelihood, and a bootstrap.
# (Survival curves are survival's plot.survfit of survfit(fit); cumulative incidences are in
# R/incidence.R.)

# Graphical arguments: the caller's (...) replace the plot's defaults (a default passed beside
# the same argument in ... was R's "formal argument matched by multiple actual arguments").
plotArguments <- function(defaults, ...) {
  given <- list(...)
  if (length(given) && (is.null(names(given)) || any(names(given) == "")))
    stopf("graphical arguments must be named (xlab = , col = , ...)")
  utils::modifyList(defaults, given)
}

#' Plot a cross-validation curve
#'
#' Draws the mean held-out predictive log-likelihood of each candidate variance against the
#' variance on a log scale, with error bars of plus or minus one standard error (the standard
#' deviation over the folds divided by the square root of their number), marks the chosen
#' variance, and writes above the plot the number of nonzero coefficients of the fit on all
#' data at each variance (these fits are made when the plot is drawn, warm-started from the
#' fit; \code{nonzeros = FALSE} skips them).
#'
#' @param x An \code{argusFit} fitted with \code{createPrior(..., useCrossValidation = TRUE)}.
#' @param nonzeros Write the number of nonzero coefficients at each variance?
#' @param ... Graphical arguments for \code{\link[graphics]{plot}} (\code{xlab}, \code{ylab},
#'   \code{main}, \code{col}, \code{ylim}, \code{type}, ...), which replace the defaults.
#' @return \code{x}, invisibly.
#' @seealso \code{\link{fitModel}}, \code{\link{createControl}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(2000), 200, 10)
#' y <- rbinom(200, 1, plogis(x[, 1] - x[, 2]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"),
#'                 createPrior("laplace", useCrossValidation = TRUE),
#'                 createControl(fold = 5, seed = 1))
#' plot(fit)
#' @method plot argusFit
#' @export
plot.argusFit <- function(x, nonzeros = TRUE, ...) {
  cv <- x$cv
  if (is.null(cv)) stopf("this fit has no cross-validation curve (use createPrior(useCrossValidation = TRUE))")
  checkFlag(nonzeros, "nonzeros")
  curve <- cv$curve
  ok <- is.finite(curve$mean)
  se <- curve$sd / sqrt(cv$folds * cv$repetitions)
  low <- curve$mean - se
  high <- curve$mean + se
  args <- plotArguments(list(log = "x", type = "b", pch = 19,
                             ylim = range(c(low[ok], high[ok]), finite = TRUE),
                             xlab = "prior variance (log scale)",
                             ylab = "held-out log-likelihood (mean +/- 1 SE)",
                             main = sprintf("%d-fold cross-validation%s", cv$folds,
                                            if (cv$repetitions > 1) sprintf(" x %d", cv$repetitions) else "")),
                        ...)
  do.call(graphics::plot, c(list(curve$variance[ok], curve$mean[ok]), args))
  bars <- ok & se > 0
  if (any(bars))
    graphics::arrows(curve$variance[bars], low[bars], curve$variance[bars], high[bars],
                     angle = 90, code = 3, length = 0.03)
  graphics::abline(v = cv$variance, lty = 2)
  if (nonzeros && !is.null(x$data)) {
    counts <- nonzerosAlongCurve(x, curve$variance[ok])
    graphics::axis(3, at = curve$variance[ok], labels = counts, tick = FALSE, line = -0.8,
                   cex.axis = 0.7)
    graphics::mtext("nonzero coefficients:", side = 3, line = 0.9, cex = 0.7, adj = 0)
  }
  invisible(x)
}

# Nonzero coefficients of the fit on all data at each variance (penalized columns get the
# variance), from the largest variance down, each fit starting where the previous ended.
nonzerosAlongCurve <- function(fit, variances) {
  checkFitObject(fit)
  checkDataObject(fit$data, "fit$data")
  settings <- engineSettings(fit)
  penalized <- settings$priorKind != 0L
  out <- integer(length(variances))
  for (k in order(-variances)) {
    settings$variance[penalized] <- variances[k]
    result <- .Call(argus_fit, fit$data, settings)
    settings$start <- result$beta
    out[k] <- sum(result$beta != 0)
  }
  out
}

#' Plot a profile likelihood
#'
#' Draws the profile of each coefficient from \code{\link{profileLogLikelihood}}, marks the
#' estimate, the cut-off \code{qchisq(level, 1) / 2} below the value at the fit, and the
#' profile-likelihood interval where the curve crosses it (found by linear interpolation
#' between the profile's points, so as accurate as its grid: \code{\link{confint.argusFit}}
#' solves for the limits exactly). With \code{relative = TRUE} the curve is the
#' log-likelihood ratio, the profile less its value at the fit (0 at the estimate, the
#' cut-off at \code{-qchisq(level, 1) / 2}).
#'
#' The x axis names the coefficient and its scale (\code{"age: log hazard ratio"}: log odds
#' ratios for lr and clr, log rate ratios for pr and cpr, log incidence rate ratios for sccs,
#' log (subdistribution) hazard ratios for cox and fgr); a coefficient of data made from long
#' tables, named by its covariate id, reads \code{"covariate 34"} unless \code{labels} names it.
#'
#' @param x An \code{argusProfile} from \code{\link{profileLogLikelihood}}.
#' @param level Confidence level of the marked interval.
#' @param relative Draw the log-likelihood ratio (the profile less its maximum)?
#' @param labels Names to show for the coefficients: a character vector named by coefficient
#'   (or covariate id), or a data frame with columns \code{covariateId} and
#'   \code{covariateName} (an OHDSI \code{covariateRef} table). Coefficients it does not name
#'   keep their own.
#' @param ... Graphical arguments for \code{\link[graphics]{plot}} (\code{xlab}, \code{ylab},
#'   \code{main}, \code{col}, \code{lty}, \code{lwd}, \code{xlim}, \code{ylim}, \code{type},
#'   ...), which replace the defaults; with several coefficients, an \code{xlab} or
#'   \code{main} of one value per coefficient labels each panel.
#' @return The interpolated limits (a matrix, one row per coefficient), invisibly.
#' @seealso \code{\link{confint.argusFit}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' profile <- profileLogLikelihood(fit, "a")
#' plot(profile)
#' plot(profile, relative = TRUE, labels = c(a = "exposure a"), col = "blue")
#' @method plot argusProfile
#' @export
plot.argusProfile <- function(x, level = 0.95, relative = FALSE, labels = NULL, ...) {
  checkLevel(level)
  checkFlag(relative, "relative")
  covariates <- unique(x$covariate)
  shift <- if (relative) attr(x, "maximum") else 0
  cut <- attr(x, "maximum") - stats::qchisq(level, 1) / 2 - shift
  estimate <- attr(x, "estimate")
  shown <- coefficientDisplayNames(covariates, labels, isTRUE(attr(x, "namedById")))
  scale <- coefficientScale(attr(x, "modelType"), covariates)
  limits <- matrix(NA_real_, length(covariates), 2, dimnames = list(covariates, c("lower", "upper")))
  if (length(covariates) > 1) {
    old <- graphics::par(mfrow = grDevices::n2mfrow(length(covariates)))
    on.exit(graphics::par(old))
  }
  given <- list(...)
  for (k in seq_along(covariates)) {
    name <- covariates[k]
    one <- x[x$covariate == name, ]
    value <- one$value - shift
    b <- estimate[[name]]
    limits[name, ] <- c(crossing(one$point, value, cut, b, "lower"),
                        crossing(one$point, value, cut, b, "upper"))
    defaults <- list(type = "l", xlab = paste0(shown[k], ": ", scale[k]),
                     ylab = if (relative) "log-likelihood ratio" else "profile log-likelihood",
                     ylim = range(c(value, cut), finite = TRUE),
                     main = sprintf("%s: %g%% interval %s", shown[k], 100 * level,
                                    paste(format(limits[name, ], digits = 3, trim = TRUE), collapse = " to ")))
    args <- do.call(plotArguments, c(list(defaults), panelArguments(given, k, length(covariates))))
    do.call(graphics::plot, c(list(one$point, value), args))
    graphics::abline(h = cut, lty = 2, col = "grey40")
    graphics::abline(v = b, lty = 3)
    graphics::abline(v = limits[name, ], col = "red")
    graphics::segments(limits[name, 1], cut, limits[name, 2], cut, col = "red", lwd = 3)
  }
  invisible(limits)
}

# Per-panel graphical arguments: an xlab or main with one value per panel gives panel k its own.
panelArguments <- function(given, k, panels) {
  for (name in intersect(c("xlab", "main"), names(given)))
    if (panels > 1 && length(given[[name]]) == panels) given[[name]] <- given[[name]][[k]]
  given
}

# How the coefficients are shown: `labels` (a character vector named by coefficient or
# covariate id, or a covariateRef-like data frame) where it names them; a long table's bare
# covariate id as "covariate <id>" (the x axis read "34").
coefficientDisplayNames <- function(names, labels = NULL, namedById = FALSE) {
  shown <- names
  if (namedById) shown[names != "(Intercept)"] <- paste("covariate", names[names != "(Intercept)"])
  if (is.null(labels)) return(shown)
  if (is.data.frame(labels)) {
    needColumns(labels, c("covariateId", "covariateName"), "labels")
    labels <- stats::setNames(as.character(labels$covariateName), idLabel(labels$covariateId))
  }
  if (!is.character(labels) || is.null(names(labels)))
    stopf(paste("'labels' must be a character vector named by coefficient (or covariate id), or a",
                "data frame with columns covariateId and covariateName"))
  at <- match(names, names(labels))
  shown[!is.na(at)] <- labels[at[!is.na(at)]]
  shown
}

# The scale of each coefficient, by model: what one unit of the x axis is.
coefficientScale <- function(modelType, names) {
  ratio <- switch(modelType %||% "", lr = , clr = "log odds ratio", pr = , cpr = "log rate ratio",
                  sccs = "log incidence rate ratio", cox = "log hazard ratio",
                  fgr = "log subdistribution hazard ratio", "coefficient")
  intercept <- switch(modelType %||% "", lr = "log odds", pr = "log rate", "coefficient")
  ifelse(names == "(Intercept)", intercept, ratio)
}

# Where the piecewise-linear profile crosses `cut` on one side of the estimate `b` (NA when
# it stays above within the grid).
crossing <- function(point, value, cut, b, side) {
  keep <- if (side == "lower") point <= b else point >= b
  p <- point[keep]
  v <- value[keep]
  if (side == "lower") {
    p <- rev(p)
    v <- rev(v)
  }
  below <- which(v < cut)
  if (length(below) == 0 || below[1] == 1) return(NA_real_)
  k <- below[1]
  p[k - 1] + (cut - v[k - 1]) * (p[k] - p[k - 1]) / (v[k] - v[k - 1])
}

#' Plot a bootstrap
#'
#' \code{type = "interval"}: each covariate's estimate with its bootstrap percentile interval
#' (at most \code{maxCoefficients}, those with the largest absolute estimates first; the
#' intercept is left out unless \code{parm} names it), and on the right, how often the
#' coefficient was selected: the percentage of replicates in which it was not 0 (the
#' \code{nonzero} column of the summary; 100\% throughout without a Laplace prior).
#' \code{type = "histogram"}: the distribution of the replicate estimates of the coefficients
#' \code{parm}, with the estimate (solid) and the percentile interval (dashed). The x axis
#' names the coefficients' scale (log odds ratio, log hazard ratio, ...), and covariates of
#' data made from long tables, named by their ids, read \code{"covariate 34"} unless
#' \code{labels} names them.
#'
#' @param x An \code{argusBootstrap} from \code{\link{runBootstrap}}.
#' @param type \code{"interval"} or \code{"histogram"}.
#' @param parm Coefficients to draw (names); by default the covariates with the largest
#'   absolute estimates, up to \code{maxCoefficients} (at most 6 histograms).
#' @param maxCoefficients Largest number of coefficients drawn.
#' @param labels Names to show for the coefficients, as in \code{\link{plot.argusProfile}}.
#' @param ... Graphical arguments for \code{\link[graphics]{plot}} or
#'   \code{\link[graphics]{hist}} (\code{xlab}, \code{main}, \code{col}, \code{pch},
#'   \code{xlim}, \code{breaks}, ...), which replace the defaults.
#' @return \code{x}, invisibly.
#' @seealso \code{\link{tidy.argusBootstrap}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(200, 1, plogis(x[, 1]))
#' boot <- runBootstrap(fitModel(createData(x = x, y = y, modelType = "lr")),
#'                      replicates = 100, seed = 1)
#' plot(boot)
#' plot(boot, type = "histogram", parm = "a", col = "grey")
#' @method plot argusBootstrap
#' @export
plot.argusBootstrap <- function(x, type = c("interval", "histogram"), parm = NULL,
                                maxCoefficients = 30, labels = NULL, ...) {
  type <- match.arg(type)
  checkScalar(maxCoefficients, "maxCoefficients", lower = 1, integer = TRUE)
  s <- x$summary
  if (is.null(parm)) {
    covariates <- s$covariate != "(Intercept)"
    ranked <- order(-abs(s$estimate), na.last = NA)
    ranked <- ranked[covariates[ranked]]
    parm <- s$covariate[utils::head(ranked, if (type == "histogram") min(6, maxCoefficients) else maxCoefficients)]
  } else if (!all(parm %in% s$covariate)) {
    stopf("'parm' names unknown coefficient(s): %s", paste(setdiff(parm, s$covariate), collapse = ", "))
  }
  if (length(parm) == 0) stopf("the bootstrap has no covariates to draw (give 'parm' for the intercept)")
  rows <- s[match(parm, s$covariate), ]
  shown <- coefficientDisplayNames(rows$covariate, labels, isTRUE(x$namedById))
  scale <- coefficientScale(x$modelType, rows$covariate)
  if (type == "interval") return(bootstrapIntervals(x, rows, shown, scale, ...))
  old <- graphics::par(mfrow = grDevices::n2mfrow(nrow(rows)))
  on.exit(graphics::par(old))
  given <- list(...)
  for (i in seq_len(nrow(rows))) {
    values <- x$estimates[usableReplicates(x), rows$covariate[i]]
    if (!any(is.finite(values))) next
    args <- do.call(plotArguments, c(list(list(breaks = 20, main = shown[i],
                                               xlab = sprintf("replicate estimate (%s)", scale[i]))),
                                     panelArguments(given, i, nrow(rows))))
    do.call(graphics::hist, c(list(values), args))
    graphics::abline(v = rows$estimate[i], lwd = 2)
    graphics::abline(v = c(rows$lower[i], rows$upper[i]), lty = 2)
  }
  invisible(x)
}

# The forest plot of the bootstrap intervals, with the selection frequencies on the right.
bootstrapIntervals <- function(x, rows, shown, scale, ...) {
  k <- nrow(rows)
  at <- rev(seq_len(k))
  # room for the names on the left and the percentages on the right
  old <- graphics::par(mar = c(5.1, max(4.1, 0.5 * max(nchar(shown)) + 1.5), 4.1, 5.1))
  on.exit(graphics::par(old))
  args <- plotArguments(list(pch = 19, col = "black", ylab = "", yaxt = "n",
                             xlim = range(c(rows$lower, rows$upper, rows$estimate, 0), finite = TRUE),
                             ylim = c(0.5, k + 0.5),
                             xlab = paste(unique(scale), collapse = " / "),
                             main = sprintf("Bootstrap: %d replicates, %g%% percentile intervals",
                                            x$replicates, 100 * x$level)), ...)
  # fixed or aliased coefficients have no interval (NA): their estimate alone
  do.call(graphics::plot, c(list(rows$estimate, at), args))
  graphics::segments(rows$lower, at, rows$upper, at, col = args$col)
  graphics::axis(2, at = at, labels = shown, las = 1, cex.axis = 0.8)
  selected <- ifelse(is.na(rows$nonzero), "", sprintf("%.0f%%", 100 * rows$nonzero))
  graphics::axis(4, at = at, labels = selected, las = 1, cex.axis = 0.8, tick = FALSE)
  graphics::mtext("% of replicates nonzero", side = 4, line = 3.5, cex = 0.8)
  graphics::abline(v = 0, lty = 3)
  invisible(x)
}
