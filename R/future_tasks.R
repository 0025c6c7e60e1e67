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
    parts <- inFutures(taskShares(tasks), cvFoldTasks,
                       list(data, settings, cvSettings, variance, start))
    list(value = unlist(lapply(parts, `[[`, "value")),
         converged = unlist(lapply(parts, `[[`, "converged")),
         cycles = unlist(lapply(parts, `[[`, "cycles")),
         infinite = unlist(lapply(parts, `[[`, "infinite")))
  }
}

cvFoldTasks <- function(data, settings, cvSettings, variance, start, tasks) {
  .Call(argus_cv_fold_tasks, data, settings, cvSettings, as.double(variance), as.double(start),
        as.double(tasks))
}

# runBootstrap()'s engine result, its replicates spread over the plan's workers.
futureBootstrap <- function(data, settings, bootSettings) {
  parts <- inFutures(taskShares(bootSettings$replicates), bootstrapShare,
                     list(data, settings, bootSettings))
  list(beta = do.call(cbind, lapply(parts, `[[`, "beta")),
       status = unlist(lapply(parts, `[[`, "status")),
       counts = if (bootSettings$keepCounts) do.call(cbind, lapply(parts, `[[`, "counts")),
       selectorType = parts[[1]]$selectorType)
}

# The engine's bootstrap in this process. Where progress is shown (argusProgress) and the
# engine's own lines are not (noiseLevel "silent"), its lines (every tenth of the replicates)
# move the progress line instead: the same single call, at no cost.
threadBootstrap <- function(data, settings, bootSettings, quiet = TRUE) {
  progress <- progressLine("bootstrap", bootSettings$replicates)
  if (!progress$show || !quiet) return(.Call(argus_bootstrap, data, settings, bootSettings))
  on.exit(progress$done())
  bootSettings$messages <- TRUE
  withEngineLines("bootstrap: ", "^bootstrap: ([0-9]+) of [0-9]+ replicates",
                  function(done) progress$tick(as.numeric(done)),
                  .Call(argus_bootstrap, data, settings, bootSettings))
}

# Evaluates `expr` with the engine's lines that start with `prefix` (those it was asked for
# only to report progress) kept off the console; each that matches `pattern` hands its first
# group to `seen`. Other messages pass.
withEngineLines <- function(prefix, pattern, seen, expr) {
  withCallingHandlers(expr, message = function(m) {
    text <- conditionMessage(m)
    if (!startsWith(text, prefix)) return()
    if (grepl(pattern, text)) seen(sub(paste0(pattern, ".*"), "\\1", text))
    invokeRestart("muffleMessage")
  })
}

bootstrapShare <- function(data, settings, bootSettings, replicates) {
  bootSettings$firstReplicate <- as.integer(replicates[1])
  bootSettings$replicates <- length(replicates)
  bootSettings$messages <- FALSE
  .Call(argus_bootstrap, data, settings, bootSettings)
}
