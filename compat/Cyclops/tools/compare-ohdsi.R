# Runs the OHDSI packages' Cyclops call sequences (tests/testthat/helper-ohdsi-sequences.R, on
# the simulated data of helper-ohdsi-data.R) once on the real incumbent and once on this
# front end, each in its own R process with its library first on .libPaths(), and compares
# every number they keep: estimates and intervals should agree to 1e-4; cross-validated
# variances and bootstrap intervals within their sampling noise (the folds and resamples
# differ). Not run in CI: the incumbent lives outside the repository.
#
#   Rscript tools/compare-ohdsi.R FRONT_LIB INCUMBENT_LIB [OUT_DIR]
#   (e.g. /usr/local/lib/R/argus-cyclops ~/peers-Rlib /tmp/ohdsi)
args <- commandArgs(trailingOnly = TRUE)
here <- normalizePath(file.path(dirname(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE))), ".."))
helpers <- file.path(here, "tests", "testthat", c("helper-ohdsi-data.R", "helper-ohdsi-sequences.R"))

if (identical(args[1], "--run")) {
  # one engine: run every sequence, keep the numbers and the seconds each took
  .libPaths(c(args[2], .libPaths()))
  suppressPackageStartupMessages({library(Cyclops); library(survival)})
  for (f in helpers) source(f)
  cohort <- simulateCohort()
  sccs <- simulateSccs()
  database <- simulateDatabase()
  sequences <- list(
    cmPs = function() cohortMethodPs(cohort),
    cmCox = function() cohortMethodOutcome(cohort, "cox", FALSE, FALSE, bootstrap = 200),
    cmCoxStratified = function() cohortMethodOutcome(cohort, "cox", TRUE, FALSE),
    cmCoxWeighted = function() cohortMethodOutcome(cohort, "cox", FALSE, TRUE),
    cmClr = function() cohortMethodOutcome(cohort, "logistic", TRUE, FALSE, bootstrap = 200),
    cmCpr = function() cohortMethodOutcome(cohort, "poisson", TRUE, FALSE),
    cmPr = function() cohortMethodOutcome(cohort, "poisson", FALSE, FALSE),
    cmLr = function() cohortMethodOutcome(cohort, "logistic", FALSE, FALSE),
    cmLrWeighted = function() cohortMethodOutcome(cohort, "logistic", FALSE, TRUE),
    cmCoxCovariates = function() cohortMethodOutcomeWithCovariates(cohort, "cox", FALSE),
    cmHelpers = function() cohortMethodHelpers(cohort),
    sccs = function() sccsFit(sccs),
    sccsFlat = function() sccsFit(sccs, regularized = FALSE),
    sccsDiagnostic = function() sccsDiagnostic(sccs),
    plpLogistic = function() plpLogistic(cohort),
    plpCox = function() plpCox(cohort),
    evidenceSynthesis = function() evidenceSynthesis(database))
  results <- lapply(sequences, function(run) {
    seconds <- system.time(value <- tryCatch(suppressWarnings(suppressMessages(run())),
                                             error = function(e) list(error = conditionMessage(e))))
    c(value, seconds = seconds[["elapsed"]])
  })
  saveRDS(results, args[3])
  quit(save = "no")
}

frontLib <- args[1]
incumbentLib <- args[2]
out <- if (length(args) >= 3) args[3] else tempdir()
dir.create(out, showWarnings = FALSE, recursive = TRUE)
script <- file.path(here, "tools", "compare-ohdsi.R")
files <- c(front = file.path(out, "front.rds"), incumbent = file.path(out, "incumbent.rds"))
for (who in names(files)) {
  lib <- if (who == "front") frontLib else incumbentLib
  status <- system2("Rscript", c(script, "--run", lib, files[[who]]))
  if (status != 0) stop("the ", who, " run failed")
}
front <- readRDS(files[["front"]])
incumbent <- readRDS(files[["incumbent"]])

# What each item is held to: "exact (1e-4)"; "cv noise" and "bootstrap noise" (the folds
# and resamples differ); "adaptive grid" (profiles interpolated on each package's own grid,
# accurate to its tolerance, 0.1); "profile limit" (the front end's limits are the exact ones,
# tests/testthat checks them to 1e-5; the incumbent's root search stops up to ~2.5e-4 short);
# "log prior" (the incumbent counts its log-time offset column in a cpr fit's log prior,
# README's table).
noisy <- c("variance", "coefficients", "nonzero", "propensityScore", "shiftedScore", "bootstrap",
           "foldLogLik", "prediction", "baselineSurv", "estimates", "logLikelihood",
           "derivativeRange", "logRr", "logLb95", "logUb95")
kindOf <- function(sequence, item) {
  cv <- sequence %in% c("cmPs", "sccs", "plpLogistic", "plpCox", "cmCoxCovariates")
  if (cv && item %in% noisy) return("cv noise")
  if (item == "bootstrap") return("bootstrap noise")
  if (item %in% c("profileAt", "adaptiveAt")) return("adaptive grid")
  if (item %in% c("logLb95", "logUb95", "seLogRr", "ci", "pooledCi", "sccsCi")) return("profile limit")
  if (sequence == "sccs" && item == "llr") return("log prior")
  "exact (1e-4)"
}
rows <- list()
for (sequence in names(front)) {
  a <- front[[sequence]]
  b <- incumbent[[sequence]]
  for (item in setdiff(union(names(a), names(b)), "seconds")) {
    x <- a[[item]]
    y <- b[[item]]
    difference <- if (identical(unname(x), unname(y))) 0
      else if (is.numeric(x) && is.numeric(y) && length(x) == length(y)) max(abs(unname(x) - unname(y)))
      else NA
    rows[[length(rows) + 1]] <- data.frame(
      sequence = sequence, item = item,
      front = paste(format(utils::head(unname(x), 3), digits = 6), collapse = " "),
      incumbent = paste(format(utils::head(unname(y), 3), digits = 6), collapse = " "),
      maxAbsDiff = difference, kind = kindOf(sequence, item))
  }
}
table <- do.call(rbind, rows)
print(table, row.names = FALSE, right = FALSE)
exact <- table[table$kind == "exact (1e-4)", ]
bad <- exact[is.na(exact$maxAbsDiff) | exact$maxAbsDiff > 1e-4, ]
cat(sprintf("\n%d exact items, largest difference %.3g; %d above 1e-4\n", nrow(exact),
            max(exact$maxAbsDiff, na.rm = TRUE), nrow(bad)))
for (kind in setdiff(unique(table$kind), "exact (1e-4)"))
  cat(sprintf("%s: %d items, largest difference %.3g\n", kind, sum(table$kind == kind),
              max(table$maxAbsDiff[table$kind == kind], na.rm = TRUE)))
seconds <- data.frame(sequence = names(front),
                      front = vapply(front, function(r) r$seconds, 0),
                      incumbent = vapply(incumbent, function(r) r$seconds, 0))
print(seconds, row.names = FALSE)
write.csv(table, file.path(out, "comparison.csv"), row.names = FALSE)
