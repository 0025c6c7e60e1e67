# Confidence bands of cumulativeIncidence(): the influence of each row on the baseline
# subdistribution hazard against numerical derivatives, and the bands' widths against a
# bootstrap of cmprsk::crr on survival::mgus2 (PCM against death, as in survival's
# competing-risks vignette). bench/incidence_bands.R runs the bootstrap with more replicates.

mgus2Competing <- function() {
  m <- survival::mgus2
  data.frame(etime = ifelse(m$pstat == 0, m$futime, m$ptime),
             event = ifelse(m$pstat == 0, 2 * m$death, 1),
             age = m$age, male = as.numeric(m$sex == "M"))
}

test_that("the influence of each row on the baseline hazard is its derivative (ties included)", {
  set.seed(3)
  n <- 60
  x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.5))
  time <- round(rexp(n), 1) + 0.1  # ties between events, competing events and censoring
  y <- sample(0:2, n, TRUE)
  fit <- fitModel(createData(x = x, y = y, time = time, modelType = "fgr"), control = survivalControl())
  r <- exp(drop(x %*% coef(fit)))
  # H0(t) at the fitted coefficients as a function of the rows' weights, written naively:
  # weighted Kaplan-Meier of the censoring, competing rows at risk with G(t-) / G(X-)
  baseline <- function(w, t) {
    censorTimes <- sort(unique(time[y == 0]))
    atRisk <- vapply(censorTimes, function(u) sum(w[time >= u]), 0)
    censored <- vapply(censorTimes, function(u) sum(w[time == u & y == 0]), 0)
    G <- function(s) prod(1 - (censored / atRisk)[censorTimes < s])
    total <- 0
    for (s in sort(unique(time[y == 1 & time <= t]))) {
      risk <- ifelse(time >= s, 1, ifelse(y == 2, G(s) / vapply(time, G, 0), 0))
      total <- total + sum(w[time == s & y == 1]) / sum(w * risk * r)
    }
    total
  }
  sets <- Argus:::fineGrayRiskSets(fit)
  for (t in c(0.5, 1.2, 3)) {
    influence <- numeric(n)
    influence[fit$data$order] <- Argus:::baselineInfluence(sets, t)
    numeric <- vapply(seq_len(n), function(i) {
      up <- down <- rep(1, n)
      up[i] <- 1 + 1e-6
      down[i] <- 1 - 1e-6
      (baseline(up, t) - baseline(down, t)) / 2e-6
    }, 0)
    expect_lt(max(abs(influence - numeric)), 1e-8)
    hazard <- baselineHazard(fit)
    expect_equal(baseline(rep(1, n), t), max(c(0, hazard$hazard[hazard$time <= t])), tolerance = 1e-10)
  }
})

test_that("the bands' widths agree with a bootstrap of crr on mgus2", {
  skip_if_not_installed("cmprsk")
  skip_if_not_installed("survival")
  m <- mgus2Competing()
  x <- as.matrix(m[, c("age", "male")])
  fit <- fitModel(createData(x = x, y = m$event, time = m$etime, modelType = "fgr"), control = survivalControl())
  newdata <- rbind(woman60 = c(60, 0), man80 = c(80, 1))
  colnames(newdata) <- colnames(x)
  times <- c(60, 120, 240, 360)
  curves <- cumulativeIncidence(fit, newdata, times = times)
  reference <- cmprsk::predict.crr(crrRef(m$etime, m$event, x), newdata)
  expect_lt(max(abs(curves$incidence - apply(reference[, -1], 2, function(f)
    stats::stepfun(reference[, 1], c(0, f))(times)))), 1e-8)
  # the standard error of log(-log(1 - F)) against the spread of 200 crr refits on resamples:
  # the bootstrap's standard deviation is itself within about 1 / sqrt(2 * 200) = 5% of the
  # truth, so each time and row within 20% (4 of its standard errors) and the mean ratio within
  # 10%; leaving out the baseline hazard's own uncertainty made them 25% to 48% narrower
  set.seed(41)
  replicates <- 200
  logLog <- array(NA_real_, c(replicates, length(times), nrow(newdata)))
  for (b in seq_len(replicates)) {
    i <- sample(nrow(m), replace = TRUE)
    p <- cmprsk::predict.crr(cmprsk::crr(m$etime[i], m$event[i], x[i, ]), newdata)
    logLog[b, , ] <- log(-log(1 - apply(p[, -1], 2, function(f) stats::stepfun(p[, 1], c(0, f))(times))))
  }
  bootstrap <- apply(logLog, c(2, 3), stats::sd)
  ours <- curves$std.err / ((1 - curves$incidence) * -log(1 - curves$incidence))
  ratio <- ours / bootstrap
  expect_true(all(ratio > 0.8 & ratio < 1.2), label = paste(round(ratio, 3), collapse = " "))
  expect_lt(abs(mean(ratio) - 1), 0.1)
  # the interval: log-log, within [0, 1], around the curve
  q <- stats::qnorm(0.975)
  expect_equal(curves$lower, -expm1(-exp(log(-log1p(-curves$incidence)) - q * ours)), tolerance = 1e-12)
  expect_true(all(curves$lower < curves$incidence & curves$incidence < curves$upper))
  plain <- cumulativeIncidence(fit, newdata, times = times, conf.type = "plain", conf.int = 0.9)
  expect_equal(plain$upper, pmin(curves$incidence + stats::qnorm(0.95) * curves$std.err, 1))
  expect_null(cumulativeIncidence(fit, newdata, times = times, conf.type = "none")$lower)
})

test_that("bands on every newdata route, at the means, and where the fit has none", {
  skip_if_not_installed("survival")
  m <- mgus2Competing()[1:400, ]
  fit <- fitModel(createData(Surv(etime, event) ~ age + male, data = m, modelType = "fgr"),
                  control = survivalControl())
  byFrame <- cumulativeIncidence(fit, data.frame(age = c(60, 80), male = c(0, 1)))
  byMatrix <- cumulativeIncidence(fit, cbind(age = c(60, 80), male = c(0, 1)))
  expect_equal(unname(byFrame$std.err), unname(byMatrix$std.err))
  expect_equal(byFrame$timeLabel, "etime")
  expect_equal(byMatrix$timeLabel, "etime")
  # before the first event time: 0, without spread
  early <- cumulativeIncidence(fit, cbind(age = 70, male = 1), times = c(0, 1e5))
  expect_equal(c(early$lower[1], early$upper[1], early$std.err[1]), c(0, 0, 0))
  atMeans <- cumulativeIncidence(fit)
  expect_equal(dim(atMeans$upper), dim(atMeans$incidence))
  expect_output(print(atMeans), "95% pointwise confidence bands \\(log-log\\)")
  weighted <- fitModel(createData(Surv(etime, event) ~ age + male, data = m, modelType = "fgr"),
                       weights = rep(1:2, 200))
  plain <- cumulativeIncidence(weighted)
  expect_null(plain$lower)
  expect_output(print(plain), "no confidence bands: the fit is weighted")
  expect_error(cumulativeIncidence(weighted, se.fit = TRUE), "no confidence bands here: the fit is weighted")
  ridge <- fitModel(createData(Surv(etime, event) ~ age + male, data = m, modelType = "fgr"),
                    createPrior("normal", variance = 0.1))
  expect_error(cumulativeIncidence(ridge, se.fit = TRUE), "penalized")
})
