# survival::survfit() of a Cox fit: the survival curves of given covariate values, as a
# "survfit" object that survival's print(), summary(), plot() and quantile() read. The
# numbers are those of survfit.coxph: the Breslow (or Efron) cumulative hazard at the fitted
# coefficients, and its standard error with the term for the estimated coefficients.

#' Survival curves from a Cox fit
#'
#' A method for \code{\link[survival]{survfit}}, which Argus re-exports (\code{survfit(fit)}
#' works without attaching \pkg{survival}): the predicted survival curves
#' \eqn{S(t | z) = \exp(-H_0(t) \exp(\eta_z))} for the covariate values \code{newdata}, at
#' every distinct time of the fitted rows, as \code{survfit.coxph} computes them (its default
#' \code{ctype}: Breslow's hazard for a Breslow fit, Efron's for an Efron fit; \code{stype =
#' 2}). The standard error of the cumulative hazard is
#' \eqn{\exp(\eta_z) \sqrt{\sum dN / S_0^2 + q(t)' V q(t)}}, with \eqn{q(t)} the summed
#' hazard increments times \eqn{z} minus the risk-set means, and \eqn{V} the fit's
#' \code{\link{vcov.argusFit}} (robust when the data have a \code{cluster()} term, as
#' \code{coxph}); intervals are on the \code{conf.type} scale. With non-integer weights
#' (inverse probability weights) \code{coxph} switches to its robust variance and this
#' method does not: it warns, and a \code{cluster()} term with one id per row gives the
#' robust curves.
#'
#' Without \code{newdata}, one curve at \code{coxph}'s reference point, as
#' \code{survfit.coxph}: the weighted covariate means of the fitted rows (unweighted for
#' \code{Surv(start, stop, status)} data, as \code{coxph}), except that a column whose
#' values are all -1, 0 or 1 (factor levels, 0/1 indicators: \code{coxph}'s default
#' \code{nocenter}) is taken at 0, and the weighted mean offset of the fitted rows. As
#' \code{survfit.coxph}, a model with a strata-by-covariate interaction needs \code{newdata},
#' and a model with other interactions draws this curve with a warning. A stratified fit gives one curve per stratum and row; when
#' \code{newdata} holds the \code{strata()} variables, each row gets the curve of its own
#' stratum (as \code{survfit.coxph}).
#'
#' @param formula An \code{argusFit} of modelType \code{"cox"} (the generic's first argument
#'   is called \code{formula}).
#' @param newdata Covariate values: a data frame (formula fits; its \code{offset()} terms
#'   give the offsets) or a matrix with the model's covariates as columns. \code{NULL}:
#'   \code{coxph}'s reference point (Details). Rows with missing values have no curve (as
#'   \code{survfit.coxph} leaves them out), with a warning.
#' @param offset The offsets of the rows of a matrix \code{newdata}, needed when the fit has
#'   an offset (0 for none).
#' @param se.fit Compute standard errors and intervals?
#' @param conf.int Level of the intervals.
#' @param conf.type \code{"log"} (default, as survfit), \code{"log-log"}, \code{"plain"} or
#'   \code{"none"}.
#' @param ... Not used: an argument given here is an error.
#' @return An object of class \code{c("survfitcox", "survfit")} with \code{n}, \code{time},
#'   \code{n.risk}, \code{n.event}, \code{n.censor} (weighted, as survfit), \code{surv},
#'   \code{cumhaz}, \code{std.err} and \code{std.chaz} (of the cumulative hazard),
#'   \code{lower}, \code{upper}, \code{strata} and \code{conf.type}; \code{surv} is a matrix
#'   with one column per row of \code{newdata} when there are several.
#' @seealso \code{\link{predict.argusFit}} (\code{type = "survival"}),
#'   \code{\link{baselineHazard}}, \code{\link{cumulativeIncidence}} for Fine-Gray fits
#' @examples
#' lung <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
#' fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung,
#'                            modelType = "cox", ties = "efron"))
#' curves <- survfit(fit, newdata = data.frame(age = 60, sex = 1:2))
#' summary(curves, times = c(180, 365))
#' plot(curves, col = 1:2, xlab = "days", ylab = "survival")
#' @name survfit.argusFit
#' @method survfit argusFit
#' @importFrom survival survfit
#' @export
survfit.argusFit <- function(formula, newdata = NULL, se.fit = TRUE, conf.int = 0.95,
                             conf.type = c("log", "log-log", "plain", "none"), offset = NULL, ...) {
  rejectDots("survfit()", ...)
  fit <- formula
  checkFitForInference(fit, "survfit()")
  if (fit$modelType != "cox")
    stopf("survfit() is for modelType 'cox'%s", if (fit$modelType == "fgr")
      "; use cumulativeIncidence() for 'fgr'" else "")
  checkFlag(se.fit, "se.fit")
  checkScalar(conf.int, "conf.int", lower = .Machine$double.eps, upper = 1 - .Machine$double.eps)
  conf.type <- match.arg(conf.type)
  # vcov()'s default is coxph's variance (robust for non-integer weights), as survfit.coxph
  # takes fit$var
  V <- if (se.fit) vcov(fit) else NULL
  columns <- if (se.fit) match(rownames(V)[!is.na(diag(V))], names(fit$coefficients))
             else estimatedColumns(fit)
  if (se.fit) V <- V[names(fit$coefficients)[columns], names(fit$coefficients)[columns], drop = FALSE]
  X <- designColumns(fit$data, columns)
  rows <- fitRows(fit)
  if (is.null(newdata)) checkDefaultCurve(fit)
  newdata <- denseMatrixAsMatrix(newdata)
  if (!is.null(offset) && !(is.matrix(newdata) || methods::is(newdata, "sparseMatrix")))
    stopf("'offset' is for a matrix 'newdata'; a data frame gives its offset() terms")
  new <- newCovariates(fit, newdata, X, rows$weights, reference = coxphReference(X, rows),
                       referenceOffset = referenceOffset(fit, rows), offset = offset)
  curves <- stratumCurves(fit, rows, X)
  labels <- curveStratumNames(fit, names(curves))
  # which (stratum, row) pairs: every stratum for every row, or each row in its own stratum
  pairs <- if (is.null(new$strata) || length(curves) == 1) {
    expand.grid(row = seq_len(nrow(new$z)), stratum = seq_along(curves))
  } else {
    at <- match(new$strata, names(curves))
    if (anyNA(at)) stopf(paste("'newdata' has strata the fit has no curve for (none of its rows,",
                               "or dropped for having no events: see fit$dropped): %s"),
                         paste(displayStrata(unique(new$strata[is.na(at)])), collapse = "; "))
    data.frame(row = seq_len(nrow(new$z)), stratum = at)
  }
  onePerRow <- !is.null(new$strata) && length(curves) > 1
  # One block per stratum; with one curve per row, one block per row, in newdata's order (as
  # survfit.coxph: grouping the rows by stratum put curve [i] on another row).
  blocks <- if (onePerRow) split(pairs, seq_len(nrow(pairs))) else split(pairs, pairs$stratum)
  pieces <- lapply(blocks, function(block) {
    curve <- curves[[block$stratum[1]]]
    risk <- exp(new$link[block$row])
    cumhaz <- outer(curve$cumH, risk)
    out <- list(curve = curve, cumhaz = cumhaz, rows = block$row)
    if (se.fit) {
      se <- vapply(seq_along(block$row), function(k) {
        z <- new$z[block$row[k], ]
        q <- outer(curve$cumH, z) - curve$cumG
        risk[k] * sqrt(curve$cumV1 + rowSums((q %*% V) * q))
      }, numeric(length(curve$time)))
      out$se <- matrix(se, ncol = length(block$row))
    }
    out
  })
  buildSurvfit(pieces, labels, onePerRow, new, se.fit, conf.int, conf.type, match.call())
}

