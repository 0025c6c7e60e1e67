# Progress of long work (?argusProgress): a line redrawn at most every half second where
# progress is wanted (interactive sessions, options(argus.progress = TRUE)), nothing under
# R CMD check; showing it runs cross-validation, the bootstrap and profiles in rounds, with
# the same results.

# (invisible: capture.output() prints a visible value on stdout, which it does not capture)
captureStderr <- function(expr) paste(utils::capture.output(invisible(expr), type = "message"), collapse = "\n")

test_that("nothing is shown outside an interactive session unless asked", {
  withr::local_options(argus.progress = NULL)
  expect_false(interactive())
  expect_false(Argus:::progressWanted())
  withr::local_options(argus.progress = TRUE)
  expect_true(Argus:::progressWanted())
  withr::local_options(argus.progress = FALSE)
  expect_false(Argus:::progressWanted())
})

test_that("the line shows a bar, counts and time, redrawn at most every interval", {
  line <- Argus:::progressLine("bootstrap", 200, show = TRUE, every = 0)
  text <- captureStderr({
    line$tick(50)
    line$done()
  })
  expect_match(text, "bootstrap \\[=====  *\\] 50 of 200, 0 s, about 0 s left")
  # unknown totals: what is done and the time
  line <- Argus:::progressLine("cross-validation", NULL, show = TRUE, every = 0)
  expect_match(captureStderr(line$tick(7, "candidate 2")), "cross-validation: 7 done, 0 s \\(candidate 2\\)")
  line <- Argus:::progressLine("cross-validation", NULL, show = TRUE, every = 0, unit = "fold fits")
  expect_match(captureStderr(line$tick(7)), "cross-validation: 7 fold fits, 0 s")
  # within the interval nothing is drawn: fast work stays silent
  line <- Argus:::progressLine("bootstrap", 200, show = TRUE, every = 60)
  expect_identical(captureStderr(line$tick(50)), "")
  line <- Argus:::progressLine("bootstrap", 200, show = FALSE, every = 0)
  expect_identical(captureStderr(line$tick(50)), "")
  # a note is drawn at once (a large fit's "what runs"), and the next tick draws over it
  line <- Argus:::progressLine("cox fit", NULL, show = TRUE, every = 0, unit = "cycles")
  text <- captureStderr({
    line$note("Argus cox fit: 1,000,000 rows ...")
    line$tick(3)
  })
  expect_match(text, "^\rArgus cox fit: 1,000,000 rows \\.\\.\\.\rcox fit: 3 cycles, 0 s *$")
  line <- Argus:::progressLine("cox fit", NULL, show = FALSE)
  expect_identical(captureStderr(line$note("Argus cox fit")), "")
  # the interval is a number of seconds
  withr::local_options(argus.progressInterval = "fast")
  expect_error(Argus:::progressInterval(), "argus.progressInterval")
})

test_that("rounds cover every item once, in order, sized to keep the threads busy", {
  seen <- list()
  line <- list(show = TRUE, tick = function(done) invisible(), done = function() invisible())
  out <- Argus:::inRounds(1:23, function(items) { seen[[length(seen) + 1]] <<- items; items },
                          "test", threads = 4L, progress = line, seconds = 0)
  expect_identical(unlist(out), 1:23)
  expect_identical(seen[[1]], 1:4)
  expect_true(all(lengths(seen)[-length(seen)] %% 4 == 0))
  # without progress: one round
  quiet <- list(show = FALSE, tick = function(done) invisible(), done = function() invisible())
  expect_length(Argus:::inRounds(1:23, identity, "test", threads = 4L, progress = quiet), 1)
})

