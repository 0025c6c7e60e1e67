# predict(se.fit = TRUE): standard errors of predictions from the coefficients' covariance, as
# predict.glm and predict.coxph give them: sqrt(x' V x) for the link, times the derivative of
# the inverse link for the other scales (the delta method).

# The prediction `out` of `rows` (whose `design` holds the rows' covariates, user order) with
# its standard errors: list(fit, se.fit), and residual.scale for lr, pr and ls (predict.glm's).
withStandardErrors <- function(fit, type, rows, out) {
  se <- linkStandardErrors(fit, rows$design, rows$link)
  names(se) <- names(rows$link)
  se <- switch(type,
               link = se,
               risk = se * exp(rows$link),
               response = se * responseSlope(fit$modelType, rows$link, out))
  result <- list(fit = out, se.fit = se)
  if (fit$modelType %in% c("lr", "pr", "ls"))
    result$residual.scale <- if (fit$modelType == "ls") sqrt(residualScale(fit)$sigma2) else 1
  result
}

# d response / d link at each row: the delta method's factor (the response is exp(link) times
# the exposure for pr, so its slope is the response itself).
responseSlope <- function(modelType, link, response) {
  switch(modelType,
         ls = rep(1, length(link)),
         lr = response * (1 - response),
         pr = , clr = , cpr = , sccs = , cox = , fgr = response)
}

# sqrt(x' V x) per row over the coefficients with a variance (vcov()'s default type); the
# intercept's column is 1 for every row. Fixed coefficients are constants; aliased ones are
# held at 0, as predict.lm drops them. Rows whose prediction is NA (a missing covariate or
# offset, a dropped stratum) get NA. Rows go in blocks, so that X V is never larger than about
# 10^7 numbers.
linkStandardErrors <- function(fit, design, link) {
  V <- stats::vcov(fit)
  labels <- rownames(V)[!is.na(diag(V))]
  covariates <- intersect(labels, colnames(design))
  intercept <- "(Intercept)" %in% labels
  labels <- c(if (intercept) "(Intercept)", covariates)
  V <- V[labels, labels, drop = FALSE]
  n <- length(link)
  se <- rep(NA_real_, n)
  block <- max(1L, floor(1e7 / max(1L, length(labels))))
  columns <- match(covariates, colnames(design))  # positions: a sparse matrix refuses character(0)
  for (start in seq(1L, n, by = block)) {
    at <- seq.int(start, min(n, start + block - 1L))
    X <- as.matrix(design[at, columns, drop = FALSE])
    if (intercept) X <- cbind(1, X)
    se[at] <- sqrt(pmax(rowSums((X %*% V) * X), 0))
  }
  se[is.na(link)] <- NA_real_
  se
}

# The covariates of an argusData object's rows (user order, a sparse matrix), one column per
# covariate of the model, 0 where the data lack one (and for rows of strata it dropped).
argusDataDesign <- function(fit, data) {
  covariates <- modelCovariates(fit)
  present <- match(covariates, data$columnNames)
  have <- which(!is.na(present))
  entries <- if (length(have)) Matrix::summary(methods::as(designColumns(data, present[have]), "CsparseMatrix"))
             else list(i = integer(0), j = integer(0), x = numeric(0))  # an intercept-only model
  Matrix::sparseMatrix(i = data$order[entries$i], j = have[entries$j], x = entries$x,
                       dims = c(length(data$rowIds), length(covariates)),
                       dimnames = list(NULL, covariates))
}
