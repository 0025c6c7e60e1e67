# Simulated data shaped as the OHDSI packages hand them to Cyclops (our own simulations,
# fixed seeds): a cohort study's population and covariates (CohortMethod, PatientLevelPrediction),
# a self-controlled case series' intervals (SelfControlledCaseSeries) and per-database
# populations (EvidenceSynthesis). Shared by this package's tests and by
# tools/compare-ohdsi.R, which runs the same sequences on the real incumbent.

# A cohort: rowId, treatment (by propensity), time at risk, outcome counts and survival
# times, matched-set strata; sparse 0/1 baseline covariates in the long layout.
simulateCohort <- function(n = 1500, nCovariates = 40, seed = 1) {
  set.seed(seed)
  rowsPer <- stats::rpois(n, 4)
  rowId <- rep(seq_len(n), rowsPer)
  covariateId <- unlist(lapply(rowsPer, function(k) sample.int(nCovariates, min(k, nCovariates))))
  rowId <- rep(seq_len(n), pmin(rowsPer, nCovariates))
  covariates <- data.frame(rowId = rowId, covariateId = as.numeric(covariateId) * 1000 + 1,
                           covariateValue = 1)
  propensityEffect <- stats::rnorm(nCovariates, 0, 0.4) * stats::rbinom(nCovariates, 1, 0.3)
  x <- tapply(propensityEffect[covariateId], factor(rowId, levels = seq_len(n)), sum, default = 0)
  treatment <- stats::rbinom(n, 1, stats::plogis(-0.3 + as.numeric(x)))
  risk <- exp(-5.5 + 0.4 * treatment + 0.5 * as.numeric(x))
  timeAtRisk <- 1 + round(stats::runif(n, 30, 730))
  eventTime <- 1 + round(stats::rexp(n, risk))
  outcomeCount <- as.integer(eventTime <= timeAtRisk)
  population <- data.frame(rowId = seq_len(n), treatment = treatment,
                           timeAtRisk = timeAtRisk, outcomeCount = outcomeCount,
                           survivalTime = pmin(eventTime, timeAtRisk),
                           stratumId = ceiling(rank(as.numeric(x) + stats::runif(n, 0, 0.1),
                                                    ties.method = "first") / 5))
  population$iptw <- ifelse(treatment == 1, 1 / 0.45, 1 / 0.55) * stats::runif(n, 0.8, 1.2)
  list(population = population, covariates = covariates)
}

# CohortMethod's outcome-model input (getInformativePopulation()): y, time, strata with an
# outcome, weights, and the treatment as covariate 1 (or the next id after the covariates).
informativePopulation <- function(population, modelType, stratified, weighted) {
  p <- population
  p$y <- p$outcomeCount
  p$time <- if (modelType == "cox") p$survivalTime else p$timeAtRisk
  if (modelType %in% c("cox", "logistic")) p$y[p$y != 0] <- 1
  if (stratified) p <- p[p$stratumId %in% unique(p$stratumId[p$y != 0]), ]
  columns <- c("rowId", "y", "treatment", if (stratified) "stratumId",
               if (modelType != "logistic") "time")
  out <- p[, columns]
  if (weighted) out$weights <- p$iptw
  out
}

# A self-controlled case series: per case, eras of exposure to a few drugs (covariates
# 1001, 1002, ...) and an age effect, in intervals of constant exposure (rowId, stratumId,
# y, time; covariates with stratumId).
simulateSccs <- function(nCases = 400, nDrugs = 4, seed = 2) {
  set.seed(seed)
  effects <- c(0.7, 0, -0.3, 0.2)[seq_len(nDrugs)]
  outcomes <- list()
  covariates <- list()
  rowId <- 0
  for (case in seq_len(nCases)) {
    drug <- sample.int(nDrugs, 1)
    length <- 300 + sample.int(400, 1)
    start <- sample.int(length - 60, 1)
    exposed <- sample(30:60, 1)
    pieces <- data.frame(time = c(start, exposed, length - start - exposed),
                         exposedTo = c(0, drug, 0))
    pieces <- pieces[pieces$time > 0, ]
    rate <- 0.002 * exp(ifelse(pieces$exposedTo > 0, effects[pmax(pieces$exposedTo, 1)], 0))
    y <- stats::rmultinom(1, 1 + stats::rpois(1, 0.3), rate * pieces$time)[, 1]
    ids <- rowId + seq_len(nrow(pieces))
    rowId <- rowId + nrow(pieces)
    outcomes[[case]] <- data.frame(rowId = ids, stratumId = case, y = y, time = pieces$time)
    on <- pieces$exposedTo > 0
    covariates[[case]] <- data.frame(rowId = ids[on], stratumId = case,
                                     covariateId = 1000 + pieces$exposedTo[on], covariateValue = 1)
  }
  list(outcomes = do.call(rbind, outcomes), covariates = do.call(rbind, covariates))
}

# EvidenceSynthesis's simulated databases: a Cox population (time, y, x, stratumId) and an
# SCCS population in one row per interval (y, a, x1, x2, time, stratumId).
simulateDatabase <- function(n = 800, seed = 3) {
  set.seed(seed)
  x <- stats::rbinom(n, 1, 0.5)
  stratumId <- sample.int(10, n, replace = TRUE)
  hazard <- 0.01 * exp(0.5 * x + stratumId / 10)
  event <- stats::rexp(n, hazard)
  censor <- stats::runif(n, 10, 200)
  cox <- data.frame(time = round(pmin(event, censor)) + 1, y = as.integer(event <= censor),
                    x = x, stratumId = stratumId)
  cases <- 150
  sccs <- data.frame(stratumId = rep(seq_len(cases), each = 3), a = rep(c(0, 1, 0), cases),
                     x1 = stats::rbinom(3 * cases, 1, 0.3), x2 = stats::rbinom(3 * cases, 1, 0.2),
                     time = round(stats::runif(3 * cases, 20, 200)))
  rate <- 0.004 * exp(0.6 * sccs$a + 0.3 * sccs$x1 - 0.2 * sccs$x2)
  sccs$y <- stats::rpois(nrow(sccs), rate * sccs$time)
  list(cox = cox, sccs = sccs)
}
