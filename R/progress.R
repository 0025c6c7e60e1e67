#' Progress of long work
#'
#' Cross-validation, the bootstrap, profile-likelihood intervals and profiles, and fits
#' report their progress in an interactive R session: one line on the console (standard
#' error), redrawn in place, with what is done, the time spent and, where the amount of work
#' is known, a bar and the time left. Nothing is shown for work done within half a second,
#' and the line is redrawn at most every half second, so fast work stays silent and the
#' report costs nothing measurable. Outside an interactive session (`Rscript`, `R CMD
#' check`, knitting a vignette) nothing is shown.
#'
#' `options(argus.progress = FALSE)` turns the reports off, `TRUE` turns them on in any
#' session (e.g. a batch job's log); the default is `interactive()`.
#' `options(argus.progressInterval =)` sets the half second (in seconds).
#'
#' Cross-validation moves the line once per candidate variance scored (a bar where the
#' number of candidates is known: `cvType = "grid"`), the bootstrap once per tenth of its
#' replicates: the engine's own progress reports, at no cost to the fits. Profile-likelihood
#' intervals of many coefficients are profiled in rounds of a few seconds (each round on all
#' of `threads`), where they would otherwise be profiled in one call: each coefficient's
#' profile is its own set of refits, so the limits are the same.
#' A fit moves the line after a cycle (or a step of the majorized start before the cycles),
#' with the cycles done, the time, the log-likelihood and the convergence rule's change
#' against the tolerance it must reach (`createControl(tolerance =)`); the engine itself
#' keeps to the half second, so that a fit of many short cycles takes no longer. A large fit
#' (1e7 stored entries or more) says at once what it fits: its first cycle may take a while.
#' `createControl(noiseLevel = "quiet")` or `"noisy"` prints the engine's own lines instead
#' (one per cross-validation candidate, per tenth of the bootstrap); a fit's line is replaced
#' by the engine's line per cycle under `"noisy"` only (`"quiet"` adds one line when the fit
#' is done).
#' @name argusProgress
NULL

# Whether progress is shown: options(argus.progress =), interactive() by default.
progressWanted <- function() {
  wanted <- getOption("argus.progress", interactive())
  isTRUE(wanted)
}

# A progress line for `what` with `total` steps (NULL: unknown; `unit` names the steps done).
# `tick(done, detail)` redraws
# it where half a second has passed since the start and since the last redraw; `done()`
# clears it. Shown only where progressWanted() (`show` overrides, for tests).
progressLine <- function(what, total = NULL, show = progressWanted(),
                         every = progressInterval(), unit = "done") {
  started <- proc.time()[["elapsed"]]
  last <- started
  width <- 0L
  drawn <- FALSE
  draw <- function(text) {
    text <- substr(text, 1, max(20L, getOption("width", 80L) - 1L))
    cat("\r", formatC(text, width = -width), file = stderr(), sep = "")
    width <<- nchar(text)
    drawn <<- TRUE
  }
  tick <- function(done, detail = NULL) {
    if (!show) return(invisible(FALSE))
    now <- proc.time()[["elapsed"]]
    if (now - started < every || now - last < every) return(invisible(FALSE))
    last <<- now
    spent <- now - started
    text <- if (is.null(total)) {
      sprintf("%s: %s %s, %s", what, format(done, big.mark = ","), unit, formatSeconds(spent))
    } else {
      share <- min(1, done / total)
      bar <- strrep("=", round(20 * share))
      left <- if (done > 0 && done < total) sprintf(", about %s left", formatSeconds(spent * (total - done) / done)) else ""
      sprintf("%s [%-20s] %s of %s, %s%s", what, bar, format(done, big.mark = ","),
              format(total, big.mark = ","), formatSeconds(spent), left)
    }
    draw(paste0(text, if (!is.null(detail)) paste0(" (", detail, ")") else ""))
    invisible(TRUE)
  }
  done <- function() {
    if (drawn) cat("\r", strrep(" ", width), "\r", file = stderr(), sep = "")
    drawn <<- FALSE
    invisible()
  }
  # `text` at once, until the next tick draws over it (what a long step starts with)
  note <- function(text) {
    if (show) draw(text)
    invisible()
  }
  list(tick = tick, done = done, note = note, show = show)
}

# Seconds between redraws, and before the first: options(argus.progressInterval =).
progressInterval <- function() {
  every <- getOption("argus.progressInterval", 0.5)
  if (!is.numeric(every) || length(every) != 1 || is.na(every) || every < 0)
    stopf("options(argus.progressInterval =) must be a number of seconds, 0 or more")
  as.double(every)
}

formatSeconds <- function(s) {
  if (s < 60) sprintf("%.0f s", s) else if (s < 3600) sprintf("%.1f min", s / 60)
  else sprintf("%.1f h", s / 3600)
}

# Runs `run(items)` over `items` in rounds, reporting progress between them, and returns the
# rounds' results in order (a list). Without progress, one round of every item. With it, the
# first round has `threads` items and each later one as many as took about `seconds` before
# (a multiple of `threads`, so that every round keeps the threads busy): a round costs a call,
# and with several threads the wait for its last item (about half an item per round).
inRounds <- function(items, run, what, threads = 1L, progress = progressLine(what, length(items)),
                     seconds = 2) {
  n <- length(items)
  if (!progress$show || n <= threads) return(list(run(items)))
  on.exit(progress$done())
  out <- list()
  at <- 0L
  size <- threads
  while (at < n) {
    chunk <- items[seq.int(at + 1L, min(n, at + size))]
    started <- proc.time()[["elapsed"]]
    out[[length(out) + 1L]] <- run(chunk)
    spent <- max(proc.time()[["elapsed"]] - started, 1e-3)
    at <- at + length(chunk)
    progress$tick(at)
    size <- max(threads, threads * floor(seconds / (spent / length(chunk)) / threads))
  }
  out
}
