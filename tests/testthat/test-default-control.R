# Fits at the DEFAULT control (no tolerance override) on public data with continuous, factor
# and interaction terms, against references solved far tighter than their defaults. A SUCCESS
# must be the optimum: coefficients within 1e-6 relative of lm / glm / coxph / clogit / crr,
# in tens of cycles, not hundreds.

relDiff <- function(a, b) max(abs(unname(a) - unname(b)) / abs(unname(b)))
tightGlm <- function(formula, family, data, weights = NULL) {
  data$.w <- if (is.null(weights)) 1 else weights
  stats::glm(formula, family = family, data = data, weights = .w,
             control = stats::glm.control(epsilon = 1e-14, maxit = 100))
}

expectOptimal <- function(fit, reference, label, cycles = 20) {
  expect_equal(fit$status, "SUCCESS", label = label)
  expect_equal(names(coef(fit)), names(reference), label = label)
  expect_lt(relDiff(coef(fit), reference), 1e-6, label = label)
  expect_lte(fit$iterations, cycles, label = label)
  expect_lte(fit$optimality, createControl()$optimalityTolerance, label = label)
}

test_that("ls on mtcars equals lm at default control (continuous, factor, interaction)", {
  for (f in list(mpg ~ wt + hp + qsec, mpg ~ factor(cyl) * wt + disp, mpg ~ poly(hp, 2) + am)) {
    fit <- fitModel(createData(f, data = mtcars, modelType = "ls"))
    expectOptimal(fit, coef(stats::lm(f, mtcars)), deparse(f))
  }
})

test_that("pr on MASS::Insurance (offset), warpbreaks and MASS::quine equals glm", {
  skip_if_not_installed("MASS")
  cases <- list(
    list(Claims ~ District + Group + Age + offset(log(Holders)), MASS::Insurance),
    list(breaks ~ wool * tension, datasets::warpbreaks),
    list(Days ~ Eth + Sex + Age + Lrn, MASS::quine),
    list(Days ~ Eth * Sex + Age + Lrn, MASS::quine))
  for (case in cases) {
    fit <- fitModel(createData(case[[1]], data = case[[2]], modelType = "pr"))
    expectOptimal(fit, coef(tightGlm(case[[1]], stats::poisson(), case[[2]])), deparse(case[[1]]))
  }
})

test_that("lr on MASS::birthwt with factor(race) and on esoph (weights) equals glm", {
  skip_if_not_installed("MASS")
  bw <- MASS::birthwt
  bw$race <- factor(bw$race, labels = c("white", "black", "other"))
  f <- low ~ age + lwt + race + smoke + ptl + ht + ui + ftv
  expectOptimal(fitModel(createData(f, data = bw, modelType = "lr")),
                coef(tightGlm(f, stats::binomial(), bw)), "birthwt")
  # esoph as one row per outcome, weighted by the counts: the same likelihood as glm's
  # cbind(ncases, ncontrols) (ordered factors: polynomial contrasts, dense columns).
  es <- datasets::esoph
  long <- rbind(transform(es, y = 1, w = ncases), transform(es, y = 0, w = ncontrols))
  fit <- fitModel(createData(y ~ agegp + tobgp + alcgp, data = long, weights = long$w,
                             modelType = "lr"))
  ref <- tightGlm(cbind(ncases, ncontrols) ~ agegp + tobgp + alcgp, stats::binomial(), es)
  expectOptimal(fit, coef(ref), "esoph")
})

test_that("our own data: large-mean continuous columns, factors, interactions, weights, offsets", {
  set.seed(20)
  n <- 400
  d <- data.frame(age = rnorm(n, 50, 10), income = rlnorm(n, 10, 0.5),
                  group = factor(sample(c("a", "b", "c", "d"), n, TRUE)),
                  dose = runif(n, 0, 1000), w = runif(n, 0.2, 3), exposure = runif(n, 0.5, 4))
  eta <- -3 + 0.04 * d$age + 2e-5 * d$income + 0.3 * (d$group == "b") + 0.001 * d$dose
  d$y <- rbinom(n, 1, plogis(eta))
  d$count <- rpois(n, d$exposure * exp(eta - 1))
  d$z <- eta * 10 + rnorm(n, 0, 3)
  f <- ~ age * group + log(income) + dose + I(age^2)
  fit <- fitModel(createData(update(f, y ~ .), data = d, weights = d$w, modelType = "lr"))
  expectOptimal(fit, coef(tightGlm(update(f, y ~ .), stats::quasibinomial(), d, d$w)), "lr")
  fit <- fitModel(createData(update(f, count ~ . + offset(log(exposure))), data = d, modelType = "pr"))
  expectOptimal(fit, coef(tightGlm(update(f, count ~ . + offset(log(exposure))), stats::poisson(), d)), "pr")
  fit <- fitModel(createData(update(f, z ~ .), data = d, weights = d$w, modelType = "ls"))
  expectOptimal(fit, coef(stats::lm(update(f, z ~ .), d, weights = w)), "ls")
})

