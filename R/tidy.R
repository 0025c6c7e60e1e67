# tidy(), glance() and augment() (the generics package's generics, which broom re-exports) for
# fits and bootstrap results, with broom's column names; confint() of a bootstrap.

#' Tidy, glance and augment a fit
#'
#' Methods for the \pkg{generics} (and \pkg{broom}) generics. \code{tidy()} gives one row
#' per coefficient with broom's column names (\code{term}, \code{estimate},
#' \code{std.error}, \code{statistic}, \code{p.value}, and with \code{conf.int = TRUE}
#' \code{conf.low}, \code{conf.high}), plus the coefficient's \code{prior} and the
#' \code{interval} kind: the numbers of \code{\link{summary.argusFit}}, where standard
#' errors, intervals and p-values are given only where they are defined (no p-value for a
#' penalized coefficient, nothing for a coefficient selected by a Laplace prior).
#' \code{glance()} gives one row about the fit; \code{augment()} adds fitted values and
#' residuals to the rows of the data.
#'
#' @param x An \code{argusFit} from \code{\link{fitModel}}.
#' @param conf.int Add confidence intervals?
#' @param conf.level Their level.
#' @param conf.method \code{"wald"} (from the standard errors) or \code{"profile"}
#'   (profile likelihood, \code{\link{confint.argusFit}}, for the unpenalized coefficients
#'   that have a standard error; penalized ones keep their normal-posterior interval).
#'   \code{NULL} (default): \code{confint()}'s default method for the model, as broom's
#'   tidiers call \code{confint()} (the profile for \code{"lr"}, \code{"pr"},
#'   \code{"cpr"} and \code{"sccs"}, as \code{confint.glm}; Wald otherwise), or Wald
#'   where \code{type} or \code{cluster} names a variance.
#' @param exponentiate Exponentiate estimates and limits (odds ratios, rate or hazard
#'   ratios)? Standard errors stay on the linear-predictor scale.
#' @param type,cluster The variance, as in \code{\link{summary.argusFit}}.
#' @param data For \code{augment()}: the data frame the fit was made from (its rows in any
#'   order: matched to the fit's rows by row name for a formula fit, by its \code{rowId}
#'   column for long tables; a matrix fit's rows, and rows that R numbered 1..n, are taken
#'   in the order given); its columns are kept. \code{NULL}: one row per row identifier.
#' @param newdata For \code{augment()}: new data for \code{\link{predict.argusFit}}
#'   (no residuals).
#' @param type.predict,type.residuals Scales of \code{.fitted}
#'   (\code{\link{predict.argusFit}}'s \code{type}) and \code{.resid}
#'   (\code{\link{residuals.argusFit}}'s \code{type}; default as \code{residuals()}).
#' @param ... Not used: an argument given here is an error.
#' @return A tibble when the \pkg{tibble} package is installed, otherwise a data frame.
#'   \code{glance()}: \code{modelType}, \code{status}, \code{nobs}, \code{logLik},
#'   \code{AIC} and \code{BIC} (flat prior only: a penalized fit has no honest count of
#'   parameters), \code{df} (\code{logLik()}'s: the estimated nonzero coefficients, and for
#'   \code{"ls"} the residual variance, as \code{logLik.lm}; \code{NA} when penalized),
#'   \code{nonzero},
#'   \code{prior}, \code{variance} (the prior variance, chosen by cross-validation or
#'   given; \code{NA} with a flat prior), \code{iterations} (exact CCD cycles),
#'   \code{majorizedSteps} (the proximal Newton steps before them, \code{majorizedStart} in
#'   \code{\link{createControl}}: survival models, and on a device with
#'   \code{majorizedStart = "always"} the GLMs and conditional models too; a fit that these
#'   certified has 0 iterations), \code{optimality} and \code{device} (where the fit
#'   ran: \code{fit$device}).
#'   \code{augment()}: \code{.rowId} (the row identifier; for formula fits the data
#'   frame's row name), the columns of \code{data}, \code{.fitted} and \code{.resid}.
#' @seealso \code{\link{summary.argusFit}}, \code{\link{tidy.argusBootstrap}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300), 100, 3, dimnames = list(NULL, c("a", "b", "c")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' tidy(fit, conf.int = TRUE)
#' tidy(fit, conf.int = TRUE, exponentiate = TRUE, type = "robust")
#' glance(fit)
#' head(augment(fit))
#' @name tidy.argusFit
#' @method tidy argusFit
#' @export
tidy.argusFit <- function(x, conf.int = FALSE, conf.level = 0.95,
                          conf.method = NULL, exponentiate = FALSE,
                          type = NULL, cluster = NULL, ...) {
  rejectDots("tidy()", ...)
  checkFlag(conf.int, "conf.int")
  checkFlag(exponentiate, "exponentiate")
  if (!is.null(conf.method)) conf.method <- match.arg(conf.method, c("wald", "profile"))
  table <- coefficientTable(x, conf.level, type, cluster)
  out <- data.frame(term = table$covariate, estimate = table$estimate,
                    std.error = table$std.error, statistic = table$statistic,
                    p.value = table$p.value, stringsAsFactors = FALSE)
  interval <- table$interval
  if (conf.int) {
    out$conf.low <- table$lower
    out$conf.high <- table$upper
    # confint()'s default method (broom's tidy.glm and tidy.coxph call confint()); a profile
    # covers the unpenalized coefficients with a standard error, the others keep theirs
    if ((conf.method %||% if (is.null(type) && is.null(cluster)) defaultIntervalMethod(x) else "wald") == "profile") {
      at <- which(is.finite(table$std.error) & table$prior == "none")
      if (length(at)) {
        # by name: numbers are covariate ids for data from long tables
        limits <- confint(x, names(x$coefficients)[at], level = conf.level, method = "profile")
        out$conf.low[at] <- limits[, 1]
        out$conf.high[at] <- limits[, 2]
        interval[at] <- "profile"
      }
    }
  }
  out$interval <- interval
  out$prior <- table$prior
  asTibble(if (exponentiate) exponentiated(out, conf.int) else out)
}

