# No silent wrong answers at the input layer: a model.matrix() intercept column, factor and
# character identifiers, refusals before any fit (zero weights, folds, extreme scales),
# unused arguments, missing exposure times, and survival's 1/2 status coding.

# ---- 1. A model.matrix() "(Intercept)" column is the intercept ----------------------------

test_that("a model.matrix() intercept column is the intercept: lr on birthwt equals glm", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  formula <- low ~ age + lwt + factor(race) + smoke
  x <- model.matrix(formula, bw)
  ref <- glm(formula, binomial, bw)
  ctl <- createControl(tolerance = 1e-10)
  for (design in list(x, Matrix::Matrix(x, sparse = TRUE))) {
    data <- createData(x = design, y = bw$low, modelType = "lr")
    fit <- fitModel(data, control = ctl)
    expect_identical(names(coef(fit)), names(coef(ref)))
    expect_false(anyDuplicated(names(coef(fit))) > 0)
    expect_true(data$hasIntercept)
    expect_equal(coef(fit), coef(ref), tolerance = 1e-5)
    # the intercept is Argus's own: unpenalized, and stored as the intercept column
    expect_identical(data$design$kinds[1], 3L)
    laplace <- fitModel(data, createPrior("laplace", variance = 1e-4), control = ctl)
    expect_true(coef(laplace)[["(Intercept)"]] != 0)
  }
  expect_identical(names(coef(fitModel(createData(x = x, y = bw$low, modelType = "lr",
                                                  addIntercept = TRUE), control = ctl))),
                   names(coef(ref)))
})

test_that("an '(Intercept)' column that is not all 1, or with addIntercept = FALSE, is an error", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  x <- model.matrix(low ~ age + lwt, bw)
  expect_error(createData(x = x, y = bw$low, modelType = "lr", addIntercept = FALSE),
               "'x' has an '\\(Intercept\\)' column of ones but addIntercept = FALSE")
  bad <- x
  bad[7, "(Intercept)"] <- 0.5
  expect_error(createData(x = bad, y = bw$low, modelType = "lr"),
               "column '\\(Intercept\\)' of 'x' is not all 1 \\(row 7 is 0.5\\)")
  bad[7, "(Intercept)"] <- NA
  expect_error(createData(x = bad, y = bw$low, modelType = "lr"),
               "column '\\(Intercept\\)' of 'x' is not all 1 \\(row 7 is NA\\)")
})

test_that("conditional and survival models drop an intercept column with a message", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  x <- model.matrix(low ~ age + lwt + smoke, bw)
  expect_message(clr <- createData(x = x, y = bw$low, stratumId = bw$race, modelType = "clr"),
                 "'\\(Intercept\\)' column of 'x' is dropped: .*conditional model \\('clr'\\)")
  expect_identical(clr$columnNames, c("age", "lwt", "smoke"))
  time <- bw$bwt
  expect_message(cox <- createData(x = x, y = bw$low, time = time, modelType = "cox", ties = "breslow"),
                 "dropped: .*survival model \\('cox'\\)")
  expect_identical(cox$columnNames, c("age", "lwt", "smoke"))
  plain <- createData(x = x[, -1], y = bw$low, time = time, modelType = "cox", ties = "breslow")
  ctl <- createControl(tolerance = 1e-10)
  expect_identical(coef(fitModel(cox, control = ctl)), coef(fitModel(plain, control = ctl)))
})

test_that("no two coefficients share a name on any route", {
  # the guard in assembleData(), whatever a route hands it
  input <- list(y = c(0, 1, 1, 0), rowIds = 1:4, entryRow = 1:4, entryColumn = c(1, 1, 2, 2),
                entryValue = NULL, columnNames = c("(Intercept)", "b"))
  expect_error(Argus:::assembleData(input, "lr", TRUE),
               "two coefficients would share the name '\\(Intercept\\)'")
  input$columnNames <- c("b", "b")
  expect_error(Argus:::assembleData(input, "lr", FALSE),
               "two coefficients would share the name 'b'")
})

# ---- 2. Factor and character identifiers are matched by their labels ----------------------

labelData <- function(seed = 71, n = 300) {
  set.seed(seed)
  x <- cbind(rbinom(n, 1, 0.4), round(rnorm(n), 3), rbinom(n, 1, 0.3))
  y <- rbinom(n, 1, plogis(-0.3 + drop(x %*% c(1, -0.5, 0.7))))
  at <- which(x != 0, arr.ind = TRUE)
  list(x = x, y = y, n = n, at = at)
}

