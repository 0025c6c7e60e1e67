# Cross-validation and bootstrap benchmark: the time of a CV search and of a bootstrap
# against the time of one fit, at several thread counts, and a check that every thread
# count gives identical results. Logistic regression for now; Cox is to be added when its
# likelihood lands (a simulator in bench/simulate.R and a branch in `makeData` below).
#
#   Rscript bench/cv.R                    # N = 1e5, P = 1000, density 5%, 10 folds
#   Rscript bench/cv.R --quick            # N = 1e4, P = 200
#   Rscript bench/cv.R --threads=1,2,4 --cvType=auto,grid --replicates=50
#
# Columns: "fit s" = one fitModel() at the chosen variance; "CV s" = the whole search
# (fold fits + held-out likelihoods), with the number of candidate variances and fold fits;
# "per fold fit" = CV s / fold fits, to compare with "fit s" (warm starts make fold fits
# cheaper than a cold fit); "same as 1 thread" compares fit$cv and the bootstrap estimates
# with identical(). Times are 'elapsed (cpu)', median of --reps.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})

opts <- parseBenchArgs(list(quick = FALSE, model = "lr", n = 1e5, p = 1000, density = 0.05,
                            prior = "laplace", cvType = c("auto", "grid"), fold = 10,
                            gridSteps = 10, threads = c(1, 2), replicates = 20, reps = 1,
                            seed = 42),
                       quick = list(n = 1e4, p = 200))
note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))

makeData <- function() {
  if (opts$model == "lr") {
    s <- simulateLogistic(opts$n, opts$p, opts$density, order = "row", seed = opts$seed)
    return(createData(s$outcomes, s$covariates, modelType = "lr"))
  }
  stop("bench/cv.R: model '", opts$model, "' is not prepared yet", call. = FALSE)
}
data <- timeIt(makeData())
note("simulated and built %s data, N = %g, P = %g in %.1f s", opts$model, opts$n, opts$p, data$median)
data <- data$value
both <- function(t) sprintf("%s (%s)", fmtS(t$median), fmtS(t$cpu))
withoutTime <- function(cv) cv[setdiff(names(cv), "seconds")]

cat(sprintf("### Cross-validation, %s, N = %s, P = %s, density %g, %s prior, %d folds\n\n",
            opts$model, fmtN(opts$n), fmtN(opts$p), opts$density, opts$prior, opts$fold))
mdHeader(c("cvType", "threads", "CV s", "candidates", "fold fits", "per fold fit s",
           "chosen variance", "fit s", "same as 1 thread"))
prior <- createPrior(opts$prior, useCrossValidation = TRUE)
for (type in opts$cvType) {
  reference <- NULL
  for (threads in opts$threads) {
    control <- createControl(seed = opts$seed, cvType = type, fold = opts$fold,
                             gridSteps = opts$gridSteps, threads = threads)
    t <- timeIt(fitModel(data, prior, control), reps = opts$reps)
    fit <- t$value
    cvSeconds <- fit$cv$seconds
    foldFits <- nrow(fit$cv$curve) * fit$cv$folds * fit$cv$repetitions
    same <- if (is.null(reference)) "-" else identical(withoutTime(fit$cv), withoutTime(reference$cv)) &&
      identical(coef(fit), coef(reference))
    if (is.null(reference)) reference <- fit
    mdRow(type, threads, fmtS(cvSeconds), nrow(fit$cv$curve), foldFits,
          fmtS(cvSeconds / foldFits, 4), fmtG(fit$cv$variance, 4), fmtS(fit$seconds), same)
    metric("cv", model = opts$model, n = opts$n, p = opts$p, cvType = type, threads = threads,
           cv = cvSeconds, total = t$median, candidates = nrow(fit$cv$curve))
  }
}

cat(sprintf("\n### Bootstrap, %d replicates at the chosen variance\n\n", opts$replicates))
mdHeader(c("threads", "bootstrap s", "per replicate s", "same as 1 thread"))
reference <- NULL
for (threads in opts$threads) {
  t <- timeIt(runBootstrap(fit, replicates = opts$replicates, threads = threads, seed = 1),
              reps = opts$reps)
  same <- if (is.null(reference)) "-" else identical(t$value$estimates, reference$estimates)
  if (is.null(reference)) reference <- t$value
  mdRow(threads, both(t), fmtS(t$median / opts$replicates, 4), same)
  metric("bootstrap", model = opts$model, n = opts$n, p = opts$p, threads = threads,
         elapsed = t$median, cpu = t$cpu)
}