test_that("with progress shown, the bootstrap, cross-validation and profiles give the same results", {
  # (cross-validation and the bootstrap read the engine's progress lines; profiles run in rounds)
  set.seed(5)
  n <- 400
  x <- matrix(rnorm(n * 12), n, 12, dimnames = list(NULL, paste0("x", 1:12)))
  y <- rbinom(n, 1, plogis(x[, 1] - x[, 2]))
  data <- createData(x = x, y = y, modelType = "lr")
  control <- createControl(threads = 2, seed = 3, fold = 5)
  prior <- createPrior("laplace", useCrossValidation = TRUE)
  flat <- fitModel(data, control = createControl(threads = 2))
  quietRun <- withr::with_options(list(argus.progress = FALSE), list(
    cv = fitModel(data, prior, control),
    boot = runBootstrap(flat, replicates = 30, seed = 9, threads = 2, keepCounts = TRUE),
    ci = suppressMessages(confint(flat)),
    profile = profileLogLikelihood(flat, c("x1", "x2"), x = c(0.5, 1))))
  shown <- NULL
  stderr <- captureStderr(shown <- withr::with_options(list(argus.progress = TRUE), list(
    cv = fitModel(data, prior, control),
    boot = runBootstrap(flat, replicates = 30, seed = 9, threads = 2, keepCounts = TRUE),
    ci = suppressMessages(confint(flat)),
    profile = profileLogLikelihood(flat, c("x1", "x2"), x = c(0.5, 1)))))
  expect_identical(coef(shown$cv), coef(quietRun$cv))
  expect_identical(shown$cv$cv$curve, quietRun$cv$cv$curve)
  expect_identical(shown$boot$estimates, quietRun$boot$estimates)
  expect_identical(shown$boot$counts, quietRun$boot$counts)
  expect_identical(shown$boot$status, quietRun$boot$status)
  expect_identical(unclass(shown$ci), unclass(quietRun$ci))
  expect_identical(shown$profile, quietRun$profile)
})

test_that("cross-validation, the bootstrap, confint() and profiles report where progress is wanted", {
  set.seed(6)
  n <- 300
  x <- matrix(rnorm(n * 12), n, 12, dimnames = list(NULL, paste0("x", 1:12)))
  y <- rbinom(n, 1, plogis(x[, 1]))
  data <- createData(x = x, y = y, modelType = "lr")
  flat <- fitModel(data)
  withr::local_options(argus.progress = TRUE, argus.progressInterval = 0)
  prior <- createPrior("laplace", useCrossValidation = TRUE)
  expect_match(captureStderr(fitModel(data, prior, createControl(seed = 1, fold = 4))),
               "cross-validation: 2 variances scored, [0-9]+ s \\(last [0-9.e+-]+\\)")
  grid <- captureStderr(fitModel(data, prior, createControl(seed = 1, fold = 4, cvType = "grid", gridSteps = 5)))
  expect_match(grid, "cross-validation \\[=+ *\\] 3 of 5")
  # the engine's own lines where noiseLevel asks for them, and then no progress line
  quiet <- captureStderr(fitModel(data, prior, createControl(seed = 1, fold = 4, noiseLevel = "quiet")))
  expect_match(quiet, "cross-validation: variance [0-9.e+-]+, predictive log-likelihood")
  expect_false(grepl("variances scored", quiet))
  expect_match(captureStderr(runBootstrap(flat, replicates = 20, seed = 1)),
               "bootstrap \\[=+ *\\] [0-9]+ of 20")
  expect_match(captureStderr(suppressMessages(confint(flat))), "profile-likelihood intervals \\[=+ *\\] [0-9]+ of 13")
  expect_match(captureStderr(profileLogLikelihood(flat, c("x1", "x2"), x = 0)), "profile \\[=+ *\\] 1 of 2,.*\\(x1\\)")
  # and nothing where it is not wanted (R CMD check, Rscript)
  withr::local_options(argus.progress = NULL)
  expect_identical(captureStderr(runBootstrap(flat, replicates = 20, seed = 1)), "")
})

# A single fit: the engine reports after a cycle (or a step of the majorized start), paced
# in C++ (ControlSettings::progressSeconds), never before the interval has passed.
progressFitData <- function(n) {
  # Cox with continuous times: every coordinate refreshes about half the rows' event slots
  set.seed(12)
  x <- matrix(rnorm(n * 40), n, 40, dimnames = list(NULL, paste0("x", 1:40)))
  t <- rexp(n, exp(0.3 * x[, 1] - 0.2 * x[, 2]))
  createData(x = x, y = as.integer(t < 2), time = pmin(t, 2), modelType = "cox")
}