test_that("row ids given as factors with different level sets land on the right rows", {
  sim <- labelData()
  ids <- c(1001, 5, 77)
  outcomes <- data.frame(rowId = seq_len(sim$n), y = sim$y)
  covariates <- data.frame(rowId = sim$at[, 1], covariateId = ids[sim$at[, 2]],
                           covariateValue = sim$x[sim$at])
  ctl <- createControl(tolerance = 1e-10)
  byNumber <- fitModel(createData(outcomes, covariates, modelType = "lr"), control = ctl)

  labels <- sprintf("p%03d", seq_len(sim$n))
  o <- outcomes
  o$rowId <- factor(labels, levels = rev(labels))
  cv <- covariates
  set.seed(710)
  cv$rowId <- factor(labels[covariates$rowId], levels = sample(unique(labels[covariates$rowId])))
  byFactor <- fitModel(createData(o, cv, modelType = "lr"), control = ctl)
  expect_equal(coef(byFactor), coef(byNumber), tolerance = 1e-10)
  expect_identical(names(predict(byFactor)), labels)
  expect_equal(unname(predict(byFactor)), unname(predict(byNumber)), tolerance = 1e-10)
  # character in one table, factor in the other
  o$rowId <- labels
  byMixed <- fitModel(createData(o, cv, modelType = "lr"), control = ctl)
  expect_equal(coef(byMixed), coef(byNumber), tolerance = 1e-10)
  # numbers in one table and their labels in the other
  cv$rowId <- as.character(covariates$rowId)
  byDigits <- fitModel(createData(outcomes, cv, modelType = "lr"), control = ctl)
  expect_equal(coef(byDigits), coef(byNumber), tolerance = 1e-10)
  # a label missing from outcomes and repeated labels are still caught
  cv$rowId[3] <- "nobody"
  expect_error(createData(outcomes, cv, modelType = "lr"),
               "covariates\\$rowId nobody does not appear in outcomes\\$rowId")
  o$rowId[2] <- o$rowId[1]
  expect_error(createData(o, covariates, modelType = "lr"),
               "'outcomes\\$rowId' must be unique; p001 appears more than once")
})

test_that("covariate ids given as a factor are named, excluded, fixed and predicted by label", {
  sim <- labelData()
  labels <- c("1001", "5", "77")
  outcomes <- data.frame(rowId = seq_len(sim$n), y = sim$y)
  covariates <- data.frame(rowId = sim$at[, 1], covariateValue = sim$x[sim$at])
  covariates$covariateId <- factor(labels[sim$at[, 2]], levels = c("77", "1001", "5"))
  numeric <- covariates
  numeric$covariateId <- as.numeric(labels[sim$at[, 2]])
  ctl <- createControl(tolerance = 1e-10)
  data <- createData(outcomes, covariates, modelType = "lr")
  fit <- fitModel(data, control = ctl)
  ref <- fitModel(createData(outcomes, numeric, modelType = "lr"), control = ctl)
  expect_identical(names(coef(fit)), c("(Intercept)", "1001", "5", "77"))
  expect_identical(fit$covariateIds, c("1001", "5", "77"))
  expect_equal(coef(fit)[names(coef(ref))], coef(ref), tolerance = 1e-7)
  glmFit <- glm(sim$y ~ sim$x, family = binomial)
  expect_equal(unname(coef(fit)[c("(Intercept)", "1001", "5", "77")]), unname(coef(glmFit)),
               tolerance = 1e-5)

  # exclude by number or by label: only covariate 5 stays unpenalized
  for (ex in list(5, "5", factor("5"))) {
    penalized <- fitModel(data, createPrior("laplace", variance = 1e-4, exclude = ex),
                          control = ctl)
    expect_true(coef(penalized)[["5"]] != 0)
    expect_identical(unname(coef(penalized)[c("1001", "77")]), c(0, 0))
  }
  # fixed and starting coefficients by label
  start <- c("(Intercept)" = 0, "1001" = 0, "5" = 0.25, "77" = 0)
  fixed <- fitModel(data, control = ctl, startingCoefficients = rev(start), fixedCoefficients = 5)
  expect_identical(coef(fixed)[["5"]], 0.25)
  fixedByLabel <- fitModel(data, control = ctl, startingCoefficients = start,
                           fixedCoefficients = "5")
  expect_equal(coef(fixedByLabel), coef(fixed), tolerance = 1e-12)

  # confint and vcov by id or label
  expect_equal(confint(fit, 5, method = "wald"), confint(fit, "5", method = "wald"))
  expect_identical(rownames(confint(fit, 1001, method = "wald")), "1001")
  expect_equal(vcov(fit)[c("1001", "5", "77"), c("1001", "5", "77")],
               vcov(ref)[c("1001", "5", "77"), c("1001", "5", "77")], tolerance = 1e-6)

  # predict from long tables with the labels (factor or character) or the numbers
  expected <- predict(ref, numeric, outcomes = outcomes)
  expect_equal(predict(fit, covariates, outcomes = outcomes), expected, tolerance = 1e-8)
  asText <- covariates
  asText$covariateId <- as.character(covariates$covariateId)
  asText$rowId <- as.character(asText$rowId)
  byText <- predict(fit, asText)   # rows in the C-locale order of their labels
  expect_identical(names(byText), sort(names(expected), method = "radix"))
  expect_equal(byText[names(expected)], expected, tolerance = 1e-8)
  expect_equal(predict(fit, numeric), expected, tolerance = 1e-8)

  boot <- runBootstrap(fit, replicates = 5, seed = 1)
  expect_identical(colnames(boot$estimates), names(coef(fit)))
})

