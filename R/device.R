#' CUDA support
#'
#' `hasCuda()` tells whether this installation was built with the CUDA backend and sees at
#' least one GPU; `listDevices()` lists the devices that `createControl(device = )` accepts.
#' Build with the environment variable `ARGUS_CUDA=on` (or `auto`, the default, which
#' enables CUDA when `nvcc` is found and a GPU runs the configure probe).
#'
#' @return `hasCuda()`: `TRUE` or `FALSE`. `listDevices()`: a character vector.
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
  c("cpu", if (info$deviceCount > 0) sprintf("cuda:%d", seq_len(info$deviceCount) - 1L))
}

#' @rdname hasCuda
#' @export
cudaBuildInfo <- function() .Call(argus_cuda_info)
