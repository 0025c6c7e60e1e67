# Predictions and curves from inputs a user may give them: offsets, interactions with strata,
# logical 0/1 columns, misspelt covariate ids and column names, rows left out by na.omit.
# Against survival's survfit.coxph and predict.coxph where they answer.

lungOffset <- function() {
  lung <- na.omit(survival::lung[, c("time", "status", "age", "sex", "wt.loss")])
  list(data = lung, formula = Surv(time, status) ~ age + sex + offset(0.01 * wt.loss))
}

test_that("survfit() without newdata takes coxph's reference offset: the fitted rows' mean", {
  skip_if_not_installed("survival")
  l <- lungOffset()
  ref <- coxRef(l$formula, l$data)
  fit <- fitModel(createData(l$formula, data = l$data, modelType = "cox", ties = "breslow"))
  # was 0.036 off (the offset at 0: 0.3014 for coxph's 0.2663 at day 558)
  expect_equal(survival::survfit(fit)$surv, survival::survfit(ref)$surv, tolerance = 1e-7)
  # the matrix route, with its offset vector, the same
  X <- cbind(age = l$data$age, sex = l$data$sex)
  m <- fitModel(createData(x = X, y = l$data$status - 1, time = l$data$time,
                           offset = 0.01 * l$data$wt.loss, modelType = "cox", ties = "breslow"))
  expect_equal(survival::survfit(m)$surv, survival::survfit(ref)$surv, tolerance = 1e-7)
  # a matrix newdata has no offset column: the caller gives one, or it is an error
  expect_error(survival::survfit(m, newdata = X[1:2, ]), "the fit has an offset: give 'offset'")
  expect_error(predict(m, X[1:2, ]), "the fit has an offset: give 'offset'")
  curves <- survival::survfit(m, newdata = X[1:2, ], offset = 0.01 * l$data$wt.loss[1:2])
  expect_equal(unname(curves$surv), unname(survival::survfit(ref, newdata = l$data[1:2, ])$surv),
               tolerance = 1e-7)
  expect_equal(unname(predict(m, X[1:2, ], offset = 0.01 * l$data$wt.loss[1:2])),
               unname(predict(fit, l$data[1:2, ])), tolerance = 1e-12)
})

test_that("survfit() without newdata refuses a strata-by-covariate interaction, as survfit.coxph", {
  skip_if_not_installed("survival")
  lung <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  strata <- survival::strata  # the interaction's column is evaluated by model.frame()
  fit <- fitModel(createData(Surv(time, status) ~ age * strata(sex), data = lung, modelType = "cox", ties = "breslow"))
  expect_equal(fit$nStrata, 2)
  expect_error(survival::survfit(fit), "strata-by-covariate interaction needs 'newdata'")
  plain <- fitModel(createData(Surv(time, status) ~ age * sex, data = lung, modelType = "cox", ties = "breslow"))
  expect_warning(survival::survfit(plain), "the model contains interactions")
})

test_that("a 0/1 covariate given as logical in newdata predicts as its numbers, as predict.coxph", {
  skip_if_not_installed("survival")
  colon <- na.omit(subset(survival::colon, etype == 2)[, c("time", "status", "rx", "age", "obstruct")])
  formula <- Surv(time, status) ~ rx + age + obstruct
  fit <- fitModel(createData(formula, data = colon, modelType = "cox", ties = "breslow"))
  nd <- colon[1:5, ]
  logical <- transform(nd, obstruct = obstruct == 1)
  expect_equal(predict(fit, logical), predict(fit, nd))  # was: "lacks column(s) for covariate(s) obstruct"
  ref <- coxRef(formula, colon)
  expect_equal(unname(predict(fit, logical, type = "risk")),
               unname(predict(ref, logical, type = "risk", reference = "zero")), tolerance = 1e-6)
})

