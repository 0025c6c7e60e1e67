# testProportionalHazards(): the proportional-hazards test of survival::cox.zph (survival >= 3.0,
# a score test with the full information matrix) for a Cox fit, its scaled Schoenfeld
# residuals, and residuals(type = "scaledsch").
#
# The test asks whether each coefficient drifts with a function of time g(t): the model
# beta_j + theta_j g(t) for covariate x_j, tested at theta = 0 by the score test at
# (beta-hat, 0). With g centred at its mean over the events, the score of theta is
#   U2 = sum over events of w g(t) (x - xbar(t)),
# and the information of (beta, theta) has the blocks I11 = sum V(t), I12 = sum g V(t) and
# I22 = sum g^2 V(t), with V(t) the risk set's share of the Cox information at event time t
# (R/cox_event_moments.R). The score of beta is taken as 0 (the fit's estimating equation), so
# the statistic for the covariates J is u' I^-1 u over the rows and columns of all of beta and
# of theta_J, with u = (0, U2_J): U2_J' (I22 - I21 I11^-1 I12)_J^-1 U2_J, on |J| degrees of
# freedom; GLOBAL takes every theta at once.

#' Test of proportional hazards for a Cox fit
#'
#' The test of \code{survival::cox.zph} (survival 3.0 and later): for each covariate, the
#' score test that its coefficient does not change with a function of time, \eqn{g(t)}, and
#' a global test of all of them together. The statistic for a set \eqn{J} of covariates is
#' \eqn{U_J' (I_{22} - I_{21} I_{11}^{-1} I_{12})_J^{-1} U_J}{U_J' (I22 - I21 I11^-1 I12)_J^-1 U_J}, with \eqn{U} the sum over the
#' events of \eqn{w g(t) (x - \bar{x}(t))}{w g(t) (x - xbar(t))} (\eqn{\bar{x}(t)}{xbar(t)} the risk set's weighted mean,
#' Efron's mean over its sub-steps for tied events), and \eqn{I_{11}}{I11}, \eqn{I_{12}}{I12},
#' \eqn{I_{22}}{I22} the sums over event times of the Cox information's share \eqn{V(t)} weighted
#' by 1, \eqn{g(t)} and \eqn{g(t)^2}: the full information matrix of \eqn{(\beta, \theta)}
#' in the model \eqn{\beta + \theta g(t)} at \eqn{(\hat{\beta}, 0)}{(beta-hat, 0)}, not Grambsch and
#' Therneau's older approximation from the average variance. It is computed at the fit's
#' coefficients for its ties (Breslow or Efron), strata, weights and (start, stop] rows, and
#' gives \code{cox.zph}'s numbers (the test: Grambsch and Therneau, 1994, \emph{Biometrika}
#' 81, 515-526).
#'
#' \eqn{g} is \code{transform} applied to the stop times of the rows in the fit, centred at
#' its mean over the events: \code{"km"} is \eqn{1 - S(t-)}, one minus the Kaplan-Meier
#' curve of all the rows just before \eqn{t} (without strata or weights, as \code{cox.zph});
#' \code{"rank"} the rank of the time among all rows' times; \code{"identity"} the time;
#' \code{"log"} its logarithm; or a function, given all rows' times in the data's row order.
#'
#' The scaled Schoenfeld residuals in \code{y} are \code{cox.zph}'s: the Schoenfeld
#' residuals of each stratum's events times the inverse of the average information per event
#' over the covariates that vary in the stratum (the information divided by the number of
#' events of the strata where they vary; the inverse over all covariates is \code{var}), plus
#' the coefficient, so that a smooth of \code{y} against \code{x} estimates
#' \eqn{\beta(t)}. With \code{terms = TRUE} a term of several columns (a factor)
#' is tested on as many degrees of freedom together, and its residual is that of the term's
#' linear predictor, scaled the same way, plus 1.
#'
#' What is tested, and what is refused:
#' \itemize{
#'   \item every estimated coefficient. A coefficient the fit could not estimate (aliased,
#'     \code{NA} in \code{coef()}) is left out, as \code{cox.zph} leaves out an \code{NA}
#'     coefficient, and so is a term left with no columns. A coefficient held fixed
#'     (\code{fitModel(fixed =)}) is part of the offset, not tested.
#'   \item rows of weight 0 are not in the fit and not in the test (nor in the \code{"km"}
#'     and \code{"rank"} times); \code{coxph} refuses them. Strata without events are
#'     kept, as in \code{cox.zph}: their rows count in the \code{"km"} and \code{"rank"}
#'     times.
#'   \item a fit whose status is not \code{"SUCCESS"} is refused, and so is a fit with a
#'     prior on any estimated coefficient: the test needs the
#'     maximum partial likelihood estimate, where the score of \eqn{\beta} is 0, and its
#'     chi-square reference is for that estimate. At a shrunken estimate the score is not 0
#'     and the statistic has no known distribution. Refit with \code{prior =
#'     createPrior("none")} (the covariates to test, and any others, unpenalized).
#'   \item where no covariate varies within a stratum, that stratum's scaled residuals are
#'     \code{NA} (\code{cox.zph} leaves them unscaled and shifts the strata after it).
#' }
#'
#' @param fit An \code{argusFit} of \code{modelType = "cox"} from \code{\link{fitModel}},
#'   without a prior on its estimated coefficients.
#' @param transform The function of time: \code{"km"} (default), \code{"rank"},
#'   \code{"identity"}, \code{"log"}, or an R function of the vector of times.
#' @param terms Test the columns of a term (a factor's levels, a spline's basis) together,
#'   as \code{cox.zph(terms = TRUE)}? \code{FALSE}: each coefficient on its own. Fits whose
#'   data did not come from a formula have one term per column.
#' @param global Add the global test of all covariates (row \code{"GLOBAL"})?
#' @param x An \code{argusZph} object.
#' @param digits Significant digits to print.
#' @param signif.stars Print significance stars?
#' @param ... For \code{print()}: passed to \code{\link[stats]{printCoefmat}}; for
#'   \code{tidy()}: not used (an argument given here is an error).
#' @return An object of class \code{"argusZph"} with the fields of a \code{cox.zph}
#'   object: \code{table} (a matrix with columns \code{chisq}, \code{df} and \code{p}, one
#'   row per term or covariate and \code{"GLOBAL"}), \code{x} (the transformed event
#'   times), \code{time} (the event times), \code{strata} (the events' strata, as a factor;
#'   stratified fits only), \code{y} (the scaled Schoenfeld residuals, one row per event,
#'   sorted by stratum and time, one column per term or covariate), \code{var} (the inverse
#'   of the average information per event that scales them), \code{transform} (its name)
#'   and \code{call}. \code{print()} shows the table as \code{print.cox.zph} does and
#'   returns \code{x} invisibly; \code{tidy()} gives one row per test with broom's column
#'   names \code{term}, \code{statistic}, \code{df} and \code{p.value}.
#' @seealso \code{\link{residuals.argusFit}} (\code{type = "scaledsch"}), \code{cox.zph} in
#'   package \pkg{survival}
#' @examples
#' lung <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
#' fit <- fitModel(createData(survival::Surv(time, status) ~ age + sex + ph.ecog,
#'                            data = lung, modelType = "cox", ties = "efron"))
#' zph <- testProportionalHazards(fit)
#' zph
#' tidy(zph)
#' testProportionalHazards(fit, transform = "rank", global = FALSE)
#' @export
testProportionalHazards <- function(fit, transform = "km", terms = TRUE, global = TRUE) {
  call <- match.call()
  what <- "testProportionalHazards()"
  checkProportionalHazardsFit(fit, what)
  checkFlag(terms, "terms")
  checkFlag(global, "global")
  transformName <- if (is.function(transform)) {
    label <- deparse(substitute(transform))
    if (length(label) > 1) "user" else label
  } else checkTransformName(transform)
  rows <- zphRows(fit)
  scale <- zphTimeScale(rows, transform)
  score <- zphScore(rows, scale - mean(scale[rows$event]), fit$data$ties)
  assign <- zphTerms(fit, rows$columns, terms)
  table <- zphTable(score$U, score$information, assign, global)
  events <- zphEventOrder(rows, score$moments$groups)
  beta <- unname(fit$coefficients[rows$columns])
  scaled <- zphScaledResiduals(zphSchoenfeld(rows, score$moments, events),
                               score$information[seq_along(beta), seq_along(beta), drop = FALSE],
                               zphUsed(rows), rows$stratum[events], assign, beta)
  time <- unname(rows$time[events])
  dimnames(scaled$y) <- list(signif(time, 4), names(assign))
  out <- list(table = table, x = unname(scale[events]),
              time = time, strata = zphStrata(fit, rows$stratum[events]), y = scaled$y,
              var = scaled$var, transform = transformName, call = call)
  structure(out[!vapply(out, is.null, TRUE)], class = "argusZph")
}

