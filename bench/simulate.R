# Shared simulators and small helpers for the Argus benchmarks (bench/*.R).
#
#   source("bench/simulate.R")
#   sim <- simulateSccs(1e5, 200)     # self-controlled case series, cases only
#   sim <- simulateLogistic(1e5, 1000, 0.05)
#
# Everything here is vectorized: simulateSccs(1e5, 1000) takes about a second.

suppressPackageStartupMessages(library(Matrix))

# ---------------------------------------------------------------------------------------
# Self-controlled case series
# ---------------------------------------------------------------------------------------

# simulateSccs() is the package's own (R/simulate.R): Argus::simulateSccs(nCases, nDrugs, ...).
simulateSccs <- Argus::simulateSccs

# Sparse design (rows x covariates) of long tables, columns in order of `columns`.
longToSparse <- function(outcomes, covariates, columns = sort(unique(covariates$covariateId))) {
  Matrix::sparseMatrix(i = match(covariates$rowId, outcomes$rowId),
                       j = match(covariates$covariateId, columns),
                       x = if (is.null(covariates$covariateValue)) 1 else covariates$covariateValue,
                       dims = c(nrow(outcomes), length(columns)),
                       dimnames = list(NULL, as.character(columns)))
}

# ---------------------------------------------------------------------------------------
# Logistic regression with a sparse binary design
# ---------------------------------------------------------------------------------------

#' Simulate logistic data with a sparse binary X of the given density.
#'
#' Column j gets Binomial(n, density) ones at distinct random rows. True beta: `nNonzero`
#' columns with effects uniform on +-effectRange, intercept `intercept`.
#'
#' @param order Order of the long covariate table: "row" (by rowId then covariateId, the
#'   usual OHDSI order), "column" (by covariateId then rowId) or "random".
#' @return list(outcomes = data.frame(rowId, y), covariates = data.frame(rowId, covariateId,
#'   covariateValue = 1), x = dgCMatrix n x p (colnames = covariateId), y, trueBeta,
#'   intercept)
simulateLogistic <- function(n, p, density, nNonzero = 20, effectRange = c(0.2, 1),
                             intercept = -1, order = c("row", "column", "random"),
                             long = TRUE, seed = NULL) {
  if (!is.null(seed)) set.seed(seed)
  order <- match.arg(order)
  n <- as.integer(n)
  p <- as.integer(p)
  counts <- stats::rbinom(p, n, density)
  i <- unlist(lapply(counts, function(k) sort.int(sample.int(n, k))), use.names = FALSE)
  colPtr <- c(0L, cumsum(counts))
  ids <- seq_len(p)
  x <- new("dgCMatrix", i = i - 1L, p = as.integer(colPtr), x = rep(1, length(i)),
           Dim = c(n, p), Dimnames = list(NULL, as.character(ids)))

  beta <- numeric(p)
  nNonzero <- min(nNonzero, p)
  chosen <- sample.int(p, nNonzero)
  beta[chosen] <- stats::runif(nNonzero, effectRange[1], effectRange[2]) *
    sample(c(-1, 1), nNonzero, replace = TRUE)
  eta <- intercept + as.vector(x %*% beta)
  y <- stats::rbinom(n, 1, stats::plogis(eta))

  out <- list(x = x, y = y, trueBeta = stats::setNames(beta, ids), intercept = intercept)
  if (long) {
    j <- rep.int(ids, counts)
    ord <- switch(order, row = order(i, j, method = "radix"), column = seq_along(i),
                  random = sample.int(length(i)))
    out$outcomes <- data.frame(rowId = seq_len(n), y = y)
    out$covariates <- data.frame(rowId = i[ord], covariateId = j[ord], covariateValue = 1)
  }
  out
}

# ---------------------------------------------------------------------------------------
# Survival (paper 003, section 3.2): sparse indicators, exponential times in whole days
# ---------------------------------------------------------------------------------------

#' Simulate Cox / Fine-Gray data as in the GPU survival paper's synthetic design.
#'
#' X: p indicator columns at the given density. beta ~ N(0, 1) x Bernoulli(0.2). Event times
#' exponential with rate exp(eta) / baseScale, censoring uniform on (0, maxDays); times are
#' rounded up to whole days (at most maxDays distinct times) unless jitter = TRUE, which adds
#' U(0, 1) to make them unique. competing > 0 turns a share of the events into competing
#' events (y = 2) for Fine-Gray.
#' @return list(x = dgCMatrix, y, time, trueBeta)
simulateSurvival <- function(n, p, density, jitter = FALSE, maxDays = 500, baseScale = 300,
                             competing = 0, seed = NULL) {
  if (!is.null(seed)) set.seed(seed)
  n <- as.integer(n)
  p <- as.integer(p)
  counts <- stats::rbinom(p, n, density)
  i <- unlist(lapply(counts, function(k) sort.int(sample.int(n, k))), use.names = FALSE)
  x <- new("dgCMatrix", i = i - 1L, p = as.integer(c(0L, cumsum(counts))),
           x = rep(1, length(i)), Dim = c(n, p),
           Dimnames = list(NULL, as.character(seq_len(p))))
  beta <- stats::rnorm(p) * stats::rbinom(p, 1, 0.2)
  eta <- as.vector(x %*% beta)
  eventTime <- stats::rexp(n, exp(eta) / baseScale)
  censorTime <- stats::runif(n, 0, maxDays)
  y <- as.numeric(eventTime <= censorTime)
  time <- ceiling(pmin(eventTime, censorTime))
  if (jitter) time <- time - stats::runif(n)
  if (competing > 0) y[y == 1 & stats::runif(n) < competing] <- 2
  list(x = x, y = y, time = time, trueBeta = stats::setNames(beta, colnames(x)))
}

