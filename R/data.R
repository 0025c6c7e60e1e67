#' Create an Argus data object
#'
#' Builds the data object that [fitModel()] fits, from one of three inputs:
#' \describe{
#'   \item{long tables (OHDSI format)}{`outcomes` with columns `rowId`, `y` and optionally
#'     `stratumId`, `time`, `weights`, `offset`; `covariates` with columns `rowId`,
#'     `covariateId` and optionally `covariateValue` (default 1). Identifiers (`rowId`,
#'     `covariateId`) may be whole numbers (as doubles: below 2^53 in absolute value, where
#'     each stands for one id; the double 2^53 is also what 2^53 + 1 rounds to),
#'     `bit64::integer64`, character labels, or factors, which are read by their labels
#'     (never by their integer codes). Row ids match across the two tables by value, or by
#'     their text when either table gives labels (a number by its digits, 1e15 as
#'     "1000000000000000"). Coefficients are named by covariate id: numbers come in
#'     increasing order, labels in the C-locale order of their text; the label
#'     `"(Intercept)"` is reserved for the intercept. OHDSI's snake_case column names (as
#'     newer Andromeda objects hold them: `row_id`, `covariate_id`, `covariate_value`,
#'     `stratum_id`, `start_time`, `censoring_survival`) are read as these camelCase ones;
#'     a table with both spellings of one column is an error.}
#'   \item{a matrix}{`x` (a `matrix`, a sparse `Matrix` such as `dgCMatrix`, or a dense one, one row per observation) with
#'     `y` and optional `stratumId`, `time`, `weights`, `offset` vectors. A column named
#'     `"(Intercept)"` (as `model.matrix()` makes) must be all 1 and is the intercept: it
#'     leaves the covariates and the model gets Argus's own unpenalized intercept (`"ls"`,
#'     `"lr"`, `"pr"`; `addIntercept = FALSE` with such a column is an error), or, for
#'     conditional and survival models, where no intercept is identifiable, it is dropped
#'     with a message.}
#'   \item{a formula}{`formula` with `data`; `strata(...)` terms give the strata,
#'     `offset(...)` terms the offset, and a `cluster(id)` term the clusters of the robust
#'     variance ([vcov.argusFit()]; it is not a covariate). `weights`, `time`, `stratumId`
#'     and `censoringSurvival` may name columns of `data` (`weights = iptw`,
#'     `time = exposure`), as `lm()`'s `weights` does.}
#' }
#' Rows need not be sorted: the engine orders them itself, and results come back in the
#' user's covariate identifiers or column names.
#'
#' `time` is the exposure length for `"pr"`, `"cpr"` and `"sccs"` (it enters as a log
#' offset), and the event or censoring time for `"cox"` and `"fgr"` (`y`: 0 censored, 1 event,
#' and for `"fgr"` 2 competing event; strata, if given, have their own baseline hazard).
#' `"cpr"` and `"sccs"` require `time` (a missing exposure is an error, not a guess): give
#' `time = 1` for every row to say that all rows have equal exposure. For conditional
#' models (`"clr"`, `"cpr"`, `"sccs"`), strata without any event contribute nothing to the
#' likelihood: they are dropped, and `print()` says how many.
#'
#' A two-level factor response of the formula route (`"lr"`, `"clr"`) is read as glm's
#' binomial family reads it: the first level 0, the second 1; other models refuse factors.
#'
#' A `Surv()` response of the formula route is read as `survival::Surv()` reads it for
#' `"cox"`: a logical status (`TRUE` = event), a two-level factor (second level = event), or
#' numbers 0/1 (0 censored) or 1/2 (survival's coding, as in `survival::lung`: when the
#' largest status is 2, 1 is subtracted, so 1 is censored and 2 the event); any other value
#' is an error naming the row. For `"fgr"` the status keeps Argus's coding (0 censored, 1
#' event, 2 competing event) and is never shifted; since survival's 1/2 coding would then
#' read as events and competing events without censoring, a `Surv()` status for `"fgr"` with
#' no 0 is refused (give `y` through the matrix or long route for data without censoring).
#' For `"cox"` and `"fgr"`, times that differ by rounding alone (from time arithmetic) are one
#' time, as in `coxph()` with its default `timefix = TRUE` (and `finegray()` with `coxph()`;
#' `cmprsk::crr` keeps them apart in its risk sets, so that a difference of 1e-13 moved a
#' coefficient by 1%). As there, "rounding" is a gap of at most `sqrt(.Machine$double.eps)`
#' (1.5e-8) absolutely or relative to the mean |time|: times far from their origin (days
#' since 1970 in seconds, 1e9 + months) merge gaps of many units, so give times from a near
#' origin (the start of follow-up).
#' For `"cox"` the response may also be a `survival::Surv` object already made (a column of
#' `data`, say), right-censored or `(start, stop]`, as `coxph()` takes it. A matrix response
#' such as `cbind(successes, failures)` is refused: give one row per outcome with the counts
#' as weights.
#'
#' Weights may not all be zero, and a conditional or survival model needs an event with a
#' positive weight. A covariate whose largest absolute value is above 1e100, or nonzero but
#' below 1e-100, is refused: the fit works with squares of covariate values (the Hessian),
#' which then overflow or underflow in double precision; rescale such a column.
#'
#' Conditional logistic regression (`"clr"`) with several cases in a matched set: the exact
#' conditional likelihood (`ties = "exact"`, the default, as in `survival::clogit`) sums over
#' every way of choosing that many cases among the set's rows; its cost grows with rows times
#' cases of each set with two or more cases (sets with one case cost the same under every
#' method). `"breslow"` and `"efron"` approximate it as `clogit(method = "breslow")` and
#' `clogit(method = "efron")` do; `createData()` says so in a message when a set has several
#' cases. With `"exact"`, a set with several cases takes one weight for all its rows (0 leaves
#' a row out): its conditional likelihood has no row-by-row weighting, so weights that vary
#' within such a set are an error here and in [fitModel()]. Cross-validation and
#' [runBootstrap()] sample whole sets for conditional models, so they keep this. The
#' weights enter the log-likelihood as in `coxph()` (whose weighted partial likelihood
#' `clogit(method = "breslow")` reports): in the set's sum of `w exp(eta)` as well as its
#' multiplier, so a set of weight `w` with `k` cases reports `w log L - w k log w`, where `L`
#' is its unweighted conditional likelihood: the coefficients and their variance are those
#' of the set entered `w` times, and the log-likelihood differs from `w log L` by a constant
#' that no coefficient changes (likelihood-ratio tests and profiles are unaffected).
#'
#' **Database tables.** `outcomes` and `covariates` may also be tables on a DBI connection
#' (`dplyr::tbl()` of a connection, as `dbplyr` makes them; Andromeda tables are such
#' tables), e.g. RSQLite or PostgreSQL. The outcomes are read whole, sorted by `rowId` (the
#' database sorts), and checked as a data frame would be. The covariates table is never read
#' whole: the database sorts it by `covariateId` and `rowId` and it is read `batchSize` rows
#' at a time, each batch checked and appended to the design as the engine builds it, so
#' memory holds the design and one batch, never the table. Bad rows get the same
#' errors as in a data frame; a position in such an error counts rows of the sorted table.
#' The fit is the one of the same tables given as data frames (with the outcomes sorted by
#' `rowId`). This needs the packages DBI, dplyr and dbplyr.
#'
#' @param outcomes A data frame of outcomes (long format), or a database table (see
#'   Details). A formula or a matrix given here is treated as `formula` or `x`.
#' @param covariates A data frame of covariates (long format), or a database table.
#' @param modelType One of `"ls"` (least squares), `"lr"` (logistic), `"pr"` (Poisson),
#'   `"clr"` (conditional logistic), `"cpr"` (conditional Poisson), `"sccs"` (self-controlled
#'   case series), `"cox"` (Cox proportional hazards), `"fgr"` (Fine-Gray competing risks).
#' @param x A numeric `matrix`, or a `Matrix` (sparse, as `dgCMatrix`, or dense) of covariates.
#' @param y The outcome vector for the matrix route.
#' @param formula A model formula, for the formula route.
#' @param data A data frame in which to evaluate `formula`.
#' @param stratumId Stratum of each row (matrix route), e.g. a patient or a matched set:
#'   numbers, text, or a factor (read by its labels).
#' @param time Exposure time of each row (matrix and formula routes), required by `"cpr"`
#'   and `"sccs"`; for `"cox"` and `"fgr"`, the event or censoring time (any finite number,
#'   negative ones too, as in `coxph()`: only the order of the times matters).
#' @param weights Non-negative weight of each row (matrix and formula routes), not all zero.
#'   Double precision bounds them: the positive ones must lie within a factor 2^52 (about
#'   4.5e15) of the largest, none below 1e-100, and they must total at most 2^53; other
#'   weights are an error (set weights meant to be negligible to 0; multiplying all weights
#'   by one number leaves the estimates as they are).
#' @param offset Offset of each row (matrix route; formulas use `offset()` terms).
#' @param addIntercept Add an intercept? Defaults to `TRUE` for `"ls"`, `"lr"` and `"pr"` in
#'   the long and matrix routes (a formula decides for itself, and so does an `"(Intercept)"`
#'   column of `x`); never allowed for conditional or survival models. The intercept's
#'   covariate id is 0 (as the incumbent numbers it), so long data with a covariate 0 need
#'   `addIntercept = FALSE`.
#' @param startTime Counting-process entry time of each row (`"cox"`, matrix route; the long
#'   route reads `outcomes$startTime`, formulas `Surv(start, stop, status)`): the row is at
#'   risk on `(startTime, time]`, for time-varying covariates and delayed entry.
#' @param ties How cases that share an event time (`"cox"`) or a matched set (`"clr"`)
#'   enter the likelihood: `"breslow"`, `"efron"` or `"exact"` (`"clr"` only). `NULL`
#'   (default): `"efron"` for `"cox"` on every route (long tables, matrices and formulas), as
#'   `survival::coxph` (until 2026-12 Argus used Breslow's, which the incumbent Cyclops uses:
#'   give `ties = "breslow"` for its numbers), and `"exact"` for `"clr"` (as
#'   `survival::clogit`). Without tied event times the three are one likelihood. `print()` of
#'   the data and of the fit names the method. Fine-Gray (`"fgr"`) uses Breslow's, as
#'   `cmprsk::crr`; other models have only their one likelihood and accept only
#'   `"breslow"`.
#' @param censoringSurvival Fine-Gray only: the probability of remaining uncensored just
#'   before each row's time, G(time-), one per row (long route: `outcomes$censoringSurvival`).
#'   A competing row stays in the risk set of a later event time t with weight
#'   G(t-) / G(time-). G is one function of time (per stratum): events tied at one time
#'   must have one value, and it must not rise with time (a competing row's value below a
#'   later event's is an error: it would weight the row above 1), nor span more than 1e10
#'   over the event and competing rows of a stratum (scaled as a whole it changes nothing); censoring distributions of several groups (`crr`'s `cengroup`)
#'   are not supported. `NULL` (default): the Kaplan-Meier estimate of the censoring
#'   distribution, computed inside with the row weights, as `cmprsk::crr` does (except
#'   that G(0-) is 1 where rows are censored at time 0; `crr`'s interpolation puts it
#'   below 1 there, and its estimates then differ slightly).
#' @param censoringByStratum Fine-Gray only: estimate one censoring distribution per stratum
#'   instead of one over all rows.
#' @param batchSize Number of covariate rows read at a time from a database `covariates`
#'   table.
#' @param na.action Formula route: what to do with rows that have a missing value in a
#'   variable the model uses (or in `weights`, `stratumId`, `time`), as `glm()` and
#'   `survival::coxph()` take it: `NULL` (default) reads `getOption("na.action")`, R's
#'   `"na.omit"` unless set otherwise; `na.omit`, drop them; `na.exclude`, drop them and
#'   give `NA` for them in [residuals.argusFit()], `fitted()` and `predict()` without
#'   `newdata` (`stats::naresid()`, `napredict()`); `na.fail`, an error that names the
#'   columns. Functions or their names. `print()` of the data and of the fit says how many
#'   rows were dropped (`stats::naprint()`), and `stats::na.action(fit)` returns them.
#'   Until 2026-12 the default was an error. Kept rows keep their row numbers as
#'   identifiers. The long and matrix routes take no `na.action`: a missing value there is
#'   an error.
#' @param ... Only the incumbent's `convertToCyclopsData()` arguments that change nothing
#'   here, for ported code: `checkRowIds`, `quiet`, `checkSorting` (any value) and
#'   `normalize = NULL`. Any other argument is an error.
#' @param failcode Fine-Gray only: the event of interest when the status has several causes
#'   (as `cmprsk::crr`). A factor status (formula `Surv(time, cause)` or matrix-route `y`)
#'   reads its first level as censoring, `failcode` (default: the second level) as the event
#'   and every other level as competing; a numeric status keeps 0 as censoring, `failcode` is
#'   the event and other codes compete.
#' @return An object of class `argusData`.
#' @examples
#' outcomes <- data.frame(rowId = 1:6, y = c(1, 0, 1, 0, 0, 1))
#' covariates <- data.frame(rowId = c(1, 2, 3, 5), covariateId = c(10, 10, 11, 11),
#'                          covariateValue = 1)
#' d <- createData(outcomes, covariates, modelType = "lr")
#' d
#' @export
createData <- function(outcomes = NULL, covariates = NULL, modelType, x = NULL, y = NULL,
                       formula = NULL, data = NULL, stratumId = NULL, time = NULL,
                       weights = NULL, offset = NULL, addIntercept = NULL, startTime = NULL,
                       ties = NULL, censoringSurvival = NULL,
                       censoringByStratum = FALSE, batchSize = 100000, na.action = NULL,
                       failcode = NULL, ...) {
  cyclopsDataArguments(...)
  # `weights = iptw`, `time = exposure`, ... may name columns of the formula's `data`, as
  # lm()'s weights does (a promise not naming columns is evaluated as usual).
  caller <- parent.frame()
  fromData <- function(expr, value) if (namesColumns(expr, data)) eval(expr, data, caller) else value
  weights <- fromData(substitute(weights), weights)
  # kept for predict(), which reads a pr fit's exposure from new rows' own columns
  timeExpression <- if (namesColumns(substitute(time), data)) substitute(time)
  time <- fromData(substitute(time), time)
  stratumId <- fromData(substitute(stratumId), stratumId)
  censoringSurvival <- fromData(substitute(censoringSurvival), censoringSurvival)
  # (the formula route refuses these with its own message, which a column name, read as a
  # variable of the caller, never reached: "object 'z' not found")
  offset <- fromData(substitute(offset), offset)
  startTime <- fromData(substitute(startTime), startTime)
  if (inherits(outcomes, "formula")) {
    formula <- outcomes
    outcomes <- NULL
  } else if (is.matrix(outcomes) || inherits(outcomes, "Matrix")) {
    x <- outcomes
    outcomes <- NULL
  }
  if (missing(modelType)) stopf("'modelType' is required: one of %s", paste(modelTypes(), collapse = ", "))
  modelType <- checkModelType(modelType)
  ties <- resolveTies(ties, modelType)
  checkFlag(censoringByStratum, "censoringByStratum")
  if (censoringByStratum && modelType != "fgr") stopf("'censoringByStratum' is for modelType 'fgr' only")
  routes <- c(!is.null(outcomes), !is.null(x), !is.null(formula))
  if (sum(routes) != 1)
    stopf("give exactly one of: 'outcomes' with 'covariates', 'x' with 'y', or 'formula' with 'data'")
  checkRouteArguments(c("long", "matrix", "formula")[routes],
                      list(covariates = covariates, y = y, data = data, stratumId = stratumId,
                           time = time, weights = weights, offset = offset,
                           startTime = startTime, censoringSurvival = censoringSurvival))
  if (!is.null(addIntercept)) checkFlag(addIntercept, "addIntercept")
  if (isTRUE(addIntercept) && hasStratumBaseline(modelType))
    stopf("an intercept is not identifiable in a conditional or survival model ('%s')", modelType)
  started <- proc.time()[["elapsed"]]
  input <- if (routes[1]) {
    longInput(outcomes, covariates, modelType, checkBatchSize(batchSize))
  } else if (routes[2]) {
    matrixInput(x, y, stratumId, time, weights, offset, modelType, addIntercept,
                startTime = startTime, censoringSurvival = censoringSurvival)
  } else {
    formulaInput(formula, data, modelType, stratumId, time, weights, censoringSurvival,
                 na.action, failcode, timeExpression)
  }
  if (!is.null(failcode) && modelType != "fgr") stopf("'failcode' is for modelType 'fgr'")
  if (modelType == "fgr" && !routes[3]) input$y <- competingStatus(input$y, failcode)
  if (!is.null(na.action) && !routes[3]) stopf("'na.action' is for the formula route")
  if (is.null(addIntercept)) addIntercept <- input$addIntercept %||% !hasStratumBaseline(modelType)
  input$ties <- ties
  input$censoringByStratum <- censoringByStratum
  result <- assembleData(input, modelType, addIntercept && !hasStratumBaseline(modelType))
  checkExactWeights(result, result$weights, "weights")
  noteApproximateTies(result)
  if (isTRUE(input$unusedStrata))
    warning(sprintf(paste("'outcomes$stratumId' is not used by modelType '%s', which has no",
                          "baseline per stratum (use %s)"), modelType,
                    switch(modelType, pr = "'cpr' for a conditional Poisson model",
                           lr = "'clr' for a conditional logistic model",
                           "'clr' or 'cpr' for a conditional model")), call. = FALSE)
  result$seconds <- proc.time()[["elapsed"]] - started
  result
}