#' @rdname testProportionalHazards
#' @method print argusZph
#' @export
print.argusZph <- function(x, digits = max(getOption("digits") - 4, 3), signif.stars = FALSE, ...) {
  stats::printCoefmat(x$table, digits = digits, signif.stars = signif.stars, P.values = TRUE,
                      has.Pvalue = TRUE, ...)
  invisible(x)
}

#' @rdname testProportionalHazards
#' @method tidy argusZph
#' @export
tidy.argusZph <- function(x, ...) {
  rejectDots("tidy()", ...)
  asTibble(data.frame(term = rownames(x$table), statistic = unname(x$table[, "chisq"]),
                      df = unname(x$table[, "df"]), p.value = unname(x$table[, "p"]),
                      stringsAsFactors = FALSE))
}

checkProportionalHazardsFit <- function(fit, what) {
  if (!inherits(fit, "argusFit"))
    stopf("%s needs a Cox fit from fitModel() (modelType \"cox\")", what)
  if (!identical(fit$modelType, "cox"))
    stopf("%s is for Cox fits (modelType \"cox\"), not modelType '%s'", what, fit$modelType)
  checkFitForInference(fit, what)
  if (!identical(fit$status, "SUCCESS"))
    stopf(paste("%s needs the maximum partial likelihood estimate, and the fit's status is '%s'",
                "(not converged, or no finite estimate): refit it"), what, fit$status)
  penalized <- !fit$fixed & fit$priorType != "none"
  if (any(penalized))
    stopf(paste("%s needs a fit without a prior: the test is defined at the maximum partial",
                "likelihood estimate, and %s (%s) has a %s prior; refit with prior =",
                "createPrior(\"none\")"), what,
          if (sum(penalized) == 1) "a coefficient" else sprintf("%d coefficients", sum(penalized)),
          paste(utils::head(names(fit$coefficients)[penalized], 3), collapse = ", "),
          paste(unique(fit$priorType[penalized]), collapse = "/"))
  if (!any(!fit$fixed & !aliasedFlags(fit)))
    stopf("%s: the fit has no estimated coefficients to test", what)
}