test_that("cox on lung, veteran and pbc equals coxph (Breslow and Efron, strata)", {
  skip_if_not_installed("survival")
  cc <- survival::coxph.control(eps = 1e-12, iter.max = 100, toler.chol = 1e-14)
  ref <- function(f, d, ties) {
    environment(f) <- new.env(parent = asNamespace("survival"))  # strata() for coxph
    coef(survival::coxph(f, d, ties = ties, control = cc))
  }
  lung2 <- na.omit(survival::lung[, c("time", "status", "age", "sex", "ph.ecog", "ph.karno",
                                      "wt.loss", "meal.cal")])
  lung2$status <- lung2$status - 1
  f <- survival::Surv(time, status) ~ age + sex + ph.ecog + ph.karno + wt.loss + meal.cal
  for (ties in c("breslow", "efron"))
    expectOptimal(fitModel(createData(f, data = lung2, modelType = "cox", ties = ties)),
                  ref(f, lung2, ties), paste("lung", ties))
  f <- survival::Surv(time, status) ~ trt + celltype + karno + diagtime + age + prior
  expectOptimal(fitModel(createData(f, data = survival::veteran, modelType = "cox", ties = "efron")),
                ref(f, survival::veteran, "efron"), "veteran")
  pbc2 <- na.omit(survival::pbc[, c("time", "status", "age", "bili", "albumin", "protime",
                                    "edema", "stage")])
  pbc2$status <- as.numeric(pbc2$status == 2)
  f <- survival::Surv(time, status) ~ age + log(bili) + albumin + log(protime) + edema + factor(stage)
  expectOptimal(fitModel(createData(f, data = pbc2, modelType = "cox", ties = "efron")),
                ref(f, pbc2, "efron"), "pbc")
  # strata() of a variable with values 0, 0.5, 1
  f <- survival::Surv(time, status) ~ age + log(bili) + albumin + strata(edema)
  expectOptimal(fitModel(createData(f, data = pbc2, modelType = "cox", ties = "breslow")),
                ref(f, pbc2, "breslow"), "pbc strata(edema)")
})

test_that("fgr with continuous covariates on mgus2 equals cmprsk::crr", {
  skip_if_not_installed("survival")
  skip_if_not_installed("cmprsk")
  m <- na.omit(survival::mgus2[, c("age", "sex", "hgb", "ptime", "pstat", "futime", "death")])
  time <- ifelse(m$pstat == 0, m$futime, m$ptime)
  status <- ifelse(m$pstat == 0, 2 * m$death, 1)
  x <- cbind(age = m$age, male = as.numeric(m$sex == "M"), hgb = m$hgb)
  ref <- cmprsk::crr(time, status, x, failcode = 1, cencode = 0, gtol = 1e-12, maxiter = 100)
  fit <- fitModel(createData(x = x, y = status, time = time, modelType = "fgr"))
  expect_equal(fit$status, "SUCCESS")
  expect_lt(relDiff(coef(fit), ref$coef), 1e-6)
  expect_lte(fit$iterations, 20)
})

# The gradient of the log-likelihood of an lr fit, computed here from the returned
# coefficients (independent of the engine), and the optimality violation of each coordinate
# as documented in createControl(): |G| / sqrt(H) with the prior's terms.
lrViolations <- function(fit, x, y, prior, variance) {
  X <- cbind(1, x)
  beta <- coef(fit)
  p <- stats::plogis(drop(X %*% beta))
  g <- drop(crossprod(X, y - p))
  H <- drop(crossprod(X^2, p * (1 - p)))
  penalized <- seq_along(beta) > 1
  G <- g
  if (prior == "normal") {
    G[penalized] <- g[penalized] - beta[penalized] / variance
    H[penalized] <- H[penalized] + 1 / variance
  } else if (prior == "laplace") {
    lambda <- sqrt(2 / variance)
    nz <- penalized & beta != 0
    G[nz] <- g[nz] - lambda * sign(beta[nz])
    zero <- penalized & beta == 0
    G[zero] <- pmax(abs(g[zero]) - lambda, 0)
  }
  list(violation = abs(G) / sqrt(H), g = g, beta = beta)
}

