# Fits that leave the easy path, found by trying Argus as a new user would: starting values
# that saturate every row, profile refits held far from the optimum, and an uncentred
# calendar year beside the intercept. Each must end at the reference optimum, with a status
# that says what happened (no SUCCESS away from it, no NO_FINITE_MLE at a finite one).

relDiff <- function(a, b) max(abs(unname(a) - unname(b)) / abs(unname(b)))

yearData <- function() {
  set.seed(11)
  ds <- data.frame(yr = sample(1990:2020, 500, TRUE), x = stats::rnorm(500))
  ds$cnt <- stats::rpois(500, exp(0.2 + 0.02 * (ds$yr - 2005) + 0.3 * ds$x))
  ds$y01 <- as.integer(ds$cnt > 1)
  ds
}

test_that("a logistic fit from starting values that saturate every row reaches glm's optimum", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  data <- createData(low ~ age + lwt + smoke, data = bw, modelType = "lr")
  reference <- stats::glm(low ~ age + lwt + smoke, family = stats::binomial(), data = bw,
                          control = stats::glm.control(epsilon = 1e-14, maxit = 100))
  # eta of about 70 on every row at the first start, -3600 after a cycle of plain Newton
  # steps: the log-likelihood fell -3,065 -> -31,687 -> -214,069 and the fit was certified
  # SUCCESS there (every row's curvature 0).
  for (start in list(c(20, -1, 0.5, 5), c(0, 0, 0.5, 0), c(-30, 0, 0, 0))) {
    fit <- fitModel(data, startingCoefficients = start)
    label <- paste(start, collapse = ", ")
    expect_equal(fit$status, "SUCCESS", label = label)
    # SUCCESS certifies every coordinate within 1e-4 of its standard error of the optimum
    expect_lt(max(abs(coef(fit) - coef(reference)) / sqrt(diag(vcov(reference)))), 1e-3,
              label = label)
    expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(reference)), tolerance = 1e-9,
                 label = label)
  }
})

test_that("an uncentred calendar year is neither a recession nor a stuck profile (pr, lr)", {
  ds <- yearData()
  cases <- list(list(model = "pr", formula = cnt ~ yr + x, family = stats::poisson()),
                list(model = "lr", formula = y01 ~ yr + x, family = stats::binomial()))
  for (case in cases) {
    fit <- fitModel(createData(case$formula, data = ds, modelType = case$model))
    reference <- stats::glm(case$formula, family = case$family, data = ds,
                            control = stats::glm.control(epsilon = 1e-14, maxit = 100))
    # The intercept (-31) and year (0.0156 * 2020 = 31.5) both move eta by more than 5, so
    # the recession probe ran; along the fit's recent move (their correlated valley) it once
    # found the log-likelihood "flat" and called the fit NO_FINITE_MLE with a warning.
    expect_equal(fit$status, "SUCCESS", label = case$model)
    expect_lt(relDiff(coef(fit), coef(reference)), 1e-6, label = case$model)
    # Profile refits with the year held 15 units of eta from its optimum: they used to stop
    # after one cycle (exp(eta) had left the doubles) and moved the lower limit 35%.
    interval <- expect_silent(confint(fit, "yr"))
    expected <- suppressMessages(confint(reference, "yr"))
    expect_lt(relDiff(interval, expected), 2e-5, label = case$model)
  }
})

test_that("a profile refit far from the optimum converges (pr, a year held at half its estimate)", {
  ds <- yearData()
  data <- createData(cnt ~ yr + x, data = ds, modelType = "pr")
  start <- coef(fitModel(data))
  start[["yr"]] <- 0.008
  fit <- fitModel(data, startingCoefficients = start, fixedCoefficients = "yr")
  reference <- stats::glm(cnt ~ x + offset(0.008 * yr), family = stats::poisson(), data = ds,
                          control = stats::glm.control(epsilon = 1e-14, maxit = 100))
  expect_equal(fit$status, "SUCCESS")
  expect_lt(relDiff(coef(fit)[c("(Intercept)", "x")], coef(reference)), 1e-6)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(reference)), tolerance = 1e-9)
})

