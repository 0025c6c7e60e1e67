# Runs the incumbent's (Cyclops 3.7.0's) own published testthat files against whichever
# package named Cyclops is first on the library path: the Argus front end or the real
# incumbent. Each file runs in its own R process, in the package's namespace
# (testthat::test_file(package = "Cyclops")), with no translation layer.
#
#   Rscript tools/run-incumbent-suite.R LIB TESTDIR OUT.csv [file ...]
#     LIB      library put first on .libPaths() (e.g. /usr/local/lib/R/argus-cyclops or
#              ~/peers-Rlib for the real incumbent); several separated by ':' (a library
#              holding packages the incumbent's tests load, such as the Andromeda stub that
#              ~/peers-Rlib holds, goes after the front end's)
#     TESTDIR  the incumbent's tests/testthat (from its source tarball)
#     OUT.csv  per-file counts: expectations passed, failed, skipped, errors
# Not run in CI: the incumbent's tarball lives outside this repository.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) stop("usage: run-incumbent-suite.R LIB TESTDIR OUT.csv [file ...]")
lib <- normalizePath(strsplit(args[1], ":")[[1]]); testDir <- normalizePath(args[2]); out <- args[3]
files <- if (length(args) > 3) args[-(1:3)] else
  basename(list.files(testDir, pattern = "^test.*\\.R$"))

runOne <- function(file) {
  script <- tempfile(fileext = ".R")
  result <- tempfile(fileext = ".rds")
  writeLines(c(
    sprintf(".libPaths(c(%s, .libPaths()))", paste(deparse(lib), collapse = "")),
    "suppressPackageStartupMessages({library(testthat); library(Cyclops)})",
    sprintf("setwd(%s)", deparse(testDir)),
    sprintf("r <- test_file(%s, package = 'Cyclops', reporter = 'silent', stop_on_failure = FALSE)",
            deparse(file.path(testDir, file))),
    # one entry per expectation, by its class (success, failure, error, skip, warning)
    "r <- unlist(lapply(r, function(t) vapply(t$results, function(e) sub('^expectation_', '', class(e)[1]), '')))",
    sprintf("saveRDS(r, %s)", deparse(result))), script)
  started <- Sys.time()
  status <- system2("Rscript", script, stdout = FALSE, stderr = FALSE)
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  if (!file.exists(result))
    return(data.frame(file = file, expectations = NA, passed = NA, failed = NA, skipped = NA,
                      errors = NA, warnings = NA, seconds = seconds, note = sprintf("R exited %d", status)))
  r <- readRDS(result)
  count <- function(kind) sum(r == kind)
  data.frame(file = file, expectations = count("success") + count("failure"),
             passed = count("success"), failed = count("failure"), skipped = count("skip"),
             errors = count("error"), warnings = count("warning"),
             seconds = round(seconds, 1), note = "")
}

rows <- do.call(rbind, lapply(files, function(f) {
  row <- runOne(f)
  message(sprintf("%-36s %s", f, paste(names(row)[-1], unlist(row[-1]), sep = "=", collapse = " ")))
  row
}))
write.csv(rows, out, row.names = FALSE)
print(rows, row.names = FALSE)
cat(sprintf("total: %d expectations, %d passed, %d failed, %d skipped, %d files with errors\n",
            sum(rows$expectations, na.rm = TRUE), sum(rows$passed, na.rm = TRUE),
            sum(rows$failed, na.rm = TRUE), sum(rows$skipped, na.rm = TRUE),
            sum(rows$errors > 0 | is.na(rows$errors))))
