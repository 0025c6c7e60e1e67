# Confidence bands of cumulativeIncidence() (issue 41) against a bootstrap of cmprsk::crr on
# survival::mgus2: plasma cell malignancy (PCM) against death without PCM, as in survival's
# competing-risks vignette, covariates age and sex. For four covariate rows and eight times,
# the standard error of log(-log(1 - F)) that Argus reports beside the standard deviation of
# the same quantity over crr refits on resampled rows (no truth is known on real data: the
# comparison is of spreads).
#
#   Rscript bench/incidence_bands.R                # 1000 replicates
#   Rscript bench/incidence_bands.R --replicates=200
#
# Environment: ARGUS_LIB = library holding the Argus build to test (prepended to .libPaths()).

lib <- Sys.getenv("ARGUS_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({library(Argus); library(survival); library(cmprsk)})

arg <- grep("^--replicates=", commandArgs(TRUE), value = TRUE)
replicates <- if (length(arg)) as.integer(sub("^--replicates=", "", arg)) else 1000L

m <- survival::mgus2
etime <- ifelse(m$pstat == 0, m$futime, m$ptime)
event <- ifelse(m$pstat == 0, 2 * m$death, 1)
x <- cbind(age = m$age, male = as.numeric(m$sex == "M"))
fit <- fitModel(createData(x = x, y = event, time = etime, modelType = "fgr"),
                control = createControl(tolerance = 1e-12))
newdata <- rbind(woman60 = c(60, 0), man60 = c(60, 1), woman80 = c(80, 0), man80 = c(80, 1))
colnames(newdata) <- colnames(x)
times <- c(12, 36, 60, 120, 180, 240, 300, 360)  # months
started <- proc.time()[["elapsed"]]
curves <- cumulativeIncidence(fit, newdata, times = times)
argusSeconds <- proc.time()[["elapsed"]] - started
ours <- curves$std.err / ((1 - curves$incidence) * -log1p(-curves$incidence))

set.seed(20261201)
logLog <- array(NA_real_, c(replicates, length(times), nrow(newdata)))
started <- proc.time()[["elapsed"]]
for (b in seq_len(replicates)) {
  i <- sample(nrow(m), replace = TRUE)
  p <- cmprsk::predict.crr(cmprsk::crr(etime[i], event[i], x[i, ]), newdata)
  f <- apply(p[, -1], 2, function(v) stats::stepfun(p[, 1], c(0, v))(times))
  logLog[b, , ] <- log(-log1p(-f))
}
bootSeconds <- proc.time()[["elapsed"]] - started
bootstrap <- apply(logLog, c(2, 3), stats::sd)
ratio <- ours / bootstrap

cat(sprintf("mgus2: %d rows, %d PCM, %d deaths; %d crr bootstrap replicates (%.1f s); Argus bands %.3f s\n",
            nrow(m), sum(event == 1), sum(event == 2), replicates, bootSeconds, argusSeconds))
cat(sprintf("the bootstrap's standard deviation is within about %.1f%% of the truth (1 / sqrt(2B))\n\n",
            100 / sqrt(2 * replicates)))
table <- data.frame(time = rep(times, nrow(newdata)), row = rep(rownames(newdata), each = length(times)),
                    incidence = round(c(curves$incidence), 4), argus_se = round(c(ours), 4),
                    bootstrap_sd = round(c(bootstrap), 4), ratio = round(c(ratio), 3))
print(table, row.names = FALSE)
cat(sprintf("\nratio argus / bootstrap: mean %.3f, range %.3f to %.3f\n", mean(ratio), min(ratio), max(ratio)))
