# vcov() and confint() against glm, lm and survival::clogit; profileLogLikelihood().

test_that("lr and pr vcov equal vcov(glm), with and without weights", {
  sim <- simulateLogistic(n = 400, p = 4, seed = 11)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  ref <- glmRef(sim$x, sim$y, stats::binomial())
  V <- vcov(fit)
  expect_equal(dimnames(V), list(names(coef(fit)), names(coef(fit))))
  expect_lt(maxRelDiff(V, vcov(ref)), 1e-5)
  expect_true(isSymmetric(V))

  set.seed(12)
  w <- runif(400, 0.2, 3)
  fitW <- fitModel(createData(x = sim$x, y = sim$y, weights = w, modelType = "lr"),
                   control = tightControl())
  refW <- suppressWarnings(glmRef(sim$x, sim$y, stats::binomial(), weights = w))
  expect_lt(maxRelDiff(vcov(fitW), vcov(refW)), 1e-5)
  # the weights matter: the unweighted matrix is far from the weighted reference
  expect_gt(maxRelDiff(V, vcov(refW)), 1e-2)

  ps <- simulatePoisson(n = 400, p = 4, seed = 13)
  fitP <- fitModel(createData(x = ps$x, y = ps$y, time = ps$time, modelType = "pr"),
                   control = tightControl())
  refP <- glmRef(ps$x, ps$y, stats::poisson(), offset = log(ps$time))
  expect_lt(maxRelDiff(vcov(fitP), vcov(refP)), 1e-5)
})

test_that("clr vcov equals vcov(clogit) on infert", {
  skip_if_not_installed("survival")
  env <- new.env(parent = asNamespace("survival"))
  ref <- evalq(clogit(case ~ spontaneous + induced + strata(stratum), data = datasets::infert,
                      method = "breslow", control = coxph.control(eps = 1e-10, iter.max = 100)),
               env)
  fit <- fitModel(createData(case ~ spontaneous + induced + strata(stratum),
                             data = datasets::infert, modelType = "clr"),
                  control = tightControl())
  expect_lt(maxRelDiff(vcov(fit), vcov(ref)), 1e-5)
})

test_that("sccs and cpr vcov equal the slope block of a fixed-effects Poisson glm", {
  # Conditioning on the per-patient totals and profiling out one intercept per patient give
  # the same information for the slopes.
  sim <- simulateSccs(nPatients = 200, nDrugs = 4, seed = 14)
  keep <- ave(sim$y, sim$stratumId, FUN = sum) > 0
  frame <- data.frame(y = sim$y[keep], o = log(sim$time[keep]),
                      stratum = factor(sim$stratumId[keep]))
  frame$x <- sim$x[keep, ]
  ref <- stats::glm(y ~ x + stratum - 1, offset = o, data = frame, family = stats::poisson(),
                    control = stats::glm.control(epsilon = 1e-14, maxit = 100))
  slopes <- paste0("x", colnames(sim$x))
  for (model in c("sccs", "cpr")) {
    fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, stratumId = sim$stratumId,
                               modelType = model), control = tightControl())
    expect_lt(maxRelDiff(vcov(fit), vcov(ref)[slopes, slopes]), 1e-5)
  }
})

test_that("ls vcov is vcov(lm), as summary()'s standard errors (it was solve(crossprod(X)))", {
  sim <- simulateGaussian(n = 200, p = 4, seed = 15)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"), control = tightControl())
  ref <- stats::lm(sim$y ~ sim$x)
  expect_lt(maxRelDiff(vcov(fit), vcov(ref)), 1e-6)
  expect_equal(sqrt(unname(diag(vcov(fit)))), summary(fit)$coefficients$std.error, tolerance = 1e-10)
  # mtcars through a formula, weighted: vcov(lm) too
  w <- seq(0.5, 2, length.out = nrow(mtcars))
  fitW <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls", weights = w))
  expect_equal(unname(vcov(fitW)), unname(vcov(lm(mpg ~ wt + hp, mtcars, weights = w))), tolerance = 1e-6)
})

