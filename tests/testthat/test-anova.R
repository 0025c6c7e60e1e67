# anova() against survival's anova.coxph and stats' anova.glm: nested fits and the sequential
# table of one fit, on lung, pbc, veteran and birthwt; and its refusals.

anovaDifference <- function(ours, reference) {
  expect_equal(dim(ours), dim(reference))
  expect_equal(colnames(ours), colnames(reference))
  max(abs(as.matrix(ours) - as.matrix(reference)), na.rm = TRUE)
}

test_that("anova() of nested Cox fits equals anova.coxph (lung, pbc, veteran)", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  pbc <- stats::na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "edema", "sex")])
  pbc$dead <- as.numeric(pbc$status == 2)
  vet <- survival::veteran
  cases <- list(
    list(data = lung, ties = "efron", formulas = list(Surv(time, status) ~ age,
                                                       Surv(time, status) ~ age + sex + factor(ph.ecog))),
    list(data = lung, ties = "breslow", formulas = list(Surv(time, status) ~ age + strata(sex),
                                                         Surv(time, status) ~ age + wt.loss + strata(sex),
                                                         Surv(time, status) ~ age + wt.loss + ph.ecog + strata(sex))),
    list(data = pbc, ties = "efron", formulas = list(Surv(time, dead) ~ age + log(bili) + albumin + edema,
                                                      Surv(time, dead) ~ age + log(bili))),
    list(data = vet, ties = "efron", formulas = list(Surv(time, status) ~ karno,
                                                      Surv(time, status) ~ karno + celltype + trt)))
  for (case in cases) {
    refs <- lapply(case$formulas, function(f) coxRef(f, case$data, ties = case$ties))
    fits <- lapply(case$formulas, function(f)
      fitModel(createData(f, data = case$data, modelType = "cox", ties = case$ties), control = survivalControl()))
    ours <- do.call(anova, fits)
    reference <- do.call(anova, refs)
    expect_lt(anovaDifference(ours, reference), 1e-6)
    expect_s3_class(ours, "anova")
    expect_match(attr(ours, "heading")[2], "Model 2: ~ ", fixed = TRUE)
    # one fit: its terms added one at a time (refits with the later terms held at 0)
    largest <- length(fits)
    sequential <- anova(fits[[largest]])
    expect_lt(anovaDifference(sequential, anova(refs[[largest]])), 1e-6)
    expect_equal(rownames(sequential), rownames(anova(refs[[largest]])))
  }
})

test_that("anova() of lr, pr and ls fits equals anova.glm(test = \"Chisq\") and its F test", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  bw$race <- factor(bw$race, labels = c("white", "black", "other"))
  tight <- glm.control(epsilon = 1e-14, maxit = 100)
  control <- createControl(tolerance = 1e-13, maxIterations = 10000)
  formulas <- list(lr = list(low ~ age, low ~ age + lwt + race + smoke),
                   pr = list(ftv ~ age + lwt, ftv ~ age + lwt + race + smoke + ht),
                   ls = list(bwt ~ age, bwt ~ age + lwt + race + smoke))
  family <- list(lr = binomial(), pr = poisson(), ls = gaussian())
  for (modelType in names(formulas)) {
    refs <- lapply(formulas[[modelType]], function(f)
      glm(f, family = family[[modelType]], data = bw, weights = ptl + 1, control = tight))
    fits <- lapply(formulas[[modelType]], function(f)
      fitModel(createData(f, data = bw, modelType = modelType, weights = ptl + 1), control = control))
    expect_lt(anovaDifference(anova(fits[[1]], fits[[2]]), anova(refs[[1]], refs[[2]], test = "Chisq")), 1e-6,
              label = modelType)
    # reversed order, as anova.glm: signed differences
    expect_lt(anovaDifference(anova(fits[[2]], fits[[1]]), anova(refs[[2]], refs[[1]], test = "Chisq")), 1e-6,
              label = modelType)
    expect_lt(anovaDifference(anova(fits[[2]]), anova(refs[[2]], test = "Chisq")), 1e-6, label = modelType)
    expect_lt(anovaDifference(anova(fits[[2]], test = NULL), anova(refs[[2]])), 1e-6, label = modelType)
    expect_equal(attr(anova(fits[[2]]), "heading"), attr(anova(refs[[2]], test = "Chisq"), "heading"))
  }
  expect_lt(anovaDifference(anova(fits[[2]], test = "F"), anova(refs[[2]], test = "F")), 1e-6)
  expect_lt(anovaDifference(anova(fits[[1]], fits[[2]], test = "F"), anova(refs[[1]], refs[[2]], test = "F")), 1e-6)
})

test_that("anova() refuses what it cannot test, with the reason", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  age <- fitModel(createData(Surv(time, status) ~ age, data = lung, modelType = "cox", ties = "efron"))
  sex <- fitModel(createData(Surv(time, status) ~ sex, data = lung, modelType = "cox", ties = "efron"))
  expect_error(anova(age, sex), "not nested")
  breslow <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "breslow"))
  expect_error(anova(age, breslow), "ties")
  fewer <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung[-1, ], modelType = "cox", ties = "efron"))
  expect_error(anova(age, fewer), "not of the same data: the rows")
  other <- lung
  other$time[1] <- other$time[1] + 1
  expect_error(anova(age, fitModel(createData(Surv(time, status) ~ age + sex, data = other, modelType = "cox",
                                              ties = "efron"))), "times")
  ridge <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "efron"),
                    createPrior("normal", variance = 1))
  expect_error(anova(age, ridge), "penalized")
  expect_error(anova(age, sex, test = "F"), "least squares")
  expect_error(anova(age, something = 1), "'something'")
  expect_error(anova(age, 3), "not an argusFit")
  x <- as.matrix(lung[, c("age", "sex")])
  byMatrix <- fitModel(createData(x = x, y = lung$status - 1, time = lung$time, modelType = "cox", ties = "efron"))
  expect_error(anova(byMatrix), "not made\\s+from a formula")
  # but fits from matrices compare
  smaller <- fitModel(createData(x = x[, "age", drop = FALSE], y = lung$status - 1, time = lung$time,
                                 modelType = "cox", ties = "efron"))
  expect_equal(anova(smaller, byMatrix)$Df[2], 1)
  skip_if_not_installed("cmprsk")
  fg <- fitModel(createData(x = x, y = ifelse(lung$status == 2, 1, 0) * (1 + (lung$age > 70)), time = lung$time,
                            modelType = "fgr"))
  expect_error(anova(fg), "Fine-Gray")
  set.seed(1)
  weighted <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox", ties = "efron"),
                       weights = runif(nrow(lung), 0.5, 2))
  expect_warning(anova(weighted), "non-integer weights")
})
