#' Create solver settings
#'
#' @param tolerance Convergence tolerance on the relative change of the quantity chosen by
#'   `convergenceType`.
#' @param maxIterations Maximum number of CCD cycles.
#' @param convergenceType `"gradient"` (relative change of `sum(w * y * eta)`), `"lange"`
#'   (log posterior), `"mittal"` (log-likelihood) or `"zhang"` (change of the linear
#'   predictor).
#' @param threads Number of threads for cross-validation and bootstrap.
#' @param seed Random seed for cross-validation and bootstrap.
#' @param noiseLevel `"silent"`, `"quiet"` (one line per fit) or `"noisy"` (one line per
#'   cycle).
#' @param initialBound Initial half-width of each coordinate's trust region.
#' @param device Where to fit: `"cpu"`, or `"cuda"` / `"cuda:N"` in a CUDA build.
#' @param cvType,fold,cvRepetitions,lowerLimit,upperLimit,gridSteps,selectorType
#'   Cross-validation settings, reserved for the cross-validation search.
#' @return An object of class `argusControl`.
#' @examples
#' createControl(tolerance = 1e-8, noiseLevel = "quiet")
#' @export
createControl <- function(tolerance = 1e-6, maxIterations = 1000,
                          convergenceType = c("gradient", "lange", "mittal", "zhang"),
                          threads = 1, seed = NULL,
                          noiseLevel = c("silent", "quiet", "noisy"), initialBound = 2,
                          device = "cpu", cvType = c("auto", "grid"), fold = 10,
                          cvRepetitions = 1, lowerLimit = 0.01, upperLimit = 20,
                          gridSteps = 10, selectorType = c("auto", "byRow", "byPid")) {
  checkScalar(tolerance, "tolerance", lower = .Machine$double.xmin)
  checkScalar(maxIterations, "maxIterations", lower = 1, upper = .Machine$integer.max,
              integer = TRUE)
  convergenceType <- match.arg(convergenceType)
  noiseLevel <- match.arg(noiseLevel)
  checkScalar(threads, "threads", lower = 1, integer = TRUE)
  if (!is.null(seed)) checkScalar(seed, "seed", integer = TRUE)
  checkScalar(initialBound, "initialBound", lower = .Machine$double.xmin)
  if (!is.character(device) || length(device) != 1 || !grepl("^(cpu|cuda(:[0-9]+)?)$", device))
    stopf("'device' must be \"cpu\", \"cuda\" or \"cuda:N\"")
  cvType <- match.arg(cvType)
  selectorType <- match.arg(selectorType)
  checkScalar(fold, "fold", lower = 2, integer = TRUE)
  checkScalar(cvRepetitions, "cvRepetitions", lower = 1, integer = TRUE)
  checkScalar(lowerLimit, "lowerLimit", lower = .Machine$double.xmin)
  checkScalar(upperLimit, "upperLimit", lower = lowerLimit)
  checkScalar(gridSteps, "gridSteps", lower = 2, integer = TRUE)
  structure(list(tolerance = tolerance, maxIterations = as.integer(maxIterations),
                 convergenceType = convergenceType, threads = as.integer(threads), seed = seed,
                 noiseLevel = noiseLevel, initialBound = initialBound, device = device,
                 cvType = cvType, fold = as.integer(fold), cvRepetitions = as.integer(cvRepetitions),
                 lowerLimit = lowerLimit, upperLimit = upperLimit,
                 gridSteps = as.integer(gridSteps), selectorType = selectorType),
            class = "argusControl")
}

#' @method print argusControl
#' @export
print.argusControl <- function(x, ...) {
  cat(sprintf("Argus control: tolerance %g (%s), at most %d cycles, device %s, noise %s\n",
              x$tolerance, x$convergenceType, x$maxIterations, x$device, x$noiseLevel))
  invisible(x)
}
