# anova(): likelihood-ratio tests of nested fits, as anova.coxph (Cox and the conditional
# models) and anova.glm (lr, pr, ls) lay them out, and the sequential table of one formula fit,
# whose smaller models are refits with the later terms' columns held at 0.

#' Likelihood-ratio tests (analysis of deviance)
#'
#' \code{anova(fit1, fit2, ...)} compares nested fits of the same rows by likelihood-ratio
#' tests; \code{anova(fit)} of one formula fit adds its terms one at a time (first to last),
#' refitting each smaller model on the fit's rows, weights and offsets with the later terms'
#' coefficients held at 0 (which is the smaller model: a term's columns at 0 are the term
#' left out).
#'
#' The table is that of \code{survival}'s \code{anova.coxph} for \code{"cox"}, \code{"clr"},
#' \code{"cpr"} and \code{"sccs"}: \code{loglik}, \code{Chisq} (twice the difference of the
#' log-likelihoods), \code{Df} and \code{Pr(>|Chi|)}; and that of \code{stats}'
#' \code{anova.glm(test = "Chisq")} for \code{"lr"}, \code{"pr"} and \code{"ls"}:
#' \code{Resid. Df}, \code{Resid. Dev}, \code{Df}, \code{Deviance} and \code{Pr(>Chi)} (for
#' several fits; one fit's table has \code{Df}, \code{Deviance}, \code{Resid. Df},
#' \code{Resid. Dev}, as \code{anova.glm}). For \code{"ls"} the deviance is the (weighted)
#' residual sum of squares and the test divides it by the residual variance of the largest
#' model, as \code{anova.glm} does for the gaussian family; \code{test = "F"} gives its F
#' test. As in \code{anova.coxph} and \code{anova.glm}, the differences are taken between
#' consecutive fits in the order given.
#'
#' Refused, with the reason: fits of other rows or outcomes (a different \code{na.action}
#' result, other weights, strata, offsets or ties), fits that are not nested (the covariates of
#' one of two consecutive fits must be among the other's; models nested only after a
#' reparametrisation, such as \code{x} and \code{factor(x)}, are not recognised), penalized
#' fits (a prior changes the likelihood being compared; the ratio of penalized likelihoods is
#' not chi-square distributed), Fine-Gray fits (the pseudo-likelihood ratio is not chi-square
#' distributed, the censoring weights being estimated: compare with Wald tests on the robust
#' \code{vcov()}), and, for one fit, fits not made from a formula (their columns are not
#' grouped in terms: compare fits instead). With non-integer weights (inverse probability
#' weights) the test treats the weights as frequencies and a warning says so, as \code{coxph}
#' refuses the test for its robust fits.
#'
#' @param object An \code{argusFit} from \code{\link{fitModel}}.
#' @param ... Further \code{argusFit} objects to compare (a named argument is an error).
#' @param test \code{"Chisq"} (or its synonym \code{"LRT"}), \code{"F"} (least squares only),
#'   or \code{NULL} for no p-values.
#' @return An object of class \code{c("anova", "data.frame")}, printed by \code{stats}'
#'   \code{print.anova}, with a \code{heading} naming the models.
#' @seealso \code{\link{fitModel}}, \code{\link[stats]{logLik}}, \code{\link{logLikelihoodAt}}
#' @examples
#' if (requireNamespace("survival", quietly = TRUE)) {
#'   lung <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog")])
#'   small <- fitModel(createData(Surv(time, status) ~ age, data = lung, modelType = "cox",
#'                                ties = "efron"))
#'   large <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung,
#'                                modelType = "cox", ties = "efron"))
#'   anova(small, large)
#'   anova(large)
#' }
#' @name anova.argusFit
#' @method anova argusFit
#' @export
anova.argusFit <- function(object, ..., test = "Chisq") {
  others <- list(...)
  named <- names(others) %||% rep("", length(others))
  if (any(named != ""))
    stopf("anova() takes fits to compare and 'test'; not %s",
          paste(sprintf("'%s'", named[named != ""]), collapse = ", "))
  fits <- c(list(object), others)
  for (k in seq_along(fits)) {
    if (!inherits(fits[[k]], "argusFit")) stopf("argument %d of anova() is not an argusFit", k)
    checkFitForInference(fits[[k]], "anova()")
    checkTestableFit(fits[[k]])
  }
  test <- checkAnovaTest(test, object$modelType)
  if (length(fits) == 1) return(sequentialAnova(object, test))
  checkComparable(fits)
  summaries <- lapply(fits, function(fit) list(logLik = fit$logLikelihood, df = estimatedCount(fit)))
  if (object$modelType %in% c("lr", "pr", "ls"))
    return(devianceTable(fits, summaries, test, modelLabels(fits)))
  loglikTable(summaries, test, modelLabels(fits), responseLabel(object), object$modelType)
}

