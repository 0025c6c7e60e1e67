# Cumulative incidence curves of a Fine-Gray fit, F(t | z) = 1 - exp(-H0(t) exp(eta_z)) with
# H0 the fit's baseline subdistribution hazard (cmprsk::crr's bfitj), at every event time of
# the cause of interest: the numbers of cmprsk::predict.crr, with pointwise bands
# (R/incidence_bands.R), as an object with a plot method.

#' Cumulative incidence curves of a Fine-Gray fit
#'
#' The predicted cumulative incidence of the event of interest,
#' \eqn{F(t | z) = 1 - \exp(-H_0(t) \exp(\eta_z))}, for the rows of \code{newdata}, at every
#' distinct event time of the fit (the times where the curves step), as
#' \code{cmprsk::predict.crr} computes it, with pointwise confidence bands. \code{plot()} draws
#' the step curves and their bands.
#'
#' \strong{Bands.} The standard error is that of the complementary log-log of the curve,
#' \eqn{L(t | z) = \log H_0(t) + z'\beta}, from the influence of each row on \eqn{\hat H_0(t)}
#' and \eqn{\hat\beta}: \eqn{\mathrm{Var}\, L = \sum_i \mathrm{IF}_i^2}, where the influence on
#' \eqn{\hat\beta} is the one behind \code{cmprsk::crr}'s robust \code{var} (the
#' pseudo-likelihood score and the estimated censoring distribution's share; see
#' \code{\link{vcov.argusFit}}), and the influence on \eqn{\hat H_0(t)} (a Breslow-type sum of
#' \eqn{d_k / S_0(t_k)}) counts the row's own event and risk-set terms and its effect, through
#' the Kaplan-Meier estimate \eqn{G} of the censoring distribution, on the weights
#' \eqn{G(t_k-)/G(X_j-)} of the competing rows: the linearisation that Fine and Gray (1999,
#' JASA 94:496-509) use for their variance, carried to the predicted curve. With
#' \code{conf.type = "log-log"} (the default) the interval is
#' \eqn{1 - \exp(-\exp(L \pm q\, \mathrm{se}(L)))}, \eqn{q} = \code{qnorm((1 + conf.int) / 2)},
#' which stays within [0, 1]; \code{"plain"} is \eqn{F \pm q\, \mathrm{se}(F)} cut to [0, 1],
#' with \eqn{\mathrm{se}(F) = (1 - F) H_0(t) e^{\eta} \mathrm{se}(L)} (the delta method). Before
#' the first event time the curve is 0 with standard error 0. The mean curve
#' (\code{newdata = NULL}) treats the covariate means as fixed values. The bands are
#' checked against a bootstrap of \code{cmprsk::crr} on \code{survival::mgus2} (the tests, and
#' \code{bench/incidence_bands.R} with more replicates). They are available for flat-prior
#' fits without weights, strata or a given \code{censoringSurvival} (the cases of crr's robust
#' variance); elsewhere \code{runBootstrap()} gives the coefficients' spread, and the curves
#' come without bands (\code{se.fit = TRUE} asked explicitly is then an error). Each time
#' costs O(N p), so the default of every event time is O(N p T).
#'
#' @param fit An \code{argusFit} of modelType \code{"fgr"}.
#' @param newdata Rows to predict, in any form \code{\link{predict.argusFit}} takes (a data
#'   frame for formula fits, a matrix, a long table, an \code{argusData} object).
#'   \code{NULL}: one curve at the weighted covariate means (and mean offset) of the fitted
#'   rows (fits without strata), as \code{survfit()}'s default curve.
#' @param times The times at which to give the incidence (any order; repeats kept). Default:
#'   every distinct event time of the fit.
#' @param se.fit Compute standard errors and bands? By default where they are available (see
#'   Details).
#' @param conf.int Level of the pointwise intervals.
#' @param conf.type \code{"log-log"} (default), \code{"plain"} or \code{"none"} (standard
#'   errors without intervals).
#' @param ... For \code{cumulativeIncidence()}: passed to \code{\link{predict.argusFit}}
#'   (e.g. \code{stratumId} for a matrix \code{newdata}). For \code{plot()}: graphical
#'   arguments for \code{\link[graphics]{matplot}} (\code{xlab}, \code{ylab}, \code{main},
#'   \code{col}, \code{lty}, \code{lwd}, \code{xlim}, \code{ylim}, \code{type}, ...), which
#'   replace the defaults; \code{col} and \code{lty} recycle over the curves, and a band is
#'   shaded in its curve's colour.
#' @param x An \code{argusIncidence} object.
#' @param legend Draw a legend naming the rows (when there are several)?
#' @param bands Draw the confidence bands (shaded in the curve's colour) when the object has
#'   them?
#' @return An object of class \code{argusIncidence}: \code{time} (the event times, or
#'   \code{times}),
#'   \code{incidence}, a matrix with one row per time and one column per row of
#'   \code{newdata}; with standard errors, \code{std.err} (of the incidence), \code{lower},
#'   \code{upper} (matrices alike; not with \code{conf.type = "none"}), \code{conf.int} and
#'   \code{conf.type}; \code{note} (why there are no bands, where they were not computed) and
#'   \code{timeLabel} (the time variable of a formula's \code{Surv()}, else \code{"time"}),
#'   which \code{plot()} writes on its x axis. \code{plot()} returns \code{x} invisibly.
#' @seealso \code{\link{predict.argusFit}}, \code{\link{baselineHazard}}
#' @examples
#' set.seed(1)
#' n <- 200
#' x <- matrix(rnorm(n), n, 1, dimnames = list(NULL, "a"))
#' cause <- sample(0:2, n, TRUE)
#' fit <- fitModel(createData(x = x, y = cause, time = rexp(n), modelType = "fgr"))
#' incidence <- cumulativeIncidence(fit, matrix(c(-1, 1), 2, 1, dimnames = list(c("low", "high"), "a")))
#' incidence
#' plot(incidence, xlab = "years", col = c("darkgreen", "purple"))
#' @export
cumulativeIncidence <- function(fit, newdata = NULL, times = NULL, se.fit = TRUE, conf.int = 0.95,
                                conf.type = c("log-log", "plain", "none"), ...) {
  checkFitForInference(fit, "cumulativeIncidence()")
  if (fit$modelType != "fgr")
    stopf("cumulativeIncidence() is for modelType 'fgr'%s", if (fit$modelType == "cox")
      "; use survival::survfit() or predict(type = \"survival\") for 'cox'" else "")
  checkFlag(se.fit, "se.fit")
  checkScalar(conf.int, "conf.int", lower = .Machine$double.eps, upper = 1 - .Machine$double.eps)
  conf.type <- match.arg(conf.type)
  times <- if (is.null(times)) sort(unique(baselineHazard(fit)$time))
           else checkNumericVector(times, "times", allowNull = FALSE)
  if (length(times) == 0) stopf("'times' must hold at least one time")
  unavailable <- bandsUnavailable(fit)
  if (se.fit && !is.null(unavailable) && !missing(se.fit))
    stopf("cumulativeIncidence() has no confidence bands here: %s", unavailable)
  se.fit <- se.fit && is.null(unavailable)
  labels <- estimatedNames(fit)
  if (is.null(newdata)) {
    if (fit$data$nStrata > 1) stopf("a stratified fit needs 'newdata' with each row's stratum")
    rejectDots("cumulativeIncidence()", ...)
    rows <- fitRows(fit)
    columns <- estimatedColumns(fit)
    # at the weighted mean offset too, as survfit()'s default curve (offset 0 was another curve)
    means <- newCovariates(fit, NULL, designColumns(fit$data, columns), rows$weights,
                           referenceOffset = referenceOffset(fit, rows))
    link <- means$link
    incidence <- matrix(-expm1(-baselineAt(fit, times)[1, ] * exp(link)), ncol = 1,
                        dimnames = list(NULL, "mean"))
    z <- if (se.fit) means$z[, labels, drop = FALSE]
  } else {
    incidence <- t(predict(fit, newdata, type = "cumulativeIncidence", times = times, ...))
    if (se.fit) {
      rows <- predictionRows(fit, newdata, "cumulativeIncidence", TRUE, list(...))
      link <- rows$link
      z <- as.matrix(rows$design[, labels, drop = FALSE])
    }
  }
  rownames(incidence) <- NULL
  if (is.null(colnames(incidence))) colnames(incidence) <- as.character(seq_len(ncol(incidence)))
  out <- list(time = times, incidence = incidence)
  if (se.fit) out <- c(out, incidenceBands(fit, times, z, link, incidence, conf.int, conf.type))
  out$note <- if (!is.null(unavailable)) sprintf("no confidence bands: %s", unavailable)
  out$timeLabel <- survivalTimeLabel(fit)
  structure(out, class = "argusIncidence")
}

