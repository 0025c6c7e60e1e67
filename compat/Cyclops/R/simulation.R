# Simulated data in the OHDSI long layout (the incumbent's simulateCyclopsData() design:
# sparse 0/1 covariates, a baseline per stratum, log-normal effects of which a share is
# zero), and fitting such a simulation with this package or with the reference R functions.

#' Simulate data in the Cyclops long layout
#'
#' `nrows` rows in `nstrata` strata; each row has a Poisson(`eCovarsPerRow`) number of
#' distinct 0/1 covariates out of `ncovars`; each covariate's relative risk is
#' `exp(N(0, effectSizeSd^2))`, or 1 with probability `zeroEffectSizeProp`. Outcomes by
#' `model`: `"logistic"` (probability: a stratum baseline in `[0.1, 0.3]` times the row's
#' relative risk), `"poisson"` (a count over an exposure of 1 to 500 days, rate in
#' `[0.01, 0.03]` per day times the relative risk) or `"survival"` (exponential event times
#' at that rate, rounded up to days, censored uniformly between 1 and 500 days).
#'
#' @param nstrata,nrows,ncovars Numbers of strata, rows and covariates.
#' @param effectSizeSd Standard deviation of the log relative risks.
#' @param zeroEffectSizeProp Share of covariates without effect.
#' @param eCovarsPerRow Mean number of covariates per row.
#' @param model `"survival"`, `"logistic"` or `"poisson"`.
#' @return A list: `outcomes` (rowId, stratumId, y, rr, and time for survival and Poisson),
#'   `covariates` (rowId, covariateId, covariateValue, stratumId), `effectSizes`
#'   (covariateId, rr), `sparseness` and `intercepts` (the strata's baselines).
#' @examples
#' sim <- simulateCyclopsData(nstrata = 1, nrows = 500, ncovars = 5, model = "logistic")
#' head(sim$outcomes)
#' @export
simulateCyclopsData <- function(nstrata = 200, nrows = 10000, ncovars = 20, effectSizeSd = 1,
                                zeroEffectSizeProp = 0.9, eCovarsPerRow = ncovars / 100,
                                model = "survival") {
  if (!model %in% c("survival", "logistic", "poisson")) stop(paste("Unknown model:", model))
  nonzero <- stats::rbinom(ncovars, 1, 1 - zeroEffectSizeProp)
  effectSizes <- data.frame(covariateId = seq_len(ncovars),
                            rr = exp(stats::rnorm(ncovars, 0, effectSizeSd * nonzero)))
  perRow <- pmin(stats::rpois(nrows, eCovarsPerRow), ncovars)
  rowId <- rep(seq_len(nrows), perRow)
  covariateId <- unlist(lapply(perRow[perRow > 0], function(k) sample.int(ncovars, k)))
  stratumOfRow <- round(stats::runif(nrows, 1, nstrata))
  covariates <- data.frame(rowId = rowId, covariateId = as.numeric(covariateId),
                           covariateValue = rep(1, length(rowId)),
                           stratumId = stratumOfRow[rowId])
  rr <- rep(1, nrows)
  if (length(rowId)) rr <- rr * exp(as.numeric(tapply(log(effectSizes$rr[covariateId]),
                                                       factor(rowId, levels = seq_len(nrows)),
                                                       sum, default = 0)))
  outcomes <- data.frame(rowId = seq_len(nrows), stratumId = stratumOfRow, y = 0, rr = rr)
  range <- switch(model, logistic = c(0.1, 0.3), c(0.01, 0.03))
  baseline <- stats::runif(nstrata, range[1], range[2])
  rate <- baseline[stratumOfRow] * rr
  if (model == "survival") {
    toEvent <- 1 + round(stats::rexp(nrows, rate))
    toCensor <- 1 + round(stats::runif(nrows, 0, 499))
    outcomes$time <- pmin(toEvent, toCensor)
    outcomes$y <- as.integer(toCensor > toEvent)
  } else if (model == "logistic") {
    outcomes$y <- as.integer(stats::runif(nrows) < rate)
  } else {
    outcomes$time <- 1 + round(stats::runif(nrows, 0, 499))
    outcomes$y <- stats::rpois(nrows, rate * outcomes$time)
  }
  outcomes <- outcomes[order(outcomes$stratumId, outcomes$rowId), ]
  covariates <- covariates[order(covariates$stratumId, covariates$rowId, covariates$covariateId), ]
  list(outcomes = outcomes, covariates = covariates, effectSizes = effectSizes,
       sparseness = 1 - nrow(covariates) / (nrows * ncovars),
       intercepts = data.frame(stratumId = seq_len(nstrata), prob = baseline,
                               logProb = log(baseline)))
}

