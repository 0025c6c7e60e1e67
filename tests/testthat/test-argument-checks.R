# Arguments that name covariates, responses and simulation settings: checked where a user
# gives them, with errors that name the argument (rounded ids once named another covariate).

test_that("covariate ids named by numbers must be ids exactly; named fixed flags name their covariates", {
  set.seed(1)
  n <- 300
  X <- cbind(rbinom(n, 1, 0.3), rnorm(n))
  y <- rbinom(n, 1, plogis(-0.5 + X %*% c(1, -0.5)))
  cv <- rbind(data.frame(rowId = 1:n, covariateId = 11, covariateValue = X[, 1]),
              data.frame(rowId = 1:n, covariateId = 22, covariateValue = X[, 2]))
  d <- createData(data.frame(rowId = 1:n, y = y), cv[cv$covariateValue != 0, ], modelType = "lr")
  fit <- fitModel(d)
  # rounded, 21.5 and 21.6 named covariate 22
  expect_error(confint(fit, 21.5), "'parm' must hold whole numbers")
  expect_error(profileLogLikelihood(fit, 21.6, x = 0), "'parm' must hold whole numbers")
  expect_error(fitModel(d, createPrior("laplace", 0.1, exclude = 21.6)), "'exclude' must hold whole numbers")
  expect_error(fitModel(d, fixedCoefficients = 11.2), "must hold whole numbers")
  expect_error(fitModel(d, createPrior("laplace", 0.1, exclude = 2^53)), "too large for doubles")
  expect_equal(fitModel(d, createPrior("laplace", 0.1, exclude = 22))$priorType, c("(Intercept)" = "none", "11" = "laplace", "22" = "none"))
  # named logical flags were applied by position: 22 held, 11 fitted
  start <- c("(Intercept)" = 0, "11" = 1, "22" = 0)
  byName <- fitModel(d, startingCoefficients = start,
                     fixedCoefficients = c("(Intercept)" = FALSE, "22" = FALSE, "11" = TRUE))
  byId <- fitModel(d, startingCoefficients = start, fixedCoefficients = "11")
  expect_equal(unname(byName$fixed), c(FALSE, TRUE, FALSE))
  expect_equal(coef(byName), coef(byId))
  expect_equal(coef(byName)[["11"]], 1)
  expect_error(fitModel(d, fixedCoefficients = c("33" = TRUE)), "not in the data: 33")
  expect_error(fitModel(d, fixedCoefficients = c(TRUE, FALSE)), "needs 3 values")
})

test_that("a factor response is a 0/1 label for lr and clr only", {
  df <- data.frame(y = factor(rep(c("no", "yes"), 20)), x = rnorm(40))
  expect_equal(createData(y ~ x, data = df, modelType = "lr")$y, rep(c(0, 1), 20))
  # ls and pr read it as 0/1 with SUCCESS (a Poisson "count" of a yes/no label)
  for (model in c("ls", "pr"))
    expect_error(createData(y ~ x, data = df, modelType = model),
                 sprintf("a factor response is for modelType \"lr\" and \"clr\".*not '%s'", model))
})

test_that("simulateSccs() and profileLogLikelihood() check their arguments", {
  # R's internal errors before ("arguments imply differing number of rows", "invalid 'size'")
  expect_error(Argus::simulateSccs(0, 5), "'nCases' must be between 1")
  expect_error(Argus::simulateSccs(NA, 5), "'nCases' must be a single finite number")
  expect_error(Argus::simulateSccs(10.5, 5), "'nCases' must be a whole number")
  expect_error(Argus::simulateSccs(10, 0), "'nDrugs' must be between 1")
  expect_error(Argus::simulateSccs(10, 3, effectRange = 1), "'effectRange'")
  sim <- Argus::simulateSccs(20, 3, seed = 1)
  expect_true(all(c("outcomes", "covariates") %in% names(sim)))
  fit <- fitModel(createData(x = matrix(rnorm(40), 20, 2, dimnames = list(NULL, c("a", "b"))),
                             y = rbinom(20, 1, 0.5), modelType = "lr"))
  expect_error(profileLogLikelihood(fit, "a", x = numeric(0)), "'x' is empty")
  # bounds a few doubles apart: the first grid would repeat points (an engine error before)
  expect_error(profileLogLikelihood(fit, "a", bounds = c(1, 1 + 4 * .Machine$double.eps)),
               "too close for an initial grid of 10 distinct points")
  close <- profileLogLikelihood(fit, "a", bounds = c(1, 1 + 1e-6), initialGridSize = 3)
  expect_gte(nrow(close), 3)
  expect_true(all(diff(close$point) > 0))
})

