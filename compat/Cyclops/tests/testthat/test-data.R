local_edition(3)

infertLong <- function() {
  covariates <- data.frame(stratumId = rep(infert$stratum, 2), rowId = rep(seq_len(nrow(infert)), 2),
                           covariateId = rep(c(11, 12), each = nrow(infert)),
                           covariateValue = c(infert$spontaneous, infert$induced))
  outcomes <- data.frame(stratumId = infert$stratum, rowId = seq_len(nrow(infert)), y = infert$case)
  list(outcomes = outcomes, covariates = covariates[covariates$covariateValue != 0, ])
}

test_that("long tables: counts, ids, names and the incumbent's checks", {
  long <- infertLong()
  expect_warning(d <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "clr"),
                 "Intercepts are not allowed")
  expect_s3_class(d, "cyclopsData")
  expect_true(is.environment(d))
  expect_equal(getNumberOfRows(d), 248)
  expect_equal(getNumberOfStrata(d), length(unique(infert$stratum)))
  expect_equal(getNumberOfCovariates(d), 2)
  expect_equal(as.character(getCovariateIds(d)), c("11", "12"))
  expect_s3_class(getCovariateIds(d), "integer64")
  expect_equal(d$coefficientNames, c("11", "12"))
  expect_equal(unname(getCovariateTypes(d, c(11, 12))), c("sparse", "sparse"))
  lr <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "lr", quiet = TRUE)
  expect_equal(lr$coefficientNames, c("(Intercept)", "11", "12"))
  expect_equal(as.character(getCovariateIds(lr)), c("0", "11", "12"))
  pr <- data.frame(rowId = 1:3, y = c(1, 0, 2), time = c(1, 0, 2))
  expect_error(convertToCyclopsData(pr, data.frame(rowId = 1, covariateId = 1, covariateValue = 1),
                                    modelType = "pr"), "non-positive")
  cox <- data.frame(rowId = 1:3, y = c(0, 1, 2), time = 1:3)
  expect_error(convertToCyclopsData(cox, data.frame(rowId = 1, covariateId = 1, covariateValue = 1),
                                    modelType = "cox"), "one outcome type")
  expect_message(convertToCyclopsData(long$outcomes[1:100, ], long$covariates, modelType = "clr",
                                      addIntercept = FALSE), "Removing covariate values")
})

test_that("rowIds match as numbers across integer and double vectors, large ids too", {
  set.seed(3)
  n <- 60
  ids <- 2^52 + seq_len(n) * 3  # doubles near the largest whole numbers they hold
  outcomes <- data.frame(rowId = ids, y = rbinom(n, 1, 0.4))
  x <- rbinom(n, 1, 0.5)
  covariates <- data.frame(rowId = ids[x == 1], covariateId = 7L, covariateValue = 1)
  expect_silent(d <- convertToCyclopsData(outcomes, covariates, modelType = "lr"))
  reference <- unname(coef(glm(outcomes$y ~ x, family = binomial)))
  expect_equal(unname(coef(fitCyclopsModel(d))), reference, tolerance = 1e-6)
  small <- data.frame(rowId = seq_len(n), y = outcomes$y)  # integer ids, double ones in covariates
  d <- convertToCyclopsData(small, data.frame(rowId = as.double(which(x == 1)), covariateId = 7,
                                              covariateValue = 1), modelType = "lr")
  expect_equal(unname(coef(fitCyclopsModel(d))), reference, tolerance = 1e-6)
  extra <- rbind(covariates, data.frame(rowId = 2^52 + 1, covariateId = 7L, covariateValue = 1))
  expect_message(convertToCyclopsData(outcomes, extra, modelType = "lr"), "Removing covariate values")
  # one fractional covariate rowId among whole ones: only its row goes (as text, the whole ids
  # printed as "1.0" and matched no outcome, so every covariate row went)
  fractional <- data.frame(rowId = c(as.double(which(x == 1)), 2.5), covariateId = 7,
                           covariateValue = 1)
  expect_message(d <- convertToCyclopsData(small, fractional, modelType = "lr"),
                 "Removing covariate values")
  expect_equal(unname(coef(fitCyclopsModel(d))), reference, tolerance = 1e-6)
})

