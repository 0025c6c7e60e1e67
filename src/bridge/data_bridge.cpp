// .Call entry points used by createData(): identifier coding, the row plan, the design.
#include <algorithm>

#include "bridge/convert.h"
#include "data/design_storage.h"
#include "data/id_index.h"
#include "data/row_plan.h"
#include "data/value_checks.h"

using namespace Rcpp;

namespace {

// `rows`: the stored rows when they were built in an R vector (buildDesign's rowsOut).
List designList(const argus::BuiltDesign& built, SEXP rows = R_NilValue) {
  const argus::DesignStorage& s = built.storage;
  return List::create(
      _["kinds"] = wrap(s.kinds),
      _["rowStart"] = NumericVector(s.rowStart.begin(), s.rowStart.end()),
      _["valueStart"] = NumericVector(s.valueStart.begin(), s.valueStart.end()),
      _["rows"] = Rf_isNull(rows) ? wrap(s.rows) : rows, _["values"] = wrap(s.values),
      _["firstDuplicate"] = static_cast<double>(built.firstDuplicate),
      _["duplicateRow"] = built.duplicateRow, _["duplicateColumn"] = built.duplicateColumn,
      _["skippedEntries"] = static_cast<double>(built.skippedEntries),
      _["zeroEntries"] = static_cast<double>(built.zeroEntries));
}

}  // namespace

// Codes and positions are written straight into R vectors: on millions of covariate
// entries a copy in and a copy out each cost as much as the lookup.
extern "C" SEXP argus_code_ids(SEXP idsSexp, SEXP isInteger64) {
  BEGIN_RCPP
  const bool i64 = as<bool>(isInteger64);
  const argus::IdColumn ids = argus::bridge::idColumn(idsSexp, i64);
  IntegerVector code(no_init(static_cast<R_xlen_t>(ids.n)));
  const std::vector<std::int64_t> unique = argus::codeIds(ids, code.begin());
  return List::create(_["unique"] = argus::bridge::fromInt64(unique, i64), _["code"] = code);
  END_RCPP
}

extern "C" SEXP argus_lookup_ids(SEXP keysSexp, SEXP tableSexp, SEXP isInteger64) {
  BEGIN_RCPP
  const bool i64 = as<bool>(isInteger64);
  const argus::IdColumn keys = argus::bridge::idColumn(keysSexp, i64);
  IntegerVector position(no_init(static_cast<R_xlen_t>(keys.n)));
  const std::int64_t firstMissing =
      argus::lookupIds(keys, argus::bridge::idColumn(tableSexp, i64), position.begin());
  return List::create(_["position"] = position,
                      _["firstMissing"] = static_cast<double>(firstMissing));
  END_RCPP
}

// Whether long identifier and value vectors pass createData()'s checks, in one pass each
// (R/validate.R words the errors).
extern "C" SEXP argus_first_fractional(SEXP x) {
  BEGIN_RCPP
  const NumericVector v(x);
  return wrap(static_cast<double>(argus::firstFractional(v.begin(), v.size())));
  END_RCPP
}

// `set`: "binary", "count" or "competing" (argus::OutcomeSet).
extern "C" SEXP argus_first_outside_outcome_set(SEXP y, SEXP set) {
  BEGIN_RCPP
  const NumericVector v(y);
  const std::string name = as<std::string>(set);
  argus::OutcomeSet s = argus::OutcomeSet::Competing;
  if (name == "binary") s = argus::OutcomeSet::Binary;
  else if (name == "count") s = argus::OutcomeSet::Count;
  else if (name != "competing") Rcpp::stop("unknown outcome set '" + name + "'");
  return wrap(static_cast<double>(argus::firstOutsideOutcomeSet(v.begin(), v.size(), s)));
  END_RCPP
}

extern "C" SEXP argus_first_below(SEXP x, SEXP bound, SEXP inclusive) {
  BEGIN_RCPP
  const NumericVector v(x);
  return wrap(static_cast<double>(
      argus::firstBelow(v.begin(), v.size(), as<double>(bound), as<bool>(inclusive))));
  END_RCPP
}

// c(min, max) of a numeric or integer vector in one pass; c(NA, NA) when a value is missing
// or not finite (R/validate.R then finds and words it).
extern "C" SEXP argus_value_range(SEXP x) {
  BEGIN_RCPP
  argus::ValueRange r{0.0, 0.0, true};
  if (TYPEOF(x) == INTSXP) r = argus::valueRange(INTEGER(x), Rf_xlength(x), NA_INTEGER);
  else if (TYPEOF(x) == REALSXP) r = argus::valueRange(REAL(x), Rf_xlength(x));
  else Rcpp::stop("a value range needs numbers");
  if (!r.finite) return NumericVector::create(NA_REAL, NA_REAL);
  return NumericVector::create(r.min, r.max);
  END_RCPP
}

extern "C" SEXP argus_absolute_range(SEXP x) {
  BEGIN_RCPP
  const NumericVector v(x);
  const argus::AbsoluteRange r = argus::absoluteRange(v.begin(), v.size());
  return NumericVector::create(r.smallestNonzero, r.largest);
  END_RCPP
}

