# The three ways into createData(). Each returns the same list for assembleData(): per-row
# vectors in the user's row order, the covariate entries (0-based user row and column, as the
# engine's lookups give them; value or NULL for all ones), and the column identifiers.

longInput <- function(outcomes, covariates, modelType, batchSize = 100000) {
  outcomes <- ohdsiColumns(outcomes, "outcomes")
  covariates <- ohdsiColumns(covariates, "covariates")
  fromDatabase <- isDatabaseTable(outcomes)
  if (fromDatabase) outcomes <- collectOutcomes(outcomes)
  if (!is.data.frame(outcomes)) stopf("'outcomes' must be a data frame or a database table")
  # a tibble warns on `$` of an absent column (stratumId, time, ... are optional)
  outcomes <- as.data.frame(outcomes)
  if (!isDatabaseTable(covariates) && is.data.frame(covariates)) covariates <- as.data.frame(covariates)
  if (is.null(covariates)) stopf("the long format needs a 'covariates' data frame as well")
  streamed <- isDatabaseTable(covariates)
  if (!streamed && !is.data.frame(covariates))
    stopf("'covariates' must be a data frame or a database table")
  needColumns(outcomes, c("rowId", "y"), "outcomes")
  rejectDuplicateNames(names(outcomes), "outcomes")
  if (!streamed) rejectDuplicateNames(names(covariates), "covariates")
  rejectCyclopsOutcomeColumns(outcomes, modelType)
  warnNearMissColumns(names(outcomes), c("stratumId", "time", "weights", "offset", "startTime",
                                         "censoringSurvival"), "outcomes")
  if (!streamed) {
    needColumns(covariates, c("rowId", "covariateId"), "covariates")
    warnNearMissColumns(names(covariates), "covariateValue", "covariates")
  }
  if (nrow(outcomes) == 0) stopf("'outcomes' has no rows")
  if (isConditionalModel(modelType) && is.null(outcomes[["stratumId"]]))
    stopf("modelType '%s' needs a 'stratumId' column in 'outcomes'", modelType)

  rowIds <- checkIds(outcomes[["rowId"]], "outcomes$rowId")
  dup <- firstDuplicateId(rowIds)
  if (dup >= 0) stopf("'outcomes$rowId' must be unique; %s appears more than once",
                      idLabel(rowIds[dup + 1]))
  # OHDSI outcome tables carry a stratumId column by habit: createData() says it is not used
  # (once the data have passed their checks) where the model has no baseline per stratum
  unusedStrata <- !is.null(outcomes[["stratumId"]]) && !hasStratumBaseline(modelType)
  stratumId <- if (unusedStrata) NULL else outcomes[["stratumId"]]
  entries <- if (streamed) streamCovariates(covariates, rowIds, batchSize)
             else covariateEntries(covariates, rowIds)
  c(list(rowIds = outcomes[["rowId"]], y = outcomes[["y"]], stratumId = stratumId,
         time = outcomes[["time"]], weights = outcomes[["weights"]], offset = outcomes[["offset"]],
         startTime = outcomes[["startTime"]], censoringSurvival = outcomes[["censoringSurvival"]],
         unusedStrata = unusedStrata, rowsFromDatabase = fromDatabase, rowIdsGiven = TRUE),
    entries)
}

# The optional columns are read by their exact names (`[[`, never `$`, whose partial match
# once read an 'offsetDays' column as the offset). A column whose name is a near miss of an
# absent one (another case or punctuation, or a plural's s: 'Offset', 'StratumID',
# 'covariateValues') is not read: say so, rather than fit without it in silence (OHDSI's own
# snake_case names, 'stratum_id', are read as the camelCase ones first: ohdsiColumns()).
# `present`: the table's column names.
warnNearMissColumns <- function(present, optional, what) {
  key <- function(name) sub("s$", "", looseName(name))
  for (name in setdiff(optional, present)) {
    near <- present[key(present) == key(name)]
    if (length(near))
      warning(sprintf("%s has a column '%s', which is not read: did you mean '%s'?", what,
                      near[1], name), call. = FALSE)
  }
}

