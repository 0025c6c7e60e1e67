# Exported functions of the incumbent that have no Argus equivalent: each stops with an
# error naming what is missing (never a silent substitute).

#' Incumbent functions without an Argus equivalent
#'
#' Multitype outcomes (`Multitype()`), time-varying coefficients (`splitTime()`,
#' `convertToTimeVaryingCoef()`), the Java (JNI) model cache
#' (`cacheCyclopsModelForJava()`, `clearCyclopsModelCache()`), OpenCL devices
#' (`listGPUDevices()`, `setOpenCLDevice()`) and the incumbent's own text file format
#' (`readCyclopsData()`) are not available in this front end: each call stops with an error
#' that says so. Argus's own GPU backend is chosen with `Argus::createControl(device = )`.
#'
#' @param ... The incumbent's arguments (not used).
#' @return Does not return.
#' @name refusedFunctions
NULL

#' @rdname refusedFunctions
#' @export
Multitype <- function(...) refuse("Multitype() (multitype outcomes)", "fit each outcome type on its own")

#' @rdname refusedFunctions
#' @export
splitTime <- function(...) {
  refuse("splitTime() (time-varying coefficients)",
         "Argus fits proportional hazards only; give (start, stop] rows to a Surv(start, stop, status) formula")
}

#' @rdname refusedFunctions
#' @export
convertToTimeVaryingCoef <- function(...) {
  refuse("convertToTimeVaryingCoef() (time-varying coefficients)",
         "Argus fits proportional hazards only")
}

#' @rdname refusedFunctions
#' @export
cacheCyclopsModelForJava <- function(...) {
  refuse("cacheCyclopsModelForJava() (the Java/JNI model cache)", "fits live in R only")
}

#' @rdname refusedFunctions
#' @export
clearCyclopsModelCache <- function(...) {
  refuse("clearCyclopsModelCache() (the Java/JNI model cache)", "fits live in R only")
}

#' @rdname refusedFunctions
#' @export
listGPUDevices <- function(...) {
  refuse("listGPUDevices() (OpenCL devices)", "Argus lists its devices with Argus::listDevices()")
}

#' @rdname refusedFunctions
#' @export
setOpenCLDevice <- function(...) {
  refuse("setOpenCLDevice() (OpenCL devices)",
         "Argus chooses its device with Argus::createControl(device = )")
}

#' @rdname refusedFunctions
#' @export
readCyclopsData <- function(...) {
  refuse("readCyclopsData() (the incumbent's text file format)",
         "read the file into data frames and use convertToCyclopsData()")
}
