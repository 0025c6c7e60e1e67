// Registers the .Call entry points (kept at the top of src/ so R sees a source file there) (NAMESPACE: useDynLib(Argus, .registration = TRUE)).
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

extern "C" {
SEXP argus_code_ids(SEXP, SEXP);
SEXP argus_lookup_ids(SEXP, SEXP, SEXP);
SEXP argus_first_duplicate(SEXP, SEXP);
SEXP argus_plan_rows(SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP argus_build_design(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP argus_first_fractional(SEXP);
SEXP argus_absolute_range(SEXP);
SEXP argus_value_range(SEXP);
SEXP argus_first_outside_outcome_set(SEXP, SEXP);
SEXP argus_first_below(SEXP, SEXP, SEXP);
SEXP argus_design_appender(SEXP, SEXP, SEXP);
SEXP argus_design_append(SEXP, SEXP, SEXP, SEXP);
SEXP argus_design_finish(SEXP);
SEXP argus_fit(SEXP, SEXP);
SEXP argus_cross_validate(SEXP, SEXP, SEXP);
SEXP argus_bootstrap(SEXP, SEXP, SEXP);
SEXP argus_cv_fold_tasks(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP argus_plan_folds(SEXP, SEXP);
SEXP argus_cuda_info();
SEXP argus_hessian(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP argus_linear_predictor(SEXP, SEXP);
SEXP argus_baseline_hazard(SEXP, SEXP, SEXP);
SEXP argus_profile_intervals(SEXP, SEXP, SEXP, SEXP);
SEXP argus_profile_values(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP argus_profile_adaptive(SEXP, SEXP, SEXP, SEXP);

static const R_CallMethodDef callMethods[] = {
    {"argus_code_ids", (DL_FUNC)&argus_code_ids, 2},
    {"argus_lookup_ids", (DL_FUNC)&argus_lookup_ids, 3},
    {"argus_first_duplicate", (DL_FUNC)&argus_first_duplicate, 2},
    {"argus_plan_rows", (DL_FUNC)&argus_plan_rows, 5},
    {"argus_build_design", (DL_FUNC)&argus_build_design, 7},
    {"argus_first_fractional", (DL_FUNC)&argus_first_fractional, 1},
    {"argus_absolute_range", (DL_FUNC)&argus_absolute_range, 1},
    {"argus_value_range", (DL_FUNC)&argus_value_range, 1},
    {"argus_first_outside_outcome_set", (DL_FUNC)&argus_first_outside_outcome_set, 2},
    {"argus_first_below", (DL_FUNC)&argus_first_below, 3},
    {"argus_design_appender", (DL_FUNC)&argus_design_appender, 3},
    {"argus_design_append", (DL_FUNC)&argus_design_append, 4},
    {"argus_design_finish", (DL_FUNC)&argus_design_finish, 1},
    {"argus_fit", (DL_FUNC)&argus_fit, 2},
    {"argus_cross_validate", (DL_FUNC)&argus_cross_validate, 3},
    {"argus_bootstrap", (DL_FUNC)&argus_bootstrap, 3},
    {"argus_cv_fold_tasks", (DL_FUNC)&argus_cv_fold_tasks, 6},
    {"argus_plan_folds", (DL_FUNC)&argus_plan_folds, 2},
    {"argus_cuda_info", (DL_FUNC)&argus_cuda_info, 0},
    {"argus_hessian", (DL_FUNC)&argus_hessian, 6},
    {"argus_linear_predictor", (DL_FUNC)&argus_linear_predictor, 2},
    {"argus_baseline_hazard", (DL_FUNC)&argus_baseline_hazard, 3},
    {"argus_profile_intervals", (DL_FUNC)&argus_profile_intervals, 4},
    {"argus_profile_values", (DL_FUNC)&argus_profile_values, 7},
    {"argus_profile_adaptive", (DL_FUNC)&argus_profile_adaptive, 4},
    {NULL, NULL, 0}};

void R_init_Argus(DllInfo* dll) {
  R_registerRoutines(dll, NULL, callMethods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
}
}
