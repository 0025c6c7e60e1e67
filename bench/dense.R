# Dense-column benchmark (issue 10): designs where coordinate descent zig-zags, fitted at the
# default control. Continuous covariates with large means next to an intercept (logistic,
# N = 2e5, 10 / 20 / 30 columns), a Cox model with 20 continuous covariates (N = 1e5), and
# Laplace fits on 25 correlated uncentred columns (mean / sd 20 and 50; ls, lr, pr). Reports
# status, cycles, engine seconds (median of --reps) and the optimality reached.
#
#   Rscript bench/dense.R                 # all cases, 3 reps
#   Rscript bench/dense.R --reps=1
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()),
# so that two builds can be compared in one session.
lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(Argus))

local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(if (length(f)) dirname(f[1]) else "bench", "simulate.R"))
})
opts <- parseBenchArgs(list(quick = FALSE, reps = 3, seed = 7), quick = list(reps = 1))

row <- function(label, fit, seconds) {
  cat(sprintf("| %s | %s | %d | %.3f | %s |\n", label, fit$status, fit$iterations, seconds,
              if (is.null(fit$optimality)) "" else format(signif(fit$optimality, 2))))
}
timed <- function(label, data, prior = createPrior("none")) {
  fits <- lapply(seq_len(opts$reps), function(i) suppressWarnings(fitModel(data, prior)))
  row(label, fits[[1]], stats::median(vapply(fits, function(f) f$seconds, 0)))
}

note("Argus %s from %s", as.character(utils::packageVersion("Argus")), find.package("Argus"))
cat("| case | status | cycles | engine s | optimality |\n| --- | --- | --- | --- | --- |\n")
set.seed(opts$seed)
for (p in c(10, 20, 30)) {
  n <- 2e5
  x <- matrix(stats::rnorm(n * p, 3, 1), n, p, dimnames = list(NULL, paste0("v", seq_len(p))))
  y <- stats::rbinom(n, 1, stats::plogis(-1.3 + drop(x[, 1:3] %*% c(0.2, -0.1, 0.15))))
  timed(sprintf("lr N = 2e5, %d dense columns (mean 3, sd 1)", p),
        createData(x = x, y = y, modelType = "lr"))
}
n <- 1e5
x <- matrix(stats::rnorm(n * 20), n, 20, dimnames = list(NULL, paste0("v", 1:20)))
time <- ceiling(100 * stats::rexp(n, exp(drop(x[, 1:3] %*% c(0.3, -0.2, 0.1)))))
timed("cox N = 1e5, 20 dense columns", createData(x = x, y = stats::rbinom(n, 1, 0.7), time = time,
                                                  modelType = "cox"))
for (shape in list(c(20, 1), c(50, 1))) {
  n <- 500
  p <- 25
  z <- stats::rnorm(n)
  x <- sapply(seq_len(p), function(j) shape[1] + shape[2] * (sqrt(0.5) * z + sqrt(0.5) * stats::rnorm(n)))
  colnames(x) <- paste0("v", seq_len(p))
  eta <- drop((x - shape[1]) %*% c(2, -1, 1, rep(0, p - 3)))
  for (model in c("ls", "lr", "pr")) {
    y <- switch(model, ls = eta + stats::rnorm(n), lr = stats::rbinom(n, 1, stats::plogis(eta / 3)),
                pr = stats::rpois(n, exp(eta / 4)))
    timed(sprintf("%s Laplace (variance 0.1), 25 correlated columns, mean %g sd %g", model,
                  shape[1], shape[2]),
          createData(x = x, y = y, time = if (model == "pr") rep(1, n), modelType = model),
          createPrior("laplace", variance = 0.1))
  }
}