checkAnovaTest <- function(test, modelType) {
  if (is.null(test)) return(NULL)
  if (!is.character(test) || length(test) != 1 || !test %in% c("Chisq", "LRT", "F"))
    stopf("'test' must be \"Chisq\", \"LRT\", \"F\" or NULL")
  if (test == "F" && modelType != "ls")
    stopf("test = \"F\" is for least squares (modelType 'ls'), whose dispersion is estimated")
  if (test == "LRT") "Chisq" else test
}

# A likelihood-ratio test needs the likelihood itself: no prior, no pseudo-likelihood.
checkTestableFit <- function(fit) {
  if (fit$modelType == "fgr")
    stopf(paste("anova() has no likelihood-ratio test for Fine-Gray fits: with the censoring",
                "weights estimated, the pseudo-likelihood ratio is not chi-square distributed;",
                "use Wald tests with the robust vcov(fit, type = \"robust\")"))
  if (any(fit$priorType[!fit$fixed] != "none"))
    stopf(paste("anova() compares maximum-likelihood fits; this one is penalized (a %s prior),",
                "and a ratio of penalized likelihoods is not chi-square distributed"),
          paste(unique(fit$priorType[fit$priorType != "none"]), collapse = "/"))
  if (fit$status != "SUCCESS")
    warning(sprintf("a fit compared by anova() has status %s: its log-likelihood is not a maximum",
                    fit$status), call. = FALSE)
  warnNonIntegerWeights(fit, "likelihood-ratio tests", "compare robust Wald tests instead")
}

# Coefficients estimated (not fixed, not aliased): the model's degrees of freedom.
estimatedCount <- function(fit) sum(!fit$fixed & !aliasedFlags(fit))

# Fits compared must be of the same rows, outcome, weights, offsets, strata and ties, and each
# nested in the next or the next in it.
checkComparable <- function(fits) {
  first <- fits[[1]]
  for (k in seq_along(fits)[-1]) {
    fit <- fits[[k]]
    if (fit$modelType != first$modelType)
      stopf("anova() compares fits of one modelType: '%s' and '%s'", first$modelType, fit$modelType)
    differs <- differingRows(first, fit)
    if (!is.null(differs))
      stopf("fits 1 and %d are not of the same data: %s differ", k, differs)
    previous <- estimatedNames(fits[[k - 1]])
    current <- estimatedNames(fit)
    if (!all(previous %in% current) && !all(current %in% previous))
      stopf(paste("fits %d and %d are not nested: each has covariates the other lacks (%s; %s)",
                  "(models nested only after a reparametrisation are not recognised)"), k - 1, k,
            paste(utils::head(setdiff(previous, current), 3), collapse = ", "),
            paste(utils::head(setdiff(current, previous), 3), collapse = ", "))
  }
}

estimatedNames <- function(fit) names(fit$coefficients)[!fit$fixed & !aliasedFlags(fit)]

