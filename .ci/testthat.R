# Runs the testthat suite against an installed Argus and prints the closing line
# "testthat: N passed, N failed, N skipped" (expectations). Exits 1 on any failure or error.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 1) .libPaths(c(args[1], .libPaths()))
suppressPackageStartupMessages({
  library(testthat)
  library(Argus)
})
results <- as.data.frame(test_dir("tests/testthat", reporter = ProgressReporter$new(show_praise = FALSE),
                                  stop_on_failure = FALSE, stop_on_warning = FALSE))
passed <- sum(results$passed)
failed <- sum(results$failed) + sum(results$error)
skipped <- sum(results$skipped)
cat(sprintf("testthat: %d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1 else 0)