# NULL picks the model's default tie method, survival's: "efron" for cox (coxph's default),
# "exact" for clr (clogit's), "breslow" for every other model (crr's for fgr; the others have
# no ties to treat). Only cox and clr have a choice.
resolveTies <- function(ties, modelType) {
  if (is.null(ties)) return(switch(modelType, cox = "efron", clr = "exact", "breslow"))
  methods <- c("breslow", "efron", "exact")
  if (!is.character(ties) || length(ties) != 1 || !(ties %in% methods))
    stopf("'ties' should be one of %s", paste0('"', methods, '"', collapse = ", "))
  if (ties == "exact" && modelType == "cox")
    stopf("ties = \"exact\" is not implemented for modelType 'cox'; use \"breslow\" or \"efron\"")
  if (ties != "breslow" && !(modelType %in% c("cox", "clr")))
    stopf("ties = \"%s\" is for modelType 'cox' and 'clr' only", ties)
  ties
}

# Matched sets with two or more (positively weighted) cases, among those kept.
strataWithSeveralCases <- function(data, weights = data$weights) {
  case <- data$y == 1 & (if (is.null(weights)) TRUE else weights > 0)
  sum(tabulate(data$stratum[case] + 1L, data$nStrata) >= 2)
}

# Breslow and Efron only approximate the conditional likelihood of a set with several cases:
# say so where it matters (survival::clogit's default is the exact likelihood).
noteApproximateTies <- function(data) {
  if (data$modelType != "clr" || data$ties == "exact") return(invisible())
  several <- strataWithSeveralCases(data)
  if (several > 0)
    message(sprintf(paste0(
      "clr with ties = \"%s\": %s of %s matched sets have several cases, and their ",
      "conditional likelihood is approximated; ties = \"exact\" (the default, as ",
      "survival::clogit) gives the exact conditional likelihood"),
      data$ties, format(several, big.mark = ","), format(data$nStrata, big.mark = ",")))
  invisible()
}

