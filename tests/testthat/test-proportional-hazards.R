# testProportionalHazards() and residuals(type = "scaledsch") against survival::cox.zph and
# residuals.coxph on lung, veteran and pbc: every transform, Breslow and Efron, factor terms,
# strata, weights and (start, stop] data.

# cox.zph of the coxph fit and testProportionalHazards() of the Argus fit of the same model.
zphPair <- function(formula, data, ties, weights = NULL, ...) {
  ref <- coxRef(formula, data, ties = ties, weights = weights)
  fit <- fitModel(createData(formula, data = data, modelType = "cox", ties = ties, weights = weights),
                  control = survivalControl())
  list(ref = ref, fit = fit)
}

# Largest difference between a cox.zph result and an argusZph one, field by field; the
# names, the NA pattern of y and the strata must be the same.
expectSameZph <- function(argus, zph, label, tolerance = 1e-6) {
  expect_s3_class(argus, "argusZph")
  expect_equal(dimnames(argus$table), dimnames(zph$table), label = label)
  expect_equal(argus$table[, "df"], zph$table[, "df"], label = label)
  expect_lt(max(abs(argus$table - zph$table)), tolerance, label = paste(label, "table"))
  expect_lt(max(abs(argus$x - zph$x)), tolerance, label = paste(label, "x"))
  expect_equal(argus$time, zph$time, label = label)
  expect_equal(dimnames(argus$y), dimnames(zph$y), label = label)
  expect_equal(is.na(argus$y), is.na(zph$y), label = label)
  expect_lt(max(abs(argus$y - zph$y), na.rm = TRUE), tolerance, label = paste(label, "y"))
  expect_lt(max(abs(argus$var - zph$var)), tolerance * max(1, abs(zph$var)), label = paste(label, "var"))
  expect_identical(argus$strata, zph$strata, label = label)
  expect_identical(argus$transform, zph$transform, label = label)
}

lungWithFactor <- function() {
  lung <- lungComplete()
  lung$ecog <- factor(lung$ph.ecog)
  lung
}

test_that("lung: every transform, Breslow and Efron, global on and off, equals cox.zph", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  for (ties in c("breslow", "efron")) {
    pair <- zphPair(Surv(time, status) ~ age + sex + ph.ecog, lung, ties)
    for (transform in c("km", "rank", "identity", "log")) for (global in c(TRUE, FALSE)) {
      zph <- survival::cox.zph(pair$ref, transform = transform, global = global)
      argus <- testProportionalHazards(pair$fit, transform = transform, global = global)
      expectSameZph(argus, zph, paste("lung", ties, transform, global))
    }
  }
  # the default transform is "km", as cox.zph's
  expect_identical(testProportionalHazards(pair$fit)$table,
                   testProportionalHazards(pair$fit, transform = "km")$table)
})

test_that("lung with a factor: its columns are tested together (terms = TRUE) or one by one", {
  skip_if_not_installed("survival")
  lung <- lungWithFactor()
  for (ties in c("breslow", "efron")) {
    pair <- zphPair(Surv(time, status) ~ age + sex + ecog, lung, ties)
    for (transform in c("km", "rank", "identity", "log")) for (terms in c(TRUE, FALSE)) {
      zph <- survival::cox.zph(pair$ref, transform = transform, terms = terms)
      argus <- testProportionalHazards(pair$fit, transform = transform, terms = terms)
      expectSameZph(argus, zph, paste("lung factor", ties, transform, terms))
    }
  }
  byTerm <- testProportionalHazards(pair$fit)
  expect_equal(rownames(byTerm$table), c("age", "sex", "ecog", "GLOBAL"))
  expect_equal(unname(byTerm$table[, "df"]), c(1, 1, 3, 5))
  expect_equal(rownames(testProportionalHazards(pair$fit, terms = FALSE)$table),
               c("age", "sex", "ecog1", "ecog2", "ecog3", "GLOBAL"))
})

test_that("veteran: a factor, a stratified fit (one and several covariates)", {
  skip_if_not_installed("survival")
  veteran <- survival::veteran
  formulas <- list(Surv(time, status) ~ celltype + karno + age,
                   Surv(time, status) ~ karno + age + trt + strata(celltype),
                   Surv(time, status) ~ karno + strata(celltype),
                   Surv(time, status) ~ celltype + karno + strata(trt))
  for (ties in c("breslow", "efron")) for (f in formulas) {
    pair <- zphPair(f, veteran, ties)
    for (transform in c("km", "rank", "identity", "log")) {
      zph <- survival::cox.zph(pair$ref, transform = transform)
      expectSameZph(testProportionalHazards(pair$fit, transform = transform), zph,
                    paste("veteran", ties, deparse(f[[3]]), transform))
    }
  }
  strat <- testProportionalHazards(zphPair(formulas[[2]], veteran, "efron")$fit)
  expect_equal(levels(strat$strata), levels(veteran$celltype))
})

