# Issue 38: argusData and argusFit objects are plain lists, and an edited one must give a
# clear R error (or the intact object's answer), never a crash. fuzz/edited_objects.R edits
# every field of three data objects (lr, sccs, stratified cox) and two fits (lr, cox) to a
# wrong type, length or range (NULL, another type, truncated, extended, NA, huge, negative,
# NaN, Inf, ...), then fits, predicts, bootstraps, profiles... with it, and also calls the
# engine's entry points directly (.Call) with the edited data, past the R checks. It runs in
# a child R process: a case that crashes it is reported with the child's output (under ASan,
# the report) and the child goes on from the next case. CI also runs this file with Argus
# built under ASan and UBSan (.ci/run, .ci/sanitizers.sh).

runEditedObjects <- function() {
  script <- normalizePath(test_path("fuzz", "edited_objects.R"))
  rscript <- file.path(R.home("bin"), "Rscript")
  dir <- tempfile("argus-edited-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  env <- paste0("R_LIBS=", shQuote(paste(.libPaths(), collapse = .Platform$path.sep)))
  child <- function(...) system2(rscript, c("--vanilla", shQuote(script), ...), env = env,
                                 stdout = file.path(dir, "output"), stderr = file.path(dir, "output"))
  child("names", shQuote(file.path(dir, "names")))
  names <- readLines(file.path(dir, "names"))
  total <- length(names)
  log <- file.path(dir, "log")
  crashes <- list()
  first <- 1L
  repeat {
    status <- child(first, shQuote(log))
    lines <- if (file.exists(log)) readLines(log) else character(0)
    started <- as.integer(sub("^start ", "", grep("^start ", lines, value = TRUE)))
    ended <- as.integer(sub("^end ([0-9]+) .*$", "\\1", grep("^end ", lines, value = TRUE)))
    last <- if (length(started)) max(started) else first - 1L
    if (status == 0 && last == total && last %in% ended) break
    # the case that started and did not end crashed the child
    crashes[[length(crashes) + 1]] <- list(case = last, name = names[last], status = status,
                                           output = utils::tail(readLines(file.path(dir, "output")), 40))
    if (last >= total || length(crashes) > 20) break
    first <- last + 1L
  }
  ends <- grep("^end ", readLines(log), value = TRUE)
  list(total = total, crashes = crashes,
       outcome = sub("^end [0-9]+ ([a-z]+) .*$", "\\1", ends),
       name = sub("^end [0-9]+ [a-z]+ ", "", ends))
}

# What each case's edit is: a valid value (a fraction, a huge, negative or far number, a reversed
# vector, another string, the same numbers as another type), NULL where the field is
# optional, a label, a stored number that print() and summary() report, an engine call.
editKinds <- function(names) {
  field <- sub(" <- .*$", "", names)
  edit <- sub("^.* <- ([A-Za-z_]+); .*$", "\\1", names)
  operation <- sub("^.*; ", "", names)
  data.frame(
    valueEdit = edit %in% c("fraction", "huge", "negative", "past", "reversed", "other", "integer", "double"),
    label = grepl("\\$(rowIds|rowNames|columnNames|stratumLabels|covariateIds)$", field),
    optional = edit == "NULL" &
      grepl(paste0("\\$(weights|offset|time|startTime|censoringSurvival|settings\\$(weights|start|fixed)|",
                   "control\\$optimalityTolerance|startingCoefficients|infinite|pinned|device|na.action)$"), field),
    stored = edit %in% c("na", "nan", "inf") &
      grepl("^fit(Lr|Cox)\\$(logLikelihood|logPrior|seconds|optimality)$", field),
    engine = grepl("^\\.Call ", operation))
}

# Which "changed" outcomes are answers for a valid edited object (see the test).
changeAllowed <- function(names) {
  kind <- editKinds(names)
  kind$valueEdit | kind$label | kind$optional | kind$stored | kind$engine
}

test_that("every field of argusData and argusFit, edited, gives a clear error or the intact answer, never a crash", {
  skip_if_not_installed("survival")
  skip_if(!file.exists(file.path(R.home("bin"), "Rscript")), "no Rscript")
  r <- runEditedObjects()
  crashed <- vapply(r$crashes, function(k) sprintf("case %d, %s (exit status %s):\n%s", k$case, k$name, k$status,
                                                   paste(k$output, collapse = "\n")), "")
  expect_equal(length(r$crashes), 0, info = paste(crashed, collapse = "\n\n"))
  expect_gt(r$total, 10000)
  expect_equal(length(r$outcome), r$total)
  # An edit of a field's type, length or presence (NULL, another type, empty, truncated,
  # extended, NA, NaN, Inf) is an error wherever the field is read; an answer that differs
  # from the intact object's comes only from edits that leave a valid value (a fraction, a
  # huge or negative number, a reversed vector: another coefficient, weight or outcome), from
  # NULL where a field is optional, from labels (row ids and names, covariate names), from the
  # stored numbers that print() and summary() report as they are, or from the engine's own
  # entry points called past the R checks (there only a crash counts).
  changed <- r$name[r$outcome == "changed"]
  expect_true(all(changeAllowed(changed)),
              info = paste(utils::head(changed[!changeAllowed(changed)], 30), collapse = "\n"))
  # the engine itself refuses the edits of type, length or presence of what it reads, handed
  # to it past the R checks
  kind <- editKinds(r$name)
  refused <- kind$engine & !kind$valueEdit & !kind$optional
  expect_true(all(r$outcome[refused] %in% c("error", "same")),
              info = paste(utils::head(r$name[refused & r$outcome == "changed"], 30), collapse = "\n"))
  # and the R checks name the field in their message (checked on three cases here)
  d <- createData(x = matrix(c(1, 2, 3, 4, 0, 1, 1, 0), 4), y = c(0, 1, 1, 0), modelType = "lr")
  d$design$rowStart[2] <- 1e7
  expect_error(fitModel(d), "not a valid argusData object: its design\\$rowStart must rise")
})

test_that("an edited stratum offset is an error, not a segfault; truncated coefficients and an unknown prior kind are errors", {
  skip_if(!file.exists(file.path(R.home("bin"), "Rscript")), "no Rscript")
  # Issue 38: the shift-invariant centring read the rows through the stratum offsets before
  # the data were validated, and so did the validation itself: d$stratumStart[3] <- 1e7 on
  # sccs data was a segfault (in a child process here, so that it would not end the tests).
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script), add = TRUE)
  writeLines(c(
    'library(Argus)',
    'set.seed(1)',
    'n <- 60',
    'x <- matrix(rbinom(2 * n, 1, 0.4), n, 2, dimnames = list(NULL, c("a", "b")))',
    'x <- cbind(x, c = 1e6 + round(rnorm(n), 3))  # a column the fit centres within strata',
    'd <- createData(x = x, y = rpois(n, 1), time = rep(10, n), stratumId = rep(1:20, each = 3), modelType = "sccs")',
    'd$stratumStart[3] <- 1e7',
    'cat("R:", tryCatch({fitModel(d); "fitted"}, error = function(e) conditionMessage(e)), "\n")',
    'settings <- list(priorKind = rep(0L, 3), variance = rep(1, 3), start = NULL, fixed = NULL, weights = NULL,',
    '                 tolerance = 1e-6, optimalityTolerance = 1e-4, maxIterations = 100L, convergenceType = "gradient",',
    '                 initialBound = 2, device = "cpu", verbose = FALSE, threads = 1L)',
    'cat("engine:", tryCatch({.Call(Argus:::argus_fit, d, settings); "fitted"}, error = function(e) conditionMessage(e)), "\n")'),
    script)
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", shQuote(script)), stdout = TRUE, stderr = TRUE,
                                  env = paste0("R_LIBS=", shQuote(paste(.libPaths(), collapse = .Platform$path.sep)))))
  expect_null(attr(out, "status"), info = paste(out, collapse = "\n"))
  expect_true(any(grepl("^R: 'data' is not a valid argusData object: its stratumStart must rise from 0 to the number of rows \\([0-9]+\\)", out)),
              info = paste(out, collapse = "\n"))
  expect_true(any(grepl("^engine: corrupt strata: stratumStart", out)), info = paste(out, collapse = "\n"))
  # a truncated coefficient vector was read as zeros by predict(); a prior kind of 7 as flat
  set.seed(38)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
  fit <- fitModel(createData(x = x, y = rbinom(100, 1, plogis(x[, 1])), modelType = "lr"))
  truncated <- fit
  truncated$coefficients <- truncated$coefficients[1:2]
  expect_error(predict(truncated), "its coefficients must be one per covariate of its data \\(3\\)")
  expect_error(predict(truncated, newdata = x), "its coefficients must be one per covariate")
  expect_error(coef(truncated), "its coefficients must be one per covariate")
  unknown <- fit
  unknown$settings$priorKind <- rep(7L, 3)
  expect_error(vcov(unknown), "its settings\\$priorKind must be one prior kind \\(0 none, 1 laplace, 2 normal\\)")
  expect_error(confint(unknown), "settings\\$priorKind")
  settings <- fit$settings
  settings$priorKind <- rep(7L, 3)
  expect_error(.Call(Argus:::argus_hessian, fit$data, settings, unname(coef(fit)), 0:2, TRUE, FALSE),
               "prior kinds must be 0 \\(none\\), 1 \\(laplace\\) or 2 \\(normal\\)")
})