checkTransformName <- function(transform) {
  choices <- c("km", "rank", "identity", "log")
  if (!is.character(transform) || length(transform) != 1 || !(transform %in% choices))
    stopf("'transform' must be one of %s, or a function of the times",
          paste0('"', choices, '"', collapse = ", "))
  transform
}

# The rows the test is about (those of positive weight, as the fit), in internal order, with
# the tested columns (estimated and not aliased), dense, as given and centred; strata numbered
# in survival's order; `user` the row's position in the user's data.
zphRows <- function(fit) {
  all <- fitRows(fit)
  keep <- all$weights > 0
  columns <- which(!fit$fixed & !aliasedFlags(fit))
  X <- as.matrix(designColumns(fit$data, columns))[keep, , drop = FALSE]
  position <- survivalStratumPosition(fit)
  stratum <- if (is.null(position)) rep(1L, sum(keep)) else position[all$stratum[keep] + 1L]
  list(eta = all$eta[keep], weights = all$weights[keep], time = all$time[keep],
       start = if (!is.null(all$start)) all$start[keep], event = all$y[keep] == 1,
       stratum = stratum, nStrata = max(1L, length(position)), user = fit$data$order[keep],
       columns = columns, X = X, centred = sweep(X, 2, colMeans(X)))
}

# The transform of every row's time (uncentred).
zphTimeScale <- function(rows, transform) {
  t <- rows$time
  scale <- if (is.function(transform)) {
    userOrder <- order(rows$user)
    values <- transform(t[userOrder])
    if (!is.numeric(values) || length(values) != length(t))
      stopf("'transform' must return one number per time (%d), it gave %s", length(t),
            if (is.numeric(values)) sprintf("%d", length(values)) else class(values)[1])
    out <- numeric(length(t))
    out[userOrder] <- values
    out
  } else switch(transform, identity = t, log = log(t), rank = rank(t),
                km = 1 - kaplanMeierBefore(rows))
  if (any(!is.finite(scale[rows$event])))
    stopf("the transform of time is not finite at some event times%s",
          if (identical(transform, "log")) " (log of a time <= 0)" else "")
  scale
}

