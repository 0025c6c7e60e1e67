# R conventions of the formula route: weights = a column, na.action, cluster(), tibbles,
# Fine-Gray status as a factor or with failcode.

test_that("weights = a column name in the formula route, as lm()", {
  set.seed(6)
  df <- data.frame(a = rnorm(100), iptw = runif(100, 1, 4))
  df$y <- rbinom(100, 1, plogis(df$a))
  byName <- fitModel(createData(y ~ a, data = df, modelType = "lr", weights = iptw))
  byVector <- fitModel(createData(y ~ a, data = df, modelType = "lr", weights = df$iptw))
  expect_equal(coef(byName), coef(byVector))
  ref <- suppressWarnings(glm(y ~ a, family = binomial, data = df, weights = iptw))
  expect_lt(max(abs(coef(byName) - coef(ref))), 1e-5)
  # an expression of columns, and a variable of the caller when the data have no such column
  half <- fitModel(createData(y ~ a, data = df, modelType = "lr", weights = iptw / 2))
  expect_lt(max(abs(coef(half) - coef(byName))), 1e-6)
  local({
    myWeights <- df$iptw
    expect_equal(coef(fitModel(createData(y ~ a, data = df, modelType = "lr", weights = myWeights))),
                 coef(byName))
  })
  # the column wins over a variable of the same name where createData() is called (as lm)
  local({
    iptw <- rep(1, 7)
    expect_equal(coef(fitModel(createData(y ~ a, data = df, modelType = "lr", weights = iptw))),
                 coef(byName))
  })
  expect_error(createData(y ~ a, data = df, modelType = "lr", weights = nope), "nope")
})

test_that("na.action: na.fail an error, na.omit and na.exclude as in glm", {
  df <- data.frame(a = c(rnorm(48), NA, 1), b = rnorm(50))
  set.seed(7)
  df$y <- rbinom(50, 1, 0.5)
  df$b[3] <- NA
  expect_error(createData(y ~ a + b, data = df, modelType = "lr", na.action = na.fail),
               "2 row\\(s\\).*in 'a', 'b'.*na.omit")
  # a strata() variable is named, not called a covariate
  sets <- datasets::infert
  sets$stratum[3] <- NA
  expect_error(createData(case ~ spontaneous + strata(stratum), data = sets, modelType = "clr",
                          na.action = na.fail),
               "1 row\\(s\\) of 'data' have missing values in 'stratum'")
  # the default is getOption("na.action"), na.omit unless set otherwise, as glm's
  expect_identical(createData(y ~ a + b, data = df, modelType = "lr")$naAction,
                   createData(y ~ a + b, data = df, modelType = "lr", na.action = na.omit)$naAction)
  omit <- fitModel(createData(y ~ a + b, data = df, modelType = "lr", na.action = na.omit),
                   control = createControl(tolerance = 1e-12, maxIterations = 1000))
  ref <- glm(y ~ a + b, family = binomial, data = df, na.action = na.omit,
             control = glm.control(epsilon = 1e-14))
  expect_lt(max(abs(coef(omit) - coef(ref))), 1e-6)
  expect_equal(nobs(omit), 48)
  expect_equal(names(residuals(omit)), names(residuals(ref)))
  exclude <- fitModel(createData(y ~ a + b, data = df, modelType = "lr", na.action = "na.exclude"),
                      control = createControl(tolerance = 1e-12, maxIterations = 1000))
  refEx <- update(ref, na.action = na.exclude)
  expect_equal(length(residuals(exclude)), 50)
  expect_equal(unname(which(is.na(residuals(exclude)))), c(3, 49))
  expect_lt(max(abs(residuals(exclude) - residuals(refEx)), na.rm = TRUE), 1e-6)
  expect_lt(max(abs(fitted(exclude) - fitted(refEx)), na.rm = TRUE), 1e-6)
  # predict() without newdata pads as predict.glm does; fitted() is not padded twice
  for (type in c("link", "response")) {
    mine <- predict(exclude, type = type)
    expect_equal(length(mine), 50)
    expect_equal(unname(which(is.na(mine))), c(3, 49))
    expect_lt(max(abs(mine - predict(refEx, type = type)), na.rm = TRUE), 1e-6)
  }
  expect_equal(length(fitted(exclude)), 50)
  expect_equal(length(predict(omit)), 48)
  # Rows are named by the data frame's row names, as glm names them: a subset (5..50) and
  # character names, each with a row left out; the names once were positions, and with
  # na.exclude the left-out row's name could repeat a kept row's.
  for (sub in list(df[5:50, ], `rownames<-`(df, paste0("p", 1:50)))) {
    mine <- fitModel(createData(y ~ a + b, data = sub, modelType = "lr", na.action = na.exclude))
    theirs <- glm(y ~ a + b, family = binomial, data = sub, na.action = na.exclude)
    expect_equal(names(fitted(mine)), names(fitted(theirs)))
    expect_equal(names(residuals(mine)), names(residuals(theirs)))
    expect_equal(names(predict(mine)), names(predict(theirs)))
    expect_false(anyDuplicated(names(fitted(mine))) > 0)
    expect_lt(max(abs(fitted(mine) - fitted(theirs)), na.rm = TRUE), 1e-5)
  }
  expect_error(createData(y ~ a, data = df, modelType = "lr", na.action = "na.pass"), "na.omit")
  expect_error(createData(x = matrix(1:4, 2), y = 0:1, modelType = "lr", na.action = na.omit),
               "formula route")
})