# ties = "exact" multiplies a set's term by one weight: in a set with two or more positively
# weighted cases the positive weights must be equal (0 leaves a row out). `weights` are in the
# internal row order; the message names rows in the user's order.
checkExactWeights <- function(data, weights, name) {
  if (is.null(weights) || data$modelType != "clr" || data$ties != "exact") return(invisible())
  positive <- weights > 0
  cases <- tabulate(data$stratum[data$y == 1 & positive] + 1L, data$nStrata)
  at <- which(positive & cases[data$stratum + 1L] >= 2)
  if (length(at) == 0) return(invisible())
  s <- data$stratum[at]
  first <- at[!duplicated(s)]
  reference <- first[match(s, data$stratum[first])]
  bad <- which(abs(weights[at] - weights[reference]) > 1e-12 * weights[reference])
  if (length(bad) == 0) return(invisible())
  r <- at[bad[1]]
  r0 <- reference[bad[1]]
  label <- if (is.null(data$stratumLabels)) "" else
    sprintf(" (stratum %s)", data$stratumLabels[data$stratum[r] + 1L])
  stopf(paste0(
    "ties = \"exact\" needs one weight for all rows of a matched set with several cases: ",
    "'%s' gives rows %d and %d%s the weights %g and %g. Use equal weights per set (0 leaves ",
    "a row out) or ties = \"efron\" / \"breslow\", which take any weights"),
    name, data$order[r0], data$order[r], label, weights[r0], weights[r])
}

