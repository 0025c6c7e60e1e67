# createCyclopsData(): a model formula (with optional sparse and indicator formulas for
# further columns) into a cyclopsData object. The design is read with model.frame() and
# model.matrix() as glm and coxph read it, then held in the long layout that the Argus
# engine reads: columns numbered 1, 2, ... in the formula's order (the intercept first), as
# the incumbent numbers them.

#' Create a Cyclops data object from formulas
#'
#' `formula` gives the outcome and the dense columns (with `strata()` terms for the strata of
#' conditional and stratified Cox models, and `offset()` terms); `sparseFormula` and
#' `indicatorFormula` (one-sided) add further columns, stored sparse or as 0/1 indicators.
#' The response is a number (or `Surv(time, status)` for `"cox"` and `"fgr"`; for `"fgr"` the
#' status is 0 censored, 1 the event, 2 a competing event). `Surv(start, stop, status)` is a
#' counting-process Cox model, each row at risk on `(start, stop]`, as in `coxph()` (the
#' incumbent fitted `stop - start` instead, as if every row started at 0: see
#' [Cyclops-package]).
#'
#' The intercept of the formula is kept for `"lr"`, `"pr"` and `"ls"` and dropped for the
#' conditional and survival models. Offsets (`offset()` terms or the `offset` argument) enter
#' the linear predictor as in `glm()`: `y ~ x + strata(s) + offset(log(time))` with
#' `"cpr"` is the conditional Poisson model with exposure `time`. For models other than
#' `"cox"` and `"fgr"`, `time` is such an offset too, as in the incumbent. Rows with missing
#' values are handled by `model.frame()` (`options("na.action")`).
#'
#' Covariate ids are the columns' positions, 1, 2, ... in the order of the formula, the
#' sparse formula and the indicator formula (the intercept is 1): `exclude = 1` and
#' `confint(fit, 2)` name columns by them, as in the incumbent.
#'
#' @param formula A model formula.
#' @param sparseFormula,indicatorFormula Optional one-sided formulas of further columns.
#' @param modelType See [convertToCyclopsData()].
#' @param data A data frame (default: the formula's environment).
#' @param subset,weights,censorWeights,offset As in `model.frame()`: evaluated in `data`;
#'   `censorWeights` are `"fgr"`'s censoring probabilities ([getFineGrayWeights()]).
#' @param time For models other than `"cox"` and `"fgr"`: an offset (see above).
#' @param pid Strata of the rows (instead of a `strata()` term).
#' @param y,dx,sx,ix Without a formula: the outcome and the dense, sparse and indicator
#'   columns as matrices.
#' @param type Multitype outcomes: not available (an error if given).
#' @param model Ignored (the incumbent's).
#' @param normalize See [convertToCyclopsData()].
#' @param floatingPoint See [convertToCyclopsData()].
#' @param method `"cyclops.fit"`; `"model.frame"` returns the model frames and columns instead.
#' @return A `cyclopsData` object.
#' @examples
#' d <- createCyclopsData(case ~ spontaneous + induced + strata(stratum), data = infert,
#'                        modelType = "clr")
#' coef(fitCyclopsModel(d))
#' @export
createCyclopsData <- function(formula, sparseFormula, indicatorFormula, modelType, data,
                              subset = NULL, weights = NULL, censorWeights = NULL, offset = NULL,
                              time = NULL, pid = NULL, y = NULL, type = NULL, dx = NULL,
                              sx = NULL, ix = NULL, model = FALSE, normalize = NULL,
                              floatingPoint = 64, method = "cyclops.fit") {
  call <- match.call()
  modelType <- checkModelType(modelType)
  checkFloatingPoint(floatingPoint)
  if (!is.null(type)) refuse("'type' (multitype outcomes)", "fit each outcome type on its own")
  if (missing(formula)) {
    if (!missing(sparseFormula) || !missing(indicatorFormula))
      stop("Must provide a dense formula when specifying sparse or indicator covariates.")
    design <- matrixDesign(y, dx, sx, ix, pid, time, weights, censorWeights, modelType)
  } else {
    frames <- call
    frames$modelType <- frames$normalize <- frames$floatingPoint <- frames$method <- NULL
    frames$time <- frames$pid <- frames$model <- NULL
    design <- formulaDesign(frames, parent.frame(), modelType, time, pid)
    if (identical(method, "model.frame")) return(design$frames)
  }
  data <- designData(design, modelType, call, floatingPoint)
  if (!is.null(normalize)) normalizeCovariates(data, normalize)
  data
}