test_that("variables of the formula's environment travel with the rows: na.omit, strata(), cluster(), Surv()", {
  set.seed(3)
  n <- 100
  df <- data.frame(y = stats::rbinom(n, 1, 0.4), x = stats::rnorm(n))
  df$x[7] <- NA
  envx <- stats::rnorm(n)
  envx[11] <- NA  # glm drops row 11 as well; Argus stopped with "'x' has 1 missing value"
  ref <- glm(y ~ x + envx, binomial, df, na.action = na.omit)
  fit <- fitModel(createData(y ~ x + envx, data = df, modelType = "lr", na.action = na.omit),
                  control = createControl(tolerance = 1e-12))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  expect_equal(nobs(fit), nobs(ref))
  skip_if_not_installed("survival")
  tt <- stats::rexp(n)
  ss <- stats::rbinom(n, 1, 0.7)
  group <- rep(1:4, 25)
  id <- rep(1:50, 2)
  # each read the kept rows against a vector of every row ("'stratumId' has length 100 but
  # there are 99 rows", "cluster() must give one value per row", a data frame error)
  env <- environment()
  f <- survival::Surv(tt, ss) ~ x + strata(group) + cluster(id)
  environment(f) <- env
  refEnv <- list2env(list(df = df, tt = tt, ss = ss, group = group, id = id),
                     parent = asNamespace("survival"))  # coxph's specials by their names
  ref <- evalq(coxph(Surv(tt, ss) ~ x + strata(group) + cluster(id), df, ties = "breslow"), refEnv)
  fit <- fitModel(createData(f, data = df, modelType = "cox", ties = "breslow", na.action = na.omit),
                  control = createControl(tolerance = 1e-10))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  expect_equal(unname(sqrt(diag(vcov(fit)))), unname(sqrt(diag(vcov(ref)))), tolerance = 1e-6)
})

test_that("after na.omit, poly() of a column with missing values stops as lm's does", {
  aq <- datasets::airquality  # Solar.R has 7 missing values: poly() cannot take them
  expect_error(lm(Ozone ~ poly(Solar.R, 2), aq, na.action = na.omit), "missing values")
  expect_error(createData(Ozone ~ poly(Solar.R, 2), data = aq, modelType = "ls", na.action = na.omit),
               "missing values")
})

test_that("ids are checked under the argument's own name, doubles below 2^53 throughout", {
  set.seed(1)
  n <- 100
  o <- data.frame(rowId = 1:n, y = stats::rbinom(n, 1, 0.4))
  cv <- data.frame(rowId = 1:n, covariateId = rep(c(11, 22), 50), covariateValue = stats::rnorm(n))
  d <- createData(o, cv, modelType = "lr")
  # a 0 among exclude's ids went through the intercept's path, which said 'parm'
  expect_error(fitModel(d, createPrior("laplace", 1, exclude = c(0, 21.6))), "'exclude' must hold whole numbers")
  expect_error(createData(o, transform(cv, covariateId = 2^53), modelType = "lr"), "too large for doubles")
  expect_error(Argus::simulateSccs(10, 3, seed = 2^40), "'seed' must be between")
})