# The residual variance summary() and vcov() scale a least-squares fit by: sum(e^2) / (n - p).
sigma2Of <- function(fit, y, n) sum((y - fitted(fit))^2) / (n - length(coef(fit)))

test_that("a normal prior gives the posterior covariance; a Laplace prior warns", {
  sim <- simulateGaussian(n = 150, p = 4, seed = 16)
  prior <- createPrior("normal", variance = 0.05)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"), prior = prior,
                  control = tightControl())
  X <- cbind(1, sim$x)
  penalty <- diag(c(0, rep(1 / 0.05, 4)))  # the intercept is not penalized
  expect_lt(maxRelDiff(vcov(fit), solve(crossprod(X) + penalty) * sigma2Of(fit, sim$y, 150)), 1e-6)
  expect_gt(maxRelDiff(vcov(fit), solve(crossprod(X)) * sigma2Of(fit, sim$y, 150)), 1e-2)

  lasso <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"),
                    prior = createPrior("laplace", variance = 0.002), control = tightControl())
  zero <- names(coef(lasso))[coef(lasso) == 0]
  expect_gt(length(zero), 0)
  expect_warning(V <- vcov(lasso), "Laplace")
  kept <- setdiff(names(coef(lasso)), zero)
  expect_equal(rownames(V), kept)
  Xk <- X[, match(kept, names(coef(lasso))), drop = FALSE]
  expect_lt(maxRelDiff(V, solve(crossprod(Xk)) * sigma2Of(lasso, sim$y, 150)), 1e-6)
})

test_that("vcov leaves fixed coefficients out and warns on a singular Hessian", {
  sim <- simulateLogistic(n = 300, p = 3, seed = 17)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  fit <- fitModel(data, fixedCoefficients = "b", startingCoefficients = c(0, 0, 0.3, 0),
                  control = tightControl())
  expect_equal(rownames(vcov(fit)), c("(Intercept)", "a", "c"))
  # infert is matched on age: age says nothing within a matched set (clogit: NA)
  skip_if_not_installed("survival")
  inf <- datasets::infert
  x <- as.matrix(inf[, c("spontaneous", "age")])
  clr <- suppressWarnings(fitModel(createData(x = x, y = inf$case, stratumId = inf$stratum,
                                              modelType = "clr"), control = tightControl()))
  expect_silent(V <- vcov(clr))  # age was flagged (aliased) by the fit itself
  expect_true(all(is.na(V["age", ])) && all(is.na(V[, "age"])))
  env <- new.env(parent = asNamespace("survival"))
  ref <- evalq(clogit(case ~ spontaneous + strata(stratum), data = datasets::infert,
                      control = coxph.control(eps = 1e-10)), env)
  expect_equal(V["spontaneous", "spontaneous"], vcov(ref)[1, 1], tolerance = 1e-5)
  # collinear covariates: no usable covariance at all
  sim2 <- simulateLogistic(n = 200, p = 2, seed = 26)
  x2 <- cbind(sim2$x, ab = sim2$x[, "a"] + 2 * sim2$x[, "b"])
  # collinear covariates: the later one is aliased, as in lm: NA row and column, the rest as
  # if it were absent
  expect_warning(collinear <- fitModel(createData(x = x2, y = sim2$y, modelType = "lr"),
                                       control = createControl(maxIterations = 2000)),
                 "'ab' cannot be estimated")
  Vc <- vcov(collinear)
  expect_true(all(is.na(Vc["ab", ])) && all(is.na(Vc[, "ab"])))
  without <- fitModel(createData(x = sim2$x, y = sim2$y, modelType = "lr"), control = tightControl())
  expect_equal(Vc[c("(Intercept)", "a", "b"), c("(Intercept)", "a", "b")], vcov(without),
               tolerance = 1e-6)
})