# A name without case and punctuation: 'stratum_id', 'StratumId' and 'stratumId' are one.
looseName <- function(name) gsub("[^a-z0-9]", "", tolower(name))

# Columns the incumbent (Cyclops) reads from an outcomes table under other names: a call
# written its way either means the same here or stops (vignette "Coming from Cyclops"), so
# these are errors, not near misses that a warning names and the fit then leaves out.
rejectCyclopsOutcomeColumns <- function(outcomes, modelType) {
  if (!is.null(outcomes[["weight"]]) && is.null(outcomes[["weights"]]))
    stopf(paste("'outcomes' has a column 'weight', which Cyclops reads as the rows' weights",
                "and Argus does not: rename it 'weights' (or drop it)"))
  if (modelType == "fgr" && !is.null(outcomes[["censorWeight"]]))
    stopf(paste("'outcomes' has a column 'censorWeight' (Cyclops's Fine-Gray censoring",
                "weights), which Argus does not read: it computes the censoring weights itself",
                "(?createData); give your own censoring survival as 'censoringSurvival', or",
                "drop the column"))
}

# The covariate entries of a covariates data frame: 0-based row (in `rowIds`), column and
# value, and the column identifiers.
covariateEntries <- function(covariates, rowIds) {
  # Row ids given as labels (character or factor) in either table are matched by their text.
  covRowIds <- checkIds(covariates[["rowId"]], "covariates$rowId")
  found <- lookupIds(covRowIds, rowIds)
  if (found$firstMissing >= 0)
    stopf("covariates$rowId %s does not appear in outcomes$rowId (%d covariate rows are unmatched)",
          idLabel(covRowIds[found$firstMissing + 1]), sum(found$position < 0))

  covariateIds <- checkIds(covariates[["covariateId"]], "covariates$covariateId")
  if (is.character(covariateIds) && "(Intercept)" %in% covariateIds)
    stopf(paste("'(Intercept)' is not a covariate id: it is the name of the intercept, which",
                "'addIntercept' adds"))
  coded <- codeIds(covariateIds)
  uniqueIds <- coded$unique
  values <- NULL
  if (!is.null(covariates[["covariateValue"]]))
    values <- checkNumericVector(covariates[["covariateValue"]], "covariates$covariateValue")
  list(entryRow = found$position, entryColumn = coded$code, entryValue = values,
       covariateIds = uniqueIds, columnNames = idLabel(uniqueIds))
}

# Arguments that the chosen route does not read are an error, not silently ignored (the
# long route reads rows' values from columns of 'outcomes'; formulas give offsets and entry
# times in the formula).
checkRouteArguments <- function(route, arguments) {
  reads <- switch(route,
                  long = "covariates",
                  matrix = c("y", "stratumId", "time", "weights", "offset", "startTime",
                             "censoringSurvival"),
                  formula = c("data", "stratumId", "time", "weights", "censoringSurvival"))
  given <- names(arguments)[!vapply(arguments, is.null, TRUE)]
  unused <- setdiff(given, reads)
  if (length(unused) == 0) return(invisible())
  hint <- switch(route,
                 long = "the long route reads each row's values from columns of 'outcomes' of those names",
                 matrix = "the matrix route takes 'x' with 'y' and per-row vectors",
                 formula = paste("the formula route takes 'data' (offsets as offset() terms,",
                                 "entry times as Surv(start, stop, status), the response on the",
                                 "left-hand side)"))
  stopf("createData() does not use %s with %s: %s", paste(sprintf("'%s'", unused), collapse = ", "),
        switch(route, long = "'outcomes'", matrix = "'x'", formula = "a formula"), hint)
}

