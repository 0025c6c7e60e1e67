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
#' The model-based variance (`type = "model"`): the inverse of minus the Hessian of the
#' fit's objective at the fitted coefficients, over the coefficients that were estimated
#' (fixed coefficients are left out); or the robust sandwich (`type = "robust"`, below). By
#' default, the one `coxph`, `crr` and `glm` report (see `type`).
#'
#' \itemize{
#'   \item Flat prior: the objective is the log-likelihood, and this is the usual
#'     model-based covariance (as `vcov()` of `glm` for `"lr"` and `"pr"`, of
#'     `survival::clogit` for `"clr"` and of `survival::coxph` for `"cox"`; with non-integer
#'     weights coxph reports a robust variance, the default here too, and this equals its
#'     `naive.var`). For `"fgr"` it
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
#'   default (`NULL`) the variance R's reference reports, so that `summary()`, `tidy()`,
#'   `confint()` and `vcov()` of a ported `coxph`, `crr` or `glm` call give its standard
#'   errors: `"robust"` when the data have a `cluster()` term (as `coxph`), for `"cox"` with
#'   weights that are not whole numbers (inverse probability weights: `coxph` switches to its
#'   robust variance by the same rule, `any(weights != floor(weights))`, and keeps the
#'   model-based one as `naive.var`), and for `"fgr"` where `cmprsk::crr` could make the fit
#'   (no weights, strata or given `censoringSurvival`: its `var`; the model-based one is its
#'   `invinf`); `"model"` otherwise (`glm` keeps it with any weights). Until 2026-12 the
#'   default was `"model"` except with a `cluster()` term. `cluster` given asks for
#'   `"robust"`.
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
  type <- match.arg(type %||% if (is.null(cluster)) defaultVarianceType(object) else "robust",
                    c("model", "robust"))
  if (!is.null(cluster) && type == "model")
    stopf("'cluster' is for type = \"robust\"")
  V <- modelVcov(object)
  out <- if (type == "model") V else robustVariance(object, V, resolveCluster(object, cluster))
  structure(out, type = type)
}

# The variance reported where none is asked for, survival's: the robust sandwich where coxph
# and crr report it, the model-based one (glm's, clogit's, coxph's otherwise) elsewhere:
#   a cluster() term: robust, as coxph;
#   cox with weights that are not whole numbers: robust, as coxph switches (its rule exactly:
#     any(weights != floor(weights)); IPTW's 0.0188 against coxph's 0.0297 before);
#   fgr: robust, crr's `var`, where crr can make the fit (no weights, strata or given
#     censoringSurvival: fineGrayRobustSupported()); model-based otherwise.
defaultVarianceType <- function(fit) {
  if (!is.null(fit$data$cluster)) return("robust")
  if (fit$modelType == "cox" && hasFractionalWeights(fit)) return("robust")
  if (fit$modelType == "fgr" && fineGrayRobustSupported(fit)) return("robust")
  "model"
}

# coxph's test for weights that are not case weights: any(weights != floor(weights)).
hasFractionalWeights <- function(fit) {
  w <- fit$settings$weights
  !is.null(w) && any(w != floor(w))
}

# Why the variance reported is what it is, for print(summary()); NULL where nothing needs saying.
varianceNote <- function(fit, type) {
  default <- defaultVarianceType(fit)
  if (type == "model" && default == "robust")
    return(sprintf("model-based as asked; the default is the robust one, %s", robustReason(fit)))
  if (type == "robust") return(if (default == "robust") robustReason(fit))
  if (fit$modelType == "fgr")
    return(paste("cmprsk::crr's robust variance needs a fit without weights, strata or",
                 "censoringSurvival; runBootstrap() gives intervals here"))
  NULL
}

robustReason <- function(fit) {
  if (!is.null(fit$data$cluster)) "over the clusters of the cluster() term, as coxph"
  else if (fit$modelType == "cox") "as coxph's where the weights are not whole numbers; type = \"model\" gives its naive.var"
  else if (fit$modelType == "fgr") "cmprsk::crr's var; type = \"model\" gives its invinf"
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
