# Cross-validation and bootstrap benchmark: the time of a CV search and of a bootstrap
# against the time of one fit, at several thread counts, and a check that every thread
# count gives identical results; for Cox, the issue's target and cv.glmnet on the same folds.
#
#   Rscript bench/cv.R                    # lr and cox, N = 1e5, P = 1000, density 5%, 10 folds
#   Rscript bench/cv.R --quick            # N = 1e4 (lr with P = 200)
#   Rscript bench/cv.R --model=cox --n=3e4 --coxThreads=1,2
#   Rscript bench/cv.R --model=cox --glmnet=FALSE --coxReps=3   # the target, medians of 3
#   Rscript bench/cv.R --model=lr --threads=1,2,4 --cvType=auto,grid --replicates=50
#
# Logistic regression (--model=lr): columns "fit s" = one fitModel() at the chosen variance;
# "CV s" = the whole search (fold fits + held-out likelihoods), with the number of candidate
# variances and fold fits; "per fold fit" = CV s / fold fits, to compare with "fit s" (warm
# starts make fold fits cheaper than a cold fit); "same as 1 thread" compares fit$cv and the
# bootstrap estimates with identical(). Times are 'elapsed (cpu)', median of --reps.
#
# Cox (--model=cox; issue 4): simulateSurvival(N, P, density) with integer-day times, Laplace
# prior, 10-fold auto CV on --coxThreads threads (default 2, the target's, then 1 to check
# that the result is identical and to see what the second thread bought). Reported: the CV time (the
# search alone, fit$cv$seconds; its CPU time is the fitModel() call's minus the final refit's),
# candidate variances, fold fits (candidates x folds), their CCD cycles, time per fold fit,
# and the time of ten single fits at the chosen variance on all data, one thread. Target:
# CV time < 2 x ten single fits. cv.glmnet(family = "cox") then runs on the SAME folds
# (createFolds()) and on the lambdas of the variances Argus visited, lambda = sqrt(2 / v) / N
# (glmnet's Cox objective is the log partial likelihood divided by N), timed in the same run.
# glmnet's held-out measure (grouped partial-likelihood deviance) is not Argus's (the
# held-out rows' own partial likelihood), so the chosen variances may differ.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})

opts <- parseBenchArgs(list(quick = FALSE, model = c("lr", "cox"), n = 1e5, p = 1000,
                            density = 0.05, prior = "laplace", cvType = c("auto", "grid"),
                            fold = 10, gridSteps = 10, threads = c(1, 2), replicates = 20,
                            reps = 1, seed = 42, coxThreads = c(2, 1), coxReps = 1, singleFits = 10,
                            glmnet = TRUE),
                       quick = list(n = 1e4))
haveGlmnet <- opts$glmnet && requireNamespace("glmnet", quietly = TRUE) &&
  requireNamespace("survival", quietly = TRUE)
note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))

both <- function(t) sprintf("%s (%s)", fmtS(t$median), fmtS(t$cpu))
withoutTime <- function(cv) cv[setdiff(names(cv), "seconds")]
cpuNow <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }

# ---------------------------------------------------------------------------------------
# Logistic regression: CV per thread count and search type, then the bootstrap
# ---------------------------------------------------------------------------------------

benchLogistic <- function() {
  data <- timeIt({
    s <- simulateLogistic(opts$n, opts$p, opts$density, order = "row", seed = opts$seed)
    createData(s$outcomes, s$covariates, modelType = "lr")
  })
  note("simulated and built lr data, N = %g, P = %g in %.1f s", opts$n, opts$p, data$median)
  data <- data$value

  cat(sprintf("### Cross-validation, lr, N = %s, P = %s, density %g, %s prior, %d folds\n\n",
              fmtN(opts$n), fmtN(opts$p), opts$density, opts$prior, opts$fold))
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
      same <- if (is.null(reference)) "-" else
        identical(withoutTime(fit$cv), withoutTime(reference$cv)) &&
          identical(coef(fit), coef(reference))
      if (is.null(reference)) reference <- fit
      mdRow(type, threads, fmtS(cvSeconds), nrow(fit$cv$curve), foldFits,
            fmtS(cvSeconds / foldFits, 4), fmtG(fit$cv$variance, 4), fmtS(fit$seconds), same)
      metric("cv", model = "lr", n = opts$n, p = opts$p, cvType = type, threads = threads,
             cv = cvSeconds, total = t$median, candidates = nrow(fit$cv$curve))
    }
  }

  cat(sprintf("\n### Bootstrap, lr, %d replicates at the chosen variance\n\n", opts$replicates))
  mdHeader(c("threads", "bootstrap s", "per replicate s", "same as 1 thread"))
  reference <- NULL
  for (threads in opts$threads) {
    t <- timeIt(runBootstrap(fit, replicates = opts$replicates, threads = threads, seed = 1),
                reps = opts$reps)
    same <- if (is.null(reference)) "-" else identical(t$value$estimates, reference$estimates)
    if (is.null(reference)) reference <- t$value
    mdRow(threads, both(t), fmtS(t$median / opts$replicates, 4), same)
    metric("bootstrap", model = "lr", n = opts$n, p = opts$p, threads = threads,
           elapsed = t$median, cpu = t$cpu)
  }
  cat("\n")
}

