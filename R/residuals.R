# residuals(), fitted(), nobs(), deviance() and df.residual() of a fit, with the definitions
# of residuals.glm (lr, pr, ls) and residuals.coxph (cox). Values come back in the user's row
# order, named by row identifier, NA for rows the fit dropped (strata without events).

#' Residuals, fitted values and number of observations of a fit
#'
#' \code{residuals()} follows \code{\link[stats]{residuals.glm}} for \code{"lr"}, \code{"pr"}
#' and \code{"ls"} and \code{residuals.coxph} (package \pkg{survival}) for \code{"cox"}.
#' \code{fitted()} is \code{predict(object, type = "response")} for the fitted rows.
#' \code{nobs()} is the number of rows with a positive weight, and for \code{"cox"},
#' \code{"fgr"} and \code{"clr"} the number of events (cases) with a positive weight (as
#' \code{nobs()} of a \code{coxph} or \code{clogit} fit, the count that \code{BIC()} uses).
#' \code{deviance()} (lr, pr, ls) is \code{glm}'s: the sum of the squared deviance residuals; \code{df.residual()} is
#' \code{glm}'s \code{n - rank} (\code{nobs()} less the estimated coefficients) for a fit
#' without a prior, \code{NA} for a penalized one.
#'
#' With \eqn{\mu} the fitted mean (probability, expected count including the exposure time, or
#' linear predictor) and \eqn{w} the weights:
#' \describe{
#'   \item{\code{"response"}}{\eqn{y - \mu};}
#'   \item{\code{"pearson"}}{\eqn{(y - \mu) \sqrt{w / V(\mu)}}, with \eqn{V(\mu)} =
#'     \eqn{\mu(1 - \mu)} (lr), \eqn{\mu} (pr) or 1 (ls);}
#'   \item{\code{"deviance"}}{the signed square root of the row's weighted deviance
#'     contribution (the default, as for \code{glm});}
#'   \item{\code{"working"}}{\eqn{(y - \mu) / (d\mu / d\eta)};}
#'   \item{\code{"martingale"}}{(cox) the event indicator minus the row's cumulative hazard
#'     over its time at risk, \eqn{\exp(\eta)} times the baseline hazard (Breslow, or Efron's
#'     with its fractional weights for tied events); the default for cox. Rows of weight 0,
#'     which the fit leaves out, keep their events and are at risk as any other row, so rows
#'     held out at weight 0 get their own residuals;}
#'   \item{\code{"deviance"}}{(cox) \eqn{\mathrm{sign}(m)\sqrt{-2(m + \delta \log(\delta - m))}}
#'     of the martingale residual \eqn{m};}
#'   \item{\code{"score"}}{(cox) one row per row and one column per estimated coefficient:
#'     the row's contribution to the score;}
#'   \item{\code{"schoenfeld"}}{(cox) one row per event (rows with an event, sorted by
#'     stratum and time, named by the event time): the covariates minus their risk-weighted
#'     mean at the event time. A stratified fit's matrix has the attribute \code{"strata"}, as
#'     \code{residuals.coxph}: a table of the number of events of each stratum, in that order
#'     (strata named as \code{survfit()} names them; strata without events count 0);}
#'   \item{\code{"scaledsch"}}{(cox) the Schoenfeld residuals times the model-based
#'     covariance and the number of events, plus the coefficients, as
#'     \code{residuals.coxph(type = "scaledsch")}: a smooth of a column against time
#'     estimates a time-varying coefficient (\code{\link{testProportionalHazards}} tests it).
#'     It keeps the \code{"strata"} attribute (\code{coxph} drops it when there are several
#'     covariates). With \code{weighted = TRUE} each event's residual is multiplied by its
#'     own weight before the scaling (\code{residuals.coxph}, to survival 3.5 at least,
#'     multiplies the time-sorted events by the weights in the data's row order). Not for
#'     fits with a prior: refused, as by \code{\link{testProportionalHazards}};}
#'   \item{\code{"dfbeta"}}{(cox, lr, pr, ls) the score contributions times the model-based
#'     covariance: the one-step approximate change in the coefficients when the row is left
#'     out, as \code{residuals.coxph(type = "dfbeta")} gives it. For lr, pr and ls it is not
#'     \code{stats::dfbeta()}'s number, which divides by \eqn{1 - h} (the row's leverage): for
#'     least squares that one is the exact leave-one-out change.}
#'   \item{\code{"dfbetas"}}{(cox, lr, pr, ls) \code{"dfbeta"} with each column divided by
#'     the coefficient's standard error (the square root of the diagonal of the model-based
#'     \code{vcov(fit, type = "model")}, for ls at the residual variance), as
#'     \code{residuals.coxph(type = "dfbetas")} (which also uses the model-based variance of
#'     a robust fit). For lr, pr and ls this is not \code{stats::dfbetas()} either, which
#'     divides by \eqn{1 - h}, is built from the deviance residual \eqn{d}
#'     (\code{weighted.residuals()}) where this one has \eqn{y - \mu}, and divides by the
#'     leave-one-out scale \eqn{\sigma_{(i)}} (\code{influence()$sigma}): \code{stats::dfbetas()}
#'     is this value times \eqn{\sqrt{v}\, d\, \hat\sigma / (a (y - \mu)(1 - h)
#'     \sigma_{(i)})}, with \eqn{v} the working weight (\code{glm_fit$weights}), \eqn{a} the
#'     prior weight, and \eqn{\hat\sigma} 1 for lr and pr, the residual standard deviation for
#'     ls (where the factor is \eqn{\hat\sigma / ((1 - h)\sigma_{(i)})}).}
#' }
#' Cox residuals are unweighted unless \code{weighted = TRUE} (they are then multiplied by
#' the weights), as \code{residuals.coxph} gives them; \code{dfbeta} and \code{dfbetas} are
#' weighted unless \code{weighted = FALSE} (\code{residuals.coxph}'s defaults).
#'
#' @param object An \code{argusFit} from \code{\link{fitModel}}.
#' @param type The kind of residual, see Details.
#' @param weighted Cox residuals multiplied by the row weights? Default: \code{TRUE} for
#'   \code{"dfbeta"} and \code{"dfbetas"}, else \code{FALSE}. Cox fits only (\code{TRUE} is
#'   an error for other models, whose residuals follow \code{residuals.glm}).
#' @param use.fallback Ignored (stats' \code{sigma()} passes it to \code{nobs()}): a fit
#'   always has its count.
#' @param ... Not used: an argument given here is an error.
#' @return \code{residuals()}: a vector named by row identifier (formula fits: the data
#'   frame's row names, as \code{glm}; user row order), or a
#'   matrix for \code{"score"}, \code{"schoenfeld"}, \code{"scaledsch"}, \code{"dfbeta"} and
#'   \code{"dfbetas"}. \code{fitted()}: a named vector. \code{nobs()}, \code{deviance()},
#'   \code{df.residual()}: a number.
#' @seealso \code{\link{predict.argusFit}}, \code{\link{vcov.argusFit}}
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' head(residuals(fit))
#' head(residuals(fit, type = "pearson"))
#' head(fitted(fit))
#' nobs(fit)
#' c(deviance(fit), df.residual(fit))
#' @name residuals.argusFit
#' @method residuals argusFit
#' @export
residuals.argusFit <- function(object, type = NULL, weighted = NULL, ...) {
  rejectDots("residuals()", ...)
  checkFitForInference(object, "residuals()")
  modelType <- object$modelType
  if (!is.null(weighted)) checkFlag(weighted, "weighted")
  if (isTRUE(weighted) && modelType != "cox")
    stopf("'weighted' is for Cox residuals; those of modelType '%s' are residuals.glm's", modelType)
  if (modelType == "cox") {
    type <- match.arg(type %||% "martingale",
                      c("martingale", "deviance", "score", "schoenfeld", "dfbeta", "dfbetas",
                        "scaledsch"))
    weighted <- weighted %||% (type %in% c("dfbeta", "dfbetas"))
    out <- coxResiduals(object, type, weighted)
    return(if (type %in% c("schoenfeld", "scaledsch")) out else padExcluded(object, out))
  }
  if (!(modelType %in% c("lr", "pr", "ls")))
    stopf(paste("residuals() is available for modelType 'lr', 'pr', 'ls' and 'cox', not '%s'",
                "(a conditional or Fine-Gray model has no per-row fitted mean)"), modelType)
  type <- match.arg(type %||% "deviance",
                    c("deviance", "pearson", "response", "working", "dfbeta", "dfbetas"))
  if (type %in% c("dfbeta", "dfbetas"))
    return(padExcluded(object, dfbetaResiduals(object, scaled = type == "dfbetas")))
  rows <- fitRows(object)
  padExcluded(object, toUserOrder(object, glmResiduals(modelType, rows, type)))
}