test_that("a fit that runs past the interval shows its cycles and log-likelihood; a faster one nothing", {
  data <- progressFitData(20000)
  prior <- createPrior("laplace", variance = 0.1)
  control <- createControl(tolerance = 1e-10, majorizedStart = "never")
  # the interval from the fit's own time, so that the test holds on a machine of any speed
  seconds <- withr::with_options(list(argus.progress = FALSE), fitModel(data, prior, control))$seconds
  withr::local_options(argus.progress = TRUE, argus.progressInterval = seconds / 5)
  fit <- NULL
  shown <- captureStderr(fit <- fitModel(data, prior, control))
  expect_gt(fit$iterations, 4)
  expect_match(shown, "cox fit: [0-9]+ cycles, [0-9]+ s \\(logLik -[0-9.]+, change [0-9.e+-]+, tolerance 1e-10\\)")
  # the line is cleared when the fit is done
  expect_match(shown, "\r *\r$")
  # a fit done within the interval shows nothing: this one at five times its time, and one of a
  # few milliseconds at the default half second
  withr::local_options(argus.progressInterval = 5 * seconds)
  expect_identical(captureStderr(fitModel(data, prior, control)), "")
  withr::local_options(argus.progressInterval = NULL)
  small <- createData(x = as.matrix(mtcars[, c("wt", "hp")]), y = mtcars$am, modelType = "lr")
  quick <- NULL
  expect_identical(captureStderr(quick <- fitModel(small)), "")
  expect_lt(quick$seconds, 0.5)
  # and not where progress is not wanted (R CMD check, Rscript) or the engine's lines are
  withr::local_options(argus.progress = NULL, argus.progressInterval = 0)
  expect_identical(captureStderr(fitModel(data, prior, control)), "")
  withr::local_options(argus.progress = TRUE)
  noisy <- captureStderr(fitModel(small, control = createControl(noiseLevel = "noisy")))
  expect_match(noisy, "cycle 1 \\(")
  expect_false(grepl("lr fit: [0-9]+ cycles", noisy))
})

test_that("at an interval of 0 every cycle and majorized step is reported, and the fit is the same", {
  data <- progressFitData(3000)
  prior <- createPrior("laplace", variance = 0.1)
  for (start in c("never", "always")) {
    control <- createControl(tolerance = 1e-10, majorizedStart = start)
    quiet <- withr::with_options(list(argus.progress = FALSE), fitModel(data, prior, control))
    shownFit <- NULL
    shown <- withr::with_options(list(argus.progress = TRUE, argus.progressInterval = 0),
                                 captureStderr(shownFit <- fitModel(data, prior, control)))
    expect_identical(coef(shownFit), coef(quiet))
    expect_identical(shownFit$iterations, quiet$iterations)
    draws <- strsplit(shown, "\r")[[1]]
    steps <- grep("^cox fit: 0 cycles, [0-9]+ s \\(majorized start, step [0-9]+: logLik -[0-9.]+\\) *$", draws, value = TRUE)
    cycles <- grep("^cox fit: [0-9]+ cycles, [0-9]+ s \\(logLik -[0-9.]+, change [0-9.e+-]+, tolerance 1e-10\\) *$", draws, value = TRUE)
    expect_identical(as.integer(sub("^.*step ([0-9]+):.*$", "\\1", steps)), seq_len(quiet$majorizedSteps))
    expect_identical(as.integer(sub("^cox fit: ([0-9]+) cycles.*$", "\\1", cycles)), seq_len(quiet$iterations))
    # the log-likelihood at the last cycle or step is the fit's
    last <- as.numeric(sub("^.*logLik (-[0-9.]+).*$", "\\1", utils::tail(c(steps, cycles), 1)))
    expect_equal(last, quiet$logLikelihood, tolerance = 1e-7)
  }
  expect_gt(quiet$majorizedSteps, 0)
})
