# The device runner (the emulated device: the device algorithm on Thrust's OpenMP backend)
# against the CPU, on public data the code was not written for. Runs where the package was
# installed with ARGUS_CUDA=emulate (CI does); skipped with a message elsewhere.

emulatedBuilt <- function() isTRUE(cudaBuildInfo()$emulated)

fitOn <- function(data, prior, device, ...) {
  fitModel(data, prior, control = createControl(device = device, ...))
}

expectSameFit <- function(data, prior, ..., tolerance = 1e-10) {
  cpu <- fitOn(data, prior, "cpu", ...)
  emulated <- fitOn(data, prior, "emulated", ...)
  expect_equal(emulated$status, cpu$status)
  expect_equal(coef(emulated), coef(cpu), tolerance = tolerance)
  expect_equal(emulated$logLikelihood, cpu$logLikelihood, tolerance = tolerance)
  invisible(list(cpu = cpu, emulated = emulated))
}

test_that("device = 'auto' fits on the CPU where no GPU takes the model", {
  data <- createData(x = as.matrix(mtcars[, c("wt", "hp")]), y = mtcars$mpg, modelType = "ls")
  cpu <- fitModel(data, createPrior("none"))
  auto <- fitModel(data, createPrior("none"), control = createControl(device = "auto"))
  expect_identical(coef(auto), coef(cpu))
})

test_that("the device the engine ran a fit on is recorded, shown and taken back: the emulated device", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  # fit$device is the engine's own record (FitResult::device), not the request: where "auto"
  # chose a GPU without the memory for the fit, it says "cpu" (no GPU here: that hand-over is
  # tested at the dispatch point, tests/cpp/device_fallback_test.cpp, with the emulated
  # device given too little memory)
  data <- createData(x = model.matrix(~ wt + hp, mtcars), y = mtcars$am, modelType = "lr")
  fit <- fitOn(data, createPrior("none"), "emulated")
  expect_identical(fit$device, "emulated")
  expect_output(print(fit), "on emulated")
  expect_output(print(summary(fit)), "device: +emulated")
  expect_identical(glance(fit)$device, "emulated")
  # the name is one createControl() takes, and a fit saved and read back keeps it
  again <- fitModel(data, control = createControl(device = fit$device))
  expect_identical(coef(again), coef(fit))
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  expect_identical(back$device, "emulated")
  expect_output(print(summary(back)), "device: +emulated")
  expect_identical(vcov(back), vcov(fit))
})

test_that("listDevices() has one row per device, the emulated one where built", {
  devices <- listDevices()
  expect_s3_class(devices, "data.frame")
  expect_identical(devices$device[1], "cpu")
  expect_identical("emulated" %in% devices$device, emulatedBuilt())
  expect_identical(sum(devices$kind == "cuda"), cudaBuildInfo()$deviceCount)
})

test_that("device = 'emulated' without the emulated build is a clear error", {
  skip_if(emulatedBuilt(), "this build has the emulated device")
  data <- createData(x = as.matrix(mtcars[, "wt", drop = FALSE]), y = mtcars$mpg, modelType = "ls")
  expect_error(fitModel(data, control = createControl(device = "emulated")), "ARGUS_CUDA=emulate")
})

test_that("emulated ls equals the CPU and lm on mtcars with a factor", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  x <- model.matrix(~ wt + hp + factor(cyl) + qsec, mtcars)
  data <- createData(x = x, y = mtcars$mpg, modelType = "ls")
  fits <- expectSameFit(data, createPrior("none"))
  expect_equal(unname(coef(fits$emulated)), unname(coef(lm(mpg ~ wt + hp + factor(cyl) + qsec, mtcars))),
               tolerance = 1e-6)
})

test_that("emulated lr equals the CPU and glm on MASS::birthwt", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  f <- low ~ age + lwt + factor(race) + smoke + ptl + ht + ui + ftv
  data <- createData(x = model.matrix(f, bw), y = bw$low, modelType = "lr")
  fits <- expectSameFit(data, createPrior("none"))
  expect_equal(unname(coef(fits$emulated)), unname(coef(glm(f, binomial, bw))), tolerance = 1e-6)
  # Penalized, with the intercept excluded as by default, and a normal prior.
  expectSameFit(data, createPrior("laplace", variance = 0.05))
  expectSameFit(data, createPrior("normal", variance = 0.5))
})

test_that("emulated Poisson with exposure equals the CPU and glm", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("MASS")
  ins <- MASS::Insurance
  x <- model.matrix(~ District + as.numeric(Group) + as.numeric(Age), ins)
  data <- createData(x = x, y = ins$Claims, time = ins$Holders, modelType = "pr")
  fits <- expectSameFit(data, createPrior("none"))
  ref <- glm(Claims ~ District + as.numeric(Group) + as.numeric(Age) + offset(log(Holders)),
             poisson, ins)
  expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-6)
})