# Per stratum (named by its label, in survival's order): every distinct time of its rows,
# the weighted numbers at risk, of events and of censored rows there, and the cumulative
# sums of the hazard (cumH), of hazard times the risk-set mean (cumG) and of the hazard's
# variance (cumV1).
stratumCurves <- function(fit, rows, X) {
  table <- coxEventTable(rows, X, fit$data$ties)
  labels <- stratumLabelsOf(fit) %||% "all"
  w <- rows$weights
  # A stratum without events has a flat curve at 1 over its rows' times (survfit.coxph draws
  # it too): no hazard steps.
  none <- list(time = numeric(0), H1 = numeric(0), V1 = numeric(0), G1 = matrix(0, 0, ncol(X)))
  byStratum <- split(seq_along(rows$stratum), rows$stratum)
  eventful <- vapply(table, function(tab) tab$stratum, 0L)
  out <- list()
  for (s in as.integer(names(byStratum))) {
    k <- match(s, eventful)
    tab <- if (is.na(k)) c(list(stratum = s, rows = byStratum[[as.character(s)]]), none) else table[[k]]
    # the rows of the fit: those of weight 0 are not in it (coxph refuses them), and counted
    # they made n larger and ran the curve on past the fit's last time at risk
    inS <- tab$rows[w[tab$rows] > 0]
    if (length(inS) == 0) next
    times <- sort(unique(rows$time[inS]))
    nRisk <- tailSums(rows$time[inS], w[inS], times)
    if (!is.null(rows$start)) nRisk <- nRisk - tailSums(rows$start[inS], w[inS], times)
    event <- rows$y[inS] == 1
    slot <- match(rows$time[inS], times)
    nEvent <- as.vector(tapply(w[inS] * event, factor(slot, levels = seq_along(times)), sum))
    nCensor <- as.vector(tapply(w[inS] * !event, factor(slot, levels = seq_along(times)), sum))
    k <- findInterval(times, tab$time)
    cumH <- c(0, cumsum(tab$H1))[k + 1]
    cumG <- if (nrow(tab$G1) == 0) matrix(0, length(times), ncol(X))
            else rbind(0, apply(tab$G1, 2, cumsum))[k + 1, , drop = FALSE]
    cumV1 <- c(0, cumsum(tab$V1))[k + 1]
    out[[labels[tab$stratum + 1]]] <- list(time = times, n = length(inS), nRisk = nRisk,
                                           nEvent = nEvent, nCensor = nCensor, cumH = cumH,
                                           cumG = cumG, cumV1 = cumV1)
  }
  out[survivalStrataRank(fit, names(out))]
}

