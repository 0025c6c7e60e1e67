# The package: its startup message and the small helpers every file uses.

#' Cyclops on the Argus engine
#'
#' This package is named `Cyclops` and carries the exported interface of Cyclops 3.7.0
#' (function and argument names, defaults, classes and the shapes of results), so that code
#' written for Cyclops (the OHDSI packages CohortMethod, SelfControlledCaseSeries,
#' PatientLevelPrediction, EvidenceSynthesis) runs unchanged; every fit is made by the Argus
#' engine through Argus's exported functions.
#'
#' **Which engine made a fit.** A fit has `fit$engine == "Argus"` (the real Cyclops has no such
#' field) and keeps the Argus fit in `fit$argusFit`; `packageDescription("Cyclops")$Title`
#' names Argus, and the startup message says so. Suppress the message with
#' `suppressPackageStartupMessages(library(Cyclops))`.
#'
#' **Where it differs from the incumbent.** Where the incumbent's answer differs from the
#' established reference, this package gives the reference's answer:
#' \itemize{
#'   \item `fitCyclopsModel(weights = )` on data from `convertToCyclopsData()` for `"cox"`,
#'     `"clr"` and `"cpr"` (and `"lr"`, `"pr"` with outcomes not sorted by `rowId`): the
#'     weights belong to the rows in the order of `outcomes`, as `coxph(weights = )` reads
#'     them; the incumbent applies them in its internal sort order (by stratum, time
#'     descending, ...), to other rows. On `survival::lung` (age, sex; random weights in
#'     `[0.2, 3]`, seed 1) the incumbent gives 0.0170 and -0.576 where `coxph` and this
#'     package give 0.0138 and -0.432.
#'   \item `createCyclopsData(Surv(start, stop, status) ~ ...)` is a counting-process Cox model,
#'     as in `coxph`: a row is at risk on `(start, stop]`. The incumbent fits the interval
#'     lengths `stop - start` as if every row started at 0.
#'   \item `survfit(fit, type = "aalen")` of a weighted Cox fit: the weighted Breslow
#'     estimate at the weighted mean linear predictor, as `survfit(coxph(weights = ))`; the
#'     incumbent ignores the weights there.
#'   \item Profile-likelihood limits (`confint()`): the exact limits (to about 1e-10); the
#'     incumbent's root search stops early, 1.2e-4 off on `MASS::Insurance` (Poisson,
#'     District2) and up to 2.5e-4 on CohortMethod-shaped outcome models.
#'   \item `log_prior`, and profile values with `includePenalty = TRUE`, of `"cpr"` data with
#'     exposure times from [convertToCyclopsData()]: the log density of the prior; the
#'     incumbent counts its internal log-time offset column as a penalized coefficient at 1,
#'     adding `log(lambda / 2) - lambda` (-32.29 where the prior's density gives 9.32 at
#'     Laplace variance 0.001).
#' }
#' A fit whose coefficients run off to infinity (separation) is `"SUCCESS"` with a warning
#' that a coefficient may be infinite, as `glm()` and `coxph()` report it (Argus's own status,
#' `"NO_FINITE_MLE"`, is in `fit$argusFit$status`); both packages report the point where the
#' iterations stopped, which differs. Cross-validation and the bootstrap use Argus's folds and
#' resamples: their results agree with the incumbent's within sampling noise.
#' The README of the package (`compat/Cyclops/README.md` in the Argus repository) has the table
#' with the sizes measured, and lists the incumbent functions that stop because Argus has no
#' equivalent (non-separable, parameterized, BAR and hierarchical priors, the Jeffreys prior,
#' time-varying coefficients, multitype outcomes, the Java cache, OpenCL devices).
#'
#' @name Cyclops-package
#' @aliases Cyclops
NULL

.onAttach <- function(libname, pkgname) {
  packageStartupMessage(sprintf(paste(
    "Cyclops %s: the Cyclops 3.7.0 interface on the Argus engine (Argus %s).",
    "Fits carry fit$engine == \"Argus\"; the real Cyclops is not used."),
    utils::packageVersion("Cyclops"), utils::packageVersion("Argus")))
}

stopf <- function(...) stop(sprintf(...), call. = FALSE)
warnf <- function(...) warning(sprintf(...), call. = FALSE)
`%||%` <- function(a, b) if (is.null(a)) b else a

# The engine a call needs is missing: one error text for every refused feature.
refuse <- function(what, why) {
  stopf("%s has no equivalent in the Argus engine (this Cyclops is a front end on Argus): %s",
        what, why)
}

# Model types of the incumbent and what each is in Argus: the Argus model and, for the
# conditional logistic and Cox models, the likelihood for tied cases (the incumbent's "clr"
# and "cox" are Breslow's; "clr_exact" the exact conditional likelihood).
modelTypeTable <- data.frame(
  cyclops = c("ls", "lr", "pr", "clr", "clr_exact", "clr_efron", "cpr", "sccs", "cox", "fgr"),
  argus = c("ls", "lr", "pr", "clr", "clr", "clr", "cpr", "sccs", "cox", "fgr"),
  ties = c(NA, NA, NA, "breslow", "exact", "efron", NA, NA, "breslow", "breslow"),
  stringsAsFactors = FALSE)

checkModelType <- function(modelType) {
  if (!is.character(modelType) || length(modelType) != 1)
    stopf("'modelType' must be one of %s", paste(modelTypeTable$cyclops, collapse = ", "))
  if (modelType %in% c("cox_time", "cox_raw"))
    refuse(sprintf("modelType = \"%s\"", modelType),
           "time-varying coefficients and the raw Cox likelihood are not fitted; use \"cox\"")
  if (!modelType %in% modelTypeTable$cyclops) stop("Invalid model type.")
  modelType
}

argusModel <- function(modelType) modelTypeTable$argus[match(modelType, modelTypeTable$cyclops)]
argusTies <- function(modelType) {
  ties <- modelTypeTable$ties[match(modelType, modelTypeTable$cyclops)]
  if (is.na(ties)) NULL else ties
}

isSurvivalType <- function(modelType) modelType %in% c("cox", "fgr")
isConditionalType <- function(modelType)
  modelType %in% c("clr", "clr_exact", "clr_efron", "cpr", "sccs")
# the incumbent's model types that take an intercept
takesIntercept <- function(modelType) modelType %in% c("ls", "lr", "pr")

# columns named in dplyr verbs on database tables
utils::globalVariables("covariateId")
