# Database tables (dplyr/dbplyr tables on a DBI connection; Andromeda tables are such
# tables) as input to createData() and predict(). Outcomes (one row per row of the model) are
# read whole; covariates are read in batches of `batchSize` rows from a query that the
# database sorts by covariate, so the covariates table is never held whole as an R data
# frame: each batch is checked and appended to the design as it is built.

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

# The columns of a database covariates table and `streamDesign`, which assembleData() calls
# once the rows are planned: it reads the table sorted by covariateId (each covariate's
# entries together), checks every batch as covariateEntries() checks a data frame, and
# appends it to the engine's DesignAppender (data/design_storage.h): the design is built as
# it streams in, and memory holds the design and one batch.
streamCovariates <- function(covariates, rowIds, batchSize) {
  needDatabasePackages()
  columns <- tableColumns(covariates, c("rowId", "covariateId"), "covariates")
  warnNearMissColumns(columns, "covariateValue", "covariates")
  hasValue <- "covariateValue" %in% columns
  distinct <- dplyr::collect(dplyr::distinct(dplyr::select(covariates, "covariateId")))
  covariateIds <- checkIds(distinct[["covariateId"]], "covariates$covariateId")
  if (is.character(covariateIds) && "(Intercept)" %in% covariateIds)
    stopf(paste("'(Intercept)' is not a covariate id: it is the name of the intercept, which",
                "'addIntercept' adds"))
  uniqueIds <- codeIds(covariateIds)$unique
  columnNames <- idLabel(uniqueIds)
  streamDesign <- function(internalOfUser, nRows, addIntercept) {
    appender <- .Call(argus_design_appender, nRows, length(uniqueIds), addIntercept)
    largest <- numeric(length(uniqueIds))
    unmatched <- 0
    firstUnmatched <- NULL
    read <- c("rowId", "covariateId", if (hasValue) "covariateValue")
    forEachBatch(covariates, read, c("covariateId", "rowId"), batchSize, function(batch, offset) {
      value <- NULL
      inStream({
        covRowIds <- checkIds(batch[["rowId"]], "covariates$rowId")
        ids <- checkIds(batch[["covariateId"]], "covariates$covariateId")
        if (hasValue) value <- checkNumericVector(batch[["covariateValue"]], "covariates$covariateValue")
      }, offset)
      position <- lookupIds(covRowIds, rowIds)$position
      missing <- position < 0
      if (any(missing)) {
        if (is.null(firstUnmatched)) firstUnmatched <<- covRowIds[which(missing)[1]]
        unmatched <<- unmatched + sum(missing)
      }
      row <- rep(-1L, length(position))
      row[!missing] <- as.integer(internalOfUser[position[!missing] + 1])
      column <- lookupIds(ids, uniqueIds)$position
      if (any(column < 0))
        stopf(paste("covariates$covariateId '%s' is not among the distinct ids the database",
                    "reported: its collation makes different labels equal (case-insensitive?),",
                    "or the table changed while it was read; use numeric ids or a binary",
                    "collation"), idLabel(ids[which(column < 0)[1]]))
      if (!is.null(value)) {
        size <- vapply(split(abs(value), column), max, 0)
        at <- as.integer(names(size)) + 1L
        largest[at] <<- pmax(largest[at], size)
        if (all(value == 1)) value <- NULL
      }
      .Call(argus_design_append, appender, row, as.integer(column), value)
    })
    if (unmatched > 0)
      stopf("covariates$rowId %s does not appear in outcomes$rowId (%d covariate rows are unmatched)",
            idLabel(firstUnmatched), unmatched)
    checkLargestValues(stats::setNames(largest, seq_along(largest)), columnNames)
    .Call(argus_design_finish, appender)
  }
  list(covariateIds = uniqueIds, columnNames = columnNames, streamDesign = streamDesign)
}

# predict() with a database covariates table: the link of each row, summed batch by batch.
# `rowIds` are the rows to predict (NULL: the sorted distinct rowIds of the table).
streamLinks <- function(fit, covariates, rowIds, batchSize) {
  needDatabasePackages()
  columns <- tableColumns(covariates, c("rowId", "covariateId"), "newdata")
  warnNearMissColumns(columns, "covariateValue", "newdata")
  hasValue <- "covariateValue" %in% columns
  if (is.null(rowIds)) {
    distinct <- dplyr::collect(dplyr::distinct(dplyr::select(covariates, "rowId")))
    rowIds <- sortedIds(checkIds(distinct[["rowId"]], "newdata$rowId"))
  }
  total <- rep(0, length(rowIds))
  beta <- fit$coefficients[modelCovariates(fit)]
  # The stream is sorted by (rowId, covariateId): the entries of the last row of a batch are
  # held back and summed with the next batch, so each row is summed in one piece (as in a
  # data frame), and a repeated pair is always within one piece.
  held <- NULL
  seen <- character(0)
  entriesRead <- 0
  entriesMatched <- 0
  addUp <- function(entries) {
    if (length(entries$position) == 0) return(invisible())
    checkUniquePairs(entries$position, entries$id, rowIds)
    sums <- entrySums(entries$value, entries$beta, entries$position, entries$id, fit)
    total[sums$at] <<- total[sums$at] + sums$sum
  }
  read <- c("rowId", "covariateId", if (hasValue) "covariateValue")
  forEachBatch(covariates, read, c("rowId", "covariateId"), batchSize, function(batch, offset) {
    inStream({
      covRowIds <- checkIds(batch[["rowId"]], "newdata$rowId")
      ids <- idLabel(checkIds(batch[["covariateId"]], "newdata$covariateId"))
      value <- if (hasValue) longTableValues(batch[["covariateValue"]], covRowIds, ids)
               else rep(1, length(ids))
    }, offset)
    position <- lookupIds(covRowIds, rowIds)$position
    entriesRead <<- entriesRead + length(position)
    entriesMatched <<- entriesMatched + sum(position >= 0)
    seen <<- unique(c(seen, ids))
    b <- unname(beta[ids])
    keep <- !is.na(b) & b != 0 & position >= 0 & value != 0  # zero entries: as createData()
    entries <- list(position = c(held$position, position[keep]), id = c(held$id, ids[keep]),
                    value = c(held$value, value[keep]), beta = c(held$beta, b[keep]))
    lastRow <- entries$position == entries$position[length(entries$position)]
    held <<- lapply(entries, function(v) v[lastRow])
    addUp(lapply(entries, function(v) v[!lastRow]))
  })
  addUp(held)
  checkRowsMatched(entriesRead, entriesMatched)
  warnUnknownCovariates(fit, seen)
  list(rowIds = rowIds, sums = total)
}