# OHDSI's snake_case column names (newer Andromeda objects and the CDM's tables: row_id,
# covariate_id, covariate_value, stratum_id, ...) are read as the camelCase ones Argus names
# its columns by (y, time, weights and offset are one word in both). A table with both
# spellings of one column is an error: which one is meant cannot be told. Data frames,
# tibbles and database tables (renamed in the query); anything else is returned as it is.
snakeCaseColumns <- c(row_id = "rowId", covariate_id = "covariateId",
                      covariate_value = "covariateValue", stratum_id = "stratumId",
                      start_time = "startTime", censoring_survival = "censoringSurvival")

ohdsiColumns <- function(table, name) {
  if (!(is.data.frame(table) || isDatabaseTable(table))) return(table)
  have <- colnames(table)
  snake <- intersect(names(snakeCaseColumns), have)
  if (length(snake) == 0) return(table)
  both <- snake[snakeCaseColumns[snake] %in% have]
  if (length(both))
    stopf("'%s' has both '%s' and '%s' (snake_case and camelCase names of one column): keep one",
          name, both[1], snakeCaseColumns[[both[1]]])
  camel <- unname(snakeCaseColumns[snake])
  if (isDatabaseTable(table)) return(dplyr::rename(table, dplyr::all_of(stats::setNames(snake, camel))))
  names(table)[match(snake, names(table))] <- camel
  table
}

needColumns <- function(df, columns, name) {
  missing <- setdiff(columns, names(df))
  if (length(missing))
    stopf("'%s' lacks column(s) %s", name, paste(sprintf("'%s'", missing), collapse = ", "))
}

# A dense Matrix (what Matrix::Matrix() makes of dense data: dgeMatrix) as a base matrix;
# anything else as it is.
denseMatrixAsMatrix <- function(x) if (methods::is(x, "denseMatrix")) as.matrix(x) else x

matrixInput <- function(x, y, stratumId, time, weights, offset, modelType, addIntercept = NULL,
                        startTime = NULL, censoringSurvival = NULL) {
  if (is.data.frame(x)) stopf("'x' must be a matrix or a Matrix::dgCMatrix; use the formula route for data frames")
  if (is.null(y)) stopf("the matrix route needs the outcome 'y'")
  if (inherits(y, "Surv"))
    stopf(paste("the matrix route takes the status as 'y' and the times as 'time' (and",
                "'startTime'), not a Surv object: y = status, time = times; or use the formula route"))
  if (is.matrix(y) && ncol(y) > 1) stopMatrixResponse("a matrix 'y'", modelType)
  x <- denseMatrixAsMatrix(x)
  if (!(is.matrix(x) || is(x, "sparseMatrix")))
    stopf("'x' must be a matrix or a Matrix::dgCMatrix, not %s", class(x)[1])
  if (is.matrix(x) && !(is.numeric(x) || is.logical(x)))
    stopf("'x' must be numeric")
  if (nrow(x) != length(y))
    stopf("'x' has %d rows but 'y' has %d values", nrow(x), length(y))
  if (ncol(x) == 0) stopf("'x' has no columns")
  if (!is.null(stratumId) && !hasStratumBaseline(modelType))
    stopf("'stratumId' %s", withoutStrata(modelType))
  columnNames <- colnames(x) %||% paste0("V", seq_len(ncol(x)))
  # (cbind(a = u, v + 0) names its second column ""; the fit had a coefficient no newdata
  # column could name, and predict() gave NA)
  if (anyNA(columnNames) || any(columnNames == ""))
    stopf("'x' has a column without a name (column %d): name every column, or none",
          which(is.na(columnNames) | columnNames == "")[1])
  if (anyDuplicated(columnNames))
    stopf("column names of 'x' must be unique ('%s' repeats)", columnNames[anyDuplicated(columnNames)])
  intercept <- interceptColumn(x, modelType, addIntercept)
  x <- intercept$x
  addIntercept <- intercept$addIntercept
  columnNames <- setdiff(columnNames, "(Intercept)")
  entries <- matrixEntries(x)
  bad <- which(!is.finite(entries$value))
  if (length(bad)) stopf("'x' has %d missing or non-finite value(s)", length(bad))
  list(rowIds = seq_len(nrow(x)), y = if (is.logical(y)) as.numeric(y) else y,
       stratumId = stratumId, time = time, weights = weights, offset = offset,
       startTime = startTime, censoringSurvival = censoringSurvival, entryRow = entries$row, entryColumn = entries$column,
       entryValue = entries$value, covariateIds = NULL, columnNames = columnNames,
       addIntercept = addIntercept)
}