test_that("tibbles are read without warnings", {
  skip_if_not_installed("tibble")
  skip_if_not_installed("survival")
  lung <- lungComplete()
  tb <- tibble::as_tibble(lung)
  expect_no_warning(fit <- fitModel(createData(Surv(time, status) ~ age + sex + strata(inst),
                                               data = tb, modelType = "cox", ties = "breslow")))
  expect_equal(coef(fit), coef(fitModel(createData(Surv(time, status) ~ age + sex + strata(inst),
                                                   data = lung, modelType = "cox", ties = "breslow"))))
  expect_no_warning(predict(fit, tb[1:4, ], type = "survival", times = 200))
  tbl <- tibble::tibble(a = rnorm(30), y = rep(0:1, 15))
  expect_no_warning(fitModel(createData(y ~ a, data = tbl, modelType = "lr", weights = rep(1, 30))))
  expect_no_warning(augment(fit, data = tb))
})

test_that("Fine-Gray: factor and multi-state status with failcode, as cmprsk::crr", {
  skip_if_not_installed("cmprsk")
  set.seed(8)
  n <- 300
  df <- data.frame(a = rnorm(n), b = rbinom(n, 1, 0.5), time = rexp(n))
  df$code <- sample(0:2, n, TRUE, prob = c(0.3, 0.4, 0.3))
  df$cause <- factor(c("censored", "relapse", "death")[df$code + 1],
                     levels = c("censored", "relapse", "death"))
  x <- as.matrix(df[, c("a", "b")])
  for (failcode in 1:2) {
    ref <- crrRef(df$time, df$code, x, failcode = failcode)
    numeric <- fitModel(createData(Surv(time, code) ~ a + b, data = df, modelType = "fgr",
                                   failcode = failcode), control = survivalControl())
    expect_lt(maxRelDiff(coef(numeric), ref$coef), 1e-6)
    byFactor <- fitModel(createData(Surv(time, cause) ~ a + b, data = df, modelType = "fgr",
                                    failcode = levels(df$cause)[failcode + 1]), control = survivalControl())
    expect_equal(coef(byFactor), coef(numeric))
    matrixRoute <- fitModel(createData(x = x, y = df$cause, time = df$time, modelType = "fgr",
                                       failcode = levels(df$cause)[failcode + 1]), control = survivalControl())
    expect_equal(coef(matrixRoute), coef(numeric))
  }
  # a factor's second level is the default event of interest
  default <- createData(Surv(time, cause) ~ a + b, data = df, modelType = "fgr")
  expect_equal(sum(default$y == 1), sum(df$code == 1))
  expect_error(createData(Surv(time, cause) ~ a, data = df, modelType = "fgr", failcode = "censored"),
               "not an event level")
  expect_error(createData(Surv(time, code) ~ a, data = df, modelType = "cox", ties = "breslow", failcode = 1), "fgr")
})

test_that("after na.omit, per-row inputs take one value per kept row or per row given", {
  mt <- mtcars
  mt$hp[c(3, 10)] <- NA
  d <- createData(am ~ wt + hp, data = mt, modelType = "lr", na.action = na.omit)
  w <- seq(0.5, 2, length.out = 32)
  ref <- glm(am ~ wt + hp, family = quasibinomial, data = mt, weights = w, na.action = na.omit)
  full <- fitModel(d, weights = w)                 # one per row of the data frame
  kept <- fitModel(d, weights = w[-c(3, 10)])      # one per kept row
  expect_equal(coef(full), coef(kept))
  expect_equal(unname(coef(full)), unname(coef(ref)), tolerance = 1e-6)
  expect_error(fitModel(d, weights = w[1:31]),
               "'weights' has 31 values but the data have 30 rows \\(32 given to createData\\(\\), 2 left out")
  # cluster labels and fold ids alike
  cl <- rep(1:8, each = 4)
  expect_equal(vcov(kept, type = "robust", cluster = cl), vcov(kept, type = "robust", cluster = cl[-c(3, 10)]))
  expect_error(vcov(kept, type = "robust", cluster = cl[1:5]), "'cluster' has 5 values")
})

