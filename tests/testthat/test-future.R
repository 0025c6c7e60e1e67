# Cross-validation folds x repetitions and bootstrap replicates spread over future workers
# (plan(multisession), 2 workers) give the threaded run's results for the same seed.

skipWithoutFuture <- function() {
  if (!requireNamespace("future", quietly = TRUE)) skip("the package 'future' is needed")
}

test_that("a future multisession run of cross-validation and of the bootstrap equals the threaded run", {
  skipWithoutFuture()
  # the workers load Argus from the library this session loaded it from
  withr::local_libpaths(dirname(find.package("Argus")), action = "prefix")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  # the shares really run in the two worker processes
  pids <- unlist(Argus:::inFutures(list(1, 2), function(share) Sys.getpid(), list()))
  expect_length(unique(pids), 2)
  expect_false(Sys.getpid() %in% pids)

  sim <- simulateLogistic(n = 300, p = 6, seed = 21)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  for (type in c("auto", "grid")) {
    threaded <- fitModel(data, createPrior("laplace", useCrossValidation = TRUE),
                         createControl(seed = 5, fold = 4, cvRepetitions = 2, cvType = type,
                                       gridSteps = 4, threads = 2))
    spread <- fitModel(data, createPrior("laplace", useCrossValidation = TRUE),
                       createControl(seed = 5, fold = 4, cvRepetitions = 2, cvType = type,
                                     gridSteps = 4, parallel = "future"))
    expect_identical(spread$cv$values, threaded$cv$values)
    expect_identical(spread$cv$curve, threaded$cv$curve)
    expect_identical(coef(spread), coef(threaded))
    expect_identical(dim(spread$cv$values), c(nrow(spread$cv$curve), 8L))
  }
  # conditional model: folds of whole strata
  sccs <- simulateSccs(nPatients = 200, nDrugs = 4, seed = 3)
  sData <- createData(sccs$outcomes, sccs$covariates, modelType = "sccs")
  a <- fitModel(sData, createPrior("normal", useCrossValidation = TRUE),
                createControl(seed = 2, fold = 3, threads = 2))
  b <- fitModel(sData, createPrior("normal", useCrossValidation = TRUE),
                createControl(seed = 2, fold = 3, parallel = "future"))
  expect_identical(b$cv$curve, a$cv$curve)

  fit <- fitModel(data, createPrior("laplace", 0.5))
  one <- runBootstrap(fit, replicates = 25, seed = 9, threads = 2, keepCounts = TRUE)
  two <- runBootstrap(fit, replicates = 25, seed = 9, parallel = "future", keepCounts = TRUE)
  expect_identical(two$estimates, one$estimates)
  expect_identical(two$counts, one$counts)
  expect_identical(two$status, one$status)
  expect_identical(two$summary, one$summary)
  expect_identical(colSums(two$counts), rep(300, 25))
  boot <- runBootstrap(a, replicates = 7, seed = 1, threads = 1)
  expect_identical(runBootstrap(b, replicates = 7, seed = 1)$estimates, boot$estimates)
  expect_error(createControl(parallel = "mpi"), "'parallel' must be one of")
  expect_error(runBootstrap(fit, replicates = 5, parallel = "mpi"), "\"threads\" or \"future\"")
})

test_that("parallel = 'future' under a sequential plan (one worker, future's default) runs", {
  skipWithoutFuture()
  # cut(x, 1) refused a single share: "invalid number of intervals"
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  sim <- simulateLogistic(n = 200, p = 3, seed = 4)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), createPrior("normal", 1))
  spread <- runBootstrap(fit, replicates = 4, seed = 2, parallel = "future")
  expect_identical(spread$estimates, runBootstrap(fit, replicates = 4, seed = 2)$estimates)
})