#' @rdname tidy.argusFit
#' @method glance argusFit
#' @export
glance.argusFit <- function(x, ...) {
  rejectDots("glance()", ...)
  ll <- logLik(x)
  flat <- all(x$priorType == "none")
  penalized <- x$priorType != "none"
  asTibble(data.frame(
    modelType = x$modelType, status = x$status, nobs = nobs(x), logLik = as.numeric(ll),
    AIC = if (flat) stats::AIC(ll) else NA_real_, BIC = if (flat) stats::BIC(ll) else NA_real_,
    df = attr(ll, "df"), nonzero = sum(x$coefficients != 0, na.rm = TRUE),
    prior = describePrior(x),
    variance = if (any(penalized)) columnVariances(x)[penalized][1] else NA_real_,
    iterations = x$iterations, majorizedSteps = x$majorizedSteps %||% 0L,
    optimality = x$optimality %||% NA_real_, device = x$device %||% NA_character_,
    stringsAsFactors = FALSE))
}

#' @rdname tidy.argusFit
#' @method augment argusFit
#' @export
augment.argusFit <- function(x, data = NULL, newdata = NULL, type.predict = "link",
                             type.residuals = NULL, ...) {
  rejectDots("augment()", ...)
  if (type.predict %in% c("survival", "cumulativeIncidence"))
    stopf(paste("augment() gives one .fitted value per row; type.predict = \"%s\" gives a curve",
                "per row: use predict(fit, type = \"%s\", times = ) or survfit()"), type.predict, type.predict)
  if (!is.null(newdata)) {
    fitted <- predict(x, newdata, type = type.predict)
    base <- if (is.data.frame(newdata) && !all(c("rowId", "covariateId") %in% names(newdata)))
      newdata else data.frame(.rowId = names(fitted), stringsAsFactors = FALSE)
    base$.fitted <- unname(fitted)
    return(asTibble(base))
  }
  fitted <- predict(x, type = type.predict)
  rowIds <- names(fitted)
  base <- data.frame(.rowId = rowIds, stringsAsFactors = FALSE)
  if (!is.null(data)) {
    if (!is.data.frame(data)) stopf("'data' must be the data frame the fit was made from")
    data <- as.data.frame(data)
    omitted <- length(x$data$naAction)
    # The fit's rows by their labels: a formula fit's by the data's row names, a long-table
    # fit's by the rowId column (bound by position, a shuffled data frame put one car's mpg
    # beside another's fitted value); a matrix fit's ids are made up, so its rows go by
    # position. na.omit left rows out: the fitted ones are picked the same way.
    byRowId <- is.null(x$data$formulaTerms) && isTRUE(x$data$rowIdsGiven) && "rowId" %in% names(data)
    byName <- !is.null(x$data$formulaTerms)
    keys <- if (byRowId) data$rowId else if (byName) rownames(data)
    at <- if (byRowId) matchIds(x$data$rowIds, keys) else if (byName) match(rowIds, keys)
    labelled <- byRowId || (byName && .row_names_info(data) > 0)  # not 1..n made up by R
    if (!is.null(at) && !anyNA(at) && !anyDuplicated(keys) &&
        (nrow(data) == length(rowIds) || (omitted > 0 && nrow(data) == length(rowIds) + omitted)))
      data <- data[at, , drop = FALSE]
    if (nrow(data) != length(rowIds))
      stopf("'data' has %d rows, but the fit has %d%s: give the data frame the fit was made from",
            nrow(data), length(rowIds),
            if (omitted > 0) sprintf(" (its na.action left out %d)", omitted) else "")
    if (labelled && anyNA(at))
      stopf("'data' does not hold the fit's row %s (by its %s): give the data frame the fit was made from",
            rowIds[is.na(at)][1], if (byRowId) "rowId column" else "row names")
    base <- cbind(base, data)
  }
  base$.fitted <- unname(fitted)
  if (x$modelType %in% c("lr", "pr", "ls", "cox"))
    base$.resid <- unname(residuals(x, type = type.residuals %||%
                                      (if (x$modelType == "cox") "martingale" else "deviance")))
  asTibble(base)
}