test_that("odd identifiers round-trip: negative, 1e15, labels with spaces", {
  sim <- labelData(seed = 72)
  rowIds <- -(seq_len(sim$n)) * 1e9
  numbers <- c(-7, 1e15, 3)
  outcomes <- data.frame(rowId = rowIds, y = sim$y)
  covariates <- data.frame(rowId = rowIds[sim$at[, 1]], covariateId = numbers[sim$at[, 2]],
                           covariateValue = sim$x[sim$at])
  ctl <- createControl(tolerance = 1e-10)
  fit <- fitModel(createData(outcomes, covariates, modelType = "lr"), control = ctl)
  expect_identical(names(coef(fit)), c("(Intercept)", "-7", "3", "1000000000000000"))
  expect_identical(names(predict(fit))[1:2], c("-1000000000", "-2000000000"))
  expect_identical(rownames(confint(fit, 1e15, method = "wald")), "1000000000000000")

  words <- c("drug a", " drug  b", "drug a ")
  text <- covariates
  text$covariateId <- words[sim$at[, 2]]
  text$rowId <- paste("row", sim$at[, 1])
  textOutcomes <- data.frame(rowId = paste("row", seq_len(sim$n)), y = sim$y)
  byText <- fitModel(createData(textOutcomes, text, modelType = "lr"), control = ctl)
  expect_setequal(names(coef(byText)), c("(Intercept)", words))
  expect_equal(unname(coef(byText)[words]), unname(coef(fit)[c("-7", "1000000000000000", "3")]),
               tolerance = 1e-10)
  expect_identical(names(predict(byText))[1:2], c("row 1", "row 2"))
  expect_equal(predict(byText, text, outcomes = textOutcomes), predict(byText),
               tolerance = 1e-10)
  excluded <- fitModel(createData(textOutcomes, text, modelType = "lr"),
                       createPrior("laplace", variance = 1e-4, exclude = "drug a "), control = ctl)
  expect_true(coef(excluded)[["drug a "]] != 0)
  expect_identical(unname(coef(excluded)[words[1:2]]), c(0, 0))
  bad <- text
  bad$covariateId[4] <- ""
  expect_error(createData(textOutcomes, bad, modelType = "lr"), "has an empty label \\(position 4\\)")
  bad$covariateId[4] <- NA
  expect_error(createData(textOutcomes, bad, modelType = "lr"), "has 1 missing value")
})

test_that("the label '(Intercept)' is not a covariate id", {
  long <- data.frame(rowId = c(1, 2, 3), covariateId = c("(Intercept)", "a", "a"))
  expect_error(createData(data.frame(rowId = 1:3, y = c(0, 1, 1)), long, modelType = "lr"),
               "'\\(Intercept\\)' is not a covariate id: it is the name of the intercept")
})

test_that("a factor stratumId is read by its labels", {
  sim <- simulateSccs(nPatients = 120, nDrugs = 3, seed = 73)
  ctl <- createControl(tolerance = 1e-10)
  ref <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"), control = ctl)
  o <- sim$outcomes
  labels <- unique(o$stratumId)
  set.seed(730)
  o$stratumId <- factor(o$stratumId, levels = sample(labels))
  byFactor <- fitModel(createData(o, sim$covariates, modelType = "sccs"), control = ctl)
  expect_equal(coef(byFactor), coef(ref), tolerance = 1e-10)
  expect_identical(byFactor$nStrata, ref$nStrata)
})

# ---- 3. Refused before any fit ------------------------------------------------------------

