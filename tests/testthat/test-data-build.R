# The design built from long tables (issue 14's fast paths: ids read in place, checks in one
# pass, entries sorted by covariate stored without sorting, rows mapped in the engine) against
# a Matrix::sparseMatrix built independently from the same tables, on odd ids and orders.

# The design in the user's row order as a dense matrix with its column names.
userDesign <- function(d) {
  internal <- as.matrix(Argus:::designColumns(d))
  out <- internal
  out[d$order, ] <- internal
  out
}

# The reference: outcomes' row order, columns by increasing id (labels: C-locale order),
# the intercept first where the model has one.
referenceDesign <- function(outcomes, covariates, intercept) {
  ids <- unique(covariates$covariateId)
  ids <- if (is.character(ids)) sort(ids, method = "radix") else sort(ids)
  x <- as.matrix(Matrix::sparseMatrix(
    i = match(covariates$rowId, outcomes$rowId), j = match(covariates$covariateId, ids),
    x = covariates$covariateValue, dims = c(nrow(outcomes), length(ids))))
  labels <- if (is.character(ids)) ids else formatC(ids, format = "f", digits = 0, big.mark = "")
  colnames(x) <- labels
  if (intercept) x <- cbind(`(Intercept)` = 1, x)
  x
}

oddTables <- function(seed, idType = c("double", "integer", "character"), n = 60) {
  idType <- match.arg(idType)
  set.seed(seed)
  rowIds <- sample(1e6, n) * 7 + 3                      # non-contiguous, unsorted
  ids <- c(5e12 + 11, 17, 4, 2^40, 900, 33)             # spread ids: hashed, not a table
  if (idType == "integer") { rowIds <- as.integer(rowIds %% 1e7); ids <- c(17L, 4L, 900L, 33L, 123456L, 8L) }
  if (idType == "character") ids <- c("b10", "B2", "a", "zeta", "b9", "_x")
  entries <- do.call(rbind, lapply(seq_along(ids), function(k) {
    fill <- c(0.1, 0.5, 0.05, 0.4, 0.2, 0.3)[k]        # sparse, dense, indicator columns
    rows <- sample(n, max(1, round(fill * n)))
    value <- if (k %% 2 == 0) 1 else round(rnorm(length(rows)), 3)
    data.frame(rowId = rowIds[rows], covariateId = ids[k], covariateValue = value,
               stringsAsFactors = FALSE)
  }))
  entries$covariateValue[c(2, 9)] <- 0                 # explicit zeros carry nothing
  list(outcomes = data.frame(rowId = rowIds, y = rbinom(n, 1, 0.4)), covariates = entries)
}

test_that("lr / pr / ls designs from long tables equal an independent sparseMatrix", {
  for (idType in c("double", "integer", "character")) {
    t <- oddTables(3, idType)
    cv <- t$covariates
    byCovariate <- cv[order(cv$covariateId, match(cv$rowId, t$outcomes$rowId)), ]
    shuffled <- cv[sample(nrow(cv)), ]
    for (model in c("lr", "pr", "ls")) {
      ref <- referenceDesign(t$outcomes, cv, intercept = TRUE)
      for (input in list(byCovariate, shuffled, cv)) {
        d <- createData(t$outcomes, input, modelType = model)
        expect_identical(d$columnNames, colnames(ref))
        expect_equal(userDesign(d), unname(ref), ignore_attr = TRUE, tolerance = 0)
        expect_identical(d$rowIds, t$outcomes$rowId)
        expect_equal(d$dropped$zeros, 2)
      }
      noIntercept <- createData(t$outcomes, shuffled, modelType = model, addIntercept = FALSE)
      expect_equal(userDesign(noIntercept),
                   unname(referenceDesign(t$outcomes, cv, intercept = FALSE)),
                   ignore_attr = TRUE, tolerance = 0)
    }
  }
})