test_that("pbc: several covariates, weights, strata, Efron and Breslow", {
  skip_if_not_installed("survival")
  pbc <- survival::pbc[!is.na(survival::pbc$trt), ]
  pbc$death <- as.numeric(pbc$status == 2)
  set.seed(3)
  w <- runif(nrow(pbc), 0.5, 2)
  for (ties in c("breslow", "efron")) {
    cases <- list(
      several = zphPair(Surv(time, death) ~ age + edema + log(bili) + log(albumin) + log(protime),
                        pbc, ties),
      weighted = zphPair(Surv(time, death) ~ age + edema + log(bili) + log(albumin), pbc, ties,
                         weights = w),
      weightedStrata = zphPair(Surv(time, death) ~ age + log(bili) + strata(edema), pbc, ties,
                               weights = w))
    for (name in names(cases)) for (transform in c("km", "rank", "identity", "log")) {
      zph <- survival::cox.zph(cases[[name]]$ref, transform = transform)
      expectSameZph(testProportionalHazards(cases[[name]]$fit, transform = transform), zph,
                    paste("pbc", name, ties, transform))
    }
  }
  # weights change the test: the weighted fit is not the unweighted one's
  expect_gt(max(abs(testProportionalHazards(cases$weighted$fit)$table -
                    testProportionalHazards(zphPair(Surv(time, death) ~ age + edema + log(bili) +
                                                      log(albumin), pbc, "efron")$fit)$table)), 0.01)
})

test_that("pbc as (start, stop] data (survSplit): tied events in cox.zph's order, strata, weights", {
  skip_if_not_installed("survival")
  pbc <- survival::pbc[!is.na(survival::pbc$trt), ]
  pbc$death <- as.numeric(pbc$status == 2)
  split <- survival::survSplit(inSurvival(Surv(time, death) ~ age + edema + bili + albumin + trt),
                               data = pbc, cut = c(500, 1000, 2000), episode = "episode")
  set.seed(8)
  w <- runif(nrow(split), 0.5, 2)
  for (ties in c("breslow", "efron")) {
    plain <- zphPair(Surv(tstart, time, death) ~ age + edema + log(bili) + albumin, split, ties)
    stratified <- zphPair(Surv(tstart, time, death) ~ age + log(bili) + strata(trt), split, ties,
                          weights = w)
    for (transform in c("km", "rank", "identity", "log")) {
      expectSameZph(testProportionalHazards(plain$fit, transform = transform),
                    survival::cox.zph(plain$ref, transform = transform), paste("split", ties, transform))
      expectSameZph(testProportionalHazards(stratified$fit, transform = transform),
                    survival::cox.zph(stratified$ref, transform = transform),
                    paste("split strata", ties, transform))
    }
  }
  # the split data give the unsplit data's test (the same partial likelihood)
  whole <- zphPair(Surv(time, death) ~ age + edema + log(bili) + albumin, pbc, "efron")
  expect_lt(max(abs(testProportionalHazards(plain$fit, "identity")$table -
                    testProportionalHazards(whole$fit, "identity")$table)), 1e-6)
})

