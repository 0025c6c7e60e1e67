# vcov(type = "robust"): against coxph(robust = TRUE) / cluster() for Cox (weights, strata,
# both tie methods, counting process) and against the HC0 sandwich for glm and lm, written by
# hand here (sandwich::vcovHC / vcovCL are used as well when installed).

tight <- glm.control(epsilon = 1e-14, maxit = 100)
tightControl <- function() createControl(tolerance = 1e-12, maxIterations = 10000)

# HC0 sandwich by hand: bread (X'WX)^-1 from the glm, meat sum of (clustered) score outer products.
handSandwich <- function(g, cluster = NULL) {
  X <- model.matrix(g)
  w <- weights(g, "prior") %||% rep(1, nrow(X))
  scores <- X * (w * (g$y - fitted(g)))
  if (!is.null(cluster)) scores <- rowsum(scores, cluster)
  bread <- summary(g)$cov.unscaled
  unname(bread %*% crossprod(scores) %*% bread)
}
`%||%` <- function(a, b) if (is.null(a)) b else a

test_that("robust variance of Cox fits equals coxph(robust = TRUE), with weights, strata and clusters", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(1)
  lung$w <- runif(nrow(lung), 0.5, 2)
  for (ties in c("breslow", "efron")) for (f in list(Surv(time, status) ~ age + sex + wt.loss,
                                                      Surv(time, status) ~ age + sex + wt.loss + strata(ph.ecog))) {
    ref <- coxRef(f, lung, ties = ties, weights = lung$w)
    refRobust <- survival::coxph(inSurvival(f), data = lung, ties = ties, weights = w, robust = TRUE,
                                 control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
    refCluster <- survival::coxph(inSurvival(f), data = lung, ties = ties, weights = w, cluster = inst,
                                  control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
    fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = ties, weights = lung$w),
                    control = survivalControl())
    expect_lt(max(abs(vcov(fit, type = "robust") - vcov(refRobust))), 1e-6)
    expect_lt(max(abs(vcov(fit, type = "robust", cluster = lung$inst) - vcov(refCluster))), 1e-6)
    # the model-based one is coxph's naive variance, and differs from the robust one
    expect_lt(max(abs(vcov(fit, type = "model") - refRobust$naive.var)), 1e-6)
    expect_gt(max(abs(vcov(fit, type = "robust") - vcov(fit, type = "model"))), 1e-5)
  }
})