test_that("a survival plan's row map gives the same design in every input order", {
  t <- oddTables(4)
  t$outcomes$time <- rexp(nrow(t$outcomes)) + 0.1
  t$outcomes$y[1:3] <- 1
  cv <- t$covariates
  ref <- referenceDesign(t$outcomes, cv, intercept = FALSE)
  for (input in list(cv[order(cv$covariateId, cv$rowId), ], cv[sample(nrow(cv)), ])) {
    d <- createData(t$outcomes, input, modelType = "cox")
    expect_false(identical(d$order, seq_along(d$order)))  # rows are reordered by time
    expect_equal(userDesign(d), unname(ref), ignore_attr = TRUE, tolerance = 0)
  }
})

test_that("an lr fit from long tables with odd ids equals glm", {
  t <- oddTables(5, n = 600)
  fit <- fitModel(createData(t$outcomes, t$covariates[sample(nrow(t$covariates)), ],
                             modelType = "lr"), control = tightControl())
  x <- referenceDesign(t$outcomes, t$covariates, intercept = FALSE)
  ref <- glm(t$outcomes$y ~ x, family = binomial())
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-5)
})

test_that("bad identifiers and values give the same errors as before the fast checks", {
  t <- oddTables(6)
  o <- t$outcomes
  cv <- t$covariates
  bad <- function(column, at, value) { cv[[column]][at] <- value; cv }
  expect_error(createData(o, bad("covariateId", 4, 2.5), modelType = "lr"),
               "^'covariates\\$covariateId' must hold whole numbers$")
  expect_error(createData(o, bad("covariateId", c(4, 8), c(Inf, NA)), modelType = "lr"),
               "'covariates\\$covariateId' has 2 missing or non-finite value\\(s\\), the first at position 4")
  expect_error(createData(o, bad("covariateId", 5, 2^53 + 2), modelType = "lr"),
               "'covariates\\$covariateId' has values too large for doubles; use bit64::integer64")
  expect_error(createData(o, bad("covariateId", 5, -2^54), modelType = "lr"),
               "values too large for doubles")
  integerIds <- oddTables(6, "integer")
  naRow <- integerIds$covariates
  naRow$rowId[c(3, 7)] <- NA
  expect_error(createData(integerIds$outcomes, naRow, modelType = "lr"),
               "'covariates\\$rowId' has 2 missing or non-finite value\\(s\\), the first at position 3")
  expect_error(createData(o, bad("covariateValue", 6, NaN), modelType = "lr"),
               "'covariates\\$covariateValue' has 1 missing or non-finite value\\(s\\), the first at position 6")
  first <- cv$covariateId == cv$covariateId[1]
  expect_error(createData(o, bad("covariateValue", which(first), 1e-120), modelType = "lr"),
               sprintf("covariate '%s' has a largest absolute value of 1e-120",
                       Argus:::idLabel(cv$covariateId[1])))
  # one tiny value in a column of ordinary ones is no error (the column's largest decides)
  expect_s3_class(createData(o, bad("covariateValue", 1, 1e-120), modelType = "lr"), "argusData")
  expect_error(createData(o, bad("covariateValue", nrow(cv), -1e120), modelType = "lr"),
               sprintf("covariate '%s' has a largest absolute value of 1e\\+120",
                       Argus:::idLabel(cv$covariateId[nrow(cv)])))
  twice <- rbind(cv, cv[7, ])
  for (input in list(twice[order(twice$covariateId, twice$rowId), ], twice[sample(nrow(twice)), ]))
    expect_error(createData(o, input, modelType = "lr"),
                 sprintf("covariate '%s' appears more than once for row %s",
                         Argus:::idLabel(cv$covariateId[7]), Argus:::idLabel(cv$rowId[7])))
  expect_error(createData(o, bad("rowId", 2, 1), modelType = "lr"),
               "covariates\\$rowId 1 does not appear in outcomes\\$rowId \\(1 covariate rows are unmatched\\)")
})
