# Small argument checks shared by the R layer. Each stops with a message that names the
# argument and says what was expected.

stopf <- function(...) stop(sprintf(...), call. = FALSE)

# missingOk: NA values pass (predict() gives NA for those rows); infinite ones still fail.
checkNumericVector <- function(x, name, length = NULL, allowNull = TRUE, missingOk = FALSE) {
  if (is.null(x)) {
    if (allowNull) return(NULL)
    stopf("'%s' is required", name)
  }
  if (is.logical(x) && (missingOk || !all(is.na(x)))) x <- as.numeric(x)
  if (!is.numeric(x)) stopf("'%s' must be numeric, not %s", name, class(x)[1])
  if (!is.null(length) && length(x) != length)
    stopf("'%s' has length %d but %d values are needed", name, length(x), length)
  # the engine's one pass (min and max, NA where a value is not finite) allocates nothing,
  # where which(!is.finite(x)) makes two vectors as long as x (millions of covariate values)
  if (length(x) == 0 || anyNA(.Call(argus_value_range, x))) {
    bad <- which(!is.finite(x) & !(missingOk & is.na(x)))
    if (length(bad) > 0)
      stopf("'%s' has %d %s value(s), the first at position %d", name, length(bad),
            if (missingOk) "infinite" else "missing or non-finite", bad[1])
  }
  as.double(x)
}

# match.arg() with the argument's name in the message ('arg' should be one of ... names
# nothing once the call is gone from a log). `choices` default: the caller's formal default.
matchChoice <- function(arg, name, choices = eval(formals(sys.function(sys.parent()))[[name]])) {
  if (is.null(arg) || identical(arg, choices)) return(choices[1])  # as match.arg
  at <- if (is.character(arg) && length(arg) == 1 && !is.na(arg)) pmatch(arg, choices) else NA
  if (is.na(at))
    stopf("'%s' must be one of %s", name, paste0("\"", choices, "\"", collapse = ", "))
  choices[at]
}

checkWeights <- function(w, name = "weights", length = NULL) {
  w <- checkNumericVector(w, name, length)
  if (!is.null(w) && any(w < 0)) stopf("'%s' must be non-negative (position %d is %g)",
                                       name, which(w < 0)[1], w[which(w < 0)[1]])
  if (!is.null(w) && length(w) > 0 && !any(w > 0))
    stopf("all '%s' are zero: no row would count in the fit", name)
  if (!is.null(w)) checkWeightRange(w, name)
  w
}

# Weights are sums' factors in double precision (non-negative, finite: checked before). The
# positive ones must lie within a factor 2^52 (1 / .Machine$double.eps, about 4.5e15) of the
# largest: below its rounding unit a row counts for nothing in sums with it (lr with one
# weight of 1e17 or more beside weights of 1 called the other covariates collinear, and one
# of 1e300 ended NO_FINITE_MLE with every coefficient NA). They must total at most 2^53,
# the count double precision holds exactly (uniform weights of 1e25 left the fit unable to
# converge: its standard errors fell below what doubles resolve), and none may lie below
# 1e-100, where its products with squared covariates (themselves down to 1e-100) underflow.
# Scaling all weights by one factor leaves the estimates as they are.
maxWeightRatio <- 2^52
checkWeightRange <- function(w, name) {
  positive <- which(w > 0)
  if (length(positive) == 0) return(invisible())
  largest <- positive[which.max(w[positive])]
  smallest <- positive[which.min(w[positive])]
  if (w[largest] > maxWeightRatio * w[smallest])
    stopf(paste("'%s' span a ratio of %.3g (position %d: %g; position %d: %g), beyond the 2^52",
                "(4.5e15) that double precision carries: next to the largest, the smallest count",
                "for nothing. Set weights meant to be negligible to 0, or bring them closer"),
          name, w[largest] / w[smallest], largest, w[largest], smallest, w[smallest])
  if (w[smallest] < 1e-100)
    stopf(paste("'%s' has a positive weight of %g (position %d), below 1e-100, where the fit's",
                "products with it underflow: rescale the weights (the estimates do not change",
                "when all are multiplied by one number), or set it to 0"), name, w[smallest], smallest)
  total <- sum(w)
  if (total > 2^53)
    stopf(paste("'%s' total %g, more than 2^53 (9.0e15), beyond what double precision counts",
                "exactly: rescale them (the estimates do not change when all are multiplied by one",
                "number; frequency-weighted variances do)"), name, total)
  invisible()
}