# A covariate whose mean dwarfs its spread: a time stamp in seconds within a day (1.7e9 +-
# 25,000), or 1e5 + N(0, 1). Beside the intercept it was declared aliased (NA, with SUCCESS)
# from mean/sd 1e5, and vcov() was NA from 1e4; the block step, the Hessian and the profile
# now work in the basis of the centred column (engine: data/column_centring.h).
test_that("a covariate with a huge mean against its spread matches glm and lm (lr, pr, ls)", {
  set.seed(21)
  n <- 1500
  for (shape in list(c(1e5, 1), c(1.7e9, 25000))) {
    ds <- data.frame(x = shape[1] + stats::rnorm(n) * shape[2], z = stats::rnorm(n))
    xc <- (ds$x - shape[1]) / shape[2]
    ds$y01 <- stats::rbinom(n, 1, stats::plogis(-0.5 + 0.8 * xc + 0.3 * ds$z))
    ds$cnt <- stats::rpois(n, exp(0.2 + 0.3 * xc))
    ds$w <- 1 + 0.5 * xc + ds$z + stats::rnorm(n)
    # The reference is glm on the column shifted by its nominal mean (glm itself did not
    # converge on the raw 1.7e9 column): the same slopes, the intercept moved by mean * slope.
    ds$shifted <- ds$x - shape[1]
    for (case in list(list("lr", "y01", stats::binomial()), list("pr", "cnt", stats::poisson()),
                      list("ls", "w", stats::gaussian()))) {
      label <- paste(case[[1]], shape[1])
      reference <- stats::glm(stats::reformulate(c("shifted", "z"), case[[2]]), family = case[[3]],
                              data = ds, control = stats::glm.control(epsilon = 1e-14, maxit = 100))
      refBeta <- coef(reference)
      refBeta[1] <- refBeta[1] - shape[1] * refBeta[2]
      fit <- expect_no_warning(fitModel(createData(stats::reformulate(c("x", "z"), case[[2]]), data = ds,
                                                   modelType = case[[1]]),
                                        control = createControl(tolerance = 1e-10)))
      expect_equal(fit$status, "SUCCESS", label = label)
      expect_false(any(fit$aliased), label = label)
      expect_lt(relDiff(coef(fit), refBeta), 1e-6, label = label)
      se <- sqrt(diag(vcov(fit)))[-1]
      refSe <- sqrt(diag(vcov(reference)))[-1]
      # the difference Hessian loses about 1e-13 x the mean of its precision (6e-5 at 1.7e9)
      expect_lt(relDiff(se, refSe), 1e-3, label = label)
    }
  }
  # the profile interval of such a column (pr): refits start with the intercept moved against
  # it, and the first step follows the centred curvature (they ran out of cycles before)
  fit <- fitModel(createData(cnt ~ x + z, data = ds, modelType = "pr"))
  profile <- confint(fit, "x")
  expect_false(anyNA(profile))
  reference <- suppressMessages(confint(stats::glm(cnt ~ shifted + z, stats::poisson(), ds), "shifted"))
  expect_lt(relDiff(profile, reference), 1e-5)
})

test_that("a time stamp in seconds within hours matches coxph and clogit (the fit runs on it centred)", {
  skip_if_not_installed("survival")
  set.seed(5)
  n <- 2000
  ds <- data.frame(ts = 1709251200 + stats::runif(n, 0, 4 * 3600), z = stats::rnorm(n))
  eta <- 1.5 * (ds$ts - mean(ds$ts)) / 3600 + 0.5 * ds$z
  ds$time <- stats::rexp(n, exp(eta))
  ds$status <- stats::rbinom(n, 1, 0.8)
  # before: ts held at 0 as aliased (NA, with a warning) and z off by 14%
  fit <- expect_no_warning(fitModel(createData(Surv(time, status) ~ ts + z, data = ds, modelType = "cox", ties = "breslow"),
                                    control = createControl(tolerance = 1e-10)))
  reference <- survival::coxph(survival::Surv(time, status) ~ ts + z, data = ds, ties = "breslow")
  expect_lt(relDiff(coef(fit), coef(reference)), 1e-7)
  expect_lt(relDiff(sqrt(diag(vcov(fit))), sqrt(diag(vcov(reference)))), 1e-6)
  ds$set <- rep(seq_len(n / 4), each = 4)
  ds$case <- as.numeric(seq_len(n) %% 4 == 1)
  clr <- fitModel(createData(case ~ ts + z + strata(set), data = ds, modelType = "clr"),
                  control = createControl(tolerance = 1e-10))
  # clogit calls coxph by name: evaluated where survival's functions are found
  reference <- evalq(clogit(case ~ ts + z + strata(set), data = ds),
                     list2env(list(ds = ds), parent = asNamespace("survival")))
  expect_lt(relDiff(coef(clr), coef(reference)), 1e-6)
  expect_lt(relDiff(sqrt(diag(vcov(clr))), sqrt(diag(vcov(reference)))), 1e-6)
})