# Why a fit's curves can have no bands (NULL: they can): the cases crr's robust variance covers.
bandsUnavailable <- function(fit) {
  if (any(fit$priorType[!fit$fixed] != "none")) return("the fit is penalized")
  if (any(fitRows(fit)$weights != 1)) return("the fit is weighted")
  if (fit$data$nStrata > 1) return("the fit has strata")
  if (!is.null(fit$data$censoringSurvival)) return("the censoring survival was given")
  NULL
}

# Standard errors of the incidence and its pointwise interval (see cumulativeIncidence()).
incidenceBands <- function(fit, times, z, link, incidence, level, type) {
  seL <- incidenceLogLogSe(fit, times, z)
  seL[, is.na(link)] <- NA_real_
  cumulative <- -log1p(-incidence)  # H0(t) exp(eta)
  before <- cumulative == 0 & !is.na(cumulative)
  se <- (1 - incidence) * cumulative * seL
  se[before] <- 0
  out <- list(std.err = se, conf.int = level, conf.type = type)
  if (type == "none") return(out)
  q <- stats::qnorm((1 + level) / 2)
  if (type == "log-log") {
    out$lower <- -expm1(-exp(log(cumulative) - q * seL))
    out$upper <- -expm1(-exp(log(cumulative) + q * seL))
  } else {
    out$lower <- pmax(incidence - q * se, 0)
    out$upper <- pmin(incidence + q * se, 1)
  }
  out$lower[before] <- 0
  out$upper[before] <- 0
  dimnames(out$lower) <- dimnames(out$upper) <- dimnames(out$std.err) <- dimnames(incidence)
  out
}

