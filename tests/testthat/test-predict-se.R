# predict(se.fit = TRUE) against predict.coxph and predict.glm, on lung, veteran, birthwt and
# MASS::Insurance, on every newdata route.

test_that("Cox link standard errors equal predict.coxph(type = \"lp\", reference = \"zero\")", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  vet <- survival::veteran
  newLung <- data.frame(age = c(50, 70, 62), sex = c(1, 2, 2), ph.ecog = c(0, 2, 1), wt.loss = c(0, 10, 5))
  cases <- list(list(f = Surv(time, status) ~ age + sex + factor(ph.ecog) + wt.loss, data = lung, new = newLung),
                list(f = Surv(time, status) ~ karno + age + celltype + strata(trt), data = vet,
                     new = vet[c(3, 50, 120), ]))
  for (case in cases) for (ties in c("efron", "breslow")) {
    ref <- coxRef(case$f, case$data, ties = ties)
    fit <- fitModel(createData(case$f, data = case$data, modelType = "cox", ties = ties), control = survivalControl())
    label <- paste(ties, deparse(case$f[[3]]))
    for (newdata in list(NULL, case$new)) {
      ours <- predict(fit, newdata, type = "link", se.fit = TRUE)
      reference <- if (is.null(newdata)) predict(ref, type = "lp", reference = "zero", se.fit = TRUE)
                   else predict(ref, newdata, type = "lp", reference = "zero", se.fit = TRUE)
      expect_equal(names(ours), c("fit", "se.fit"))
      expect_lt(max(abs(ours$fit - reference$fit)), 1e-8, label = label)
      expect_lt(max(abs(ours$se.fit - reference$se.fit)), 1e-8, label = label)
      expect_equal(names(ours$se.fit), names(ours$fit))
      # risk: the delta method, exp(lp) times the lp's standard error; predict.coxph
      # multiplies by sqrt(exp(lp)) (survival issue #306), so ours is its value times sqrt(risk)
      risk <- predict(fit, newdata, type = "risk", se.fit = TRUE)
      coxRisk <- if (is.null(newdata)) predict(ref, type = "risk", reference = "zero", se.fit = TRUE)
                 else predict(ref, newdata, type = "risk", reference = "zero", se.fit = TRUE)
      expect_lt(max(abs(risk$fit / coxRisk$fit - 1)), 1e-8, label = label)
      expect_lt(max(abs(risk$se.fit / (coxRisk$se.fit * sqrt(coxRisk$fit)) - 1)), 1e-8, label = label)
      expect_equal(predict(fit, newdata, type = "response", se.fit = TRUE), risk)
    }
  }
})

test_that("Cox standard errors follow vcov(): a cluster() term gives coxph's robust ones", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  f <- Surv(time, status) ~ age + sex + ph.ecog + cluster(inst)
  ref <- coxRef(f, lung, ties = "efron")
  fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "efron"), control = survivalControl())
  ours <- predict(fit, type = "link", se.fit = TRUE)
  expect_lt(max(abs(ours$se.fit - predict(ref, type = "lp", reference = "zero", se.fit = TRUE)$se.fit)), 1e-8)
})

test_that("lr, pr and ls standard errors equal predict.glm(se.fit = TRUE) on link and response", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  bw$race <- factor(bw$race, labels = c("white", "black", "other"))
  insurance <- MASS::Insurance
  tight <- glm.control(epsilon = 1e-14, maxit = 100)
  control <- createControl(tolerance = 1e-13, maxIterations = 10000)
  cases <- list(
    list(ref = glm(low ~ age + lwt + race + smoke, family = binomial, data = bw, control = tight),
         fit = fitModel(createData(low ~ age + lwt + race + smoke, data = bw, modelType = "lr"), control = control),
         new = bw[c(10, 20, 150), ]),
    list(ref = glm(Claims ~ District + Group + Age + offset(log(Holders)), family = poisson, data = insurance,
                   control = tight),
         fit = fitModel(createData(Claims ~ District + Group + Age, data = insurance, time = Holders,
                                   modelType = "pr"), control = control),
         new = insurance[c(1, 33, 64), ]),
    list(ref = glm(bwt ~ age + lwt + race + smoke, data = bw, weights = ptl + 1, control = tight),
         fit = fitModel(createData(bwt ~ age + lwt + race + smoke, data = bw, modelType = "ls", weights = ptl + 1),
                        control = control),
         new = bw[c(1, 2, 3), ]))
  for (case in cases) for (type in c("link", "response")) for (newdata in list(NULL, case$new)) {
    label <- paste(case$fit$modelType, type, if (is.null(newdata)) "fitted" else "newdata")
    ours <- predict(case$fit, newdata, type = type, se.fit = TRUE)
    reference <- if (is.null(newdata)) predict(case$ref, type = type, se.fit = TRUE)
                 else predict(case$ref, newdata, type = type, se.fit = TRUE)
    expect_equal(names(ours), c("fit", "se.fit", "residual.scale"))
    # (a pr link leaves out the exposure, which glm's offset(log(Holders)) holds)
    exposure <- if (case$fit$modelType == "pr" && type == "link")
      log(if (is.null(newdata)) insurance$Holders else newdata$Holders) else 0
    expect_lt(max(abs(ours$fit + exposure - reference$fit) / abs(reference$fit)), 1e-8, label = label)
    expect_lt(max(abs(ours$se.fit - reference$se.fit) / reference$se.fit), 1e-8, label = label)
    expect_lt(abs(ours$residual.scale - reference$residual.scale), 1e-8, label = label)
    expect_equal(names(ours$se.fit), names(reference$se.fit))
  }
})

