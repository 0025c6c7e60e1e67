# createData() and predict() on database tables (RSQLite always; a private PostgreSQL
# server where one can be started): the same data, fits and predictions as the data-frame
# route, covariates read in batches smaller than the table, unsorted tables, integer64
# covariate ids, and the data-frame route's errors for bad rows.

# Shuffled (unsorted) long tables with integer64 covariate ids above 2^32 for lr, cox and
# sccs; `outcomes` comes back sorted by rowId for the data-frame reference.
databaseCase <- function(model, seed = 11) {
  set.seed(seed)
  n <- 400
  p <- 5
  x <- matrix(rbinom(n * p, 1, 0.3), n, p)
  x[, 5] <- round(rnorm(n), 2)
  beta <- c(0.6, -0.4, 0.3, 0, 0.5)
  eta <- drop(x %*% beta)
  rowId <- sample(1e6 + seq_len(n) * 7)
  outcomes <- switch(model,
    lr = data.frame(rowId = rowId, y = rbinom(n, 1, plogis(-0.5 + eta))),
    cox = data.frame(rowId = rowId, y = rbinom(n, 1, 0.7),
                     time = round(rexp(n, exp(eta)) + 0.001, 3)),
    sccs = {
      stratumId <- rep(seq_len(n / 4), each = 4)
      time <- sample(10:300, n, replace = TRUE)
      data.frame(rowId = rowId, stratumId = stratumId, time = time,
                 y = rpois(n, time * exp(-5 + eta)))
    })
  at <- which(x != 0, arr.ind = TRUE)
  ids <- bit64::as.integer64("5000000000") + bit64::as.integer64(c(101, 205, 307, 409, 511))
  covariates <- data.frame(rowId = rowId[at[, 1]], covariateValue = x[at])
  covariates$covariateId <- ids[at[, 2]]
  covariates <- covariates[sample(nrow(covariates)), c("rowId", "covariateId", "covariateValue")]
  list(outcomes = outcomes[order(outcomes$rowId), ], covariates = covariates,
       shuffledOutcomes = outcomes, model = model)
}

fitCase <- function(data) {
  prior <- if (data$modelType == "lr") createPrior("laplace", variance = 0.5) else createPrior("none")
  fitModel(data, prior, createControl(tolerance = 1e-10))
}

# The database route gives the data frame route's data (design, rows), fit and predictions.
expectSameAsDataFrame <- function(con, case, batchSize = 37) {
  tables <- databaseTables(con, outcomes = case$shuffledOutcomes, covariates = case$covariates)
  expect_gt(nrow(case$covariates), 3 * batchSize)  # several batches
  byFrame <- createData(case$outcomes, case$covariates, modelType = case$model)
  byTable <- createData(tables$outcomes, tables$covariates, modelType = case$model,
                        batchSize = batchSize)
  expect_identical(byTable$design, byFrame$design)
  expect_identical(byTable$y, byFrame$y)
  expect_identical(byTable$columnNames, byFrame$columnNames)
  expect_identical(byTable$time, byFrame$time)
  frameFit <- fitCase(byFrame)
  tableFit <- fitCase(byTable)
  expect_identical(coef(tableFit), coef(frameFit))
  expect_identical(names(coef(frameFit)),
                   c(if (case$model == "lr") "(Intercept)",
                     as.character(bit64::as.integer64("5000000000") + c(101, 205, 307, 409, 511))))
  expect_identical(predict(tableFit, tables$covariates, outcomes = tables$outcomes,
                           batchSize = batchSize),
                   predict(frameFit, case$covariates, outcomes = case$outcomes))
  # without outcomes: the sorted distinct rowIds of the covariates table
  expect_identical(predict(tableFit, tables$covariates, batchSize = batchSize),
                   predict(frameFit, case$covariates))
  invisible(tableFit)
}

test_that("RSQLite tables give the data-frame route's data, fits and predictions", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  for (model in c("lr", "cox", "sccs")) {
    fit <- expectSameAsDataFrame(con, databaseCase(model))
    expect_identical(fit$status, "SUCCESS")
  }
  # The lr fit against an independent reference: glm on the same data (flat prior).
  case <- databaseCase("lr")
  tables <- databaseTables(con, outcomes = case$shuffledOutcomes, covariates = case$covariates)
  fit <- fitModel(createData(tables$outcomes, tables$covariates, modelType = "lr",
                             batchSize = 50), control = createControl(tolerance = 1e-10))
  wide <- matrix(0, nrow(case$outcomes), 5)
  wide[cbind(match(case$covariates$rowId, case$outcomes$rowId),
             match(as.character(case$covariates$covariateId), names(coef(fit))[-1]))] <-
    case$covariates$covariateValue
  ref <- glmRef(wide, case$outcomes$y, stats::binomial())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
})

