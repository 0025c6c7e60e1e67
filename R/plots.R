# plot() methods: the cross-validation curve of a fit, a profile likelihood, and a bootstrap.
# (Survival curves are survival's plot.survfit of survfit(fit); cumulative incidences are in
# R/incidence.R.)

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
#' @param ... Passed to \code{\link[graphics]{plot}}.
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
  graphics::plot(curve$variance[ok], curve$mean[ok], log = "x", type = "b", pch = 19,
                 ylim = range(c(low[ok], high[ok]), finite = TRUE),
                 xlab = "prior variance",
                 ylab = "held-out log-likelihood (mean +/- 1 SE)",
                 main = sprintf("%d-fold cross-validation%s", cv$folds,
                                if (cv$repetitions > 1) sprintf(" x %d", cv$repetitions) else ""),
                 ...)
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
#' solves for the limits exactly).
#'
#' @param x An \code{argusProfile} from \code{\link{profileLogLikelihood}}.
#' @param level Confidence level of the marked interval.
#' @param ... Passed to \code{\link[graphics]{plot}}.
#' @return The interpolated limits (a matrix, one row per coefficient), invisibly.
#' @seealso \code{\link{confint.argusFit}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' profile <- profileLogLikelihood(fit, "a")
#' plot(profile)
#' @method plot argusProfile
#' @export
plot.argusProfile <- function(x, level = 0.95, ...) {
  checkLevel(level)
  covariates <- unique(x$covariate)
  cut <- attr(x, "maximum") - stats::qchisq(level, 1) / 2
  estimate <- attr(x, "estimate")
  limits <- matrix(NA_real_, length(covariates), 2, dimnames = list(covariates, c("lower", "upper")))
  if (length(covariates) > 1) {
    old <- graphics::par(mfrow = grDevices::n2mfrow(length(covariates)))
    on.exit(graphics::par(old))
  }
  for (name in covariates) {
    one <- x[x$covariate == name, ]
    b <- estimate[[name]]
    limits[name, ] <- c(crossing(one$point, one$value, cut, b, "lower"),
                        crossing(one$point, one$value, cut, b, "upper"))
    graphics::plot(one$point, one$value, type = "l", xlab = name, ylab = "profile log-likelihood",
                   ylim = range(c(one$value, cut), finite = TRUE),
                   main = sprintf("%s: %g%% interval %s", name, 100 * level,
                                  paste(format(limits[name, ], digits = 3, trim = TRUE), collapse = " to ")), ...)
    graphics::abline(h = cut, lty = 2, col = "grey40")
    graphics::abline(v = b, lty = 3)
    graphics::abline(v = limits[name, ], col = "red")
    graphics::segments(limits[name, 1], cut, limits[name, 2], cut, col = "red", lwd = 3)
  }
  invisible(limits)
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
#' \code{type = "interval"}: each coefficient's estimate with its bootstrap percentile
#' interval (at most \code{maxCoefficients}, those with the largest absolute estimates first).
#' \code{type = "histogram"}: the distribution of the replicate estimates of the coefficients
#' \code{parm}, with the estimate (solid) and the percentile interval (dashed).
#'
#' @param x An \code{argusBootstrap} from \code{\link{runBootstrap}}.
#' @param type \code{"interval"} or \code{"histogram"}.
#' @param parm Coefficients to draw (names); by default the ones with the largest absolute
#'   estimates, up to \code{maxCoefficients} (at most 6 histograms).
#' @param maxCoefficients Largest number of coefficients drawn.
#' @param ... Passed to \code{\link[graphics]{plot}} or \code{\link[graphics]{hist}}.
#' @return \code{x}, invisibly.
#' @seealso \code{\link{tidy.argusBootstrap}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(200, 1, plogis(x[, 1]))
#' boot <- runBootstrap(fitModel(createData(x = x, y = y, modelType = "lr")),
#'                      replicates = 100, seed = 1)
#' plot(boot)
#' plot(boot, type = "histogram", parm = "a")
#' @method plot argusBootstrap
#' @export
plot.argusBootstrap <- function(x, type = c("interval", "histogram"), parm = NULL,
                                maxCoefficients = 30, ...) {
  type <- match.arg(type)
  checkScalar(maxCoefficients, "maxCoefficients", lower = 1, integer = TRUE)
  s <- x$summary
  if (is.null(parm)) {
    ranked <- order(-abs(s$estimate), na.last = NA)
    parm <- s$covariate[utils::head(ranked, if (type == "histogram") min(6, maxCoefficients) else maxCoefficients)]
  } else if (!all(parm %in% s$covariate)) {
    stopf("'parm' names unknown coefficient(s): %s", paste(setdiff(parm, s$covariate), collapse = ", "))
  }
  rows <- s[match(parm, s$covariate), ]
  if (type == "interval") {
    k <- nrow(rows)
    # room for the coefficient names on the left
    old <- graphics::par(mar = c(5.1, max(4.1, 0.5 * max(nchar(rows$covariate)) + 1.5), 4.1, 2.1))
    on.exit(graphics::par(old))
    # fixed or aliased coefficients have no interval (NA): their estimate alone
    graphics::plot(rows$estimate, rev(seq_len(k)),
                   xlim = range(c(rows$lower, rows$upper, rows$estimate, 0), finite = TRUE),
                   yaxt = "n", pch = 19, ylab = "", xlab = "coefficient",
                   main = sprintf("Bootstrap: %d replicates, %g%% percentile intervals",
                                  x$replicates, 100 * x$level), ...)
    graphics::segments(rows$lower, rev(seq_len(k)), rows$upper, rev(seq_len(k)))
    graphics::axis(2, at = rev(seq_len(k)), labels = rows$covariate, las = 1, cex.axis = 0.8)
    graphics::abline(v = 0, lty = 3)
    return(invisible(x))
  }
  old <- graphics::par(mfrow = grDevices::n2mfrow(nrow(rows)))
  on.exit(graphics::par(old))
  for (i in seq_len(nrow(rows))) {
    values <- x$estimates[usableReplicates(x), rows$covariate[i]]
    if (!any(is.finite(values))) next
    graphics::hist(values, breaks = 20,
                   main = rows$covariate[i], xlab = "replicate estimate", ...)
    graphics::abline(v = rows$estimate[i], lwd = 2)
    graphics::abline(v = c(rows$lower[i], rows$upper[i]), lty = 2)
  }
  invisible(x)
}