test_that("se.fit is the same on every newdata route, NA where the prediction is, and padded by na.exclude", {
  set.seed(31)
  n <- 120
  x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.3), c = rnorm(n))
  y <- rbinom(n, 1, plogis(0.3 + x[, 1] - x[, 2]))
  data <- createData(x = x, y = y, modelType = "lr")
  fit <- fitModel(data, control = createControl(tolerance = 1e-12))
  byMatrix <- predict(fit, x, type = "link", se.fit = TRUE)
  expect_equal(unname(predict(fit, type = "link", se.fit = TRUE)$se.fit), unname(byMatrix$se.fit))
  expect_equal(unname(predict(fit, data, type = "link", se.fit = TRUE)$se.fit), unname(byMatrix$se.fit))
  long <- data.frame(rowId = rep(seq_len(n), 3), covariateId = rep(colnames(x), each = n), covariateValue = c(x))
  long <- long[long$covariateValue != 0, ]
  expect_equal(unname(predict(fit, long, type = "link", se.fit = TRUE)$se.fit), unname(byMatrix$se.fit))
  withNa <- x[1:3, ]
  withNa[2, "a"] <- NA
  expect_equal(is.na(predict(fit, withNa, type = "response", se.fit = TRUE)$se.fit), c(FALSE, TRUE, FALSE))
  df <- data.frame(x, y = y)
  df$a[5] <- NA
  exclude <- fitModel(createData(y ~ a + b + c, data = df, modelType = "lr", na.action = "na.exclude"))
  ref <- glm(y ~ a + b + c, family = binomial, data = df, na.action = na.exclude,
             control = glm.control(epsilon = 1e-14, maxit = 100))
  ours <- predict(exclude, se.fit = TRUE)
  expect_equal(length(ours$se.fit), n)
  expect_true(is.na(ours$se.fit[5]))
  expect_lt(max(abs(ours$se.fit - predict(ref, type = "response", se.fit = TRUE)$se.fit), na.rm = TRUE), 1e-6)
  expect_error(predict(fit, x, se.fit = NA), "'se.fit' must be TRUE or FALSE")
  # an intercept-only model: the intercept's variance alone (an empty design stopped Matrix)
  null <- fitModel(createData(y ~ 1, data = df[-5, ], modelType = "lr"), control = createControl(tolerance = 1e-12))
  nullRef <- glm(y ~ 1, family = binomial, data = df[-5, ], control = glm.control(epsilon = 1e-14, maxit = 100))
  expect_lt(max(abs(predict(null, se.fit = TRUE)$se.fit - predict(nullRef, type = "response", se.fit = TRUE)$se.fit)),
            1e-8)
  expect_equal(unname(predict(null, createData(y ~ 1, data = df[1:3, ], modelType = "lr"), se.fit = TRUE)$se.fit),
               unname(predict(null, se.fit = TRUE)$se.fit[1:3]))
  skip_if_not_installed("survival")
  lung <- lungComplete()
  cox <- fitModel(createData(Surv(time, status) ~ age, data = lung, modelType = "cox", ties = "efron"))
  expect_error(predict(cox, type = "survival", se.fit = TRUE), "survfit")
})
