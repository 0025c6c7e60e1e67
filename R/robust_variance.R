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
#     estimated censoring distribution (R/fine_gray_variance.R), so V S V is cmprsk::crr's var;
#   clr, cpr, sccs (unweighted, Breslow's form): conditionalScores() below.
# No small-sample factor is applied (coxph applies none either).

robustVariance <- function(fit, V, cluster) {
  checkRobustSupported(fit)
  keep <- !is.na(diag(V))
  if (!any(keep)) return(V)  # no model-based variance (a singular Hessian, warned about): none
  labels <- rownames(V)[keep]
  checkClusterCount(fit, cluster, length(labels))
  columns <- match(labels, names(fit$coefficients))
  X <- designColumns(fit$data, columns)
  scores <- rowScores(fit, X)
  D <- scores %*% V[labels, labels, drop = FALSE]
  if (!is.null(cluster)) D <- rowsum(D, cluster, reorder = FALSE)
  out <- V
  out[] <- NA_real_
  robust <- crossprod(D)
  out[labels, labels] <- (robust + t(robust)) / 2
  # A coefficient without a finite estimate has no score left (its rows are saturated), so its
  # sandwich is small where the truth is unbounded (pbc's edema at -52: 0.44): NA instead.
  infinite <- intersect(fit$infinite %||% character(0), rownames(out))
  if (length(infinite)) {
    out[infinite, ] <- NA_real_
    out[, infinite] <- NA_real_
    warning(sprintf(paste("no robust variance for %s, which run(s) off to infinity (NO_FINITE_MLE):",
                          "set to NA"), paste(sprintf("'%s'", infinite), collapse = ", ")),
            call. = FALSE)
  }
  out
}

# A sandwich needs several clusters (rows, where none are given): at the estimate their
# score sums add up to zero (up to the prior's gradient), so from one cluster the sandwich is
# 0 (a single cluster() gave robust standard errors of 1e-17, p = 0 and zero-width intervals,
# silently), and from no more clusters than coefficients it has rank below their number:
# some combinations of coefficients get variance 0. One cluster is an error, as
# sandwich::vcovCL() and coxph(cluster = ) stop there; at most as many clusters as estimated
# coefficients, a warning (both references give their numbers with 2). Rows of weight 0
# count for no cluster.
checkClusterCount <- function(fit, cluster, coefficients) {
  w <- fit$settings$weights
  counted <- if (is.null(w)) rep(TRUE, fit$data$nRows) else w > 0
  clusters <- if (is.null(cluster)) sum(counted) else length(unique(cluster[counted]))
  what <- if (is.null(cluster)) "row" else "cluster"
  if (clusters < 2)
    stopf(paste("the robust (sandwich) variance needs at least 2 clusters, and the data have %d %s",
                "of positive weight: its scores sum to zero over it at the estimate, so the sandwich",
                "would be 0 (sandwich::vcovCL() and coxph(cluster = ) stop too); use the model-based",
                "variance (type = \"model\", method = \"wald\") or runBootstrap()"), clusters, what)
  if (clusters <= coefficients)
    warning(sprintf(paste("the robust (sandwich) variance rests on %d %ss, no more than the %d",
                          "coefficients: their score sums add up to zero, so it is singular (some",
                          "combinations of coefficients get variance 0) and its standard errors are",
                          "unreliable; with so few clusters use the model-based variance or",
                          "runBootstrap()"), clusters, what, coefficients), call. = FALSE)
}

# Per-row score contributions (internal row order, one column per column of X), weighted.
rowScores <- function(fit, X) {
  rows <- fitRows(fit)
  if (fit$modelType == "cox") {
    parts <- coxResidualParts(fit, X)
    return(parts$score * rows$weights)
  }
  if (fit$modelType == "fgr") return(fineGrayScores(fit, X))
  if (isConditionalModel(fit$modelType)) return(conditionalScores(rows, X, fit$modelType))
  mu <- switch(fit$modelType,
               lr = stats::plogis(rows$eta),
               pr = exp(rows$eta) * (rows$time %||% 1),
               ls = rows$eta)
  as.matrix(X * (rows$weights * (rows$y - mu)))
}

# Conditional models (one multinomial per stratum, Breslow's form): row i of stratum s
# contributes (y_i - n_s pi_i)(x_i - xbar_s), with r = exp(eta) (times the exposure for cpr and
# sccs), pi_i = r_i / sum_s r, n_s the stratum's outcomes and xbar_s the r-weighted mean: for
# clr the score residuals of clogit(method = "breslow"); summed per stratum (cluster = the
# stratum) the stratum's score, as the clustered sandwich of a fixed-effects Poisson glm.
conditionalScores <- function(rows, X, modelType) {
  Z <- as.matrix(X)
  r <- exp(rows$eta) * (if (modelType == "clr") 1 else rows$time %||% 1)
  s <- rows$stratum
  S0 <- rowsum(r, s, reorder = FALSE)[as.character(s), 1]
  n <- rowsum(rows$y, s, reorder = FALSE)[as.character(s), 1]
  xbar <- rowsum(Z * r, s, reorder = FALSE)[as.character(s), , drop = FALSE] / S0
  (Z - xbar) * (rows$y - n * r / S0)
}

checkRobustSupported <- function(fit) {
  data <- fit$data
  if (isConditionalModel(fit$modelType)) {
    if (!is.null(fit$settings$weights))
      stopf("the robust variance of a weighted conditional model is not implemented; use runBootstrap()")
    # with one case per set Efron's and the exact likelihood are Breslow's
    if (fit$modelType == "clr" && data$ties != "breslow" && strataWithSeveralCases(data) > 0)
      stopf(paste("the robust variance of clr is implemented for Breslow's form (ties = \"breslow\",",
                  "or matched sets with one case); use runBootstrap()"))
  } else if (!(fit$modelType %in% c("lr", "pr", "ls", "cox", "fgr"))) {
    stopf("no robust variance for modelType '%s'; runBootstrap() gives bootstrap intervals", fit$modelType)
  }
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

warnNonIntegerWeights <- function(fit, what,
                                  remedy = paste("use vcov(type = \"robust\"), confint(method =",
                                                 "\"robust\") or runBootstrap()")) {
  if (!hasNonIntegerWeights(fit)) return(invisible())
  # least squares estimates its residual variance, so its weights are precision weights, as lm's
  reading <- if (fit$modelType == "ls") "read the weights as precision weights (as lm) and are not valid"
             else "treat the weights as frequencies and are too narrow"
  warning(sprintf(paste("%s with non-integer weights %s for inverse probability (or other",
                        "sampling) weights; %s"), what, reading, remedy), call. = FALSE)
}