# The order of strata (by their keys, the data's stratumLabels) in which survival lists them:
# a strata() term's (survivalStrataOrder(): factor levels, sorted values); otherwise
# (stratumId) as factor() orders the labels, numbers numerically, text alphabetically.
# The internal order is the data's first appearance (cgd's hos.cat: "US:other" before
# "US:NIH"), which survfit(), baselineHazard() and the Schoenfeld residuals do not show.
survivalStrataRank <- function(fit, keys) {
  strataOrder <- fit$data$formulaTerms$strataOrder
  if (!is.null(strataOrder)) return(order(match(keys, strataOrder$keys)))
  numeric <- suppressWarnings(as.numeric(keys))
  if (!anyNA(numeric)) order(numeric) else order(keys)
}

# Per internal stratum (1-based), its position in survival's order; NULL without strata.
survivalStratumPosition <- function(fit) {
  keys <- stratumLabelsOf(fit)
  if (is.null(keys)) return(NULL)
  position <- integer(length(keys))
  position[survivalStrataRank(fit, keys)] <- seq_along(keys)
  position
}

# Stratum names as survival writes them (survivalStrataOrder); the bare label when the
# strata were not given by a formula.
curveStratumNames <- function(fit, keys) {
  strataOrder <- fit$data$formulaTerms$strataOrder
  if (is.null(strataOrder) || length(keys) == 1) return(keys)
  strataOrder$labels[match(keys, strataOrder$keys)]
}

