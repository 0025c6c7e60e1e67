# Unexported functions of the incumbent that its users and its tests reach with `:::`: the
# fit's "interface" (coefficients that can be set, the likelihood at them, which covariates
# are penalized), the predictive log-likelihood of held-out rows, cross-validation details,
# and small utilities. The interface is an environment holding the Argus fit and the current
# coefficients; the likelihood comes from Argus::logLikelihoodAt().

.cyclopsSetBeta <- function(interface, beta) {
  if (!inherits(interface, "cyclopsInterface")) stop("Improperly constructed interface object")
  if (length(beta) != length(interface$beta)) stop("Must provide a value for each coefficient")
  interface$beta <- unname(as.numeric(beta))
  invisible()
}

.cyclopsGetLogLikelihood <- function(interface) {
  incumbentLogLikelihood(likelihoodAt(interface)$logLikelihood, interface$cyclopsData,
                         interface$argusFit$weights)
}

.cyclopsGetIsRegularized <- function(interface, index) {
  if (!inherits(interface, "cyclopsInterface")) stop("Improperly constructed interface object")
  unname(interface$argusFit$priorType[index + 1] != "none")
}

.cyclopsGetNewPredictiveLogLikelihood <- function(interface, weights) {
  at <- likelihoodAt(interface, weights = as.numeric(weights))
  incumbentLogLikelihood(at$logLikelihood, interface$cyclopsData, weights)
}

# The log-likelihood of the fit's coefficients on the rows of weight 1 (held-out rows).
getCyclopsPredictiveLogLikelihood <- function(object, weights) {
  if (length(weights) != getNumberOfRows(object$cyclopsData))
    stop("Must provide a weight for each data row")
  if (any(weights < 0)) stop("Only non-negative weights are allowed")
  argusFitOf(object)
  .cyclopsGetNewPredictiveLogLikelihood(object$interface, weights)
}

# The best mean held-out log-likelihood of the cross-validation and the variance giving it.
getCrossValidationInfo <- function(object) {
  info <- object$cross_validation
  if (is.null(info) || is.na(info) || info == "") stop("No cross-validation information is available")
  values <- as.numeric(unlist(strsplit(info, " ")))
  list(ordinate = values[1], point = values[-1])
}

# The estimates (and their standard errors) written as a table, as the incumbent's log.
.cyclopsLogResults <- function(interface, fileName, withASE) {
  fit <- interface$argusFit
  out <- data.frame(label = names(fit$coefficients), estimate = unname(fit$coefficients))
  if (withASE) out$ase <- suppressWarnings(sqrt(diag(stats::vcov(fit, type = "model"))))[out$label]
  utils::write.csv(out, fileName, row.names = FALSE)
  invisible()
}

.cyclopsQuantile <- function(vector, q) {
  if (q < 0 || q > 1) stop("Invalid quantile")
  unname(stats::quantile(vector, q, type = 7))
}

.cyclopsMedian <- function(vector) stats::median(vector)

.isRcppPtrNull <- function(x) {
  if (!inherits(x, "externalptr")) stop("Input must be an Rcpp externalptr")
  FALSE
}

# Whether the vectors of the list are sorted jointly (lexicographically), each ascending or
# descending as `ascending` says.
.isSortedVectorList <- function(vectorList, ascending) {
  keys <- mapply(function(v, up) if (up) xtfrm(v) else -xtfrm(v), vectorList,
                 rep_len(ascending, length(vectorList)), SIMPLIFY = FALSE)
  !is.unsorted(do.call(order, keys)) &&
    identical(do.call(order, keys), seq_along(vectorList[[1]]))
}

isSorted <- function(data, columnNames, ascending = rep(TRUE, length(columnNames))) {
  .isSortedVectorList(lapply(columnNames, function(name) data[[name]]), ascending)
}