test_that("all-zero weights are an error", {
  x <- matrix(c(1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1), 6, dimnames = list(NULL, c("a", "b")))
  y <- c(1, 0, 0, 1, 0, 1)
  expect_error(createData(x = x, y = y, weights = rep(0, 6), modelType = "lr"),
               "all 'weights' are zero")
  expect_error(createData(data.frame(rowId = 1:6, y = y, weights = 0),
                          data.frame(rowId = 1:6, covariateId = 1), modelType = "lr"),
               "all 'weights' are zero")
  data <- createData(x = x, y = y, modelType = "lr")
  expect_error(fitModel(data, weights = rep(0, 6)), "all 'weights' are zero")
  # a conditional model whose every outcome has weight 0
  stratum <- c(1, 1, 2, 2, 3, 3)
  noEvent <- ifelse(y > 0, 0, 1)
  expect_error(createData(x = x, y = y, stratumId = stratum, weights = noEvent, modelType = "clr"),
               "every row with an outcome \\(y > 0\\) has weight 0: modelType 'clr'")
  clr <- createData(x = x, y = y, stratumId = stratum, modelType = "clr")
  expect_error(fitModel(clr, weights = noEvent), "every row with an outcome \\(y > 0\\) has weight 0")
})

test_that("more folds than sampling units is an error naming both numbers", {
  set.seed(74)
  x <- matrix(rnorm(200), 100, 2)
  y <- rbinom(100, 1, 0.4)
  lr <- createData(x = x, y = y, modelType = "lr")
  expect_error(createFolds(lr, createControl(fold = 101)),
               "101 folds need at least as many rows \\(the data have 100\\)")
  expect_identical(dim(createFolds(lr, createControl(fold = 100, seed = 1))), c(100L, 1L))
  # byPid without strata: each row its own person, as the incumbent
  expect_identical(unname(createFolds(lr, createControl(selectorType = "byPid", seed = 4))),
                   unname(createFolds(lr, createControl(selectorType = "byRow", seed = 4))))
  expect_identical(attr(createFolds(lr, createControl(selectorType = "byPid", seed = 4)),
                        "selectorType"), "byRow")
  # conditional models sample strata (strata without events are dropped first)
  stratum <- rep(1:20, each = 5)
  y <- rep(c(1, 0, 0, 0, 0), 20)
  y[stratum == 3] <- 0
  clr <- createData(x = x, y = y, stratumId = stratum, modelType = "clr")
  expect_identical(clr$nStrata, 19L)
  expect_error(createFolds(clr, createControl(fold = 20)),
               "20 folds need at least as many strata \\(the data have 19\\)")
  expect_error(fitModel(clr, createPrior("normal", useCrossValidation = TRUE),
                        createControl(fold = 20)),
               "20 folds need at least as many strata \\(the data have 19\\)")
  expect_identical(attr(createFolds(clr, createControl(fold = 20, selectorType = "byRow")),
                        "selectorType"), "byRow")
  # a stratified Cox model samples rows under "auto", strata under "byPid"
  cox <- createData(x = x, y = y, time = seq_len(100), stratumId = rep(1:4, 25), modelType = "cox", ties = "breslow")
  expect_identical(attr(createFolds(cox, createControl(fold = 10, seed = 1)), "selectorType"),
                   "byRow")
  expect_error(createFolds(cox, createControl(fold = 5, selectorType = "byPid")),
               "5 folds need at least as many strata \\(the data have 4\\)")
})

test_that("absurd cvRepetitions are refused before anything is allocated", {
  x <- matrix(rnorm(200), 100, 2)
  data <- createData(x = x, y = rbinom(100, 1, 0.4), modelType = "lr")
  expect_error(createFolds(data, createControl(cvRepetitions = 1e8)),
               paste("cvRepetitions = 100000000 on 100 rows needs a fold plan of 1e\\+10",
                     "entries, more than the limit of 2\\^31 - 1"))
  expect_error(fitModel(data, createPrior("normal", useCrossValidation = TRUE),
                        createControl(cvRepetitions = 1e8)), "more than the limit of 2\\^31 - 1")
  expect_error(createControl(cvRepetitions = 1e10), "'cvRepetitions' must be between 1 and")
  expect_error(createControl(cvRepetitions = 2.5), "'cvRepetitions' must be a whole number")
  expect_error(createControl(fold = 1e10), "'fold' must be between 2 and")
})

