# Per-row quantities of a fit, in the engine's internal row order, for what R computes row by
# row: residuals, score contributions (robust variance), risk-set sums (survival curves). The
# engine keeps the design in its own column storage (src/engine/data/column.h); these helpers
# read it back as a Matrix::dgCMatrix, one column at a time, so the cost is O(nonzeros).

# Columns `columns` (1-based) of the fit's design as a sparse matrix, rows in internal order.
designColumns <- function(data, columns = seq_along(data$columnNames)) {
  d <- data$design
  n <- data$nRows
  pieces <- lapply(columns, function(j) {
    kind <- d$kinds[j]
    r0 <- d$rowStart[j]
    r1 <- d$rowStart[j + 1]
    v0 <- d$valueStart[j]
    v1 <- d$valueStart[j + 1]
    switch(kind + 1,
           list(i = d$rows[seq_len(r1 - r0) + r0] + 1L, x = rep(1, r1 - r0)),      # indicator
           list(i = d$rows[seq_len(r1 - r0) + r0] + 1L, x = d$values[seq_len(v1 - v0) + v0]),
           list(i = seq_len(n), x = d$values[seq_len(v1 - v0) + v0]),             # dense
           list(i = seq_len(n), x = rep(1, n)))                                   # intercept
  })
  counts <- vapply(pieces, function(p) length(p$i), 0)
  Matrix::sparseMatrix(i = unlist(lapply(pieces, `[[`, "i")),
                       j = rep.int(seq_along(columns), counts),
                       x = unlist(lapply(pieces, `[[`, "x")), dims = c(n, length(columns)),
                       dimnames = list(NULL, data$columnNames[columns]))
}

# The fitted rows: linear predictor (offsets included), weights (all 1 when the fit has
# none), outcome, times and strata, all in the internal row order.
fitRows <- function(fit) {
  data <- fit$data
  eta <- .Call(argus_linear_predictor, data, as.double(unname(fit$coefficients)))
  list(eta = eta, weights = fit$settings$weights %||% rep(1, data$nRows), y = data$y,
       time = data$time, start = data$startTime,
       stratum = if (is.null(data$stratum)) rep(0L, data$nRows) else data$stratum)
}

# Internal-order values back to the user's row order (NA for rows that were dropped), named
# by row identifier; matrices keep one row per user row.
toUserOrder <- function(fit, values) {
  data <- fit$data
  n <- length(data$rowIds)
  if (is.matrix(values)) {
    out <- matrix(NA_real_, n, ncol(values), dimnames = list(rowLabels(data), colnames(values)))
    out[data$order, ] <- values
    return(out)
  }
  out <- rep(NA_real_, n)
  out[data$order] <- values
  names(out) <- rowLabels(data)
  out
}

# How fitted(), residuals() and predict() name the fitted rows: a formula fit's data frame
# row names (as glm), the row identifiers otherwise.
rowLabels <- function(data) {
  if (is.null(data$rowNames)) idLabel(data$rowIds) else as.character(data$rowNames)
}

# A per-row vector given after createData() (fitModel(weights), cluster labels, fold ids):
# one value per row of the data, or, for formula data whose rows with missing values were
# left out (na.omit, na.exclude), one per row of the data frame given to createData(), the
# left-out rows' values then ignored. For long tables, whose rowIds are the user's, values
# named by every rowId are matched by name in any order (elsewhere names are not ids: a vector
# named by a reordered data frame's row names was put on the matrix route's made-up ids).
# Outcomes read from a database have no row order of the user's (they are sorted by rowId):
# there the values must be named. Anything else is an error that says both counts.
rowsOfData <- function(values, data, name, what = "values") {
  n <- length(data$rowIds)
  dropped <- data$naAction
  if (is.null(values)) return(values)
  labels <- names(values)
  if (isTRUE(data$rowIdsGiven) && !is.null(labels) && length(values) == n && !anyDuplicated(labels)) {
    at <- matchIds(data$rowIds, labels)
    if (!anyNA(at)) return(unname(values[at]))
  }
  if (isTRUE(data$rowsFromDatabase))
    stopf(paste("'%s': the outcomes were read from a database table, whose rows have no order:",
                "name the %s by rowId (names(%s) <- outcomes$rowId)%s"), name, what, name,
          if (is.null(labels)) "" else ", every row once")
  if (length(values) == n) return(values)
  if (length(dropped) && length(values) == n + length(dropped)) return(values[-dropped])
  rows <- if (length(dropped))
    sprintf("%d rows (%d given to createData(), %d left out for missing values)", n,
            n + length(dropped), length(dropped))
  else sprintf("%d rows", n)
  stopf("'%s' has %d %s but the data have %s: give one per row, in the order given to createData()",
        name, length(values), what, rows)
}

# Positions in `keys` of `ids`, compared as the ids' type: numbers as numbers (a name written
# by names(w) <- rowId reads "1e+05" for 100000), integer64 and text as text.
matchIds <- function(ids, keys) {
  if (is.numeric(ids) && !isInteger64(ids))
    return(match(ids, suppressWarnings(as.numeric(if (is.factor(keys)) as.character(keys) else keys))))
  match(as.character(ids), as.character(keys))
}

# Cluster labels (user row order, one per row) to internal order.
internalClusters <- function(cluster, data) {
  cluster <- rowsOfData(cluster, data, "cluster")
  if (anyNA(cluster)) stopf("'cluster' has missing values")
  cluster[data$order]
}
