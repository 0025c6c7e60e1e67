#' Argus: fast regularized regression for massive observational health data
#'
#' Build a data object with [createData()], choose a prior with [createPrior()] and solver
#' settings with [createControl()], then fit with [fitModel()].
#'
#' @keywords internal
#' @useDynLib Argus, .registration = TRUE
#' @importFrom Rcpp evalCpp
#' @importFrom methods as is
#' @importFrom Matrix sparseMatrix
#' @importFrom stats anova coef confint deviance df.residual formula logLik model.frame model.matrix
#'   model.offset model.response predict terms update vcov weights
"_PACKAGE"
