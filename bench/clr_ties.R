# Conditional logistic regression with several cases per matched set: time of Argus fits
# with ties = "exact", "efron" and "breslow" against survival::clogit with the same method,
# and how far the two agree. Dense covariates, half continuous and half binary; the cases of
# a set are its `cases` rows of highest simulated risk.
#
#   Rscript bench/clr_ties.R                 # 1,000 sets of 10 rows with 3 cases, and larger
#   Rscript bench/clr_ties.R --quick         # 1,000 x 10 rows, 3 cases only
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({
  library(Argus)
  library(survival)
})

quick <- "--quick" %in% commandArgs(TRUE)
layouts <- list(c(sets = 1000, size = 10, cases = 3))
if (!quick) layouts <- c(layouts, list(c(sets = 10000, size = 10, cases = 3),
                                       c(sets = 1000, size = 20, cases = 5),
                                       c(sets = 200, size = 50, cases = 20)))

simulateSets <- function(sets, size, cases, p = 10, seed = 11) {
  set.seed(seed)
  n <- sets * size
  x <- matrix(rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  x[, seq(p / 2 + 1, p)] <- rbinom(n * p / 2, 1, 0.3)
  set <- rep(seq_len(sets), each = size)
  risk <- drop(x %*% rep(c(0.4, -0.2, 0.1, 0), length.out = p)) + rnorm(n)
  case <- stats::ave(risk, set, FUN = function(r) as.numeric(rank(-r) <= cases))
  list(x = x, set = set, case = case)
}

elapsed <- function(expr) system.time(expr)[["elapsed"]]

cat("| sets | rows/set | cases/set | ties | Argus s (median of 3) | cycles | clogit s | max rel coef diff | loglik diff |\n")
cat("|---|---|---|---|---|---|---|---|---|\n")
for (l in layouts) {
  s <- simulateSets(l[["sets"]], l[["size"]], l[["cases"]])
  for (ties in c("exact", "efron", "breslow")) {
    data <- suppressMessages(createData(x = s$x, y = s$case, stratumId = s$set,
                                        modelType = "clr", ties = ties))
    control <- createControl(tolerance = 1e-10, noiseLevel = "silent")
    times <- numeric(3)
    for (k in 1:3) times[k] <- elapsed(fit <- fitModel(data, control = control))
    refTime <- elapsed(ref <- clogit(s$case ~ s$x + strata(s$set), method = ties,
                                     control = coxph.control(eps = 1e-10)))
    rel <- max(abs(coef(fit) - coef(ref)) / pmax(abs(coef(ref)), 1e-3))
    cat(sprintf("| %s | %d | %d | %s | %.3f | %d | %.3f | %.1e | %.1e |\n",
                format(l[["sets"]], big.mark = ","), l[["size"]], l[["cases"]], ties,
                stats::median(times), fit$iterations, refTime, rel,
                as.numeric(logLik(fit)) - ref$loglik[2]))
  }
}