test_that("Surv() arguments as survival matches them, and columns named in time = and friends", {
  skip_if_not_installed("survival")
  v <- survival::veteran
  ref <- survival::coxph(survival::Surv(time, status) ~ karno + age, data = v, ties = "breslow")
  for (f in list(Surv(time, status, type = "right") ~ karno + age,
                 Surv(time = time, event = status) ~ karno + age)) {
    fit <- fitModel(createData(f, data = v, modelType = "cox", ties = "breslow"))
    expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  }
  # Surv(time): every row an event
  allEvents <- survival::coxph(survival::Surv(time) ~ karno + age, data = v, ties = "breslow")
  fit <- fitModel(createData(Surv(time) ~ karno + age, data = v, modelType = "cox", ties = "breslow"))
  expect_equal(unname(coef(fit)), unname(coef(allEvents)), tolerance = 1e-6)
  # counting-process data by name
  h <- survival::heart
  cp <- survival::coxph(survival::Surv(start, stop, event) ~ age + transplant, data = h, ties = "breslow")
  fit <- fitModel(createData(Surv(start, stop, event, type = "counting") ~ age + transplant,
                             data = h, modelType = "cox", ties = "breslow"))
  expect_equal(unname(coef(fit)), unname(coef(cp)), tolerance = 1e-6)
  expect_error(createData(Surv(time, status, type = "left") ~ karno, data = v, modelType = "cox", ties = "breslow"),
               "type = \"left\"\\) is not supported")
  expect_error(createData(Surv(time) ~ karno, data = v, modelType = "fgr"), "competing")
  # abbreviations as survival's match.arg; unknown arguments named
  fit <- fitModel(createData(Surv(time, status, type = "r") ~ karno + age, data = v, modelType = "cox", ties = "breslow"))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
  expect_error(createData(Surv(time, status, start = 0) ~ karno, data = v, modelType = "cox", ties = "breslow"),
               "unused argument.*Surv\\(\\) takes")
  # the times once: in Surv() or in time =, not both
  v$days2 <- v$time * 2
  expect_error(createData(Surv(time, status) ~ karno, data = v, modelType = "cox", ties = "breslow", time = days2),
               "give the times once")
  # competing risks as survival writes them: a factor status with type = "mstate"
  skip_if_not_installed("cmprsk")
  m <- survival::mgus2
  m$etime <- with(m, ifelse(pstat == 0, futime, ptime))
  m$event <- factor(with(m, ifelse(pstat == 0, 2 * death, 1)), 0:2, c("censor", "pcm", "death"))
  m <- na.omit(m[, c("etime", "event", "age", "sex")])
  a <- fitModel(createData(Surv(etime, event, type = "mstate") ~ age + sex, data = m,
                           modelType = "fgr", failcode = "pcm"))
  b <- fitModel(createData(Surv(etime, event) ~ age + sex, data = m, modelType = "fgr", failcode = "pcm"))
  expect_equal(coef(a), coef(b))
  # time = a column of data, as weights = (a column named t, like the function t())
  ins <- MASS::Insurance
  ins$t <- ins$Holders
  glmRef <- glm(Claims ~ Age + offset(log(Holders)), family = poisson, data = ins)
  fit <- fitModel(createData(Claims ~ Age, data = ins, modelType = "pr", time = t))
  expect_equal(unname(coef(fit)), unname(coef(glmRef)), tolerance = 1e-6)
  fit <- fitModel(createData(Claims ~ Age, data = ins, modelType = "pr", time = Holders))
  expect_equal(unname(coef(fit)), unname(coef(glmRef)), tolerance = 1e-6)
})