# S(t-) of the Kaplan-Meier curve of all rows (no strata, no weights) at each row's time.
kaplanMeierBefore <- function(rows) {
  eventTimes <- rows$time[rows$event]
  u <- sort(unique(eventTimes))
  d <- tabulate(match(eventTimes, u), length(u))
  n <- length(rows$time)
  atRisk <- n - findInterval(u, sort(rows$time), left.open = TRUE)
  if (!is.null(rows$start))
    atRisk <- atRisk - (n - findInterval(u, sort(rows$start), left.open = TRUE))
  c(1, cumprod(1 - d / atRisk))[findInterval(rows$time, u, left.open = TRUE) + 1]
}

# The score U2 of theta (one per covariate) and the information of (beta, theta), from the
# per-event-time shares weighted by g (`g`: each row's centred transform of time).
zphScore <- function(rows, g, ties) {
  moments <- coxTimeMoments(rows, rows$centred, ties)
  groupTime <- g[moments$groups$first]
  cross <- informationMatrix(moments, groupTime)
  information <- rbind(cbind(informationMatrix(moments), cross),
                       cbind(cross, informationMatrix(moments, groupTime^2)))
  list(U = colSums(moments$score * groupTime), information = information, moments = moments)
}

# The Schoenfeld residuals of `events` (unweighted): x less the mean at the event's time.
zphSchoenfeld <- function(rows, moments, events) {
  group <- moments$groups$of[match(events, moments$groups$events)]
  rows$centred[events, , drop = FALSE] - moments$xbar[group, , drop = FALSE]
}

# The tested columns by term (cox.zph's `assign`): with terms = TRUE a formula fit's columns
# grouped by the term they came from, else one per coefficient, named by the coefficient.
zphTerms <- function(fit, columns, terms) {
  labels <- names(fit$coefficients)
  ft <- fit$data$formulaTerms
  termOf <- c("(Intercept)", attr(ft$terms, "term.labels"))[unname(ft$assign[labels]) + 1L]
  if (!terms || length(termOf) != length(labels) || anyNA(termOf)) termOf <- labels
  termOf <- termOf[columns]
  split(seq_along(columns), factor(termOf, levels = unique(termOf)))
}

# chisq, df and p for each term and, with `global`, all of them.
zphTable <- function(U, information, assign, global) {
  p <- length(U)
  scoreTest <- function(J, label) {
    k <- c(seq_len(p), p + J)
    u <- c(rep(0, p), U[J])
    solved <- tryCatch(solve(information[k, k, drop = FALSE], u), error = function(e)
      stopf(paste("the information matrix of the test of %s is singular (%s): its covariates",
                  "times g(t) are collinear with the covariates"), label, conditionMessage(e)))
    sum(u * solved)
  }
  if (global) assign <- c(assign, list(GLOBAL = seq_len(p)))
  chisq <- mapply(scoreTest, assign, names(assign))
  df <- as.numeric(lengths(assign))
  matrix(c(chisq, df, stats::pchisq(chisq, df, lower.tail = FALSE)), length(assign), 3,
         dimnames = list(names(assign), c("chisq", "df", "p")))
}

# The events in cox.zph's order: by stratum and time; tied events in the data's row order,
# reversed for (start, stop] data (cox.zph walks those backwards).
zphEventOrder <- function(rows, groups) {
  events <- groups$events
  tieOrder <- if (is.null(rows$start)) rows$user[events] else -rows$user[events]
  events[order(rows$stratum[events], rows$time[events], tieOrder)]
}