# coxph's reference point (its `means`), where survfit.coxph draws the curve without
# newdata: weighted column means (unweighted for counting-process data, as agreg.fit, over the
# rows of positive weight, those coxph sees), 0 for a column whose values all lie in coxph's
# default nocenter = c(-1, 0, 1). survival 3.x leaves those uncentred; the plain means put
# factor fits' default curves up to 0.22 off.
coxphReference <- function(X, rows) {
  means <- columnMeans(X, if (is.null(rows$start)) rows$weights else as.numeric(rows$weights > 0))
  X <- methods::as(X, "CsparseMatrix")
  for (j in seq_len(ncol(X))) {
    values <- X@x[seq.int(X@p[j] + 1L, length.out = X@p[j + 1L] - X@p[j])]
    if (all(values %in% c(-1, 0, 1))) means[j] <- 0
  }
  means
}

columnMeans <- function(X, weights) Matrix::colSums(X * weights) / sum(weights)

# survfit.coxph's offset at its reference point: the mean offset of the fitted rows, weighted
# when the fit is (for counting-process data too, unlike the covariate means).
referenceOffset <- function(fit, rows) {
  offset <- fit$data$offset
  if (is.null(offset)) return(0)
  sum(offset * rows$weights) / sum(rows$weights)
}

# The curve without newdata, where survfit.coxph refuses it (a strata-by-covariate
# interaction: the means of such a column mix the strata) or warns (other interactions).
checkDefaultCurve <- function(fit) {
  terms <- fit$data$formulaTerms$terms
  if (is.null(terms)) return(invisible())
  labels <- attr(stats::terms(terms), "term.labels")
  order <- attr(stats::terms(terms), "order")
  interactions <- labels[order > 1]
  if (any(grepl("strata(", interactions, fixed = TRUE)))
    stopf("a model with a strata-by-covariate interaction needs 'newdata' for its curves (as survfit.coxph)")
  if (length(interactions))
    warning(paste("the model contains interactions; the default curve, at the column means of",
                  "the design, is almost certainly not useful: consider 'newdata'"), call. = FALSE)
}

# Covariate values (columns of X) and linear predictors of the new rows, and their strata
# when newdata gives them. NULL: one row at `reference` (default: the weighted means of the
# fitted rows).
newCovariates <- function(fit, newdata, X, weights, reference = NULL, referenceOffset = 0,
                          offset = NULL) {
  labels <- colnames(X)
  beta <- fit$coefficients[labels]
  if (is.null(newdata)) {
    at <- reference %||% columnMeans(X, weights)
    z <- matrix(at, 1, dimnames = list(NULL, labels))
    return(list(z = z, link = as.vector(z %*% beta) + referenceOffset, strata = NULL, names = NULL))
  }
  strata <- NULL
  if (is.data.frame(newdata) && !is.null(fit$data$formulaTerms)) {
    ft <- fit$data$formulaTerms
    newdata <- as.data.frame(newdata)
    if (!is.null(ft$strata) && all(all.vars(ft$strata) %in% names(newdata)))
      strata <- stratumKey(strataValues(ft$strata, newdata, environment(ft$terms) %||% parent.frame()))
    mf <- stats::model.frame(ft$terms, matchNewdataClasses(ft$terms, newdata), xlev = ft$xlevels,
                             na.action = stats::na.pass)
    full <- stats::model.matrix(ft$terms, mf, contrasts.arg = ft$contrasts)
    offset <- stats::model.offset(mf) %||% 0
  } else if (is.matrix(newdata) || methods::is(newdata, "sparseMatrix")) {
    full <- as.matrix(newdata)
    if (is.null(offset)) needNoOffset(fit)
    offset <- checkNumericVector(offset, "offset", nrow(full), missingOk = TRUE) %||% 0
  } else {
    stopf("'newdata' must be a data frame (formula fits) or a matrix of the model's covariates")
  }
  missing <- setdiff(labels, colnames(full))
  if (length(missing)) stopf("'newdata' lacks covariate(s) %s", paste(missing, collapse = ", "))
  z <- full[, labels, drop = FALSE]
  names <- rownames(newdata) %||% as.character(seq_len(nrow(z)))
  link <- as.vector(z %*% beta) + offset
  # Rows without a covariate value or offset have no curve: left out, as survfit.coxph's
  # na.action leaves them, but said (it was an error here, while predict() gives them NA).
  incomplete <- is.na(link) | (if (is.null(strata)) FALSE else is.na(strata))
  if (all(incomplete)) stopf("every row of 'newdata' has missing values")
  if (any(incomplete)) {
    warning(sprintf("%d row(s) of 'newdata' with missing values have no curve (e.g. %s)",
                    sum(incomplete), names[incomplete][1]), call. = FALSE)
    keep <- !incomplete
    z <- z[keep, , drop = FALSE]
    link <- link[keep]
    names <- names[keep]
    if (!is.null(strata)) strata <- strata[keep]
  }
  list(z = z, link = link, strata = strata, names = names)
}

