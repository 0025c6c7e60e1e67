library(testthat)
library(Cyclops)
test_check("Cyclops")