test_that("vcov holds with a covariate on a scale 1e5 apart from the others (glm, coxph)", {
  # The information's diagonal then spans ~1e16: inverted as is, solve() refused it and vcov
  # was all NA ("singular"), though the correlation-scale check passed.
  bw <- MASS::birthwt
  bw$lwt_s <- bw$lwt * 1e5
  fit <- fitModel(createData(low ~ lwt_s + smoke + ht + ui, data = bw, modelType = "lr"),
                  control = tightControl())
  ref <- stats::glm(low ~ lwt_s + smoke + ht + ui, data = bw, family = stats::binomial(),
                    control = stats::glm.control(epsilon = 1e-12))
  expect_equal(unname(vcov(fit)), unname(vcov(ref)), tolerance = 1e-5)
  lung <- na.omit(survival::lung[, c("time", "status", "age", "meal.cal")])
  lung$meal.big <- lung$meal.cal * 1e4
  lung$age.small <- lung$age * 1e-4
  f <- survival::Surv(time, status) ~ age.small + meal.big
  cox <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"), control = tightControl())
  refCox <- survival::coxph(f, data = lung, ties = "breslow")
  expect_equal(unname(sqrt(diag(vcov(cox)))), unname(sqrt(diag(vcov(refCox)))), tolerance = 1e-5)
})

test_that("Wald intervals equal confint.default(glm)", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 18)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  ref <- glmRef(sim$x, sim$y, stats::binomial())
  ci <- confint(fit, method = "wald")
  expect_equal(colnames(ci), c("2.5 %", "97.5 %"))
  expect_lt(maxRelDiff(ci, stats::confint.default(ref)), 1e-5)
  ci90 <- confint(fit, c("a", "c"), level = 0.9, method = "wald")
  expect_equal(colnames(ci90), c("5 %", "95 %"))
  expect_lt(maxRelDiff(ci90, stats::confint.default(ref, level = 0.9)[c("xa", "xc"), ]), 1e-5)
})

test_that("lr and pr profile intervals equal the glm profile (and MASS where installed)", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 19)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  X <- cbind(1, sim$x)
  ci <- confint(fit)
  expect_equal(colnames(ci), c("2.5 %", "97.5 %"))
  for (j in 1:5) {
    expect_equal(unname(ci[j, ]), glmProfileInterval(X, sim$y, stats::binomial(), j),
                 tolerance = 1e-5)
  }
  # profile and Wald differ for logistic regression: the test can tell them apart
  expect_gt(max(abs(ci - confint(fit, method = "wald"))), 1e-3)

  ps <- simulatePoisson(n = 300, p = 3, seed = 20)
  w <- rep(c(1, 2, 0.5), 100)
  fitP <- fitModel(createData(x = ps$x, y = ps$y, time = ps$time, weights = w, modelType = "pr"),
                   control = tightControl())
  # weights 0.5 are not frequencies: the profile interval says robust/bootstrap is the honest one
  expect_warning(ciP <- confint(fitP, c("a", "(Intercept)"), level = 0.9), "robust")
  XP <- cbind(1, ps$x)
  expect_equal(unname(ciP["a", ]), glmProfileInterval(XP, ps$y, stats::poisson(), 2, level = 0.9,
                                                      weights = w, offset = log(ps$time)),
               tolerance = 1e-5)
  expect_equal(unname(ciP["(Intercept)", ]),
               glmProfileInterval(XP, ps$y, stats::poisson(), 1, level = 0.9, weights = w,
                                  offset = log(ps$time)), tolerance = 1e-5)
})

