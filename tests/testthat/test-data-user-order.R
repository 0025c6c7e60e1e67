# Tables already in the engine's order (rows sorted by stratum with every stratum kept; the
# covariates sorted by covariateId then rowId, none zero, none dense) are used as they are:
# the row plan keeps the user's order (no permuted copies) and the design's rows are the
# input's own (that no copy is written is checked in tests/cpp/design_rows_input_test.cpp;
# here, that the rows and fits are right). The data and fits must be those of the same tables in another order, which
# take the mapped and sorted paths.

sortedSccs <- function(seed, nCases = 150, drugs = 6) {
  set.seed(seed)
  eras <- 1 + rpois(nCases, 3)
  stratumId <- rep(seq_len(nCases) * 10 + 7, eras)      # sorted, not 0..n-1
  n <- length(stratumId)
  x <- matrix(rbinom(n * drugs, 1, 0.12), n, drugs)
  time <- ceiling(rexp(n, 1 / 40))
  y <- rpois(n, time / 60 * exp(x %*% c(0.5, -0.3, 0, 0.2, 0, 0.4)))
  y[!duplicated(stratumId)] <- y[!duplicated(stratumId)] + 1  # every case has an event
  outcomes <- data.frame(rowId = seq_len(n), stratumId = stratumId, time = time, y = y)
  nz <- which(x != 0, arr.ind = TRUE)
  nz <- nz[order(nz[, "col"], nz[, "row"]), , drop = FALSE]
  covariates <- data.frame(rowId = nz[, "row"], covariateId = nz[, "col"] * 100,
                           covariateValue = 1)
  list(outcomes = outcomes, covariates = covariates)
}

fitOf <- function(outcomes, covariates, model, prior = createPrior("none")) {
  fitModel(createData(outcomes, covariates, modelType = model), prior = prior)
}

test_that("sccs tables in the engine's order are used as they are and fit as any order", {
  t <- sortedSccs(11)
  d <- createData(t$outcomes, t$covariates, modelType = "sccs")
  expect_identical(d$order, seq_len(nrow(t$outcomes)))
  expect_identical(d$y, as.double(t$outcomes$y))
  expect_identical(d$design$rows, as.integer(t$covariates$rowId - 1L))  # the input's rows
  sorted <- fitOf(t$outcomes, t$covariates, "sccs")
  expect_identical(sorted$status, "SUCCESS")

  set.seed(2)
  shuffledRows <- t$outcomes[sample(nrow(t$outcomes)), ]
  shuffledEntries <- t$covariates[sample(nrow(t$covariates)), ]
  other <- createData(shuffledRows, shuffledEntries, modelType = "sccs")
  expect_false(identical(other$order, seq_along(other$order)))
  reordered <- fitModel(other, prior = createPrior("none"))
  expect_equal(coef(reordered), coef(sorted), tolerance = 1e-10)
  expect_equal(reordered$logLikelihood, sorted$logLikelihood, tolerance = 1e-12)
  # per-row results follow each table's own rows
  p <- predict(sorted, type = "link")
  q <- predict(reordered, type = "link")
  expect_equal(q[match(t$outcomes$rowId, shuffledRows$rowId)], p, tolerance = 1e-10,
               ignore_attr = TRUE)
  # the same table sorted by row instead (the design's rows sorted and written, not shared)
  byRow <- t$covariates[order(t$covariates$rowId, t$covariates$covariateId), ]
  expect_equal(coef(fitOf(t$outcomes, byRow, "sccs")), coef(sorted), tolerance = 1e-12)
})

