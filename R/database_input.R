# Database tables (dplyr/dbplyr tables on a DBI connection; Andromeda tables are such
# tables) as input to createData() and predict(). Outcomes (one row per row of the model) are
# read whole; covariates are read in batches of `batchSize` rows from a query that the
# database sorts, so the covariates table is never held whole as an R data frame: each batch
# is checked and appended to the design's (row, column, value) entries, which are
# preallocated from the table's row count (the values only once one is not 1).

isDatabaseTable <- function(x) inherits(x, "tbl_lazy") || inherits(x, "tbl_sql")

needDatabasePackages <- function() {
  for (p in c("DBI", "dplyr", "dbplyr"))
    if (!requireNamespace(p, quietly = TRUE))
      stopf("reading a database table needs the package '%s'", p)
}

checkBatchSize <- function(batchSize) {
  checkScalar(batchSize, "batchSize", lower = 1, upper = .Machine$integer.max, integer = TRUE)
  as.integer(batchSize)
}

# Column names of a database table, and a clear error for missing ones (as needColumns()).
tableColumns <- function(tbl, columns, name) {
  have <- colnames(tbl)
  missing <- setdiff(columns, have)
  if (length(missing))
    stopf("'%s' lacks column(s) %s", name, paste(sprintf("'%s'", missing), collapse = ", "))
  have
}

# integer64 values of a column that is not an identifier (y, time, ...) become doubles; the
# drivers return whole-number columns as integer64 when values are large.
plainColumns <- function(df, ids) {
  df <- as.data.frame(df, stringsAsFactors = FALSE)
  for (name in setdiff(names(df), ids))
    if (isInteger64(df[[name]])) df[[name]] <- as.double(df[[name]])
  df
}

# The outcomes table, read whole, sorted by rowId (the database sorts), as a data frame.
collectOutcomes <- function(outcomes, name = "outcomes") {
  needDatabasePackages()
  tableColumns(outcomes, "rowId", name)
  sorted <- dplyr::arrange(outcomes, !!as.name("rowId"))
  plainColumns(dplyr::collect(sorted), c("rowId", "stratumId"))
}

# Sends the query of the `columns` (sorted by `orderBy`) and calls `each(batch, offset)` for
# every batch of at most `batchSize` rows (offset: rows read before this batch). The result
# set is always cleared.
forEachBatch <- function(tbl, columns, orderBy, batchSize, each) {
  con <- dbplyr::remote_con(tbl)
  sorted <- dplyr::arrange(dplyr::select(tbl, dplyr::all_of(columns)),
                           !!!lapply(orderBy, as.name))
  result <- DBI::dbSendQuery(con, dbplyr::sql_render(sorted))
  on.exit(DBI::dbClearResult(result), add = TRUE)
  offset <- 0
  repeat {
    batch <- DBI::dbFetch(result, n = batchSize)
    if (nrow(batch) == 0) break
    each(plainColumns(batch, c("rowId", "covariateId")), offset)
    offset <- offset + nrow(batch)
    if (DBI::dbHasCompleted(result)) break
  }
  invisible(offset)
}

# Errors about a position in a batch name the position in the whole sorted stream.
inStream <- function(expr, offset) {
  withCallingHandlers(expr, error = function(e) {
    message <- conditionMessage(e)
    shifted <- regmatches(message, regexpr("position [0-9]+", message))
    if (length(shifted) == 0) stop(e)
    at <- as.numeric(sub("position ", "", shifted)) + offset
    stopf("%s (the covariates table is read sorted by covariateId, rowId)",
          sub("position [0-9]+", sprintf("position %.0f", at), message))
  })
}

tableRowCount <- function(tbl) {
  n <- dplyr::pull(dplyr::collect(dplyr::count(tbl)), "n")
  as.double(n)
}

