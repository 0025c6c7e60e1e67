# R's model-object accessors for a fit: formula(), update() with a formula, weights() and
# model.frame(), as lm, glm and coxph answer them. Without these, stats' defaults read the fit
# as a plain list: formula() said "invalid formula", model.frame() returned fit$modelType
# (`$` matched "model" to "modelType" partially), weights() forgot weights given to
# createData().

#' Model-object accessors of a fit
#'
#' `formula()` gives the formula a fit (or an `argusData` object) was made with;
#' `update(fit, . ~ . - x)` refits with an updated formula where the fit's call built its data
#' with `createData()` in place (`fitModel(createData(y ~ ., data = d, ...))`), and with other
#' arguments (`update(fit, prior = ...)`) as [stats::update()] does. `weights()` gives the
#' row weights of the fit (those of `createData()` and of `fitModel()` together, in the
#' data's row order; `NULL` for an unweighted fit). `model.frame()` is refused: Argus keeps
#' the design, not the data frame; `model.frame(formula(fit), data)` rebuilds it.
#' `terms()` gives a formula fit's terms (as `terms(lm_fit)`; strata and offsets included).
#' `model.matrix()` gives the design the fit used: one row per row of the data in its row
#' order (rows of dropped strata included, at their values' zeros: they are not in the
#' design), one column per coefficient (the intercept's included), a sparse
#' `Matrix::dgCMatrix`.
#'
#' @param x,object A fit from [fitModel()] (`formula()`: or an `argusData` object).
#' @param formula For `model.frame()`: a fit or an `argusData` object (the generic's name).
#' @param formula. For `update()`: changes to the formula, as in [stats::update.formula()].
#' @param ... `update()`: arguments of `fitModel()` to change; others: none.
#' @param evaluate For `update()`: `FALSE` returns the updated call.
#' @return `formula()`: a formula; `update()`: a fit (or a call); `weights()`: a numeric
#'   vector or `NULL`; `terms()`: a `terms` object; `model.matrix()`: a `dgCMatrix`.
#' @name modelAccessors
#' @examples
#' fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"))
#' formula(fit)
#' coef(update(fit, . ~ . - hp))
NULL

#' @rdname modelAccessors
#' @method formula argusFit
#' @export
formula.argusFit <- function(x, ...) {
  rejectDots("formula()", ...)
  formula.argusData(x$data)
}

#' @rdname modelAccessors
#' @method formula argusData
#' @export
formula.argusData <- function(x, ...) {
  rejectDots("formula()", ...)
  f <- x$formulaTerms$formula
  if (is.null(f)) stopf("formula(): the data were not built from a formula (createData(formula, data))")
  f
}

#' @rdname modelAccessors
#' @method update argusFit
#' @export
update.argusFit <- function(object, formula., ..., evaluate = TRUE) {
  call <- object$call
  if (is.null(call)) stopf("update(): the fit has no call to update")
  if (!missing(formula.)) {
    built <- call$data
    if (!is.call(built) || !identical(deparse(built[[1]]), "createData") &&
        !identical(deparse(built[[1]]), "Argus::createData"))
      stopf(paste("update() with a formula needs the fit's data built in its call",
                  "(fitModel(createData(formula, data, ...))): rebuild the data with",
                  "createData(update(formula(fit), ...), ...)"))
    # (arguments by name: a formula given first is createData()'s `outcomes`)
    built <- match.call(createData, built)
    at <- if (!is.null(built$formula)) "formula" else if (!is.null(built$outcomes)) "outcomes"
    if (is.null(at)) stopf("update(): the call's createData() has no formula to update")
    built[[at]] <- stats::update.formula(formula(object), formula.)
    call$data <- built
  }
  extras <- match.call(expand.dots = FALSE)$...
  for (name in names(extras)) call[[name]] <- extras[[name]]
  if (evaluate) eval(call, parent.frame()) else call
}

#' @rdname modelAccessors
#' @method weights argusFit
#' @export
weights.argusFit <- function(object, ...) {
  rejectDots("weights()", ...)
  if (!isTRUE(object$weighted)) return(NULL)
  w <- object$settings$weights
  if (is.null(w)) return(NULL)
  toUserOrder(object, w)
}

#' @rdname modelAccessors
#' @method model.frame argusFit
#' @export
model.frame.argusFit <- function(formula, ...) {
  stopf(paste("model.frame(): Argus keeps the fit's design, not its data frame;",
              "model.frame(formula(fit), data) rebuilds it from the data"))
}

#' @rdname modelAccessors
#' @method model.frame argusData
#' @export
model.frame.argusData <- function(formula, ...) model.frame.argusFit(formula, ...)

#' @rdname modelAccessors
#' @method terms argusFit
#' @export
terms.argusFit <- function(x, ...) {
  rejectDots("terms()", ...)
  tt <- x$data$formulaTerms$terms
  if (is.null(tt))
    stopf("terms(): this fit was not made with a formula (its data came from a matrix or long tables)")
  tt
}

#' @rdname modelAccessors
#' @method model.matrix argusFit
#' @export
model.matrix.argusFit <- function(object, ...) {
  rejectDots("model.matrix()", ...)
  data <- object$data
  # the design holds the kept rows in the engine's order: each entry back to its user row
  X <- methods::as(designColumns(data), "TsparseMatrix")
  Matrix::sparseMatrix(i = data$order[X@i + 1L], j = X@j + 1L, x = X@x,
                       dims = c(length(data$rowIds), ncol(X)),
                       dimnames = list(rowLabels(data), names(object$coefficients)))
}
