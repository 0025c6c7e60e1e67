# Argus demo: a self-controlled case series with 10,000 patients and 500 drugs, fitted with a
# Laplace prior. Run from a shell with: Rscript inst/examples/sccs_demo.R
library(Argus)

cat("Simulating 10,000 cases and 500 drugs...\n")
sim <- simulateSccs(nCases = 10000, nDrugs = 500, nNonzero = 10, seed = 42)

built <- system.time(
  data <- createData(sim$outcomes, sim$covariates, modelType = "sccs")
)[["elapsed"]]
print(data)

fit <- fitModel(data, prior = createPrior("laplace", variance = 0.1),
                control = createControl(noiseLevel = "quiet"))
print(fit)

beta <- coef(fit)
strongest <- utils::head(order(-abs(beta)), 10)
truth <- sim$trueBeta[names(beta)[strongest]]
cat("\nStrongest effects (log relative incidence), with the simulated truth:\n")
print(data.frame(drug = names(beta)[strongest], estimate = round(beta[strongest], 3),
                 truth = round(unname(truth), 3), row.names = NULL))
cat(sprintf("\ncreateData: %.2f s; fit: %d cycles in %.3f s (status %s)\n", built,
            fit$iterations, fit$seconds, fit$status))
