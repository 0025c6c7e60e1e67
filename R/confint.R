# confint() of a fit: Wald intervals from vcov() (model-based or robust) and profile-likelihood
# intervals from the engine (src/engine/solver/profile.h), in one shape, R's, whatever `parm`
# is; the method, the variance and the profile's refits are attributes that print() shows.

#' Confidence intervals for the coefficients
#'
#' Wald intervals (from [vcov.argusFit()]) or profile-likelihood intervals, as a matrix of
#' R's shape: one row per coefficient, named by it, and the limits in columns labelled in
#' percent (`"2.5 %"`, `"97.5 %"`), as `stats::confint()` gives them, whatever `parm` is.
#' The method (and for Wald intervals the variance) is named in the result's attributes and
#' by `print()`.
#'
#' **The default method** is the one R's reference for each model uses, so that a ported
#' `confint()` call gives the reference's numbers: Wald intervals for `"cox"` and `"clr"`
#' (`confint.coxph()`, also for `clogit`) and `"fgr"` (`summary.crr()`'s intervals), with
#' the variance [vcov.argusFit()] reports by default (the robust one where the data have a
#' `cluster()` term, for Cox with weights that are not whole numbers, and for Fine-Gray,
#' as `coxph` and `crr` report them); Student's t intervals for `"ls"` (`confint.lm()`; its
#' profile is the same interval); the profile likelihood for `"lr"` and `"pr"`
#' (`confint.glm()`) and for `"cpr"` and `"sccs"` (a fixed-effects Poisson `glm` and the
#' incumbent profile them). Until 2026-12 the default was the profile for every model.
#'
#' **Penalized coefficients** (a normal or Laplace prior) get `NA` unless `penalized = TRUE`,
#' with a message that says so: under a prior an interval describes the posterior (normal)
#' or ignores the selection (Laplace), not a confidence interval, and profiling thousands
#' of them takes long. With `penalized = TRUE` they are profiled, or for Wald intervals get
#' the normal approximation to the posterior ([summary.argusFit()]'s intervals). Before a
#' profile of more than 10 coefficients a message says how many; in an interactive session
#' a progress line follows ([argusProgress]).
#'
#' **Profile likelihood** (`method = "profile"`): for each coefficient, the limits are where
#' the profile of the objective, with the other coefficients refitted (warm-started from the
#' fit), has dropped by `qchisq(level, 1) / 2` from its value at the fit. The other
#' coefficients always maximize the fit's own objective (log-likelihood plus log prior);
#' `includePenalty` says whether the prior terms count in the profiled value (with a flat
#' prior they are zero and it makes no difference). Each side is bracketed by steps from the
#' estimate that start at a Wald-like half-width and grow (guided by a parabola through the
#' last point), then solved by a Brent-style root search in the engine: the limits are the
#' profile's roots to the engine's tolerance, where `confint.glm()` interpolates a spline
#' through a grid of profile points (its limits differ from the roots by about 1e-4 of a
#' standard error). When the profile never drops far enough (a flat likelihood) or rises
#' above its value at the fit (the fit was not at a maximum), the limit is `NA` with a
#' warning; the work is bounded, so this never hangs. A fit whose status is
#' `"NO_FINITE_MLE"` profiles the limiting likelihood: one coefficient per direction in
#' which the likelihood keeps rising (`fit$pinned`, among the coefficients running off to
#' infinity, `fit$infinite`) stays where the fit left them while the others are profiled
#' (finite combinations of infinite coefficients, as the rates of a factor's other levels
#' where its reference level has no events, stay free), and the infinite coefficients' own
#' limit on the side they run to is `Inf` (or `-Inf`). Parameters are profiled in parallel
#' on `createControl(threads = )` threads of the fit's control; the results do not depend
#' on the number of threads. With `includePenalty = FALSE` and penalized other coefficients
#' the profile need not peak at the estimate, and a rise gives `NA` as above. The number of
#' refits of each coefficient's profile is the attribute `evaluations`.
#'
#' **Wald** (`method = "wald"`): estimate plus or minus `qnorm((1 + level) / 2)` standard
#' errors from `vcov(fit, type = type, cluster = cluster)`; `type = NULL` takes vcov()'s
#' default (above), `"model"` the model-based variance (the inverse information, the one
#' `coxph` keeps as `naive.var` and `crr` as `invinf`), `"robust"` the sandwich.
#' `method = "robust"` is `method = "wald", type = "robust"`. A profile ignores a
#' `cluster()` term (it treats the rows as independent), and says so.
#'
#' **Least squares** (`"ls"`): the log-likelihood is `-RSS / 2` (unit variance), so the
#' profile drop and the model-based standard errors are scaled by the residual variance
#' (weighted residual sum of squares over the residual degrees of freedom, as `summary.lm`)
#' and the quantile is Student's t on those degrees of freedom: with a flat prior both
#' methods give `confint.lm`'s intervals (the profile of a quadratic is exact). Robust
#' intervals take the sandwich as it is and Student's t too, as
#' `lmtest::coefci(lm_fit, vcov = sandwich::vcovHC(lm_fit, "HC0"))`.
#'
#' With weights that are not whole numbers (inverse probability weights, say), profile and
#' model-based Wald intervals treat the weights as frequencies and are too narrow: a warning
#' says so and points to the robust variance and [runBootstrap()] (Cox fits take the
#' robust variance by default there, as `coxph`).
#'
#' @param object An `argusFit`.
#' @param parm Coefficients: names, covariate identifiers (data made from long tables) or
#'   positions (matrix and formula routes). Default: all coefficients but the fixed ones.
#' @param level Confidence level.
#' @param method `"wald"`, `"profile"` or `"robust"` (Wald with the robust variance);
#'   `NULL` (default): the model's reference's method, above.
#' @param type The variance of Wald intervals: `NULL` (vcov()'s default), `"model"` or
#'   `"robust"`.
#' @param cluster For the robust variance: cluster labels, one per row of the data.
#' @param penalized Give intervals for penalized coefficients too (see above).
#' @param includePenalty Count the prior in the profiled objective (profile method only).
#' @param x A result of `confint()`, to print.
#' @param ... Only `overrideNoRegularization`, the incumbent's name for `penalized`. Any
#'   other argument is an error (a misspelt argument is never ignored).
#' @return A matrix of class `argusConfint` (printed as a matrix, then a line naming the
#'   method) with one row per coefficient and two columns, the lower and upper limits
#'   labelled in percent. Fixed, aliased and (unless `penalized = TRUE`) penalized
#'   coefficients get `NA`. Attributes: `method` (`"profile"` or `"wald"`), `variance`
#'   (Wald: `"model"` or `"robust"`; `NA` for a profile), `level`, and `evaluations` (the
#'   profile's refits per coefficient, `NA` where not profiled). `ci[, 1]` and
#'   `ci[, "2.5 %"]` read the limits as from any matrix.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' confint(fit)
#' confint(fit, "a", method = "wald")
#' @method confint argusFit
#' @export
confint.argusFit <- function(object, parm, level = 0.95, method = NULL, type = NULL,
                             cluster = NULL, penalized = FALSE, includePenalty = TRUE, ...) {
  rejectDots("confint()", ..., .allow = "overrideNoRegularization")
  checkFitForInference(object, "confint()")
  checkLevel(level)
  checkFlag(includePenalty, "includePenalty")
  penalized <- penalizedArgument(penalized, missing(penalized), list(...)$overrideNoRegularization)
  chosen <- intervalMethod(object, method, type, cluster)
  columns <- parmColumns(object, if (missing(parm)) NULL else parm)
  aliased <- aliasedFlags(object)
  if (missing(parm)) columns <- columns[!object$fixed[columns] | aliased[columns]]
  labels <- names(object$coefficients)[columns]
  estimated <- !object$fixed[columns]
  userFixed <- !estimated & !aliased[columns]
  if (any(userFixed))
    warning(sprintf("fixed coefficient(s) have no interval: %s", paste(labels[userFixed], collapse = ", ")),
            call. = FALSE)
  prior <- object$priorType[columns]
  skipped <- estimated & prior != "none" & !penalized
  if (any(skipped)) notePenalizedSkipped(labels[skipped], prior[skipped])
  wanted <- estimated & !skipped
  limits <- matrix(NA_real_, length(columns), 2)
  evaluations <- rep(NA_integer_, length(columns))
  if (any(wanted)) {
    warnIntervalWeights(object, chosen)
    # least squares: -RSS / 2 is the log-likelihood at unit variance (see Details)
    scale <- if (object$modelType == "ls") residualScale(object)
    found <- if (chosen$method == "wald") {
      waldLimits(object, columns[wanted], level, reportedVcov(object, chosen$variance, cluster), scale)
    } else {
      profileLimitsWithProgress(object, columns[wanted], level, includePenalty, scale)
    }
    limits[wanted, ] <- found
    if (!is.null(attr(found, "evaluations"))) evaluations[wanted] <- attr(found, "evaluations")
  }
  a <- (1 - level) / 2
  dimnames(limits) <- list(labels, paste(format(100 * c(a, 1 - a), trim = TRUE,
                                                 scientific = FALSE, digits = 3), "%"))
  structure(limits, method = chosen$method, variance = chosen$variance %||% NA_character_,
            level = level, evaluations = evaluations,
            class = c("argusConfint", "matrix", "array"))
}

