#' Create solver settings
#'
#' @param tolerance Convergence tolerance on the relative change of the quantity chosen by
#'   `convergenceType`. A fit that meets it is checked for optimality before it reports
#'   `"SUCCESS"` (see `optimalityTolerance`).
#' @param optimalityTolerance The largest first-order optimality violation a `"SUCCESS"` may
#'   have, checked from a fresh full gradient at the returned coefficients. For each free
#'   coefficient, with `G` the derivative of the log posterior along it and `H` its curvature
#'   (minus the second derivative, the prior's included), the violation is
#'   `|G| / sqrt(phi * H)`: the distance of the coefficient from its optimum given the others,
#'   in units of its conditional standard error (`phi` = 1, or for `"ls"` the mean squared
#'   residual; with weights whose mean over the rows that have one is below 1, e.g. weights
#'   normalized to sum to 1, `phi` is multiplied by that mean, so that such weights are held
#'   to the standard errors of weights averaging 1). Under a Laplace prior a coefficient at 0
#'   violates only by how much `|g|` exceeds `lambda`. The measure does not depend on the
#'   scale of the covariate nor on the number of rows. When a `convergenceType` rule is met
#'   but the check fails, the fit goes on (with the rule tightened tenfold);
#'   `fit$optimality` reports the value reached.
#' @param maxIterations Maximum number of CCD cycles.
#' @param convergenceType `"gradient"` (relative change of `sum(w * y * eta)`), `"lange"`
#'   (log posterior), `"mittal"` (log-likelihood) or `"zhang"` (change of the linear
#'   predictor).
#' @param threads Number of threads (`-1`, as in the incumbent: as many as there are cores). Cross-validation, the bootstrap and profiling run their
#'   fits in parallel; a single Cox or Fine-Gray fit splits each large column (over 4,096
#'   nonzeros) across up to 4 threads. Results are identical for any number of threads.
#' @param majorizedStart Before the CCD cycles, take proximal Newton steps on a bound of the
#'   log-likelihood that is separable in the linear predictor (on the CPU: the survival models
#'   `cox` and `fgr`; on a device, more models: see below),
#'   each as cheap as one pass over the nonzeros (no risk-set refresh per coordinate). Where
#'   the steps meet the convergence rule, the optimality check runs at once and, passed, ends
#'   the fit with no cycle (`fit$iterations` is then 0); otherwise the cycles finish and
#'   certify it. `"auto"` takes them where a cycle costs more than the steps that replace it:
#'   Cox with sparse covariates and many distinct event times (the papers' design: several
#'   times faster), and Fine-Gray; not Cox with few distinct times or dense covariates.
#'   `"always"`, `"never"`. The certification is the same either way (the optimum agrees to
#'   the tolerance); `fit$majorizedSteps` counts the steps. On a device (`device = "cuda"` or
#'   `"emulated"`) the steps move every coefficient at once, and `"always"` takes them for the
#'   GLMs (`ls`, `lr`, `pr`) and the conditional models with Breslow's form (`sccs`, `cpr`,
#'   `clr` with `ties = "breslow"`) as well; `"auto"` there follows the CPU's rule on the
#'   emulated device and does not take them on a GPU until they are timed there.
#' @param seed Seed of the fold assignment (a whole number). `NULL` draws one from R's
#'   random number generator (so `set.seed()` makes it reproducible); the seed used is kept in
#'   `fit$cv$seed`. Argus uses its own generator, so results depend on the seed only.
#' @param noiseLevel `"silent"`, `"quiet"` (one line per fit) or `"noisy"` (one line per
#'   cycle).
#' @param initialBound Initial half-width of each coordinate's trust region, as a change of the
#'   linear predictor: the bound on a step of `beta_j` starts at `initialBound / max(abs(x_j))`
#'   (`initialBound` itself for indicator columns), so a covariate's scale does not decide
#'   how many cycles its coefficient needs.
#' @param device Where to fit: `"cpu"`; `"cuda"` / `"cuda:N"` in a CUDA build; `"emulated"` in a
#'   build made with `ARGUS_CUDA=emulate` (the device algorithm on the CPU, for testing);
#'   `"auto"`, a GPU for large designs of the models it was measured faster on, else the CPU (see
#'   [listDevices()]). A device that is not there is an error, never a silent fallback.
#' @param cvType How cross-validation searches the variance: `"grid"` scores `gridSteps`
#'   variances log-spaced from `lowerLimit` to `upperLimit`; `"auto"` starts at
#'   `startingVariance`, moves by factors of 10 until the best variance is bracketed (at most
#'   10 moves), scores a half-decade point on the better side of the bracket (and the other
#'   side's only if that one is no better), then refines with a parabola in log(variance) (at
#'   most 3 steps). The search is local: covariates of very different scales (one in the
#'   hundreds, others 0/1) can give a Laplace prior's held-out curve two maxima, the
#'   large-scale covariates entering alone at small variances. So where the search ends on a
#'   model with every penalized coefficient 0, or the covariates' root-mean-square values
#'   differ more than tenfold (0/1 covariates of any prevalence do not), it also scores a weak
#'   penalty (100 times the threshold variance of the least informative covariate) and
#'   searches from there if that scores better. A grid over a wide range shows the whole
#'   curve; standardizing the covariates avoids the two maxima.
#' @param fold Number of folds: at most the number of sampling units (rows, or strata, as
#'   `selectorType` says), which [fitModel()] and [createFolds()] check first.
#' @param cvRepetitions Number of times the rows (or strata) are re-permuted into folds; the
#'   objective is the mean over all folds of all repetitions. The fold plan holds one 32-bit
#'   fold number per row and repetition: `cvRepetitions` times the number of rows may be at
#'   most 2^31 - 1, and the memory it needs (with the result's copies) must be available: that is checked before
#'   anything is allocated, and an error says how much it needs and how much there is (Linux:
#'   /proc/meminfo's MemAvailable, the cgroup's limit, ulimit -v; elsewhere the physical
#'   memory, or no check).
#' @param lowerLimit,upperLimit,gridSteps The grid of `cvType = "grid"`.
#' @param selectorType What a fold (or a bootstrap resample) is made of: `"byRow"` (rows),
#'   `"byPid"` (whole strata; data without strata, or with one, have rows as their units,
#'   each row its own person as in the incumbent), or `"auto"`: whole strata for
#'   conditional models (`"clr"`, `"cpr"`, `"sccs"`), rows otherwise (also for stratified
#'   Cox and Fine-Gray); with a `cluster()` term in the data (a patient's `(start, stop]`
#'   rows), whole clusters, in folds and bootstrap resamples alike (`"byCluster"`).
#' @param startingVariance Where the `"auto"` search starts. `NULL` (or `-1`, the incumbent's
#'   way of saying it): a data-based guess.
#'   For a normal prior, `d / mean(rowSums(X^2))` over the `d` penalized covariates (Genkin,
#'   Lewis and Madigan's default), which makes the prior variance of a typical linear
#'   predictor about 1. For a Laplace prior, the universal threshold `1 / (log(d) * mean(h))`,
#'   with `h` the penalized covariates' Fisher information at the null fit (penalized
#'   coefficients 0): the penalty that keeps covariates without effect at 0, from where the
#'   search usually walks towards weaker penalties with sparse, cheap first fits.
#' @param resetCoefficients `FALSE` (warm starts): at each candidate variance, a fit on all
#'   the data, started from the all-data fit at the nearest candidate scored before, gives
#'   the starting coefficients of every fold's fit. `TRUE`: every fold fit starts from the
#'   starting coefficients, and there are no all-data fits.
#' @param foldStratification `"none"`, or `"outcome"`: rows (or strata) with an event
#'   (`y > 0`) are spread evenly over the folds, so that every fold gets its share.
#' @param foldIds Folds chosen by the user instead: one label per row of the data, in the
#'   user's row order (the order of the input to [createData()], including rows of dropped
#'   strata; for formula data with rows left out for missing values, one per kept row or one
#'   per row of the data frame; or, for long tables, named by rowId, as `fitModel()`'s
#'   `weights`); the number of
#'   folds is the number of distinct labels. To give folds per stratum,
#'   repeat each stratum's fold on its rows: with stratum-based folds (`selectorType`) the
#'   rows of a stratum must share their fold. `cvRepetitions` must then be 1.
#' @param parallel Where cross-validation's fold fits run: `"threads"` (this process, on
#'   `threads` threads) or `"future"`: each candidate variance's fold fits are spread over the
#'   workers of the current `future::plan()` (multisession, a cluster, ...), each using
#'   `threads` threads. The result is the same as with threads for the same seed. Needs the
#'   package 'future'; see [runBootstrap()] for the bootstrap.
#' @param ... The incumbent's settings, for ported code and stored analysis settings:
#'   `minCVData` (cross-validation refuses data with fewer sampling units, rows or strata as
#'   `selectorType` says, than this); `autoSearch` (`TRUE`: `cvType = "auto"`, `FALSE`:
#'   `"grid"`, unless `cvType` is given); `useKKTSwindle`, `tuneSwindle`, `maxBoundCount`,
#'   `doItAll`, `syncCV` (any value: they tune or are unused in the incumbent and change no
#'   optimum), `algorithm = "ccd"` and `initialBoundType = "auto"`. Other values and
#'   arguments are errors that say why.
#' @return An object of class `argusControl`.
#' @examples
#' createControl(tolerance = 1e-8, noiseLevel = "quiet")
#' @export
createControl <- function(tolerance = 1e-6, maxIterations = 1000,
                          convergenceType = c("gradient", "lange", "mittal", "zhang"),
                          optimalityTolerance = 1e-4,
                          threads = 1, seed = NULL,
                          noiseLevel = c("silent", "quiet", "noisy"), initialBound = 2,
                          device = "cpu", cvType = c("auto", "grid"), fold = 10,
                          cvRepetitions = 1, lowerLimit = 0.01, upperLimit = 20,
                          gridSteps = 10, selectorType = c("auto", "byRow", "byPid"),
                          startingVariance = NULL, resetCoefficients = FALSE,
                          foldStratification = c("none", "outcome"), foldIds = NULL,
                          parallel = c("threads", "future"),
                          majorizedStart = c("auto", "always", "never"), ...) {
  cyclops <- cyclopsControlArguments(...)
  startingVariance <- cyclopsStartingVariance(startingVariance)
  threads <- cyclopsThreads(threads)
  checkScalar(tolerance, "tolerance", lower = .Machine$double.xmin)
  checkScalar(optimalityTolerance, "optimalityTolerance", lower = .Machine$double.xmin)
  checkScalar(maxIterations, "maxIterations", lower = 1, upper = .Machine$integer.max,
              integer = TRUE)
  convergenceType <- matchChoice(convergenceType, "convergenceType")
  noiseLevel <- matchChoice(noiseLevel, "noiseLevel")
  checkScalar(threads, "threads", lower = 1, upper = 1024, integer = TRUE)
  if (!is.null(seed)) checkScalar(seed, "seed", lower = -2^53, upper = 2^53, integer = TRUE)
  checkScalar(initialBound, "initialBound", lower = .Machine$double.xmin)
  if (!is.character(device) || length(device) != 1 ||
      !grepl("^(cpu|cuda(:[0-9]+)?|emulated|auto)$", device))
    stopf("'device' must be \"cpu\", \"cuda\", \"cuda:N\", \"emulated\" or \"auto\"")
  # the incumbent's autoSearch = TRUE / FALSE is cvType "auto" / "grid"
  if (!is.null(cyclops$autoSearch) && missing(cvType)) cvType <- if (cyclops$autoSearch) "auto" else "grid"
  cvType <- matchChoice(cvType, "cvType")
  selectorType <- matchChoice(selectorType, "selectorType")
  checkScalar(fold, "fold", lower = 2, upper = .Machine$integer.max, integer = TRUE)
  checkScalar(cvRepetitions, "cvRepetitions", lower = 1, upper = .Machine$integer.max,
              integer = TRUE)
  checkScalar(lowerLimit, "lowerLimit", lower = .Machine$double.xmin)
  checkScalar(upperLimit, "upperLimit", lower = lowerLimit)
  checkScalar(gridSteps, "gridSteps", lower = 2, upper = 1e6, integer = TRUE)
  if (!is.null(startingVariance))
    checkScalar(startingVariance, "startingVariance", lower = 1e-100, upper = 1e100)  # the search moves 10^10 at most
  checkFlag(resetCoefficients, "resetCoefficients")
  foldStratification <- matchChoice(foldStratification, "foldStratification")
  parallel <- checkParallel(matchChoice(parallel, "parallel"))
  majorizedStart <- matchChoice(majorizedStart, "majorizedStart")
  if (!is.null(foldIds)) {
    if (!is.atomic(foldIds) || length(foldIds) < 2 || anyNA(foldIds))
      stopf("'foldIds' must be a vector of fold labels, one per row, without missing values")
    if (cvRepetitions != 1)
      stopf("'cvRepetitions' must be 1 with user-supplied 'foldIds'")
    if (foldStratification != "none")
      stopf("'foldStratification' does not apply to user-supplied 'foldIds'")
  }
  structure(list(tolerance = tolerance, optimalityTolerance = optimalityTolerance,
                 maxIterations = as.integer(maxIterations),
                 convergenceType = convergenceType, threads = as.integer(threads), seed = seed,
                 noiseLevel = noiseLevel, initialBound = initialBound, device = device,
                 cvType = cvType, fold = as.integer(fold), cvRepetitions = as.integer(cvRepetitions),
                 lowerLimit = lowerLimit, upperLimit = upperLimit,
                 gridSteps = as.integer(gridSteps), selectorType = selectorType,
                 startingVariance = startingVariance, resetCoefficients = resetCoefficients,
                 foldStratification = foldStratification, foldIds = foldIds,
                 parallel = parallel, majorizedStart = majorizedStart,
                 minCVData = cyclops$minCVData),
            class = "argusControl")
}

#' @method print argusControl
#' @export
print.argusControl <- function(x, ...) {
  rejectDots("print()", ..., .allow = "digits")
  cat(sprintf("Argus control: tolerance %g (%s), optimality %g, at most %d cycles, device %s, noise %s\n",
              x$tolerance, x$convergenceType, x$optimalityTolerance %||% 1e-4, x$maxIterations,
              x$device, x$noiseLevel))
  invisible(x)
}
