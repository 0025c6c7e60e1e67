# summary() of a fit: the fit's facts and a coefficient table with standard errors,
# intervals (their kind stated per row) and p-values where they are defined. tidy() (R/tidy.R)
# returns the same table with broom's column names.

#' Summarize a fit
#'
#' The fit's status, likelihood and prior, and a coefficient table. What the table can say
#' depends on each coefficient's prior:
#' \describe{
#'   \item{no prior (unpenalized)}{a standard error from \code{\link{vcov.argusFit}} (by
#'     default the variance R's reference reports: the robust one with a \code{cluster()}
#'     term, for Cox with weights that are not whole numbers, as \code{coxph}, and for
#'     Fine-Gray, as \code{cmprsk::crr}; the model-based one otherwise), a Wald
#'     interval and a two-sided Wald p-value. For \code{"ls"} the model-based covariance is
#'     at the residual variance \eqn{\sum w e^2 / (n - p)} (as \code{vcov()}), and the
#'     p-value and interval use the t distribution with \eqn{n - p} degrees of freedom, as
#'     \code{summary.lm} does (with the robust covariance too, as
#'     \code{lmtest::coeftest(lm_fit, vcov = sandwich::vcovHC)}).}
#'   \item{normal prior}{the standard deviation and central interval of the normal
#'     approximation to the posterior (no p-value: the estimate is shrunk towards 0).}
#'   \item{Laplace prior}{no standard error, interval or p-value: the coefficient was selected
#'     by the penalty, and intervals that ignore the selection are not honest. Use
#'     \code{\link{runBootstrap}} or \code{\link{confint.argusFit}}'s profile.}
#' }
#' Fixed and aliased coefficients have none either. With non-integer weights the model-based
#' intervals treat the weights as frequencies and are too narrow for inverse probability
#' weights: where the model-based variance is used there (asked for, or the default of a
#' GLM, as \code{glm}'s) a warning says so, and \code{type = "robust"} gives the sandwich
#' intervals. \code{print()} names the variance and why it is the default, the tie method
#' of Cox and conditional logistic fits, the rows dropped for missing values and the
#' device the fit ran on.
#'
#' @param object An \code{argusFit} from \code{\link{fitModel}}.
#' @param level Confidence level of the intervals.
#' @param type \code{"model"} or \code{"robust"} standard errors; \code{NULL} (default):
#'   \code{\link{vcov.argusFit}}'s default (above).
#' @param cluster Cluster labels for the robust variance, one per row of the data.
#' @param x A \code{summary.argusFit}.
#' @param digits Significant digits to print.
#' @param maxRows Largest number of coefficients printed: when there are more, the
#'   unpenalized ones and then the nonzero ones with the largest absolute estimate are shown.
#' @param ... Not used: an argument given here is an error.
#' @return An object of class \code{summary.argusFit}, a list with the fit's \code{status},
#'   \code{logLikelihood} (\code{logLik()}'s value: for \code{"ls"} that of \code{lm}, not the
#'   engine's \eqn{-RSS/2} in \code{fit$logLikelihood}), \code{prior}, \code{nRows}, ... and
#'   \code{coefficients}, a data
#'   frame with one row per coefficient: \code{covariate}, \code{estimate},
#'   \code{std.error}, \code{lower}, \code{upper}, \code{interval} (the kind of interval:
#'   \code{"Wald"}, \code{"robust Wald"}, \code{"t"}, \code{"normal posterior"} or
#'   \code{NA}), \code{statistic} (z or t), \code{p.value}, \code{prior}, \code{variance},
#'   \code{fixed} and \code{aliased}.
#' @seealso \code{\link{tidy.argusFit}}, \code{\link{confint.argusFit}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300), 100, 3, dimnames = list(NULL, c("a", "b", "c")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' summary(fit)
#' summary(fit, type = "robust")$coefficients
#' @method summary argusFit
#' @export
summary.argusFit <- function(object, ..., level = 0.95, type = NULL, cluster = NULL) {
  rejectDots("summary()", ...)
  checkFitObject(object, deep = FALSE)
  checkLevel(level)
  table <- coefficientTable(object, level, type, cluster)
  structure(list(
    modelType = object$modelType, status = object$status, iterations = object$iterations,
    logLikelihood = reportedLogLik(object), logPrior = object$logPrior,
    optimality = object$optimality, optimalityCovariate = object$optimalityCovariate,
    optimalityTolerance = object$control$optimalityTolerance,
    prior = describePrior(object), variance = object$variance, seconds = object$seconds,
    nRows = object$nRows, nStrata = object$nStrata, dropped = object$dropped,
    level = level, varianceType = attr(table, "varianceType"),
    varianceNote = if (!is.na(attr(table, "varianceType"))) varianceNote(object, attr(table, "varianceType")),
    ties = if (object$modelType %in% c("cox", "clr")) object$data$ties,
    naAction = object$data$naAction, device = object$device, coefficients = table
  ), class = "summary.argusFit")
}

