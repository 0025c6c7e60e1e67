# predict() against predict.glm / predict.lm, for the fitted rows and for new data given as
# a matrix, a dgCMatrix, a data frame (formula fits), a long covariates table or argusData.

# predict() gives the response scale by default for lr, pr and ls (as the incumbent); these tests
# ask for the link by name.
predictLink <- function(...) predict(..., type = "link")

test_that("lr: link and response equal predict.glm, fitted rows and shuffled new data", {
  sim <- simulateLogistic(n = 300, p = 4, seed = 31)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  ref <- glmRef(sim$x, sim$y, stats::binomial())
  expect_equal(predictLink(fit), stats::predict(ref), tolerance = 1e-7)
  expect_equal(predict(fit, type = "response"), stats::fitted(ref), tolerance = 1e-7)
  # The default is the response scale, as the incumbent's predict() (a propensity score is a
  # probability), not predict.glm's link.
  expect_identical(predict(fit), predict(fit, type = "response"))
  expect_true(all(predict(fit) > 0 & predict(fit) < 1))
  expect_equal(names(predictLink(fit)), as.character(1:300))

  set.seed(32)
  newX <- simulateDesign(50, 4, seed = 33)
  shuffled <- newX[, c("c", "a", "d", "b")]
  want <- drop(cbind(1, newX) %*% stats::coef(ref))
  expect_equal(unname(predictLink(fit, shuffled)), want, tolerance = 1e-7)
  expect_equal(unname(predict(fit, shuffled, type = "response")), stats::plogis(want),
               tolerance = 1e-7)
  sparse <- Matrix::Matrix(cbind(extra = 1, shuffled), sparse = TRUE)
  expect_equal(unname(predictLink(fit, sparse)), want, tolerance = 1e-7)
  # without column names: the model's covariates in coef() order
  expect_equal(unname(predictLink(fit, unname(newX))), want, tolerance = 1e-7)
  expect_error(predictLink(fit, shuffled[, -2]), "lacks column\\(s\\) for covariate\\(s\\) a")
  expect_error(predictLink(fit, unname(shuffled[, -1])), "no column names")
  expect_error(predictLink(fit, list(1)), "must be an argusData")
})

test_that("pr: the response is time * exp(link) when time is known, a rate otherwise", {
  sim <- simulatePoisson(n = 300, p = 3, seed = 34)
  fit <- fitModel(createData(x = sim$x, y = sim$y, time = sim$time, modelType = "pr"),
                  control = tightControl())
  ref <- glmRef(sim$x, sim$y, stats::poisson(), offset = log(sim$time))
  expect_equal(predict(fit, type = "response"), stats::fitted(ref), tolerance = 1e-7)
  expect_equal(predictLink(fit), stats::predict(ref) - log(sim$time), tolerance = 1e-7)
  newX <- sim$x[1:20, 3:1]
  rate <- exp(drop(cbind(1, sim$x[1:20, ]) %*% stats::coef(ref)))
  expect_equal(unname(predict(fit, newX, type = "response")), rate, tolerance = 1e-7)
  expect_equal(unname(predict(fit, newX, type = "response", time = sim$time[1:20])),
               unname(stats::fitted(ref)[1:20]), tolerance = 1e-7)
})

test_that("ls: the response is the link and equals predict.lm", {
  sim <- simulateGaussian(n = 100, p = 3, seed = 35)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "ls"), control = tightControl())
  ref <- stats::lm(y ~ ., data = data.frame(y = sim$y, sim$x))
  newdata <- data.frame(simulateDesign(10, 3, seed = 36))
  expect_equal(unname(predict(fit, as.matrix(newdata), type = "response")),
               unname(stats::predict(ref, newdata)), tolerance = 1e-7)
  expect_equal(predict(fit, type = "response"), predict(fit))
})

test_that("formula fits predict from a data frame: factors, contrasts and offsets", {
  set.seed(37)
  n <- 300
  frame <- data.frame(age = round(rnorm(n, 50, 10)), group = factor(sample(c("u", "v", "w"), n,
                                                                           replace = TRUE)),
                      exposure = runif(n, 0.5, 2))
  frame$y <- rpois(n, frame$exposure * exp(-2 + 0.02 * frame$age + (frame$group == "v")))
  formula <- y ~ age + group + offset(log(exposure))
  fit <- fitModel(createData(formula, data = frame, modelType = "pr"), control = tightControl())
  ref <- stats::glm(formula, data = frame, family = stats::poisson(),
                    control = stats::glm.control(epsilon = 1e-14))
  newdata <- frame[c(5, 1, 9, 200), c("group", "exposure", "age")]
  newdata$group <- factor(as.character(newdata$group))  # fewer levels than in the fit
  expect_equal(predictLink(fit, newdata), stats::predict(ref, newdata), tolerance = 1e-7)
  expect_equal(predict(fit, newdata, type = "response"),
               stats::predict(ref, newdata, type = "response"), tolerance = 1e-7)
  expect_equal(names(predictLink(fit, newdata)), c("5", "1", "9", "200"))

  lr <- fitModel(createData(case ~ spontaneous + factor(education), data = datasets::infert,
                            modelType = "lr"), control = tightControl())
  refLr <- stats::glm(case ~ spontaneous + factor(education), data = datasets::infert,
                      family = stats::binomial(), control = stats::glm.control(epsilon = 1e-14))
  expect_equal(predict(lr, datasets::infert[20:30, ], type = "response"),
               stats::predict(refLr, datasets::infert[20:30, ], type = "response"),
               tolerance = 1e-7)
})

