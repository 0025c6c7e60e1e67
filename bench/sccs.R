# Self-controlled case series benchmark: Argus "sccs" with a Laplace prior on simulated
# cases (bench/simulate.R), and a rough glmnet comparator.
#
#   Rscript bench/sccs.R                      # 1e4 and 1e5 cases x 200 and 1000 drugs
#   Rscript bench/sccs.R --quick              # 1e4 cases x 200 drugs, no repeats
#   Rscript bench/sccs.R --cases=1e5 --drugs=200 --reps=5 --glmnet=FALSE
#
# glmnet has no conditional Poisson / SCCS model. The comparator is an unconditional glmnet
# Poisson on the same X and y with offset log(time), an intercept and the same lambda
# (sqrt(2 / variance) / nRows): same data size and sparsity, but a different (and easier)
# model without patient effects, so its time is only a rough reference.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})

opts <- parseBenchArgs(list(quick = FALSE, cases = c(1e4, 1e5), drugs = c(200, 1000),
                            variance = 1, reps = 3, tolerance = 1e-6, glmnet = TRUE,
                            seed = 123),
                       quick = list(cases = 1e4, drugs = 200, reps = 1))
haveGlmnet <- opts$glmnet && requireNamespace("glmnet", quietly = TRUE)

note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))
warmUp(glmnet = haveGlmnet)
cat(sprintf("SCCS, Laplace prior variance %g, tolerance %g. Times in seconds as 'elapsed (cpu)'; fit = median of %d runs of fitModel(), engine = median fit$seconds (the solver alone); setup and ms/cycle split the engine time into a fixed per-fit cost and a per-cycle cost (from an extra fit stopped after 1 cycle).\n\n",
            opts$variance, opts$tolerance, opts$reps))
mdHeader(c("cases", "drugs", "rows", "entries", "events", "simulate s", "createData s",
           "fit s", "engine s", "cycles", "setup s", "ms/cycle", "status", "nonzero",
           "max err (true nonzero)", "glmnet Poisson s (not SCCS)", "fit / glmnet (cpu)"))

both <- function(t) if (is.na(t$median)) "NA" else sprintf("%s (%s)", fmtS(t$median), fmtS(t$cpu))

for (nCases in opts$cases) for (nDrugs in opts$drugs) {
  sim <- timeIt(simulateSccs(nCases, nDrugs, seed = opts$seed))
  s <- sim$value
  d <- timeIt(createData(s$outcomes, s$covariates, modelType = "sccs"))
  data <- d$value
  prior <- createPrior("laplace", variance = opts$variance)
  control <- createControl(tolerance = opts$tolerance)
  engineTimes <- numeric(0)
  fit <- timeIt({
    fm <- fitModel(data, prior = prior, control = control)  # local to timeIt
    engineTimes <<- c(engineTimes, fm$seconds)
    fm
  }, reps = opts$reps)
  fm <- fit$value
  beta <- coef(fm)
  truth <- s$trueBeta[names(beta)]
  err <- max(abs(beta - truth)[truth != 0])
  engine <- stats::median(engineTimes)
  split <- setupSplit(data, prior, control, engine, fm$iterations, opts$reps)

  glmnetTime <- glmnetCpu <- NA
  if (haveGlmnet) {
    x <- longToSparse(s$outcomes, s$covariates)
    lambda <- sqrt(2 / opts$variance) / nrow(s$outcomes)
    g <- tryCatch(timeIt(glmnet::glmnet(x, s$outcomes$y, family = "poisson",
                                         offset = log(s$outcomes$time), lambda = lambda,
                                         standardize = FALSE)),
                  error = function(e) { note("glmnet failed: %s", conditionMessage(e)); NULL })
    if (!is.null(g)) {
      glmnetTime <- g$median
      glmnetCpu <- g$cpu
    }
    rm(x)
  }

  mdRow(fmtN(nCases), nDrugs, fmtN(nrow(s$outcomes)), fmtN(nrow(s$covariates)),
        fmtN(sum(s$outcomes$y)), fmtS(sim$median, 2), both(d), both(fit),
        fmtS(engine), fm$iterations, fmtS(split[["setup"]]), fmtS(1000 * split[["perCycle"]], 2),
        fm$status, sum(beta != 0), fmtS(err), both(list(median = glmnetTime, cpu = glmnetCpu)),
        if (is.na(glmnetTime)) "NA" else fmtS(fit$cpu / glmnetCpu, 2))
  note("cases %g drugs %d: fit times %s", nCases, nDrugs, paste(fmtS(fit$times), collapse = " "))
  metric("sccs", cases = nCases, drugs = nDrugs, variance = opts$variance, fit = fit$median,
         fitcpu = fit$cpu, engine = engine, cycles = fm$iterations,
         setup = split[["setup"]], perCycle = split[["perCycle"]], createData = d$median,
         status = fm$status)
  rm(s, data, fm, sim, d, fit)
  invisible(gc(FALSE))
}
