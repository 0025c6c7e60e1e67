# Small argument checks shared by the R layer. Each stops with a message that names the
# argument and says what was expected.

stopf <- function(...) stop(sprintf(...), call. = FALSE)

checkNumericVector <- function(x, name, length = NULL, allowNull = TRUE) {
  if (is.null(x)) {
    if (allowNull) return(NULL)
    stopf("'%s' is required", name)
  }
  if (is.logical(x) && !all(is.na(x))) x <- as.numeric(x)
  if (!is.numeric(x)) stopf("'%s' must be numeric, not %s", name, class(x)[1])
  if (!is.null(length) && length(x) != length)
    stopf("'%s' has length %d but %d values are needed", name, length(x), length)
  bad <- which(!is.finite(x))
  if (length(bad) > 0)
    stopf("'%s' has %d missing or non-finite value(s), the first at position %d",
          name, length(bad), bad[1])
  as.double(x)
}

checkWeights <- function(w, name = "weights", length = NULL) {
  w <- checkNumericVector(w, name, length)
  if (!is.null(w) && any(w < 0)) stopf("'%s' must be non-negative (position %d is %g)",
                                       name, which(w < 0)[1], w[which(w < 0)[1]])
  w
}

checkScalar <- function(x, name, lower = -Inf, upper = Inf, integer = FALSE) {
  if (!is.numeric(x) || length(x) != 1 || !is.finite(x))
    stopf("'%s' must be a single finite number", name)
  if (x < lower || x > upper) stopf("'%s' must be between %g and %g", name, lower, upper)
  if (integer && x != round(x)) stopf("'%s' must be a whole number", name)
  x
}

checkFlag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1 || is.na(x)) stopf("'%s' must be TRUE or FALSE", name)
  x
}

isInteger64 <- function(x) inherits(x, "integer64")

# Identifiers (rowId, covariateId, stratumId) travel to the engine as int64: integer64 as is,
# numbers only when whole and exactly representable.
checkIds <- function(x, name) {
  if (is.null(x)) stopf("'%s' is required", name)
  if (isInteger64(x)) {
    if (any(is.na(x))) stopf("'%s' has missing values", name)
    return(x)
  }
  if (is.factor(x)) x <- as.integer(x)
  if (is.character(x)) stopf("'%s' must be numeric (or bit64::integer64), not character", name)
  if (!is.numeric(x)) stopf("'%s' must be numeric, not %s", name, class(x)[1])
  bad <- which(!is.finite(x))
  if (length(bad)) stopf("'%s' has %d missing or non-finite value(s), the first at position %d",
                         name, length(bad), bad[1])
  if (any(x != trunc(x))) stopf("'%s' must hold whole numbers", name)
  if (any(abs(x) > 2^53)) stopf("'%s' has values too large for doubles; use bit64::integer64", name)
  as.double(x)
}

# Codes of arbitrary stratum labels (any atomic type, also numbers that are not whole, as
# strata(edema) with edema in 0, 0.5, 1) as 0-based integers.
stratumCodes <- function(stratumId, n) {
  if (length(stratumId) != n) stopf("'stratumId' has length %d but there are %d rows",
                                    length(stratumId), n)
  if (anyNA(stratumId)) stopf("'stratumId' has missing values (first at row %d)",
                              which(is.na(stratumId))[1])
  wholeNumbers <- is.numeric(stratumId) && all(is.finite(stratumId)) &&
    all(stratumId == trunc(stratumId)) && all(abs(stratumId) <= 2^53)
  if (wholeNumbers || isInteger64(stratumId)) {
    ids <- checkIds(stratumId, "stratumId")
    coded <- .Call(argus_code_ids, ids, isInteger64(ids))
    return(list(code = coded$code, n = length(coded$unique)))
  }
  f <- match(stratumId, unique(stratumId))
  list(code = f - 1L, n = max(f))
}

# One text label per stratum value, the same for a stratum however it is given (number,
# integer64, factor, text, or the pasted values of several strata() variables).
stratumKey <- function(stratumId) {
  if (is.null(stratumId)) return(NULL)
  if (isInteger64(stratumId) || (is.numeric(stratumId) && all(stratumId == trunc(stratumId))))
    return(idLabel(stratumId))
  as.character(stratumId)
}

# Text labels of identifiers, never in scientific notation (1e15 stays "1000000000000000").
idLabel <- function(ids) {
  if (isInteger64(ids)) return(as.character(ids))
  if (is.numeric(ids)) return(formatC(ids, format = "f", digits = 0, big.mark = ""))
  as.character(ids)
}