#' Tidy, glance and confidence intervals of a bootstrap
#'
#' \code{tidy()} gives one row per coefficient: \code{term}, the fit's \code{estimate},
#' \code{std.error} (the standard deviation of the replicates), \code{bias}, \code{conf.low}
#' and \code{conf.high} (the percentile interval at \code{conf.level}) and \code{nonzero}
#' (the share of replicates in which the coefficient is not 0). \code{glance()} gives the
#' number of replicates, of usable ones (those the summary uses: not ill-conditioned, every
#' estimate a number or NA where not estimable; replicates without a finite maximum-likelihood estimate are
#' among them, at the values where their fit stopped, see \code{\link{runBootstrap}}), of
#' those that did not converge or had no finite estimate, the level, sampling unit and time.
#' \code{confint()} gives the percentile interval (the replicates' quantiles, type 7 of
#' \code{\link[stats]{quantile}}) or the normal one (estimate plus or minus
#' \code{qnorm((1 + level) / 2)} bootstrap standard errors).
#'
#' @param x,object An \code{argusBootstrap} from \code{\link{runBootstrap}}.
#' @param conf.int Add the intervals?
#' @param conf.level,level Their level; by default the bootstrap's own.
#' @param exponentiate Exponentiate estimates and limits?
#' @param parm Coefficients (names or positions); default all.
#' @param type \code{"percentile"} or \code{"normal"}.
#' @param ... Not used: an argument given here is an error.
#' @return \code{tidy()}, \code{glance()}: a tibble (or data frame without \pkg{tibble}).
#'   \code{confint()}: a matrix with one row per coefficient and the limits labelled in
#'   percent. Aliased coefficients (not estimable) have \code{NA}.
#' @seealso \code{\link{runBootstrap}}, \code{\link{plot.argusBootstrap}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(400), 200, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(200, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' boot <- runBootstrap(fit, replicates = 50, seed = 1)
#' tidy(boot)
#' glance(boot)
#' confint(boot, level = 0.9)
#' @name tidy.argusBootstrap
#' @method tidy argusBootstrap
#' @export
tidy.argusBootstrap <- function(x, conf.int = TRUE, conf.level = x$level, exponentiate = FALSE, ...) {
  rejectDots("tidy()", ...)
  checkFlag(conf.int, "conf.int")
  checkFlag(exponentiate, "exponentiate")
  s <- x$summary
  out <- data.frame(term = s$covariate, estimate = s$estimate, std.error = s$se, bias = s$bias,
                    stringsAsFactors = FALSE)
  if (conf.int) {
    limits <- confint(x, level = conf.level)
    out$conf.low <- unname(limits[, 1])
    out$conf.high <- unname(limits[, 2])
  }
  out$nonzero <- s$nonzero
  asTibble(if (exponentiate) exponentiated(out, conf.int) else out)
}