test_that("long covariates tables and argusData objects as new data", {
  sim <- simulateLogistic(n = 200, p = 3, seed = 38)
  ids <- c(71, 72, 73)
  long <- toLong(sim$x, sim$y, rowIds = 1000 + 1:200, covariateIds = ids)
  fit <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"),
                  control = tightControl())
  byMatrix <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"), control = tightControl())
  expect_equal(unname(predictLink(fit)), unname(predictLink(byMatrix)), tolerance = 1e-7)
  expect_equal(names(predictLink(fit)), as.character(1000 + 1:200))

  # shuffled entries, an unknown covariate (ignored), rows named by outcomes in their order
  set.seed(39)
  covariates <- long$covariates[sample(nrow(long$covariates)), ]
  covariates <- rbind(covariates, data.frame(rowId = 1001, covariateId = 999, covariateValue = 5))
  outcomes <- data.frame(rowId = c(1010, 1001, 1150))
  p <- predictLink(fit, covariates, outcomes = outcomes)
  expect_equal(names(p), c("1010", "1001", "1150"))
  expect_equal(unname(p), unname(predictLink(byMatrix)[c(10, 1, 150)]), tolerance = 1e-7)
  # without outcomes: sorted row ids that have covariates; no covariateValue means 1
  allRows <- predictLink(fit, covariates)
  expect_false(is.unsorted(as.numeric(names(allRows))))
  ind <- data.frame(rowId = c(5, 5, 6), covariateId = c(72, 71, 72))
  expect_equal(unname(predictLink(fit, ind)),
               unname(c(sum(coef(fit)[c("(Intercept)", "71", "72")]),
                        sum(coef(fit)[c("(Intercept)", "72")]))))
  # entries of rows not asked for are ignored
  expect_equal(predictLink(fit, covariates, outcomes = data.frame(rowId = 1001)), p["1001"])

  # argusData new data, rows shuffled, with an offset
  shuffle <- sample(200)
  newData <- createData(x = sim$x[shuffle, c(3, 1, 2)], y = sim$y[shuffle], modelType = "lr",
                        offset = rep(0.5, 200))
  expect_equal(unname(predictLink(byMatrix, newData)), unname(predictLink(byMatrix))[shuffle] + 0.5,
               tolerance = 1e-7)
  # covariates matched by identifier; new data without an intercept column still get it
  longNew <- toLong(sim$x[1:20, 2:3], sim$y[1:20], rowIds = 1:20, covariateIds = ids[2:3])
  newLong <- createData(longNew$outcomes, longNew$covariates, modelType = "lr",
                        addIntercept = FALSE)
  expect_equal(unname(predictLink(fit, newLong)), unname(predictLink(byMatrix)[1:20]) -
                 sim$x[1:20, 1] * coef(fit)[["71"]], tolerance = 1e-7)
})

test_that("conditional models: link x'beta, response exp(link); dropped strata are NA", {
  sim <- simulateSccs(nPatients = 150, nDrugs = 4, seed = 40)
  data <- createData(sim$outcomes, sim$covariates, modelType = "sccs")
  fit <- fitModel(data, control = tightControl())
  beta <- coef(fit)[as.character(sim$covariateIds)]
  eta <- drop(sim$x %*% beta)
  dropped <- ave(sim$y, sim$stratumId, FUN = sum) == 0
  expect_gt(sum(dropped), 0)
  link <- predictLink(fit)
  expect_equal(names(link), as.character(sim$rowId))
  expect_true(all(is.na(link[dropped])))
  expect_equal(unname(link[!dropped]), eta[!dropped], tolerance = 1e-10)
  expect_equal(predict(fit, type = "response"), exp(link))
  # new data: every row gets a relative risk, whatever its stratum
  expect_equal(unname(predict(fit, sim$covariates, outcomes = sim$outcomes, type = "response")),
               exp(eta), tolerance = 1e-10)
})