test_that("a user function of time, NA and fixed coefficients, weight-0 rows, matrix data", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  pair <- zphPair(Surv(time, status) ~ age + sex + ph.ecog, lung, "efron")
  expectSameZph(testProportionalHazards(pair$fit, transform = sqrt),
                survival::cox.zph(pair$ref, transform = sqrt), "sqrt")
  # a function of the whole vector gets the rows' times in the data's order, as in cox.zph
  relativeRank <- function(t) rank(t) / length(t)
  expectSameZph(testProportionalHazards(pair$fit, transform = relativeRank),
                survival::cox.zph(pair$ref, transform = relativeRank), "relativeRank")
  # an NA (aliased) coefficient is left out, as cox.zph leaves it out
  lung$age2 <- 2 * lung$age
  aliased <- suppressWarnings(zphPair(Surv(time, status) ~ age + age2 + sex, lung, "efron"))
  expect_true(is.na(coef(aliased$fit)[["age2"]]))
  expectSameZph(testProportionalHazards(aliased$fit), survival::cox.zph(aliased$ref), "aliased")
  # a fixed coefficient is an offset
  fixed <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung,
                               modelType = "cox", ties = "efron"), control = survivalControl(),
                    startingCoefficients = c(age = 0.01, sex = 0, ph.ecog = 0),
                    fixed = c(TRUE, FALSE, FALSE))
  offsetRef <- coxRef(Surv(time, status) ~ offset(0.01 * age) + sex + ph.ecog, lung, ties = "efron")
  expectSameZph(testProportionalHazards(fixed), survival::cox.zph(offsetRef), "fixed")
  # rows of weight 0 are not in the fit (coxph refuses them): the test of the other rows
  w <- rep(1, nrow(lung))
  w[c(3, 10, 50, 77)] <- 0
  held <- fitModel(createData(Surv(time, status) ~ age + sex + ph.ecog, data = lung,
                              modelType = "cox", ties = "efron"), weights = w,
                   control = survivalControl())
  subsetRef <- coxRef(Surv(time, status) ~ age + sex + ph.ecog, lung[w > 0, ], ties = "efron")
  expectSameZph(testProportionalHazards(held), survival::cox.zph(subsetRef), "weight 0")
  # matrix data have one term per column
  x <- as.matrix(lung[, c("age", "sex", "ph.ecog")])
  matrixFit <- fitModel(createData(x = x, y = lung$status - 1, time = lung$time, modelType = "cox",
                                   ties = "efron"), control = survivalControl())
  expectSameZph(testProportionalHazards(matrixFit), survival::cox.zph(pair$ref), "matrix")
})

test_that("a covariate constant within a stratum: NA scaled residuals there, as cox.zph", {
  skip_if_not_installed("survival")
  veteran <- survival::veteran
  veteran$karnoMasked <- ifelse(veteran$celltype == "large", 50, veteran$karno)
  pair <- zphPair(Surv(time, status) ~ karnoMasked + age + strata(celltype), veteran, "efron")
  argus <- testProportionalHazards(pair$fit)
  expectSameZph(argus, survival::cox.zph(pair$ref), "masked")
  expect_equal(sum(is.na(argus$y[, "karnoMasked"])), sum(veteran$status[veteran$celltype == "large"]))
})

test_that("residuals(type = \"scaledsch\") equal residuals.coxph's, with the strata attribute", {
  skip_if_not_installed("survival")
  for (pair in weightedLungCoxCases()) {
    label <- pair$label
    lung <- pair$data
    mine <- residuals(pair$fit, "scaledsch")
    theirs <- residuals(pair$ref, "scaledsch")
    expect_equal(dimnames(mine), dimnames(theirs), label = label)
    expect_lt(max(abs(unname(mine) - unname(theirs))), 1e-8, label = label)
    # weighted: each event's own weight. residuals.coxph(weighted = TRUE) multiplies its
    # time-sorted events by the weights in data order (survival 3.5.3: off by 19 here), so the
    # reference is its unweighted residuals times the events' weights, scaled as coxph scales
    strata <- if (grepl("strata", label)) lung$ph.ecog else rep(0, nrow(lung))
    sorted <- order(strata, lung$time, -lung$status)
    eventWeights <- lung$w[sorted][lung$status[sorted] == 2]
    weightedRef <- residuals(pair$ref, "schoenfeld") * eventWeights
    naive <- if (is.null(pair$ref$naive.var)) pair$ref$var else pair$ref$naive.var
    weightedRef <- weightedRef %*% naive * nrow(weightedRef) +
      rep(coef(pair$ref), each = nrow(weightedRef))
    expect_lt(max(abs(unname(residuals(pair$fit, "scaledsch", weighted = TRUE)) - unname(weightedRef))),
              1e-8, label = paste(label, "weighted"))
  }
  # strata: the Schoenfeld matrices carry the events per stratum, as coxph's
  veteran <- survival::veteran
  one <- zphPair(Surv(time, status) ~ karno + strata(celltype), veteran, "efron")
  several <- zphPair(Surv(time, status) ~ karno + age + strata(trt), veteran, "breslow")
  expect_equal(attr(residuals(one$fit, "scaledsch"), "strata"),
               attr(residuals(one$ref, "scaledsch"), "strata"))
  expect_lt(max(abs(residuals(one$fit, "scaledsch") - residuals(one$ref, "scaledsch"))), 1e-8)
  for (pair in list(one, several))
    expect_equal(attr(residuals(pair$fit, "schoenfeld"), "strata"),
                 attr(residuals(pair$ref, "schoenfeld"), "strata"))
  expect_equal(names(attr(residuals(several$fit, "scaledsch"), "strata")), c("trt=1", "trt=2"))
  expect_null(attr(residuals(zphPair(Surv(time, status) ~ karno, veteran, "efron")$fit,
                             "schoenfeld"), "strata"))
  # (start, stop] data
  b <- survival::bladder2
  cp <- zphPair(Surv(start, stop, event) ~ rx + number + size, b, "efron")
  expect_lt(max(abs(unname(residuals(cp$fit, "scaledsch")) - unname(residuals(cp$ref, "scaledsch")))), 1e-8)
  # the mean of the scaled residuals is near the coefficient (they estimate beta(t))
  expect_lt(max(abs(colMeans(residuals(cp$fit, "scaledsch")) - coef(cp$fit))), 0.1)
})

