# The robust (sandwich) variance: V S V with V the model-based covariance (vcov(type =
# "model")) and S the summed outer products of per-row (or per-cluster) score contributions.
# The scores are computed here from the fit's linear predictor, O(N p):
#   lr, pr, ls: w_i (y_i - mu_i) x_i, so V S V is the HC0 sandwich of glm / lm
#     (sandwich::vcovHC(type = "HC0"); clustered: sandwich::vcovCL(type = "HC0",
#     cadjust = FALSE));
#   cox: w_i times the score residual of row i (R/cox_risk_sets.R), so V S V is
#     coxph(robust = TRUE)'s variance, the sum of squared weighted dfbetas (per cluster with
#     cluster()).
#   fgr: the score of the weighted pseudo-likelihood plus the effect of each row on the
#     estimated censoring distribution (R/fine_gray_variance.R), so V S V is cmprsk::crr's var.
# No small-sample factor is applied (coxph applies none either).

robustVariance <- function(fit, V, cluster) {
  if (!(fit$modelType %in% c("lr", "pr", "ls", "cox", "fgr")))
    stopf(paste("a robust variance is available for modelType 'lr', 'pr', 'ls', 'cox' and 'fgr', not",
                "'%s'; runBootstrap() gives bootstrap intervals for every model"), fit$modelType)
  keep <- !is.na(diag(V))
  labels <- rownames(V)[keep]
  columns <- match(labels, names(fit$coefficients))
  X <- designColumns(fit$data, columns)
  scores <- rowScores(fit, X)
  D <- scores %*% V[labels, labels, drop = FALSE]
  if (!is.null(cluster)) D <- rowsum(D, cluster, reorder = FALSE)
  out <- V
  out[] <- NA_real_
  robust <- crossprod(D)
  out[labels, labels] <- (robust + t(robust)) / 2
  out
}

# Per-row score contributions (internal row order, one column per column of X), weighted.
rowScores <- function(fit, X) {
  rows <- fitRows(fit)
  if (fit$modelType == "cox") {
    parts <- coxResidualParts(fit, X)
    return(parts$score * rows$weights)
  }
  if (fit$modelType == "fgr") return(fineGrayScores(fit, X))
  mu <- switch(fit$modelType,
               lr = stats::plogis(rows$eta),
               pr = exp(rows$eta) * (rows$time %||% 1),
               ls = rows$eta)
  as.matrix(X * (rows$weights * (rows$y - mu)))
}

# The clusters of a robust variance, in internal row order: the `cluster` argument (one label
# per row of the user's data), else the data's cluster() term, else none (each row its own).
resolveCluster <- function(fit, cluster) {
  if (!is.null(cluster)) return(internalClusters(cluster, fit$data))
  fit$data$cluster
}

# Weights that are not whole numbers (inverse probability weights, say) are not frequencies:
# the model-based variance then treats them as if they were, and understates the uncertainty.
hasNonIntegerWeights <- function(fit) {
  w <- fit$settings$weights
  !is.null(w) && any(abs(w - round(w)) > 1e-8)
}

warnNonIntegerWeights <- function(fit, what) {
  if (hasNonIntegerWeights(fit))
    warning(sprintf(paste("%s with non-integer weights treat the weights as frequencies and are",
                          "too narrow for inverse probability (or other sampling) weights; use",
                          "vcov(type = \"robust\"), confint(method = \"robust\") or",
                          "runBootstrap()"), what), call. = FALSE)
}