test_that("a long newdata whose rows match none of outcomes' is an error; ids in scientific notation are said", {
  set.seed(1)
  n <- 2000
  x <- stats::rbinom(n, 1, 0.3)
  y <- stats::rbinom(n, 1, stats::plogis(-2 + 2 * x))
  fit <- fitModel(createData(data.frame(rowId = 1:n, y = y),
                             data.frame(rowId = which(x == 1), covariateId = 7), modelType = "lr"))
  # renumbered in one table: every row came back the intercept's prediction, silently
  expect_error(predict(fit, data.frame(rowId = 10001:10003, covariateId = 7), outcomes = data.frame(rowId = 1:3)),
               "none of newdata's 3 covariate row\\(s\\) has a rowId among outcomes\\$rowId")
  # a full table serving a subset of rows is fine
  expect_equal(unname(predict(fit, data.frame(rowId = 1:3, covariateId = 7), outcomes = data.frame(rowId = 2))),
               stats::plogis(sum(coef(fit))), tolerance = 1e-12)
  # as.character(1e5) is "1e+05": a label, not the number
  expect_warning(expect_error(predict(fit, data.frame(rowId = as.character(c(1e5, 2e5)), covariateId = 7),
                                      outcomes = data.frame(rowId = c(1e5, 2e5)))),
                 "'newdata\\$rowId' has ids written in scientific notation \\('1e\\+05', '2e\\+05'\\)")
  expect_warning(createData(data.frame(rowId = 1:2, y = c(0, 1)),
                            data.frame(rowId = 1:2, covariateId = c("7", "1e+05")), modelType = "lr"),
                 "'covariates\\$covariateId' has ids written in scientific notation.*100000")
  if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
    con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
    on.exit(DBI::dbDisconnect(con))
    DBI::dbWriteTable(con, "cov", data.frame(rowId = 10001:10003, covariateId = 7, covariateValue = 1))
    expect_error(predict(fit, dplyr::tbl(con, "cov"), outcomes = data.frame(rowId = 1:3)),
                 "none of newdata's 3 covariate row")
  }
})

test_that("integer64 newdata is read as numbers; unnamed and doubled columns are refused; '- 1' as coxph", {
  skip_if_not_installed("bit64")
  set.seed(4)
  df <- data.frame(k = rpois(50, 2))
  df$y <- df$k + stats::rnorm(50)
  fit <- fitModel(createData(y ~ k, data = df, modelType = "ls"))
  nd <- data.frame(k = bit64::as.integer64(1:3))
  # its bits were read as doubles: every row the intercept's prediction, silently
  expect_equal(unname(predict(fit, nd)), unname(predict(lm(y ~ k, df), data.frame(k = 1:3))), tolerance = 1e-8)
  mfit <- fitModel(createData(x = cbind(k = df$k), y = df$y, modelType = "ls"))
  big <- bit64::as.integer64(1:3)
  dim(big) <- c(3L, 1L)  # an integer64 matrix (matrix() would drop the class)
  dimnames(big) <- list(NULL, "k")
  expect_equal(unname(predict(mfit, big)), unname(predict(fit, data.frame(k = 1:3))), tolerance = 1e-12)
  # cbind(a = u, v + 0) names its second column ""
  expect_error(createData(x = cbind(a = df$k, df$k + 0), y = df$y, modelType = "ls"),
               "'x' has a column without a name \\(column 2\\)")
  expect_error(predict(mfit, cbind(k = 1:3, k = 4:6)), "'newdata' has two columns named 'k'")
  o <- data.frame(rowId = 1:50, y = df$y)
  expect_error(createData(cbind(o, y = rev(df$y)), data.frame(rowId = 1:50, covariateId = 1, covariateValue = df$k),
                          modelType = "ls"), "'outcomes' has two columns named 'y'")
  skip_if_not_installed("survival")
  # "- 1" changes nothing in a Cox model (coxph ignores it): treatment coding, the first level the reference
  lung <- stats::na.omit(survival::lung[, c("time", "status", "age", "ph.ecog")])
  lung$g <- factor(lung$ph.ecog)
  ref <- survival::coxph(survival::Surv(time, status) ~ g + age, lung, ties = "breslow")
  for (f in list(survival::Surv(time, status) ~ g + age - 1, survival::Surv(time, status) ~ 0 + g + age)) {
    fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"), control = createControl(tolerance = 1e-10))
    expect_equal(names(coef(fit)), names(coef(ref)))
    expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
    expect_equal(unname(predict(fit, lung[1:3, ], type = "link")),
                 unname(predict(ref, lung[1:3, ], type = "lp", reference = "zero")), tolerance = 1e-6)
  }
})

