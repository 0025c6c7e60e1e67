# Uncertainty of a fit: vcov(), Wald and profile-likelihood confint() (profileLogLikelihood()
# and its grids are in profile_likelihood.R).
# The engine does the numbers (src/engine/solver/inference.h, profile.h); this file picks the
# coefficients, adds the prior's curvature where the objective is a log posterior, and names
# and checks the results.

# Every model type is covered (the engine side is model-agnostic, and each model's results are
# checked against a reference in the tests); what a fit needs is its data and settings.
checkFitForInference <- function(fit, what) {
  if (!inherits(fit, "argusFit")) stopf("'%s' needs a fit from fitModel()", what)
  if (is.null(fit$data) && !is.null(fit$settings))
    stopf(paste("%s needs the data the fit was made from, and they were dropped (fit$data is",
                "NULL): put them back (fit$data <- the argusData object) or refit it"), what)
  if (is.null(fit$data) || is.null(fit$settings))
    stopf("this fit does not hold its data and settings (made by an older version?): refit it")
  checkFitObject(fit)
  checkDataObject(fit$data, "fit$data")
}

# The fit's own settings with the fitted coefficients as the starting point, as every engine
# call after the fit needs them.
engineSettings <- function(fit) {
  settings <- fit$settings
  settings$start <- unname(fit$coefficients)
  settings$verbose <- FALSE
  settings
}

# Positions (1-based) of the coefficients named by `parm`: names, covariate identifiers (long
# route, where covariates have identifiers) or positions (matrix and formula routes).
parmColumns <- function(fit, parm) {
  labels <- names(fit$coefficients)
  if (missing(parm) || is.null(parm)) return(seq_along(labels))
  if (length(parm) == 0) stopf("'parm' is empty")
  if (is.character(parm)) {
    at <- match(parm, labels)
    if (anyNA(at)) stopf("'parm' names unknown coefficient(s): %s",
                         paste(utils::head(parm[is.na(at)], 5), collapse = ", "))
    return(at)
  }
  # covariate ids; 0 is the intercept, as the incumbent names it
  if (!is.null(fit$covariateIds)) return(columnsOf(interceptAsZero(parm, fit$data, "parm"), fit$data, "parm"))
  if (!is.numeric(parm) || anyNA(parm) || any(parm != round(parm)) || any(parm < 1) ||
      any(parm > length(labels)))
    stopf("'parm' must name coefficients or give positions between 1 and %d", length(labels))
  as.integer(parm)
}

# Hessian of the log posterior over `columns`: the engine's Hessian of the log-likelihood
# plus the normal prior's -1 / variance on the diagonal (flat and Laplace priors have no
# curvature away from 0). `attr(, "curvature")` is the exact diagonal (the engine's h_j, not a
# difference): 0 where the data carry no information on a coefficient, which a difference of
# gradients would blur into rounding noise.
# With a flat prior on the intercept, dense columns whose mean dwarfs their spread are
# centred (the engine's data/column_centring.h): H is then over (beta~_0, beta_j), beta~_0 =
# beta_0 + sum_j c_j beta_j, and attr "shifts" holds each column's c (0 for the others);
# invertInformation() maps the inverse back. Written as is, such a column (a time stamp in
# seconds within a day) made the Hessian singular to working precision.
logPosteriorHessian <- function(fit, columns) {
  intercept <- which(names(fit$coefficients) == "(Intercept)")
  centre <- isTRUE(fit$hasIntercept) && length(intercept) == 1 && intercept %in% columns &&
    fit$priorType[intercept] == "none"
  out <- .Call(argus_hessian, fit$data, engineSettings(fit), unname(fit$coefficients),
               as.integer(columns - 1L), TRUE, centre)
  H <- out$hessian
  curvature <- out$hessianDiagonal
  normal <- fit$priorType[columns] == "normal"
  prior <- 1 / columnVariances(fit)[columns][normal]
  diag(H)[normal] <- diag(H)[normal] - prior
  curvature[normal] <- curvature[normal] - prior
  labels <- names(fit$coefficients)[columns]
  dimnames(H) <- list(labels, labels)
  structure(H, curvature = curvature, shifts = out$shifts,
            origin = if (!is.null(out$shifts)) match(intercept, columns),
            exact = isTRUE(out$exact))
}