# ---------------------------------------------------------------------------------------
# Helpers shared by the benchmark scripts
# ---------------------------------------------------------------------------------------

# Command-line options: "--quick", "--name=value" (numbers may be comma lists: 1e4,1e5).
# `quick` holds the defaults that "--quick" changes; explicit options still win over them.
parseBenchArgs <- function(defaults, quick = list(), args = commandArgs(trailingOnly = TRUE)) {
  opts <- defaults
  if ("--quick" %in% args || "--quick=TRUE" %in% args) opts[names(quick)] <- quick
  for (a in args) {
    if (a %in% c("-h", "--help")) {
      cat("options (defaults):\n")
      for (nm in names(defaults))
        cat(sprintf("  --%s=%s\n", nm, paste(format(defaults[[nm]]), collapse = ",")))
      quit(status = 0)
    }
    m <- regmatches(a, regexec("^--([A-Za-z0-9_.-]+)(=(.*))?$", a))[[1]]
    if (length(m) == 0) stop("cannot parse argument '", a, "'", call. = FALSE)
    name <- m[2]
    value <- if (nzchar(m[3])) m[4] else "TRUE"
    if (!(name %in% names(opts))) stop("unknown option --", name, call. = FALSE)
    old <- opts[[name]]
    opts[[name]] <- if (is.logical(old)) as.logical(value)
                    else if (is.numeric(old)) as.numeric(strsplit(value, ",")[[1]])
                    else strsplit(value, ",")[[1]]
  }
  opts
}

# Median and minimum elapsed seconds of `reps` evaluations of `expr`, and the median CPU
# seconds (user + system) of this process; the last value is kept. CPU time is the steadier
# number on a shared machine (the engine is single-threaded, so cpu ~ elapsed when idle).
timeIt <- function(expr, reps = 1, gc = TRUE) {
  f <- function() NULL
  body(f) <- substitute(expr)
  environment(f) <- parent.frame()
  times <- cpu <- numeric(reps)
  value <- NULL
  for (r in seq_len(reps)) {
    if (gc) invisible(base::gc(FALSE))
    t0 <- proc.time()
    value <- f()
    dt <- proc.time() - t0
    times[r] <- dt[["elapsed"]]
    cpu[r] <- dt[["user.self"]] + dt[["sys.self"]]
  }
  list(value = value, median = stats::median(times), min = min(times), times = times,
       cpu = stats::median(cpu))
}

fmtS <- function(x, digits = 3) ifelse(is.na(x), "NA", formatC(x, format = "f", digits = digits))
fmtN <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)
fmtG <- function(x, digits = 2) ifelse(is.na(x), "NA", trimws(formatC(x, format = "g", digits = digits)))

mdRow <- function(...) cat("| ", paste(c(...), collapse = " | "), " |\n", sep = "")
mdHeader <- function(cols) {
  mdRow(cols)
  mdRow(rep("---", length(cols)))
}

note <- function(...) message(sprintf(...))

# One machine-readable line on stderr for bench/run_all.sh: "METRIC name key=value ...".
metric <- function(.name, ...) {
  kv <- list(...)
  message("METRIC ", .name, " ", paste(sprintf("%s=%s", names(kv), vapply(kv, function(v)
    format(v, scientific = FALSE, trim = TRUE, digits = 6), "")), collapse = " "))
}

# Split a fit's engine time into a fixed per-fit setup cost and a per-cycle cost, from a
# second fit stopped after one cycle: perCycle = (T_full - T_1) / (cycles - 1) and
# setup = T_1 - perCycle (engine seconds, median of `reps`). NA when the fit took 1 cycle.
setupSplit <- function(data, prior, control, fullSeconds, cycles, reps = 1) {
  if (cycles < 2) return(c(setup = NA, perCycle = NA))
  control$maxIterations <- 1L
  one <- stats::median(vapply(seq_len(reps), function(r)
    suppressWarnings(fitModel(data, prior = prior, control = control))$seconds, 0))
  perCycle <- max(fullSeconds - one, 0) / (cycles - 1)
  c(setup = one - perCycle, perCycle = perCycle)
}

# One tiny fit of each kind, so that no timed call pays first-call costs (lazy loading,
# byte compilation, page faults in the shared libraries).
warmUp <- function(glmnet = TRUE) {
  w <- simulateLogistic(200, 10, 0.2, seed = 1)
  fitModel(createData(w$outcomes, w$covariates, modelType = "lr"),
           prior = createPrior("laplace", 1))
  fitModel(createData(x = w$x, y = w$y, modelType = "lr"), prior = createPrior("laplace", 1))
  v <- simulateSccs(200, 10, seed = 1)
  fitModel(createData(v$outcomes, v$covariates, modelType = "sccs"),
           prior = createPrior("laplace", 1))
  if (glmnet && requireNamespace("glmnet", quietly = TRUE)) {
    glmnet::glmnet(w$x, w$y, family = "binomial", lambda = 0.01, standardize = FALSE)
    glmnet::glmnet(w$x, rpois(200, 1), family = "poisson", lambda = 0.01, standardize = FALSE)
  }
  invisible(NULL)
}

# Directory of the running script (for sourcing siblings).
scriptDir <- function() {
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  if (length(f)) dirname(normalizePath(f[1])) else "bench"
}
