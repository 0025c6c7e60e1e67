# Calls written the incumbent's (Cyclops's) way: each either means the same in Argus or stops
# with an error that names the Argus way. Nothing here runs with a different meaning.

# predict(fit, newOutcomes =, newCovariates =): the incumbent's new data, on the response
# scale; the Argus way names the table 'newdata' and the rows 'outcomes'.
rejectCyclopsPredictArguments <- function(...) {
  given <- names(as.list(substitute(list(...)))[-1])
  cyclops <- intersect(given, c("newOutcomes", "newCovariates"))
  if (length(cyclops) == 0) return(invisible())
  stopf(paste("predict(): unused argument(s): %s. The incumbent's predict(fit, newOutcomes =",
              "o, newCovariates = c) is predict(fit, newdata = c, outcomes = o, type =",
              "\"response\") in Argus (predict() gives the link unless type = \"response\")"),
        paste(given, collapse = ", "))
}