# solve(-H) over the coefficients the data inform (strictly negative exact curvature); NA
# for the others, and NA throughout when the informed ones are collinear: the smallest
# eigenvalue of -H on the correlation scale below 1e-9 for a difference Hessian (far above
# its error, about 1e-12 relative), below 1e-12 for an exact one (the GLMs; the fit's own
# alias tolerance on 1 - R^2). With 1e-9 for both, x and x + 1e-5 noise beside an unrelated
# z (1 - R^2 ~ 1e-10, estimated by the fit and by glm) left every variance NA, z's too.
invertInformation <- function(H) {
  informed <- attr(H, "curvature") < 0
  shifts <- attr(H, "shifts")
  origin <- attr(H, "origin")
  singular <- if (isTRUE(attr(H, "exact"))) 1e-12 else 1e-9
  attr(H, "curvature") <- attr(H, "shifts") <- attr(H, "origin") <- attr(H, "exact") <- NULL
  V <- H
  V[] <- NA_real_
  if (!all(informed))
    warning(sprintf("no information on %s (no curvature of the objective): variances set to NA",
                    paste(rownames(H)[!informed], collapse = ", ")), call. = FALSE)
  if (!any(informed)) return(V)
  info <- -H[informed, informed, drop = FALSE]
  scale <- 1 / sqrt(pmax(diag(info), .Machine$double.xmin))
  correlation <- info * outer(scale, scale)
  if (!all(is.finite(correlation))) {
    warning("the Hessian has non-finite entries: returning NA",
            call. = FALSE)
    return(V)
  }
  smallest <- min(eigen(correlation, symmetric = TRUE, only.values = TRUE)$values)
  # inverted on the correlation scale and mapped back: solve(info) itself refuses a matrix
  # whose diagonal spans more than ~1e16 (a covariate in units of 1e5 beside 0/1 ones)
  inverse <- if (smallest > singular)
    tryCatch(solve(correlation) * outer(scale, scale), error = function(e) NULL)
  if (is.null(inverse) || any(!is.finite(inverse))) {
    warning("the Hessian is singular (collinear covariates?): returning NA", call. = FALSE)
    return(V)
  }
  V[informed, informed] <- (inverse + t(inverse)) / 2
  if (is.null(shifts) || !informed[origin]) return(V)
  # back from the centred basis: beta = A beta~ with beta_0 = beta~_0 - sum_j c_j beta~_j;
  # only the intercept's row and column change
  if (any(shifts[!informed] != 0)) {
    V[origin, ] <- V[, origin] <- NA_real_
    return(V)
  }
  at <- which(informed)
  A <- diag(length(at))
  A[match(origin, at), ] <- A[match(origin, at), ] - shifts[at]
  mapped <- A %*% V[at, at, drop = FALSE] %*% t(A)
  V[at, at] <- (mapped + t(mapped)) / 2
  V
}