test_that("lr and pr profile intervals equal MASS's confint.glm to 1e-3", {
  # MASS interpolates a spline through a profile grid: close, but coarser than the above.
  sim <- simulateLogistic(n = 300, p = 4, seed = 19)
  ref <- glmRef(sim$x, sim$y, stats::binomial())
  mass <- massProfileIntervals(ref)
  skip_if(is.null(mass), "MASS is not installed")
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  expect_lt(maxRelDiff(confint(fit), mass), 1e-3)

  ps <- simulatePoisson(n = 300, p = 3, seed = 20)
  refP <- glmRef(ps$x, ps$y, stats::poisson(), offset = log(ps$time))
  fitP <- fitModel(createData(x = ps$x, y = ps$y, time = ps$time, modelType = "pr"),
                   control = tightControl())
  expect_lt(maxRelDiff(confint(fitP, level = 0.9), massProfileIntervals(refP, 0.9)),
            1e-3)
})

test_that("sccs profile intervals equal the fixed-effects Poisson profile", {
  sim <- simulateSccs(nPatients = 120, nDrugs = 3, seed = 21)
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, stratumId = sim$stratumId,
                             modelType = "sccs"), control = tightControl())
  keep <- ave(sim$y, sim$stratumId, FUN = sum) > 0
  strata <- stats::model.matrix(~ factor(sim$stratumId[keep]) - 1)
  X <- cbind(sim$x[keep, ], strata)
  ci <- confint(fit, "drug2")
  expect_equal(unname(ci[1, ]), glmProfileInterval(X, sim$y[keep], stats::poisson(), 2,
                                                  offset = log(sim$time[keep])),
               tolerance = 1e-5)
})

test_that("a separated coefficient's profile is infinite on its side, quickly", {
  sep <- simulateSeparated()
  fit <- suppressWarnings(fitModel(createData(x = sep$x, y = sep$y, modelType = "lr")))
  expect_equal(fit$infinite, "sep")
  expect_gt(coef(fit)[["sep"]], 5)
  elapsed <- system.time(expect_no_warning(ci <- confint(fit, "sep")))[["elapsed"]]
  expect_lt(elapsed, 10)
  expect_identical(ci[1, 2], Inf)
  expect_true(is.finite(ci[1, 1]))
  expect_lt(ci[1, 1], coef(fit)[["sep"]])
  # the other coefficient is unaffected
  expect_true(all(is.finite(suppressWarnings(confint(fit, "z")))))
})

test_that("beside a coefficient running off to infinity, profiles are the limiting likelihood's (coxph offsets)", {
  skip_if_not_installed("survival")
  l <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex")])
  l$sep <- as.numeric(l$time < 200 & l$status == 2)  # every early death: monotone likelihood
  fit <- suppressWarnings(fitModel(createData(survival::Surv(time, status) ~ age + sex + sep, data = l,
                                              modelType = "cox", ties = "efron")))
  expect_equal(fit$status, "NO_FINITE_MLE")
  expect_equal(fit$infinite, "sep")
  # the reference: sep held at 40 (its limit to 1e-17) by an offset, the others refitted
  limiting <- function(age = NULL, sep = 40) {
    bAge <- age  # (a formula reads the data's columns first)
    bSep <- sep
    f <- if (is.null(age)) survival::Surv(time, status) ~ offset(bSep * l$sep) + age + sex
         else survival::Surv(time, status) ~ offset(bAge * l$age + bSep * l$sep) + sex
    survival::coxph(f, l, ties = "efron")$loglik[2]
  }
  top <- limiting()
  root <- function(f, range) stats::uniroot(function(b) f(b) - top + stats::qchisq(0.95, 1) / 2,
                                            range, tol = 1e-10)$root
  ageLimits <- c(root(function(b) limiting(age = b), c(-0.05, 0.0257)),
                 root(function(b) limiting(age = b), c(0.0257, 0.08)))
  expect_no_warning(ci <- confint(fit, method = "profile"))  # (cox's default is Wald, as coxph)
  # refitting sep with them gave (-0.0004, 0.0383) without sex: its drift set each value
  expect_equal(unname(ci["age", ]), ageLimits, tolerance = 1e-5)
  expect_equal(ci["sep", 1], root(function(b) limiting(sep = b), c(1, 20)), tolerance = 1e-5)
  expect_identical(ci["sep", 2], Inf)
  values <- profileLogLikelihood(fit, "age", x = c(0, 0.04))$value
  expect_equal(values, c(limiting(age = 0), limiting(age = 0.04)), tolerance = 1e-8)
})