#' @rdname confint.argusFit
#' @method print argusConfint
#' @export
print.argusConfint <- function(x, ...) {
  method <- attr(x, "method")
  variance <- attr(x, "variance")
  evaluations <- attr(x, "evaluations")
  limits <- unclass(x)
  attr(limits, "method") <- attr(limits, "variance") <- attr(limits, "level") <-
    attr(limits, "evaluations") <- NULL
  print(limits, ...)
  cat(intervalDescription(method, variance, evaluations), "\n", sep = "")
  invisible(x)
}

# "Profile-likelihood intervals (...)" / "Wald intervals, robust (sandwich) variance".
intervalDescription <- function(method, variance, evaluations = NULL) {
  if (identical(method, "profile")) {
    n <- sum(!is.na(evaluations))
    return(sprintf("Profile-likelihood intervals%s", if (n > 0)
      sprintf(" (%s refits for %d coefficient%s)", format(sum(evaluations, na.rm = TRUE), big.mark = ","),
              n, if (n == 1) "" else "s") else ""))
  }
  sprintf("Wald intervals, %s variance", switch(variance %||% "model", robust = "robust (sandwich)",
                                                "model-based"))
}

# The method and, for Wald intervals, the variance: the user's, or the model's reference's
# (see confint.argusFit's Details).
intervalMethod <- function(fit, method, type, cluster) {
  if (!is.null(method)) {
    if (!is.character(method) || length(method) != 1 || !(method %in% c("wald", "profile", "robust")))
      stopf("'method' must be \"wald\", \"profile\" or \"robust\"")
  }
  if (!is.null(type)) type <- match.arg(type, c("model", "robust"))
  if (identical(method, "robust")) {
    if (identical(type, "model")) stopf("method = \"robust\" is Wald with type = \"robust\", not \"model\"")
    method <- "wald"
    type <- "robust"
  }
  method <- method %||% defaultIntervalMethod(fit)
  if (method == "profile") {
    if (!is.null(type)) stopf("'type' (the variance) is for Wald intervals (method = \"wald\")")
    if (!is.null(cluster)) stopf("'cluster' is for the robust variance of Wald intervals")
    if (!is.null(fit$data$cluster))
      warning(paste("the data have a cluster() term, which profile-likelihood intervals ignore",
                    "(they treat the rows as independent); Wald intervals (the default here)",
                    "use the clustered robust variance"), call. = FALSE)
    return(list(method = "profile", variance = NULL))
  }
  type <- type %||% (if (!is.null(cluster)) "robust" else defaultVarianceType(fit))
  if (!is.null(cluster) && type == "model") stopf("'cluster' is for the robust variance (type = \"robust\")")
  list(method = "wald", variance = type)
}