test_that("batch size does not change the data; one-row batches work", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  case <- databaseCase("cox", seed = 3)
  tables <- databaseTables(con, outcomes = case$shuffledOutcomes, covariates = case$covariates)
  whole <- createData(tables$outcomes, tables$covariates, modelType = "cox", batchSize = 1e6)
  ones <- createData(tables$outcomes, tables$covariates, modelType = "cox", batchSize = 1)
  expect_identical(ones$design, whole$design)
  # a data-frame outcomes table with a database covariates table carrying other columns
  extra <- case$covariates
  extra$stratumId <- 1
  extraTable <- databaseTables(con, extra = extra)$extra
  mixed <- createData(case$outcomes, extraTable, modelType = "cox", batchSize = 100)
  expect_identical(mixed$design, whole$design)
  expect_error(createData(tables$outcomes, tables$covariates, modelType = "cox", batchSize = 0),
               "'batchSize' must be between 1")
})

test_that("per-row values after a database createData() are matched by rowId names", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  bw <- MASS::birthwt
  n <- nrow(bw)
  set.seed(4)
  w <- runif(n, 0.2, 3)
  ref <- suppressWarnings(glm(low ~ age + lwt + smoke, family = binomial, data = bw, weights = w))
  perm <- sample(n)  # the table's rows in an order of their own
  # ids of 1e5 and up: names(w) <- rowId writes "1e+05", matched as the number it is
  outcomes <- data.frame(rowId = perm * 1e5, y = bw$low[perm])
  covariates <- data.frame(rowId = rep(seq_len(n) * 1e5, 3), covariateId = rep(c("age", "lwt", "smoke"), each = n),
                           covariateValue = c(bw$age, bw$lwt, bw$smoke))
  tables <- databaseTables(con, outcomes = outcomes, covariates = covariates)
  fromDatabase <- createData(tables$outcomes, tables$covariates, modelType = "lr")
  # the table's order was taken for the rowId-sorted one: weights on the wrong rows (0.38 off glm)
  expect_error(fitModel(fromDatabase, weights = w[perm]), "have no order: name the values by rowId")
  named <- fitModel(fromDatabase, weights = stats::setNames(w[perm], outcomes$rowId))
  expect_equal(unname(coef(named)[names(coef(ref))]), unname(coef(ref)), tolerance = 1e-6)
  # a data frame route takes the same names in any order, and its own order unnamed
  frame <- createData(outcomes, covariates, modelType = "lr")
  expect_equal(coef(fitModel(frame, weights = w[perm])), coef(named), tolerance = 1e-10)
  expect_equal(coef(fitModel(frame, weights = stats::setNames(w, seq_len(n) * 1e5))), coef(named), tolerance = 1e-10)
  # the matrix route's ids are made up: names are not ids there, the order given is used
  X <- cbind(age = bw$age, lwt = bw$lwt, smoke = bw$smoke)
  byMatrix <- createData(x = X, y = bw$low, modelType = "lr")
  expect_equal(coef(fitModel(byMatrix, weights = stats::setNames(w, rev(seq_len(n))))),
               coef(fitModel(byMatrix, weights = w)), tolerance = 1e-12)
  # cluster labels too (robust variance; ages: more clusters than coefficients, where race's 3
  # would warn that the sandwich is singular)
  cluster <- bw$age
  expect_error(vcov(named, type = "robust", cluster = cluster[perm]), "name the values by rowId")
  expect_equal(vcov(named, type = "robust", cluster = stats::setNames(cluster, seq_len(n) * 1e5)),
               vcov(fitModel(frame, weights = w[perm]), type = "robust", cluster = cluster[perm]),
               tolerance = 1e-8)
})

test_that("labels as covariate ids: columns in the C-locale order whatever the database's collation", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  case <- databaseCase("lr", seed = 8)
  labels <- c("b drug", "C drug", "a", "Z", "_x")
  case$covariates$covariateId <- labels[match(as.character(case$covariates$covariateId),
                                             sort(unique(as.character(case$covariates$covariateId))))]
  # a collation that orders the labels otherwise than the C locale (case-insensitive)
  DBI::dbExecute(con, "CREATE TABLE covariates (rowId INTEGER, covariateId TEXT COLLATE NOCASE,
                       covariateValue REAL)")
  DBI::dbAppendTable(con, "covariates", case$covariates)
  DBI::dbWriteTable(con, "outcomes", case$shuffledOutcomes)
  byTable <- createData(dplyr::tbl(con, "outcomes"), dplyr::tbl(con, "covariates"),
                        modelType = "lr", batchSize = 29)
  byFrame <- createData(case$outcomes, case$covariates, modelType = "lr")
  expect_identical(byTable$columnNames, c("(Intercept)", sort(labels, method = "radix")))
  expect_identical(byTable$design, byFrame$design)
  # labels that the collation makes equal are refused, not merged
  DBI::dbExecute(con, "UPDATE covariates SET covariateId = 'c drug' WHERE rowId % 2 = 0 AND covariateId = 'C drug'")
  expect_error(createData(dplyr::tbl(con, "outcomes"), dplyr::tbl(con, "covariates"),
                          modelType = "lr", batchSize = 29),
               "covariateId '[cC] drug' is not among the distinct ids the database reported")
})