#' Fit a simulation
#'
#' Fits the simulated data without a prior, with this package (`useCyclops`) or with the
#' reference R function (`glm`, `clogit`, `coxph` with Breslow ties, or a Poisson `glm` with
#' stratum terms), giving each covariate's coefficient and, with `coverage`, its 95% interval
#' (profile likelihood here; the reference's Wald interval).
#'
#' @param sim A result of [simulateCyclopsData()].
#' @param useCyclops Fit with this package (else the reference).
#' @param model `"logistic"`, `"poisson"` or `"survival"`.
#' @param coverage Also give intervals.
#' @param includePenalty,computeDevice The incumbent's (no prior is used here).
#' @return A data frame with `coef` (and `lbCi95`, `ubCi95`), one row per covariate.
#' @export
fitCyclopsSimulation <- function(sim, useCyclops = TRUE, model = "logistic", coverage = TRUE,
                                 includePenalty = FALSE, computeDevice = "native") {
  stratified <- max(sim$outcomes$stratumId) > 1
  ids <- sim$effectSizes$covariateId
  if (useCyclops) {
    modelType <- switch(model, logistic = if (stratified) "clr" else "lr",
                        poisson = if (stratified) "cpr" else "pr", survival = "cox")
    data <- convertToCyclopsData(sim$outcomes, sim$covariates, modelType = modelType,
                                 addIntercept = !stratified, quiet = TRUE)
    fit <- fitCyclopsModel(data, prior = createPrior("none"))
    out <- data.frame(coef = coef(fit, ignoreConvergence = TRUE)[as.character(ids)])
    if (coverage) {
      ci <- confint(fit, parm = ids, includePenalty = includePenalty)
      out$lbCi95 <- ci[, 2]
      out$ubCi95 <- ci[, 3]
    }
    return(out)
  }
  referenceFit(sim, model, stratified, ids, coverage)
}

referenceFit <- function(sim, model, stratified, ids, coverage) {
  o <- sim$outcomes[order(sim$outcomes$rowId), ]
  X <- matrix(0, nrow(o), length(ids), dimnames = list(NULL, paste0("x", ids)))
  X[cbind(match(sim$covariates$rowId, o$rowId), match(sim$covariates$covariateId, ids))] <- 1
  frame <- data.frame(o, X)
  terms <- paste(colnames(X), collapse = " + ")
  strata <- if (stratified) " + strata(stratumId)" else ""
  fit <- switch(model,
    logistic = if (stratified)
      survival::clogit(stats::as.formula(paste("y ~", terms, strata)), data = frame)
      else stats::glm(stats::as.formula(paste("y ~", terms)), family = stats::binomial(), data = frame),
    poisson = stats::glm(stats::as.formula(paste("y ~", terms, if (stratified) "+ factor(stratumId)",
                                                 "+ offset(log(time))")),
                         family = stats::poisson(), data = frame),
    survival = survival::coxph(stats::as.formula(paste("survival::Surv(time, y) ~", terms, strata)),
                               data = frame, ties = "breslow"))
  out <- data.frame(coef = unname(stats::coef(fit)[colnames(X)]))
  if (coverage) {
    se <- sqrt(diag(stats::vcov(fit)))[colnames(X)]
    out$lbCi95 <- out$coef - stats::qnorm(0.975) * se
    out$ubCi95 <- out$coef + stats::qnorm(0.975) * se
  }
  out
}

#' Mean squared error and coverage of estimates
#'
#' @param goldStandard True values.
#' @param estimates Estimates.
#' @param lowerBounds,upperBounds Interval limits.
#' @return A number.
#' @name simulationMeasures
NULL

#' @rdname simulationMeasures
#' @export
mse <- function(goldStandard, estimates) mean((goldStandard - estimates)^2)

#' @rdname simulationMeasures
#' @export
coverage <- function(goldStandard, lowerBounds, upperBounds) {
  mean(goldStandard >= lowerBounds & goldStandard <= upperBounds)
}