test_that("covariates of extreme scale are refused, naming the column", {
  set.seed(75)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("small", "big")))
  y <- rbinom(100, 1, 0.4)
  huge <- x
  huge[, "big"] <- huge[, "big"] * 1e101
  expect_error(createData(x = huge, y = y, modelType = "lr"),
               "covariate 'big' has a largest absolute value of .*e\\+10[0-9], outside \\[1e-100, 1e100\\].*rescale it")
  tiny <- x
  tiny[, "small"] <- tiny[, "small"] * 1e-101
  expect_error(createData(x = Matrix::Matrix(tiny, sparse = TRUE), y = y, modelType = "lr"),
               "covariate 'small' has a largest absolute value of .*e-10[0-9], outside")
  # one tiny entry in a column of ordinary size is fine
  fine <- x
  fine[1, "small"] <- 1e-200
  expect_silent(createData(x = fine, y = y, modelType = "lr"))
  long <- data.frame(rowId = 1:100, covariateId = rep(c(11, 12), 50),
                     covariateValue = c(1e150, rep(1, 99)))
  expect_error(createData(data.frame(rowId = 1:100, y = y), long, modelType = "lr"),
               "covariate '11' has a largest absolute value of 1e\\+150")
})

# ---- 4. Unused arguments are errors -------------------------------------------------------

test_that("arguments that a method does not use are an error, naming them", {
  set.seed(76)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(100, 1, plogis(x[, 1]))
  data <- createData(x = x, y = y, modelType = "lr")
  fit <- fitModel(data)
  o <- data.frame(rowId = 1:3)
  cv <- data.frame(rowId = 1:3, covariateId = 1)
  expect_error(predict(fit, newOutcomes = o, newCovariates = cv),
               "predict\\(\\): unused argument\\(s\\): newOutcomes, newCovariates", fixed = FALSE)
  expect_error(confint(fit, "a", nonsense = 1), "confint\\(\\): unused argument\\(s\\): nonsense")
  expect_error(vcov(fit, 1), "vcov\\(\\): unused argument\\(s\\): unnamed argument 1 \\(1\\)")
  expect_error(coef(fit, complete = TRUE), "coef\\(\\): unused argument\\(s\\): complete")
  expect_error(logLik(fit, REML = TRUE), "logLik\\(\\): unused argument\\(s\\): REML")
  expect_error(summary(fit, correlation = TRUE), "summary\\(\\): unused argument\\(s\\): correlation")
  expect_error(summary(data, x), "summary\\(\\): unused argument\\(s\\): unnamed argument 1 \\(x\\)")
  expect_error(print(fit, digts = 3), "print\\(\\): unused argument\\(s\\): digts")
  expect_error(print(summary(fit), foo = 1), "print\\(\\): unused argument\\(s\\): foo")
  expect_error(print(data, foo = 1), "print\\(\\): unused argument\\(s\\): foo")
  expect_error(print(summary(data), foo = 1), "unused argument\\(s\\): foo")
  expect_error(print(createPrior(), foo = 1), "unused argument\\(s\\): foo")
  expect_error(print(createControl(), foo = 1), "unused argument\\(s\\): foo")
  # digits, the print generic's own argument, is used where numbers are printed
  expect_output(print(fit, digits = 3), sprintf("%.3g", coef(fit)[["a"]]), fixed = TRUE)
  expect_output(print(summary(fit), digits = 3), "status")
  expect_output(print(data, digits = 3), "modelType 'lr'")
  boot <- runBootstrap(fit, replicates = 5, seed = 1)
  expect_output(print(boot, digits = 2), "percentile intervals")
  expect_error(print(boot, level = 0.9), "unused argument\\(s\\): level")
  # plot() passes its extra arguments on to graphics::plot()
  cvFit <- fitModel(data, createPrior("normal", useCrossValidation = TRUE),
                    createControl(fold = 4, seed = 1))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_silent(plot(cvFit, col = "red"))
})

# ---- 5. sccs and cpr need time ------------------------------------------------------------

test_that("sccs and cpr without time are an error on every route", {
  sim <- simulateSccs(nPatients = 60, nDrugs = 3, seed = 77)
  message <- "modelType '%s' needs each row's exposure length in 'time'.*time = 1"
  noTime <- sim$outcomes[, setdiff(names(sim$outcomes), "time")]
  for (model in c("sccs", "cpr")) {
    expect_error(createData(noTime, sim$covariates, modelType = model), sprintf(message, model))
    expect_error(createData(x = sim$x, y = sim$y, stratumId = sim$stratumId, modelType = model),
                 sprintf(message, model))
    expect_error(createData(y ~ drug1 + drug2 + drug3 + strata(stratumId), data = sim$frame,
                            modelType = model), sprintf(message, model))
    # time = 1 says "equal exposure", and is then the same as a constant exposure
    ones <- fitModel(createData(x = sim$x, y = sim$y, stratumId = sim$stratumId,
                                time = rep(1, length(sim$y)), modelType = model))
    sevens <- fitModel(createData(x = sim$x, y = sim$y, stratumId = sim$stratumId,
                                  time = rep(7, length(sim$y)), modelType = model))
    expect_equal(coef(ones), coef(sevens), tolerance = 1e-8)
  }
  # clr has no exposure and needs none
  expect_s3_class(createData(x = sim$x, y = as.numeric(sim$y > 0), stratumId = sim$stratumId,
                             modelType = "clr"), "argusData")
})

