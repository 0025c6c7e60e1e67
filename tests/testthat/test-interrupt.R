# A user's interrupt (Ctrl-C, SIGINT) stops a long fit and a cross-validation promptly, as R's
# interrupt condition, and leaves the session able to fit again with the same answers. Run in a
# child R process, which is sent SIGINT while the fit is under way (issue 14: keep it so
# through the parted refresh and the worker team).

# The fit after the interrupt, run by the child and, for reference, by this process: lung's
# age and sex (continuous and binary), Breslow, a normal prior.
afterFitCode <- '
  afterFit <- function() {
    lung <- survival::lung
    out <- data.frame(rowId = seq_len(nrow(lung)), time = lung$time, y = as.integer(lung$status == 2))
    cov <- rbind(data.frame(rowId = out$rowId, covariateId = 1, covariateValue = lung$age),
                 data.frame(rowId = out$rowId, covariateId = 2, covariateValue = lung$sex))
    coef(fitModel(createData(out, cov, modelType = "cox"), createPrior("normal", variance = 1)))
  }
'

# The child: simulates a Cox problem large enough to take several seconds (continuous times,
# so every coordinate refreshes about 0.6 N event slots: the fit's time grows with N x P
# whatever the density), writes its pid and a marker just
# before the long call, reports how the call ended and how long after the signal it returned,
# then fits a small model and saves its coefficients. The CV's design is sized so that it
# still runs well past the signal on a fast machine (4e4 rows had come down to 1.7 s,
# against the 1.5 s the parent waits: CI saw it finish first; 1.2e5 rows take 4.6 s).
# "progress fit" is the fit with its progress line shown (argusProgress): the engine's
# reports between cycles, R's message handler, the line on stderr (the log).
interruptChild <- function(dir, what) {
  long <- what != "cv"
  sprintf('
    library(Argus)
    dir <- "%s"
    set.seed(11)
    n <- %s; p <- %s
    k <- rbinom(p, n, %s)
    cov <- data.frame(rowId = unlist(lapply(k, function(m) sort(sample.int(n, m)))),
                      covariateId = rep(seq_len(p), k), covariateValue = 1)
    beta <- rnorm(p) * rbinom(p, 1, 0.2)
    eta <- as.vector(tapply(beta[cov$covariateId], factor(cov$rowId, levels = seq_len(n)), sum))
    eta[is.na(eta)] <- 0
    t <- rexp(n, exp(eta)); cens <- rexp(n, 0.5)
    out <- data.frame(rowId = seq_len(n), time = pmin(t, cens), y = as.integer(t <= cens))
    data <- createData(out, cov, modelType = "cox")
    writeLines(as.character(Sys.getpid()), file.path(dir, "pid"))
    writeLines("go", file.path(dir, "started"))
    t0 <- Sys.time()
    ended <- tryCatch({
      %s
      "finished"
    }, interrupt = function(e) "interrupt condition", error = function(e) conditionMessage(e))
    writeLines(c(ended, format(as.numeric(Sys.time()), digits = 15)), file.path(dir, "ended"))
    %s
    saveRDS(afterFit(), file.path(dir, "after.rds"))
  ', dir, if (long) "2e5" else "1.2e5", if (long) "2000" else "400",
  if (long) "0.005" else "0.03",
  switch(what,
         fit = 'fitModel(data, createPrior("laplace", variance = 1), createControl(tolerance = 1e-10))',
         `progress fit` = 'options(argus.progress = TRUE, argus.progressInterval = 0.05)
                           fitModel(data, createPrior("laplace", variance = 1), createControl(tolerance = 1e-10))',
         cv = 'fitModel(data, createPrior("laplace", useCrossValidation = TRUE), createControl(threads = 2, fold = 10, seed = 3))'),
  afterFitCode)
}

waitFor <- function(path, seconds) {
  deadline <- Sys.time() + seconds
  while (!file.exists(path) && Sys.time() < deadline) Sys.sleep(0.05)
  file.exists(path)
}

