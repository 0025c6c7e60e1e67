# The incumbent's tests run in this package's namespace with testthat's second edition (its
# DESCRIPTION names none); this package's own tests use the third.
suppressPackageStartupMessages(library(survival))

# Exact profile-likelihood limits of one coefficient from a reference log-likelihood
# function `ll(b)` (the other coefficients refitted inside it): where ll drops by
# qchisq(level, 1) / 2 from its maximum at `estimate`.
exactProfileLimits <- function(ll, estimate, level = 0.95, width = 2) {
  target <- ll(estimate) - stats::qchisq(level, 1) / 2
  c(stats::uniroot(function(b) ll(b) - target, c(estimate - width, estimate), tol = 1e-10)$root,
    stats::uniroot(function(b) ll(b) - target, c(estimate, estimate + width), tol = 1e-10)$root)
}
