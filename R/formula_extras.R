# Parts of a model formula that are not covariates: cluster() (the clusters of the robust
# variance, as in survival::coxph) and, for createData(weights = ), a column named by the
# weights argument (as lm's weights).

# `.` stands for every column of `data` not otherwise in the formula, as in lm() and coxph():
# expanded before anything rewrites the formula, so that Surv(time, status) ~ . does not take
# time and status as covariates (the response is replaced by a column of its own later, and a
# `.` expanded after that took them in) and low ~ . reaches the missing-value checks as the
# covariates it names.
expandDot <- function(formula, data) {
  if (!("." %in% all.vars(formula))) return(formula)
  expanded <- stats::formula(stats::terms(formula, data = data))
  environment(expanded) <- environment(formula)
  expanded
}

# The formula's variables that live in its environment rather than in `data` (a vector of one
# value per row, as lm() takes it), brought in as columns: the rows then travel together
# through na.omit (an NA there drops its row, as glm does; it stopped with "'x' has 1 missing
# value"), strata(), cluster() and Surv() (which read the kept rows and failed on a vector of
# every row). Only vectors and factors of one value per row: constants (poly(x, k)) stay.
withFormulaVariables <- function(formula, data) {
  env <- environment(formula) %||% parent.frame()
  for (name in setdiff(all.vars(formula), names(data))) {
    if (!exists(name, envir = env)) next
    value <- get(name, envir = env)
    if ((is.atomic(value) || is.factor(value)) && is.null(dim(value)) && nrow(data) > 1 &&
        length(value) == nrow(data))
      data[[name]] <- value
  }
  data
}

# Terms with a meaning Argus does not fit, refused rather than read as plain covariates:
# survival's penalized and random-effect terms, and strata() where the model has no stratum
# baseline.
rejectUnsupportedTerms <- function(formula, data, modelType) {
  unsupported <- c(frailty = "random effects (frailty) are not fitted by Argus",
                   frailty.gamma = "random effects (frailty) are not fitted by Argus",
                   frailty.gaussian = "random effects (frailty) are not fitted by Argus",
                   frailty.t = "random effects (frailty) are not fitted by Argus",
                   ridge = "penalize with createPrior(\"normal\") instead of ridge()",
                   pspline = "use splines::ns() or splines::bs() for a spline, with a prior if it should be penalized",
                   tt = "time-transformed covariates (tt()) are not supported")
  tt <- terms(formula, specials = c(names(unsupported), "strata"), data = data)
  for (name in names(unsupported))
    if (!is.null(attr(tt, "specials")[[name]]))
      stopf("the formula's %s() term is not supported: %s", name, unsupported[[name]])
  # Written survival::pspline(age), a special is no special to terms(): it was fitted as plain
  # covariates (a spline basis unpenalized, frailty groups as fixed effects), SUCCESS and no
  # warning. strata() and cluster() so written would be covariates too.
  for (variable in as.list(attr(tt, "variables"))[-1]) {
    name <- prefixedSurvivalCall(variable)
    if (is.null(name)) next
    if (name %in% names(unsupported))
      stopf("the formula's survival::%s() term is not supported: %s", name, unsupported[[name]])
    if (name %in% c("strata", "cluster"))
      stopf("write %s() without 'survival::' in the formula: Argus reads the term by its name", name)
  }
  if (!is.null(attr(tt, "specials")$strata) && !hasStratumBaseline(modelType))
    stopf("strata() %s", withoutStrata(modelType))
  # survival's options of strata() were read as strata variables (na.group = TRUE one more
  # variable, its NA rows then refused, where coxph keeps them as a stratum of their own)
  for (at in attr(tt, "specials")$strata) {
    named <- setdiff(names(as.list(attr(tt, "variables")[[at + 1]])[-1]), "")
    if (length(named))
      stopf(paste("strata() takes its variables only, not %s: for na.group = TRUE make NA a",
                  "level of the variable (addNA())"), paste(sprintf("'%s'", named), collapse = ", "))
  }
}

# The function's name of a call survival::f(...) or survival:::f(...), else NULL.
prefixedSurvivalCall <- function(expr) {
  if (!is.call(expr) || !is.call(expr[[1]])) return(NULL)
  head <- expr[[1]]
  if (!(identical(head[[1]], as.name("::")) || identical(head[[1]], as.name(":::")))) return(NULL)
  if (!identical(as.character(head[[2]]), "survival")) return(NULL)
  as.character(head[[3]])
}

# What to say where strata are given to a model without a baseline per stratum.
withoutStrata <- function(modelType) {
  sprintf(paste("is for the models with a baseline per stratum (clr, cpr, sccs, cox, fgr);",
                "modelType '%s' has none: use 'clr' for a conditional logistic model, or the",
                "stratum as a covariate"), modelType)
}