# A column named "(Intercept)" (as model.matrix() makes) is the intercept, not a covariate.
# All 1, it leaves `x`, and the model gets Argus's own intercept (unpenalized unless
# forceIntercept); a conditional or survival model, where no intercept is identifiable,
# drops it with a message (as coxph does). Any other "(Intercept)" column is an error.
interceptColumn <- function(x, modelType, addIntercept) {
  j <- which(colnames(x) == "(Intercept)")
  if (length(j) == 0) return(list(x = x, addIntercept = addIntercept))
  values <- as.numeric(x[, j])
  bad <- which(is.na(values) | values != 1)
  if (length(bad))
    stopf(paste("column '(Intercept)' of 'x' is not all 1 (row %d is %g): that name is the",
                "intercept's, which Argus adds itself (see 'addIntercept'); rename the column"),
          bad[1], values[bad[1]])
  x <- x[, -j, drop = FALSE]
  if (hasStratumBaseline(modelType)) {
    message(sprintf(paste("the '(Intercept)' column of 'x' is dropped: an intercept is not",
                          "identifiable in a %s model ('%s')"),
                    if (isConditionalModel(modelType)) "conditional" else "survival", modelType))
    return(list(x = x, addIntercept = addIntercept))
  }
  if (identical(addIntercept, FALSE))
    stopf(paste("'x' has an '(Intercept)' column of ones but addIntercept = FALSE: drop the",
                "column for a model without an intercept, or leave 'addIntercept' out"))
  list(x = x, addIntercept = TRUE)
}

# Nonzero entries of a dense or sparse matrix as 0-based (row, column, value) triplets.
# NA entries are kept (they are not zero) so that the caller can report them.
matrixEntries <- function(x) {
  if (is.matrix(x)) {
    at <- which(is.na(x) | x != 0)
    n <- nrow(x)
    return(list(row = as.integer((at - 1) %% n), column = as.integer((at - 1) %/% n),
                value = as.double(x[at])))
  }
  sparse <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
  list(row = sparse@i, column = rep.int(seq_len(ncol(x)) - 1L, diff(sparse@p)),
       value = sparse@x)
}