test_that("emulated sparse lr with many indicators equals the CPU (no block step, the follower)", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  set.seed(11)
  n <- 2000; p <- 60
  rows <- sample.int(n, 6000, replace = TRUE); cols <- sample.int(p, 6000, replace = TRUE)
  keep <- !duplicated(cbind(rows, cols))
  covariates <- data.frame(rowId = rows[keep], covariateId = cols[keep], covariateValue = 1)
  beta <- rnorm(p, sd = 0.5)
  eta <- -1 + tapply(beta[covariates$covariateId], factor(covariates$rowId, levels = 1:n), sum)
  eta[is.na(eta)] <- -1
  outcomes <- data.frame(rowId = 1:n, y = rbinom(n, 1, plogis(eta)))
  data <- createData(outcomes, covariates, modelType = "lr")
  expectSameFit(data, createPrior("laplace", variance = 0.1))
  expectSameFit(data, createPrior("none"), tolerance = 1e-8)
})

test_that("emulated cross-validation chooses the CPU's variance", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  f <- low ~ age + lwt + factor(race) + smoke + ptl + ht + ui + ftv
  data <- createData(x = model.matrix(f, bw), y = bw$low, modelType = "lr")
  prior <- createPrior("laplace", useCrossValidation = TRUE)
  cpu <- fitOn(data, prior, "cpu", seed = 3, fold = 5)
  emulated <- fitOn(data, prior, "emulated", seed = 3, fold = 5)
  # The search ends among weak penalties, where the held-out curve is flat (lwt's scale sends
  # it there, cross_validation.h): the refinement's parabola vertex moves by 1e-7 of itself
  # with fold fits that agree to 1e-10. The scores and coefficients must agree tightly.
  expect_equal(emulated$cv$variance, cpu$cv$variance, tolerance = 1e-6)
  expect_equal(emulated$cv$score, cpu$cv$score, tolerance = 1e-9)
  expect_equal(coef(emulated), coef(cpu), tolerance = 1e-8)
})

test_that("emulated cross-validation of Cox and clr fits chooses the CPU's variance", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("survival")
  lung <- survival::lung
  lung <- lung[stats::complete.cases(lung[, c("ph.ecog", "ph.karno", "wt.loss", "meal.cal")]), ]
  cox <- createData(formula = survival::Surv(time, status) ~ age + sex + ph.ecog + ph.karno + wt.loss +
                      meal.cal, data = lung, modelType = "cox")
  inf <- datasets::infert
  inf$set <- interaction(inf$education, inf$parity, drop = TRUE)
  clr <- createData(case ~ spontaneous + induced + age + strata(set), data = inf, modelType = "clr")
  prior <- createPrior("laplace", useCrossValidation = TRUE)
  for (data in list(cox, clr)) {
    cpu <- fitOn(data, prior, "cpu", seed = 7, fold = 4, threads = 2)
    emulated <- fitOn(data, prior, "emulated", seed = 7, fold = 4, threads = 2)
    expect_equal(emulated$cv$variance, cpu$cv$variance, tolerance = 1e-8)
    expect_equal(coef(emulated), coef(cpu), tolerance = 1e-7)
  }
})

test_that("emulated sccs and cpr equal the CPU on a simulated case series", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  sim <- Argus::simulateSccs(nCases = 400, nDrugs = 40, seed = 5)
  for (model in c("sccs", "cpr")) {
    data <- createData(sim$outcomes, sim$covariates, modelType = model)
    expectSameFit(data, createPrior("laplace", variance = 0.5))
    expectSameFit(data, createPrior("normal", variance = 1))
  }
})

test_that("emulated clr with Breslow ties equals the CPU and clogit on infert", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("survival")
  data <- createData(case ~ spontaneous + induced + strata(stratum),
                     data = datasets::infert, modelType = "clr", ties = "breslow")
  fits <- expectSameFit(data, createPrior("none"))
  env <- new.env(parent = asNamespace("survival"))
  ref <- evalq(clogit(case ~ spontaneous + induced + strata(stratum),
                      data = datasets::infert, method = "breslow"), env)
  expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-5)
})

test_that("emulated Cox (Breslow, Efron, strata, weights) equals the CPU and coxph on lung", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("survival")
  lung <- survival::lung
  lung <- lung[stats::complete.cases(lung[, c("inst", "ph.ecog", "wt.loss")]), ]
  for (ties in c("breslow", "efron")) {
    data <- createData(formula = survival::Surv(time, status) ~ age + sex + ph.ecog + strata(inst > 10),
                       data = lung, modelType = "cox", ties = ties)
    fits <- expectSameFit(data, createPrior("none"), tolerance = 1e-8)
    env <- new.env(parent = asNamespace("survival"))
    env$lung <- lung
    env$ties <- ties
    ref <- evalq(coxph(Surv(time, status) ~ age + sex + ph.ecog + strata(inst > 10), data = lung,
                       ties = ties), env)
    expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-6)
  }
  weighted <- createData(formula = survival::Surv(time, status) ~ age + sex + ph.ecog, data = lung,
                         modelType = "cox", weights = abs(lung$wt.loss) / 10 + 1)
  expectSameFit(weighted, createPrior("laplace", variance = 0.1), tolerance = 1e-8)
})