#' @rdname tidy.argusBootstrap
#' @method glance argusBootstrap
#' @export
glance.argusBootstrap <- function(x, ...) {
  rejectDots("glance()", ...)
  asTibble(data.frame(
    replicates = x$replicates, usable = sum(usableReplicates(x)),
    notConverged = sum(x$status %in% c("MAX_ITERATIONS", "ILLCONDITIONED")),
    noFiniteEstimate = sum(x$status == "NO_FINITE_MLE"), level = x$level,
    selectorType = x$selectorType, seconds = x$seconds %||% NA_real_, stringsAsFactors = FALSE))
}

#' @rdname tidy.argusBootstrap
#' @method confint argusBootstrap
#' @export
confint.argusBootstrap <- function(object, parm, level = object$level,
                                   type = c("percentile", "normal"), ...) {
  rejectDots("confint()", ...)
  type <- match.arg(type)
  checkLevel(level)
  labels <- colnames(object$estimates)
  columns <- if (missing(parm)) seq_along(labels) else if (is.character(parm)) {
    at <- match(parm, labels)
    if (anyNA(at)) stopf("'parm' names unknown coefficient(s): %s", paste(parm[is.na(at)], collapse = ", "))
    at
  } else {
    if (!is.numeric(parm) || any(parm < 1 | parm > length(labels) | parm != round(parm)))
      stopf("'parm' must name coefficients or give positions between 1 and %d", length(labels))
    as.integer(parm)
  }
  kept <- object$estimates[usableReplicates(object), columns, drop = FALSE]
  a <- (1 - level) / 2
  # each coefficient over the replicates that could estimate it (NA where one could not)
  spread <- vapply(seq_len(ncol(kept)), function(j) replicateSpread(kept[, j], c(a, 1 - a)), numeric(6))
  limits <- if (type == "percentile") {
    t(spread[3:4, , drop = FALSE])
  } else {
    est <- object$summary$estimate[columns]
    cbind(est - stats::qnorm(1 - a) * spread[2, ], est + stats::qnorm(1 - a) * spread[2, ])
  }
  limits[is.na(object$summary$se[columns]), ] <- NA  # aliased or fixed: held throughout
  dimnames(limits) <- list(labels[columns],
                           paste(format(100 * c(a, 1 - a), trim = TRUE, scientific = FALSE,
                                        digits = 3), "%"))
  limits
}

# The replicates the bootstrap summary uses (usableRows() in R/bootstrap.R).
usableReplicates <- function(boot) usableRows(boot$status, boot$estimates)

# broom's tidiers return tibbles; without the tibble package a data frame does.
asTibble <- function(df) {
  rownames(df) <- NULL
  if (requireNamespace("tibble", quietly = TRUE)) tibble::as_tibble(df) else df
}

# A tidy table's estimates (and interval limits) on the exp scale: hazard or odds ratios.
exponentiated <- function(out, conf.int) {
  out$estimate <- exp(out$estimate)
  if (conf.int) {
    out$conf.low <- exp(out$conf.low)
    out$conf.high <- exp(out$conf.high)
  }
  out
}
