# residuals(type = "dfbetas") against residuals.coxph and stats::dfbetas(), and the "strata"
# attribute of the Schoenfeld matrix against residuals.coxph's.

test_that("Cox dfbetas equal residuals.coxph(type = \"dfbetas\") on lung, weighted or not", {
  skip_if_not_installed("survival")
  for (case in weightedLungCoxCases()) {
    fit <- case$fit
    ref <- case$ref
    label <- case$label
    lung <- case$data
    ours <- residuals(fit, type = "dfbetas")
    expect_equal(dim(ours), c(nrow(lung), length(coef(fit))))
    expect_lt(max(abs(unname(ours) - unname(residuals(ref, type = "dfbetas")))), 1e-8, label = label)
    expect_lt(max(abs(unname(residuals(fit, "dfbetas", weighted = FALSE)) -
                      unname(residuals(ref, "dfbetas", weighted = FALSE)))), 1e-8, label = label)
    # dfbeta scaled by the model-based standard errors
    se <- sqrt(diag(vcov(fit, type = "model")))
    expect_lt(max(abs(ours - sweep(residuals(fit, "dfbeta"), 2, se, "/"))), 1e-12)
    expect_equal(colnames(ours), names(coef(fit)))
  }
})

test_that("Cox dfbetas on veteran and pbc (Efron, stratified) equal residuals.coxph's", {
  skip_if_not_installed("survival")
  vet <- survival::veteran
  f <- Surv(time, status) ~ karno + age + trt + strata(celltype)
  ref <- coxRef(f, vet, ties = "efron")
  fit <- fitModel(createData(f, data = vet, modelType = "cox", ties = "efron"), control = survivalControl())
  expect_lt(max(abs(unname(residuals(fit, "dfbetas")) - unname(residuals(ref, "dfbetas")))), 1e-8)
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "edema")])
  pbc$dead <- as.numeric(pbc$status == 2)
  g <- Surv(time, dead) ~ age + log(bili) + albumin + edema
  ref <- coxRef(g, pbc, ties = "efron")
  fit <- fitModel(createData(g, data = pbc, modelType = "cox", ties = "efron"), control = survivalControl())
  expect_lt(max(abs(unname(residuals(fit, "dfbetas")) - unname(residuals(ref, "dfbetas")))), 1e-8)
})

test_that("the Schoenfeld matrix of a stratified Cox fit has residuals.coxph's \"strata\" table", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  f <- Surv(time, status) ~ age + wt.loss + strata(ph.ecog)
  ref <- coxRef(f, lung, ties = "efron")
  fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "efron"), control = survivalControl())
  ours <- residuals(fit, "schoenfeld")
  expect_equal(attr(ours, "strata"), attr(residuals(ref, "schoenfeld"), "strata"))
  expect_equal(sum(attr(ours, "strata")), nrow(ours))
  expect_lt(max(abs(unname(ours) - unname(residuals(ref, "schoenfeld")))), 1e-8)
  # none without strata, as coxph
  plain <- fitModel(createData(Surv(time, status) ~ age, data = lung, modelType = "cox", ties = "efron"))
  expect_null(attr(residuals(plain, "schoenfeld"), "strata"))
  # two strata variables, and a stratum without events (0 in coxph's table)
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "sex", "stage")])
  pbc$dead <- as.numeric(pbc$status == 2)
  pbc <- pbc[!(pbc$stage == 1 & pbc$dead == 1), ]
  pbc$early <- ifelse(pbc$stage == 1, "early", "late")
  g <- Surv(time, dead) ~ age + log(bili) + strata(sex, early)
  ref <- coxRef(g, pbc, ties = "breslow")
  fit <- suppressWarnings(fitModel(createData(g, data = pbc, modelType = "cox", ties = "breslow"),
                                   control = survivalControl()))
  expected <- attr(residuals(ref, "schoenfeld"), "strata")
  expect_true(any(expected == 0))
  expect_equal(attr(residuals(fit, "schoenfeld"), "strata"), expected)
  # the matrix route names the strata by their labels, in survival's order
  x <- as.matrix(lung[, c("age", "wt.loss")])
  fitMatrix <- fitModel(createData(x = x, y = lung$status - 1, time = lung$time, stratumId = lung$ph.ecog,
                                   modelType = "cox", ties = "efron"), control = survivalControl())
  table <- attr(residuals(fitMatrix, "schoenfeld"), "strata")
  expect_equal(names(table), c("0", "1", "2", "3"))
  expect_equal(as.vector(table), as.vector(attr(residuals(ref <- coxRef(f, lung, ties = "efron"), "schoenfeld"), "strata")))
})

test_that("dfbetas of lr, pr and ls fits: scaled dfbeta, and their relation to stats::dfbetas()", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  tight <- glm.control(epsilon = 1e-14, maxit = 100)
  control <- createControl(tolerance = 1e-13, maxIterations = 10000)
  cases <- list(
    list(ref = glm(low ~ age + lwt + smoke, family = binomial, data = bw, control = tight),
         fit = fitModel(createData(low ~ age + lwt + smoke, data = bw, modelType = "lr"), control = control),
         sigma = 1),
    list(ref = glm(ftv ~ age + lwt + smoke, family = poisson, data = bw, control = tight),
         fit = fitModel(createData(ftv ~ age + lwt + smoke, data = bw, modelType = "pr"), control = control),
         sigma = 1),
    list(ref = glm(bwt ~ age + lwt + smoke, data = bw, weights = ptl + 1, control = tight),
         fit = fitModel(createData(bwt ~ age + lwt + smoke, data = bw, modelType = "ls", weights = ptl + 1),
                        control = control)))
  cases[[3]]$sigma <- sqrt(summary(cases[[3]]$ref)$dispersion)
  for (case in cases) {
    ours <- residuals(case$fit, "dfbetas")
    label <- case$fit$modelType
    expect_lt(max(abs(ours - sweep(residuals(case$fit, "dfbeta"), 2, sqrt(diag(vcov(case$fit))), "/"))), 1e-12,
              label = label)
    # stats::dfbetas(): leverage-corrected, from the deviance residual, over the leave-one-out scale
    ref <- case$ref
    influence <- stats::influence(ref)
    factor <- sqrt(ref$weights) * residuals(ref, "deviance") * case$sigma /
      (ref$prior.weights * (ref$y - fitted(ref)) * (1 - influence$hat) * influence$sigma)
    expect_lt(max(abs(stats::dfbetas(ref) - ours * factor)), 1e-6, label = label)
  }
})