formulaInput <- function(formula, data, modelType, stratumId, time, weights,
                         censoringSurvival = NULL, na.action = NULL, failcode = NULL,
                         timeExpression = NULL) {
  if (is.null(data)) stopf("the formula route needs 'data'")
  if (!is.data.frame(data)) stopf("'data' must be a data frame")
  if (nrow(data) == 0) stopf("'data' has no rows")
  # a tibble's `[` and `$<-` differ from a data frame's; the rows are read as a data frame
  data <- as.data.frame(data)
  data <- integer64ColumnsAsDouble(data)
  formula <- expandDot(formula, data)
  userFormula <- formula  # formula() of the fit: as given, `.` expanded
  data <- withFormulaVariables(formula, data)
  # (complete.cases() and model.frame() stop on them with R's internal messages)
  for (name in intersect(all.vars(formula), names(data)))
    if (is.list(data[[name]]))
      stopf("column '%s' is a list%s: a formula reads columns of one value per row", name,
            if (inherits(data[[name]], "POSIXlt")) " (POSIXlt; as.POSIXct() makes it one)" else "")
  rejectUnsupportedTerms(formula, data, modelType)
  complete <- omitMissingRows(formula, data, list(stratumId = stratumId, time = time,
                                                  weights = weights,
                                                  censoringSurvival = censoringSurvival), na.action)
  allRows <- data
  data <- complete$data
  stratumId <- complete$vectors$stratumId
  time <- complete$vectors$time
  weights <- complete$vectors$weights
  censoringSurvival <- complete$vectors$censoringSurvival
  tt <- terms(formula, specials = "strata", data = data)
  if (attr(tt, "response") == 0) stopf("the formula needs a response on its left-hand side")
  # cluster(id) names the clusters of the robust variance (R/formula_extras.R), not a covariate
  clustered <- clusterTerm(formula, data)
  formula <- clustered$formula
  tt <- terms(formula, specials = "strata", data = data)
  strataIndex <- attr(tt, "specials")$strata
  strataCall <- NULL
  strataInteract <- FALSE
  if (length(strataIndex) >= 1) {
    if (!is.null(stratumId))
      stopf("give the strata once: a strata() term in the formula or 'stratumId', not both")
    # strata(a) + strata(b) is strata(a, b), as coxph reads it (it was refused); each term
    # still names its strata on its own (strataTerm)
    calls <- lapply(strataIndex, function(i) attr(tt, "variables")[[i + 1]])
    strataTerm <- rep(seq_along(calls), vapply(calls, function(cl) length(cl) - 1L, 0L))
    strataCall <- as.call(c(as.name("strata"), unlist(lapply(calls, function(cl) as.list(cl)[-1]))))
    strataParts <- strataVariables(strataCall, data, environment(formula) %||% parent.frame())
    stratumId <- pasteStrata(strataParts)
    strataLabels <- vapply(calls, function(cl) deparse(cl, width.cutoff = 500L), "")
    # x:strata(g) is coded as coxph codes it: against the strata as a main effect, whose own
    # columns are then dropped (with the main effect left out first, every level of x got a
    # column within each stratum: the same fit under other names, coxph's ones NA)
    strataInteract <- strataInInteractions(tt, strataIndex)
    if (strataInteract) environment(formula) <- strataFactorEnvironment(environment(formula) %||% parent.frame())
    else for (label in strataLabels) formula <- update(formula, stats::as.formula(paste(". ~ . -", label)))
  }
  startTime <- NULL
  surv <- if (isSurvivalResponse(formula)) survivalResponse(formula, data, modelType, failcode)
          else prebuiltSurvival(formula, data, modelType)
  if (is.null(surv) && isSurvivalModel(modelType) && is.null(time))
    stopf(paste("modelType '%s' needs a Surv(time, status) response (or Surv(start, stop, status)),",
                "or the times in 'time'"), modelType)
  if (!is.null(surv)) {
    if (!is.null(time)) stopf("give the times once: in Surv() or in 'time', not both")
    time <- surv$time
    startTime <- surv$startTime
    formula[[2]] <- as.name(".survivalOutcome")
    data$.survivalOutcome <- surv$status
  }
  # Levels no row uses are dropped, as lm() and glm() drop them: kept, each would be an
  # all-zero column (an NA coefficient), and predict() would price the level as the
  # reference level instead of refusing it as a new level.
  mf <- modelFrameOfKeptRows(formula, data, allRows, complete$naAction)
  y <- model.response(mf)
  if (is.matrix(y)) stopMatrixResponse(sprintf("a matrix response (%s)", deparse(formula[[2]])), modelType)
  if (is.factor(y)) {
    # as glm's binomial family: the first level is failure (0), the others success (1); a count
    # or a measurement is not a label (lm and glm's poisson warn and fit garbage)
    if (!modelType %in% c("lr", "clr"))
      stopf("a factor response is for modelType \"lr\" and \"clr\" (read as 0/1), not '%s': give numbers",
            modelType)
    if (nlevels(y) != 2) stopf("a factor response must have exactly two levels")
    y <- as.numeric(y == levels(y)[2])
  }
  if (is.logical(y)) y <- as.numeric(y)
  # A model with a baseline per stratum has no intercept to fit, so a "- 1" or "0 +" changes
  # nothing in its model: as coxph, its factors keep the treatment coding of a formula with an
  # intercept (with "- 1" every level got a column and the last one was aliased, its first
  # level no longer the reference)
  if (hasStratumBaseline(modelType) && attr(attr(mf, "terms"), "intercept") == 0)
    attr(attr(mf, "terms"), "intercept") <- 1L
  x <- model.matrix(attr(mf, "terms"), mf)
  assign <- attr(x, "assign")  # each column's term (anova() refits term by term); `[` drops it
  if (isTRUE(strataInteract)) {
    kept <- !(assign %in% which(attr(attr(mf, "terms"), "term.labels") %in% strataLabels))
    x <- x[, kept, drop = FALSE]
    assign <- assign[kept]
  }
  # predict() rebuilds the design of new data from these (factor levels and contrasts too).
  # `time` where `time = Holders` named columns of `data`: a pr fit's new rows take their
  # exposure from their own columns, as an offset(log(Holders)) term would.
  formulaTerms <- list(terms = stats::delete.response(attr(mf, "terms")),
                       xlevels = stats::.getXlevels(attr(mf, "terms"), mf),
                       contrasts = attr(x, "contrasts"), strata = strataCall,
                       strataOrder = if (!is.null(strataCall))
                         survivalStrataOrder(strataCall, strataParts, strataTerm),
                       time = if (is.null(surv)) timeExpression, formula = userFormula,
                       assign = stats::setNames(assign, colnames(x)))
  intercept <- colnames(x) == "(Intercept)"
  hasIntercept <- any(intercept)
  # y ~ 1 (a null model, as glm fits it) keeps the intercept's column for matrixInput(),
  # which takes it for Argus's intercept; a model without an intercept needs a covariate
  interceptOnly <- hasIntercept && ncol(x) == 1 && !hasStratumBaseline(modelType)
  if (!interceptOnly) {
    x <- x[, !intercept, drop = FALSE]
  }
  if (ncol(x) == 0)
    stopf("the formula has no covariates%s", if (hasStratumBaseline(modelType))
      sprintf(" (a '%s' model has no intercept to fit alone)", modelType) else "")
  if (anyDuplicated(colnames(x)))  # (lm fits two coefficients of one name; none can be named)
    stopf(paste("two terms of the formula give the coefficient name '%s' (a factor's level and",
                "a column, say): rename one"), colnames(x)[anyDuplicated(colnames(x))])
  input <- matrixInput(x, y, stratumId, time, weights, model.offset(mf), modelType,
                       addIntercept = hasIntercept && !hasStratumBaseline(modelType),
                       startTime = startTime, censoringSurvival = censoringSurvival)
  input$formulaTerms <- formulaTerms
  input$cluster <- clustered$cluster
  if (!is.null(complete$naAction)) {
    # rows keep their numbers in the user's data frame
    input$rowIds <- seq_len(nrow(data) + length(complete$naAction))[-complete$naAction]
    input$naAction <- complete$naAction
  }
  # fitted(), residuals() and predict() name the rows by the data frame's row names, as glm
  # does; kept only where those are not the row numbers themselves.
  # (Integer row names stay integers: a character copy costs ~60 bytes a row.)
  rowNames <- attr(data, "row.names")
  if (!(is.integer(rowNames) && identical(rowNames, as.integer(input$rowIds))))
    input$rowNames <- rowNames
  input
}

