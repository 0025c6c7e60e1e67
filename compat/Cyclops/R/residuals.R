# Schoenfeld residuals and the proportional-hazards test of a Cox fit, from Argus's
# residuals() and testProportionalHazards(), in the incumbent's shapes.

#' Schoenfeld residuals of a Cox fit
#'
#' One residual per event: the covariate minus its risk-weighted mean at the event time,
#' sorted by stratum and time and named by the event time, as `residuals(coxph_fit,
#' "schoenfeld")` (unweighted). With one covariate a named vector (with attribute `strata`,
#' the number of events per stratum, when there are several), with several a matrix.
#'
#' @param object A `cyclopsFit` of a `"cox"` model.
#' @param parm Not used (as in the incumbent, where `residuals(fit, "schoenfeld")` passes the
#'   type here).
#' @param type `"schoenfeld"`.
#' @param ... Not used.
#' @return A named vector or a matrix.
#' @method residuals cyclopsFit
#' @export
residuals.cyclopsFit <- function(object, parm = NULL, type = "schoenfeld", ...) {
  data <- object$cyclopsData
  if (data$modelType != "cox") stop("Residuals for only Cox models are currently implemented")
  if (type != "schoenfeld") stop("Only Schoenfeld residuals are currently implemented")
  fit <- argusFitOf(object)
  residuals <- stats::residuals(fit, type = "schoenfeld", weighted = FALSE)
  residuals <- as.matrix(residuals)
  colnames(residuals) <- object$coefficientNames[match(colnames(residuals), names(fit$coefficients))]
  if (ncol(residuals) > 1) return(residuals)
  result <- stats::setNames(residuals[, 1], rownames(residuals))
  strata <- eventStrata(fit, data)
  if (length(strata) > 1) attr(result, "strata") <- strata
  result
}

# Events per stratum, named "stratum=<id>", in the order of the residuals.
eventStrata <- function(fit, data) {
  o <- data$outcomes
  if (is.null(o$stratumId)) return(NULL)
  events <- o$y != 0 & (fit$weights %||% rep(1, nrow(o))) > 0
  counts <- table(o$stratumId[events])
  names(counts) <- paste0("stratum=", names(counts))
  counts
}

#' Test of proportional hazards of a Cox fit
#'
#' The score test of each covariate's coefficient against transformed time (Schoenfeld
#' residuals on `g(t)`, Grambsch and Therneau), as `survival::cox.zph()` computes it, from
#' Argus's `testProportionalHazards()`: a `table` with columns `chisq`, `df` and `p`, one row
#' per covariate and, with several covariates, a `"GLOBAL"` row (the incumbent tested one
#' covariate only; its table equals `cox.zph(global = FALSE)`'s).
#'
#' @param object A `cyclopsFit` of a `"cox"` model.
#' @param parm Covariates whose rows to keep (default: all).
#' @param transform `"km"`, `"rank"`, `"identity"`, `"log"` or a function of time.
#' @return An object of class `cyclopsZph` with `table`.
#' @export
testProportionality <- function(object, parm = NULL, transform = "km") {
  data <- object$cyclopsData
  if (data$modelType != "cox")
    stop("Proportionality test for only Cox models are currently implemented")
  if (!exists("testProportionalHazards", envir = asNamespace("Argus"), inherits = FALSE))
    stopf(paste("testProportionality() needs Argus::testProportionalHazards(), which this",
                "installation of Argus (%s) does not have: update Argus"),
          utils::packageVersion("Argus"))
  fit <- argusFitOf(object)
  test <- getExportedValue("Argus", "testProportionalHazards")
  zph <- test(fit, transform = transform, terms = TRUE, global = TRUE)
  table <- as.matrix(zph$table)[, c("chisq", "df", "p"), drop = FALSE]
  labels <- rownames(table)
  named <- labels %in% names(fit$coefficients)
  labels[named] <- object$coefficientNames[match(labels[named], names(fit$coefficients))]
  rownames(table) <- labels
  covariates <- labels != "GLOBAL"
  if (sum(covariates) == 1) table <- table[covariates, , drop = FALSE]
  if (!is.null(parm)) {
    keep <- object$coefficientNames[covariatePositions(data, parm)]
    table <- table[rownames(table) %in% keep, , drop = FALSE]
  }
  structure(list(table = table, transform = transform, engine = "Argus"), class = "cyclopsZph")
}

#' @export
print.cyclopsZph <- function(x, digits = max(options()$digits - 4, 3), signif.stars = FALSE, ...) {
  invisible(stats::printCoefmat(x$table, digits = digits, signif.stars = signif.stars,
                                P.values = TRUE, has.Pvalue = TRUE, ...))
}
