# The sampling noise of cross-validation: the variance chosen by the CohortMethod propensity
# model and the SCCS model of compare-ohdsi.R's sequences (same data) under seeds 1..S, on
# the real incumbent and on this front end. Their difference in compare-ohdsi.R is "within
# sampling noise" when it is within the spread of either package's own seeds.
#
#   Rscript tools/cv-noise.R FRONT_LIB INCUMBENT_LIB [seeds=5]
args <- commandArgs(trailingOnly = TRUE)
script <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))
helpers <- file.path(dirname(dirname(script)), "tests", "testthat", "helper-ohdsi-data.R")

if (identical(args[1], "--run")) {
  .libPaths(c(args[2], .libPaths()))
  suppressPackageStartupMessages(library(Cyclops))
  source(helpers)
  cohort <- simulateCohort()
  sccs <- simulateSccs()
  seeds <- seq_len(as.integer(args[4]))
  ps <- vapply(seeds, function(seed) {
    outcomes <- data.frame(rowId = cohort$population$rowId, y = cohort$population$treatment)
    data <- convertToCyclopsData(outcomes, cohort$covariates, modelType = "lr", quiet = TRUE)
    fit <- fitCyclopsModel(data, prior = createPrior("laplace", exclude = c(0), useCrossValidation = TRUE),
                           control = createControl(cvType = "auto", seed = seed, resetCoefficients = TRUE,
                                                   tolerance = 2e-07, cvRepetitions = 10,
                                                   startingVariance = 0.01))
    fit$variance[1]
  }, 0)
  cpr <- vapply(seeds, function(seed) {
    data <- convertToCyclopsData(sccs$outcomes, sccs$covariates, modelType = "cpr",
                                 addIntercept = FALSE, quiet = TRUE)
    prior <- createPrior("laplace", useCrossValidation = TRUE)
    prior$exclude <- 1001
    fit <- fitCyclopsModel(data, prior = prior,
                           control = createControl(cvType = "auto", selectorType = "byPid",
                                                   startingVariance = 0.1, seed = seed,
                                                   resetCoefficients = TRUE))
    fit$variance[1]
  }, 0)
  saveRDS(list(ps = ps, sccs = cpr), args[3])
  quit(save = "no")
}

seeds <- if (length(args) >= 3) sub("seeds=", "", args[3]) else "5"
out <- list()
for (who in c("front", "incumbent")) {
  file <- tempfile(fileext = ".rds")
  system2("Rscript", c(script, "--run", if (who == "front") args[1] else args[2], file, seeds),
          stdout = FALSE)
  out[[who]] <- readRDS(file)
}
for (model in c("ps", "sccs")) {
  cat(sprintf("%s chosen variance over seeds 1..%s\n  incumbent: %s\n  front end: %s\n", model, seeds,
              paste(signif(out$incumbent[[model]], 3), collapse = " "),
              paste(signif(out$front[[model]], 3), collapse = " ")))
}
