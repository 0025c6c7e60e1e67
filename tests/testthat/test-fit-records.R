# What a fit records about how it was made, and names as the user gave it: the device it ran
# on (fit$device, shown by print(), summary() and glance()), and the constant that turns the
# conditional Poisson and SCCS log-likelihoods into the incumbent's.

test_that("the device that ran is recorded and shown", {
  set.seed(2)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(100, 1, plogis(x[, 1]))
  data <- createData(x = x, y = y, modelType = "lr")
  fit <- fitModel(data)
  expect_identical(fit$device, "cpu")
  expect_output(print(fit), "on cpu")
  expect_output(print(summary(fit)), "device: +cpu")
  expect_identical(glance(fit)$device, "cpu")
  # "auto" records the device it chose: the CPU for a design this small
  expect_identical(fitModel(data, control = createControl(device = "auto"))$device, "cpu")
  expect_message(fitModel(data, control = createControl(noiseLevel = "quiet")), "fit on cpu")
})

test_that("a CUDA device that is not there is named as it was asked for", {
  skip_if(hasCuda(), "a GPU is visible")
  data <- createData(x = matrix(rnorm(40), 20, 2), y = rbinom(20, 1, 0.4), modelType = "lr")
  built <- isTRUE(cudaBuildInfo()$built)
  expect_error(fitModel(data, control = createControl(device = "cuda")),
               if (built) "device 'cuda' was requested but no CUDA device is visible"
               else "device 'cuda' was requested but Argus was built without CUDA", fixed = TRUE)
  expect_error(fitModel(data, control = createControl(device = "cuda:2")), "device 'cuda:2' was requested",
               fixed = TRUE)
})

test_that("the incumbent's log-likelihood of sccs and cpr is Argus's plus the documented constant", {
  # The incumbent (Cyclops 3.7.0) on simulateSccs(300, 10, seed = 1), no prior: "sccs" (formula
  # route, time = the era lengths) -471.7994807011, "cpr" (long route) -512.3553662805; its
  # coefficients equal Argus's to 2e-9.
  sim <- Argus::simulateSccs(300, 10, seed = 1)  # (the helpers have a simulateSccs() of their own)
  y <- sim$outcomes$y
  time <- sim$outcomes$time
  expect_gt(sum(lfactorial(y)), 1)  # counts above 1: the two constants differ
  sccs <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"))
  cpr <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "cpr"))
  expect_equal(sccs$logLikelihood + sum(y * log(time)), -471.7994807011, tolerance = 1e-9)
  expect_equal(cpr$logLikelihood + sum(y * log(time) - lfactorial(y)), -512.3553662805, tolerance = 1e-9)
  # and the help says so (it gave the cpr constant for both)
  help <- paste(utils::capture.output(tools::Rd2txt(tools::Rd_db("Argus")[["fitModel.Rd"]],
                                                   options = list(underline_titles = FALSE))),
                collapse = " ")
  help <- gsub("[\u2018\u2019'`\"]", "", gsub("\\s+", " ", help))
  expect_match(help, "sum(y * log(time)) for sccs, sum(y * log(time) - lfactorial(y)) for cpr", fixed = TRUE)
})
