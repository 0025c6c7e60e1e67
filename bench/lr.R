# Logistic regression benchmark: Argus "lr" with a Laplace prior against glmnet on the same
# sparse binary design, and createData() timings for long tables and a dgCMatrix.
#
#   Rscript bench/lr.R                         # N = 1e5, P = 1000, density 5%
#   Rscript bench/lr.R --quick                 # N = 1e4, P = 200
#   Rscript bench/lr.R --n=2e5 --p=500 --density=0.02 --reps=3 --profile=TRUE
#   Rscript bench/lr.R --convergence=gradient,mittal --tolerances=1e-6 --glmnetThresh=0
#
# Argus runs every --convergence criterion at every --tolerances value; glmnet runs at its
# default thresh 1e-7 (the time reference) and at each --glmnetThresh (the tightest one is
# the accuracy reference: coefficients and penalized objective). "setup s" and "ms/cycle"
# split Argus's engine time using an extra fit stopped after one cycle. --profile=TRUE
# prints an Rprof summary of createData() to stderr.
#
# Laplace variance v is lambda = sqrt(2 / v) on the summed log-likelihood, i.e.
# lambda_glmnet = sqrt(2 / v) / N; glmnet runs with standardize = FALSE and its default
# thresh = 1e-7 (and at --glmnetThresh as a tighter reference). Both leave the
# intercept unpenalized, so they target the same optimum.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})

opts <- parseBenchArgs(list(quick = FALSE, n = 1e5, p = 1000, density = 0.05, variance = 1,
                            tolerances = c(1e-6, 1e-8), convergence = c("gradient", "lange"), reps = 1,
                            dataReps = 2, glmnet = TRUE, glmnetThresh = 1e-10,
                            profile = FALSE, seed = 42),
                       quick = list(n = 1e4, p = 200, dataReps = 1))
both <- function(t) sprintf("%s (%s)", fmtS(t$median), fmtS(t$cpu))
haveGlmnet <- opts$glmnet && requireNamespace("glmnet", quietly = TRUE)
note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))
warmUp(glmnet = haveGlmnet)

sim <- timeIt(simulateLogistic(opts$n, opts$p, opts$density, order = "row", seed = opts$seed))
s <- sim$value
nnz <- length(s$x@x)
note("simulated N = %g, P = %g, %s nonzeros, mean(y) = %.3f in %.1f s", opts$n, opts$p,
     fmtN(nnz), mean(s$y), sim$median)

# ---------------------------------------------------------------------------------------
# createData()
# ---------------------------------------------------------------------------------------
cat(sprintf("### createData, N = %s, P = %s, %s (row, covariate) pairs; seconds as 'elapsed (cpu)', median of %d\n\n",
            fmtN(opts$n), fmtN(opts$p), fmtN(nnz), opts$dataReps))
mdHeader(c("input", "entries", "createData s", "split"))

# Time the two internal stages when they exist (longInput: id checks, row lookup and
# covariate coding; assembleData: row plan and column-major design build).
stageSplit <- function(outcomes, covariates) {
  ns <- asNamespace("Argus")
  if (!exists("longInput", ns) || !exists("assembleData", ns)) return("")
  out <- tryCatch({
    t1 <- timeIt(input <- get("longInput", ns)(outcomes, covariates, "lr"))
    t2 <- timeIt(get("assembleData", ns)(t1$value, "lr", TRUE))
    sprintf("longInput %s s + assembleData %s s", fmtS(t1$median), fmtS(t2$median))
  }, error = function(e) "")
  out
}

longRow <- function(label, covariates, key) {
  t <- timeIt(createData(s$outcomes, covariates, modelType = "lr"), reps = opts$dataReps)
  metric("lr_createData", input = key, n = opts$n, p = opts$p, entries = nrow(covariates),
         elapsed = t$median, cpu = t$cpu)
  mdRow(label, fmtN(nrow(covariates)), both(t), stageSplit(s$outcomes, covariates))
  if (opts$profile) {
    prof <- tempfile()
    Rprof(prof, interval = 0.01)
    createData(s$outcomes, covariates, modelType = "lr")
    Rprof(NULL)
    top <- utils::head(summaryRprof(prof)$by.total, 15)
    message("Rprof of createData (", label, "):")
    message(paste(utils::capture.output(print(top)), collapse = "\n"))
  }
  invisible(t)
}
longRow("long tables, sorted by rowId", s$covariates, "sorted")
shuffled <- s$covariates[sample.int(nrow(s$covariates)), ]
longRow("long tables, random order", shuffled, "random")
rm(shuffled)
longInt <- s$covariates
longInt$rowId <- as.integer(longInt$rowId)
longInt$covariateId <- as.integer(longInt$covariateId)
longRow("long tables, integer ids, no covariateValue", longInt[c("rowId", "covariateId")],
        "integer")
rm(longInt)
dm <- timeIt(createData(x = s$x, y = s$y, modelType = "lr"), reps = opts$dataReps)
mdRow("dgCMatrix (matrix route)", fmtN(nnz), both(dm), "")
data <- dm$value
cat("\n")

