# vcov() and confint() for cox and fgr: vcov against survival::coxph and cmprsk::crr, Wald
# intervals against confint(coxph), profile intervals against likelihood-ratio intervals
# computed from coxph and crr themselves (helper-survival-inference.R).

coxFit <- function(formula, data, ties = "breslow", weights = NULL) {
  fitModel(createData(formula, data = data, modelType = "cox", ties = ties, weights = weights),
           control = survivalControl())
}

# With non-integer weights coxph reports the robust variance and keeps the model-based one,
# which is what vcov() gives, in naive.var.
coxModelVariance <- function(ref) {
  if (is.null(ref$naive.var)) return(stats::vcov(ref))
  structure(ref$naive.var, dimnames = dimnames(stats::vcov(ref)))
}

test_that("cox vcov equals vcov(coxph): Breslow, Efron, strata, weights, counting process", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(301)
  wLung <- runif(nrow(lung), 0.5, 2)
  bladder2 <- survival::bladder2
  wBladder <- runif(nrow(bladder2), 0.2, 3)
  cases <- list(
    list(Surv(time, status == 2) ~ age + sex + ph.ecog + wt.loss, lung, NULL),
    list(Surv(time, status == 2) ~ age + ph.ecog + wt.loss + strata(sex), lung, wLung),
    list(Surv(time, status) ~ trt + karno + age + celltype, survival::veteran, NULL),
    list(Surv(start, stop, event) ~ rx + number + size + strata(enum), bladder2, wBladder))
  for (case in cases) {
    for (ties in c("breslow", "efron")) {
      label <- paste(deparse(case[[1]][[3]]), ties)
      ref <- coxRef(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      V <- vcov(coxFit(case[[1]], case[[2]], ties = ties, weights = case[[3]]), type = "model")
      expect_equal(dimnames(V), dimnames(vcov(ref)), label = label)
      expect_lte(maxRelDiff(V, coxModelVariance(ref)), 1e-5, label = label)
    }
  }
})

test_that("cox Wald intervals equal confint(coxph)", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  formula <- Surv(time, status == 2) ~ age + sex + ph.ecog + wt.loss
  ref <- coxRef(formula, lung, ties = "efron")
  fit <- coxFit(formula, lung, ties = "efron")
  expect_lte(maxRelDiff(confint(fit, method = "wald"), stats::confint(ref)), 1e-5)
  expect_lte(maxRelDiff(confint(fit, "age", level = 0.9, method = "wald"),
                        stats::confint(ref, "age", level = 0.9)), 1e-5)
})

test_that("cox profile intervals equal coxph likelihood-ratio intervals", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  bladder2 <- survival::bladder2
  set.seed(302)
  w <- runif(nrow(bladder2), 0.2, 3)
  cases <- list(
    list(Surv(time, status == 2) ~ age + sex + ph.ecog + wt.loss, lung, NULL, "ph.ecog"),
    list(Surv(time, status == 2) ~ age + ph.ecog + strata(inst), lung, NULL, "age"),
    list(Surv(start, stop, event) ~ rx + number + size, bladder2, w, "number"))
  for (case in cases) {
    for (ties in c("breslow", "efron")) {
      label <- paste(deparse(case[[1]][[3]]), ties)
      fit <- coxFit(case[[1]], case[[2]], ties = ties, weights = case[[3]])
      # non-integer weights (bladder2): the intervals warn that they are too narrow for
      # sampling weights; here they are compared with coxph's likelihood-ratio intervals
      ci <- suppressWarnings(confint(fit, case[[4]], method = "profile"))
      ref <- coxProfileInterval(case[[1]], case[[2]], case[[4]], ties = ties,
                                weights = case[[3]])
      expect_lte(maxRelDiff(ci, ref), 1e-5, label = label)
      # the profile and Wald intervals differ by more than the tolerance
      expect_gt(maxRelDiff(suppressWarnings(confint(fit, case[[4]], method = "wald")), ref), 1e-4,
                label = label)
    }
  }
})

test_that("fgr vcov(type = \"model\") is crr's inverse information (not its robust var, the default)", {
  skip_if_not_installed("cmprsk")
  for (resolution in list(NULL, 1)) {
    sim <- simulateCompeting(n = 500, seed = 303, resolution = resolution)
    ref <- crrRef(sim$time, sim$y, sim$x)
    fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "fgr"),
                    control = survivalControl())
    V <- vcov(fit, type = "model")
    expect_equal(dimnames(V), list(colnames(sim$x), colnames(sim$x)))
    expect_lte(maxRelDiff(V, ref$invinf), 1e-5)
    expect_gt(maxRelDiff(V, ref$var), 1e-2)
    se <- sqrt(diag(ref$invinf))
    expect_lte(maxRelDiff(confint(fit, method = "wald", type = "model"),
                          cbind(ref$coef - 1.959964 * se, ref$coef + 1.959964 * se)), 1e-5)
  }
})

test_that("fgr profile intervals equal crr's likelihood-ratio intervals", {
  skip_if_not_installed("cmprsk")
  sim <- simulateCompeting(n = 300, seed = 304, resolution = 1)
  x <- sim$x[, c("a", "b", "d")]
  fit <- fitModel(createData(x = x, y = sim$y, time = sim$time, modelType = "fgr"),
                  control = survivalControl())
  ci <- confint(fit, c("a", "d"), method = "profile")
  expect_lte(maxRelDiff(ci["a", ], crrProfileInterval(sim$time, sim$y, x, 1)), 1e-5)
  expect_lte(maxRelDiff(ci["d", ], crrProfileInterval(sim$time, sim$y, x, 3)), 1e-5)
})
