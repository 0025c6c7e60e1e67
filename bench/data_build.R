# createData() from long tables (issue 14: building a design for lr / pr / ls must be as fast
# as for cox, at most 1 s for 5 million (rowId, covariateId, covariateValue) pairs).
#
#   Rscript bench/data_build.R                  # N = 1e5, P = 1000, density 5% (~5M pairs)
#   Rscript bench/data_build.R --n=2e4 --reps=1
#
# Data: the peers' simulator gen.R (simulate("lr", N) and simulate("cox", N); covariates
# sorted by covariateId, rowId, integer ids, all values 1), found at $ARGUS_GEN or
# /work/shared/peers/gen.R. Rows: lr and cox as generated; lr on exactly 5,000,000 pairs
# (the first 5M rows of the table); and lr on the same table in other orders and with double
# ids, which take the engine's general path (two counting sorts) instead of the sorted one.
# Seconds are elapsed, median of --reps runs (cpu = user + system time in parentheses: page
# faults of fresh allocations are system time, and on a shared machine elapsed time also
# counts other work).
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))
args <- commandArgs(trailingOnly = TRUE)
option <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
  if (length(hit)) as.numeric(sub(sprintf("^--%s=", name), "", hit[1])) else default
}
n <- option("n", 1e5)
reps <- option("reps", 3)
gen <- Sys.getenv("ARGUS_GEN", "/work/shared/peers/gen.R")
if (!file.exists(gen)) stop("gen.R not found: set ARGUS_GEN")
source(gen)

timeIt <- function(outcomes, covariates, model) {
  t <- replicate(reps, {
    gc()
    t <- system.time(createData(outcomes, covariates, modelType = model))
    c(t[["elapsed"]], t[["user.self"]] + t[["sys.self"]])
  })
  t <- matrix(t, nrow = 2)
  sprintf("%.3f (%.3f)", median(t[1, ]), median(t[2, ]))
}

lr <- simulate("lr", n)
cox <- simulate("cox", n)
cv <- lr$covariates
rows <- list(
  list("lr, gen.R order (covariateId, rowId), integer ids", lr$outcomes, cv, "lr"),
  list("cox, gen.R order (covariateId, rowId), integer ids", cox$outcomes, cox$covariates, "cox"),
  list("lr, exactly 5,000,000 pairs (first 5M rows)", lr$outcomes, cv[seq_len(min(5e6, nrow(cv))), ], "lr"),
  list("lr, sorted by rowId", lr$outcomes, cv[order(cv$rowId, cv$covariateId), ], "lr"),
  list("lr, random order", lr$outcomes, cv[sample(nrow(cv)), ], "lr"),
  list("lr, double ids", lr$outcomes,
       transform(cv, rowId = as.double(rowId), covariateId = as.double(covariateId)), "lr"))
# Untimed warm-up: the first large allocations of a process page in fresh memory (glibc
# then raises its mmap threshold and reuses freed blocks), which would count against the
# first row only.
invisible(createData(lr$outcomes, cv, modelType = "lr"))
cat(sprintf("Argus %s from %s; N = %s, %d reps; load average %s\n\n",
            as.character(utils::packageVersion("Argus")), find.package("Argus"),
            format(n, big.mark = ",", scientific = FALSE), reps, paste(readLines("/proc/loadavg", warn = FALSE), collapse = " ")))
cat("| input | pairs | createData s, elapsed (cpu) |\n| --- | --- | --- |\n")
for (r in rows)
  cat(sprintf("| %s | %s | %s |\n", r[[1]], format(nrow(r[[3]]), big.mark = ","),
              timeIt(r[[2]], r[[3]], r[[4]])))