# ---------------------------------------------------------------------------------------
# Fits
# ---------------------------------------------------------------------------------------
lambda <- sqrt(2 / opts$variance)
penalizedNegLogLik <- function(intercept, beta) {
  eta <- intercept + as.vector(s$x %*% beta)
  -sum(s$y * eta - log1p(exp(-abs(eta))) - pmax(eta, 0)) + lambda * sum(abs(beta))
}

glmnetFit <- function(thresh) {
  g <- timeIt(glmnet::glmnet(s$x, s$y, family = "binomial", lambda = lambda / opts$n,
                             standardize = FALSE, thresh = thresh), reps = opts$reps)
  cf <- as.vector(stats::coef(g$value))
  list(time = g$median, cpu = g$cpu, intercept = cf[1], beta = cf[-1], npasses = g$value$npasses)
}

cat(sprintf("### Logistic fits, N = %s, P = %s, density %g, Laplace variance %g (lambda_glmnet = %.3g); Argus convergence criteria: %s; seconds as 'elapsed (cpu)', medians of %d; engine = fit$seconds, split into a fixed setup cost and a per-cycle cost by an extra fit stopped after 1 cycle\n\n",
            fmtN(opts$n), fmtN(opts$p), opts$density, opts$variance, lambda / opts$n,
            paste(opts$convergence, collapse = ", "), opts$reps))
mdHeader(c("method", "tolerance", "fit s", "engine s", "cycles / passes", "setup s", "ms/cycle",
           "status", "nonzero", "time / glmnet 1e-7 (cpu)", "max abs diff vs glmnet 1e-7",
           "max abs diff vs tightest glmnet", "objective - tightest glmnet objective"))

# References: glmnet at its default thresh (time), and the tightest glmnet run (accuracy).
ref <- tight <- NULL
glmnetRows <- list()
if (haveGlmnet) {
  ref <- glmnetFit(1e-7)
  ref$label <- "thresh 1e-7"
  metric("lr_fit", method = "glmnet", tol = "1e-7", n = opts$n, p = opts$p,
         density = opts$density, elapsed = ref$time, cpu = ref$cpu, cycles = ref$npasses)
  glmnetRows <- list(ref)
  for (thresh in sort(opts$glmnetThresh[opts$glmnetThresh > 0], decreasing = TRUE)) {
    g <- glmnetFit(thresh)
    g$label <- sprintf("thresh %s", fmtG(thresh))
    glmnetRows[[length(glmnetRows) + 1]] <- g
  }
  tight <- glmnetRows[[length(glmnetRows)]]
  tightObj <- penalizedNegLogLik(tight$intercept, tight$beta)
}
maxDiff <- function(intercept, beta, r) max(abs(c(intercept - r$intercept, beta - r$beta)))
fmtRef <- function(intercept, beta, t) {
  if (is.null(ref)) return(rep("NA", 4))
  c(sprintf("%s (%s)", fmtS(t$median / ref$time, 2), fmtS(t$cpu / ref$cpu, 2)),
    fmtG(maxDiff(intercept, beta, ref)), fmtG(maxDiff(intercept, beta, tight)),
    fmtG(penalizedNegLogLik(intercept, beta) - tightObj, 3))
}

prior <- createPrior("laplace", variance = opts$variance)
for (conv in opts$convergence) for (tol in opts$tolerances) {
  engineTimes <- numeric(0)
  f <- timeIt({
    fm <- fitModel(data, prior = prior,
                   control = createControl(tolerance = tol, convergenceType = conv))
    engineTimes <<- c(engineTimes, fm$seconds)
    fm
  }, reps = opts$reps)
  fm <- f$value
  cf <- coef(fm)
  beta <- unname(cf[colnames(s$x)])
  engine <- stats::median(engineTimes)
  control <- createControl(tolerance = tol, convergenceType = conv)
  split <- setupSplit(data, prior, control, engine, fm$iterations, opts$reps)
  metric("lr_fit", method = "argus", convergence = conv, tol = fmtG(tol), n = opts$n, p = opts$p, density = opts$density,
         elapsed = f$median, cpu = f$cpu, engine = engine, cycles = fm$iterations,
         setup = split[["setup"]], perCycle = split[["perCycle"]],
         status = fm$status)
  mdRow(sprintf("Argus (%s)", conv), fmtG(tol), both(f), fmtS(engine), fm$iterations,
        fmtS(split[["setup"]]), fmtS(1000 * split[["perCycle"]], 1), fm$status, sum(beta != 0),
        fmtRef(cf[["(Intercept)"]], beta, f))
}
for (g in glmnetRows)
  mdRow("glmnet", g$label, both(list(median = g$time, cpu = g$cpu)), "", g$npasses, "", "", "",
        sum(g$beta != 0), fmtRef(g$intercept, g$beta, list(median = g$time, cpu = g$cpu)))
cat("\n")
cat(sprintf("Objective: penalized negative log-likelihood -loglik + %.4g * sum|beta| (intercept unpenalized); 'objective - tightest glmnet objective' near 0 or negative means the fit reached the optimum.\n", lambda))