# The stratum of each row from a strata(a, b, ...) call: one variable's values, or several
# pasted together.
strataValues <- function(call, data, env) pasteStrata(strataVariables(call, data, env))
strataVariables <- function(call, data, env) {
  lapply(as.list(call)[-1], function(e) eval(e, data, env))
}
# One key per row (a number that is not whole counts by its printed value: stratumCodes()).
pasteStrata <- function(parts) {
  if (length(parts) == 1) parts[[1]] else do.call(paste, c(parts, sep = "\r"))
}

# The strata as survival's strata() orders and names them (survfit.coxph lists its curves
# so): each variable's values in level order (a factor's levels, numbers numerically, text
# sorted), the first variable varying slowest; within each strata() term, bare values where
# every variable of the term is a factor or text, "var=value" otherwise, joined by ", "
# (strata() also pads some labels with spaces; not here). `parts`: the variables' values
# (strataVariables()); `term`: the strata() term of each (several terms are one call here);
# `keys`: the fit's stratum keys (stratumKey() of strataValues()) in that order; `labels`:
# their names.
survivalStrataOrder <- function(call, parts, term = rep(1L, length(parts))) {
  args <- as.list(call)[-1]
  keys <- stratumKey(pasteStrata(parts))
  one <- which(!duplicated(keys))
  ranks <- lapply(parts, function(p) as.integer(if (is.factor(p)) p else factor(p))[one])
  one <- one[do.call(order, unname(ranks))]
  values <- lapply(parts, function(p) as.character(p)[one])
  text <- vapply(parts, function(p) is.factor(p) || is.character(p), TRUE)
  bare <- tapply(text, term, all)[as.character(term)]
  vars <- vapply(args, function(e) deparse(e, width.cutoff = 500L), "")
  values <- Map(function(v, x, b) if (b) x else paste0(v, "=", x), vars, values, bare)
  list(keys = keys[one], labels = do.call(paste, c(unname(values), sep = ", ")))
}