runInterrupted <- function(what) {
  dir <- tempfile("argus-interrupt-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  script <- file.path(dir, "child.R")
  writeLines(interruptChild(dir, what), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)),
          env = paste0("R_LIBS=", shQuote(lib)), wait = FALSE, stdout = file.path(dir, "log"),
          stderr = file.path(dir, "log"))
  expect_true(waitFor(file.path(dir, "started"), 120), info = paste(what, "never started"))
  pid <- as.integer(readLines(file.path(dir, "pid")))
  if (what == "progress fit") {
    # signalled once the progress line is under way (its first report, then a little more)
    deadline <- Sys.time() + 30
    while (!any(grepl("cox fit: ", readLines(file.path(dir, "log"), warn = FALSE), fixed = TRUE)) &&
           Sys.time() < deadline) Sys.sleep(0.05)
    Sys.sleep(0.2)
  } else {
    Sys.sleep(1.5)  # well inside the call: the fit takes several seconds, the CV longer
  }
  expect_false(file.exists(file.path(dir, "ended")), info = paste(what, "ended before the signal"))
  signalled <- as.numeric(Sys.time())
  tools::pskill(pid, tools::SIGINT)
  expect_true(waitFor(file.path(dir, "after.rds"), 60), info = paste(what, "did not finish after the signal"))
  ended <- readLines(file.path(dir, "ended"))
  list(how = ended[1], latency = as.numeric(ended[2]) - signalled,
       after = readRDS(file.path(dir, "after.rds")), log = readLines(file.path(dir, "log")))
}

test_that("SIGINT stops a long fit and a cross-validation within a second, and the session fits on", {
  skip_on_os("windows")  # no SIGINT to send
  skip_if(Sys.which("Rscript") == "" && !file.exists(file.path(R.home("bin"), "Rscript")), "no Rscript")
  skip_if_not_installed("survival")
  eval(parse(text = afterFitCode))
  reference <- afterFit()
  for (what in c("fit", "progress fit", "cv")) {
    r <- runInterrupted(what)
    if (what == "progress fit") expect_match(paste(r$log, collapse = "\n"), "cox fit: [0-9]+ cycles", info = what)
    # R's interrupt condition, not an error (tryCatch(error = ) swallowed Ctrl-C)
    expect_equal(r$how, "interrupt condition", info = paste(what, paste(r$log, collapse = "\n")))
    expect_lt(r$latency, 1.5)
    expect_identical(r$after, reference)
  }
})

test_that("a time limit stops a long fit with R's error, not as an interrupt", {
  skip_if(Sys.which("Rscript") == "" && !file.exists(file.path(R.home("bin"), "Rscript")), "no Rscript")
  # (both said "interrupted by the user", as an error). In a child R process: a time limit set
  # inside testthat's own evaluation did not reach the fit.
  dir <- tempfile("argus-timelimit-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  script <- file.path(dir, "child.R")
  writeLines(sprintf('
    library(Argus)
    # the long fit of the interrupt test (several seconds; a fit of under a second could end
    # between two of its checks, past the limit, and finish)
    set.seed(11)
    n <- 2e5; p <- 2000
    k <- rbinom(p, n, 0.005)
    cov <- data.frame(rowId = unlist(lapply(k, function(m) sort(sample.int(n, m)))),
                      covariateId = rep(seq_len(p), k), covariateValue = 1)
    beta <- rnorm(p) * rbinom(p, 1, 0.2)
    eta <- as.vector(tapply(beta[cov$covariateId], factor(cov$rowId, levels = seq_len(n)), sum))
    eta[is.na(eta)] <- 0
    t <- rexp(n, exp(eta)); cens <- rexp(n, 0.5)
    out <- data.frame(rowId = seq_len(n), time = pmin(t, cens), y = as.integer(t <= cens))
    data <- createData(out, cov, modelType = "cox")
    how <- tryCatch({
      setTimeLimit(elapsed = 0.5, transient = TRUE)
      fitModel(data, createPrior("laplace", variance = 1), createControl(tolerance = 1e-10))
      "finished"
    }, error = function(e) conditionMessage(e), interrupt = function(e) "interrupt condition")
    setTimeLimit()
    writeLines(how, file.path("%s", "how"))
  ', dir), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)),
          env = paste0("R_LIBS=", shQuote(lib)), stdout = FALSE, stderr = FALSE)
  expect_match(readLines(file.path(dir, "how")), "time limit")
})
