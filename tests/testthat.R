library(testthat)
library(Argus)

test_check("Argus")