isSurvivalResponse <- function(formula) {
  length(formula) == 3 && is.call(formula[[2]]) &&
    deparse(formula[[2]][[1]]) %in% c("Surv", "survival::Surv")
}

# Surv(time, status) or Surv(start, stop, status) on the left of a formula, read here (not by
# survival::Surv, which would reject Fine-Gray's status 2).
survivalResponse <- function(formula, data, modelType, failcode = NULL) {
  if (!isSurvivalModel(modelType))
    stopf("a Surv() response is for modelType 'cox' or 'fgr', not '%s'", modelType)
  env <- environment(formula) %||% parent.frame()
  args <- survArguments(formula[[2]], data, env, modelType)
  if (is.null(args$status)) {
    # Surv(time): every row an event, as survival reads it
    if (modelType == "fgr") stopf("Surv() for 'fgr' needs a status with the competing events")
    args$status <- rep(1, length(args$time))
  }
  args <- Filter(Negate(is.null), list(args$start, args$time, args$status))
  status <- args[[length(args)]]
  if (modelType == "fgr") status <- competingStatus(status, failcode)
  else if (!is.null(failcode)) stopf("'failcode' is for modelType 'fgr'")
  status <- survivalStatus(status, modelType)
  if (length(args) == 2) return(list(time = args[[1]], startTime = NULL, status = status))
  list(time = args[[2]], startTime = args[[1]], status = status)
}

# The arguments of a Surv() call matched as survival::Surv() matches them (time, time2,
# event, type, origin), evaluated in the data: list(start, time, status), start NULL for
# right-censored data, status NULL for Surv(time). Types other than right-censored and
# counting-process data, and a non-zero origin, are refused by name.
survArguments <- function(call, data, env, modelType) {
  matched <- tryCatch(match.call(function(time, time2, event, type, origin = 0) NULL, call),
                      error = function(e) stopf("%s: Surv() takes (time, time2, event, type, origin)",
                                                conditionMessage(e)))
  given <- as.list(matched)[-1]
  value <- function(name) if (is.null(given[[name]])) NULL else eval(given[[name]], data, env)
  type <- value("type")
  if (!is.null(type)) {
    # abbreviations as survival's match.arg; "mstate" is how survival reads a competing-risks
    # status, so fgr takes it
    types <- c("right", "left", "interval", "counting", "interval2", "mstate")
    full <- if (is.character(type) && length(type) == 1) types[pmatch(type, types)] else NA
    readable <- c("right", "counting", if (modelType == "fgr") "mstate")
    if (is.na(full) || !(full %in% readable))
      stopf("Surv(type = \"%s\") is not supported for '%s': give right-censored Surv(time, status)%s",
            paste(type, collapse = ", "), modelType,
            if (modelType == "cox") " or Surv(start, stop, status) data" else " data")
    type <- full
  }
  origin <- value("origin")
  if (!is.null(origin) && any(origin != 0)) stopf("Surv(origin = ) is not supported: shift the times instead")
  time <- value("time")
  time2 <- value("time2")
  event <- value("event")
  if (is.null(time)) stopf("Surv() needs (time, status) or (start, stop, status)")
  counting <- !is.null(event) && !is.null(time2)
  if (identical(type, "counting") && !counting) stopf("Surv(type = \"counting\") needs (start, stop, status)")
  if (counting) return(list(start = time, time = time2, status = event))
  list(start = NULL, time = time, status = event %||% time2)
}