test_that("print() shows a fit's coefficients in the model's order, as print.glm; many, the largest", {
  fit <- fitModel(createData(mpg ~ factor(cyl) + wt + hp + qsec + am + gear, data = mtcars, modelType = "ls"))
  shown <- utils::capture.output(print(fit))
  namesLine <- grep("(Intercept)", shown, fixed = TRUE, value = TRUE)
  # every coefficient, the intercept first (it was the 10 largest by size: a 24-term fit showed 10)
  expect_match(namesLine[1], "^ *\\(Intercept\\) +factor\\(cyl\\)6 +factor\\(cyl\\)8")
  expect_false(any(grepl("Largest in absolute value", shown)))
  set.seed(2)
  x <- matrix(rnorm(400 * 30), 400, 30, dimnames = list(NULL, sprintf("v%02d", 1:30)))
  y <- rnorm(400) + x[, 30]
  # 31 coefficients of a flat-prior fit: all of them
  flat <- utils::capture.output(print(fitModel(createData(x = x, y = y, modelType = "ls"))))
  expect_false(any(grepl("Largest in absolute value", flat)))
  expect_match(paste(flat, collapse = "\n"), "v01.*v30")
  # a penalized fit with more than 20 nonzero: the 10 largest, said so
  wide <- fitModel(createData(x = x, y = y, modelType = "ls"), prior = createPrior("normal", 1))
  shown <- utils::capture.output(print(wide))
  expect_true(any(grepl("Largest in absolute value (coef() has them all)", shown, fixed = TRUE)))
  expect_match(paste(shown, collapse = "\n"), "v30")
})

test_that("print() and summary() of ls show lm's log-likelihood, not -RSS/2", {
  fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"))
  ref <- as.numeric(logLik(lm(mpg ~ wt + hp, data = mtcars)))
  expect_equal(summary(fit)$logLikelihood, ref, tolerance = 1e-8)
  expect_output(print(fit), sprintf("log-likelihood %.6g", ref), fixed = TRUE)
  expect_equal(fit$logLikelihood, -sum(residuals(lm(mpg ~ wt + hp, data = mtcars))^2) / 2,
               tolerance = 1e-8)
})

test_that("createControl() names the argument of a bad choice and bounds gridSteps", {
  expect_error(createControl(noiseLevel = "loud"),
               "'noiseLevel' must be one of \"silent\", \"quiet\", \"noisy\"")
  expect_error(createControl(cvType = 3), "'cvType' must be one of")
  expect_equal(createControl(noiseLevel = "q")$noiseLevel, "quiet")  # abbreviations as match.arg
  expect_equal(createControl()$convergenceType, "gradient")
  expect_equal(createControl(noiseLevel = NULL)$noiseLevel, "silent")  # NULL as match.arg
  expect_error(createControl(cvType = "grid", gridSteps = 1e10), "gridSteps")
})

test_that("after na.omit, data-dependent terms and outside variables are lm's (model frame of every row)", {
  aq <- datasets::airquality  # Ozone has 37 missing values, Temp and Wind none
  set.seed(5)
  zz <- rnorm(nrow(aq))
  formulas <- list(Ozone ~ splines::ns(Temp, df = 3), Ozone ~ poly(Temp, 2) + scale(Wind),
                   Ozone ~ Temp + zz)
  for (f in formulas) {
    for (action in c("na.omit", "na.exclude")) {
      ref <- lm(f, aq, na.action = action)
      fit <- fitModel(createData(f, data = aq, modelType = "ls", na.action = action))
      label <- paste(deparse(f), action)
      expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-8, label = label)
      expect_equal(unname(fitted(fit)), unname(fitted(ref)), tolerance = 1e-8, label = label)
    }
  }
  # ns() knots from all 153 rows: predictions at new temperatures are lm's (on the 116 complete
  # rows alone they were 17.09, 25.41, 79.21 against lm's 17.14, 25.22, 79.26)
  f <- Ozone ~ splines::ns(Temp, df = 3)
  nd <- data.frame(Temp = c(60, 75, 90))
  expect_equal(unname(predict(fitModel(createData(f, data = aq, modelType = "ls", na.action = na.omit)), nd)),
               unname(predict(lm(f, aq, na.action = na.omit), nd)), tolerance = 1e-8)
  # a Cox model with a spline of age on lung (NAs in ph.ecog)
  skip_if_not_installed("survival")
  lung <- survival::lung
  fc <- survival::Surv(time, status) ~ splines::ns(age, 3) + sex + ph.ecog
  ref <- survival::coxph(fc, lung, ties = "breslow")
  fit <- fitModel(createData(fc, data = lung, modelType = "cox", ties = "breslow", na.action = na.omit),
                  control = createControl(tolerance = 1e-10))
  expect_equal(unname(coef(fit)), unname(coef(ref)), tolerance = 1e-6)
})