`%||%` <- function(a, b) if (is.null(a)) b else a

modelTypes <- function() c("ls", "lr", "pr", "clr", "cpr", "sccs", "cox", "fgr")
isConditionalModel <- function(modelType) modelType %in% c("clr", "cpr", "sccs")
isSurvivalModel <- function(modelType) modelType %in% c("cox", "fgr")
# Strata carry their own baseline (no intercept); rows are grouped by stratum in the engine.
hasStratumBaseline <- function(modelType) isConditionalModel(modelType) || isSurvivalModel(modelType)
usesExposure <- function(modelType) modelType %in% c("pr", "cpr", "sccs")

checkModelType <- function(modelType) {
  if (!is.character(modelType) || length(modelType) != 1 || !(modelType %in% modelTypes()))
    stopf("unknown modelType '%s'; expected one of %s", paste(format(modelType), collapse = " "),
          paste(modelTypes(), collapse = ", "))
  modelType
}

# Shared by all routes. `input` holds per-row vectors in the user's row order, and the
# covariate entries as 0-based user row (`entryRow`), 0-based column (`entryColumn`) and
# value (`entryValue`, NULL = all 1), plus the column identifiers. The engine maps user rows
# to internal rows itself: on millions of entries, R's index and offset arithmetic would
# each make another vector as long as the table.
assembleData <- function(input, modelType, addIntercept) {
  rows <- checkRows(input, modelType)
  columnNames <- c(if (addIntercept) "(Intercept)", input$columnNames)
  ids <- input$covariateIds
  # (compared as integer64 where they are: ids beyond 2^53 lose precision as doubles)
  isZero <- if (isInteger64(ids)) ids == bit64::as.integer64(0L) else ids == 0
  if (addIntercept && !is.null(ids) && !is.character(ids) && any(isZero))
    stopf(paste("covariate id 0 is the intercept's (getCovariateIds(), exclude = 0, as the",
                "incumbent numbers it): renumber that covariate, or addIntercept = FALSE"))
  if (anyDuplicated(columnNames))
    stopf("two coefficients would share the name '%s': covariate names must be unique",
          columnNames[anyDuplicated(columnNames)])
  checkColumnScale(input$entryValue, input$entryColumn, input$columnNames)
  strata <- if (is.null(input$stratumId)) NULL else stratumCodes(input$stratumId, rows$n)
  plan <- .Call(argus_plan_rows, modelType, rows$y,
                if (isSurvivalModel(modelType)) rows$time else NULL, strata$code, strata$n %||% 0L)
  # A plan without order keeps the user's rows as they are (every row, in order): the per-row
  # vectors are used as given and the order is a compact 1..n, with no copies.
  keepsOrder <- is.null(plan$order)
  nKept <- if (keepsOrder) rows$n else length(plan$order)
  order1 <- if (keepsOrder) seq_len(nKept) else plan$order + 1
  nColumns <- length(input$columnNames)
  # A database covariates table streams its entries in now (R/database_input.R).
  design <- if (is.null(input$streamDesign)) {
    .Call(argus_build_design, nKept, input$entryRow, input$entryColumn, input$entryValue,
          nColumns, addIntercept, plan$internalOfUser)
  } else {
    input$streamDesign(plan$internalOfUser %||% (order1 - 1L), nKept, addIntercept)
  }
  if (design$firstDuplicate >= 0)
    stopf("covariate '%s' appears more than once for row %s: each (row, covariate) pair must be unique",
          input$columnNames[design$duplicateColumn + 1],
          idLabel(input$rowIds[order1[design$duplicateRow + 1]]))
  permute <- function(v) if (is.null(v) || keepsOrder) v else v[order1]
  structure(list(
    modelType = modelType,
    nRows = nKept,
    y = permute(rows$y),
    time = permute(rows$time),
    weights = permute(rows$weights),
    offset = permute(rows$offset),
    startTime = permute(rows$startTime),
    cluster = permute(input$cluster),
    naAction = input$naAction,
    censoringSurvival = permute(rows$censoringSurvival),
    ties = input$ties %||% "breslow",
    censoringByStratum = isTRUE(input$censoringByStratum),
    stratum = if (hasStratumBaseline(modelType)) plan$stratum %||% strata$code else NULL,
    stratumStart = if (hasStratumBaseline(modelType)) plan$stratumStart else NULL,
    nStrata = if (is.null(strata)) 0L else plan$nStrata,
    # Survival predictions find a new row's baseline by its stratum's label; clr messages
    # name matched sets by it.
    stratumLabels = if ((isSurvivalModel(modelType) || modelType == "clr") && !is.null(strata))
      stratumKey(input$stratumId)[order1][plan$stratumStart[seq_len(plan$nStrata)] + 1],
    order = order1,
    rowIds = input$rowIds,
    rowNames = input$rowNames,  # formula data: the data frame's row names where not rowIds
    rowsFromDatabase = isTRUE(input$rowsFromDatabase),  # sorted by rowId: no order of the user's
    rowIdsGiven = isTRUE(input$rowIdsGiven),  # long tables: rowIds are the user's (else made up)
    design = design[c("kinds", "rowStart", "valueStart", "rows", "values")],
    columnNames = columnNames,
    covariateIds = input$covariateIds,
    hasIntercept = addIntercept,
    formulaTerms = input$formulaTerms,
    dropped = list(strata = plan$droppedStrata, rows = plan$droppedRows,
                   entries = design$skippedEntries, zeros = design$zeroEntries)
  ), class = "argusData")
}