# One row per coefficient; see summary.argusFit's documentation for what each column holds.
coefficientTable <- function(fit, level = 0.95, type = NULL, cluster = NULL) {
  labels <- names(fit$coefficients)
  aliased <- aliasedFlags(fit)
  prior <- unname(fit$priorType)
  table <- data.frame(covariate = labels, estimate = unname(coef(fit)),
                      std.error = NA_real_, lower = NA_real_, upper = NA_real_,
                      interval = NA_character_, statistic = NA_real_, p.value = NA_real_,
                      prior = prior, variance = columnVariances(fit),
                      fixed = fit$fixed & !aliased, aliased = aliased, stringsAsFactors = FALSE)
  # what has a standard error: estimated coefficients not selected by a Laplace prior
  wanted <- !fit$fixed & prior != "laplace"
  varianceType <- NA_character_
  if (any(wanted) && is.null(fit$data) && !is.null(fit$settings))
    warning(paste("the fit's data were dropped (fit$data is NULL): no standard errors, intervals",
                  "or p-values; put them back (fit$data <- the argusData object) for them"),
            call. = FALSE)
  if (any(wanted) && !is.null(fit$data)) {
    varianceType <- if (is.null(type)) (if (is.null(cluster)) defaultVarianceType(fit) else "robust")
                    else match.arg(type, c("model", "robust"))
    if (varianceType == "model") warnNonIntegerWeights(fit, "model-based standard errors")
    # a Laplace prior's warning (nonzero coefficients only) is what this table already says
    V <- suppressWarnings(reportedVcov(fit, varianceType, cluster))
    se <- sqrt(pmax(diag(V), 0))[labels]
    se[!wanted] <- NA
    table$std.error <- unname(se)
  }
  # least squares: Student's t on n - p degrees of freedom for the sandwich too, as
  # lmtest::coeftest(lm_fit, vcovHC(lm_fit)) (it took the normal: hp's p 1.75e-6 for 4.66e-5)
  ls <- fit$modelType == "ls"
  flat <- wanted & prior == "none"
  scale <- if (ls) residualScale(fit)
  quantile <- waldQuantile(level, scale)
  table$lower <- table$estimate - quantile * table$std.error
  table$upper <- table$estimate + quantile * table$std.error
  table$statistic[flat] <- (table$estimate / table$std.error)[flat]
  table$p.value[flat] <- if (ls) 2 * stats::pt(-abs(table$statistic[flat]), scale$df)
                         else 2 * stats::pnorm(-abs(table$statistic[flat]))
  has <- is.finite(table$std.error)
  robust <- identical(varianceType, "robust")
  table$interval[has & flat] <- paste0(if (robust) "robust " else "", if (ls) "t" else "Wald")
  table$interval[has & prior == "normal"] <- if (identical(varianceType, "robust"))
    "robust normal posterior" else "normal posterior"
  attr(table, "varianceType") <- varianceType
  table
}