# The covariate entries of a database covariates table for the rows `rowIds` (the checked
# outcomes$rowId), in the form longInput() returns them.
streamCovariates <- function(covariates, rowIds, batchSize) {
  needDatabasePackages()
  columns <- tableColumns(covariates, c("rowId", "covariateId"), "covariates")
  hasValue <- "covariateValue" %in% columns
  total <- tableRowCount(covariates)
  if (total > .Machine$integer.max) stopf("the covariates table has more than 2^31 - 1 rows")
  distinct <- dplyr::collect(dplyr::distinct(dplyr::select(covariates, "covariateId")))
  covariateIds <- checkIds(distinct$covariateId, "covariates$covariateId")
  if (is.character(covariateIds) && "(Intercept)" %in% covariateIds)
    stopf(paste("'(Intercept)' is not a covariate id: it is the name of the intercept, which",
                "'addIntercept' adds"))
  uniqueIds <- codeIds(covariateIds)$unique
  entryRow <- integer(total)
  entryColumn <- integer(total)
  entryValue <- NULL  # allocated at the first value other than 1 (all ones: none needed)
  unmatched <- 0
  firstUnmatched <- NULL
  read <- c("rowId", "covariateId", if (hasValue) "covariateValue")
  forEachBatch(covariates, read, c("covariateId", "rowId"), batchSize, function(batch, offset) {
    at <- offset + seq_len(nrow(batch))
    inStream({
      covRowIds <- checkIds(batch$rowId, "covariates$rowId")
      ids <- checkIds(batch$covariateId, "covariates$covariateId")
      if (hasValue) {
        value <- checkNumericVector(batch$covariateValue, "covariates$covariateValue")
        if (is.null(entryValue) && any(value != 1)) entryValue <<- rep(1, total)
        if (!is.null(entryValue)) entryValue[at] <<- value
      }
    }, offset)
    found <- lookupIds(covRowIds, rowIds)
    missing <- found$position < 0
    if (any(missing)) {
      if (is.null(firstUnmatched)) firstUnmatched <<- covRowIds[which(missing)[1]]
      unmatched <<- unmatched + sum(missing)
    }
    entryRow[at] <<- as.integer(found$position + 1L)
    column <- lookupIds(ids, uniqueIds)$position
    if (any(column < 0)) stopf("the covariates table changed while it was read")
    entryColumn[at] <<- as.integer(column + 1L)
  })
  if (unmatched > 0)
    stopf("covariates$rowId %s does not appear in outcomes$rowId (%d covariate rows are unmatched)",
          idLabel(firstUnmatched), unmatched)
  list(entryRow = entryRow, entryColumn = entryColumn, entryValue = entryValue,
       covariateIds = uniqueIds, columnNames = idLabel(uniqueIds))
}

# predict() with a database covariates table: the link of each row, summed batch by batch.
# `rowIds` are the rows to predict (NULL: the sorted distinct rowIds of the table).
streamLinks <- function(fit, covariates, rowIds, batchSize) {
  needDatabasePackages()
  columns <- tableColumns(covariates, c("rowId", "covariateId"), "newdata")
  hasValue <- "covariateValue" %in% columns
  if (is.null(rowIds)) {
    distinct <- dplyr::collect(dplyr::distinct(dplyr::select(covariates, "rowId")))
    rowIds <- sortedIds(checkIds(distinct$rowId, "newdata$rowId"))
  }
  total <- rep(0, length(rowIds))
  beta <- fit$coefficients[modelCovariates(fit)]
  # The stream is sorted by (rowId, covariateId): the entries of the last row of a batch are
  # held back and summed with the next batch, so each row is summed in one piece (as in a
  # data frame), and a repeated pair is always within one piece.
  held <- NULL
  addUp <- function(entries) {
    if (length(entries$position) == 0) return(invisible())
    checkUniquePairs(entries$position, entries$id, rowIds)
    sums <- entrySums(entries$value, entries$beta, entries$position, entries$id, fit)
    total[sums$at] <<- total[sums$at] + sums$sum
  }
  read <- c("rowId", "covariateId", if (hasValue) "covariateValue")
  forEachBatch(covariates, read, c("rowId", "covariateId"), batchSize, function(batch, offset) {
    inStream({
      covRowIds <- checkIds(batch$rowId, "newdata$rowId")
      ids <- idLabel(checkIds(batch$covariateId, "newdata$covariateId"))
      value <- if (hasValue) checkNumericVector(batch$covariateValue, "newdata$covariateValue")
               else rep(1, length(ids))
    }, offset)
    position <- lookupIds(covRowIds, rowIds)$position
    b <- unname(beta[ids])
    keep <- !is.na(b) & b != 0 & position >= 0
    entries <- list(position = c(held$position, position[keep]), id = c(held$id, ids[keep]),
                    value = c(held$value, value[keep]), beta = c(held$beta, b[keep]))
    lastRow <- entries$position == entries$position[length(entries$position)]
    held <<- lapply(entries, function(v) v[lastRow])
    addUp(lapply(entries, function(v) v[!lastRow]))
  })
  addUp(held)
  list(rowIds = rowIds, sums = total)
}