# Evaluates the model frames of the call's formulas (in the caller's frame, as lm() does)
# and reads the design: a list of y, time, startTime, stratumId, offset, weights,
# censorWeights, the columns (a list of named vectors with their types) and the row names.
formulaDesign <- function(call, env, modelType, time, pid) {
  dense <- modelFrame(call, "formula", env)
  response <- stats::model.response(dense)
  if (is.null(response)) stopf("the formula needs a response")
  terms <- attr(dense, "terms")
  special <- stats::terms(stats::formula(terms), specials = "strata")
  strataAt <- attr(special, "specials")$strata
  stratumId <- pid
  intercept <- attr(terms, "intercept") == 1
  onlyStrata <- FALSE
  if (length(strataAt)) {
    stratumId <- as.numeric(survival::strata(dense[, strataAt], shortlabel = TRUE))
    drop <- survival::untangle.specials(special, "strata")$terms
    onlyStrata <- length(drop) == length(attr(terms, "term.labels"))
    if (!onlyStrata) terms <- stats::drop.terms(terms, drop, keep.response = TRUE)
  }
  X <- if (!onlyStrata) stats::model.matrix(terms, dense)
       else matrix(1, nrow(dense), as.integer(intercept), dimnames = list(NULL, if (intercept) "(Intercept)"))
  if (intercept && !takesIntercept(modelType)) X <- X[, colnames(X) != "(Intercept)", drop = FALSE]
  design <- list(frames = list(dense = dense), offset = stats::model.offset(dense),
                 weights = stats::model.weights(dense), censorWeights = dense[["(censorWeights)"]],
                 stratumId = stratumId, rowNames = rownames(dense),
                 hasIntercept = intercept && takesIntercept(modelType))
  design <- c(design, readResponse(response, modelType))
  if (!is.null(time) && !isSurvivalType(modelType)) {
    if (!is.null(design$offset)) stop("Supplied both 'time' and 'offset' quantities")
    design$offset <- as.vector(time)
  }
  columns <- list(matrixColumns(X, "dense"))
  for (kind in c("sparse", "indicator")) {
    name <- paste0(kind, "Formula")
    if (is.null(call[[name]])) next
    frame <- modelFrame(call, name, env)
    if (!is.null(stats::model.response(frame)))
      stop("Must only provide outcome variable in dense formula.")
    if (nrow(frame) != nrow(dense))
      stopf("the %s formula has %d rows and the formula %d (missing values?)", kind,
            nrow(frame), nrow(dense))
    M <- stats::model.matrix(attr(frame, "terms"), frame)
    columns[[length(columns) + 1]] <- matrixColumns(M[, colnames(M) != "(Intercept)", drop = FALSE], kind)
    design$frames[[kind]] <- frame
  }
  design$columns <- do.call(c, columns)
  design
}

# model.frame() of one of the call's formulas with its data, subset and row-level arguments.
# Surv() and strata() are found even where survival is not attached (the formula's own
# environment first, so that a user's own function of that name wins).
modelFrame <- function(call, which, env) {
  keep <- intersect(c(which, "data", "subset", "weights", "censorWeights", "offset"), names(call))
  frame <- call[c(1L, match(keep, names(call)))]
  names(frame)[names(frame) == which] <- "formula"
  frame$formula <- withSurvivalSpecials(eval(frame$formula, env))
  frame$drop.unused.levels <- TRUE
  frame[[1L]] <- quote(stats::model.frame)
  eval(frame, env)
}

withSurvivalSpecials <- function(formula) {
  if (!inherits(formula, "formula")) return(formula)
  home <- environment(formula) %||% globalenv()
  missing <- !vapply(c("Surv", "strata"), exists, TRUE, envir = home)
  if (!any(missing)) return(formula)
  specials <- new.env(parent = home)
  if (missing[1]) specials$Surv <- survival::Surv
  if (missing[2]) specials$strata <- survival::strata
  environment(formula) <- specials
  formula
}