# The x axis of a survival fit's curves: the time variable of the formula's Surv() (the stop
# time of Surv(start, stop, event)), else "time".
survivalTimeLabel <- function(fit) {
  f <- fit$data$formulaTerms$formula
  lhs <- if (!is.null(f) && length(f) == 3) f[[2]]
  if (!is.call(lhs) || !deparse(lhs[[1]]) %in% c("Surv", "survival::Surv")) return("time")
  args <- as.list(lhs)[-1]
  named <- names(args) %||% rep("", length(args))
  time <- if ("time2" %in% named) args[["time2"]]
          else if ("time" %in% named) args[["time"]]
          else if (length(args) >= 3) args[[2]] else args[[1]]
  paste(deparse(time, width.cutoff = 500L), collapse = " ")
}

#' @rdname cumulativeIncidence
#' @method print argusIncidence
#' @export
print.argusIncidence <- function(x, ...) {
  rejectDots("print()", ...)
  cat(sprintf("Argus cumulative incidence: %d curve(s) at %d times\n",
              ncol(x$incidence), length(x$time)))
  at <- unique(round(stats::quantile(seq_along(x$time), c(0.25, 0.5, 0.75, 1), type = 1)))
  shown <- cbind(time = x$time[at], x$incidence[at, , drop = FALSE])
  if (!is.null(x$lower) && ncol(x$incidence) == 1)
    shown <- cbind(shown, lower = x$lower[at, 1], upper = x$upper[at, 1])
  print(shown, digits = 4)
  if (!is.null(x$lower))
    cat(sprintf("%g%% pointwise confidence bands (%s)%s\n", 100 * x$conf.int, x$conf.type,
                if (ncol(x$incidence) > 1) ": $lower, $upper" else ""))
  if (!is.null(x$note)) cat(x$note, "\n", sep = "")
  invisible(x)
}

#' @rdname cumulativeIncidence
#' @method plot argusIncidence
#' @export
plot.argusIncidence <- function(x, legend = ncol(x$incidence) > 1, bands = TRUE, ...) {
  checkFlag(legend, "legend")
  checkFlag(bands, "bands")
  n <- ncol(x$incidence)
  o <- order(x$time)  # times given in any order step in time order
  time <- c(min(0, x$time), x$time[o])  # from 0, or from the first time where times are negative
  step <- function(m) rbind(0, m[o, , drop = FALSE])
  bands <- bands && !is.null(x$lower)
  top <- max(x$incidence, if (bands) x$upper, 0.01, na.rm = TRUE)
  args <- plotArguments(list(type = "s", lty = 1, col = seq_len(n), lwd = 1,
                             xlab = x$timeLabel %||% "time", ylab = "cumulative incidence",
                             ylim = c(0, top), main = "Cumulative incidence (Fine-Gray)"), ...)
  do.call(graphics::matplot, c(list(time, step(x$incidence)), args))
  col <- rep_len(args$col, n)
  if (bands) {
    # shaded step ribbons (a band drawn as lines was lost among curves of other line types),
    # then the curves again on top
    for (j in seq_len(n)) stepRibbon(time, step(x$lower)[, j], step(x$upper)[, j], col[j])
    do.call(graphics::matlines, c(list(time, step(x$incidence)),
                                  args[intersect(names(args), c("type", "lty", "col", "lwd", "pch"))]))
    graphics::mtext(sprintf("shaded: %g%% pointwise confidence bands (%s)", 100 * x$conf.int, x$conf.type),
                    side = 3, line = 0.2, cex = 0.8)
  }
  if (legend)
    graphics::legend("topleft", legend = colnames(x$incidence) %||% seq_len(n), col = col,
                     lty = rep_len(args$lty, n), lwd = rep_len(args$lwd, n), bty = "n")
  invisible(x)
}

# A band between two step functions over `time`, shaded in a light version of `col`.
stepRibbon <- function(time, lower, upper, col) {
  keep <- !is.na(lower) & !is.na(upper)
  if (sum(keep) < 2) return(invisible())
  time <- time[keep]
  x <- c(rep(time, each = 2)[-1], max(time))
  stepped <- function(y) rep(y, each = 2)
  graphics::polygon(c(x, rev(x)), c(stepped(upper[keep]), rev(stepped(lower[keep]))),
                    col = grDevices::adjustcolor(col, alpha.f = 0.2), border = NA)
}