#' Variance-covariance matrix of the coefficients
#'
#' The inverse of minus the Hessian of the fit's objective at the fitted coefficients, over
#' the coefficients that were estimated (fixed coefficients are left out).
#'
#' \itemize{
#'   \item Flat prior: the objective is the log-likelihood, and this is the usual
#'     model-based covariance (as `vcov()` of `glm` for `"lr"` and `"pr"`, of
#'     `survival::clogit` for `"clr"` and of `survival::coxph` for `"cox"`; with non-integer
#'     weights coxph reports a robust variance, and this equals its `naive.var`). For `"fgr"` it
#'     is the inverse information of the log pseudo-likelihood with the censoring weights
#'     held fixed: `cmprsk::crr()`'s `invinf`, not its `var`, which is the robust (sandwich)
#'     variance that also accounts for the estimated censoring distribution. For `"ls"` it is
#'     `vcov(lm(...))`: the inverse of `t(X) W X` times the residual variance
#'     `sum(w e^2) / (n - p)` (the fit's likelihood has unit variance; the inverse
#'     information alone was returned before 2026-11-28). Under a normal prior on some
#'     coefficients the posterior covariance below is multiplied by the same factor, as
#'     [summary.argusFit()]'s standard errors are (p counts every estimated coefficient).
#'   \item Normal prior: the objective is the log posterior, and this is the covariance of
#'     the normal (Laplace) approximation to the posterior: `-1 / variance` is added to the
#'     diagonal of the Hessian for each penalized coefficient.
#'   \item Laplace prior: the log posterior has no curvature at 0, so the matrix covers the
#'     nonzero coefficients (and the unpenalized ones) only, from the curvature of the
#'     log-likelihood, and ignores the selection; a warning says so.
#' }
#' The Hessian comes from the engine (central differences of the analytic gradient, about
#' 1e-12 relative error in the engine's tests), so it is available for every model type.
#'
#' **Robust** (`type = "robust"`): the sandwich `V S V`, with `V` the matrix above and `S`
#' the sum of the outer products of the per-row score contributions (per cluster when
#' `cluster` is given or the formula has a `cluster()` term): for `"lr"`, `"pr"` and `"ls"`
#' `w (y - mu) x`, the HC0 sandwich of `sandwich::vcovHC(glm_fit, type = "HC0")` (clustered:
#' `sandwich::vcovCL(type = "HC0", cadjust = FALSE)`); for `"cox"` the weighted score
#' residuals, the variance of `coxph(robust = TRUE)` (or with `cluster()`); for `"fgr"`
#' (without weights, strata or a given `censoringSurvival`) the pseudo-likelihood scores plus
#' the effect of each row on the estimated censoring distribution, `cmprsk::crr()`'s `var`.
#' For the conditional models without weights (`"cpr"`, `"sccs"`, and `"clr"` in Breslow's
#' form: `ties = "breslow"` or one case per matched set) each row contributes
#' `(y - n pi)(x - xbar)` within its stratum, the score residuals of
#' `clogit(method = "breslow", robust = TRUE)`; `cluster` = the stratum (patient) sums them to
#' each stratum's score, the clustered sandwich of a fixed-effects Poisson `glm`.
#' It needs at least 2 clusters (rows, without clusters; rows of weight 0 count for none):
#' at the estimate the clusters' score sums add up to zero, so from one the sandwich would be
#' 0, and that is an error, as `sandwich::vcovCL()` and `coxph(cluster = )` stop there; from
#' no more clusters than estimated coefficients it is singular (some combinations of
#' coefficients get variance 0), and a warning says so.
#' No small-sample factor is applied. It stays valid when the weights are not frequencies
#' (inverse probability weights) and when rows within a cluster are dependent; the
#' model-based one does not. Elsewhere (weighted conditional models, `clr` with exact or Efron
#' ties and several cases per set, weighted or stratified Fine-Gray): use [runBootstrap()].
#'
#' @param object An `argusFit` from [fitModel()].
#' @param type `"model"` (the inverse information above) or `"robust"` (the sandwich). By
#'   default `"robust"` when the data have a `cluster()` term, as `coxph`, else `"model"`.
#' @param cluster For `type = "robust"`: a cluster label for each row of the data (in the
#'   order given to [createData()]; after `na.omit`, one per kept row or one per row given;
#'   or, for long tables, named by rowId, as `fitModel()`'s `weights`); rows of a cluster
#'   share one score contribution.
#' @param ... Not used: an argument given here is an error (a misspelt argument is never
#'   ignored).
#' @return A symmetric matrix with row and column names. Coefficients that could not be
#'   estimated (`fit$aliased`: collinear, duplicated, or without information, such as a
#'   covariate constant within every stratum of a conditional model) get `NA` rows and
#'   columns, as in `vcov(lm)`; a coefficient whose curvature vanishes at the estimate gets
#'   `NA` entries with a warning, and a numerically singular Hessian makes the whole matrix
#'   `NA`.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' vcov(fit)
#' @method vcov argusFit
#' @export
vcov.argusFit <- function(object, ..., type = NULL, cluster = NULL) {
  rejectDots("vcov()", ...)
  checkFitForInference(object, "vcov()")
  V <- reportedVcov(object, type, cluster)
  attr(V, "type") <- NULL
  V
}