#' @method print argusData
#' @export
print.argusData <- function(x, ...) {
  rejectDots("print()", ..., .allow = "digits")
  cat(sprintf("Argus data: modelType '%s'\n", x$modelType))
  cat(sprintf("  rows: %s", format(x$nRows, big.mark = ",")))
  if (isConditionalModel(x$modelType) || x$nStrata > 0)
    cat(sprintf(" in %s strata", format(x$nStrata, big.mark = ",")))
  if (isSurvivalModel(x$modelType)) {
    cat(sprintf(", %s events", format(sum(x$y == 1), big.mark = ",")))
    if (x$modelType == "fgr") cat(sprintf(", %s competing", format(sum(x$y == 2), big.mark = ",")))
    if (!is.null(x$startTime)) cat(" (counting process)")
    if (x$modelType == "cox") cat(sprintf("; %s ties", x$ties))
  }
  if (x$modelType == "clr") cat(sprintf("; %s ties", x$ties))
  cat(sprintf("\n  covariates: %d%s\n", length(x$columnNames),
              if (x$hasIntercept) " (including the intercept)" else ""))
  kinds <- table(factor(x$design$kinds, levels = 0:3,
                        labels = c("indicator", "sparse", "dense", "intercept")))
  kinds <- kinds[kinds > 0]
  cat(sprintf("  storage: %s\n", paste(sprintf("%d %s", kinds, names(kinds)), collapse = ", ")))
  cat(sprintf("  nonzero entries: %s\n", format(sum(nonzeroCounts(x)), big.mark = ",")))
  if (length(x$naAction)) cat(sprintf("  %s\n", stats::naprint(x$naAction)))
  if (x$dropped$strata > 0)
    cat(sprintf("  dropped: %s strata without events (%s rows, %s covariate entries)\n",
                format(x$dropped$strata, big.mark = ","), format(x$dropped$rows, big.mark = ","),
                format(x$dropped$entries, big.mark = ",")))
  invisible(x)
}

