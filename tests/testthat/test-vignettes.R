# The README's install command must install the vignettes: R CMD INSTALL of the source
# directory does not build them, so the command builds the tarball and installs that.

test_that("the README's install command builds the tarball and installs it", {
  readme <- file.path(test_path(), "..", "..", "README.md")
  skip_if_not(file.exists(readme), "README.md is not part of the built package")
  install <- grep("deps.sh", readLines(readme), value = TRUE)[1]
  expect_match(install, "R CMD build (--no-manual )?\\. && R CMD INSTALL Argus_\\*\\.tar\\.gz")
  expect_false(grepl("R CMD INSTALL \\.", install))
})

test_that("an Argus installed from its tarball lists every vignette", {
  skip_if(system.file("doc", package = "Argus") == "",
          "Argus was installed from a source directory, which has no vignettes")
  items <- utils::vignette(package = "Argus")$results[, "Item"]
  expect_true(all(c("getting-started", "propensity-score", "survival-outcomes",
                    "profile-likelihood") %in% items))
})