# na.action = na.exclude: rows dropped for missing values come back as NA (stats::naresid).
padExcluded <- function(fit, values) {
  omitted <- fit$data$naAction
  if (is.null(omitted)) values else stats::naresid(omitted, values)
}

glmResiduals <- function(modelType, rows, type) {
  eta <- rows$eta
  y <- rows$y
  w <- rows$weights
  mu <- switch(modelType, lr = stats::plogis(eta), pr = exp(eta) * (rows$time %||% 1), ls = eta)
  variance <- switch(modelType, lr = mu * (1 - mu), pr = mu, ls = rep(1, length(mu)))
  switch(type,
         response = y - mu,
         working = (y - mu) / switch(modelType, lr = mu * (1 - mu), pr = mu, ls = 1),
         pearson = (y - mu) * sqrt(w / variance),
         deviance = sign(y - mu) * sqrt(pmax(w * unitDeviance(modelType, y, mu), 0)))
}

# Each row's deviance contribution, without the weight (0 * log(0) = 0).
unitDeviance <- function(modelType, y, mu) {
  xlogx <- function(a, b) ifelse(a == 0, 0, a * log(a / b))
  switch(modelType,
         lr = 2 * (xlogx(y, mu) + xlogx(1 - y, 1 - mu)),
         pr = 2 * (xlogx(y, mu) - (y - mu)),
         ls = (y - mu)^2)
}

