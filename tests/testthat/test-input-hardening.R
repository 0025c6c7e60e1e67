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
  expect_message(cox <- createData(x = x, y = bw$low, time = time, modelType = "cox"),
                 "dropped: .*survival model \\('cox'\\)")
  expect_identical(cox$columnNames, c("age", "lwt", "smoke"))
  plain <- createData(x = x[, -1], y = bw$low, time = time, modelType = "cox")
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