test_that("formula(), update(), sigma(), weights() and model.frame() answer as lm's do (or refuse)", {
  aq <- airquality
  aq$w <- rep(c(1, 2, 3), length.out = nrow(aq))
  fit <- fitModel(createData(Ozone ~ Solar.R + Wind + Temp, data = aq, modelType = "ls",
                             na.action = na.omit, weights = w))
  ref <- lm(Ozone ~ Solar.R + Wind + Temp, data = aq, na.action = na.omit, weights = w)
  expect_equal(formula(fit), Ozone ~ Solar.R + Wind + Temp, ignore_attr = TRUE)
  # update() with a formula refits through the call's createData() ("invalid formula" before)
  smaller <- update(fit, . ~ . - Wind)
  expect_equal(unname(coef(smaller)), unname(coef(update(ref, . ~ . - Wind))), tolerance = 1e-8)
  expect_equal(formula(smaller), Ozone ~ Solar.R + Temp, ignore_attr = TRUE)
  named <- fitModel(createData(formula = Ozone ~ Solar.R + Wind, data = aq, modelType = "ls",
                               na.action = na.omit))
  expect_equal(names(coef(update(named, . ~ . - Wind))), c("(Intercept)", "Solar.R"))
  # sigma(): stats' default passed use.fallback to nobs(), which refused it
  expect_equal(sigma(fit), sigma(ref), tolerance = 1e-8)
  # weights given to createData() (weights() said NULL)
  expect_equal(unname(weights(fit)[!is.na(weights(fit))]), unname(weights(ref)))
  expect_null(weights(fitModel(createData(Ozone ~ Wind, data = aq, modelType = "ls", na.action = na.omit))))
  # model.frame() returned fit$modelType ("ls"), `$` matching "model" partially
  expect_error(model.frame(fit), "keeps the fit's design")
  expect_error(model.frame(fit$data), "keeps the fit's design")
  built <- createData(Ozone ~ Wind, data = aq, modelType = "ls", na.action = na.omit)
  expect_error(update(fitModel(built), . ~ . - Wind), "needs the fit's data built in its call")
  expect_error(formula(fitModel(createData(x = cbind(a = 1:4), y = c(1, 3, 2, 5), modelType = "ls"))),
               "not built from a formula")
  # terms() and model.matrix() as lm's ("no terms component nor attribute" before)
  expect_equal(attr(terms(fit), "term.labels"), attr(terms(ref), "term.labels"))
  X <- model.matrix(fit)
  expect_s4_class(X, "dgCMatrix")
  expect_equal(dimnames(X)[[2]], colnames(model.matrix(ref)))
  expect_equal(as.matrix(X)[rownames(model.matrix(ref)), ], model.matrix(ref), ignore_attr = TRUE)
  expect_error(terms(fitModel(createData(x = cbind(a = 1:4), y = c(1, 3, 2, 5), modelType = "ls"))),
               "not made with a formula")
  # a stratified Cox fit: rows in the user's order, whatever the engine's
  skip_if_not_installed("survival")
  lung <- survival::lung[!is.na(survival::lung$ph.ecog), ]
  cox <- fitModel(createData(Surv(time, status) ~ age + ph.ecog + strata(sex), data = lung, modelType = "cox", ties = "breslow"))
  expect_equal(unname(as.matrix(model.matrix(cox))), unname(cbind(lung$age, lung$ph.ecog)))
})

test_that("survival's specials written with 'survival::' are refused, not fitted as covariates", {
  skip_if_not_installed("survival")
  v <- survival::veteran
  # survival::pspline(karno) was an unpenalized spline basis (karno -0.0357 against coxph's
  # penalized -0.0332), SUCCESS and no warning; frailty() fixed effects
  for (term in c("survival::pspline(age)", "survival::ridge(age)", "survival::frailty(celltype)",
                 "survival:::pspline(age)"))
    expect_error(createData(stats::as.formula(paste("survival::Surv(time, status) ~ karno +", term)),
                           data = v, modelType = "cox", ties = "breslow"), "is not supported", label = term)
  expect_error(createData(survival::Surv(time, status) ~ karno + survival::strata(celltype), data = v,
                          modelType = "cox", ties = "breslow"), "without 'survival::'")
  expect_error(createData(survival::Surv(time, status) ~ karno + survival::cluster(trt), data = v,
                          modelType = "cox", ties = "breslow"), "without 'survival::'")
})

test_that("createData() with a formula reads a column name given to offset or startTime, then refuses it with its own message", {
  ins <- MASS::Insurance
  ins$z <- log(ins$Holders)
  # "object 'z' not found" before: R evaluated the name outside the data
  expect_error(createData(Claims ~ Age, data = ins, modelType = "pr", offset = z), "offset")
  expect_error(createData(Claims ~ Age, data = ins, modelType = "pr", offset = log(Holders)), "offset")
  expect_false(any(grepl("not found", tryCatch(createData(Claims ~ Age, data = ins, modelType = "pr",
                                                          offset = z), error = conditionMessage))))
})