test_that("stratified curves name what newdata lacks; baselineHazard names strata as survfit", {
  skip_if_not_installed("survival")
  lung <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
  lung <- lung[lung$ph.ecog < 3, ]
  formula <- Surv(time, status) ~ age + strata(sex, ph.ecog)
  fit <- fitModel(createData(formula, data = lung, modelType = "cox", ties = "breslow"))
  expect_error(predict(fit, data.frame(age = 60), type = "survival", times = 100),
               "lacks the strata\\(\\) variable\\(s\\) sex, ph.ecog")
  hazard <- baselineHazard(fit)
  # the values joined by ", " (was "1\r0", which printed overwrites itself)
  expect_setequal(unique(hazard$stratum), unique(paste(lung$sex, lung$ph.ecog, sep = ", ")))
})

test_that("augment() lines an na.omit fit's rows up with the data it was made from", {
  skip_if_not_installed("survival")
  lung <- survival::lung[, c("time", "status", "age", "sex", "ph.ecog")]
  fit <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung,
                             modelType = "cox", ties = "breslow", na.action = "na.omit"))
  out <- augment(fit, data = lung)  # was "must be the data frame the fit was made from (227 rows)"
  expect_equal(nrow(out), 227)
  kept <- !is.na(lung$ph.ecog)
  expect_equal(out$age, lung$age[kept])
  expect_equal(unname(out$.fitted), unname(predict(fit, lung[kept, ], type = "link")), tolerance = 1e-12)
  expect_error(augment(fit, data = lung[1:10, ]), "'data' has 10 rows, but the fit has 227 \\(its na.action left out 1\\)")
  expect_error(augment(fit, type.predict = "survival"), "one .fitted value per row")
})

test_that("augment() matches a reordered data frame's rows to the fit's, by row name or rowId", {
  fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"))
  ref <- lm(mpg ~ wt + hp, data = mtcars)
  # bound by position, row "Mazda RX4" carried Volvo 142E's mpg beside its own .fitted
  out <- as.data.frame(augment(fit, data = mtcars[32:1, ]))
  expect_equal(out$.rowId, rownames(mtcars))
  expect_equal(out$mpg, mtcars$mpg)
  expect_equal(unname(out$.fitted), unname(fitted(ref)), tolerance = 1e-10)
  expect_equal(out$mpg - out$.fitted, out$.resid, tolerance = 1e-10)
  # row names that are not the fit's: not the data it was made from
  other <- mtcars
  rownames(other)[3] <- "Datsun 711"
  expect_error(augment(fit, data = other), "does not hold the fit's row Datsun 710 \\(by its row names\\)")
  # R's own 1..n row names say nothing: the rows are taken in the order given
  plain <- mtcars
  rownames(plain) <- NULL
  fitPlain <- fitModel(createData(mpg ~ wt + hp, data = plain, modelType = "ls"))
  expect_equal(as.data.frame(augment(fitPlain, data = plain))$mpg, plain$mpg)
  # the long route: by the outcomes' rowId column
  set.seed(3)
  outcomes <- data.frame(rowId = c(7, 3, 11, 5, 9, 1), y = c(0, 1, 1, 0, 1, 0))
  covariates <- data.frame(rowId = outcomes$rowId, covariateId = 1, covariateValue = c(1, 2, 0.5, 3, 1, 2))
  long <- fitModel(createData(outcomes, covariates, modelType = "ls"))
  shuffled <- outcomes[c(6, 2, 4, 1, 5, 3), ]
  out <- as.data.frame(augment(long, data = shuffled))
  expect_equal(out$rowId, as.numeric(out$.rowId))
  expect_equal(out$y - out$.fitted, out$.resid, tolerance = 1e-10)
  expect_error(augment(long, data = transform(outcomes, rowId = rowId + 100)), "does not hold the fit's row 7 \\(by its rowId column\\)")
  # a matrix fit's ids are made up: its rows go by position, whatever the data's row names
  byMatrix <- fitModel(createData(x = as.matrix(mtcars[, c("wt", "hp")]), y = mtcars$mpg, modelType = "ls"))
  out <- as.data.frame(augment(byMatrix, data = mtcars))
  expect_equal(out$mpg, mtcars$mpg)
  expect_equal(out$mpg - out$.fitted, out$.resid, tolerance = 1e-10)
})

