# Simulated data for examples, tests and benchmarks.

#' Simulate self-controlled case series data
#'
#' Simulates cases-only SCCS data in the OHDSI long format, for examples, tests and
#' benchmarks. Each patient has an observation period of `minObsDays` to `maxObsDays` days
#' and 1 to `maxEras` drug exposure eras; drugs follow a Zipf popularity (most are rare).
#' Era starts and ends cut the observation period into constant-exposure intervals: one
#' outcome row per interval (`stratumId` = patient, `time` = length in days) and one
#' covariate entry per drug active on it. Every patient is a case: its `1 + Poisson(extraEvents)`
#' events fall on its rows with probabilities proportional to `time * exp(x beta)`, which is
#' exactly the SCCS model.
#'
#' @param nCases Number of patients (cases).
#' @param nDrugs Number of drugs (covariates).
#' @param minObsDays,maxObsDays Range of the observation period, in days.
#' @param maxEras Maximum number of exposure eras per patient.
#' @param meanEraDays Mean era length in days (exponential).
#' @param popularityExponent Drug popularity is proportional to `1 / rank^popularityExponent`.
#' @param nNonzero Number of drugs with a true effect, drawn among the most popular.
#' @param effectRange Range of the absolute true log relative incidence.
#' @param extraEvents Mean number of events beyond the first.
#' @param seed Optional random seed.
#' @return A list with `outcomes` (rowId, stratumId, y, time), `covariates` (rowId,
#'   covariateId, covariateValue), `trueBeta` (named by covariateId) and `nDrugsObserved`.
#' @examples
#' sim <- simulateSccs(200, 10, seed = 1)
#' head(sim$outcomes)
#' @export
simulateSccs <- function(nCases, nDrugs, minObsDays = 180, maxObsDays = 3 * 365, maxEras = 4,
                         meanEraDays = 60, popularityExponent = 1, nNonzero = 10,
                         effectRange = c(0.2, 1), extraEvents = 0.3, seed = NULL) {
  checkScalar(nCases, "nCases", lower = 1, integer = TRUE)
  checkScalar(nDrugs, "nDrugs", lower = 1, integer = TRUE)
  checkScalar(minObsDays, "minObsDays", lower = 1, integer = TRUE)
  checkScalar(maxObsDays, "maxObsDays", lower = minObsDays, integer = TRUE)
  checkScalar(maxEras, "maxEras", lower = 1, integer = TRUE)
  checkScalar(meanEraDays, "meanEraDays", lower = .Machine$double.xmin)
  checkScalar(popularityExponent, "popularityExponent")
  checkScalar(nNonzero, "nNonzero", lower = 0, integer = TRUE)
  if (!is.numeric(effectRange) || length(effectRange) != 2 || !all(is.finite(effectRange)) ||
      effectRange[1] > effectRange[2])
    stopf("'effectRange' must be two finite numbers, the smaller first")
  checkScalar(extraEvents, "extraEvents", lower = 0)
  if (!is.null(seed)) checkScalar(seed, "seed", lower = -.Machine$integer.max, upper = .Machine$integer.max, integer = TRUE)
  # eras, interval keys and entries of each case (up to about 2 * maxEras + 2 keys and as many
  # rows, each era's drug on each row it covers), and the drugs' popularities
  checkMemory(400 * as.double(nCases) * maxEras + 32 * as.double(nDrugs),
              sprintf("simulateSccs() with %s cases, up to %d eras each, and %s drugs",
                      format(nCases, big.mark = ","), as.integer(maxEras), format(nDrugs, big.mark = ",")))
  if (!is.null(seed)) set.seed(seed)
  nCases <- as.integer(nCases)
  nDrugs <- as.integer(nDrugs)
  nNonzero <- min(nNonzero, nDrugs)

  # Observation periods [0, obs) and exposure eras [eraStart, eraEnd) in whole days.
  obs <- sample.int(maxObsDays - minObsDays + 1L, nCases, replace = TRUE) + (minObsDays - 1L)
  nEras <- sample.int(maxEras, nCases, replace = TRUE)
  eraPatient <- rep.int(seq_len(nCases), nEras)
  nErasTotal <- length(eraPatient)
  popularity <- 1 / seq_len(nDrugs)^popularityExponent
  eraDrug <- sample.int(nDrugs, nErasTotal, replace = TRUE, prob = popularity)
  eraObs <- obs[eraPatient]
  eraStart <- floor(stats::runif(nErasTotal) * eraObs)
  eraEnd <- pmin(eraStart + 1 + round(stats::rexp(nErasTotal, 1 / meanEraDays)), eraObs)

  # All change points of every patient as one sorted key (patient, day).
  M <- maxObsDays + 1
  key <- sort(unique(c(seq_len(nCases) * M, seq_len(nCases) * M + obs,
                       eraPatient * M + eraStart, eraPatient * M + eraEnd)))
  nKeys <- length(key)
  keyPatient <- key %/% M
  keyDay <- key - keyPatient * M
  startsRow <- c(keyPatient[-1] == keyPatient[-nKeys], FALSE)  # key k opens an interval
  rowOfKey <- cumsum(startsRow)                              # row opened by key k
  at <- which(startsRow)
  nRows <- length(at)
  rowPatient <- keyPatient[at]
  rowTime <- keyDay[at + 1L] - keyDay[at]

  # Each era covers the contiguous rows opened by its start key up to its end key.
  ks <- match(eraPatient * M + eraStart, key)
  ke <- match(eraPatient * M + eraEnd, key)
  count <- ke - ks
  entryRow <- rep.int(rowOfKey[ks], count) + sequence(count) - 1L
  entryDrug <- rep.int(eraDrug, count)
  keep <- !duplicated(entryRow * (nDrugs + 1) + entryDrug)  # same drug twice on a row
  entryRow <- entryRow[keep]
  entryDrug <- entryDrug[keep]

  # True effects.
  beta <- numeric(nDrugs)
  pool <- seq_len(min(nDrugs, 5L * nNonzero))
  chosen <- pool[sample.int(length(pool), nNonzero)]
  beta[chosen] <- stats::runif(nNonzero, effectRange[1], effectRange[2]) *
    sample(c(-1, 1), nNonzero, replace = TRUE)
  xb <- numeric(nRows)
  nz <- beta[entryDrug] != 0
  if (any(nz)) {
    s <- rowsum(beta[entryDrug[nz]], entryRow[nz], reorder = FALSE)
    xb[as.integer(rownames(s))] <- s[, 1]
  }

  # Multinomial allocation of each patient's events over its rows (rows are grouped by
  # patient in increasing order, and every patient has at least one row).
  w <- rowTime * exp(xb)
  C <- cumsum(w)
  first <- match(seq_len(nCases), rowPatient)
  last <- c(first[-1] - 1L, nRows)
  before <- c(0, C)[first]                     # cumulative weight before the patient
  total <- C[last] - before
  nEvents <- 1L + stats::rpois(nCases, extraEvents)
  ep <- rep.int(seq_len(nCases), nEvents)
  eventRow <- findInterval(before[ep] + stats::runif(length(ep)) * total[ep], C) + 1L
  eventRow <- pmin(pmax(eventRow, first[ep]), last[ep])
  y <- tabulate(eventRow, nbins = nRows)

  list(outcomes = data.frame(rowId = seq_len(nRows), stratumId = rowPatient, y = y,
                             time = rowTime),
       covariates = data.frame(rowId = entryRow, covariateId = entryDrug, covariateValue = 1),
       trueBeta = stats::setNames(beta, seq_len(nDrugs)),
       nDrugsObserved = length(unique(entryDrug)))
}
