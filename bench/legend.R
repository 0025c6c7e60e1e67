# A LEGEND-sized study (issue 14; paper 003 section 3.4: 434,866 patients, 9,812 covariates):
# a Cox and a Fine-Gray fit with 10-fold auto cross-validation on 2 threads. Simulated with
# that shape: covariate prevalences skewed (log-uniform from 0.01% to 20%, about 1% density on
# average, the way a few demographics and common drugs and many rare conditions mix), 2% of
# the coefficients nonzero, event times in whole days (ties, as OHDSI data are), about 30%
# censored; Fine-Gray turns a third of the events into competing events.
#
#   Rscript bench/legend.R [--n=434866] [--p=9812] [--models=cox,fgr] [--threads=2]
#
# Reported per model: build seconds, CV seconds, the selected variance, cycles of the final
# fit, status, the process's peak resident memory during the CV (VmHWM after resetting it,
# Linux), what the CV added to the memory resident before it (the simulated long tables and
# the data object), and the sparse design's size (12 bytes per nonzero: a 4-byte row index
# and an 8-byte value, what a dgCMatrix holds).
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})
suppressPackageStartupMessages(library(Argus))
opts <- parseBenchArgs(list(n = 434866, p = 9812, models = c("cox", "fgr"), threads = 2,
                            seed = 314))

peakResidentMb <- function() {
  s <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", s, value = TRUE))) / 1024
}
resetPeak <- function() try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)

set.seed(opts$seed)
n <- as.integer(opts$n)
p <- as.integer(opts$p)
prevalence <- exp(runif(p, log(1e-4), log(0.2)))
k <- rbinom(p, n, prevalence)
covariates <- data.frame(rowId = unlist(lapply(k, function(m) sort.int(sample.int(n, m))), use.names = FALSE),
                         covariateId = rep.int(seq_len(p), k), covariateValue = 1)
nnz <- nrow(covariates)
beta <- rnorm(p, 0, 0.5) * rbinom(p, 1, 0.02)
eta <- numeric(n)
contrib <- rowsum(beta[covariates$covariateId], covariates$rowId, reorder = FALSE)
eta[as.integer(rownames(contrib))] <- contrib[, 1]
eventDays <- ceiling(rexp(n, exp(eta) / 1000))
censorDays <- ceiling(runif(n, 0, 1500))
time <- pmin(eventDays, censorDays)
status <- as.integer(eventDays <= censorDays)
note("%s rows, %s covariates, %s nonzeros (density %.4f), %.1f%% events, %d distinct days",
     fmtN(n), fmtN(p), fmtN(nnz), nnz / (as.numeric(n) * p), 100 * mean(status),
     length(unique(time[status == 1])))
designMb <- nnz * 12 / 2^20

mdHeader(c("model", "N", "P", "nonzeros", "build s", "CV s (cpu s)", "variance", "cycles",
           "status", "peak MB during CV", "added by CV MB", "design MB", "added / design"))
for (model in opts$models) {
  y <- status
  if (model == "fgr") {
    competing <- status == 1 & runif(n) < 1 / 3
    y[competing] <- 2L
  }
  outcomes <- data.frame(rowId = seq_len(n), time = time, y = y)
  invisible(gc())
  build <- system.time(data <- createData(outcomes, covariates, modelType = model))[["elapsed"]]
  invisible(gc())
  resetPeak()
  before <- peakResidentMb()
  cv <- system.time(fit <- fitModel(data, createPrior("laplace", useCrossValidation = TRUE),
                                    createControl(threads = as.integer(opts$threads), fold = 10,
                                                  seed = 1, cvType = "auto")))
  peak <- peakResidentMb()
  mdRow(model, fmtN(n), fmtN(p), fmtN(nnz), fmtS(build, 1),
        sprintf("%s (%s)", fmtS(cv[["elapsed"]], 1), fmtS(cv[["user.self"]] + cv[["sys.self"]], 1)),
        fmtG(fit$variance, 3), fit$iterations, fit$status, fmtS(peak, 0), fmtS(peak - before, 0),
        fmtS(designMb, 0), fmtS((peak - before) / designMb, 2))
  note("%s: resident before the CV %.0f MB (the simulated tables, the data object)", model, before)
  rm(data, fit)
}