# The quantile of Wald intervals: with least squares' residualScale(), Student's t on its
# degrees of freedom (as summary.lm); else the normal.
waldQuantile <- function(level, scale = NULL) {
  if (is.null(scale)) stats::qnorm((1 + level) / 2) else stats::qt((1 + level) / 2, scale$df)
}

# Residual variance of a least-squares fit, as summary.lm: weighted residual sum of squares
# over the residual degrees of freedom (rows with positive weight minus estimated coefficients).
residualScale <- function(fit) {
  rows <- fitRows(fit)
  df <- sum(rows$weights > 0) - sum(!fit$fixed)
  list(sigma2 = sum(rows$weights * (rows$y - rows$eta)^2) / df, df = df)
}

#' @rdname summary.argusFit
#' @method print summary.argusFit
#' @export
print.summary.argusFit <- function(x, digits = NULL, maxRows = 20, ...) {
  rejectDots("print()", ...)
  cat(sprintf("Argus fit summary: modelType '%s'\n", x$modelType))
  cat(sprintf("  status:          %s\n  iterations:      %d\n", x$status, x$iterations))
  cat(sprintf("  log-likelihood:  %.8g\n  log prior:       %.8g\n", x$logLikelihood, x$logPrior))
  if (!is.null(x$optimality))
    cat(sprintf("  optimality:      largest violation %.3g standard errors (%s; tolerance %g)\n",
                x$optimality, x$optimalityCovariate, x$optimalityTolerance))
  cat(sprintf("  prior:           %s\n  elapsed:         %.3f s\n", x$prior, x$seconds))
  cat(sprintf("  rows:            %s", format(x$nRows, big.mark = ",")))
  if (x$nStrata > 0) cat(sprintf(" in %s strata", format(x$nStrata, big.mark = ",")))
  cat("\n")
  if (!is.null(x$ties)) cat(sprintf("  ties:            %s\n", x$ties))
  if (x$dropped$strata > 0)
    cat(sprintf("  dropped:         %d strata without events\n", x$dropped$strata))
  if (length(x$naAction)) cat(sprintf("  missing values:  %s\n", stats::naprint(x$naAction)))
  if (!is.null(x$device)) cat(sprintf("  device:          %s\n", x$device))
  table <- x$coefficients
  if (is.null(table$std.error)) {  # a summary saved by an older version
    print(table, digits = digits, row.names = FALSE)
    return(invisible(x))
  }
  if (!is.na(x$varianceType %||% NA))
    cat(sprintf("  intervals:       %g%% (%s variance; kind per row)\n", 100 * (x$level %||% 0.95),
                x$varianceType))
  if (!is.null(x$varianceNote)) cat(sprintf("                   (%s)\n", x$varianceNote))
  shown <- shownRows(table, maxRows)
  cols <- c("covariate", "estimate", "std.error", "lower", "upper", "p.value", "interval", "prior")
  out <- table[shown, cols, drop = FALSE]
  out$interval[is.na(out$interval)] <- "-"
  print(out, digits = digits %||% 4, row.names = FALSE)
  hidden <- nrow(table) - length(shown)
  if (hidden > 0)
    cat(sprintf("... %s more coefficients not shown (%s of them zero); see $coefficients\n",
                format(hidden, big.mark = ","),
                format(sum(table$estimate[-shown] == 0, na.rm = TRUE), big.mark = ",")))
  invisible(x)
}

# All rows when there are few; otherwise the unpenalized ones, then the nonzero ones by
# decreasing absolute estimate, up to maxRows, in the table's order.
shownRows <- function(table, maxRows) {
  checkScalar(maxRows, "maxRows", lower = 1, integer = TRUE)
  n <- nrow(table)
  if (n <= maxRows) return(seq_len(n))
  unpenalized <- which(table$prior == "none")
  rest <- setdiff(which(!is.na(table$estimate) & table$estimate != 0), unpenalized)
  rest <- rest[order(-abs(table$estimate[rest]))]
  sort(utils::head(c(unpenalized, rest), maxRows))
}