test_that("sorted tables that the engine still reorders or trims give the same fit", {
  t <- sortedSccs(12)
  base <- fitOf(t$outcomes, t$covariates, "sccs")
  # grouped but descending stratum ids: the plan puts the strata in code order
  down <- t$outcomes
  down$stratumId <- 1e4 - down$stratumId
  d <- createData(down, t$covariates, modelType = "sccs")
  expect_false(identical(d$order, seq_along(d$order)))
  expect_equal(coef(fitModel(d, prior = createPrior("none"))), coef(base), tolerance = 1e-10)
  # a stratum without events is dropped: the rows after it move up
  noEvents <- t$outcomes
  first <- noEvents$stratumId == noEvents$stratumId[1]
  noEvents$y[first] <- 0
  d <- suppressWarnings(createData(noEvents, t$covariates, modelType = "sccs"))
  expect_equal(d$dropped$strata, 1)
  expect_equal(length(d$order), sum(!first))
  kept <- noEvents[!first, ]
  keptEntries <- t$covariates[t$covariates$rowId %in% kept$rowId, ]
  expect_equal(coef(fitModel(d, prior = createPrior("none"))),
               coef(fitOf(kept, keptEntries, "sccs")), tolerance = 1e-10)
})

test_that("an lr table in covariate order keeps its rows and fits as glm", {
  set.seed(13)
  n <- 400
  x <- matrix(rbinom(n * 5, 1, 0.15), n, 5)
  y <- rbinom(n, 1, plogis(-0.5 + x %*% c(0.8, -0.6, 0.3, 0, 0.5)))
  nz <- which(x != 0, arr.ind = TRUE)
  nz <- nz[order(nz[, "col"], nz[, "row"]), , drop = FALSE]
  covariates <- data.frame(rowId = nz[, "row"], covariateId = nz[, "col"])
  d <- createData(data.frame(rowId = seq_len(n), y = y), covariates, modelType = "lr")
  expect_identical(d$order, seq_len(n))
  expect_identical(d$design$rows, as.integer(covariates$rowId - 1L))
  fit <- fitModel(d, prior = createPrior("none"), control = createControl(tolerance = 1e-10))
  ref <- glm(y ~ x, family = binomial())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-7)
  # a dense column (over a quarter of the rows) is stored as values: rows are written
  dense <- rbind(covariates, data.frame(rowId = seq(1, n, by = 2), covariateId = 9L))
  d2 <- createData(data.frame(rowId = seq_len(n), y = y), dense, modelType = "lr")
  expect_identical(d2$design$rows, as.integer(covariates$rowId - 1L))  # the sparse columns'
  expect_length(d2$design$rows, nrow(covariates))
})

test_that("a repeated pair in a table used as it is gives the same error as in any order", {
  t <- sortedSccs(14)
  cv <- t$covariates
  twice <- rbind(cv[1:5, ], cv[5, ], cv[-(1:5), ])  # entry 5 twice, still in order
  expect_error(createData(t$outcomes, twice, modelType = "sccs"),
               sprintf("covariate '%s' appears more than once for row %s", cv$covariateId[5],
                       cv$rowId[5]), fixed = TRUE)
  expect_error(createData(t$outcomes, twice[sample(nrow(twice)), ], modelType = "sccs"),
               "appears more than once", fixed = TRUE)
})

test_that("dates, times and durations as stratum ids are labels, as before the fast codes", {
  t <- sortedSccs(15)
  base <- coef(fitOf(t$outcomes, t$covariates, "sccs"))
  ids <- t$outcomes$stratumId
  for (stratum in list(as.Date("2020-01-01") + ids, as.POSIXct(ids * 3600, origin = "2020-01-01", tz = "UTC"),
                       as.difftime(ids, units = "days"))) {
    o <- t$outcomes
    o$stratumId <- stratum
    expect_equal(coef(fitOf(o, t$covariates, "sccs")), base, tolerance = 1e-10,
                 info = class(stratum)[1])
  }
})

test_that("a row the engine would read as 'skip' is an error without a row map", {
  expect_error(.Call(Argus:::argus_build_design, 3, c(0L, -1L), c(0L, 0L), NULL, 1L, FALSE, NULL),
               "covariate entry 2 refers to a row that does not exist")
  expect_error(.Call(Argus:::argus_build_design, 3, c(0L, NA_integer_), c(0L, 0L), NULL, 1L, FALSE, NULL),
               "covariate entry 2 refers to a row that does not exist")
})