test_that("conditional separation is still NO_FINITE_MLE, and a refit held inside it converges", {
  # x is 1 exactly for each set's case: x runs off to infinity. A first version of this
  # session's saturation rule read the conditional model's deliberate h = 0 (no variance
  # left in a set) as 'infinitely far', certified SUCCESS at x = 43.6 and sent a refit with x
  # held at 33.56 round the overshoot guard for 1000 cycles.
  set.seed(4)
  d <- data.frame(y = rep(c(1, 0, 0, 0), 50), z = stats::rnorm(200), g = rep(1:50, each = 4))
  d$x <- d$y
  data <- createData(y ~ x + z + strata(g), data = d, modelType = "clr")
  expect_warning(fit <- fitModel(data), "no finite maximum-likelihood estimate")
  expect_equal(fit$status, "NO_FINITE_MLE")
  expect_gt(coef(fit)[["x"]], 20)
  held <- fitModel(data, startingCoefficients = c(33.56, 0.1), fixedCoefficients = "x")
  expect_equal(held$status, "SUCCESS")
  # the same sets with a few cases off x: finite, and clogit's
  d$x[c(2, 7, 10)] <- 1
  d$x[c(1, 5)] <- 0
  finite <- fitModel(createData(y ~ x + z + strata(g), data = d, modelType = "clr",
                                ties = "breslow"))
  env <- new.env(parent = asNamespace("survival"))  # clogit evaluates coxph() in its caller
  env$d <- d
  ref <- evalq(clogit(y ~ x + z + strata(g), data = d, method = "breslow",
                      control = coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100)), env)
  expect_equal(finite$status, "SUCCESS")
  expect_lt(relDiff(coef(finite), coef(ref)), 1e-6)
})

test_that("91 correlated interaction columns converge: ridge ls in closed form, cox as coxph", {
  # Boston's pairwise interactions (model.matrix(~ .^2), correlations to 0.998): with a block
  # of 32, every fit ended MAX_ITERATIONS after 1000 cycles (ridge ls 5.6 off its closed
  # form, lr's objective 46.2 against 28.1).
  B <- MASS::Boston
  X <- stats::model.matrix(medv ~ .^2, B)[, -1]
  fit <- fitModel(createData(x = X, y = B$medv, modelType = "ls"), createPrior("normal", variance = 1))
  expect_equal(fit$status, "SUCCESS")
  Xc <- scale(X, scale = FALSE)
  exact <- solve(crossprod(Xc) + diag(ncol(X)), crossprod(Xc, B$medv - mean(B$medv)))
  expect_equal(unname(coef(fit)[-1]), unname(drop(exact)), tolerance = 1e-7)
  lr <- fitModel(createData(x = X, y = as.numeric(B$medv > 25), modelType = "lr"),
                 createPrior("normal", variance = 1))
  expect_equal(lr$status, "SUCCESS")
  expect_lt(lr$iterations, 50)
  pbc <- na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "protime", "edema",
                                   "copper", "ast", "platelet", "trig", "alk.phos")])
  pbc$ev <- as.numeric(pbc$status == 2)
  f <- survival::Surv(time, ev) ~ (age + bili + albumin + protime + edema + copper + ast +
                                     platelet + trig + alk.phos)^2
  cox <- fitModel(createData(f, data = pbc, modelType = "cox", ties = "breslow"))
  ref <- survival::coxph(f, data = pbc, ties = "breslow")
  expect_equal(cox$status, "SUCCESS")
  expect_equal(unname(coef(cox)), unname(coef(ref)), tolerance = 1e-6)
})