# A confidence level: strictly between 0 and 1.
checkLevel <- function(level) {
  if (!is.numeric(level) || length(level) != 1 || !is.finite(level) || level <= 0 || level >= 1)
    stopf("'level' must be a single number strictly between 0 and 1")
  level
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

# bit64's integer64 (a database's bigint) as the numbers it holds: model.matrix() and %*% read
# its bits as doubles (a count of 3 became 1.5e-323; a prediction silently the intercept's).
# Beyond 2^53 a double is not the same number. Keeps dim and dimnames (an integer64 matrix).
integer64AsDouble <- function(x, what) {
  if (any(x > bit64::as.integer64(2)^53 | x < -bit64::as.integer64(2)^53, na.rm = TRUE))
    stopf("%s (integer64) has values beyond 2^53, which a double cannot hold exactly", what)
  out <- as.double(x)
  dim(out) <- dim(x)
  dimnames(out) <- dimnames(x)
  out
}

# The integer64 columns of a data frame as doubles (integer64AsDouble()).
integer64ColumnsAsDouble <- function(data) {
  for (name in names(data))
    if (isInteger64(data[[name]])) data[[name]] <- integer64AsDouble(data[[name]], sprintf("column '%s'", name))
  data
}

# Identifiers (rowId, covariateId): numbers (whole and exactly representable as doubles),
# bit64::integer64, or labels (character, or a factor read by its labels, never its codes).
# Numbers and integer64 are returned as they are for the engine's hashed lookups (int64);
# labels come back as a character vector and are matched in R.
checkIds <- function(x, name) {
  if (is.null(x)) stopf("'%s' is required", name)
  if (is.character(x) || is.factor(x)) {
    x <- as.character(x)
    bad <- which(is.na(x))
    if (length(bad)) stopf("'%s' has %d missing value(s), the first at position %d", name,
                           length(bad), bad[1])
    if (any(x == "")) stopf("'%s' has an empty label (position %d)", name, which(x == "")[1])
    warnScientificLabels(x, name)
    return(x)
  }
  if (isInteger64(x)) {
    if (any(is.na(x))) stopf("'%s' has missing values", name)
    return(x)
  }
  if (!is.numeric(x))
    stopf("'%s' must be numeric, bit64::integer64, character or a factor, not %s", name,
          class(x)[1])
  # The checks below run on every covariate entry, so none allocates a vector as long as x
  # (those temporaries once took most of createData()'s time): the engine's range finds
  # non-finite and too large values and its scan fractions; which() runs only to word an error.
  range <- .Call(argus_value_range, x)  # NA where a value is missing or not finite
  if (!all(is.finite(range))) {
    bad <- which(!is.finite(x))
    stopf("'%s' has %d missing or non-finite value(s), the first at position %d",
          name, length(bad), bad[1])
  }
  # Integers are whole and within 2^53 by type; the engine reads them as they are (no
  # double copy), and codes and looks them up as the same numbers.
  if (is.integer(x)) return(as.integer(x))
  if (.Call(argus_first_fractional, x) >= 0) stopf("'%s' must hold whole numbers", name)
  # from 2^53 on a double stands for several ids (2^53 + 1 is read as 2^53)
  if (max(abs(range)) >= 2^53)
    stopf(paste("'%s' has values too large for doubles; use bit64::integer64 or text (from 2^53",
                "on in absolute value a double stands for several ids: 2^53 + 1 is read as 2^53)"),
          name)
  as.double(x)
}

# Exposure lengths are positive (createData()'s rows, and new rows: a pr "count" of -1.5 came
# from a time of -1); NA passes (a prediction then NA). One engine pass, no temporaries.
checkExposure <- function(time, name) {
  if (is.null(time)) return(time)
  bad <- .Call(argus_first_below, time, 0, TRUE) + 1
  if (bad > 0)
    stopf("'%s' is an exposure length and must be positive (row %d is %g)", name, bad, time[bad])
  time
}

# Two columns of one name (cbind(outcomes, y = newY), a newdata matrix) were read by their first.
rejectDuplicateNames <- function(names, what) {
  repeated <- names[duplicated(names)]
  if (length(repeated))
    stopf("'%s' has two columns named '%s': which one is meant is not clear", what, repeated[1])
}

# Text ids are labels, matched by their text: "1e+05" (as.character(1e5), a CSV round trip)
# is not the number 100000 that the other table may hold, and nothing else would say so (a
# predicted risk silently left the covariate out; createData() made a covariate "1e+05").
warnScientificLabels <- function(x, name) {
  labels <- unique(x)
  sci <- labels[grepl("^[-+]?[0-9]*\\.?[0-9]+[eE][-+]?[0-9]+$", labels)]
  if (length(sci))
    warning(sprintf(paste("'%s' has ids written in scientific notation (%s), which as text are",
                          "labels, not the numbers they write (%s): write the ids with",
                          "format(x, scientific = FALSE), or give them as numbers"),
                    name, paste(sprintf("'%s'", utils::head(sci, 3)), collapse = ", "),
                    format(as.numeric(sci[1]), scientific = FALSE)), call. = FALSE)
}

# 0-based position of the first repeated identifier, -1 when all are distinct.
firstDuplicateId <- function(ids) {
  if (is.character(ids)) return(anyDuplicated(ids) - 1L)
  .Call(argus_first_duplicate, ids, isInteger64(ids))
}

# Positions (0-based, -1 when absent) of `keys` in the distinct identifiers `table`, and the
# 0-based index of the first absent key (-1 if none), as the engine's lookup gives them.
# Labels on either side are matched by their text (a number by its digits).
lookupIds <- function(keys, table) {
  if (is.character(keys) || is.character(table)) {
    table <- idLabel(table)
    if (anyDuplicated(table))
      stopf("identifier %s appears more than once", table[anyDuplicated(table)])
    position <- match(idLabel(keys), table) - 1L
    position[is.na(position)] <- -1L
    missing <- which(position < 0)
    return(list(position = position, firstMissing = if (length(missing)) missing[1] - 1 else -1))
  }
  if (isInteger64(keys) != isInteger64(table)) {
    if (!requireNamespace("bit64", quietly = TRUE)) stopf("mixing integer64 ids needs bit64")
    keys <- bit64::as.integer64(keys)
    table <- bit64::as.integer64(table)
  }
  .Call(argus_lookup_ids, keys, table, isInteger64(table))
}

# Distinct identifiers in their column order and the 0-based code of each entry: numbers and
# integer64 sorted by value, labels sorted by their text in the C locale (as sort(method =
# "radix") does, independent of the session's locale).
codeIds <- function(ids) {
  if (is.character(ids)) {
    distinct <- sort(unique(ids), method = "radix")
    return(list(unique = distinct, code = match(ids, distinct) - 1L))
  }
  coded <- .Call(argus_code_ids, ids, isInteger64(ids))
  if (isInteger64(ids)) class(coded$unique) <- "integer64"
  coded
}

# Sorted distinct identifiers (labels in the C locale, as codeIds() orders them).
sortedIds <- function(ids) {
  if (is.character(ids)) sort(unique(ids), method = "radix") else sort(unique(ids))
}

# Codes of arbitrary stratum labels (any atomic type, also numbers that are not whole, as
# strata(edema) with edema in 0, 0.5, 1) as 0-based integers.
stratumCodes <- function(stratumId, n) {
  if (length(stratumId) != n) stopf("'stratumId' has length %d but there are %d rows",
                                    length(stratumId), n)
  if (anyNA(stratumId)) stopf("'stratumId' has missing values (first at row %d)",
                              which(is.na(stratumId))[1])
  # Plain numbers only: dates, times and other classed vectors are labels (match() below).
  if (isInteger64(stratumId) ||
      (!is.object(stratumId) && (is.integer(stratumId) || wholeDoubles(stratumId)))) {
    ids <- checkIds(stratumId, "stratumId")
    coded <- .Call(argus_code_ids, ids, isInteger64(ids))
    return(list(code = coded$code, n = length(coded$unique)))
  }
  # Numbers that are not whole count by their printed value, as strata()'s factor levels and
  # stratumKey(): 0.3 and 0.1 + 0.2 were two strata under one label, and predictions sent both
  # to the first one's curve.
  key <- if (is.double(stratumId) && !is.object(stratumId)) as.character(stratumId) else stratumId
  f <- match(key, unique(key))
  list(code = f - 1L, n = max(f))
}

# Whether x is doubles that are all whole numbers within 2^53 (exact as identifiers), found
# without temporaries as long as x: the engine's range and fractions.
wholeDoubles <- function(x) {
  if (!is.double(x) || length(x) == 0) return(FALSE)
  range <- .Call(argus_value_range, x)
  all(is.finite(range)) && max(abs(range)) < 2^53 && .Call(argus_first_fractional, x) < 0
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

# Covariate ids a user names (exclude =, parm =, fixedCoefficients = ...) as labels: numbers
# must be ids exactly, as createData() reads them (whole, within 2^53 as doubles): rounded to
# the nearest whole number, 21.6 named covariate 22 and 9007199254740993 (a double: ...992)
# the id ...992. Labels and integer64 are read as they are.
userIdLabels <- function(ids, what) {
  if (is.double(ids) && !isInteger64(ids)) ids <- checkIds(ids, what)
  idLabel(ids)
}

# Arguments given to a method's `...` that it does not use are an error, not silently
# ignored (predict(fit, newOutcomes = o) would otherwise give the fitted rows). Names in
# `.allow` are accepted and ignored (`digits` of print()). The arguments are not evaluated.
rejectDots <- function(.caller, ..., .allow = character(0)) {
  extra <- as.list(substitute(list(...)))[-1]
  if (length(extra) == 0) return(invisible())
  labels <- names(extra) %||% rep("", length(extra))
  unused <- labels == "" | !(labels %in% .allow)
  if (!any(unused)) return(invisible())
  unnamed <- vapply(extra, function(e) substr(deparse1(e), 1, 40), "")
  described <- ifelse(labels == "", sprintf("unnamed argument %d (%s)", seq_along(extra), unnamed),
                      labels)
  stopf("%s: unused argument(s): %s", .caller, paste(described[unused], collapse = ", "))
}

# Covariate values whose square over- or underflows in the Hessian cannot be fitted
# reliably: a column whose largest absolute value is above 1e100, or nonzero but below
# 1e-100, is refused (createData()'s details). `column` is 0-based. The engine's one pass
# (smallest nonzero and largest |value|) clears the usual case without abs(value) and its
# comparisons, each a vector as long as the table.
checkColumnScale <- function(value, column, names) {
  if (is.null(value) || length(value) == 0) return(invisible())
  range <- .Call(argus_absolute_range, value)
  if (range[1] >= 1e-100 && range[2] <= 1e100) return(invisible())
  column <- column + 1L
  size <- abs(value)
  tiny <- size < 1e-100 & size > 0
  suspects <- column %in% unique(column[size > 1e100 | tiny])
  checkLargestValues(tapply(size[suspects], column[suspects], max), names)
}

# `largest`: the largest absolute value of columns, named by column position.
checkLargestValues <- function(largest, names) {
  bad <- which(largest > 1e100 | (largest > 0 & largest < 1e-100))
  if (length(bad))
    stopf(paste("covariate '%s' has a largest absolute value of %g, outside [1e-100, 1e100]",
                "where its square stays finite and nonzero in the fit: rescale it"),
          names[as.integer(names(largest)[bad[1]])], largest[[bad[1]]])
}