test_that("cluster() in a Cox formula gives the clustered robust variance by default", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  ref <- survival::coxph(inSurvival(Surv(time, status) ~ age + sex + cluster(inst)), data = lung, ties = "breslow",
                         control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
  fit <- fitModel(createData(Surv(time, status) ~ age + sex + cluster(inst), data = lung,
                             modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_equal(names(coef(fit)), c("age", "sex"))           # not fitted as a covariate
  expect_lt(maxRelDiff(coef(fit), coef(ref)), 1e-8)
  expect_lt(max(abs(vcov(fit) - vcov(ref))), 1e-8)          # robust by default, as coxph
  expect_lt(max(abs(vcov(fit, type = "model") - ref$naive.var)), 1e-8)
  expect_equal(summary(fit)$varianceType, "robust")
})

test_that("robust variance of a counting-process Cox fit equals coxph's", {
  skip_if_not_installed("survival")
  b <- survival::bladder2
  ref <- survival::coxph(inSurvival(Surv(start, stop, event) ~ rx + number + size + cluster(id)), data = b,
                         ties = "efron", control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
  fit <- fitModel(createData(Surv(start, stop, event) ~ rx + number + size + cluster(id), data = b,
                             modelType = "cox", ties = "efron"), control = survivalControl())
  expect_lt(max(abs(vcov(fit) - vcov(ref))), 1e-8)
})

test_that("robust variance of lr, pr and ls equals the HC0 sandwich (per row and clustered)", {
  set.seed(2)
  n <- 300
  x <- matrix(rnorm(n * 3), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  w <- runif(n, 0.2, 3)
  g <- sample(1:30, n, TRUE)
  y <- rbinom(n, 1, plogis(x[, 1]))
  ref <- suppressWarnings(glm(y ~ x, family = binomial, weights = w, control = tight))
  fit <- fitModel(createData(x = x, y = y, weights = w, modelType = "lr"), control = tightControl())
  expect_lt(max(abs(unname(vcov(fit, type = "robust")) - handSandwich(ref))), 1e-6)
  expect_lt(max(abs(unname(vcov(fit, type = "robust", cluster = g)) - handSandwich(ref, g))), 1e-6)
  if (requireNamespace("sandwich", quietly = TRUE)) {
    expect_lt(max(abs(unname(vcov(fit, type = "robust")) - unname(sandwich::vcovHC(ref, type = "HC0")))), 1e-6)
    expect_lt(max(abs(unname(vcov(fit, type = "robust", cluster = g)) -
                      unname(sandwich::vcovCL(ref, cluster = g, type = "HC0", cadjust = FALSE)))), 1e-6)
  }
  counts <- rpois(n, exp(0.5 + x[, 2]))
  exposure <- runif(n, 1, 3)
  refP <- glm(counts ~ x + offset(log(exposure)), family = poisson, control = tight)
  fitP <- fitModel(createData(x = x, y = counts, time = exposure, modelType = "pr"), control = tightControl())
  expect_lt(max(abs(unname(vcov(fitP, type = "robust")) - handSandwich(refP))), 1e-6)
  yl <- as.vector(x %*% c(1, 2, 3) + rnorm(n))
  refL <- glm(yl ~ x, weights = w, control = tight)
  fitL <- fitModel(createData(x = x, y = yl, weights = w, modelType = "ls"), control = tightControl())
  expect_lt(max(abs(unname(vcov(fitL, type = "robust")) - handSandwich(refL))), 1e-6)
  # robust Wald intervals use these standard errors
  ci <- confint(fit, method = "robust")
  se <- sqrt(diag(handSandwich(ref)))
  expect_lt(max(abs(ci[, 2] - (unname(coef(ref)) + qnorm(0.975) * se))), 1e-6)
  # least squares: Student's t on n - p degrees of freedom, as lmtest::coeftest(lm, vcovHC(lm))
  # (the normal quantile was taken: intervals 4% narrower on mtcars)
  seL <- sqrt(diag(handSandwich(refL)))
  tq <- qt(0.975, n - 4)  # an intercept and three slopes
  ciL <- confint(fitL, method = "robust")
  expect_lt(max(abs(ciL[, 2] - (unname(coef(refL)) + tq * seL))), 1e-6)
  tab <- summary(fitL, type = "robust")$coefficients
  expect_equal(tab$p.value, unname(2 * pt(-abs(coef(refL) / seL), n - 4)), tolerance = 1e-6)
  expect_equal(unique(tab$interval), "robust t")
})

test_that("model-based intervals with non-integer weights warn; robust ones (cox's default, as coxph) do not", {
  skip_if_not_installed("survival")
  lung <- lungComplete()
  set.seed(3)
  lung$iptw <- 1 / runif(nrow(lung), 0.2, 0.8)
  fit <- fitModel(createData(Surv(time, status) ~ sex, data = lung, modelType = "cox", ties = "breslow",
                             weights = lung$iptw), control = survivalControl())
  expect_warning(confint(fit, method = "wald", type = "model"), "robust")
  expect_warning(confint(fit, method = "profile"), "robust")
  expect_warning(summary(fit, type = "model"), "robust")
  expect_silent(ci <- confint(fit, method = "robust"))
  expect_silent(summary(fit))
  expect_identical(confint(fit), ci)
  ref <- survival::coxph(inSurvival(Surv(time, status) ~ sex), data = lung, weights = iptw, robust = TRUE, ties = "breslow",
                         control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
  expect_lt(max(abs(ci - confint(ref))), 1e-6)
  # integer weights are frequencies: no warning
  fit2 <- fitModel(createData(Surv(time, status) ~ sex, data = lung, modelType = "cox", ties = "breslow",
                              weights = rep(2, nrow(lung))), control = survivalControl())
  expect_silent(confint(fit2, method = "wald"))
})

test_that("robust variance of conditional models: clogit(robust = TRUE) and a fixed-effects Poisson sandwich", {
  skip_if_not_installed("survival")
  # clogit() evaluates coxph() in the formula's environment: give it one that sees survival
  env <- new.env(parent = asNamespace("survival"))
  ref <- evalq(clogit(case ~ spontaneous + induced + strata(stratum), data = infert,
                      method = "breslow", robust = TRUE,
                      control = coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100)), env)
  fit <- fitModel(createData(case ~ spontaneous + induced + strata(stratum), data = infert,
                             modelType = "clr", ties = "breslow"), control = survivalControl())
  expect_lt(max(abs(vcov(fit, type = "robust") - vcov(ref))), 1e-8)
  byStratum <- evalq(clogit(case ~ spontaneous + induced + strata(stratum) + cluster(stratum),
                            data = infert, method = "breslow",
                            control = coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100)), env)
  expect_lt(max(abs(vcov(fit, type = "robust", cluster = infert$stratum) - vcov(byStratum))), 1e-8)
  # conditional Poisson, clustered by stratum: the stratum fixed effects' glm sandwich by hand
  set.seed(2)
  n <- 600
  s <- rep(1:100, each = 6)
  x <- matrix(rnorm(n * 2), n, 2, dimnames = list(NULL, c("a", "b")))
  exposure <- runif(n, 1, 3)
  y <- rpois(n, exposure * exp(0.5 * x[, 1] + rnorm(100)[s]))
  g <- glm(y ~ x + factor(s) + offset(log(exposure)), family = poisson,
           control = glm.control(epsilon = 1e-14, maxit = 100))
  scores <- rowsum(model.matrix(g) * (y - fitted(g)), s)
  bread <- summary(g)$cov.unscaled
  expected <- (bread %*% crossprod(scores) %*% bread)[2:3, 2:3]
  cpr <- fitModel(createData(x = x, y = y, time = exposure, stratumId = s, modelType = "cpr"),
                  control = survivalControl())
  expect_lt(max(abs(vcov(cpr, type = "robust", cluster = s) - expected)), 1e-6)
  expect_error(vcov(fitModel(createData(x = x, y = y, time = exposure, stratumId = s, modelType = "cpr"),
                             weights = rep(1:2, n / 2)), type = "robust"), "runBootstrap")
})

test_that("robust variance is refused where it is not implemented", {
  # infert's sets have one case each: Efron's likelihood is Breslow's, and so is the robust
  # variance (clogit's); with two cases in a set it is not implemented
  efron <- fitModel(createData(case ~ spontaneous + strata(stratum), data = infert,
                               modelType = "clr", ties = "efron"))
  breslow <- fitModel(createData(case ~ spontaneous + strata(stratum), data = infert,
                                 modelType = "clr", ties = "breslow"))
  expect_equal(vcov(efron, type = "robust"), vcov(breslow, type = "robust"), tolerance = 1e-8)
  twoCases <- infert
  twoCases$case[which(twoCases$stratum == 1 & twoCases$case == 0)[1]] <- 1
  expect_error(vcov(fitModel(createData(case ~ spontaneous + strata(stratum), data = twoCases,
                                        modelType = "clr", ties = "efron")), type = "robust"),
               "Breslow")
  set.seed(1)
  x <- matrix(rnorm(100), 50, 2)
  fit <- fitModel(createData(x = x, y = rbinom(50, 1, 0.5), modelType = "lr"))
  expect_error(vcov(fit, type = "model", cluster = 1:50), "type = \"robust\"")
  expect_identical(vcov(fit, cluster = 1:50), vcov(fit, type = "robust", cluster = 1:50))  # clusters ask for it
  expect_error(vcov(fit, type = "robust", cluster = 1:3), "one per row")
})

test_that("robust variance of a Fine-Gray fit equals cmprsk::crr's var (ties included)", {
  skip_if_not_installed("cmprsk")
  for (digits in c(NA, 2)) {
    set.seed(8)
    n <- 400
    x <- cbind(a = rnorm(n), b = rbinom(n, 1, 0.5))
    time <- rexp(n)
    if (!is.na(digits)) time <- round(time, digits)
    code <- sample(0:2, n, TRUE, prob = c(0.3, 0.4, 0.3))
    ref <- crrRef(time, code, x)
    fit <- fitModel(createData(x = x, y = code, time = time, modelType = "fgr"),
                    control = survivalControl())
    expect_lt(max(abs(vcov(fit, type = "model") - ref$invinf)), 1e-8)
    expect_lt(max(abs(vcov(fit, type = "robust") - ref$var)), 1e-8)
    expect_identical(vcov(fit), vcov(fit, type = "robust"))  # crr's var is the default
    # the two differ: the censoring distribution's estimation counts
    expect_gt(max(abs(ref$var - ref$invinf)), 1e-4)
  }
  fitW <- fitModel(createData(x = x, y = code, time = time, weights = rep(1:2, n / 2), modelType = "fgr"))
  expect_error(vcov(fitW, type = "robust"), "runBootstrap")
  expect_identical(vcov(fitW), vcov(fitW, type = "model"))  # where crr's var is not defined
  # no row censored (every subject has the event or the competing event): G is 1 throughout
  # (the robust variance stopped with "non-conformable arrays")
  uncensored <- code > 0
  ref <- crrRef(time[uncensored], code[uncensored], x[uncensored, ])
  fit <- fitModel(createData(x = x[uncensored, ], y = code[uncensored], time = time[uncensored],
                             modelType = "fgr"), control = survivalControl())
  expect_lt(max(abs(vcov(fit, type = "robust") - ref$var)), 1e-8)
  expect_true(all(is.finite(confint(fit, method = "robust"))))
})

test_that("a coefficient running off to infinity has no robust variance (NA, with a warning)", {
  # factor(edema)1 runs off (NO_FINITE_MLE). Its model-based variance is huge (1.8e11, as
  # glm's would be); its sandwich was 0.44: no score is left on saturated rows.
  pb <- na.omit(survival::pbc[1:312, c("time", "status", "age", "bili", "albumin", "edema", "sex")])
  fit <- suppressWarnings(fitModel(createData(
    survival::Surv(time, status) ~ I(age + 1950) + log(bili) + albumin + factor(edema) + sex,
    data = pb, modelType = "fgr", failcode = 1)))
  expect_equal(fit$status, "NO_FINITE_MLE")
  expect_equal(fit$infinite, "factor(edema)1")
  expect_gt(vcov(fit, type = "model")["factor(edema)1", "factor(edema)1"], 1e10)
  expect_warning(V <- vcov(fit, type = "robust"), "no robust variance for 'factor\\(edema\\)1'")
  expect_true(all(is.na(V["factor(edema)1", ])) && all(is.na(V[, "factor(edema)1"])))
  expect_true(all(is.finite(V[-5, -5])))
  expect_equal(dim(V), c(length(coef(fit)), length(coef(fit))))
})

test_that("confint() of a fit with a cluster() term is coxph's robust interval by default", {
  skip_if_not_installed("survival")
  # cgd: a patient's (start, stop] rows. The default was the model-based profile, 0.77-0.95
  # times coxph's width, and method = "wald" took the model-based variance (steroids' interval
  # (0.026, 2.09) excluded 0 where the robust one, (-0.092, 2.21), does not).
  cgd <- survival::cgd
  f <- Surv(tstart, tstop, status) ~ treat + age + inherit + steroids + cluster(id)
  ref <- coxRef(f, cgd)
  fit <- fitModel(createData(f, data = cgd, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_equal(unname(confint(fit)), unname(confint(ref)), tolerance = 1e-7, ignore_attr = TRUE)
  expect_equal(unname(confint(fit, method = "wald")), unname(confint(ref)), tolerance = 1e-7, ignore_attr = TRUE)
  expect_warning(profiled <- confint(fit, "steroids", method = "profile"), "cluster\\(\\) term, which profile-likelihood intervals ignore")
  expect_lt(diff(profiled[1, ]), diff(confint(ref)["steroids", ]))
})

test_that("a Fine-Gray summary takes crr's robust variance, and says so", {
  set.seed(4)
  n <- 300
  x <- cbind(a = stats::rnorm(n))
  fit <- fitModel(createData(x = x, y = sample(0:2, n, TRUE), time = stats::rexp(n), modelType = "fgr"))
  expect_output(print(summary(fit)), "robust variance.*cmprsk::crr's var")
  expect_output(print(summary(fit, type = "model")), "model-based as asked; the default is the robust one")
  # weights: crr has no variance to give, the model-based one is the default, and it says why
  weighted <- fitModel(createData(x = x, y = sample(0:2, n, TRUE), time = stats::rexp(n), modelType = "fgr",
                                  weights = rep(1:2, n / 2)))
  expect_output(print(summary(weighted)), "model variance.*needs a fit without weights")
})

test_that("a robust variance from one cluster is an error, as coxph(cluster = ) and vcovCL stop; from few clusters a warning", {
  skip_if_not_installed("survival")
  # Issue 38: one cluster gave robust standard errors of ~1e-17, p = 0 and intervals of zero
  # width, silently (the clusters' score sums add up to zero at the estimate).
  lung <- lungComplete()
  lung$one <- 1
  f <- Surv(time, status) ~ age + sex + cluster(one)
  expect_error(survival::coxph(inSurvival(f), data = lung, ties = "breslow"))
  fit <- fitModel(createData(f, data = lung, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_error(confint(fit, method = "robust"), "the robust \\(sandwich\\) variance needs at least 2 clusters, and the data have 1 cluster")
  expect_error(vcov(fit), "at least 2 clusters")  # robust by default with cluster()
  expect_error(summary(fit), "at least 2 clusters")
  expect_equal(dim(vcov(fit, type = "model")), c(2L, 2L))
  # a glm, with the clusters given to vcov(): sandwich::vcovCL stops as well
  set.seed(38)
  x <- matrix(rnorm(200), 100, 2, dimnames = list(NULL, c("a", "b")))
  y <- rbinom(100, 1, plogis(x[, 1]))
  lr <- fitModel(createData(x = x, y = y, modelType = "lr"))
  if (requireNamespace("sandwich", quietly = TRUE))
    expect_error(sandwich::vcovCL(glm(y ~ x, family = binomial), cluster = rep(1, 100)))
  expect_error(vcov(lr, type = "robust", cluster = rep("site", 100)), "at least 2 clusters")
  # rows of weight 0 count for no cluster
  w <- c(rep(1, 50), rep(0, 50))
  weighted <- fitModel(createData(x = x, y = y, weights = w, modelType = "lr"))
  expect_error(vcov(weighted, type = "robust", cluster = rep(1:2, each = 50)), "have 1 cluster")
  # two clusters: both references give numbers (a sandwich of rank 1); here the same numbers,
  # with a warning that they rest on no more clusters than coefficients
  lung$two <- rep(1:2, length.out = nrow(lung))
  g <- Surv(time, status) ~ age + sex + cluster(two)
  ref <- survival::coxph(inSurvival(g), data = lung, ties = "breslow",
                         control = survival::coxph.control(eps = 1e-12, toler.chol = 1e-15, iter.max = 100))
  two <- fitModel(createData(g, data = lung, modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_warning(V <- vcov(two), "rests on 2 clusters, no more than the 2 coefficients")
  expect_lt(max(abs(V - vcov(ref))), 1e-8)
  # more clusters than coefficients: silent, as before
  lung$three <- rep(1:3, length.out = nrow(lung))
  three <- fitModel(createData(Surv(time, status) ~ age + sex + cluster(three), data = lung,
                               modelType = "cox", ties = "breslow"), control = survivalControl())
  expect_silent(vcov(three))
})