# y and the times of the response: Surv(time, status), Surv(start, stop, status) (a
# counting process, as coxph reads it) or a number.
readResponse <- function(response, modelType) {
  if (inherits(response, "Surv")) {
    if (!isSurvivalType(modelType))
      stop("Censored outcomes are currently only supported for Cox regression.")
    if (ncol(response) == 3)
      return(list(y = as.numeric(response[, 3]), time = as.numeric(response[, 2]),
                  startTime = as.numeric(response[, 1])))
    return(list(y = as.numeric(response[, 2]), time = as.numeric(response[, 1])))
  }
  if (isSurvivalType(modelType)) stopf("modelType '%s' needs a Surv() response", modelType)
  if (is.factor(response)) response <- as.numeric(response != levels(response)[1])
  list(y = as.numeric(response))
}

# A matrix's columns as a named list of value vectors, each with its storage type.
matrixColumns <- function(X, type) {
  out <- lapply(seq_len(ncol(X)), function(j) X[, j])
  names(out) <- colnames(X)
  lapply(out, function(v) structure(as.numeric(v), type = type))
}

# The incumbent's matrix route: createCyclopsData(y =, dx =, sx =, ix =).
matrixDesign <- function(y, dx, sx, ix, pid, time, weights, censorWeights, modelType) {
  if (is.null(y)) stop("Must provide a formula or 'y'")
  columns <- list()
  for (part in list(list(dx, "dense"), list(sx, "sparse"), list(ix, "indicator"))) {
    if (is.null(part[[1]])) next
    M <- as.matrix(part[[1]])
    if (is.null(colnames(M))) colnames(M) <- paste0(part[[2]], seq_len(ncol(M)))
    columns <- c(columns, matrixColumns(M, part[[2]]))
  }
  survival <- isSurvivalType(modelType)
  list(y = as.numeric(y), time = if (survival) time, offset = if (!survival) time,
       stratumId = pid, weights = weights, censorWeights = censorWeights,
       columns = columns, hasIntercept = FALSE, rowNames = NULL)
}

# The design in the long layout, with the incumbent's numbering of the columns.
designData <- function(design, modelType, call, floatingPoint) {
  n <- length(design$y)
  outcomes <- data.frame(rowId = seq_len(n), y = design$y)
  if (isConditionalType(modelType))
    outcomes$stratumId <- design$stratumId %||% seq_len(n)  # each row its own, as the incumbent
  else if (isSurvivalType(modelType) && !is.null(design$stratumId))
    outcomes$stratumId <- design$stratumId
  if (isSurvivalType(modelType)) {
    outcomes$time <- design$time
    if (!is.null(design$startTime) && any(design$startTime != 0))
      outcomes$startTime <- design$startTime
  } else if (modelType %in% c("cpr", "sccs")) {
    outcomes$time <- 1  # the exposure is in the offset, if any
  }
  if (!is.null(design$offset) && !isSurvivalType(modelType)) outcomes$offset <- design$offset
  names <- names(design$columns)
  types <- vapply(design$columns, function(v) attr(v, "type"), "")
  first <- if (design$hasIntercept) 2L else 1L   # the intercept is Argus's own
  entries <- lapply(seq_along(design$columns)[seq_along(design$columns) >= first], function(j) {
    v <- design$columns[[j]]
    at <- which(v != 0)
    data.frame(rowId = at, covariateId = rep(j, length(at)), covariateValue = v[at])
  })
  covariates <- do.call(rbind, c(list(data.frame(rowId = integer(0), covariateId = integer(0),
                                                 covariateValue = numeric(0))), entries))
  data <- newCyclopsData(modelType, outcomes, covariates, ids = seq_along(names),
                         info = data.frame(name = names, type = types, stringsAsFactors = FALSE),
                         hasIntercept = design$hasIntercept, weights = design$weights,
                         censorWeights = design$censorWeights,
                         rowNames = design$rowNames %||% as.character(seq_len(n)),
                         call = call, floatingPoint = floatingPoint)
  data$formula <- TRUE
  buildArgusData(data)
  data
}