test_that("cumulativeIncidence() takes times, as predict.crr's curves at chosen times", {
  skip_if_not_installed("survival")
  m <- survival::mgus2
  m$etime <- ifelse(m$pstat == 0, m$futime, m$ptime)
  m$event <- ifelse(m$pstat == 0, 2 * m$death, 1)
  m <- na.omit(m[, c("etime", "event", "age", "sex", "hgb")])
  fit <- fitModel(createData(Surv(etime, event) ~ age + sex + hgb, data = m, modelType = "fgr"))
  all <- cumulativeIncidence(fit, m[1:2, ])
  at <- cumulativeIncidence(fit, m[1:2, ], times = c(120, 60))
  expect_equal(at$time, c(120, 60))
  expect_equal(unname(at$incidence[1, ]), unname(all$incidence[findInterval(120, all$time), ]))
  expect_equal(unname(at$incidence[2, ]), unname(all$incidence[findInterval(60, all$time), ]))
})

test_that("long and argusData newdata: unknown covariate ids and near-miss columns are named", {
  set.seed(5)
  n <- 300
  out <- data.frame(rowId = 1:n, y = stats::rbinom(n, 1, 0.4))
  cov <- data.frame(rowId = rep(1:n, 2), covariateId = rep(c("age", "bmi"), each = n),
                    covariateValue = c(stats::rnorm(n, 60, 10), stats::rnorm(n, 27, 4)))
  fit <- fitModel(createData(out, cov, modelType = "lr"))
  misspelt <- cov
  misspelt$covariateId[misspelt$covariateId == "age"] <- "Age"
  expect_warning(predict(fit, misspelt), "1 covariate id\\(s\\) the model does not have, which are ignored.*: 'Age'")
  # ids the model leaves out (an OHDSI table's other covariates) are ignored without a word
  extra <- rbind(cov, data.frame(rowId = 1:n, covariateId = "smoker", covariateValue = 1))
  expect_silent(predict(fit, extra))
  renamed <- cov
  names(renamed)[3] <- "CovariateValue"
  expect_warning(predict(fit, renamed), "column 'CovariateValue', which is not read: did you mean 'covariateValue'")
  expect_warning(predict(fit, cov, outcomes = data.frame(rowId = 1:n, Offset = 1)), "did you mean 'offset'")
  # an argusData newdata built by a formula without one of the model's covariates
  d <- data.frame(y = out$y, age = cov$covariateValue[1:n], bmi = cov$covariateValue[n + 1:n])
  ff <- fitModel(createData(y ~ age + bmi, data = d, modelType = "lr"))
  expect_error(predict(ff, createData(y ~ age, data = d, modelType = "lr")),
               "made without the model's variable\\(s\\) bmi")
  # a factor level newdata does not hold is 0, as it is (not an error)
  d$g <- factor(rep(c("a", "b", "c"), length.out = n))
  fg <- fitModel(createData(y ~ age + g, data = d, modelType = "lr"))
  fewer <- d[d$g != "c", ]
  fewer$g <- droplevels(fewer$g)
  expect_equal(unname(predict(fg, createData(y ~ age + g, data = fewer, modelType = "lr"))),
               unname(predict(fg, fewer)), tolerance = 1e-12)
})

test_that("database tables get the near-miss check of data frames", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  set.seed(2)
  n <- 200
  z <- stats::rnorm(n)
  out <- data.frame(rowId = 1:n, y = stats::rbinom(n, 1, stats::plogis(z)))
  tables <- databaseTables(con, covariates = data.frame(rowId = 1:n, covariateId = 1, covariatevalue = z))
  # a value column spelt in lower case (a PostgreSQL table made with plain SQL): every value
  # became 1 without a word (coefficient 1.68 for glm's 1.35)
  expect_warning(createData(out, tables$covariates, modelType = "lr"),
                 "column 'covariatevalue', which is not read: did you mean 'covariateValue'")
})

