# Survival benchmark (issue 3): Cox and Fine-Gray with a Laplace prior on the synthetic design
# of the GPU survival paper (003, section 3.2), against glmnet's Cox at the same lambda.
#
#   Rscript bench/survival.R                      # N = 1e4, 1e5, 1e6; P = 1000 at 5%
#   Rscript bench/survival.R --quick              # N = 1e4
#   Rscript bench/survival.R --n=1e5 --glmnetMax=1e5 --reps=2
#   Rscript bench/survival.R --n=1e6 --times=integer --fgr=FALSE --glmnet=FALSE --threads=1
#
# For each N: integer-day times (many ties, <= 500 distinct event times) and a jittered
# variant (unique times). Reported: fit time, cycles, time per cycle, time per coordinate
# (per cycle / P) and the mean nonzeros per column, so that the growth of the per-coordinate
# cost with N can be read against nnz_j. Fine-Gray runs on the same X and times with 30% of
# the events turned into competing events.
#
# Lambda: Laplace variance v is lambda = sqrt(2 / v) on the summed log partial likelihood;
# glmnet's Cox objective is the log partial likelihood divided by N, so lambda_glmnet =
# sqrt(2 / v) / N (tests/testthat/test-survival-penalized.R checks this conversion).
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})

opts <- parseBenchArgs(list(quick = FALSE, n = c(1e4, 1e5, 1e6), p = 1000, density = 0.05,
                            variance = 1, tolerance = 1e-6, reps = 1, glmnet = TRUE,
                            glmnetMax = 1e5, uniqueMax = 1e5, fgr = TRUE, threads = 2,
                            times = c("integer", "unique"),
                            seed = 42),
                       quick = list(n = 1e4))
haveGlmnet <- opts$glmnet && requireNamespace("glmnet", quietly = TRUE)
note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))
warmUp(glmnet = haveGlmnet)
lambda <- sqrt(2 / opts$variance)
prior <- createPrior("laplace", variance = opts$variance)
# Threads: a single fit splits each column of over 32,768 nonzeros across them (N = 1e6 here);
# the results do not depend on the number.
control <- createControl(tolerance = opts$tolerance, threads = opts$threads)

cat(sprintf("### Laplace variance %g, P = %s at density %g, tolerance %g (gradient rule), %d thread(s); seconds as 'elapsed (cpu)', medians of %d; setup = an extra fit stopped after one cycle minus that cycle\n\n",
            opts$variance, fmtN(opts$p), opts$density, opts$tolerance, opts$threads, opts$reps))
mdHeader(c("model", "N", "times", "distinct event times", "createData s", "fit s", "engine s",
           "cycles", "ms/cycle", "us/coordinate", "mean nnz/column", "nonzero", "status",
           "glmnet s", "max |beta - glmnet|"))

for (n in opts$n) for (jitter in c(FALSE, TRUE)[c("integer", "unique") %in% opts$times]) {
  # Unique times make the O(E) slot refresh after each moved coordinate O(N): at N = 1e6 a
  # fit takes about 15 minutes, so that size is opt-in (--uniqueMax=1e6).
  if (jitter && n > opts$uniqueMax) next
  sim <- simulateSurvival(n, opts$p, opts$density, jitter = jitter, seed = opts$seed)
  label <- if (jitter) "unique" else "integer days"
  distinct <- length(unique(sim$time[sim$y == 1]))
  models <- if (opts$fgr) c("cox", "fgr") else "cox"
  for (model in models) {
    y <- sim$y
    if (model == "fgr") {
      set.seed(opts$seed + 1)
      y[y == 1 & stats::runif(length(y)) < 0.3] <- 2
    }
    cd <- timeIt(createData(x = sim$x, y = y, time = sim$time, modelType = model))
    data <- cd$value
    engineTimes <- numeric(0)
    f <- timeIt({
      fm <- fitModel(data, prior = prior, control = control)
      engineTimes <<- c(engineTimes, fm$seconds)
      fm
    }, reps = opts$reps)
    fm <- f$value
    engine <- stats::median(engineTimes)
    split <- setupSplit(data, prior, control, engine, fm$iterations)
    perCycle <- split[["perCycle"]]
    g <- NULL
    if (model == "cox" && haveGlmnet && n <= opts$glmnetMax) {
      g <- timeIt(glmnet::glmnet(sim$x, survival::Surv(sim$time, sim$y), family = "cox",
                                 lambda = lambda / n, standardize = FALSE), reps = opts$reps)
      gb <- as.vector(stats::coef(g$value))
    }
    diff <- if (is.null(g)) NA else max(abs(coef(fm) - gb))
    metric("survival_fit", model = model, n = n, times = if (jitter) "unique" else "integer",
           p = opts$p, threads = opts$threads, elapsed = f$median, cpu = f$cpu, engine = engine, cycles = fm$iterations,
           perCycle = perCycle, glmnet = if (is.null(g)) NA else g$median, status = fm$status)
    mdRow(model, fmtN(n), label, fmtN(distinct), fmtS(cd$median),
          sprintf("%s (%s)", fmtS(f$median), fmtS(f$cpu)), fmtS(engine), fm$iterations,
          fmtS(1000 * perCycle, 1), fmtS(1e6 * perCycle / opts$p, 1),
          fmtN(round(length(sim$x@x) / opts$p)), sum(coef(fm) != 0), fm$status,
          if (is.null(g)) "-" else sprintf("%s (%s)", fmtS(g$median), fmtS(g$cpu)), fmtG(diff))
    rm(data)
    gc()
  }
}
cat("\n")
