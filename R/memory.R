# Memory that a request sized by the user's numbers needs (repetitions, replicates, grid
# points, prediction times), checked against what the machine has before anything is
# allocated: createFolds(<100 rows>, createControl(cvRepetitions = 2e7)) passed the 2^31 - 1
# check, grew to 5.8 GB and ended in std::bad_alloc after 48 s. (The GPU's memory is checked
# by the engine itself before a device fit allocates: src/engine/device/cuda_device.cu.)

# Requests below this are not checked (nor is the machine asked).
memoryCheckFloor <- 2^26

# Bytes this process may still allocate, or NA where that cannot be told. Linux: the least of
# /proc/meminfo's MemAvailable, what the process's cgroup (a container's limit) leaves, and
# what its address-space limit (ulimit -v) leaves. macOS: the physical memory. Elsewhere NA,
# and requests are not checked.
availableMemory <- function() {
  if (file.exists("/proc/meminfo")) return(linuxAvailableMemory())
  if (identical(Sys.info()[["sysname"]], "Darwin")) {
    total <- suppressWarnings(tryCatch(as.numeric(system2("sysctl", c("-n", "hw.memsize"), stdout = TRUE,
                                                          stderr = FALSE)), error = function(e) NA_real_))
    return(if (length(total) == 1 && is.finite(total)) total else NA_real_)
  }
  NA_real_
}

linuxAvailableMemory <- function() {
  field <- function(lines, name) {
    line <- grep(paste0("^", name, ":"), lines, value = TRUE)
    if (length(line) == 0) return(NA_real_)
    1024 * as.numeric(sub("^[^:]*:\\s*([0-9]+).*$", "\\1", line[1]))  # kB
  }
  readNumber <- function(path) {
    if (!file.exists(path)) return(NA_real_)
    text <- tryCatch(suppressWarnings(readLines(path, n = 1, warn = FALSE)), error = function(e) character(0))
    if (length(text) == 0) NA_real_ else suppressWarnings(as.numeric(text))  # "max": NA
  }
  meminfo <- tryCatch(readLines("/proc/meminfo", warn = FALSE), error = function(e) character(0))
  candidates <- field(meminfo, "MemAvailable")
  # cgroup v2 (one hierarchy; "0::/path") and v1 ("N:memory:/path")
  groups <- tryCatch(readLines("/proc/self/cgroup", warn = FALSE), error = function(e) character(0))
  v2 <- sub("^0::", "", grep("^0::", groups, value = TRUE))
  if (length(v2) == 1) {
    dir <- file.path("/sys/fs/cgroup", v2)
    candidates <- c(candidates, readNumber(file.path(dir, "memory.max")) -
                                readNumber(file.path(dir, "memory.current")))
  }
  v1 <- sub("^[0-9]+:[^:]*memory[^:]*:", "", grep("^[0-9]+:[^:]*memory[^:]*:", groups, value = TRUE))
  if (length(v1) == 1) {
    dir <- file.path("/sys/fs/cgroup/memory", v1)
    if (!dir.exists(dir)) dir <- "/sys/fs/cgroup/memory"
    candidates <- c(candidates, readNumber(file.path(dir, "memory.limit_in_bytes")) -
                                readNumber(file.path(dir, "memory.usage_in_bytes")))
  }
  # the address-space limit (ulimit -v) less what the process has mapped
  limits <- tryCatch(readLines("/proc/self/limits", warn = FALSE), error = function(e) character(0))
  space <- grep("^Max address space", limits, value = TRUE)
  if (length(space) == 1) {
    soft <- suppressWarnings(as.numeric(strsplit(trimws(sub("^Max address space", "", space)), "\\s+")[[1]][1]))
    status <- tryCatch(readLines("/proc/self/status", warn = FALSE), error = function(e) character(0))
    candidates <- c(candidates, soft - field(status, "VmSize"))
  }
  candidates <- candidates[is.finite(candidates)]
  if (length(candidates) == 0) NA_real_ else max(0, min(candidates))
}

# Stops, saying how much `what` needs and how much there is, where `bytes` exceed the memory
# available (availableMemory()); requests below memoryCheckFloor pass unchecked.
checkMemory <- function(bytes, what, available = NULL) {
  if (bytes < memoryCheckFloor) return(invisible())
  available <- available %||% availableMemory()
  if (is.na(available) || bytes <= available) return(invisible())
  stopf("%s needs about %s of memory, but this machine has %s available: ask for less",
        what, formatBytes(bytes), formatBytes(available))
}

formatBytes <- function(bytes) {
  if (!is.finite(bytes)) return(format(bytes))
  units <- c("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
  power <- max(0, min(length(units) - 1, floor(log(max(bytes, 1), 1024))))
  sprintf("%.3g %s", bytes / 1024^power, units[power + 1])
}