test_that("a bit64 status with failcode, and the pr stratumId hint", {
  skip_if_not_installed("bit64")
  set.seed(3)
  n <- 300
  x <- stats::rnorm(n)
  status <- sample(0:2, n, TRUE)
  time <- stats::rexp(n)
  plain <- fitModel(createData(x = cbind(x = x), y = status, time = time, modelType = "fgr"))
  big <- fitModel(createData(x = cbind(x = x), y = bit64::as.integer64(status), time = time,
                             modelType = "fgr", failcode = 1))  # was "'failcode' 2 does not occur"
  expect_equal(coef(big), coef(plain))
  # an integer64 covariate in a formula is its numbers (was refused as 3.4e-323 "rescale it")
  d <- data.frame(y = stats::rbinom(n, 1, 0.5), k = sample(0:5, n, TRUE))
  d64 <- d
  d64$k <- bit64::as.integer64(d$k)
  expect_equal(coef(fitModel(createData(y ~ k, data = d64, modelType = "lr"))),
               coef(fitModel(createData(y ~ k, data = d, modelType = "lr"))))
  expect_error(createData(y ~ k, data = d, modelType = "lr", subset = k > 1),
               "unused argument subset")
  # a covariate numbered 0 beside the intercept, whose id 0 is (getCovariateIds() had 0 twice)
  expect_error(createData(data.frame(rowId = 1:n, y = d$y), data.frame(rowId = 1:n, covariateId = 0,
                                                                       covariateValue = d$k), modelType = "lr"),
               "covariate id 0 is the intercept's")
  expect_warning(createData(data.frame(rowId = 1:n, y = stats::rpois(n, 1), stratumId = 1),
                            data.frame(rowId = 1:n, covariateId = 1, covariateValue = x), modelType = "pr"),
                 "use 'cpr' for a conditional Poisson model")
})

test_that("per-row arguments that a newdata does not read are errors; exposure times are positive", {
  set.seed(2)
  n <- 300
  x <- rbinom(n, 1, 0.5)
  t <- rexp(n) + 0.1
  y <- rpois(n, t * exp(-0.5 + x))
  fit <- fitModel(createData(data.frame(rowId = 1:n, y = y, time = t),
                             data.frame(rowId = which(x == 1), covariateId = 1), modelType = "pr"))
  nd <- data.frame(rowId = c(1, 2), covariateId = 1)
  # the long table's rows take their time from 'outcomes': time = c(2, 3) gave rates (1.51, 1.51)
  expect_error(predict(fit, nd, time = c(2, 3)), "does not take 'time' for a long covariates table")
  expect_error(predict(fit, nd, offset = c(5, 5)), "'offset'")
  expect_error(predict(fit, time = 2), "the fitted rows")
  expect_equal(unname(predict(fit, nd, outcomes = data.frame(rowId = 1:2, time = c(2, 3)))),
               c(2, 3) * exp(sum(coef(fit))), tolerance = 1e-12)
  expect_error(predict(fit, nd, outcomes = data.frame(rowId = 1:2, time = c(-1, 0))),
               "exposure length and must be positive \\(row 1 is -1\\)")
  expect_error(predict(fit, matrix(1, 2, 1, dimnames = list(NULL, "1")), time = c(1, 0)),
               "'time' is an exposure length")
  expect_error(predict(fit, matrix(1, 2, 1, dimnames = list(NULL, "1")),
                       outcomes = data.frame(rowId = 1:2, time = 1)), "'outcomes' is for newdata in the long format")
  expect_true(is.na(predict(fit, matrix(1, 2, 1, dimnames = list(NULL, "1")), time = c(1, NA))[2]))
})