# ---------------------------------------------------------------------------------------
# Cox (issue 4): 10-fold auto CV against ten single fits, and cv.glmnet on the same folds
# ---------------------------------------------------------------------------------------

benchCox <- function() {
  sim <- simulateSurvival(opts$n, opts$p, opts$density, seed = opts$seed)
  data <- createData(x = sim$x, y = sim$y, time = sim$time, modelType = "cox")
  n <- opts$n
  distinct <- length(unique(sim$time[sim$y == 1]))
  note("simulated cox data: N = %g, P = %g, %d events, %d distinct event times, %d true nonzero",
       n, opts$p, sum(sim$y), distinct, sum(sim$trueBeta != 0))
  prior <- createPrior("laplace", useCrossValidation = TRUE)

  cat(sprintf(paste0("### Cox, 10-fold auto CV: N = %s, P = %s at density %g (%s events, ",
                     "%s distinct integer-day event times), Laplace prior; load average ",
                     "before %s\n\n"),
              fmtN(n), fmtN(opts$p), opts$density, fmtN(sum(sim$y)), fmtN(distinct),
              paste(loadAverage(), collapse = " ")))
  cat(paste("Seconds as 'elapsed (cpu)'. CV = the search (all-data fits, fold fits and held-out",
            "likelihoods); its cpu time is the fitModel() call's minus the final refit's, so with",
            "2 threads cpu ~ 2 x elapsed when the machine is idle. Ten fits = ten fitModel() calls",
            "at the chosen variance on all data, one thread. Target: CV < 2 x ten fits.",
            sprintf("Medians of %d run(s) of both.\n\n", opts$coxReps)))
  mdHeader(c("threads", "CV s", "candidates", "fold fits", "cycles per fold fit",
             "per fold fit s", "chosen variance", "nonzero", "ten fits s", "cycles per fit",
             "CV / ten fits", "same as first", "load after"))
  reference <- NULL
  for (threads in opts$coxThreads) {
    control <- createControl(seed = opts$seed, cvType = "auto", fold = opts$fold,
                             threads = threads)
    # --coxReps runs of (CV, ten fits), alternating, medians reported: the machine is noisy.
    runs <- lapply(seq_len(opts$coxReps), function(rep) {
      invisible(gc(FALSE))
      cpu0 <- cpuNow()
      fit <- fitModel(data, prior, control)
      totalCpu <- cpuNow() - cpu0
      # The final refit runs on `threads` (its team spins between coordinates): its cpu time
      # is about threads x its elapsed time.
      cvCpu <- totalCpu - threads * fit$seconds
      single <- createPrior("laplace", variance = fit$cv$variance)
      elapsed <- cpu <- 0
      for (r in seq_len(opts$singleFits)) {
        invisible(gc(FALSE))
        t0 <- proc.time()
        one <- fitModel(data, single, createControl())
        dt <- proc.time() - t0
        elapsed <- elapsed + dt[["elapsed"]]
        cpu <- cpu + dt[["user.self"]] + dt[["sys.self"]]
      }
      stopifnot(identical(coef(one), coef(fit)))
      list(fit = fit, one = one, cv = fit$cv$seconds, cvCpu = cvCpu, elapsed = elapsed,
           cpu = cpu)
    })
    fit <- runs[[1]]$fit
    one <- runs[[1]]$one
    cv <- fit$cv
    cv$seconds <- stats::median(vapply(runs, `[[`, 0, "cv"))
    cvCpu <- stats::median(vapply(runs, `[[`, 0, "cvCpu"))
    elapsed <- stats::median(vapply(runs, `[[`, 0, "elapsed"))
    cpu <- stats::median(vapply(runs, `[[`, 0, "cpu"))
    if (opts$coxReps > 1)
      note("cox, %d threads: CV s %s; ten fits s %s", threads,
           paste(sprintf("%.2f", vapply(runs, `[[`, 0, "cv")), collapse = " "),
           paste(sprintf("%.2f", vapply(runs, `[[`, 0, "elapsed")), collapse = " "))
    foldFits <- nrow(cv$curve) * cv$folds * cv$repetitions
    same <- if (is.null(reference)) "-" else
      identical(withoutTime(cv), withoutTime(reference$cv)) && identical(coef(fit), coef(reference))
    if (is.null(reference)) {
      reference <- fit
      referenceCpu <- cvCpu
    }
    mdRow(threads, sprintf("%s (%s)", fmtS(cv$seconds), fmtS(cvCpu)), nrow(cv$curve), foldFits,
          fmtS(sum(cv$curve$cycles) / foldFits, 1),
          sprintf("%s (%s)", fmtS(cv$seconds / foldFits, 3), fmtS(cvCpu / foldFits, 3)),
          fmtG(cv$variance, 4), sum(coef(fit) != 0),
          sprintf("%s (%s)", fmtS(elapsed), fmtS(cpu)), one$iterations,
          sprintf("%.2f (%.2f)", cv$seconds / elapsed, cvCpu / cpu), same,
          paste(loadAverage(), collapse = " "))
    metric("cv_cox", n = n, p = opts$p, threads = threads, cv = cv$seconds, cvcpu = cvCpu,
           candidates = nrow(cv$curve), fits = foldFits, cycles = sum(cv$curve$cycles),
           allDataCycles = sum(cv$curve$allDataCycles), reps = opts$coxReps,
           tenFits = elapsed, tenFitsCpu = cpu, singleFits = opts$singleFits,
           variance = cv$variance, load = loadAverage()[1])
  }

  cat("\nThe search, in the order it scored the candidates (last run above):\n\n")
  curve <- reference$cv$curve
  curve <- curve[order(curve$order), ]
  mdHeader(c("order", "variance", "lambda_glmnet", "mean held-out log partial likelihood", "sd",
             "fold-fit cycles", "all-data fit cycles"))
  for (i in seq_len(nrow(curve)))
    mdRow(curve$order[i], fmtG(curve$variance[i], 4), fmtG(sqrt(2 / curve$variance[i]) / n, 4),
          sprintf("%.2f", curve$mean[i]), sprintf("%.2f", curve$sd[i]), curve$cycles[i],
          curve$allDataCycles[i])

  if (haveGlmnet) {
    fit <- reference
    foldid <- createFolds(data, createControl(seed = opts$seed, fold = opts$fold))[, 1]
    variances <- fit$cv$curve$variance
    lambda <- sort(sqrt(2 / variances) / n, decreasing = TRUE)
    surv <- survival::Surv(sim$time, sim$y)
    warned <- character(0)
    g <- withCallingHandlers(
      timeIt(glmnet::cv.glmnet(sim$x, surv, family = "cox", foldid = foldid, lambda = lambda,
                               standardize = FALSE)),
      warning = function(w) {
        warned <<- c(warned, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
    cvg <- g$value
    gVariance <- 2 / (cvg$lambda.min * n)^2
    cat(sprintf(paste0("\ncv.glmnet(family = \"cox\", foldid = createFolds(), lambda = the %d ",
                       "variances above, standardize = FALSE; fits the full path once plus once ",
                       "per fold, one thread; x is sparse, so glmnet runs its R-level cox.path, ",
                       "its Fortran coxnet taking dense x only): %s s elapsed (%s cpu); lambda.min %.4g = variance ",
                       "%.4g (Argus: %.4g); Argus CV / cv.glmnet: %.2f elapsed, %.2f cpu\n"),
                length(lambda), fmtS(g$median), fmtS(g$cpu), cvg$lambda.min, gVariance,
                fit$cv$variance, fit$cv$seconds / g$median, referenceCpu / g$cpu))
    if (length(warned))
      cat(sprintf("\nglmnet warned %d time(s): %s\n", length(warned),
                  paste(sprintf("'%s' x %d", names(table(warned)), table(warned)), collapse = "; ")))
    metric("cv_cox_glmnet", n = n, p = opts$p, elapsed = g$median, cpu = g$cpu,
           lambdas = length(lambda), variance = gVariance)
  }
  cat("\n")
}

loadAverage <- function() {
  l <- tryCatch(scan("/proc/loadavg", what = "", n = 3, quiet = TRUE), error = function(e) NA)
  as.numeric(l)
}

for (model in opts$model) {
  switch(model, lr = benchLogistic(), cox = benchCox(),
         stop("bench/cv.R: model '", model, "' is not prepared", call. = FALSE))
}