test_that("Laplace and normal fits with large-mean, large-scale columns satisfy the KKT conditions", {
  set.seed(21)
  n <- 1000
  continuous <- matrix(rnorm(n * 10, 50, 10), n, 10, dimnames = list(NULL, paste0("c", 1:10)))
  binary <- matrix(rbinom(n * 20, 1, 0.5), n, 20, dimnames = list(NULL, paste0("b", 1:20)))
  sparse <- matrix(rbinom(n * 30, 1, 0.05), n, 30, dimnames = list(NULL, paste0("s", 1:30)))
  for (x in list(cbind(continuous, binary), cbind(continuous, binary, sparse))) {
    eta <- -6 + 0.08 * x[, 1] + 0.05 * x[, 2] + 0.5 * x[, 11] - 0.4 * x[, 12]
    y <- rbinom(n, 1, stats::plogis(eta))
    data <- createData(x = x, y = y, modelType = "lr")
    for (prior in c("laplace", "normal")) {
      variance <- if (prior == "laplace") 0.05 else 0.01
      fit <- fitModel(data, prior = createPrior(prior, variance = variance))
      expect_equal(fit$status, "SUCCESS")
      kkt <- lrViolations(fit, x, y, prior, variance)
      label <- sprintf("%s, %d columns", prior, ncol(x))
      expect_lte(max(kkt$violation), createControl()$optimalityTolerance, label = label)
      expect_equal(fit$optimality, max(kkt$violation), tolerance = 1e-3, label = label)
      if (prior == "laplace") {
        lambda <- sqrt(2 / variance)
        zero <- which(kkt$beta == 0)
        expect_gt(length(zero), 0)
        expect_true(all(abs(kkt$g[zero]) <= lambda), label = label)
        nz <- setdiff(which(kkt$beta != 0), 1)
        expect_lt(max(abs(kkt$g[nz] - lambda * sign(kkt$beta[nz]))), 1e-3 * lambda, label = label)
      }
      expect_lte(fit$iterations, 40, label = label)
    }
  }
})

test_that("summary() and print() report the optimality reached", {
  fit <- fitModel(createData(mpg ~ wt + hp, data = mtcars, modelType = "ls"))
  expect_output(print(summary(fit)), "optimality: +largest violation")
  expect_true(is.numeric(fit$optimality) && fit$optimality < 1e-8)
  expect_true(fit$optimalityCovariate %in% names(coef(fit)))
})

test_that("a covariate's scale (1e-50 to 1e50) changes neither the answer nor the cycles", {
  skip_if_not_installed("MASS")
  for (s in c(1e-50, 1e-8, 1e8, 1e50)) {
    d <- transform(mtcars, wt = wt * s, hp = hp / s)
    fit <- fitModel(createData(mpg ~ wt + hp + qsec, data = d, modelType = "ls"))
    expectOptimal(fit, coef(stats::lm(mpg ~ wt + hp + qsec, d)), sprintf("ls, scale %g", s), cycles = 4)
    bw <- MASS::birthwt
    bw$lwt <- bw$lwt * s
    fit <- fitModel(createData(low ~ age + lwt + smoke, data = bw, modelType = "lr"))
    expectOptimal(fit, coef(tightGlm(low ~ age + lwt + smoke, stats::binomial(), bw)),
                  sprintf("lr, scale %g", s), cycles = 8)
  }
  # the limits of createData(): beyond 1e100 the column is refused, not fitted to 0
  expect_error(createData(mpg ~ I(wt * 1e300) + hp, data = mtcars, modelType = "ls"), "rescale")
})

test_that("Laplace on many correlated uncentred columns (mean / sd of 20 and 50) converges in a few cycles", {
  set.seed(22)
  n <- 500
  p <- 25
  for (shape in list(c(20, 1), c(50, 1))) {
    z <- rnorm(n)
    x <- sapply(seq_len(p), function(j) shape[1] + shape[2] * (sqrt(0.5) * z + sqrt(0.5) * rnorm(n)))
    colnames(x) <- paste0("v", seq_len(p))
    eta <- drop((x - shape[1]) %*% c(2, -1, 1, rep(0, p - 3)))
    y <- rbinom(n, 1, stats::plogis(eta / 3))
    fit <- fitModel(createData(x = x, y = y, modelType = "lr"),
                    prior = createPrior("laplace", variance = 0.1))
    label <- sprintf("mean %g, sd %g", shape[1], shape[2])
    expect_equal(fit$status, "SUCCESS", label = label)
    expect_lte(fit$iterations, 20, label = label)
    kkt <- lrViolations(fit, x, y, "laplace", 0.1)
    expect_lte(max(kkt$violation), createControl()$optimalityTolerance, label = label)
  }
})