test_that("parm accepts names, positions and covariate ids; fixed ones get NA", {
  sim <- simulateLogistic(n = 300, p = 3, seed = 22)
  long <- toLong(sim$x, sim$y, covariateIds = c(1001, 1002, 1003))
  fitLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"),
                      control = tightControl())
  byId <- confint(fitLong, c(1003, 1001), method = "wald")
  expect_equal(rownames(byId), c("1003", "1001"))
  expect_equal(byId, confint(fitLong, c("1003", "1001"), method = "wald"))  # one shape: R's
  expect_error(confint(fitLong, 2, method = "wald"), "not in the data")

  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  expect_equal(confint(fit, 2:3, method = "wald"), confint(fit, c("a", "b"), method = "wald"))
  expect_error(confint(fit, "zz"), "unknown coefficient")
  expect_error(confint(fit, 9), "positions between 1 and 4")
  fixed <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), fixedCoefficients = "b",
                    control = tightControl())
  expect_warning(ci <- confint(fixed, c("a", "b")), "fixed coefficient")
  expect_true(all(is.na(ci["b", ])))
  expect_true(all(is.finite(ci["a", ])))
  expect_equal(rownames(confint(fixed, method = "wald")), c("(Intercept)", "a", "c"))
})

test_that("profile results do not depend on the number of threads", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 23)
  data <- createData(x = sim$x, y = sim$y, modelType = "lr")
  one <- fitModel(data, control = tightControl(threads = 1))
  two <- fitModel(data, control = tightControl(threads = 2))
  expect_identical(confint(one), confint(two))
  expect_identical(profileLogLikelihood(one, "a", x = c(0.2, 0.5, 0.8)),
                   profileLogLikelihood(two, "a", x = c(0.2, 0.5, 0.8)))
})

test_that("profileLogLikelihood on a grid and on an adaptive grid", {
  sim <- simulateLogistic(n = 300, p = 3, seed = 24)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  X <- cbind(1, sim$x)
  at <- c(0.9, 0.2, 0.5)
  prof <- profileLogLikelihood(fit, "a", x = at)
  expect_named(prof, c("covariate", "point", "value"))
  expect_equal(prof$point, sort(at))
  reference <- vapply(sort(at), function(b) {
    -stats::glm.fit(X[, -2], sim$y, offset = X[, 2] * b, family = stats::binomial(),
                    control = stats::glm.control(epsilon = 1e-14))$deviance / 2
  }, numeric(1))
  expect_equal(prof$value, reference, tolerance = 1e-8)
  # the maximum is the fit's log-likelihood
  top <- profileLogLikelihood(fit, "a", x = coef(fit)[["a"]])
  expect_equal(top$value, as.numeric(logLik(fit)), tolerance = 1e-10)

  grid <- profileLogLikelihood(fit, c("a", "b"), bounds = c(-1, 2), tolerance = 0.01)
  expect_equal(unique(grid$covariate), c("a", "b"))
  a <- grid[grid$covariate == "a", ]
  expect_false(is.unsorted(a$point))
  expect_equal(range(a$point), c(-1, 2))
  expect_gt(nrow(a), 10)
  # the piecewise-linear curve through the grid is accurate to about the tolerance
  probe <- c(-0.83, 0.11, 0.77, 1.49)
  exact <- profileLogLikelihood(fit, "a", x = probe)$value
  expect_lt(max(abs(stats::approx(a$point, a$value, probe)$y - exact)), 0.01)
  # default bounds: four standard errors either side
  auto <- profileLogLikelihood(fit, "b")
  se <- sqrt(vcov(fit)["b", "b"])
  expect_equal(range(auto$point), coef(fit)[["b"]] + c(-4, 4) * se)
  expect_error(profileLogLikelihood(fit, "a", bounds = c(2, 1)), "increasing")
  expect_warning(profileLogLikelihood(fit, "a", bounds = c(-5, 5), tolerance = 1e-6,
                                      maxPoints = 20), "maxPoints")
})