coxResiduals <- function(fit, type, weighted) {
  if (type %in% c("dfbeta", "dfbetas")) return(dfbetaResiduals(fit, weighted, type == "dfbetas"))
  parts <- coxResidualParts(fit)
  w <- if (weighted) fitRows(fit)$weights else 1
  switch(type,
         martingale = toUserOrder(fit, parts$martingale * w),
         deviance = {
           m <- parts$martingale
           # every event, those of weight-0 rows too: their martingale residuals keep them
           # (the fit's events alone gave those rows NaN or a wrong residual)
           d <- as.numeric(fit$data$y == 1)
           dev <- sign(m) * sqrt(-2 * (m + ifelse(d > 0, d * log(pmax(d - m, .Machine$double.xmin)), 0)))
           toUserOrder(fit, dev * w)
         },
         score = toUserOrder(fit, parts$score * w),
         schoenfeld = schoenfeldResiduals(fit, parts, w),
         scaledsch = scaledSchoenfeld(fit, schoenfeldResiduals(fit, parts, w)))
}

# Events only, sorted by stratum (in survival's order of strata) and time, as
# residuals.coxph, named by the event time.
schoenfeldResiduals <- function(fit, parts, w) {
  rows <- fitRows(fit)
  at <- which(parts$event)
  stratum <- rows$stratum[at]
  position <- survivalStratumPosition(fit)
  if (!is.null(position)) stratum <- position[stratum + 1L]
  at <- at[order(stratum, rows$time[at])]
  out <- parts$schoenfeld[at, , drop = FALSE] * (if (length(w) > 1) w[at] else w)
  rownames(out) <- format(rows$time[at], trim = TRUE)
  if (!is.null(position)) attr(out, "strata") <- strataEventTable(fit, sort(stratum))
  out
}

# Score contributions times the model-based covariance (what the robust variance squares);
# `scaled` (dfbetas): each column over the coefficient's model-based standard error, for least
# squares at the residual variance (the unit-variance covariance that dfbeta uses is not its
# variance).
dfbetaResiduals <- function(fit, weighted = TRUE, scaled = FALSE) {
  V <- suppressWarnings(coefficientVcov(fit, "model"))
  labels <- rownames(V)[!is.na(diag(V))]
  X <- designColumns(fit$data, match(labels, names(fit$coefficients)))
  # Cox without weights: the rows' own score residuals (residuals.coxph(weighted = FALSE))
  scores <- if (weighted) rowScores(fit, X) else coxResidualParts(fit, X)$score
  out <- as.matrix(scores %*% V[labels, labels, drop = FALSE])
  if (scaled) {
    variance <- diag(V)[labels] * (if (fit$modelType == "ls") residualScale(fit)$sigma2 else 1)
    out <- sweep(out, 2, sqrt(variance), "/")
  }
  toUserOrder(fit, out)
}

#' @rdname residuals.argusFit
#' @method fitted argusFit
#' @export
fitted.argusFit <- function(object, ...) {
  rejectDots("fitted()", ...)
  stats::predict(object, type = "response")  # with na.exclude, padded there
}

#' @rdname residuals.argusFit
#' @method nobs argusFit
#' @export
nobs.argusFit <- function(object, use.fallback = FALSE, ...) {
  # (use.fallback: stats' sigma() passes it; a fit's count is always there)
  rejectDots("nobs()", ...)
  checkFitObject(object, deep = FALSE)
  w <- object$settings$weights %||% rep(1, object$nRows)
  y <- object$data$y
  # events, as nobs() of coxph and clogit (the count BIC() uses): a case is an event
  if (isSurvivalModel(object$modelType) || object$modelType == "clr") sum(y == 1 & w > 0)
  else sum(w > 0)
}

#' @rdname residuals.argusFit
#' @method deviance argusFit
#' @export
deviance.argusFit <- function(object, ...) {
  rejectDots("deviance()", ...)
  if (!object$modelType %in% c("lr", "pr", "ls"))
    stopf(paste("deviance() is glm's, for modelType \"lr\", \"pr\" and \"ls\"; for '%s' use",
                "-2 * logLik(fit)"), object$modelType)
  # glm's: the sum of the squared deviance residuals (each row's weighted unit deviance)
  sum(stats::residuals(object, type = "deviance")^2, na.rm = TRUE)
}

#' @rdname residuals.argusFit
#' @method df.residual argusFit
#' @export
df.residual.argusFit <- function(object, ...) {
  rejectDots("df.residual()", ...)
  # glm's n - rank: rows with a positive weight less the coefficients estimated (aliased and
  # fixed ones not); a penalized fit has no such count
  if (any(object$priorType[!object$fixed] != "none")) return(NA_real_)
  as.numeric(nobs.argusFit(object) - sum(!object$fixed & !aliasedFlags(object)))
}