# Stacks the (stratum, rows) blocks into one survfit object.
buildSurvfit <- function(pieces, labels, onePerRow, new, se.fit, conf.int, conf.type, call) {
  byBlock <- function(f) unlist(lapply(pieces, f), use.names = FALSE)
  curve <- function(p) p$curve
  nRows <- nrow(new$z)
  stack <- function(field) {
    if (onePerRow) return(byBlock(function(p) as.vector(p[[field]])))
    m <- do.call(rbind, lapply(pieces, function(p) p[[field]]))
    if (nRows == 1) as.vector(m) else `colnames<-`(m, new$names %||% as.character(seq_len(nRows)))
  }
  cumhaz <- stack("cumhaz")
  blockLabels <- if (onePerRow) (new$names %||% as.character(seq_len(nRows)))[
    byBlock(function(p) p$rows)] else labels
  repeatsOf <- function(f) {
    if (!onePerRow) return(byBlock(function(p) f(p$curve)))
    byBlock(function(p) rep(f(p$curve), length(p$rows)))
  }
  out <- list(n = if (onePerRow) byBlock(function(p) rep(p$curve$n, length(p$rows)))
                  else byBlock(function(p) p$curve$n),
              time = repeatsOf(function(c) c$time), n.risk = repeatsOf(function(c) c$nRisk),
              n.event = repeatsOf(function(c) c$nEvent), n.censor = repeatsOf(function(c) c$nCensor),
              surv = exp(-cumhaz), cumhaz = cumhaz)
  counts <- if (onePerRow) byBlock(function(p) rep(length(p$curve$time), length(p$rows)))
            else byBlock(function(p) length(p$curve$time))
  if (length(counts) > 1) out$strata <- stats::setNames(as.integer(counts), blockLabels)
  if (se.fit) {
    se <- stack("se")
    out$std.err <- se
    out$logse <- TRUE
    out$std.chaz <- se
    z <- stats::qnorm((1 + conf.int) / 2)
    if (conf.type != "none") {
      s <- out$surv
      limits <- switch(conf.type,
        log = list(s * exp(-z * se), pmin(s * exp(z * se), 1)),
        "log-log" = {
          # undefined where the survival is 0 or 1, as survfit
          inside <- ifelse(s == 0 | s == 1, NA, s)
          a <- exp(-exp(log(-log(inside)) + z * se / log(inside)))
          b <- exp(-exp(log(-log(inside)) - z * se / log(inside)))
          list(pmin(a, b), pmax(a, b))
        },
        plain = list(pmax(s - z * se * s, 0), pmin(s + z * se * s, 1)))
      out$lower <- limits[[1]]
      out$upper <- limits[[2]]
      out$conf.type <- conf.type
      out$conf.int <- conf.int
    }
  }
  out$call <- call
  structure(out, class = c("survfitcox", "survfit"))
}

# survival's generic, re-exported (survival is in Imports): survfit(fit) without attaching it.
#' @export
survival::survfit
