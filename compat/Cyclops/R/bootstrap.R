# runBootstrap(): Argus's bootstrap replicates, summarized the incumbent's way.

#' Bootstrap a Cyclops fit
#'
#' Refits the model on `replicates` resamples of the rows (whole strata for conditional
#' models, as the fit's selector type says) with Argus's bootstrap, seeded by the fit's seed,
#' at the fit's prior and variance. The result is the incumbent's: `samples` (one row per
#' replicate, one column per coefficient) and `summary`, a data frame with one row per
#' coefficient named by its name (for data from long tables the covariate id, so that
#' `summary[as.character(id), ]` finds it) and the columns `original` (the estimate),
#' `bias` (mean of the replicates minus the estimate), `std_err` (their standard deviation),
#' `bpi_lower` and `bpi_upper` (the percentile interval of coverage `ciCoverage`). With
#' `na.rm`, replicates with a missing value are left out first.
#'
#' @param object A `cyclopsFit`.
#' @param replicates Number of replicates.
#' @param ciCoverage Coverage of the percentile interval.
#' @param na.rm Leave out replicates with missing values.
#' @return A list with `samples` and `summary`, and `engine` (`"Argus"`).
#' @examples
#' d <- createCyclopsData(case ~ spontaneous + induced + strata(stratum), data = infert,
#'                        modelType = "clr")
#' fit <- fitCyclopsModel(d, control = createControl(seed = 1))
#' runBootstrap(fit, 50)$summary
#' @export
runBootstrap <- function(object, replicates, ciCoverage = 0.95, na.rm = FALSE) {
  fit <- argusFitOf(object)
  boot <- Argus::runBootstrap(fit, replicates = replicates, level = ciCoverage,
                              threads = max(1L, object$threads %||% 1L),
                              seed = object$seed %% .Machine$integer.max)
  samples <- as.data.frame(boot$estimates)
  names(samples) <- object$coefficientNames
  if (na.rm) samples <- samples[stats::complete.cases(samples), , drop = FALSE]
  original <- stats::setNames(object$estimation$estimate, object$coefficientNames)
  epsilon <- 1 - ciCoverage
  summary <- data.frame(
    original = original,
    bias = vapply(samples, mean, 0) - original,
    std_err = vapply(samples, stats::sd, 0),
    bpi_lower = vapply(samples, stats::quantile, 0, probs = epsilon / 2, names = FALSE),
    bpi_upper = vapply(samples, stats::quantile, 0, probs = 1 - epsilon / 2, names = FALSE),
    row.names = object$coefficientNames)
  list(samples = samples, summary = summary, engine = "Argus")
}
