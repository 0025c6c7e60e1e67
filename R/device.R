#' Devices: CUDA, the emulated device and the CPU
#'
#' `hasCuda()` tells whether this installation was built with the CUDA backend and sees at
#' least one GPU. `listDevices()` lists the devices that `createControl(device = )` accepts,
#' one row each: the CPU, every visible GPU (name, memory, compute capability) and, in a build
#' made with `ARGUS_CUDA=emulate`, the emulated device (the device algorithm run on the CPU
#' through Thrust's OpenMP backend, for testing it without a GPU). `device = "auto"` is always
#' accepted: it takes a visible GPU where one was measured at least three times faster than
#' one CPU core (an H100 and an H200), by the number of stored design entries: SCCS and
#' conditional Poisson from a million; clr with exact ties from five million; Cox with mostly
#' distinct event times (at least half the events at a time of their own, as with continuous
#' times), lr, pr and ls from fifty million. Otherwise (Fine-Gray, survival with tied times,
#' `(start, stop]` data, which were slower on the GPU or less than three times faster where
#' timed, clr's Breslow and Efron ties, not timed, smaller designs), or where the GPU has too
#' little free memory for the fit, it fits on the CPU. `device = "cuda"` asks for the GPU
#' explicitly; every model has a device
#' runner.
#'
#' Build with the environment variable `ARGUS_CUDA=on` (or `auto`, the default, which
#' enables CUDA when `nvcc` is found and a GPU runs the configure probe), `off`, or `emulate`.
#'
#' @return `hasCuda()`: `TRUE` or `FALSE`. `listDevices()`: a data frame with columns
#'   `device` (the name `createControl()` takes), `kind` (`"cpu"`, `"cuda"` or
#'   `"emulated"`), `name`, `memoryGiB` and `computeCapability` (`NA` where not a GPU).
#'   `cudaBuildInfo()`: the raw list behind both.
#' @examples
#' hasCuda()
#' listDevices()
#' @export
hasCuda <- function() {
  info <- .Call(argus_cuda_info)
  isTRUE(info$built) && info$deviceCount > 0
}

#' @rdname hasCuda
#' @export
listDevices <- function() {
  info <- .Call(argus_cuda_info)
  n <- length(info$name)
  rows <- data.frame(device = "cpu", kind = "cpu", name = "host CPU", memoryGiB = NA_real_,
                     computeCapability = NA_character_, stringsAsFactors = FALSE)
  if (n > 0)
    rows <- rbind(rows, data.frame(device = sprintf("cuda:%d", seq_len(n) - 1L), kind = "cuda",
                                   name = info$name, memoryGiB = info$memoryBytes / 2^30,
                                   computeCapability = info$computeCapability,
                                   stringsAsFactors = FALSE))
  if (isTRUE(info$emulated))
    rows <- rbind(rows, data.frame(device = "emulated", kind = "emulated",
                                   name = sprintf("Thrust %s host backend", toupper(info$emulatedSystem)),
                                   memoryGiB = NA_real_, computeCapability = NA_character_,
                                   stringsAsFactors = FALSE))
  rows
}

#' @rdname hasCuda
#' @export
cudaBuildInfo <- function() .Call(argus_cuda_info)