# cbind(successes, failures) and other matrix responses: what to give instead.
stopMatrixResponse <- function(what, modelType) {
  if (isSurvivalModel(modelType))
    stopf("%s is not read for modelType '%s': give a Surv(time, status) response", what, modelType)
  if (modelType == "lr")
    stopf(paste("%s is not supported: for grouped binomial data give one row per outcome (1 for",
                "the successes, 0 for the failures) with the counts as weights"), what)
  stopf("%s is not supported: give one outcome per row", what)
}

# A response that is already a survival::Surv object (a column of the data, say), as coxph
# takes it: right-censored or (start, stop] data for cox. NULL where the response is not one.
prebuiltSurvival <- function(formula, data, modelType) {
  if (length(formula) != 3 || !isSurvivalModel(modelType)) return(NULL)
  lhs <- tryCatch(eval(formula[[2]], data, environment(formula) %||% parent.frame()),
                  error = function(e) NULL)
  if (!inherits(lhs, "Surv")) return(NULL)
  type <- attr(lhs, "type")
  if (modelType != "cox" || !(type %in% c("right", "counting")))
    stopf(paste("a prebuilt Surv object of type '%s' is not read for modelType '%s': write",
                "Surv(time, status) or Surv(start, stop, status) in the formula"), type, modelType)
  status <- survivalStatus(lhs[, "status"], modelType)
  if (type == "right") return(list(time = lhs[, "time"], startTime = NULL, status = status))
  list(time = lhs[, "stop"], startTime = lhs[, "start"], status = status)
}

# The status of Surv() as 0/1 (cox) or 0/1/2 (fgr). Cox reads it as survival::Surv does:
# logical (TRUE = event); a two-level factor (second level = event); numbers 0/1, or 1/2
# (survival's coding, 1 censored, 2 event: when the largest status is 2, 1 is subtracted).
# What is then not 0/1 is an error (survival makes it NA with a warning). Fine-Gray keeps
# Argus's coding 0 censored, 1 event, 2 competing event, never shifted; a status without any
# 0 is refused there, since survival's 1/2 coding would read as "all events, no censoring".
survivalStatus <- function(status, modelType) {
  if (is.factor(status)) {
    if (nlevels(status) != 2) stopf("a factor status in Surv() must have two levels")
    return(as.numeric(status == levels(status)[2]))
  }
  if (is.logical(status)) return(as.numeric(status))
  if (!is.numeric(status)) stopf("the status in Surv() must be numeric, logical or a factor, not %s",
                                 class(status)[1])
  known <- status[!is.na(status)]
  if (modelType == "fgr") {
    if (length(known) && !any(known == 0))
      stopf(paste("the Surv() status of modelType 'fgr' has no 0 (censored): Argus reads 0 as",
                  "censored, 1 as the event and 2 as the competing event (not survival's 1/2",
                  "coding); recode it, or give y through the matrix or long route if no row",
                  "is censored"))
    return(status)
  }
  shifted <- length(known) > 0 && max(known) == 2
  if (shifted) status <- status - 1
  bad <- which(!is.na(status) & status != 0 & status != 1)
  if (length(bad))
    stopf(paste("the Surv() status of row %d is %g: modelType 'cox' reads statuses 0/1",
                "(0 censored) or 1/2 (1 censored, as survival does), logical or a two-level",
                "factor%s"), bad[1], status[bad[1]] + shifted,
          if (shifted && any(known == 0)) "; statuses 0, 1 and 2 are competing risks: modelType 'fgr'" else "")
  status
}
