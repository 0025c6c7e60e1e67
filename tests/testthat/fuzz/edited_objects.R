# The cases of test-edited-objects.R, run by a child R process (so that a crash ends the
# child, not the test run): every field of an argusData and of an argusFit, edited to a wrong
# type, length or range, then used. Also the engine's entry points called directly (.Call)
# with the edited data objects, past the R checks: the engine must refuse them itself.
#
#   Rscript edited_objects.R <first case> <log file>     runs the cases from <first case> on
#   Rscript edited_objects.R names <file>                 writes the cases' names
#
# Each case appends "start <i>" before it runs and "end <i> <outcome> <name>" after, the
# outcome "error" (an R error), "same" (the result of the intact object) or "changed". The
# parent (test-edited-objects.R) restarts the child after the case a crash stopped.
suppressPackageStartupMessages({
  library(Argus)
  library(survival)
})
args <- commandArgs(trailingOnly = TRUE)
set.seed(38)

# ---- objects: small data of three shapes -----------------------------------------------
n <- 60
x <- cbind(a = round(rnorm(n), 3), b = rbinom(n, 1, 0.4), c = round(runif(n, 1000, 1001), 3))
yLr <- rbinom(n, 1, plogis(x[, "a"]))
dataLr <- createData(x = x, y = yLr, weights = rep(c(1, 2), n / 2), modelType = "lr")
sccs <- local({
  stratumId <- rep(seq_len(20), each = 3)
  long <- data.frame(rowId = seq_len(n), stratumId = stratumId, y = rpois(n, 0.4), time = rep(c(10, 20, 30), 20))
  long$y[match(seq_len(20), stratumId)] <- 1  # an event in every stratum
  covariates <- data.frame(rowId = rep(seq_len(n), 2), covariateId = rep(c(11, 12), each = n),
                           covariateValue = c(rbinom(n, 1, 0.5), round(rnorm(n), 3)))
  covariates <- covariates[covariates$covariateValue != 0, ]
  createData(long, covariates, modelType = "sccs")
})
lungCc <- lung[complete.cases(lung[, c("time", "status", "age", "sex", "ph.ecog")]), ][1:120, ]
dataCox <- createData(Surv(time, status) ~ age + sex + strata(ph.ecog), data = lungCc, modelType = "cox")
fitLr <- suppressWarnings(fitModel(dataLr))
fitCox <- suppressWarnings(fitModel(dataCox))

# ---- mutations of one value ---------------------------------------------------------------
mutations <- function(v) {
  out <- list(`NULL` = NULL, character = "#edited#", list = list(1), function_ = sum, empty = v[0])
  if (length(v) >= 1 && is.atomic(v)) {
    out$truncated <- v[-length(v)]
    out$extended <- c(v, v[length(v)])
    if (is.numeric(v) || is.logical(v)) {
      first <- function(value) replace(v, 1, value)
      out$na <- first(NA)
      out$huge <- first(if (is.integer(v)) .Machine$integer.max else 1e300)
      out$negative <- first(if (is.logical(v)) NA else -1)
      # a middle value far past any row (the issue's d$stratumStart[3] <- 1e7)
      if (!is.logical(v)) out$past <- replace(v, max(1, length(v) %/% 2), if (is.integer(v)) 10000000L else 1e7)
      if (is.double(v)) {
        out$nan <- first(NaN)
        out$inf <- first(Inf)
        out$fraction <- first(v[1] + 0.5)
        if (all(is.finite(v)) && all(v == round(v)) && all(abs(v) < 2^31)) out$integer <- as.integer(v)
      }
      if (is.integer(v)) out$double <- as.double(v)
      if (length(v) >= 2) out$reversed <- rev(v)
      out$text <- as.character(v)
    }
    if (is.character(v)) out$other <- replace(v, 1, "(edited)")
  }
  out
}

edited <- function(object, path, value) {
  if (length(path) == 1) object[path] <- list(value)
  else object[[path[1]]][path[2]] <- list(value)
  object
}

fieldPaths <- function(object, nested) {
  paths <- lapply(names(object), function(f) f)
  for (f in nested) paths <- c(paths, lapply(names(object[[f]]), function(g) c(f, g)))
  paths
}