test_that("inference on a fit without its data says to refit", {
  sim <- simulateLogistic(n = 100, p = 2, seed = 25)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  fit$data <- NULL
  expect_error(vcov(fit), "refit it")
  expect_error(confint(fit), "refit it")
  expect_error(predict(fit), "refit it")
  expect_error(profileLogLikelihood(fit, "a"), "refit it")
})

test_that("ls intervals use the residual variance and t quantiles: confint.lm's", {
  for (f in list(mpg ~ wt + hp, I(mpg * 100) ~ wt + factor(cyl))) {
    fit <- fitModel(createData(f, data = mtcars, modelType = "ls"))
    ref <- stats::confint(stats::lm(f, data = mtcars), level = 0.9)
    expect_equal(unname(confint(fit, level = 0.9, method = "profile")), unname(ref), tolerance = 1e-7,
                 label = deparse(f), ignore_attr = TRUE)
    expect_equal(unname(confint(fit, level = 0.9)), unname(ref), tolerance = 1e-7,
                 label = deparse(f), ignore_attr = TRUE)  # Wald (t), ls's default
  }
  # precision weights, one of them 0 (left out of the degrees of freedom, as lm)
  w <- c(0, seq(0.5, 2, length.out = nrow(mtcars) - 1))
  fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls", weights = w))
  ref <- stats::confint(stats::lm(mpg ~ wt + hp, data = mtcars, weights = w))
  expect_warning(ci <- confint(fit, method = "profile"), "precision weights \\(as lm\\)")
  expect_equal(unname(ci), unname(ref), tolerance = 1e-7, ignore_attr = TRUE)
})

test_that("a fit whose data were dropped says so: inference stops naming the reason, summary warns", {
  set.seed(2)
  x <- matrix(rnorm(300), 100, 3, dimnames = list(NULL, c("a", "b", "c")))
  y <- rbinom(100, 1, plogis(x[, 1]))
  data <- createData(x = x, y = y, modelType = "lr")
  fit <- fitModel(data)
  slim <- fit
  slim$data <- NULL
  for (f in list(function(m) predict(m, x[1:3, ]), function(m) vcov(m), function(m) confint(m)))
    expect_error(f(slim), "needs the data the fit was made from, and they were dropped")
  expect_warning(table <- summary(slim)$coefficients, "data were dropped")
  expect_true(all(is.na(table$std.error)))
  slim$data <- data  # put back: the same answers as before
  expect_equal(predict(slim, x[1:3, ]), predict(fit, x[1:3, ]))
  expect_equal(sqrt(diag(vcov(slim))), sqrt(diag(vcov(glm(y ~ x, family = binomial)))),
               tolerance = 1e-4, ignore_attr = TRUE)
  # confidence levels and a starting variance the search could not leave finite
  expect_error(confint(fit, level = 1), "'level' must be a single number strictly between 0 and 1")
  expect_error(createControl(startingVariance = 1e300), "'startingVariance' must be between 1e-100 and 1e\\+100")
})

test_that("a profile limit whose refits ended without converging is NA with a warning, not a number", {
  # Such a refit reads the profile too low, so the limit came too close: calendar year and its
  # square, uncentred, gave limits 1.76 standard errors inside MASS's (a tester). Here the
  # refits are cut to one cycle; before, the limits came back as numbers with only a note.
  fit <- fitModel(createData(low ~ age + lwt + ptl + ftv, data = MASS::birthwt, modelType = "lr"))
  expect_equal(fit$status, "SUCCESS")
  full <- confint(fit, c("age", "lwt"))
  reference <- suppressMessages(confint(glm(low ~ age + lwt + ptl + ftv, binomial, MASS::birthwt),
                                        c("age", "lwt")))  # MASS's profile
  expect_lt(max(abs(full - reference)), 1e-3)
  fit$settings$maxIterations <- 1L
  expect_warning(expect_warning(cut <- confint(fit, c("age", "lwt")), "ended without converging"),
                 "profile refit\\(s\\) ended without convergence")
  expect_true(all(is.na(cut)))
})

