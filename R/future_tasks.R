# Cross-validation folds and bootstrap replicates spread over the workers of a 'future' plan
# (future::plan(): multisession, cluster, batchtools, ...), with createControl(parallel =
# "future") or runBootstrap(parallel = "future").
#
# What can be split deterministically (src/engine/selection/): every fold task of a
# candidate variance (repetition x fold) is a fit from the same start, the all-data solution
# that the search computed in this process; every bootstrap replicate draws its resample from
# its own random stream (seed, replicate number). A worker runs a share of the tasks through
# the same engine code as the threads do, and the results come back in task order, so a
# future run equals the threaded run for the same seed. The variance search itself stays in
# this process: each candidate is one round of futures, and every round sends the data to
# the workers again (a cluster pays that transfer per candidate).

checkParallel <- function(parallel) {
  if (!is.character(parallel) || length(parallel) != 1 || !(parallel %in% c("threads", "future")))
    stopf("'parallel' must be \"threads\" or \"future\"")
  if (parallel == "future" && !requireNamespace("future", quietly = TRUE))
    stopf("parallel = \"future\" needs the package 'future'")
  parallel
}

# Contiguous shares of 0 .. n - 1, one per worker of the current plan (at most n).
taskShares <- function(n) {
  k <- max(1L, min(n, future::nbrOfWorkers()))
  ids <- seq_len(n) - 1
  if (k == 1L) return(list(ids))  # cut() refuses a single interval (a sequential plan)
  unname(split(ids, cut(seq_len(n), k, labels = FALSE)))
}

# Runs `fun(<args>, share)` for each share as a future and returns the values in share order.
# `fun` is one of Argus's functions: a worker loads the package (from the same library
# paths, as future's multisession and cluster workers do by default) and gets the arguments
# as globals, once per share.
inFutures <- function(shares, fun, args) {
  futures <- lapply(shares, function(share) {
    future::future(do.call(fun, c(args, list(share))),
                   globals = list(fun = fun, args = args, share = share), packages = "Argus")
  })
  lapply(futures, future::value)
}

# The engine's fold-task runner for fitModel() (cvSettings$taskRunner): each round of fold
# fits, spread over the plan's workers.
futureFoldRunner <- function(data, settings, cvSettings) {
  function(variance, start, tasks) {
    combineFoldParts(inFutures(taskShares(tasks), cvFoldTasks,
                               list(data, settings, cvSettings, variance, start)))
  }
}

# The fold-task results of several shares, in task order, as the engine takes them back.
combineFoldParts <- function(parts) {
  list(value = unlist(lapply(parts, `[[`, "value")),
       converged = unlist(lapply(parts, `[[`, "converged")),
       cycles = unlist(lapply(parts, `[[`, "cycles")),
       infinite = unlist(lapply(parts, `[[`, "infinite")))
}

# The engine's fold-task runner where progress is shown (argusProgress): each candidate's
# fold fits in rounds on this process's threads, the line redrawn between rounds. The same
# fits as the engine's own runner (cvFoldTasks() is its code), so the same result. `$done()`
# clears the line.
progressFoldRunner <- function(data, settings, cvSettings) {
  progress <- NULL
  candidates <- 0L
  fitted <- 0L
  run <- function(variance, start, tasks) {
    if (is.null(progress))
      progress <<- progressLine("cross-validation", if (cvSettings$cvType == "grid") cvSettings$gridSteps * tasks,
                                unit = "fold fits")
    candidates <<- candidates + 1L
    round <- list(show = TRUE, done = function() invisible(), tick = function(done) progress$tick(
      fitted, sprintf("candidate %d, variance %.3g: %d of %d", candidates, variance, done, tasks)))
    combineFoldParts(inRounds(seq_len(tasks) - 1, function(ids) {
      part <- cvFoldTasks(data, settings, cvSettings, variance, start, ids)
      fitted <<- fitted + length(ids)
      part
    }, "cross-validation", threads = cvSettings$threads, progress = round))
  }
  list(run = run, done = function() if (!is.null(progress)) progress$done())
}

cvFoldTasks <- function(data, settings, cvSettings, variance, start, tasks) {
  .Call(argus_cv_fold_tasks, data, settings, cvSettings, as.double(variance), as.double(start),
        as.double(tasks))
}

# runBootstrap()'s engine result, its replicates spread over the plan's workers.
futureBootstrap <- function(data, settings, bootSettings) {
  combineBootstrapParts(inFutures(taskShares(bootSettings$replicates), bootstrapShare,
                                  list(data, settings, bootSettings)), bootSettings$keepCounts)
}

# The engine's bootstrap in this process: one call, or where progress is shown
# (argusProgress) rounds of replicates with the line redrawn between them (each replicate
# draws from its own random stream, so the rounds give the same replicates).
threadBootstrap <- function(data, settings, bootSettings) {
  progress <- progressLine("bootstrap", bootSettings$replicates)
  if (!progress$show) return(.Call(argus_bootstrap, data, settings, bootSettings))
  combineBootstrapParts(inRounds(seq_len(bootSettings$replicates) - 1L, function(ids)
    bootstrapShare(data, settings, bootSettings, ids), "bootstrap",
    threads = bootSettings$threads, progress = progress), bootSettings$keepCounts)
}

combineBootstrapParts <- function(parts, keepCounts) {
  list(beta = do.call(cbind, lapply(parts, `[[`, "beta")),
       status = unlist(lapply(parts, `[[`, "status")),
       counts = if (keepCounts) do.call(cbind, lapply(parts, `[[`, "counts")),
       selectorType = parts[[1]]$selectorType)
}

bootstrapShare <- function(data, settings, bootSettings, replicates) {
  bootSettings$firstReplicate <- as.integer(replicates[1])
  bootSettings$replicates <- length(replicates)
  bootSettings$messages <- FALSE
  .Call(argus_bootstrap, data, settings, bootSettings)
}