# What differs between the rows of two fits (NULL: nothing): their identities, outcome, times,
# weights, offsets, strata (as a partition) and, for Cox, the ties.
differingRows <- function(a, b) {
  da <- a$data
  db <- b$data
  if (!identical(idLabel(da$rowIds), idLabel(db$rowIds)) || !setequal(da$order, db$order))
    return("the rows (a different na.action result, or dropped strata)")
  inUser <- function(fit, v) {
    if (is.null(v)) return(NULL)
    out <- rep(NA, length(fit$data$rowIds))
    out[fit$data$order] <- v
    out
  }
  same <- function(u, v) {
    identical(is.null(u), is.null(v)) && (is.null(u) || isTRUE(all(u == v | (is.na(u) & is.na(v)))))
  }
  partition <- function(s) if (is.null(s)) NULL else match(s, unique(s))
  checks <- list(
    outcomes = same(inUser(a, da$y), inUser(b, db$y)),
    times = same(inUser(a, da$time), inUser(b, db$time)) &&
      same(inUser(a, da$startTime), inUser(b, db$startTime)),
    weights = same(inUser(a, fitRows(a)$weights), inUser(b, fitRows(b)$weights)),
    offsets = same(inUser(a, da$offset %||% rep(0, da$nRows)),
                   inUser(b, db$offset %||% rep(0, db$nRows))),
    strata = same(partition(inUser(a, da$stratum)), partition(inUser(b, db$stratum))),
    ties = identical(da$ties, db$ties))
  bad <- names(checks)[!unlist(checks)]
  if (length(bad)) paste(bad, collapse = ", ") else NULL
}

# The models as anova.coxph ("~ age + sex") and anova.glm ("low ~ age + sex") name them; the
# covariates' names for fits not made from a formula.
modelLabels <- function(fits) {
  vapply(fits, function(fit) {
    f <- fit$data$formulaTerms$formula
    if (!is.null(f) && fit$modelType %in% c("lr", "pr", "ls"))
      return(paste(deparse(f, width.cutoff = 500L), collapse = "\n"))
    if (!is.null(f)) return(paste(as.character(f[-2]), collapse = " "))
    covariates <- estimatedNames(fit)
    shown <- paste(utils::head(covariates, 6), collapse = " + ")
    if (length(covariates) > 6) shown <- sprintf("%s + ... (%d covariates)", shown, length(covariates))
    paste("~", shown)
  }, "")
}

responseLabel <- function(fit) {
  f <- fit$data$formulaTerms$formula
  if (is.null(f) || length(f) < 3) "y" else paste(deparse(f[[2]], width.cutoff = 500L), collapse = " ")
}

# anova.coxph's table: loglik, Chisq, Df, Pr(>|Chi|).
loglikTable <- function(summaries, test, labels, response, modelType, sequential = FALSE) {
  loglik <- vapply(summaries, `[[`, 0, "logLik")
  df <- vapply(summaries, `[[`, 0, "df")
  change <- if (sequential) 2 * diff(loglik) else abs(2 * diff(loglik))
  table <- data.frame(loglik = loglik, Chisq = c(NA, change),
                      Df = c(NA, if (sequential) diff(df) else abs(diff(df))))
  if (!is.null(test)) table[["Pr(>|Chi|)"]] <- stats::pchisq(table$Chisq, table$Df, lower.tail = FALSE)
  model <- switch(modelType, cox = "Cox model", clr = "conditional logistic model",
                  "conditional Poisson model")
  title <- sprintf("Analysis of Deviance Table\n %s: response is %s", model, response)
  if (sequential) {
    row.names(table) <- labels
    heading <- paste0(title, "\nTerms added sequentially (first to last)\n")
  } else {
    row.names(table) <- seq_along(labels)
    heading <- c(title, paste0(" Model ", format(seq_along(labels)), ": ", labels, collapse = "\n"))
  }
  structure(table, heading = heading, class = c("anova", "data.frame"))
}

# anova.glm's table of several fits: Resid. Df, Resid. Dev, Df, Deviance, and the test, the
# deviances from each fit's deviance() (the saturated model's log-likelihood cancels).
devianceTable <- function(fits, summaries, test, labels) {
  resdf <- vapply(fits, function(fit) as.numeric(df.residual.argusFit(fit)), 0)
  resdev <- vapply(fits, deviance.argusFit, 0)
  table <- data.frame(resdf, resdev, c(NA, -diff(resdf)), c(NA, -diff(resdev)))
  dimnames(table) <- list(seq_along(fits), c("Resid. Df", "Resid. Dev", "Df", "Deviance"))
  big <- fits[[order(resdf)[1]]]
  table <- devianceTest(table, test, big, min(resdf))
  heading <- c("Analysis of Deviance Table\n",
               paste0("Model ", format(seq_along(labels)), ": ", labels, collapse = "\n"))
  structure(table, heading = heading, class = c("anova", "data.frame"))
}