# Wald for the models whose R reference reports Wald intervals (coxph and clogit, crr, lm),
# the profile likelihood for the GLMs (confint.glm) and the conditional Poisson models; Wald
# (robust) wherever the data have a cluster() term, which a profile cannot use.
defaultIntervalMethod <- function(fit) {
  if (!is.null(fit$data$cluster)) return("wald")
  if (fit$modelType %in% c("cox", "clr", "fgr", "ls")) "wald" else "profile"
}

# `penalized`, or the incumbent's overrideNoRegularization (the same switch, under its name).
penalizedArgument <- function(penalized, defaulted, override) {
  checkFlag(penalized, "penalized")
  if (is.null(override)) return(penalized)
  checkFlag(override, "overrideNoRegularization")
  if (!defaulted && override != penalized)
    stopf("give 'penalized' or the incumbent's 'overrideNoRegularization', not both")
  override
}

notePenalizedSkipped <- function(labels, prior) {
  shown <- paste(sprintf("'%s'", utils::head(labels, 5)), collapse = ", ")
  message(sprintf(paste0(
    "confint(): %s penalized coefficient%s (%s%s) get%s NA: under a prior an interval ",
    "describes the posterior%s, not a confidence interval. confint(penalized = TRUE) ",
    "gives %s anyway"),
    format(length(labels), big.mark = ","), if (length(labels) == 1) "" else "s", shown,
    if (length(labels) > 5) sprintf(" and %s more", format(length(labels) - 5, big.mark = ",")) else "",
    if (length(labels) == 1) "s" else "",
    if (any(prior == "laplace")) " or, for a Laplace prior, ignores which coefficients it selected" else "",
    if (length(labels) == 1) "it" else "them"))
}

# Profile and model-based Wald intervals read non-integer weights as frequencies.
warnIntervalWeights <- function(fit, chosen) {
  if (identical(chosen$variance, "robust")) return(invisible())
  warnNonIntegerWeights(fit, sprintf("%s intervals", if (chosen$method == "wald")
    "model-based Wald" else "profile-likelihood"))
}

