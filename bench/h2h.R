# Head-to-head against the incumbent (Cyclops) on the same simulated data in the same run
# (issue 14). One configuration per call; prints one markdown row (bench/h2h.sh runs the
# table). Cyclops is used when it is installed (bash ../shared/peers/install-peers.sh puts
# 3.7.0 in ~/peers-Rlib); without it only Argus is timed and the incumbent's columns say NA.
#
#   Rscript bench/h2h.R --model=cox --n=1e5 --times=exp --threads=1 --reps=3
#
# Options: --model cox | fgr | sccs | lr; --n (cases for sccs); --times exp (continuous, the
# papers' design) | days (rounded up to whole days, as OHDSI data are); --threads (Argus; a
# list such as 1,2 times each count in the same process against the same incumbent fits,
# one row each, so that "2 threads never slower than 1" is judged on one data set and run);
# --reps (fits per package, alternating, medians reported); --gen (the shared simulator,
# default ../shared/peers/gen.R: both packages see its data, seed 123, P = 1000 at 5%, sccs
# 200 drugs); --peerLib (default ~/peers-Rlib).
# Both fit a Laplace prior with variance 1 at each package's default control; lr has an
# unpenalized intercept. Reported: data build seconds (long tables to each package's data
# object), fit seconds (median), cycles or iterations, status, the ratios fit and build +
# fit, and max |beta difference| over the covariates. "paired fit ratio" is the median of
# each repetition's own ratio (the incumbent's fit and then Argus's): this VM switches
# between a fast and a slow state (2x on both packages' fits, lasting seconds to minutes),
# and a switch between the two medians' fits skews their ratio, not the paired one.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})
opts <- parseBenchArgs(list(model = "cox", n = 1e5, times = "exp", threads = 1, reps = 3,
                            gen = "../shared/peers/gen.R",
                            peerLib = file.path(Sys.getenv("HOME"), "peers-Rlib"),
                            header = FALSE))
.libPaths(c(if (nzchar(lib)) lib, opts$peerLib, .libPaths()))
suppressPackageStartupMessages(library(Argus))
haveCyclops <- requireNamespace("Cyclops", quietly = TRUE)
if (!file.exists(opts$gen)) stop("the shared simulator is not at ", opts$gen, " (--gen=)")
source(opts$gen)

columns <- c("model", "N", "times", "threads", "incumbent build s", "incumbent fit s",
             "iter", "Argus build s", "Argus fit s", "cycles", "status", "fit ratio",
             "paired fit ratio", "build + fit ratio", "max abs dbeta")
if (isTRUE(as.logical(opts$header))) mdHeader(columns)

d <- simulate(opts$model, opts$n)
if (opts$model %in% c("cox", "fgr") && opts$times == "days")
  d$outcomes$time <- ceiling(d$outcomes$time * 365)
outcomes <- d$outcomes
covariates <- d$covariates
d <- NULL
invisible(gc())

elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}

argusBuild <- elapsed(ad <- createData(outcomes, covariates, modelType = opts$model))
threadCounts <- as.integer(opts$threads)  # parseBenchArgs splits "1,2"
argusFit <- function(threads) {
  fitModel(ad, prior = createPrior("laplace", variance = 1),
           control = createControl(threads = threads))
}
if (haveCyclops) {
  cyModel <- if (opts$model == "sccs") "cpr" else opts$model
  cyBuild <- elapsed(cd <- Cyclops::convertToCyclopsData(outcomes, covariates, modelType = cyModel,
                                                         addIntercept = opts$model == "lr",
                                                         quiet = TRUE))
  cyPrior <- Cyclops::createPrior("laplace", variance = 1,
                                  exclude = if (opts$model == "lr") "(Intercept)" else c())
  cyFit <- function() Cyclops::fitCyclopsModel(cd, prior = cyPrior, forceNewObject = TRUE)
}

# Alternate the packages, so that a slow spell of the machine hits both; each repetition
# fits the incumbent once, then Argus at every thread count.
argusTimes <- matrix(NA_real_, opts$reps, length(threadCounts))
argusFits <- vector("list", length(threadCounts))
cyTimes <- numeric(0)
for (rep in seq_len(opts$reps)) {
  invisible(gc())
  if (haveCyclops) cyTimes <- c(cyTimes, elapsed(cf <- cyFit()))
  for (t in seq_along(threadCounts)) {
    invisible(gc())
    argusTimes[rep, t] <- elapsed(argusFits[[t]] <- argusFit(threadCounts[t]))
  }
}

if (haveCyclops) {
  cyIter <- cf$iterations
} else {
  cyBuild <- NA_real_
  cyTimes <- rep(NA_real_, opts$reps)
  cyIter <- NA
}
cyT <- stats::median(cyTimes)
for (t in seq_along(threadCounts)) {
  af <- argusFits[[t]]
  argusBeta <- coef(af)
  dbeta <- NA_real_
  if (haveCyclops) {
    cyBeta <- coef(cf)
    common <- setdiff(intersect(names(cyBeta), names(argusBeta)), "(Intercept)")
    dbeta <- max(abs(cyBeta[common] - argusBeta[common]))
  }
  arT <- stats::median(argusTimes[, t])
  mdRow(opts$model, fmtN(opts$n), opts$times, threadCounts[t], fmtS(cyBuild, 2), fmtS(cyT, 2),
        if (is.na(cyIter)) "NA" else cyIter, fmtS(argusBuild, 2), fmtS(arT, 3), af$iterations,
        af$status, fmtS(cyT / arT, 1), fmtS(stats::median(cyTimes / argusTimes[, t]), 1),
        fmtS((cyBuild + cyT) / (argusBuild + arT), 1), fmtG(dbeta))
  note("fit seconds, incumbent: %s; Argus on %d thread(s): %s", paste(fmtS(cyTimes, 2), collapse = ", "),
       threadCounts[t], paste(fmtS(argusTimes[, t], 3), collapse = ", "))
}
if (length(threadCounts) > 1) {
  one <- argusFits[[1]]
  for (t in seq_along(threadCounts)[-1])
    note("threads %d vs %d: paired time ratio %s, max |dbeta| %s", threadCounts[t], threadCounts[1],
         fmtS(stats::median(argusTimes[, t] / argusTimes[, 1]), 2),
         fmtG(max(abs(coef(argusFits[[t]]) - coef(one)), na.rm = TRUE)))
}