# ---- 6. Surv() status read as survival reads it -------------------------------------------

test_that("cox with Surv(time, status) coded 1/2 (survival::lung) equals coxph", {
  skip_if_not_installed("survival")
  lung <- survival::lung
  ref <- survival::coxph(survival::Surv(time, status) ~ age + sex, lung, ties = "breslow")
  ctl <- createControl(tolerance = 1e-10)
  fit <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow"),
                  control = ctl)
  expect_equal(coef(fit), coef(ref), tolerance = 1e-5)
  expect_identical(sum(fit$data$y), as.numeric(sum(lung$status == 2)))
  # the same fit from a logical status, a 0/1 status, a two-level factor and a 1/2 counting
  # process Surv(start, stop, status)
  lung$dead <- lung$status == 2
  lung$event <- lung$status - 1
  lung$state <- factor(lung$status, labels = c("alive", "dead"))
  lung$start <- 0
  for (formula in list(Surv(time, dead) ~ age + sex, Surv(time, event) ~ age + sex,
                       Surv(time, state) ~ age + sex, Surv(start, time, status) ~ age + sex)) {
    other <- fitModel(createData(formula, data = lung, modelType = "cox", ties = "breslow"), control = ctl)
    expect_equal(coef(other), coef(fit), tolerance = 1e-8)
  }
})

test_that("a cox status that is neither 0/1 nor 1/2 is an error naming the row", {
  frame <- data.frame(time = c(5, 8, 3, 9, 2, 7), a = c(1, 0, 1, 1, 0, 0),
                      status = c(1, 2, 0, 1, 2, 1))
  expect_error(createData(Surv(time, status) ~ a, data = frame, modelType = "cox", ties = "breslow"),
               paste("the Surv\\(\\) status of row 3 is 0: modelType 'cox' reads statuses 0/1",
                     "\\(0 censored\\) or 1/2 .*competing risks: modelType 'fgr'"))
  frame$status <- c(1, 0, 1, 3, 0, 1)
  expect_error(createData(Surv(time, status) ~ a, data = frame, modelType = "cox", ties = "breslow"),
               "the Surv\\(\\) status of row 4 is 3")
  # fgr keeps 0/1/2 as censored/event/competing, and refuses a status without any 0
  frame$status <- c(1, 2, 0, 1, 2, 1)
  fgr <- createData(Surv(time, status) ~ a, data = frame, modelType = "fgr")
  expect_identical(sort(fgr$y), c(0, 1, 1, 1, 2, 2))
  frame$status <- c(1, 2, 2, 1, 2, 1)
  expect_error(createData(Surv(time, status) ~ a, data = frame, modelType = "fgr"),
               "the Surv\\(\\) status of modelType 'fgr' has no 0 \\(censored\\)")
})

# ---- Other arguments that were silently ignored --------------------------------------------

test_that("createData() refuses arguments that the chosen route does not read", {
  sim <- simulateSccs(nPatients = 40, nDrugs = 3, seed = 78)
  noTime <- sim$outcomes[, setdiff(names(sim$outcomes), "time")]
  expect_error(createData(noTime, sim$covariates, time = sim$time, modelType = "sccs"),
               paste("createData\\(\\) does not use 'time' with 'outcomes': the long route reads",
                     "each row's values from columns of 'outcomes'"))
  expect_error(createData(sim$outcomes, sim$covariates, weights = rep(2, nrow(sim$outcomes)),
                          stratumId = sim$stratumId, modelType = "sccs"),
               "does not use 'stratumId', 'weights' with 'outcomes'")
  expect_error(createData(x = sim$x, y = sim$y, covariates = sim$covariates, time = sim$time,
                          stratumId = sim$stratumId, modelType = "sccs"),
               "does not use 'covariates' with 'x'")
  formula <- y ~ drug1 + drug2 + strata(stratumId)
  expect_error(createData(formula, data = sim$frame, time = sim$time, offset = rep(0, length(sim$y)),
                          modelType = "sccs"),
               "does not use 'offset' with a formula: .*offset\\(\\) terms")
  expect_error(createData(formula, sim$frame, time = sim$time, modelType = "sccs"),
               "does not use 'covariates' with a formula")
  expect_error(createData(formula, data = sim$frame, time = sim$time, stratumId = sim$stratumId,
                          modelType = "sccs"),
               "give the strata once: a strata\\(\\) term in the formula or 'stratumId', not both")
})