# cox.zph's `used`: per stratum (rows) and column, the number of events of the stratum where
# the column varies within it, else 0.
zphUsed <- function(rows) {
  X <- rows$X
  first <- match(rows$stratum, rows$stratum)
  varies <- matrix(FALSE, rows$nStrata, ncol(X))
  differs <- rowsum((X != X[first, , drop = FALSE]) + 0, rows$stratum)
  varies[as.integer(rownames(differs)), ] <- differs > 0
  varies * tabulate(rows$stratum[rows$event], rows$nStrata)
}

# cox.zph's scaling: the Schoenfeld residuals of a stratum's events times the inverse of the
# average information per event over the columns that vary in the stratum (NA for the
# others), plus the coefficient; a term of several columns first becomes the residual of its
# linear predictor, plus 1.
zphScaledResiduals <- function(schoenfeld, information, used, eventStratum, assign, beta) {
  p <- ncol(used)
  weight <- matrix(0, p, p)
  for (i in seq_len(p)) for (j in seq_len(p)) weight[i, j] <- sum(pmin(used[, i], used[, j]))
  average <- information / ifelse(weight == 0, 1, weight)
  shift <- rep(1, length(assign))
  single <- lengths(assign) == 1
  shift[single] <- beta[unlist(assign[single])]
  if (any(!single)) {
    toTerms <- matrix(0, p, length(assign))
    for (i in seq_along(assign)) {
      J <- assign[[i]]
      toTerms[J, i] <- if (length(J) == 1) 1 else beta[J]
    }
    schoenfeld <- schoenfeld %*% toTerms
    average <- t(toTerms) %*% average %*% toTerms
    used <- used[, vapply(assign, `[`, 0L, 1L), drop = FALSE]
  }
  y <- matrix(NA_real_, nrow(schoenfeld), ncol(schoenfeld))
  pattern <- do.call(paste0, as.data.frame(ifelse(used > 0, "1", "0")))
  for (key in unique(pattern[eventStratum])) {
    k <- which(used[match(key, pattern), ] > 0)
    at <- which(pattern[eventStratum] == key)
    if (length(k))
      y[at, k] <- schoenfeld[at, k, drop = FALSE] %*% solve(average[k, k, drop = FALSE])
  }
  list(y = y + rep(shift, each = nrow(y)), var = solve(average))
}

# The events' strata as a factor of survival's stratum names (NULL without strata).
zphStrata <- function(fit, eventStratum) {
  names <- survivalStratumNames(fit)
  if (is.null(names)) NULL else factor(names[eventStratum], levels = names)
}

# The fit's strata named as survival names them, in survival's order (NULL without strata).
survivalStratumNames <- function(fit) {
  position <- survivalStratumPosition(fit)
  if (is.null(position)) return(NULL)
  curveStratumNames(fit, stratumLabelsOf(fit)[order(position)])
}

# residuals.coxph's "strata" attribute of the Schoenfeld residuals: the number of events of
# each stratum, named and ordered as survival does; `eventStratum` in survival's order.
strataEventTable <- function(fit, eventStratum) {
  names <- survivalStratumNames(fit)
  table(factor(names[eventStratum], levels = names))
}

# residuals(type = "scaledsch"): residuals.coxph's scaling of the Schoenfeld residuals (as
# given, weighted or not) by the model-based covariance times the number of events, plus the
# coefficients. An aliased coefficient counts as 0 with no variance, as coxph's NA ones.
scaledSchoenfeld <- function(fit, schoenfeld) {
  checkProportionalHazardsFit(fit, "residuals(type = \"scaledsch\")")
  labels <- colnames(schoenfeld)
  V <- coefficientVcov(fit, "model")[labels, labels, drop = FALSE]
  V[is.na(V)] <- 0
  beta <- fit$coefficients[labels]
  beta[aliasedFlags(fit)[match(labels, names(fit$coefficients))]] <- 0
  out <- schoenfeld %*% V * nrow(schoenfeld) + rep(unname(beta), each = nrow(schoenfeld))
  dimnames(out) <- dimnames(schoenfeld)
  attr(out, "strata") <- attr(schoenfeld, "strata")
  out
}
