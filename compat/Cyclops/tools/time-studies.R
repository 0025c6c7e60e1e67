# Times a CohortMethod-shaped and an SCCS-shaped study through this front end and through
# the real incumbent, on the same data (the shared simulator ../shared/peers/gen.R, the
# papers' designs) in the same run: each repetition runs the study once per package, each in
# its own R process (both packages are named Cyclops), alternating; medians are reported.
# The study code is the packages' calls (helper-ohdsi-sequences.R's arguments).
#
#   Rscript tools/time-studies.R FRONT_LIB INCUMBENT_LIB [reps=3] [cmN=20000] [sccsN=5000]
#     [gen=/work/shared/peers/gen.R] [baseline=LIB] [save=FILE.rds]
# A library may be several joined by ":" (the front end's and its Argus's). `baseline`: a
# second build of the front end timed in the same run (before and after a change), reported
# beside the first; `save`: every repetition's times, for later reading.
args <- commandArgs(trailingOnly = TRUE)
script <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))

cohortMethodStudy <- function(d) {
  outcomes <- data.frame(rowId = d$ps$outcomes$rowId, y = d$ps$outcomes$y)
  steps <- list()
  steps$ps <- system.time({
    data <- Cyclops::convertToCyclopsData(outcomes, d$ps$covariates, modelType = "lr",
                                          floatingPoint = 64)
    Cyclops::getUnivariableCorrelation(data, threshold = 0.5)
    prior <- Cyclops::createPrior("laplace", exclude = c(0), useCrossValidation = TRUE)
    control <- Cyclops::createControl(noiseLevel = "silent", cvType = "auto", seed = 1,
                                      resetCoefficients = TRUE, tolerance = 2e-07,
                                      cvRepetitions = 10, startingVariance = 0.01)
    fit <- Cyclops::fitCyclopsModel(data, prior = prior, control = control)
    ps <- predict(fit)
  })[["elapsed"]]
  psVariance <- fit$variance[1]
  steps$outcome <- system.time({
    population <- d$outcome
    covariates <- data.frame(rowId = population$rowId, covariateId = 1,
                             covariateValue = population$treatment, stratumId = population$stratumId)
    data <- Cyclops::convertToCyclopsData(population, covariates, addIntercept = FALSE,
                                          modelType = "cox", checkRowIds = FALSE, normalize = NULL,
                                          quiet = TRUE)
    fit <- Cyclops::fitCyclopsModel(data, prior = Cyclops::createPrior("none"))
    Cyclops::getCyclopsProfileLogLikelihood(fit, 1, bounds = c(log(0.1), log(10)), tolerance = 0.1,
                                            includePenalty = TRUE, returnDerivatives = TRUE)
    confint(fit, parm = 1, includePenalty = TRUE)
    Cyclops::getCyclopsProfileLogLikelihood(fit, 1, x = 0, includePenalty = FALSE)
  })[["elapsed"]]
  c(steps, total = steps$ps + steps$outcome, variance = psVariance)
}

sccsStudy <- function(d) {
  steps <- list()
  steps$fit <- system.time({
    data <- Cyclops::convertToCyclopsData(d$outcomes, d$covariates, modelType = "cpr",
                                          addIntercept = FALSE, checkRowIds = FALSE, quiet = TRUE)
    prior <- Cyclops::createPrior("laplace", useCrossValidation = TRUE)
    prior$exclude <- 1
    control <- Cyclops::createControl(cvType = "auto", selectorType = "byPid",
                                      startingVariance = 0.1, seed = 1, resetCoefficients = TRUE,
                                      noiseLevel = "silent")
    fit <- Cyclops::fitCyclopsModel(data, prior = prior, control = control)
  })[["elapsed"]]
  steps$inference <- system.time({
    confint(fit, parm = 1, includePenalty = TRUE)
    Cyclops::getCyclopsProfileLogLikelihood(fit, 1, x = 0, includePenalty = TRUE)
    Cyclops::getCyclopsProfileLogLikelihood(fit, 1, bounds = c(log(0.1), log(10)), tolerance = 0.1,
                                            includePenalty = TRUE, returnDerivatives = TRUE)
  })[["elapsed"]]
  c(steps, total = steps$fit + steps$inference, variance = fit$variance[1])
}

