# Cumulative incidence curves of a Fine-Gray fit, F(t | z) = 1 - exp(-H0(t) exp(eta_z)) with
# H0 the fit's baseline subdistribution hazard (cmprsk::crr's bfitj), at every event time of
# the cause of interest: the numbers of cmprsk::predict.crr, as an object with a plot method.

#' Cumulative incidence curves of a Fine-Gray fit
#'
#' The predicted cumulative incidence of the event of interest,
#' \eqn{F(t | z) = 1 - \exp(-H_0(t) \exp(\eta_z))}, for the rows of \code{newdata}, at every
#' distinct event time of the fit (the times where the curves step), as
#' \code{cmprsk::predict.crr} computes it. \code{plot()} draws the step curves.
#'
#' @param fit An \code{argusFit} of modelType \code{"fgr"}.
#' @param newdata Rows to predict, in any form \code{\link{predict.argusFit}} takes (a data
#'   frame for formula fits, a matrix, a long table, an \code{argusData} object).
#'   \code{NULL}: one curve at the weighted covariate means (and mean offset) of the fitted
#'   rows (fits without strata), as \code{survfit()}'s default curve.
#' @param times The times at which to give the incidence (any order; repeats kept). Default:
#'   every distinct event time of the fit.
#' @param ... For \code{cumulativeIncidence()}: passed to \code{\link{predict.argusFit}}
#'   (e.g. \code{stratumId} for a matrix \code{newdata}). For \code{plot()}: passed to
#'   \code{\link[graphics]{matplot}}.
#' @param x An \code{argusIncidence} object.
#' @param legend Draw a legend naming the rows (when there are several)?
#' @return An object of class \code{argusIncidence}: \code{time} (the event times, or
#'   \code{times}) and
#'   \code{incidence}, a matrix with one row per time and one column per row of
#'   \code{newdata}. \code{plot()} returns \code{x} invisibly.
#' @seealso \code{\link{predict.argusFit}}, \code{\link{baselineHazard}}
#' @examples
#' set.seed(1)
#' n <- 200
#' x <- matrix(rnorm(n), n, 1, dimnames = list(NULL, "a"))
#' cause <- sample(0:2, n, TRUE)
#' fit <- fitModel(createData(x = x, y = cause, time = rexp(n), modelType = "fgr"))
#' incidence <- cumulativeIncidence(fit, matrix(c(-1, 1), 2, 1, dimnames = list(c("low", "high"), "a")))
#' plot(incidence)
#' @export
cumulativeIncidence <- function(fit, newdata = NULL, times = NULL, ...) {
  checkFitForInference(fit, "cumulativeIncidence()")
  if (fit$modelType != "fgr")
    stopf("cumulativeIncidence() is for modelType 'fgr'%s", if (fit$modelType == "cox")
      "; use survival::survfit() or predict(type = \"survival\") for 'cox'" else "")
  times <- if (is.null(times)) sort(unique(baselineHazard(fit)$time))
           else checkNumericVector(times, "times", allowNull = FALSE)
  if (length(times) == 0) stopf("'times' must hold at least one time")
  incidence <- if (is.null(newdata)) {
    if (fit$data$nStrata > 1) stopf("a stratified fit needs 'newdata' with each row's stratum")
    rejectDots("cumulativeIncidence()", ...)
    rows <- fitRows(fit)
    columns <- estimatedColumns(fit)
    # at the weighted mean offset too, as survfit()'s default curve (offset 0 was another curve)
    means <- newCovariates(fit, NULL, designColumns(fit$data, columns), rows$weights,
                           referenceOffset = referenceOffset(fit, rows))
    matrix(-expm1(-baselineAt(fit, times)[1, ] * exp(means$link)), ncol = 1,
           dimnames = list(NULL, "mean"))
  } else {
    t(predict(fit, newdata, type = "cumulativeIncidence", times = times, ...))
  }
  rownames(incidence) <- NULL
  if (is.null(colnames(incidence))) colnames(incidence) <- as.character(seq_len(ncol(incidence)))
  structure(list(time = times, incidence = incidence), class = "argusIncidence")
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
  print(shown, digits = 4)
  invisible(x)
}

#' @rdname cumulativeIncidence
#' @method plot argusIncidence
#' @export
plot.argusIncidence <- function(x, legend = ncol(x$incidence) > 1, ...) {
  checkFlag(legend, "legend")
  n <- ncol(x$incidence)
  o <- order(x$time)  # times given in any order step in time order
  time <- c(min(0, x$time), x$time[o])  # from 0, or from the first time where times are negative
  graphics::matplot(time, rbind(0, x$incidence[o, , drop = FALSE]), type = "s", lty = 1, col = seq_len(n),
                    xlab = "time", ylab = "cumulative incidence", ylim = c(0, max(x$incidence, 0.01)),
                    main = "Cumulative incidence (Fine-Gray)", ...)
  if (legend)
    graphics::legend("topleft", legend = colnames(x$incidence) %||% seq_len(n), col = seq_len(n),
                     lty = 1, bty = "n")
  invisible(x)
}
