# OHDSI's snake_case column names (newer Andromeda objects: row_id, covariate_id,
# covariate_value, stratum_id) are read as Argus's camelCase ones on the long route, for fits
# and predictions; a table with both spellings of a column is refused.

snakeCase <- function(df) {
  names(df) <- c(rowId = "row_id", covariateId = "covariate_id", covariateValue = "covariate_value",
                 stratumId = "stratum_id", startTime = "start_time", y = "y", time = "time")[names(df)]
  df
}

test_that("snake_case outcomes and covariates give the camelCase fit", {
  sim <- Argus::simulateSccs(100, 5, seed = 4)
  camel <- fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"))
  snake <- fitModel(createData(snakeCase(sim$outcomes), snakeCase(sim$covariates), modelType = "sccs"))
  expect_identical(coef(snake), coef(camel))
  expect_identical(snake$logLikelihood, camel$logLikelihood)
  # tibbles alike, and predict() with snake_case new tables
  skip_if_not_installed("tibble")
  outcomes <- data.frame(rowId = 1:8, y = c(1, 0, 1, 0, 0, 1, 1, 0))
  covariates <- data.frame(rowId = c(1, 2, 3, 5, 6, 7), covariateId = c(10, 10, 11, 11, 10, 11),
                           covariateValue = c(1, 2, 1, 3, 1, 2))
  fit <- fitModel(createData(tibble::as_tibble(snakeCase(outcomes)), tibble::as_tibble(snakeCase(covariates)),
                             modelType = "lr"))
  expect_identical(coef(fit), coef(fitModel(createData(outcomes, covariates, modelType = "lr"))))
  expect_identical(predict(fit, snakeCase(covariates), outcomes = snakeCase(outcomes)),
                   predict(fit, covariates, outcomes = outcomes))
})

test_that("both spellings of one column are an error naming them", {
  outcomes <- data.frame(rowId = 1:4, row_id = 1:4, y = c(1, 0, 1, 0))
  covariates <- data.frame(rowId = 1:4, covariateId = 1, covariateValue = c(1, 2, 3, 1))
  expect_error(createData(outcomes, covariates, modelType = "lr"),
               "'outcomes' has both 'row_id' and 'rowId'", fixed = TRUE)
  covariates$covariate_value <- 1
  expect_error(createData(outcomes[-2], covariates, modelType = "lr"),
               "'covariates' has both 'covariate_value' and 'covariateValue'", fixed = TRUE)
})

test_that("snake_case database tables are read as camelCase ones", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  sim <- Argus::simulateSccs(100, 5, seed = 4)
  DBI::dbWriteTable(con, "outcomes", snakeCase(sim$outcomes))
  DBI::dbWriteTable(con, "covariates", snakeCase(sim$covariates))
  fit <- fitModel(createData(dplyr::tbl(con, "outcomes"), dplyr::tbl(con, "covariates"), modelType = "sccs"))
  expect_equal(coef(fit), coef(fitModel(createData(sim$outcomes, sim$covariates, modelType = "sccs"))),
               tolerance = 1e-10)
})
