# Runs the front end's testthat suite against its installed build and prints the closing line
# "Cyclops front end testthat: N passed, N failed, N skipped" (expectations). Exits 1 on any
# failure or error. Usage (from the repository root):
#   Rscript compat/Cyclops/tools/testthat.R CYCLOPS_LIB [ARGUS_LIB]
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args, .libPaths()))
suppressPackageStartupMessages({
  library(testthat)
  library(Cyclops)
})
if (is.null(packageDescription("Cyclops")$Title) || !grepl("Argus", packageDescription("Cyclops")$Title))
  stop("the Cyclops found first on the library path is not the Argus front end")
here <- dirname(dirname(normalizePath(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))))
results <- as.data.frame(test_dir(file.path(here, "tests", "testthat"), package = "Cyclops",
                                  load_package = "installed",
                                  reporter = ProgressReporter$new(show_praise = FALSE),
                                  stop_on_failure = FALSE, stop_on_warning = FALSE))
passed <- sum(results$passed)
failed <- sum(results$failed) + sum(results$error)
skipped <- sum(results$skipped)
cat(sprintf("Cyclops front end testthat: %d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1 else 0)