# Removes a cluster(...) term from the formula and returns its values (one per row of `data`).
clusterTerm <- function(formula, data) {
  tt <- terms(formula, specials = "cluster", data = data)
  at <- attr(tt, "specials")$cluster
  if (is.null(at)) return(list(formula = formula, cluster = NULL))
  if (length(at) > 1) stopf("use a single cluster() term")
  call <- attr(tt, "variables")[[at + 1]]
  if (length(call) != 2) stopf("cluster() takes one variable")
  values <- eval(call[[2]], data, environment(formula) %||% parent.frame())
  if (length(values) != nrow(data)) stopf("cluster() must give one value per row of 'data'")
  if (anyNA(values)) stopf("cluster() has missing values")
  label <- deparse(call, width.cutoff = 500L)
  list(formula = update(formula, stats::as.formula(paste(". ~ . -", label))), cluster = values)
}

# Does createData()'s `weights` argument name a column of the formula's `data` (weights =
# iptw, iptw / 2, pmin(iptw, cap))? Then it is evaluated there, enclosed by the caller's
# environment for the other names (cap), as lm() does: a column wins over a variable of the
# same name. Once every name had to be a column, and pmin(iptw, cap) was evaluated in the
# caller, with a stale global iptw where one existed. An expression naming no column is
# evaluated as usual, so `weights = w` passed on through helper functions still works.
namesColumns <- function(expr, data) {
  if (!is.data.frame(data) || !is.language(expr)) return(FALSE)
  any(all.vars(expr) %in% names(data))
}

# Fine-Gray's status from a factor or a multi-state code, as cmprsk::crr reads it with
# `failcode`: the event of interest (failcode) becomes 1, censoring 0, every other cause 2.
# A factor's first level is censoring (survival's multi-state Surv() convention) and its
# second level the default event of interest; numbers keep 0 as censoring.
competingStatus <- function(status, failcode) {
  if (is.factor(status)) {
    lv <- levels(status)
    if (length(lv) < 2) stopf("a factor status needs a censoring level and at least one event level")
    failcode <- if (is.null(failcode)) lv[2] else as.character(failcode)
    if (!(failcode %in% lv[-1]))
      stopf("'failcode' %s is not an event level of the status (levels: %s; the first, '%s', is censoring)",
            failcode, paste(lv, collapse = ", "), lv[1])
    code <- as.character(status)
    return(ifelse(is.na(code), NA_real_, ifelse(code == lv[1], 0, ifelse(code == failcode, 1, 2))))
  }
  if (is.null(failcode)) return(status)
  # bit64's integer64 (a database's bigint): base %in% and == read its bits as doubles
  if (isInteger64(status)) status <- as.double(status)
  if (!is.numeric(status)) stopf("the status must be numeric or a factor to use 'failcode'")
  if (!(length(failcode) == 1 && failcode %in% status))
    stopf("'failcode' %s does not occur in the status", format(failcode))
  if (failcode == 0) stopf("'failcode' cannot be 0, the censoring code")
  ifelse(status == 0, 0, ifelse(status == failcode, 1, 2))
}

# The model frame of the kept rows, evaluated as lm() evaluates it: on every row of the data,
# the rows with missing values left out afterwards. Terms that depend on all of a column's
# values (ns() and bs() knots at quantiles, poly()'s orthogonal basis, scale()'s centre) are
# then lm's, and so are the coefficients and predictions (built on the kept rows alone, an
# ns() basis had other knots: SUCCESS, and another model than lm's). Variables from the
# formula's environment have the data's length, as lm() takes them. Levels that no kept row
# uses are dropped (see formulaInput()). `kept`: the kept rows' data, with the response
# columns formulaInput() adds; `omitted`: omitMissingRows()'s naAction (NULL: none).
modelFrameOfKeptRows <- function(formula, kept, allRows, omitted) {
  if (is.null(omitted))
    return(model.frame(formula, kept, na.action = "na.pass", drop.unused.levels = TRUE))
  keep <- -as.integer(omitted)
  for (added in setdiff(names(kept), names(allRows))) {  # the survival response's columns
    column <- rep(kept[[added]][1], nrow(allRows))
    column[keep] <- kept[[added]]
    allRows[[added]] <- column
  }
  mf <- model.frame(formula, allRows, na.action = "na.pass", drop.unused.levels = TRUE)
  terms <- attr(mf, "terms")  # holds the data-dependent terms' parameters (predvars)
  mf <- mf[keep, , drop = FALSE]
  for (name in names(mf)) {  # as model.frame()'s drop.unused.levels
    x <- mf[[name]]
    if (is.factor(x) && length(unique(x[!is.na(x)])) < nlevels(x)) {
      mf[[name]] <- x[, drop = TRUE]
      if (!is.null(attr(x, "contrasts")))
        warning(sprintf("contrasts dropped from factor %s due to missing levels", name), call. = FALSE)
    }
  }
  attr(mf, "terms") <- terms
  mf
}