test_that("bad rows in database tables get the data-frame route's errors", {
  skipWithoutDatabasePackages()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  outcomes <- data.frame(rowId = 1:6, y = c(1, 0, 1, 0, 0, 1))
  covariates <- data.frame(rowId = c(1, 2, 3, 5, 6, 6), covariateId = c(10, 10, 11, 11, 11, 12),
                           covariateValue = c(1, 2, 3, 4, 5, 6))
  sameError <- function(outcomes, covariates, pattern, batchSize = 2, modelType = "lr") {
    tables <- databaseTables(con, outcomes = outcomes, covariates = covariates)
    expect_error(createData(outcomes, covariates, modelType = modelType), pattern)
    expect_error(createData(tables$outcomes, tables$covariates, modelType = modelType,
                            batchSize = batchSize), pattern)
  }
  unmatched <- covariates
  unmatched$rowId[4:5] <- c(77, 78)
  sameError(outcomes, unmatched,
            "covariates\\$rowId 7[78] does not appear in outcomes\\$rowId \\(2 covariate rows are unmatched\\)")
  twice <- rbind(covariates, data.frame(rowId = 6, covariateId = 11, covariateValue = 9))
  sameError(outcomes, twice, "covariate '11' appears more than once for row 6")
  missingValue <- covariates
  missingValue$covariateValue[6] <- NA
  sameError(outcomes, missingValue,
            "'covariates\\$covariateValue' has 1 missing or non-finite value\\(s\\), the first at position 6")
  badY <- outcomes
  badY$y[4] <- 2
  sameError(badY, covariates, "'y' must be 0 or 1 for modelType 'lr' \\(row 4 is 2\\)")
  duplicated <- outcomes
  duplicated$rowId[2] <- 1
  sameError(duplicated, covariates[-2, ], "'outcomes\\$rowId' must be unique; 1 appears more than once")
  sameError(outcomes, covariates[, c("rowId", "covariateValue")], "'covariates' lacks column\\(s\\) 'covariateId'")
  sameError(outcomes[, c("rowId", "y")], covariates, "needs a 'stratumId' column", modelType = "sccs")
  noRowId <- covariates
  noRowId$rowId[3] <- NA
  sameError(outcomes, noRowId, "'covariates\\$rowId' has 1 missing or non-finite value\\(s\\), the first at position [13]")
  huge <- covariates
  huge$covariateValue[3] <- 1e200
  sameError(outcomes, huge, "covariate '11' has a largest absolute value of 1e\\+200")
  # the position counts rows of the table sorted by covariateId, rowId, across batches
  tables <- databaseTables(con, outcomes = outcomes, covariates = missingValue)
  expect_error(createData(tables$outcomes, tables$covariates, modelType = "lr", batchSize = 1),
               "at position 6 \\(the covariates table is read sorted")
  # predict() checks database newdata as it checks a data frame
  fit <- fitModel(createData(outcomes, covariates, modelType = "lr"), createPrior("normal", 1))
  tables <- databaseTables(con, outcomes = outcomes, covariates = twice)
  expect_error(predict(fit, twice), "covariate '11' appears more than once for row 6")
  expect_error(predict(fit, tables$covariates, batchSize = 1),
               "covariate '11' appears more than once for row 6")
})

test_that("a private PostgreSQL server gives the data-frame route's fits and predictions", {
  skipWithoutDatabasePackages()
  server <- startPostgres()
  if (is.character(server)) skip(paste("PostgreSQL could not be started:", server))
  on.exit(server$stop())
  # dbplyr says once per session that RPostgreSQL uses its old interface; nothing else warns
  oldInterface <- function(w) if (grepl("old dbplyr interface", conditionMessage(w)))
    invokeRestart("muffleWarning")
  for (model in c("lr", "cox", "sccs"))
    withCallingHandlers(expectSameAsDataFrame(server$con, databaseCase(model)),
                        warning = oldInterface)
})