test_that("floatingPoint: 64 and 32 are taken (32 is recorded, the arithmetic stays double)", {
  long <- infertLong()
  d64 <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "lr", quiet = TRUE,
                              floatingPoint = 64)
  expect_message(d32 <- convertToCyclopsData(long$outcomes, long$covariates, modelType = "lr",
                                             quiet = TRUE, floatingPoint = 32), "double precision")
  expect_equal(getFloatingPointSize(d64), 64)
  expect_equal(getFloatingPointSize(d32), 32)
  expect_identical(coef(fitCyclopsModel(d32)), coef(fitCyclopsModel(d64)))
  expect_error(convertToCyclopsData(long$outcomes, long$covariates, floatingPoint = 16),
               "floating point")
})

test_that("database tables (what Andromeda holds) give the fit of the same data frames", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  long <- infertLong()
  long$covariates$extra <- 1  # columns other than the three are ignored, as CohortMethod's stratumId
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  shuffled <- long$outcomes[sample(nrow(long$outcomes)), ]
  DBI::dbWriteTable(con, "outcomes", shuffled)
  DBI::dbWriteTable(con, "covariates", long$covariates)
  for (modelType in c("clr", "lr")) {
    fromTables <- convertToCyclopsData(dplyr::tbl(con, "outcomes"), dplyr::tbl(con, "covariates"),
                                       modelType = modelType, quiet = TRUE)
    fromFrames <- convertToCyclopsData(long$outcomes, long$covariates, modelType = modelType,
                                       quiet = TRUE)
    expect_equal(coef(fitCyclopsModel(fromTables)), coef(fitCyclopsModel(fromFrames)),
                 tolerance = 1e-10)
  }
  # predict() reads new rows from tables too
  fit <- fitCyclopsModel(fromFrames)
  expect_equal(predict(fit, dplyr::tbl(con, "outcomes"), dplyr::tbl(con, "covariates")),
               predict(fit), tolerance = 1e-12)
})

test_that("formulas: strata(), offset(), sparse and indicator columns, factor levels", {
  d <- createCyclopsData(case ~ spontaneous + induced + strata(stratum), data = infert,
                         modelType = "clr")
  expect_equal(d$coefficientNames, c("spontaneous", "induced"))
  expect_equal(getNumberOfStrata(d), 83)
  expect_equal(as.character(getCovariateIds(d)), c("1", "2"))
  dobson <- data.frame(counts = c(18, 17, 15, 20, 10, 20, 25, 13, 12), outcome = gl(3, 1, 9),
                       treatment = gl(3, 3))
  mixed <- createCyclopsData(counts ~ outcome, indicatorFormula = ~treatment, data = dobson,
                             modelType = "pr")
  expect_equal(mixed$coefficientNames, c("(Intercept)", "outcome2", "outcome3", "treatment2", "treatment3"))
  expect_equal(as.character(summary(mixed)[, "type"]), c("dense", "dense", "dense", "indicator", "indicator"))
  gold <- glm(counts ~ outcome + treatment, family = poisson(), data = dobson)
  expect_equal(coef(fitCyclopsModel(mixed)), coef(gold), tolerance = 1e-5)
  # a column without a nonzero value is kept and not estimable, as in glm
  dobson$never <- 0
  expect_warning(f <- fitCyclopsModel(createCyclopsData(counts ~ outcome + never, data = dobson,
                                                        modelType = "pr")), "cannot be estimated")
})

test_that("Surv(start, stop, status) is a counting process, as coxph reads it", {
  heart <- survival::heart
  gold <- coxph(Surv(start, stop, event) ~ age + surgery + transplant, data = heart,
                ties = "breslow")
  d <- createCyclopsData(Surv(start, stop, event) ~ age + surgery + transplant, data = heart,
                         modelType = "cox")
  fit <- fitCyclopsModel(d)
  expect_equal(coef(fit), coef(gold), tolerance = 1e-5)
  expect_equal(fit$log_likelihood, gold$loglik[2], tolerance = 1e-8)
  # the incumbent's reading, the intervals' lengths from 0, is another model
  lengths <- coxph(Surv(stop - start, event) ~ age + surgery + transplant, data = heart,
                   ties = "breslow")
  expect_gt(max(abs(coef(fit) - coef(lengths))), 0.01)
})
