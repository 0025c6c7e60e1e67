local_edition(3)
# The OHDSI packages' call sequences (helper-ohdsi-sequences.R) on this package, each number
# checked against the reference fit of the same rows.

cohort <- simulateCohort()
sccs <- simulateSccs()
database <- simulateDatabase()

coxReference <- function(population, weighted, stratified) {
  formula <- if (stratified) Surv(time, y) ~ treatment + strata(stratumId) else Surv(time, y) ~ treatment
  gold <- coxph(formula, data = population, ties = "breslow",
                weights = if (weighted) population$weights)
  ll <- function(b) coxph(formula, data = population, ties = "breslow", init = b,
                          weights = if (weighted) population$weights,
                          control = coxph.control(iter.max = 0))$loglik[1]
  list(coef = unname(coef(gold)), ci = exactProfileLimits(ll, unname(coef(gold))),
       llr = gold$loglik[2] - ll(0))
}

test_that("CohortMethod outcome models (cox, stratified, weighted) are coxph's", {
  for (case in list(c(FALSE, FALSE), c(TRUE, FALSE), c(FALSE, TRUE))) {
    stratified <- case[1]
    weighted <- case[2]
    result <- cohortMethodOutcome(cohort, "cox", stratified, weighted, bootstrap = if (!weighted) 50 else 0)
    population <- informativePopulation(cohort$population, "cox", stratified, weighted)
    gold <- coxReference(population, weighted, stratified)
    expect_equal(result$returnFlag, "SUCCESS")
    expect_equal(result$logRr, gold$coef, tolerance = 1e-5)
    expect_equal(c(result$logLb95, result$logUb95), gold$ci, tolerance = 1e-5)
    expect_equal(result$llr, gold$llr, tolerance = 1e-6)
    if (!weighted) {
      expect_length(result$bootstrap, 3)
      expect_true(result$bootstrap[1] < result$logRr && result$logRr < result$bootstrap[2])
    }
  }
})

test_that("CohortMethod clr, cpr, pr and lr outcome models are clogit's and glm's", {
  pop <- informativePopulation(cohort$population, "logistic", TRUE, FALSE)
  clr <- cohortMethodOutcome(cohort, "logistic", TRUE, FALSE)
  expect_equal(clr$logRr, unname(coef(clogit(y ~ treatment + strata(stratumId), data = pop,
                                               method = "breslow"))), tolerance = 1e-5)
  pop <- informativePopulation(cohort$population, "poisson", TRUE, FALSE)
  cpr <- cohortMethodOutcome(cohort, "poisson", TRUE, FALSE)
  fe <- glm(y ~ treatment + factor(stratumId) + offset(log(time)), family = poisson(), data = pop)
  expect_equal(cpr$logRr, unname(coef(fe)["treatment"]), tolerance = 1e-5)
  pop <- informativePopulation(cohort$population, "poisson", FALSE, FALSE)
  pr <- cohortMethodOutcome(cohort, "poisson", FALSE, FALSE)
  gold <- glm(y ~ treatment + offset(log(time)), family = poisson(), data = pop)
  ll <- function(b) as.numeric(logLik(glm(y ~ 1 + offset(log(time) + b * treatment),
                                          family = poisson(), data = pop)))
  expect_equal(pr$logRr, unname(coef(gold)[2]), tolerance = 1e-5)
  expect_equal(c(pr$logLb95, pr$logUb95), exactProfileLimits(ll, unname(coef(gold)[2])), tolerance = 1e-5)
  pop <- informativePopulation(cohort$population, "logistic", FALSE, TRUE)
  lr <- cohortMethodOutcome(cohort, "logistic", FALSE, TRUE)
  expect_equal(lr$logRr, unname(coef(suppressWarnings(glm(y ~ treatment, family = binomial(), data = pop,
                                                          weights = weights)))[2]), tolerance = 1e-5)
})