if (identical(args[1], "--run")) {
  .libPaths(c(strsplit(args[2], ":", fixed = TRUE)[[1]], .libPaths()))
  suppressPackageStartupMessages(library(Cyclops))
  d <- readRDS(args[3])
  result <- list(cm = cohortMethodStudy(d$cm), sccs = sccsStudy(d$sccs))
  saveRDS(result, args[4])
  quit(save = "no")
}

frontLib <- args[1]
incumbentLib <- args[2]
kv <- list(reps = "3", cmN = "20000", sccsN = "5000", gen = "/work/shared/peers/gen.R")
for (a in args[-(1:2)]) { p <- strsplit(a, "=")[[1]]; kv[[p[1]]] <- p[2] }
source(kv$gen)
# CohortMethod: treatment by a logistic propensity on 1,000 sparse covariates; then a Cox
# outcome model of the treatment in 5-person propensity strata
ps <- simLogistic(as.numeric(kv$cmN), prevalence = 0.4, seed = 123)
set.seed(7)
n <- nrow(ps$outcomes)
score <- as.vector(ps$X %*% ps$beta)
hazard <- 0.001 * exp(0.3 * ps$outcomes$y + 0.2 * score / stats::sd(score))
event <- ceiling(stats::rexp(n, hazard))
censor <- ceiling(stats::runif(n, 30, 1000))
outcome <- data.frame(rowId = ps$outcomes$rowId, treatment = ps$outcomes$y,
                      stratumId = ceiling(rank(score, ties.method = "first") / 5),
                      time = pmin(event, censor), y = as.integer(event <= censor))
sccs <- simSCCS(as.numeric(kv$sccsN), seed = 123)
data <- tempfile(fileext = ".rds")
saveRDS(list(cm = list(ps = ps[c("outcomes", "covariates")], outcome = outcome),
             sccs = sccs[c("outcomes", "covariates")]), data)
cat(sprintf("CohortMethod-shaped: %d persons, %d covariate entries; SCCS-shaped: %d cases, %d eras\n",
            n, nrow(ps$covariates), length(unique(sccs$outcomes$stratumId)), nrow(sccs$outcomes)))
libs <- c(incumbent = incumbentLib, front = frontLib, baseline = kv$baseline)
runs <- lapply(libs, function(lib) list())
for (rep in seq_len(as.integer(kv$reps))) {
  for (who in names(libs)) {
    out <- tempfile(fileext = ".rds")
    status <- system2("Rscript", c(script, "--run", libs[[who]], data, out))
    if (status != 0) stop("the ", who, " run failed")
    runs[[who]][[rep]] <- readRDS(out)
  }
}
if (!is.null(kv$save)) saveRDS(runs, kv$save)
median3 <- function(who, study, step) stats::median(vapply(runs[[who]], function(r) r[[study]][[step]], 0))
rows <- do.call(rbind, lapply(list(c("cm", "ps"), c("cm", "outcome"), c("cm", "total"),
                                   c("sccs", "fit"), c("sccs", "inference"), c("sccs", "total")),
  function(s) {
    row <- data.frame(study = s[1], step = s[2], incumbent = median3("incumbent", s[1], s[2]),
                      front = median3("front", s[1], s[2]),
                      ratio = median3("incumbent", s[1], s[2]) / median3("front", s[1], s[2]))
    if (!is.null(kv$baseline)) {
      row$baseline <- median3("baseline", s[1], s[2])
      row$baselineRatio <- row$incumbent / row$baseline
    }
    row
  }))
print(rows, row.names = FALSE, digits = 3)
cat(sprintf("chosen variances: CohortMethod PS incumbent %.4g, front %.4g; SCCS incumbent %.4g, front %.4g\n",
            median3("incumbent", "cm", "variance"), median3("front", "cm", "variance"),
            median3("incumbent", "sccs", "variance"), median3("front", "sccs", "variance")))
cat(sprintf("repetitions: %s; machine load at the end: %s\n", kv$reps,
            paste(readLines("/proc/loadavg"), collapse = " ")))