test_that("emulated Fine-Gray equals the CPU", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  set.seed(4)
  n <- 400
  x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.4))
  time <- round(rexp(n, exp(0.5 * x[, 1])) * 100) + 1
  status <- sample(0:2, n, replace = TRUE, prob = c(0.3, 0.5, 0.2))
  data <- createData(x = x, y = status, time = time, modelType = "fgr")
  # The exact cycles alone agree to rounding. By default Fine-Gray takes the majorized start
  # (majorizedStart = "auto"), which the device runs as its own all-coordinates steps: both
  # fits are then certified, and agree to the certificate's precision.
  expectSameFit(data, createPrior("none"), majorizedStart = "never", tolerance = 1e-8)
  expectSameFit(data, createPrior("normal", variance = 0.5), majorizedStart = "never", tolerance = 1e-8)
  expectSameFit(data, createPrior("normal", variance = 0.5), tolerance = 1e-6)
})

test_that("emulated clr with exact and Efron ties equals the CPU and clogit", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("survival")
  # infert's matched sets have one case each, where every tie method is Breslow's; sets by
  # education and parity (a dozen sets of 2 to 60 rows, 1 to 20 cases) make the exact
  # recursion and Efron's terms do the work.
  inf <- datasets::infert
  inf$set <- interaction(inf$education, inf$parity, drop = TRUE)
  for (ties in c("exact", "efron")) {
    data <- suppressMessages(createData(case ~ spontaneous + induced + age + strata(set), data = inf,
                                        modelType = "clr", ties = ties))  # Efron: a note on the sets
    fits <- expectSameFit(data, createPrior("none"))
    env <- new.env(parent = asNamespace("survival"))
    env$inf <- inf
    env$ties <- ties
    ref <- evalq(clogit(case ~ spontaneous + induced + age + strata(set), data = inf, method = ties), env)
    expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-6)
    # Penalized: at the default tolerance either side may stop a cycle short of the optimum
    # (1e-9 apart, with Breslow ties as well); at 1e-10 both reach it.
    laplace <- createPrior("laplace", variance = 0.2)
    cpu <- fitOn(data, laplace, "cpu", tolerance = 1e-10)
    emulated <- fitOn(data, laplace, "emulated", tolerance = 1e-10)
    expect_equal(coef(emulated), coef(cpu), tolerance = 1e-10)
    expect_equal(emulated$logLikelihood, cpu$logLikelihood, tolerance = 1e-10)
  }
})

test_that("emulated Cox on (start, stop] data equals the CPU and coxph on bladder2", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("survival")
  b2 <- survival::bladder2
  for (ties in c("breslow", "efron")) {
    data <- createData(formula = survival::Surv(start, stop, event) ~ rx + number + size + strata(enum > 2),
                       data = b2, modelType = "cox", ties = ties)
    fits <- expectSameFit(data, createPrior("none"), tolerance = 1e-8)
    env <- new.env(parent = asNamespace("survival"))
    env$b2 <- b2
    env$ties <- ties
    ref <- evalq(coxph(Surv(start, stop, event) ~ rx + number + size + strata(enum > 2), data = b2,
                       ties = ties), env)
    expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-6)
  }
  # The Stanford heart transplant data (a time-varying transplant indicator), with weights.
  heart <- survival::heart
  heart$w <- seq(0.5, 2, length.out = nrow(heart))
  for (ties in c("efron", "breslow")) {
    data <- createData(formula = survival::Surv(start, stop, event) ~ age + year + surgery + transplant,
                       data = heart, modelType = "cox", ties = ties, weights = heart$w)
    fits <- expectSameFit(data, createPrior("none"), tolerance = 1e-8)
    env <- new.env(parent = asNamespace("survival"))
    env$heart <- heart
    env$ties <- ties
    ref <- evalq(coxph(Surv(start, stop, event) ~ age + year + surgery + transplant, data = heart,
                       ties = ties, weights = w), env)
    expect_equal(unname(coef(fits$emulated)), unname(coef(ref)), tolerance = 1e-6)
    expect_equal(fits$emulated$logLikelihood, as.numeric(ref$loglik[2]), tolerance = 1e-8)
  }
})