#' @method summary argusData
#' @export
summary.argusData <- function(object, ...) {
  rejectDots("summary()", ...)
  counts <- nonzeroCounts(object)
  structure(list(
    modelType = object$modelType, nRows = object$nRows, nStrata = object$nStrata,
    outcomes = if (isSurvivalModel(object$modelType)) sum(object$y == 1) else sum(object$y),
    dropped = object$dropped,
    covariates = data.frame(
      covariate = object$columnNames,
      storage = c("indicator", "sparse", "dense", "intercept")[object$design$kinds + 1],
      nonzero = counts, stringsAsFactors = FALSE)
  ), class = "summary.argusData")
}

#' @method print summary.argusData
#' @export
print.summary.argusData <- function(x, ...) {
  rejectDots("print()", ..., .allow = "digits")
  cat(sprintf("Argus data summary: modelType '%s', %s rows", x$modelType,
              format(x$nRows, big.mark = ",")))
  if (x$nStrata > 0) cat(sprintf(", %s strata", format(x$nStrata, big.mark = ",")))
  cat(sprintf(", total outcome %s\n", format(x$outcomes, big.mark = ",")))
  if (x$dropped$strata > 0)
    cat(sprintf("Dropped %d strata without events (%s rows)\n", x$dropped$strata,
                format(x$dropped$rows, big.mark = ",")))
  print(utils::head(x$covariates, 20), row.names = FALSE)
  if (nrow(x$covariates) > 20) cat(sprintf("... and %d more covariates\n", nrow(x$covariates) - 20))
  invisible(x)
}

# Nonzero entries per column (dense columns may hold zeros; an intercept has none).
nonzeroCounts <- function(d) {
  k <- d$design$kinds
  counts <- ifelse(k <= 1, diff(d$design$rowStart), d$nRows)
  for (j in which(k == 2)) {
    at <- seq.int(d$design$valueStart[j] + 1, d$design$valueStart[j + 1])
    counts[j] <- sum(d$design$values[at] != 0)
  }
  counts
}