# stats' stat.anova for "Chisq" and "F": the deviance over the dispersion (1 for lr and pr;
# least squares: the residual variance of the largest model, on its residual df).
devianceTest <- function(table, test, big, dfScale) {
  if (is.null(test)) return(table)
  scale <- if (big$modelType == "ls") residualScale(big)$sigma2 else 1
  df <- table[, "Df"]
  if (test == "Chisq") {
    values <- table[, "Deviance"] / scale * sign(df)
    values[df %in% 0] <- NA
    values[!is.na(values) & values < 0] <- NA
    return(cbind(table, `Pr(>Chi)` = stats::pchisq(values, abs(df), lower.tail = FALSE)))
  }
  f <- (table[, "Deviance"] / df) / scale
  f[df %in% 0] <- NA
  f[!is.na(f) & f < 0] <- NA
  cbind(table, F = f, `Pr(>F)` = stats::pf(f, abs(df), dfScale, lower.tail = FALSE))
}

# One formula fit: the terms added one at a time. Model k holds the columns of the terms after
# the k-th at 0 (the intercept stays); the last model is the fit itself.
sequentialAnova <- function(fit, test) {
  ft <- fit$data$formulaTerms
  if (is.null(ft))
    stopf(paste("anova() of one fit adds its formula's terms one at a time; this fit was not made",
                "from a formula: compare fits with anova(fit1, fit2, ...)"))
  if (is.null(ft$assign))
    stopf("this fit's data were made before anova() existed: rebuild them with createData()")
  termOf <- unname(ft$assign[names(fit$coefficients)])
  levels <- sort(unique(termOf[termOf > 0]))
  labels <- c("NULL", attr(ft$terms, "term.labels")[levels])
  summaries <- lapply(seq_along(labels) - 1L, function(k) {
    if (k == length(levels)) return(list(logLik = fit$logLikelihood, df = estimatedCount(fit)))
    refitHolding(fit, termOf > 0 & !(termOf %in% levels[seq_len(k)]))
  })
  if (fit$modelType %in% c("lr", "pr", "ls")) return(sequentialDevianceTable(fit, summaries, test, labels))
  loglikTable(summaries, test, labels, responseLabel(fit), fit$modelType, sequential = TRUE)
}

# The fit's model with the columns `held` at 0: its log-likelihood and estimated count.
refitHolding <- function(fit, held) {
  settings <- engineSettings(fit)
  settings$start[held] <- 0
  fixed <- (settings$fixed %||% rep(FALSE, length(held))) | held
  settings["fixed"] <- list(fixed)
  result <- .Call(argus_fit, fit$data, settings)
  if (result$status != "SUCCESS")
    warning(sprintf("a smaller model refitted by anova() has status %s", result$status), call. = FALSE)
  list(logLik = result$logLikelihood,
       df = sum(!fixed & !(seq_along(fixed) %in% result$aliased)))
}

# anova.glm's table of one fit: Df, Deviance, Resid. Df, Resid. Dev, with each smaller model's
# deviance that of the fit plus twice the log-likelihood it loses.
sequentialDevianceTable <- function(fit, summaries, test, labels) {
  loglik <- vapply(summaries, `[[`, 0, "logLik")
  resdf <- nobs.argusFit(fit) - vapply(summaries, `[[`, 0, "df")
  resdev <- deviance.argusFit(fit) + 2 * (fit$logLikelihood - loglik)
  table <- data.frame(c(NA, -diff(resdf)), c(NA, pmax(0, -diff(resdev))), resdf, resdev)
  dimnames(table) <- list(labels, c("Df", "Deviance", "Resid. Df", "Resid. Dev"))
  family <- switch(fit$modelType, lr = "binomial, link: logit", pr = "poisson, link: log",
                   ls = "gaussian, link: identity")
  table <- devianceTest(table, test, fit, resdf[length(resdf)])
  heading <- paste0("Analysis of Deviance Table\n\nModel: ", family, "\n\nResponse: ",
                    responseLabel(fit), "\n\nTerms added sequentially (first to last)\n\n")
  structure(table, heading = heading, class = c("anova", "data.frame"))
}