# ---- what each case does with the edited object -----------------------------------------
dataOperations <- list(
  fit = function(d) coef(fitModel(d)),
  folds = function(d) createFolds(d, createControl(fold = 3, seed = 1)),
  predict = function(d) predict(if (d$modelType == "lr") fitLr else if (d$modelType == "cox") fitCox
                                else stop("no fit"), newdata = d)
)
fitOperations <- list(
  coef = function(f) coef(f),
  vcov = function(f) vcov(f),
  wald = function(f) confint(f, method = "wald"),
  profile = function(f) confint(f, parm = 1),
  predict = function(f) predict(f),
  newdata = function(f) predict(f, newdata = f$data),
  residuals = function(f) residuals(f),
  summary = function(f) capture.output(print(summary(f))),
  print = function(f) capture.output(print(f)),
  logLik = function(f) logLik(f),
  bootstrap = function(f) runBootstrap(f, replicates = 2, seed = 1)$estimates,
  profileGrid = function(f) profileLogLikelihood(f, 1, x = c(-0.1, 0.1))$value,
  baseline = function(f) baselineHazard(f)
)
# The engine's entry points, called past the R checks.
engineCalls <- list(
  fit = function(d) .Call(Argus:::argus_fit, d, enginePlainSettings(d))[-7],  # not $seconds
  linearPredictor = function(d) .Call(Argus:::argus_linear_predictor, d, rep(0.1, length(d$columnNames))),
  folds = function(d) .Call(Argus:::argus_plan_folds, d, list(fold = 3L, cvRepetitions = 1L,
                              selectorType = "auto", foldStratification = "none", seed = 1,
                              foldIds = NULL, clusterOfRow = NULL)),
  hessian = function(d) .Call(Argus:::argus_hessian, d, enginePlainSettings(d),
                              rep(0, length(d$columnNames)), 0L, TRUE, FALSE)
)
enginePlainSettings <- function(d) {
  p <- length(d$columnNames)
  list(priorKind = rep(0L, p), variance = rep(1, p), start = NULL, fixed = NULL,
       weights = d$weights, tolerance = 1e-6, optimalityTolerance = 1e-4, maxIterations = 100L,
       convergenceType = "gradient", initialBound = 2, device = "cpu", verbose = FALSE,
       threads = 1L, majorizedStart = "auto")
}

# ---- the cases -------------------------------------------------------------------------
cases <- list()
addCase <- function(name, run, key, reference)
  cases[[length(cases) + 1]] <<- list(name = name, run = run, key = key, reference = reference)
references <- new.env()  # the intact objects' results, by base and operation, computed once
referenceOf <- function(case) {
  if (!exists(case$key, references, inherits = FALSE))
    assign(case$key, tryCatch(quietly(case$reference), error = function(e) e), references)
  get(case$key, references, inherits = FALSE)
}
for (base in c("dataLr", "sccs", "dataCox")) {
  object <- get(base)
  for (path in fieldPaths(object, "design")) {
    for (m in names(mutations(object[[path]]))) {
      for (op in names(dataOperations)) {
        local({
          base <- base; path <- path; m <- m; op <- op
          addCase(sprintf("%s$%s <- %s; %s", base, paste(path, collapse = "$"), m, op),
                  function() dataOperations[[op]](edited(get(base), path, mutations(get(base)[[path]])[[m]])),
                  paste(base, op), function() dataOperations[[op]](get(base)))
        })
      }
      for (call in names(engineCalls)) {
        local({
          base <- base; path <- path; m <- m; call <- call
          addCase(sprintf("%s$%s <- %s; .Call %s", base, paste(path, collapse = "$"), m, call),
                  function() engineCalls[[call]](edited(get(base), path, mutations(get(base)[[path]])[[m]])),
                  paste(base, call, "engine"), function() engineCalls[[call]](get(base)))
        })
      }
    }
  }
}
for (base in c("fitLr", "fitCox")) {
  object <- get(base)
  for (path in fieldPaths(object, c("settings", "control"))) {
    if (identical(path, "data")) next  # the data's own fields are edited above
    for (m in names(mutations(object[[path]]))) {
      for (op in names(fitOperations)) {
        local({
          base <- base; path <- path; m <- m; op <- op
          addCase(sprintf("%s$%s <- %s; %s", base, paste(path, collapse = "$"), m, op),
                  function() fitOperations[[op]](edited(get(base), path, mutations(get(base)[[path]])[[m]])),
                  paste(base, op), function() fitOperations[[op]](get(base)))
        })
      }
    }
  }
}

if (identical(args[1], "names")) {
  writeLines(vapply(cases, `[[`, "", "name"), args[2])
  quit(status = 0)
}

# ---- run ---------------------------------------------------------------------------------
quietly <- function(f) suppressWarnings(suppressMessages(f()))
first <- as.integer(args[1])
log <- args[2]
for (i in seq(first, length.out = max(0, length(cases) - first + 1))) {
  case <- cases[[i]]
  cat(sprintf("start %d\n", i), file = log, append = TRUE)
  result <- tryCatch(list(value = quietly(case$run)), error = function(e) e)
  outcome <- if (inherits(result, "error")) "error" else {
    reference <- referenceOf(case)
    if (identical(result$value, reference) || isTRUE(all.equal(result$value, reference))) "same" else "changed"
  }
  cat(sprintf("end %d %s %s\n", i, outcome, case$name), file = log, append = TRUE)
}