test_that("GLM standard errors come from the exact Hessian: uncentred year and its square, near-collinear columns", {
  # The difference Hessian's ~1e-12 error times the condition number put SEs 0.2% off
  # (years 2016-2020 and their squares, 1 - R^2 ~ 4e-8), and x beside x + 1e-5 noise (1 - R^2
  # ~ 1e-10) left every variance NA, an unrelated z's too. Reference: glm on a centred basis
  # (the same model), mapped back.
  set.seed(7)
  n <- 1000
  yr <- sample(2016:2020, n, TRUE)
  e <- 0.05 * (yr - mean(yr))
  d <- data.frame(yr = yr, y = rbinom(n, 1, plogis(e)), u = yr - 2018)
  fit <- fitModel(createData(y ~ yr + I(yr^2), data = d, modelType = "lr"))
  centred <- glm(y ~ u + I(u^2), binomial, d, control = glm.control(epsilon = 1e-14, maxit = 100))
  A <- matrix(c(1, -2018, 2018^2, 0, 1, -2 * 2018, 0, 0, 1), 3, 3, byrow = TRUE)
  reference <- A %*% vcov(centred) %*% t(A)
  expect_lt(max(abs(sqrt(diag(vcov(fit))) / sqrt(diag(reference)) - 1)), 1e-5)
  set.seed(31)
  d <- data.frame(x = rnorm(1000))
  d$x2 <- d$x + 1e-5 * rnorm(1000)
  d$z <- rnorm(1000)
  d$y <- rbinom(1000, 1, plogis(0.5 * d$x + 0.3 * d$z))
  fit <- fitModel(createData(y ~ x + x2 + z, data = d, modelType = "lr"))
  se <- expect_no_warning(sqrt(diag(vcov(fit))))
  expect_lt(max(abs(se / sqrt(diag(vcov(glm(y ~ x + x2 + z, binomial, d)))) - 1)), 1e-4)
})

test_that("survival and conditional standard errors come from an exact Hessian: near-collinear ages as coxph's", {
  skip_if_not_installed("survival")
  l <- stats::na.omit(survival::lung[, c("time", "status", "age", "sex")])
  set.seed(1)
  # age in years, and again from dates in days (1 - R^2 ~ 1e-7), then closer still (1e-10)
  l$fromDays <- round(l$age * 365.25 + stats::runif(nrow(l))) / 365.25
  l$closer <- l$age + stats::rnorm(nrow(l), 0, 1e-4)
  for (second in c("fromDays", "closer")) {
    f <- stats::as.formula(paste("survival::Surv(time, status) ~ age +", second, "+ sex"))
    ref <- survival::coxph(f, l, ties = "efron", control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-13, iter.max = 50))
    fit <- fitModel(createData(f, data = l, modelType = "cox", ties = "efron"))
    expect_equal(fit$status, "SUCCESS")
    # differences of the gradient: 5e-4 off for fromDays, and the whole matrix NA for closer
    expect_no_warning(V <- vcov(fit))
    expect_equal(unname(sqrt(diag(V))), unname(sqrt(diag(vcov(ref)))), tolerance = 1e-3, label = second)
    expect_equal(unname(V["sex", "sex"]), unname(vcov(ref)["sex", "sex"]), tolerance = 1e-4)
  }
  # the same for clr, against clogit: the number of spontaneous abortions and a near copy
  sets <- datasets::infert
  sets$near <- sets$spontaneous + stats::rnorm(nrow(sets), 0, 1e-3)
  env <- new.env(parent = asNamespace("survival"))
  env$sets <- sets
  ref <- evalq(clogit(case ~ spontaneous + near + induced + strata(stratum), data = sets,
                      method = "breslow", control = coxph.control(eps = 1e-12, toler.chol = 1e-13)), env)
  fit <- fitModel(createData(case ~ spontaneous + near + induced + strata(stratum), data = sets,
                             modelType = "clr", ties = "breslow"))
  expect_equal(fit$status, "SUCCESS")
  expect_equal(unname(sqrt(diag(vcov(fit)))), unname(sqrt(diag(vcov(ref)))), tolerance = 1e-4)
})