test_that("named starting values must all name covariates of the data", {
  set.seed(79)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
  data <- createData(x = x, y = rbinom(100, 1, 0.4), modelType = "lr")
  expect_error(fitModel(data, startingCoefficients = c("(Intercept)" = 0, a = 1, b = 0, bb = 3)),
               "'startingCoefficients' names covariate\\(s\\) not in the data: bb")
  expect_error(fitModel(data, startingCoefficients = c("(Intercept)" = 0, a = 1, a = 2, b = 0)),
               "'startingCoefficients' names covariate 'a' twice")
})

test_that("a long newdata table may give each (row, covariate) pair once", {
  outcomes <- data.frame(rowId = 1:6, y = c(1, 0, 0, 1, 0, 1))
  covariates <- data.frame(rowId = c(1, 2, 3, 5, 6), covariateId = c(10, 10, 11, 11, 10),
                           covariateValue = c(1, 2, 1, 1, 3))
  # covariate 11 sits on two rows with y = 0 only: no finite estimate (said, not guessed)
  expect_warning(fit <- fitModel(createData(outcomes, covariates, modelType = "lr")),
                 "the coefficient\\(s\\) of '11' run off to infinity")
  expect_equal(predict(fit, covariates, outcomes = outcomes), predict(fit), tolerance = 1e-12)
  twice <- rbind(covariates, covariates[4, ])
  expect_error(predict(fit, twice, outcomes = outcomes),
               "covariate '11' appears more than once for row 5 of 'newdata'")
  # a repeated pair whose extra value is 0 adds nothing: taken, as createData() takes it
  zero <- rbind(covariates, data.frame(rowId = 5, covariateId = 11, covariateValue = 0))
  expect_equal(predict(fit, zero, outcomes = outcomes), predict(fit), tolerance = 1e-12)
  expect_equal(createData(outcomes, zero, modelType = "lr")$design, createData(outcomes, covariates, modelType = "lr")$design)
})

test_that("optional columns are read by their exact names; a near miss is named in a warning", {
  # `$` on a data frame matches partially: an 'offsetDays' bookkeeping column was read as the
  # offset and 'weightsVersion' as the weights (coefficients -20.0 and 8.7 instead of glm's).
  set.seed(1)
  n <- 500
  x <- rbinom(n, 1, 0.4)
  y <- rbinom(n, 1, plogis(-0.5 + x))
  cov <- data.frame(rowId = which(x == 1), covariateId = 1001, covariateValueNote = "x")
  out <- data.frame(rowId = 1:n, y = y, offsetDays = sample(0:30, n, TRUE), weightsVersion = 2,
                    timeStamp = 5, stratumIdOld = 1)
  fit <- fitModel(createData(out, cov, modelType = "lr"))
  ref <- stats::glm(y ~ x, family = stats::binomial())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  expect_false(fit$weighted)
  expect_equal(unname(predict(fit, cov, outcomes = out[, c("rowId", "offsetDays")])),
               unname(stats::fitted(ref)), tolerance = 1e-6)
  # the incumbent reads a 'weight' column as the weights: here it is an error, not a fit
  # without them (a warning, then an unweighted fit: intercept -0.104 for the weighted -0.196)
  w <- ifelse(x == 1 & y == 1, 5, 1)
  expect_error(createData(data.frame(rowId = 1:n, y = y, weight = w), cov, modelType = "lr"),
               "column 'weight', which Cyclops reads as the rows' weights.*rename it 'weights'")
  weighted <- fitModel(createData(data.frame(rowId = 1:n, y = y, weights = w), cov, modelType = "lr"))
  expect_equal(unname(coef(weighted)),
               unname(coef(suppressWarnings(stats::glm(y ~ x, family = stats::binomial(), weights = w)))),
               tolerance = 1e-6)
  expect_warning(createData(data.frame(rowId = 1:n, y = y, Offset = 1), cov, modelType = "lr"),
                 "did you mean 'offset'")
})