test_that("CohortMethod propensity score, covariate-adjusted outcome model and helpers", {
  ps <- cohortMethodPs(cohort, cvRepetitions = 2)
  expect_equal(ps$returnFlag, "SUCCESS")
  expect_gt(ps$variance, 0)
  expect_equal(names(ps$propensityScore), as.character(sort(cohort$population$rowId)))
  expect_true(all(ps$propensityScore > 0 & ps$propensityScore < 1))
  expect_equal(unname(ps$shiftedScore), plogis(qlogis(unname(ps$propensityScore)) - 0.1),
               tolerance = 1e-10)
  adjusted <- cohortMethodOutcomeWithCovariates(cohort, "cox", FALSE)
  expect_equal(adjusted$returnFlag, "SUCCESS")
  expect_true(adjusted$logLb95 < adjusted$logRr && adjusted$logRr < adjusted$logUb95)
  helpers <- cohortMethodHelpers(cohort)
  expect_false(is.na(helpers$anySeparable))
  counts <- c(18, 17, 15, 20, 10, 20, 25, 13, 12)
  expect_equal(unname(helpers$dobson), unname(coef(glm(counts ~ gl(3, 1, 9) + gl(3, 3), family = poisson()))),
               tolerance = 1e-5)
})

test_that("SelfControlledCaseSeries: conditional Poisson, intervals, likelihood ratio, profile at 0", {
  flat <- sccsFit(sccs, regularized = FALSE)
  o <- sccs$outcomes
  x <- matrix(0, nrow(o), 4, dimnames = list(NULL, paste0("d", 1001:1004)))
  x[cbind(match(sccs$covariates$rowId, o$rowId), sccs$covariates$covariateId - 1000)] <- 1
  frame <- data.frame(o, x)
  gold <- glm(y ~ d1001 + d1002 + d1003 + d1004 + factor(stratumId) + offset(log(time)),
              family = poisson(), data = frame)
  expect_equal(unname(flat$estimates), unname(coef(gold)[paste0("d", 1001:1004)]), tolerance = 1e-5)
  null <- glm(y ~ d1002 + d1003 + d1004 + factor(stratumId) + offset(log(time)), family = poisson(),
              data = frame)
  expect_equal(flat$llr, as.numeric(logLik(gold) - logLik(null)), tolerance = 1e-6)
  expect_equal(flat$covariate, 1001)
  regularized <- sccsFit(sccs)
  expect_equal(regularized$returnFlag, "SUCCESS")
  expect_gt(regularized$variance, 0)
  expect_true(regularized$logLb95 < regularized$estimates[["1001"]])
  diagnostic <- sccsDiagnostic(sccs)
  expect_true(is.finite(diagnostic$llr) && diagnostic$llr >= 0)
})

test_that("PatientLevelPrediction: lasso logistic with its fold refits, Cox with the Breslow baseline", {
  logistic <- plpLogistic(cohort)
  expect_equal(logistic$returnFlag, "SUCCESS")
  expect_true(all(is.finite(logistic$foldLogLik)))
  expect_true(all(logistic$prediction > 0 & logistic$prediction < 1))
  cox <- plpCox(cohort)
  expect_equal(cox$returnFlag, "SUCCESS")
  expect_equal(cox$baselineTime, sort(unique(cohort$population$survivalTime)))
  expect_false(is.unsorted(rev(cox$baselineSurv)))
  expect_true(all(cox$baselineSurv > 0 & cox$baselineSurv <= 1))
})

test_that("EvidenceSynthesis: Cox per database, its profiles and the formula conditional Poisson", {
  result <- evidenceSynthesis(database)
  population <- database$cox
  gold <- coxph(Surv(time, y) ~ x + strata(stratumId), data = population, ties = "breslow")
  ll <- function(b) coxph(Surv(time, y) ~ offset(b * x) + strata(stratumId), data = population,
                          ties = "breslow")$loglik
  expect_equal(result$logRr, unname(coef(gold)), tolerance = 1e-5)
  expect_equal(result$ci, exactProfileLimits(ll, unname(coef(gold))), tolerance = 1e-5)
  expect_equal(result$pooledCi, result$ci)
  grid <- seq(log(0.1), log(10), length.out = 100)
  expect_equal(result$grid, vapply(grid, ll, 0), tolerance = 1e-7)
  fe <- glm(y ~ a + x1 + x2 + factor(stratumId) + offset(log(time)), family = poisson(),
            data = database$sccs)
  expect_equal(unname(result$sccs), unname(coef(fe)[c("a", "x1", "x2")]), tolerance = 1e-5)
})
