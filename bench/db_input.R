# createData() from an SQLite database (the covariates streamed in batches) against the same
# tables as R data frames: elapsed time of createData() and the peak resident memory of the
# whole process (each measurement in a fresh Rscript under /usr/bin/time -v).
#
#   Rscript bench/db_input.R                    # N = 1e5 and 1e6 rows, 5 covariates per row
#   Rscript bench/db_input.R --n=1e5 --batch=1e5
#
# The data-frame process holds the two data frames (read from an .rds file before the clock
# starts) as a pipeline that built them in R would; the SQLite process holds neither: its
# outcomes are read whole (one row per model row) and its covariates `batch` rows at a time.
# A third process only loads the packages: the baseline of both.
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

args <- commandArgs(trailingOnly = TRUE)
option <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
  if (length(hit)) as.numeric(sub(sprintf("^--%s=", name), "", hit[1])) else default
}
role <- grep("^--role=", args, value = TRUE)
lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))

if (length(role)) {
  # A child: one measurement. Prints "seconds <s>".
  role <- sub("^--role=", "", role)
  file <- sub("^--data=", "", grep("^--data=", args, value = TRUE))
  suppressPackageStartupMessages({
    library(Argus)
    library(DBI)
    library(dplyr, warn.conflicts = FALSE)
    library(dbplyr, warn.conflicts = FALSE)
    library(RSQLite)
  })
  batch <- option("batch", 1e5)
  if (role == "frames") {
    tables <- readRDS(paste0(file, ".rds"))
    seconds <- system.time(d <- createData(tables$outcomes, tables$covariates, modelType = "lr"))
  } else if (role == "sqlite") {
    con <- dbConnect(SQLite(), paste0(file, ".sqlite"))
    seconds <- system.time(d <- createData(tbl(con, "outcomes"), tbl(con, "covariates"),
                                           modelType = "lr", batchSize = batch))
  } else {
    seconds <- c(elapsed = 0)
  }
  cat(sprintf("seconds %.3f\n", seconds[["elapsed"]]))
  quit(save = "no")
}

ns <- if (any(grepl("^--n=", args))) option("n", NA) else c(1e5, 1e6)
batch <- option("batch", 1e5)
perRow <- 5
p <- 1000
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
suppressPackageStartupMessages({
  library(DBI)
  library(RSQLite)
})

measure <- function(role, file) {
  out <- system2("/usr/bin/time", c("-v", "Rscript", script, paste0("--role=", role),
                                    paste0("--data=", file), paste0("--batch=", batch)),
                 stdout = TRUE, stderr = TRUE)
  rss <- as.numeric(sub(".*: ", "", grep("Maximum resident set size", out, value = TRUE)))
  seconds <- as.numeric(sub("seconds ", "", grep("^seconds ", out, value = TRUE)))
  c(seconds = seconds, rssMiB = rss / 1024)
}

rows <- list()
for (n in ns) {
  set.seed(1)
  outcomes <- data.frame(rowId = seq_len(n), y = rbinom(n, 1, 0.2))
  covariates <- data.frame(rowId = rep(seq_len(n), each = perRow),
                           covariateId = sample.int(p, n * perRow, replace = TRUE),
                           covariateValue = 1)
  covariates <- covariates[!duplicated(covariates[c("rowId", "covariateId")]), ]
  covariates <- covariates[sample(nrow(covariates)), ]  # unsorted, as tables come
  file <- tempfile(sprintf("argus-db-%g-", n))
  saveRDS(list(outcomes = outcomes, covariates = covariates), paste0(file, ".rds"),
          compress = FALSE)
  con <- dbConnect(SQLite(), paste0(file, ".sqlite"))
  dbWriteTable(con, "outcomes", outcomes)
  dbWriteTable(con, "covariates", covariates)
  dbDisconnect(con)
  entries <- nrow(covariates)
  rm(outcomes, covariates)
  gc()
  for (r in c("baseline", "frames", "sqlite")) {
    m <- measure(r, file)
    rows[[length(rows) + 1]] <- data.frame(N = n, covariateRows = entries, route = r,
                                           batch = if (r == "sqlite") batch else NA,
                                           seconds = m[["seconds"]], peakRssMiB = m[["rssMiB"]])
    print(rows[[length(rows)]], row.names = FALSE)
  }
  unlink(paste0(file, c(".rds", ".sqlite")))
}
result <- do.call(rbind, rows)
cat("\n| N | covariate rows | route | batch | createData s | peak RSS MiB |\n|---|---|---|---|---|---|\n")
for (i in seq_len(nrow(result)))
  with(result[i, ], cat(sprintf("| %g | %s | %s | %s | %.2f | %.0f |\n", N,
                                format(covariateRows, big.mark = ","), route,
                                if (is.na(batch)) "" else format(batch, scientific = FALSE),
                                seconds, peakRssMiB)))