test_that("print() and tidy() show the table", {
  skip_if_not_installed("survival")
  pair <- zphPair(Surv(time, status) ~ age + sex + ph.ecog, lungComplete(), "efron")
  zph <- testProportionalHazards(pair$fit)
  ref <- survival::cox.zph(pair$ref)
  expect_equal(capture.output(print(zph)), capture.output(print(ref)))
  expect_invisible(print(zph))
  tidied <- tidy(zph)
  expect_equal(names(tidied), c("term", "statistic", "df", "p.value"))
  expect_equal(tidied$term, c("age", "sex", "ph.ecog", "GLOBAL"))
  expect_equal(tidied$statistic, unname(ref$table[, "chisq"]), tolerance = 1e-6)
  expect_equal(tidied$p.value, unname(ref$table[, "p"]), tolerance = 1e-6)
  expect_error(tidy(zph, conf.int = TRUE), "unused argument")
})

test_that("non-Cox fits, penalized fits and bad arguments are refused with clear errors", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(1)
  lr <- fitModel(createData(x = matrix(rnorm(40), 20, 2), y = rbinom(20, 1, 0.5), modelType = "lr"))
  expect_error(testProportionalHazards(lr), "Cox fits \\(modelType \"cox\"\\), not modelType 'lr'")
  expect_error(testProportionalHazards(coxRef(Surv(time, status) ~ age, lung)),
               "needs a Cox fit from fitModel\\(\\)")
  lung$fgrStatus <- lung$status - 1
  fgr <- fitModel(createData(Surv(time, fgrStatus) ~ age, data = lung, modelType = "fgr"))
  expect_error(testProportionalHazards(fgr), "not modelType 'fgr'")
  data <- createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox")
  ridge <- fitModel(data, prior = createPrior("normal", variance = 1))
  expect_error(testProportionalHazards(ridge), "needs a fit without a prior.*normal prior")
  expect_error(residuals(ridge, "scaledsch"), "needs a fit without a prior")
  # a prior on no estimated coefficient is no prior
  excluded <- fitModel(data, prior = createPrior("laplace", variance = 1, exclude = c("age", "sex")))
  expect_s3_class(testProportionalHazards(excluded), "argusZph")
  # a fit that stopped short of the maximum: its score is not 0
  stopped <- suppressWarnings(fitModel(data, control = createControl(maxIterations = 1,
                                                                     majorizedStart = "never")))
  expect_equal(stopped$status, "MAX_ITERATIONS")
  expect_error(testProportionalHazards(stopped), "status is 'MAX_ITERATIONS'")
  fit <- fitModel(data)
  expect_error(testProportionalHazards(fit, transform = "square"), "'transform' must be one of")
  expect_error(testProportionalHazards(fit, transform = c("km", "rank")), "'transform' must be one of")
  expect_error(testProportionalHazards(fit, terms = NA), "'terms' must be TRUE or FALSE")
  expect_error(testProportionalHazards(fit, global = "yes"), "'global' must be TRUE or FALSE")
  expect_error(testProportionalHazards(fit, transform = function(t) t[-1]), "one number per time")
  lung$time[1] <- 0
  lung$status[1] <- 2
  zero <- fitModel(createData(Surv(time, status) ~ age + sex, data = lung, modelType = "cox"))
  expect_error(testProportionalHazards(zero, transform = "log"), "not finite.*log of a time <= 0")
})

test_that("strata without events are kept, as cox.zph keeps them: every transform agrees", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  lung$group <- rep(1:3, length.out = nrow(lung))
  lung$status[lung$group == 2] <- 1  # censored: a stratum without events, in the middle
  pair <- zphPair(Surv(time, status) ~ age + sex + strata(group), lung, "efron")
  expect_equal(pair$fit$data$dropped$rows, 0)
  for (transform in c("km", "rank", "identity", "log"))
    expectSameZph(testProportionalHazards(pair$fit, transform), survival::cox.zph(pair$ref, transform),
                  paste("eventless stratum", transform))
  expect_equal(attr(residuals(pair$fit, "schoenfeld"), "strata"),
               attr(residuals(pair$ref, "schoenfeld"), "strata"))
})