test_that("list columns and a Surv y in the matrix route get errors that say what to give", {
  df <- data.frame(y = stats::rnorm(10), x = stats::rnorm(10))
  df$lst <- as.list(1:10)
  expect_error(createData(y ~ x + lst, data = df, modelType = "ls"), "column 'lst' is a list")
  df$lst <- NULL
  df$lt <- as.POSIXlt(Sys.time() + 1:10)
  expect_error(createData(y ~ x + lt, data = df, modelType = "ls"), "POSIXlt; as.POSIXct")
  skip_if_not_installed("survival")
  expect_error(createData(x = cbind(z = stats::rnorm(10)), y = survival::Surv(1:10, rep(0:1, 5)), modelType = "cox", ties = "breslow"),
               "not a Surv object: y = status, time = times")
})

test_that("predict() checks newdata's types against the fit's, as predict.lm", {
  set.seed(2)
  df <- data.frame(k = stats::rnorm(30), g = factor(sample(c("a", "b"), 30, TRUE)))
  df$y <- df$k + (df$g == "b") + stats::rnorm(30)
  fit <- fitModel(createData(y ~ k + g, data = df, modelType = "ls"))
  ref <- lm(y ~ k + g, df)
  bad <- data.frame(k = factor(c(1, 2)), g = c("a", "b"))
  # a numeric covariate given as a factor was "lacking" before
  expect_error(predict(fit, bad), "variable 'k' was fitted with type \"numeric\" but type \"factor\" was supplied")
  expect_error(predict(ref, bad), "variable 'k' was fitted with type \"numeric\" but type \"factor\" was supplied")
  expect_error(suppressWarnings(predict(fit, data.frame(k = 1:2, g = c(1, 2)))), "variable 'g' was fitted with type \"factor\"")
  good <- data.frame(k = c(0.5, 1), g = c("b", "a"))  # character for a factor is fine, as lm
  expect_equal(unname(predict(fit, good)), unname(predict(ref, good)), tolerance = 1e-8)
})

test_that("strata()'s options are refused with the addNA() way; two terms naming one coefficient are said", {
  skip_if_not_installed("survival")
  l <- survival::lung
  # na.group = TRUE was read as one more strata variable and the NA rows refused
  expect_error(createData(survival::Surv(time, status) ~ age + strata(ph.ecog, na.group = TRUE), data = l,
                          modelType = "cox", ties = "breslow"), "strata\\(\\) takes its variables only, not 'na.group'.*addNA")
  l$g <- addNA(factor(l$ph.ecog))
  env <- list2env(list(l = l), parent = asNamespace("survival"))
  ref <- evalq(coxph(Surv(time, status) ~ age + strata(ph.ecog, na.group = TRUE), l, ties = "breslow"), env)
  fit <- fitModel(createData(survival::Surv(time, status) ~ age + strata(g), data = l, modelType = "cox", ties = "breslow"),
                  control = createControl(tolerance = 1e-10))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  df <- data.frame(y = stats::rnorm(20), g = factor(rep(c("a", "b"), 10)), gb = stats::rnorm(20))
  expect_error(createData(y ~ g + gb, data = df, modelType = "ls"),
               "two terms of the formula give the coefficient name 'gb'")
})