# Rows with a missing value in any variable the formula (or weights, strata, times) uses,
# handled as glm() and coxph() handle them: by `na.action`, and where it is not given
# (NULL) by getOption("na.action") (R's default "na.omit"). na.omit and na.exclude drop the
# rows (names or functions, as lm); na.fail, or the option unset, keeps them, and the checks
# below refuse them, naming the column.
# Returns the kept data and per-row vectors, and the omitted rows as an "omit" / "exclude"
# object that print() counts (naprint) and residuals(), fitted() and predict() read
# (na.exclude pads their results with NA: naresid, napredict).
omitMissingRows <- function(formula, data, vectors, na.action) {
  na.action <- naActionName(na.action)
  if (is.null(na.action)) {
    # covariates with missing values: say how to drop those rows (the response, times and
    # weights have their own checks, which name them)
    covariates <- intersect(all.vars(stats::delete.response(stats::terms(formula))), names(data))
    bad <- if (length(covariates)) !stats::complete.cases(data[, covariates, drop = FALSE]) else FALSE
    if (any(bad)) {
      # named: a strata() variable's NA was called a missing covariate value
      named <- covariates[vapply(covariates, function(v) anyNA(data[[v]]), TRUE)]
      stopf(paste("%d row(s) of 'data' have missing values in %s (first: row %d), and",
                  "na.action is na.fail%s: drop them with na.action = na.omit or na.exclude"),
            sum(bad), paste(sprintf("'%s'", named), collapse = ", "), which(bad)[1],
            if (is.null(getOption("na.action"))) " (getOption(\"na.action\") is unset)" else "")
    }
    return(list(data = data, vectors = vectors, naAction = NULL))
  }
  used <- intersect(all.vars(formula), names(data))
  missing <- if (length(used)) !stats::complete.cases(data[, used, drop = FALSE]) else rep(FALSE, nrow(data))
  for (v in vectors) if (!is.null(v) && length(v) == nrow(data)) missing <- missing | is.na(v)
  if (!any(missing)) return(list(data = data, vectors = vectors, naAction = NULL))
  omitted <- which(missing)
  names(omitted) <- rownames(data)[omitted]
  keep <- !missing
  list(data = data[keep, , drop = FALSE],
       vectors = lapply(vectors, function(v) if (!is.null(v) && length(v) == nrow(data)) v[keep] else v),
       naAction = structure(omitted, class = if (na.action == "na.omit") "omit" else "exclude"))
}

# "na.omit", "na.exclude" or NULL (na.fail: keep the rows, for the checks to refuse) from
# createData()'s na.action, or from getOption("na.action") where that is NULL, as
# model.frame() takes it for glm() and coxph(). Functions or their names; na.pass and other
# functions are refused by name (the fit cannot take rows with missing values).
naActionName <- function(na.action) {
  fromOption <- is.null(na.action)
  if (fromOption) na.action <- getOption("na.action")
  if (is.null(na.action)) return(NULL)
  name <- if (is.character(na.action) && length(na.action) == 1) na.action
          else if (identical(na.action, stats::na.omit)) "na.omit"
          else if (identical(na.action, stats::na.exclude)) "na.exclude"
          else if (identical(na.action, stats::na.fail)) "na.fail"
          else if (identical(na.action, stats::na.pass)) "na.pass"
          else "another function"
  if (!(name %in% c("na.omit", "na.exclude", "na.fail")))
    stopf("%s is %s: Argus takes na.omit, na.exclude or na.fail",
          if (fromOption) "getOption(\"na.action\")" else "'na.action'",
          if (name == "another function") name else sprintf("'%s'", name))
  if (name == "na.fail") NULL else name
}

# Whether a strata() variable (`strataIndex`: positions among the terms' variables, as
# attr(, "specials") gives them) takes part in a term with other variables (x:strata(g)).
strataInInteractions <- function(tt, strataIndex) {
  factors <- attr(tt, "factors")
  if (length(factors) == 0) return(FALSE)
  involved <- colSums(factors[strataIndex, , drop = FALSE] > 0) > 0
  any(involved & colSums(factors > 0) > 1)
}

# An environment over `parent` in which strata() is the factor of the strata that survival's
# strata() makes (survivalStrataOrder()'s labels and order), so that model.frame() and
# model.matrix() code x:strata(g) as coxph does, on the fitted rows and on new ones alike.
strataFactorEnvironment <- function(parent) {
  env <- new.env(parent = parent)
  env$strata <- strataFactor  # (defined here, it sees the package's functions)
  env
}

strataFactor <- function(...) {
  parts <- list(...)
  order <- survivalStrataOrder(sys.call(), parts)
  factor(order$labels[match(stratumKey(pasteStrata(parts)), order$keys)], levels = order$labels)
}