test_that("snake_case names of the optional columns are read (OHDSI's database spelling); near misses said", {
  # 'stratum_id' left a Cox fit unstratified in silence (0.331 = coxph without strata, where
  # coxph with them gives 0.535); 'covariate_value' made every value 1. They were then near
  # misses, named in a warning; now OHDSI's snake_case names are read as the camelCase ones.
  set.seed(11)
  n <- 400
  z <- rnorm(n)
  stratum <- rep(1:4, each = n / 4)
  time <- rexp(n, exp(0.5 * z + stratum))
  out <- data.frame(rowId = 1:n, y = 1, time = time, stratum_id = stratum)
  cov <- data.frame(rowId = 1:n, covariateId = 1, covariate_value = z)
  camel <- createData(data.frame(rowId = 1:n, y = 1, time = time, stratumId = stratum),
                      data.frame(rowId = 1:n, covariateId = 1, covariateValue = z),
                      modelType = "cox", ties = "breslow")
  expect_no_warning(snake <- createData(out, cov, modelType = "cox", ties = "breslow"))
  expect_equal(coef(fitModel(snake)), coef(fitModel(camel)))
  expect_equal(snake$nStrata, 4)
  expect_warning(createData(data.frame(rowId = 1:n, y = 1, time = time, StartTime = 0), cov[, 1:2],
                            modelType = "cox", ties = "breslow"), "did you mean 'startTime'")
  # a Fine-Gray table with the incumbent's censoring weights is an error
  expect_error(createData(data.frame(rowId = 1:n, y = rep(0:2, length.out = n), time = time,
                                     censorWeight = 1), cov[, 1:2], modelType = "fgr"),
               "'censorWeight'.*does not read")
})

test_that("weights = an expression mixing columns and other variables is evaluated in data, as lm", {
  # pmin(iptw, cap): iptw a column, cap a variable. Evaluated in the caller, a stale global
  # 'iptw' (from before the data were reordered) was used, with SUCCESS.
  set.seed(3)
  cohort <- data.frame(x = rbinom(400, 1, 0.5))
  cohort$y <- rbinom(400, 1, plogis(-1 + cohort$x))
  cohort$iptw <- runif(400, 0.5, 20)
  iptw <- cohort$iptw
  cohort <- cohort[order(cohort$y), ]
  cap <- 10
  fit <- fitModel(createData(y ~ x, data = cohort, modelType = "lr", weights = pmin(iptw, cap)))
  ref <- suppressWarnings(stats::glm(y ~ x, data = cohort, family = stats::binomial(),
                                     weights = pmin(iptw, cap)))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
})

test_that("a pr formula fit with time = a column predicts counts from new rows' own column", {
  ins <- MASS::Insurance
  fit <- fitModel(createData(Claims ~ District + Group + Age, data = ins, modelType = "pr",
                             time = Holders))
  ref <- stats::glm(Claims ~ District + Group + Age + offset(log(Holders)), data = ins,
                    family = stats::poisson())
  expect_equal(unname(predict(fit, ins[1:5, ])), unname(stats::fitted(ref)[1:5]), tolerance = 1e-6)
  expect_equal(unname(predict(fit, ins[1:5, ], time = rep(1, 5))),
               unname(stats::fitted(ref)[1:5] / ins$Holders[1:5]), tolerance = 1e-6)
  expect_error(predict(fit, ins[1:5, setdiff(names(ins), "Holders")]),
               "'newdata' has no column 'Holders'")
})

test_that("ids as doubles go up to 2^53 - 1, as the help says; 2^53 itself is refused, saying why", {
  # Issue 38: the help said "up to 2^53" and rowId = 2^53 was refused. The double 2^53 is
  # exact, but it is also what 2^53 + 1 rounds to: it stands for two ids, so the code is right
  # and the help now says "below 2^53".
  big <- 2^53 - 1
  outcomes <- data.frame(rowId = c(big, 1, 2), y = c(0, 1, 1))
  covariates <- data.frame(rowId = c(big, 1, 2), covariateId = c(big, big, 5), covariateValue = c(1, 2, 3))
  d <- createData(outcomes, covariates, modelType = "lr", addIntercept = FALSE)
  expect_equal(d$rowIds, c(big, 1, 2))
  expect_true(format(big, scientific = FALSE) %in% d$columnNames)
  outcomes$rowId[1] <- 2^53
  expect_error(createData(outcomes, transform(covariates, rowId = c(2^53, 1, 2)), modelType = "lr"),
               "'outcomes\\$rowId' has values too large for doubles; use bit64::integer64 or text \\(from 2\\^53 on .* 2\\^53 \\+ 1 is read as 2\\^53\\)")
  expect_identical(2^53 + 1, 2^53)  # why
  # the help says so
  rd <- tools::Rd_db("Argus")[["createData.Rd"]]
  help <- paste(utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE))), collapse = " ")
  help <- gsub("\\s+", " ", help)
  expect_match(help, "below 2^53 in absolute value", fixed = TRUE)
  expect_false(grepl("up to 2^53", help, fixed = TRUE))
})