extern "C" SEXP argus_first_duplicate(SEXP idsSexp, SEXP isInteger64) {
  BEGIN_RCPP
  // In place: a copy to doubles and another to int64 cost more than the check (500k rows).
  return wrap(static_cast<double>(
      argus::firstDuplicateId(argus::bridge::idColumn(idsSexp, as<bool>(isInteger64)))));
  END_RCPP
}

extern "C" SEXP argus_plan_rows(SEXP modelType, SEXP ySexp, SEXP timeSexp, SEXP stratumCode,
                                SEXP nCodes) {
  BEGIN_RCPP
  const NumericVector y(ySexp);
  const double* time = argus::bridge::optionalDoubles(timeSexp, y.size(), "time");
  const std::int32_t* codes = Rf_isNull(stratumCode) ? nullptr : INTEGER(stratumCode);
  const argus::RowPlan plan =
      argus::planRows(argus::parseModelType(as<std::string>(modelType)), y.size(), y.begin(),
                      time, codes, as<int>(nCodes), /*describeUserOrder=*/true);
  // NULL order and map: the user's order is kept (R/data.R keeps its vectors as they are);
  // NULL stratum: it is the stratum codes R passed in.
  const bool kept = plan.keepsUserOrder();
  const bool codesAsGiven =
      kept && codes != nullptr &&
      (plan.userOrder || std::equal(plan.stratum.begin(), plan.stratum.end(), codes));
  return List::create(_["order"] = kept ? R_NilValue : wrap(plan.order),
                      _["stratum"] = codesAsGiven ? R_NilValue : wrap(plan.stratum),
                      _["internalOfUser"] = kept ? R_NilValue : wrap(plan.internalOfUser),
                      _["stratumStart"] = wrap(plan.stratumStart),
                      _["nStrata"] = plan.nStrata,
                      _["droppedRows"] = static_cast<double>(plan.droppedRows),
                      _["droppedStrata"] = plan.droppedStrata);
  END_RCPP
}

// `rowSexp` holds 0-based user rows, mapped to internal rows by the row plan's
// `internalOfUser` (-1: dropped) inside the engine.
extern "C" SEXP argus_build_design(SEXP nRows, SEXP rowSexp, SEXP columnSexp, SEXP valueSexp,
                                   SEXP nColumns, SEXP addIntercept, SEXP internalOfUser) {
  BEGIN_RCPP
  const IntegerVector row(rowSexp), column(columnSexp);
  const bool mapped = !Rf_isNull(internalOfUser);  // NULL: the row plan keeps the user's order
  const IntegerVector map = mapped ? IntegerVector(internalOfUser) : IntegerVector(0);
  argus::TripletInput in;
  in.nRows = static_cast<std::int64_t>(as<double>(nRows));
  in.nColumns = as<int>(nColumns);
  in.nEntries = row.size();
  if (column.size() != row.size()) Rcpp::stop("row and column indices differ in length");
  in.row = row.begin();
  in.internalOfUser = mapped ? map.begin() : nullptr;
  in.nUserRows = mapped ? map.size() : in.nRows;
  in.userRows = true;  // R's rows are user rows: a negative one (NA) is an error, mapped or not
  in.column = column.begin();
  in.value = argus::bridge::optionalDoubles(valueSexp, row.size(), "covariate values");
  in.addIntercept = as<bool>(addIntercept);
  in.rowsMayBeInput = true;
  // The rows go straight into an R vector with room for every entry; only when some entries
  // are not stored (zeros, dropped rows, dense columns) is it cut to length by a copy. Where
  // they would be the input rows themselves, the input vector is the design's (R vectors are
  // not modified in place, so sharing it is safe); the room, never written, faults no pages.
  IntegerVector rows(no_init(static_cast<R_xlen_t>(in.nEntries)));
  const argus::BuiltDesign built = argus::buildDesign(in, rows.begin());
  if (built.rowsAreInput) return designList(built, row);  // row: rowSexp as integers
  const R_xlen_t stored = static_cast<R_xlen_t>(built.storage.rowStart.back());
  if (stored == rows.size()) return designList(built, rows);
  return designList(built, IntegerVector(rows.begin(), rows.begin() + stored));
  END_RCPP
}

// The streamed design of a database covariates table (R/database_input.R): an appender held
// by an external pointer, batches appended in column order, then the finished design.
extern "C" SEXP argus_design_appender(SEXP nRows, SEXP nColumns, SEXP addIntercept) {
  BEGIN_RCPP
  return XPtr<argus::DesignAppender>(
      new argus::DesignAppender(static_cast<std::int64_t>(as<double>(nRows)), as<int>(nColumns),
                                as<bool>(addIntercept)),
      true);
  END_RCPP
}

extern "C" SEXP argus_design_append(SEXP appender, SEXP rowSexp, SEXP columnSexp,
                                    SEXP valueSexp) {
  BEGIN_RCPP
  XPtr<argus::DesignAppender> a(appender);
  const IntegerVector row(rowSexp), column(columnSexp);
  if (column.size() != row.size()) Rcpp::stop("row and column indices differ in length");
  a->append(row.size(), row.begin(), column.begin(),
            argus::bridge::optionalDoubles(valueSexp, row.size(), "covariate values"));
  return R_NilValue;
  END_RCPP
}

extern "C" SEXP argus_design_finish(SEXP appender) {
  BEGIN_RCPP
  XPtr<argus::DesignAppender> a(appender);
  return designList(a->finish());
  END_RCPP
}