test_that("emulated all-coordinates start reaches the CPU's certified optimum on every covered model", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("MASS")
  skip_if_not_installed("survival")
  # majorizedStart = "always" on the device: steps that move every coefficient at once, then
  # the certificate (and exact cycles where it fails). Against the CPU's exact cycles: both
  # certified within 1e-4 conditional standard errors of the optimum.
  bw <- MASS::birthwt
  f <- low ~ age + lwt + factor(race) + smoke + ptl + ht + ui + ftv
  lr <- createData(x = model.matrix(f, bw), y = bw$low, modelType = "lr")
  ins <- MASS::Insurance
  pr <- createData(x = model.matrix(~ District + as.numeric(Group) + as.numeric(Age), ins), y = ins$Claims,
                   time = ins$Holders, modelType = "pr")
  lung <- survival::lung
  lung <- lung[stats::complete.cases(lung[, c("inst", "ph.ecog", "wt.loss")]), ]
  cox <- createData(formula = survival::Surv(time, status) ~ age + sex + ph.ecog + wt.loss + strata(inst > 10),
                    data = lung, modelType = "cox", ties = "efron")
  clr <- createData(case ~ spontaneous + induced + strata(stratum), data = datasets::infert, modelType = "clr",
                    ties = "breslow")
  sim <- Argus::simulateSccs(nCases = 400, nDrugs = 40, seed = 5)
  sccs <- createData(sim$outcomes, sim$covariates, modelType = "sccs")
  set.seed(4)
  n <- 400
  x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.4))
  fgr <- createData(x = x, y = sample(0:2, n, replace = TRUE, prob = c(0.3, 0.5, 0.2)),
                    time = round(rexp(n, exp(0.5 * x[, 1])) * 100) + 1, modelType = "fgr")
  cases <- list(list(lr, createPrior("none")), list(lr, createPrior("laplace", variance = 0.05)),
                list(pr, createPrior("normal", variance = 0.5)), list(cox, createPrior("none")),
                list(clr, createPrior("none")), list(sccs, createPrior("laplace", variance = 0.5)),
                list(fgr, createPrior("normal", variance = 0.5)))
  for (case in cases) {
    cpu <- fitOn(case[[1]], case[[2]], "cpu", majorizedStart = "never")
    emulated <- fitOn(case[[1]], case[[2]], "emulated", majorizedStart = "always")
    expect_identical(emulated$status, "SUCCESS")
    expect_gt(emulated$majorizedSteps, 0)
    expect_equal(coef(emulated), coef(cpu), tolerance = 1e-5)
    # The log posterior, not the log-likelihood: under a prior the latter moves at first order
    # along the optimum's tolerance (Insurance pr, normal prior: 1.3e-6 of 185).
    expect_equal(emulated$logLikelihood + emulated$logPrior, cpu$logLikelihood + cpu$logPrior, tolerance = 1e-9)
  }
})

test_that("emulated cross-validation with the all-coordinates start fits its folds in batches, choosing the CPU's variance", {
  skip_if_not(emulatedBuilt(), "Argus was installed without ARGUS_CUDA=emulate")
  skip_if_not_installed("MASS")
  skip_if_not_installed("survival")
  bw <- MASS::birthwt
  lr <- createData(x = model.matrix(low ~ age + lwt + factor(race) + smoke + ptl + ht + ui + ftv, bw), y = bw$low,
                   modelType = "lr")
  lung <- survival::lung
  lung <- lung[stats::complete.cases(lung[, c("ph.ecog", "ph.karno", "wt.loss", "meal.cal")]), ]
  cox <- createData(formula = survival::Surv(time, status) ~ age + sex + ph.ecog + ph.karno + wt.loss + meal.cal,
                    data = lung, modelType = "cox")
  prior <- createPrior("laplace", useCrossValidation = TRUE)
  for (data in list(lr, cox)) {
    cpu <- fitOn(data, prior, "cpu", seed = 3, fold = 5)
    batched <- fitOn(data, prior, "emulated", seed = 3, fold = 5, majorizedStart = "always")
    # Each fold fit is certified within 1e-4 standard errors of its optimum, so the fold scores
    # agree to about 1e-7; lung's curve is flat at its maximum (a weak penalty), where the
    # refinement's parabola vertex moves by 1e-4 of itself with them.
    expect_equal(batched$cv$variance, cpu$cv$variance, tolerance = 1e-3)
    expect_equal(batched$cv$score, cpu$cv$score, tolerance = 1e-6)
    expect_equal(coef(batched), coef(cpu), tolerance = 1e-4)
    # Every candidate's five fold fits ran as one batch on the device, none on the CPU.
    expect_identical(batched$cv$curve$batchedFits, rep(5L, nrow(batched$cv$curve)))
    expect_identical(cpu$cv$curve$batchedFits, rep(0L, nrow(cpu$cv$curve)))
  }
})
