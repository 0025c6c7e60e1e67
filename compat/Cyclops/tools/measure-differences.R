# Measures each case where the incumbent's answer differs from the established reference
# (README's table): the same call on the real incumbent and on this front end (each in its
# own R process), against the reference function on the same rows.
#
#   Rscript tools/measure-differences.R FRONT_LIB INCUMBENT_LIB
args <- commandArgs(trailingOnly = TRUE)
script <- normalizePath(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))

lungRows <- function() {
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex")])
  lung2$status <- lung2$status - 1
  lung2
}

cases <- list(
  weightedCoxLong = list(
    what = "fitCyclopsModel(weights =) on convertToCyclopsData() data, cox (lung: age, sex; weights U(0.2, 3), seed 1)",
    run = function() {
      lung2 <- lungRows()
      set.seed(1)
      w <- stats::runif(nrow(lung2), 0.2, 3)
      o <- data.frame(rowId = seq_len(nrow(lung2)), y = lung2$status, time = lung2$time)
      cv <- rbind(data.frame(rowId = o$rowId, covariateId = 1, covariateValue = lung2$age),
                  data.frame(rowId = o$rowId, covariateId = 2, covariateValue = lung2$sex))
      d <- Cyclops::convertToCyclopsData(o, cv, modelType = "cox", quiet = TRUE)
      unname(coef(Cyclops::fitCyclopsModel(d, weights = w)))
    },
    reference = function() {
      lung2 <- lungRows()
      set.seed(1)
      w <- stats::runif(nrow(lung2), 0.2, 3)
      unname(coef(survival::coxph(survival::Surv(time, status) ~ age + sex, data = lung2,
                                  weights = w, ties = "breslow")))
    }),
  weightedClrLong = list(
    what = "fitCyclopsModel(weights =) on convertToCyclopsData() data, clr (infert in its row order; weights U(0.5, 2), seed 2)",
    run = function() {
      set.seed(2)
      w <- stats::runif(nrow(infert), 0.5, 2)
      o <- data.frame(rowId = seq_len(nrow(infert)), stratumId = infert$stratum, y = infert$case)
      cv <- data.frame(rowId = rep(o$rowId, 2), stratumId = rep(infert$stratum, 2),
                       covariateId = rep(1:2, each = nrow(infert)),
                       covariateValue = c(infert$spontaneous, infert$induced))
      d <- Cyclops::convertToCyclopsData(o, cv[cv$covariateValue != 0, ], modelType = "clr",
                                         addIntercept = FALSE, quiet = TRUE)
      unname(coef(Cyclops::fitCyclopsModel(d, weights = w)))
    },
    reference = function() {
      set.seed(2)
      w <- stats::runif(nrow(infert), 0.5, 2)
      unname(coef(suppressWarnings(survival::clogit(case ~ spontaneous + induced + strata(stratum),
                                                    data = infert, weights = w, method = "breslow"))))
    }),
  countingProcess = list(
    what = "createCyclopsData(Surv(start, stop, event) ~ age + surgery + transplant), survival::heart",
    run = function() {
      d <- Cyclops::createCyclopsData(survival::Surv(start, stop, event) ~ age + surgery + transplant,
                                      data = survival::heart, modelType = "cox")
      unname(coef(Cyclops::fitCyclopsModel(d)))
    },
    reference = function() {
      unname(coef(survival::coxph(survival::Surv(start, stop, event) ~ age + surgery + transplant,
                                  data = survival::heart, ties = "breslow")))
    }),
  weightedBaseline = list(
    what = "survfit(fit, type = \"aalen\")$surv of a weighted Cox fit (lung: age, sex; weights U(0.5, 2), seed 3)",
    run = function() {
      lung2 <- lungRows()
      set.seed(3)
      w <- stats::runif(nrow(lung2), 0.5, 2)
      d <- Cyclops::createCyclopsData(survival::Surv(time, status) ~ age + sex, data = lung2,
                                      modelType = "cox")
      survival::survfit(Cyclops::fitCyclopsModel(d, weights = w), type = "aalen")$surv
    },
    reference = function() {
      lung2 <- lungRows()
      set.seed(3)
      lung2$w <- stats::runif(nrow(lung2), 0.5, 2)
      survival::survfit(survival::coxph(survival::Surv(time, status) ~ age + sex, data = lung2,
                                        weights = w, ties = "breslow", nocenter = NULL))$surv
    }),
  profileLimits = list(
    what = "confint() profile limits, Poisson (MASS::Insurance: Claims ~ District + Age + offset(log(Holders)), District2)",
    run = function() {
      d <- Cyclops::createCyclopsData(Claims ~ District + Age + offset(log(Holders)),
                                      data = MASS::Insurance, modelType = "pr")
      unname(confint(Cyclops::fitCyclopsModel(d), "District2")[1, 2:3])
    },
    reference = function() {
      ins <- MASS::Insurance
      ll <- function(b) as.numeric(stats::logLik(stats::glm(
        Claims ~ I(District == "3") + I(District == "4") + Age + offset(log(Holders) + b * (District == "2")),
        family = stats::poisson(), data = ins)))
      gold <- stats::glm(Claims ~ District + Age + offset(log(Holders)), family = stats::poisson(), data = ins)
      estimate <- unname(stats::coef(gold)["District2"])
      target <- ll(estimate) - stats::qchisq(0.95, 1) / 2
      c(stats::uniroot(function(b) ll(b) - target, c(estimate - 1, estimate), tol = 1e-12)$root,
        stats::uniroot(function(b) ll(b) - target, c(estimate, estimate + 1), tol = 1e-12)$root)
    }),
  logPriorWithExposure = list(
    what = "log_prior of a Laplace fit (variance 0.001, 3 coefficients at 0) of cpr data with exposure time (convertToCyclopsData)",
    run = function() {
      set.seed(4)
      o <- data.frame(rowId = 1:300, stratumId = rep(1:100, each = 3), y = stats::rpois(300, 1),
                      time = stats::runif(300, 10, 100))
      cv <- data.frame(rowId = rep(1:300, 3), stratumId = rep(o$stratumId, 3),
                       covariateId = rep(1:3, each = 300), covariateValue = stats::rbinom(900, 1, 0.3))
      d <- Cyclops::convertToCyclopsData(o, cv[cv$covariateValue != 0, ], modelType = "cpr",
                                         addIntercept = FALSE, quiet = TRUE)
      f <- Cyclops::fitCyclopsModel(d, prior = Cyclops::createPrior("laplace", 0.001))
      c(f$log_prior, sum(coef(f, ignoreConvergence = TRUE) != 0))
    },
    reference = function() c(3 * log(sqrt(2 / 0.001) / 2), 0)))

if (identical(args[1], "--run")) {
  .libPaths(c(args[2], .libPaths()))
  suppressPackageStartupMessages({library(Cyclops); library(survival)})
  saveRDS(lapply(cases, function(case) tryCatch(suppressWarnings(case$run()),
                                                error = function(e) conditionMessage(e))), args[3])
  quit(save = "no")
}

results <- list()
for (who in c("front", "incumbent")) {
  out <- tempfile(fileext = ".rds")
  system2("Rscript", c(script, "--run", if (who == "front") args[1] else args[2], out))
  results[[who]] <- readRDS(out)
}
suppressPackageStartupMessages(library(survival))
show <- function(x) if (is.character(x)) x else paste(format(utils::head(x, 3), digits = 5), collapse = ", ")
for (name in names(cases)) {
  reference <- cases[[name]]$reference()
  front <- results$front[[name]]
  incumbent <- results$incumbent[[name]]
  size <- function(x) if (is.numeric(x) && length(x) == length(reference)) max(abs(x - reference)) else NA
  cat(sprintf("| %s | %s | %s | %s | %.3g | %.3g |\n", cases[[name]]$what, show(reference),
              show(incumbent), show(front), size(incumbent), size(front)))
}