test_that("levels no row uses are dropped as glm drops them, and new ones are refused", {
  mt <- mtcars
  mt$cyl <- factor(mt$cyl, levels = c(4, 6, 8, 10))  # 10: a level no car has
  fit <- fitModel(createData(am ~ wt + cyl, data = mt, modelType = "lr"))
  ref <- glm(am ~ wt + cyl, family = binomial, data = mt)
  # no all-zero column for the unused level, so no NA coefficient and no warning
  expect_equal(names(coef(fit)), names(coef(ref)))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  newdata <- mt[c(1, 3), ]
  newdata$cyl <- c("4", "10")
  # glm says "new levels 10", though 10 is a level of the user's factor: Argus says why
  expect_error(predict(fit, newdata),
               "level\\(s\\) '10' of 'cyl' that no row of the fitted data had.*fitted levels: '4', '6', '8'")
  expect_error(predict(ref, newdata), "new levels? 10")
  newdata$cyl <- factor(c("4", "10"), levels = c(4, 6, 8, 10))
  expect_error(predict(fit, newdata), "'10' of 'cyl' that no row of the fitted data had")
  newdata$cyl <- factor(c("4", NA), levels = c(4, 6, 8, 10))
  expect_true(is.na(predict(fit, newdata)[2]))
})

test_that("a rank-deficient fit warns on new data as predict.lm; missing values give NA", {
  mt <- mtcars
  mt$double <- 2 * mt$wt
  fit <- suppressWarnings(fitModel(createData(mpg ~ wt + double + hp, data = mt, modelType = "ls")))
  ref <- lm(mpg ~ wt + double + hp, data = mt)
  newdata <- mt[1:4, ]
  expect_warning(p <- predict(fit, newdata), "rank-deficient")
  expect_equal(p, suppressWarnings(predict(ref, newdata)), tolerance = 1e-8)
  expect_no_warning(predict(fit))  # the fitted rows: no warning, as predict.lm
  # A missing covariate value: NA for that row, the others as before (predict.glm's na.pass).
  full <- fitModel(createData(am ~ wt + hp, data = mt, modelType = "lr"))
  glmRef <- glm(am ~ wt + hp, family = binomial, data = mt)
  newdata$hp[2] <- NA
  expected <- predict(glmRef, newdata, type = "response")
  expect_equal(predict(full, newdata), expected, tolerance = 1e-6)
  expect_true(is.na(predict(full, newdata)[[2]]))
  # ... and so does a missing offset or exposure time (Poisson)
  ins <- MASS::Insurance[1:16, ]
  pr <- fitModel(createData(Claims ~ Age + offset(log(Holders)), data = ins, modelType = "pr"))
  prRef <- glm(Claims ~ Age + offset(log(Holders)), family = poisson, data = ins)
  ins$Holders[3] <- NA
  expect_equal(unname(predict(pr, ins, type = "link")), unname(predict(prRef, ins)), tolerance = 1e-6)
  expect_true(is.na(predict(pr, ins, type = "link")[[3]]))
  exposure <- fitModel(createData(Claims ~ Age, data = ins[-3, ], modelType = "pr", time = Holders))
  expect_true(is.na(predict(exposure, ins, time = ins$Holders)[[3]]))
  expect_error(predict(exposure, ins, time = replace(ins$Holders, 4, Inf)), "'time' has 1 infinite")
})

test_that("an infinite covariate value in new rows is an error naming the row and the covariate, on every route", {
  # Issue 38: a matrix row with an Inf came back 1 with no message, where createData()
  # refuses Inf. Missing values still give NA (predict.glm's na.pass).
  sim <- simulateLogistic(n = 200, p = 3, seed = 38)
  fit <- fitModel(createData(x = sim$x, y = sim$y, modelType = "lr"))
  x <- sim$x[1:5, ]
  x[3, "b"] <- Inf
  expect_error(predict(fit, x), "'newdata' has an infinite value \\(Inf\\) for row 3, covariate 'b'")
  rownames(x) <- paste0("r", 1:5)
  expect_error(predict(fit, x), "for row r3, covariate 'b'")
  expect_error(predict(fit, Matrix::Matrix(x, sparse = TRUE)), "infinite value \\(Inf\\) for row r3, covariate 'b'")
  x[3, "b"] <- NA
  x[4, "c"] <- NaN
  expect_equal(is.na(predict(fit, x)), c(r1 = FALSE, r2 = FALSE, r3 = TRUE, r4 = TRUE, r5 = FALSE))
  # formula fits: the data frame's row names
  frame <- data.frame(y = sim$y, sim$x)
  byFormula <- fitModel(createData(y ~ a + b + c, data = frame, modelType = "lr"))
  newFrame <- frame[1:4, ]
  newFrame$c[2] <- -Inf
  expect_error(predict(byFormula, newFrame), "infinite value \\(-Inf\\) for row 2, covariate 'c'")
  # long tables: the rowId and covariate id
  long <- toLong(sim$x, sim$y, rowIds = 101:300, covariateIds = c(7, 8, 9))
  byLong <- fitModel(createData(long$outcomes, long$covariates, modelType = "lr"))
  newLong <- long$covariates[long$covariates$rowId <= 110, ]
  newLong$covariateValue[5] <- Inf
  expect_error(predict(byLong, newLong),
               sprintf("infinite value \\(Inf\\) for row %d, covariate '%d'", newLong$rowId[5], newLong$covariateId[5]))
  # offsets and exposure times were already refused
  expect_error(predict(fit, sim$x[1:5, ], offset = c(0, 0, Inf, 0, 0)), "'offset' has 1 infinite value")
})