# `scale`: least squares' residualScale() (variance and degrees of freedom), else NULL; V
# from reportedVcov() (Student's t for "ls", the sandwich too).
waldLimits <- function(fit, columns, level, V, scale = NULL) {
  labels <- names(fit$coefficients)[columns]
  se <- sqrt(diag(V))[labels]  # NA where vcov() left the coefficient out
  z <- waldQuantile(level, scale)
  beta <- fit$coefficients[columns]
  unname(cbind(beta - z * se, beta + z * se))
}

# profileLimits() over `columns`, announced where they are many and, in an interactive
# session, in rounds that report their progress (argusProgress; the same limits).
profileLimitsWithProgress <- function(fit, columns, level, includePenalty, scale = NULL) {
  if (length(columns) > 10)
    message(sprintf(paste("confint(): profiling %s coefficients, each by refits on both sides;",
                          "a shorter 'parm', or method = \"wald\", is quicker"),
                    format(length(columns), big.mark = ",")))
  rounds <- inRounds(seq_along(columns), function(at)
    profileLimits(fit, columns[at], level, includePenalty, scale),
    "profile-likelihood intervals", threads = max(1L, fit$control$threads %||% 1L), seconds = 5)
  limits <- do.call(rbind, rounds)
  attr(limits, "evaluations") <- unlist(lapply(rounds, attr, "evaluations"))
  limits
}

profileLimits <- function(fit, columns, level, includePenalty, scale = NULL) {
  # least squares: sigma^2 t^2 / 2, where the profile of a quadratic gives confint.lm's limits
  drop <- if (is.null(scale)) stats::qchisq(level, 1) / 2
          else scale$sigma2 * waldQuantile(level, scale)^2 / 2
  profile <- list(drop = drop, includePenalty = includePenalty,
                  threads = fit$control$threads, maxExpansions = 10L)
  # One coefficient per direction of recession is held where the fit left it (profileSettings())
  # while the others are profiled; the infinite coefficients' own profiles move them as any other.
  infinite <- infiniteFlags(fit)[columns]
  parts <- lapply(split(seq_along(columns), infinite), function(at) {
    part <- .Call(argus_profile_intervals, fit$data, profileSettings(fit, infinite[at[1]]),
                  as.integer(columns[at] - 1L), profile)
    part$at <- at
    part
  })
  out <- lapply(stats::setNames(nm = names(parts[[1]])), function(name) {
    value <- unlist(lapply(parts, `[[`, name), use.names = FALSE)
    value[order(unlist(lapply(parts, `[[`, "at")))]
  })
  # The profile of a coefficient that runs off to infinity never falls on that side: its limit
  # there is infinite (the fit's warning has named it already)
  toward <- sign(fit$coefficients[columns])
  out$upper[infinite & toward > 0] <- Inf
  out$upperStatus[infinite & toward > 0] <- "found"
  out$lower[infinite & toward < 0] <- -Inf
  out$lowerStatus[infinite & toward < 0] <- "found"
  # (refits on that side may stop short; a refit that did on the other side failed its limit)
  out$unconverged[infinite] <- 0L
  labels <- names(fit$coefficients)[columns]
  reportProfileProblems(labels, out)
  limits <- unname(cbind(out$lower, out$upper))
  limits[is.nan(limits)] <- NA_real_  # the engine's "no limit" is NaN; R's is NA
  attr(limits, "evaluations") <- out$evaluations
  limits
}

# One warning per kind of problem, naming the coefficients and the side.
reportProfileProblems <- function(labels, out) {
  reasons <- c("not reached" = paste("the profile never dropped far enough",
                                     "(separation or a flat likelihood?)"),
               "not a maximum" = paste("the profile rose above its value at the fit (not a",
                                       "maximum: separation or a fit that did not converge?)"),
               "failed" = paste("a refit failed or ended without converging (raise",
                                "maxIterations), or the root search did not converge"))
  sides <- rep(c("lower", "upper"), each = length(labels))
  statuses <- c(out$lowerStatus, out$upperStatus)
  for (status in names(reasons)) {
    hit <- statuses == status
    if (any(hit))
      warning(sprintf("profile limit set to NA for %s: %s",
                      paste(sprintf("%s (%s)", c(labels, labels)[hit], sides[hit]),
                            collapse = ", "), reasons[[status]]), call. = FALSE)
  }
  if (any(out$unconverged > 0))
    warning(sprintf(paste("%d profile refit(s) ended without convergence;",
                          "consider a larger maxIterations"), sum(out$unconverged)), call. = FALSE)
}