# What vcov(), summary() and Wald intervals report: coefficientVcov(), least squares'
# model-based one at the residual variance, as vcov(lm) (unscaled, sqrt(diag(vcov(fit))) was
# 0.244 for wt on mtcars beside summary()'s 0.633). Under a normal prior the same factor
# applies (the prior's variance is on the unit-variance scale of the fit's objective).
reportedVcov <- function(object, type = NULL, cluster = NULL) {
  V <- coefficientVcov(object, type, cluster)
  if (object$modelType == "ls" && identical(attr(V, "type"), "model"))
    V[] <- V * residualScale(object)$sigma2
  V
}

# vcov() before least squares' residual variance: the inverse information (type "model", the
# unit-variance Hessian for "ls") or the sandwich, with the type taken in attr(, "type").
coefficientVcov <- function(object, type = NULL, cluster = NULL) {
  # a cluster() term asks for the clustered sandwich, as in coxph
  type <- match.arg(type %||% if (is.null(object$data$cluster)) "model" else "robust",
                    c("model", "robust"))
  if (!is.null(cluster) && type == "model")
    stopf("'cluster' is for type = \"robust\"")
  V <- modelVcov(object)
  out <- if (type == "model") V else robustVariance(object, V, resolveCluster(object, cluster))
  structure(out, type = type)
}

# inverse of minus the Hessian of the objective (see vcov.argusFit's details)
modelVcov <- function(object) {
  aliased <- aliasedFlags(object)
  columns <- which(!object$fixed)
  laplace <- object$priorType[columns] == "laplace"
  if (any(laplace)) {
    warning("with a Laplace prior, vcov() covers the nonzero coefficients only, from the ",
            "curvature of the log-likelihood; it ignores which coefficients were selected",
            call. = FALSE)
    columns <- columns[!laplace | object$coefficients[columns] != 0]
  }
  if (length(columns) == 0 && !any(aliased))
    stopf("no estimated coefficients to give a covariance for")
  V <- if (length(columns)) invertInformation(logPosteriorHessian(object, columns))
  if (!any(aliased)) return(V)
  # Aliased coefficients (not identifiable) get NA rows and columns, as vcov(lm) gives them.
  keep <- sort(c(columns, which(aliased)))
  labels <- names(object$coefficients)[keep]
  full <- matrix(NA_real_, length(keep), length(keep), dimnames = list(labels, labels))
  if (length(columns)) full[rownames(V), colnames(V)] <- V
  full
}