test_that("a factor whose reference level has no events leaves the other levels' rates free in profiles (glm on the limiting data)", {
  # intercept -> -Inf and every other age level -> +Inf: their sums, the other ages' rates, are
  # finite; holding all of them fixed gave the exposure's interval (0.187, 0.767)
  pt <- expand.grid(age = factor(c("40-49", "50-59", "60-69", "70+")), exposed = c(0, 1))
  pt$py <- c(12000, 9000, 6000, 2500, 3000, 2600, 1800, 700)
  pt$events <- c(0, 22, 40, 35, 0, 11, 19, 16)
  fit <- suppressWarnings(fitModel(createData(events ~ age + exposed + offset(log(py)), data = pt,
                                              modelType = "pr")))
  expect_equal(fit$status, "NO_FINITE_MLE")
  expect_setequal(fit$infinite, c("(Intercept)", "age50-59", "age60-69", "age70+"))
  expect_length(fit$pinned, 1)  # one direction of recession
  expect_true(fit$pinned %in% fit$infinite)
  ref <- glm(events ~ age + exposed + offset(log(py)), poisson, subset(pt, age != "40-49"))
  # glm's profile limits of the limiting data, by its deviance
  top <- as.numeric(logLik(ref))
  prof <- function(b) as.numeric(logLik(glm(events ~ age + offset(log(py) + b * exposed), poisson,
                                            subset(pt, age != "40-49"))))
  root <- function(range) stats::uniroot(function(b) prof(b) - top + stats::qchisq(0.95, 1) / 2,
                                         range, tol = 1e-10)$root
  expect_equal(unname(confint(fit)["exposed", ]), c(root(c(0, 0.48)), root(c(0.48, 1.5))), tolerance = 1e-5)
  # the same with the reference level re-levelled (a single infinite coefficient)
  pt$age2 <- stats::relevel(pt$age, "50-59")
  fit2 <- suppressWarnings(fitModel(createData(events ~ age2 + exposed + offset(log(py)), data = pt,
                                               modelType = "pr")))
  expect_equal(fit2$pinned, "age240-49")
  expect_equal(unname(confint(fit2, "exposed")[1, ]), unname(confint(fit, "exposed")[1, ]), tolerance = 1e-5)
})

test_that("a Poisson coefficient run off to -Inf has a finite profile limit on its other side (glm's profile)", {
  # a group without events: its coefficient's curvature ~exp(-30) made a Wald first step of
  # ~1e6, whose refit overflowed, and the upper limit was NA
  pt <- data.frame(z = c(0, 0, 1, 1), x = c(0, 1, 0, 1), py = c(1000, 1000, 500, 500), ev = c(10, 20, 0, 0))
  fit <- suppressWarnings(fitModel(createData(ev ~ z + x + offset(log(py)), data = pt, modelType = "pr")))
  expect_equal(fit$infinite, "z")
  top <- as.numeric(logLik(glm(ev ~ x + offset(log(py)), poisson, subset(pt, z == 0))))
  prof <- function(b) as.numeric(logLik(glm(ev ~ x + offset(log(py) + b * z), poisson, pt)))
  upper <- stats::uniroot(function(b) 2 * (top - prof(b)) - stats::qchisq(0.95, 1), c(-10, 0), tol = 1e-10)$root
  expect_no_warning(ci <- confint(fit, "z"))
  expect_identical(ci[1, 1], -Inf)
  expect_equal(ci[1, 2], upper, tolerance = 1e-5)
})