#' Confidence intervals for the coefficients
#'
#' Profile-likelihood (default) or Wald intervals (robust by default where the data have a
#' `cluster()` term).
#'
#' **Profile likelihood** (`method = "profile"`): for each coefficient, the limits are where
#' the profile of the objective, with the other coefficients refitted (warm-started from the
#' fit), has dropped by `qchisq(level, 1) / 2` from its value at the fit. The other
#' coefficients always maximize the fit's own objective (log-likelihood plus log prior);
#' `includePenalty` says whether the prior terms count in the profiled value (with a flat
#' prior they are zero and it makes no difference). Each side is bracketed by steps from the
#' estimate that start at a Wald-like half-width and grow (guided by a parabola through the
#' last point), then solved by a Brent-style root search in the engine. When the profile
#' never drops far enough (a flat likelihood) or rises above its value at the fit (the fit
#' was not at a maximum), the limit is `NA` with a warning; the work is bounded, so this
#' never hangs. A fit whose status is `"NO_FINITE_MLE"` profiles the limiting likelihood:
#' one coefficient per direction in which the likelihood keeps rising (`fit$pinned`, among
#' the coefficients running off to infinity, `fit$infinite`) stays where the fit left them
#' while the others are profiled (finite combinations of infinite coefficients, as the rates
#' of a factor's other levels where its reference level has no events, stay free), and the
#' infinite coefficients' own limit on the side they run to is `Inf` (or `-Inf`). Parameters are profiled in parallel on
#' `createControl(threads = )` threads of the fit's control; the results do not depend on
#' the number of threads. With `includePenalty = FALSE` and penalized other
#' coefficients the profile need not peak at the estimate, and a rise gives `NA` as above.
#' A profile interval of a penalized coefficient describes the posterior, not a frequentist
#' confidence interval.
#'
#' **Wald** (`method = "wald"`): estimate plus or minus `qnorm((1 + level) / 2)` standard
#' errors from [vcov.argusFit()] (its default: the model-based variance, or the clustered
#' sandwich where the data have a `cluster()` term); **robust** (`method = "robust"`): the
#' same with the robust (sandwich) standard errors of `vcov(type = "robust", cluster =
#' cluster)`. Where the data have a `cluster()` term the default method is `"robust"`, as
#' `coxph`'s intervals are; a profile then ignores the clusters, and says so.
#'
#' **Least squares** (`"ls"`): the log-likelihood is `-RSS / 2` (unit variance), so the
#' profile drop and the model-based standard errors are scaled by the residual variance
#' (weighted residual sum of squares over the residual degrees of freedom, as `summary.lm`)
#' and the quantile is Student's t on those degrees of freedom: with a flat prior both
#' methods give `confint.lm`'s intervals (the profile of a quadratic is exact). Robust
#' intervals take the sandwich as it is and Student's t too, as
#' `lmtest::coefci(lm_fit, vcov = sandwich::vcovHC(lm_fit, "HC0"))`.
#'
#' With weights that are not whole numbers (inverse probability weights, say), the profile
#' and Wald intervals treat the weights as frequencies and are too narrow: a warning says so
#' and points to `method = "robust"` and [runBootstrap()].
#'
#' @param object An `argusFit`.
#' @param parm Coefficients: names, covariate identifiers (data made from long tables) or
#'   positions (matrix and formula routes). Default: all estimated coefficients.
#' @param level Confidence level.
#' @param method `"profile"`, `"wald"` or `"robust"`.
#' @param cluster For `method = "robust"`: cluster labels, one per row of the data.
#' @param includePenalty Count the prior in the profiled objective (profile method only).
#' @param ... Only `overrideNoRegularization`, the incumbent's argument: `TRUE` or left out,
#'   intervals of penalized coefficients are profiled too; `FALSE` refuses them, as the
#'   incumbent does. Any other argument is an error (a misspelt argument is never ignored).
#' @return A matrix with one row per coefficient and columns for the lower and upper limits,
#'   labelled in percent as `stats::confint()` does. Fixed coefficients get `NA`. Where
#'   `parm` gives covariate identifiers of data made from long tables (the incumbent's call,
#'   as OHDSI packages write it), the incumbent's layout: columns `covariate` (the id), the
#'   two limits and `evaluations` (profile refits; `NA` for Wald intervals), so that code
#'   reading `ci[2]` and `ci[3]`, or `ci[, 2:3]`, reads the limits.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
#' y <- rbinom(100, 1, plogis(x[, 1]))
#' fit <- fitModel(createData(x = x, y = y, modelType = "lr"))
#' confint(fit)
#' confint(fit, "a", method = "wald")
#' @method confint argusFit
#' @export
confint.argusFit <- function(object, parm, level = 0.95, method = c("profile", "wald", "robust"),
                             includePenalty = TRUE, cluster = NULL, ...) {
  rejectDots("confint()", ..., .allow = "overrideNoRegularization")
  checkFitForInference(object, "confint()")
  # A cluster() term: the clustered sandwich, as vcov() and summary() (and coxph) take it;
  # the model-based profile was 0.77-0.95 times coxph's width on cgd's patients
  clustered <- !is.null(object$data$cluster)
  method <- if (missing(method) && clustered) "robust" else match.arg(method)
  if (!is.null(cluster) && method != "robust") stopf("'cluster' is for method = \"robust\"")
  if (clustered && method == "profile")
    warning(paste("the data have a cluster() term, which profile-likelihood intervals ignore",
                  "(they treat the rows as independent); method = \"robust\", the default",
                  "here, uses it"), call. = FALSE)
  # (Wald on a cluster() fit takes the clustered sandwich: no frequency reading of weights)
  if (method == "profile" || (method == "wald" && !clustered))
    warnNonIntegerWeights(object, sprintf("%s intervals", if (method == "wald") "Wald" else "profile-likelihood"))
  checkLevel(level)
  checkFlag(includePenalty, "includePenalty")
  columns <- parmColumns(object, if (missing(parm)) NULL else parm)
  checkOverrideNoRegularization(object, columns, list(...)$overrideNoRegularization)
  aliased <- aliasedFlags(object)
  if (missing(parm)) columns <- columns[!object$fixed[columns] | aliased[columns]]
  limits <- matrix(NA_real_, length(columns), 2)
  evaluations <- rep(NA_integer_, length(columns))
  estimated <- !object$fixed[columns]
  userFixed <- !estimated & !aliased[columns]
  if (any(userFixed))
    warning(sprintf("fixed coefficient(s) have no interval: %s",
                    paste(names(object$coefficients)[columns[userFixed]], collapse = ", ")),
            call. = FALSE)
  if (any(estimated)) {
    # least squares: -RSS / 2 is the log-likelihood at unit variance (see Details)
    scale <- if (object$modelType == "ls") residualScale(object)
    found <- if (method != "profile") {
      waldLimits(object, columns[estimated], level,
                 reportedVcov(object, if (method == "robust") "robust", cluster), scale)
    } else {
      profileLimits(object, columns[estimated], level, includePenalty, scale)
    }
    limits[estimated, ] <- found
    if (!is.null(attr(found, "evaluations"))) evaluations[estimated] <- attr(found, "evaluations")
  }
  a <- (1 - level) / 2
  percents <- paste(format(100 * c(a, 1 - a), trim = TRUE, scientific = FALSE, digits = 3), "%")
  labels <- names(object$coefficients)[columns]
  if (!missing(parm) && byCovariateId(object, parm)) {
    # The incumbent's call (covariate ids of long-table data) gets the incumbent's layout,
    # so that ported code reading ci[2] and ci[3] (CohortMethod) or ci[, 2:3] reads the
    # limits: a leading covariate id and a trailing count of profile refits.
    ids <- suppressWarnings(as.numeric(parm))  # (bit64 warns; ours below says more)
    if (isInteger64(parm) && any(abs(ids) > 2^53))
      warning("covariate ids beyond 2^53 lose digits in the numeric 'covariate' column; ",
              "the row names hold them exactly", call. = FALSE)
    out <- cbind(ids, limits, evaluations)
    dimnames(out) <- list(labels, c("covariate", percents, "evaluations"))
    return(out)
  }
  dimnames(limits) <- list(labels, percents)
  limits
}

# parm given as covariate identifiers: data from long tables, numbers (the incumbent's way).
byCovariateId <- function(fit, parm) {
  !is.null(fit$covariateIds) && (is.numeric(parm) || inherits(parm, "integer64"))
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
