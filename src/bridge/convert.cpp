#include "bridge/convert.h"

#include <cmath>
#include <cstring>

#include "common/errors.h"
#include "data/design_storage.h"

namespace argus {
namespace bridge {

std::vector<std::int64_t> toInt64(const Rcpp::NumericVector& ids, bool isInteger64) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(ids.size()));
  if (isInteger64) {
    std::memcpy(out.data(), ids.begin(), out.size() * sizeof(std::int64_t));
  } else {
    for (R_xlen_t i = 0; i < ids.size(); ++i) out[i] = static_cast<std::int64_t>(ids[i]);
  }
  return out;
}

Rcpp::NumericVector fromInt64(const std::vector<std::int64_t>& ids, bool isInteger64) {
  Rcpp::NumericVector out(static_cast<R_xlen_t>(ids.size()));
  if (isInteger64) {
    std::memcpy(out.begin(), ids.data(), ids.size() * sizeof(std::int64_t));
  } else {
    for (std::size_t i = 0; i < ids.size(); ++i) out[i] = static_cast<double>(ids[i]);
  }
  return out;
}

IdColumn idColumn(SEXP ids, bool isInteger64) {
  IdColumn out;
  out.n = static_cast<std::int64_t>(Rf_xlength(ids));
  if (TYPEOF(ids) == INTSXP && !isInteger64) {
    out.type = IdColumn::Type::Int32;
    out.data = INTEGER(ids);
  } else {
    ARGUS_REQUIRE(TYPEOF(ids) == REALSXP, "identifiers must be numbers");
    out.type = isInteger64 ? IdColumn::Type::Int64 : IdColumn::Type::Double;
    out.data = REAL(ids);
  }
  return out;
}

const double* optionalDoubles(SEXP x, R_xlen_t expectedLength, const char* what) {
  if (Rf_isNull(x)) return nullptr;
  ARGUS_REQUIRE(TYPEOF(x) == REALSXP, std::string(what) + " must be a double vector");
  ARGUS_REQUIRE(Rf_xlength(x) == expectedLength, std::string(what) + " has the wrong length");
  return REAL(x);
}

namespace {
// A count or offset stored as an R number, as the engine's integer: whole, within [0, limit].
std::int64_t wholeNumber(double x, double limit, const char* what) {
  ARGUS_REQUIRE(x >= 0.0 && x <= limit && x == std::floor(x), what);
  return static_cast<std::int64_t>(x);
}
}  // namespace

void bindDataset(const Rcpp::List& data, DatasetBinding* binding) {
  Dataset& d = binding->data;
  d.model = parseModelType(Rcpp::as<std::string>(data["modelType"]));
  const R_xlen_t n = static_cast<R_xlen_t>(
      wholeNumber(Rcpp::as<double>(data["nRows"]), 2147483647.0, "corrupt data: nRows"));
  const Rcpp::List design = data["design"];
  // The rows and values are read in place after this function returns: a vector of another
  // type would be a converted copy, freed with it.
  SEXP rowsSexp = design["rows"];
  SEXP valuesSexp = design["values"];
  ARGUS_REQUIRE(TYPEOF(rowsSexp) == INTSXP && TYPEOF(valuesSexp) == REALSXP,
                "corrupt design: rows must be integers and values doubles");
  const Rcpp::IntegerVector kinds = design["kinds"];
  const Rcpp::NumericVector rowStart = design["rowStart"];
  const Rcpp::NumericVector valueStart = design["valueStart"];
  ARGUS_REQUIRE(rowStart.size() == kinds.size() + 1 && valueStart.size() == kinds.size() + 1,
          "corrupt design: column offsets have the wrong length");
  d.design = makeDesignView(n, static_cast<std::size_t>(kinds.size()), kinds.begin(),
                            rowStart.begin(), valueStart.begin(), INTEGER(rowsSexp),
                            static_cast<std::size_t>(Rf_xlength(rowsSexp)), REAL(valuesSexp),
                            static_cast<std::size_t>(Rf_xlength(valuesSexp)));
  d.outcomes.y = optionalDoubles(data["y"], n, "y");
  d.outcomes.time = optionalDoubles(data["time"], n, "time");
  d.outcomes.offset = optionalDoubles(data["offset"], n, "offset");
  // Survival fields (absent from data made for other models).
  if (data.containsElementNamed("startTime"))
    d.outcomes.startTime = optionalDoubles(data["startTime"], n, "startTime");
  if (data.containsElementNamed("censoringSurvival"))
    d.outcomes.censoringSurvival =
        optionalDoubles(data["censoringSurvival"], n, "censoringSurvival");
  if (data.containsElementNamed("ties"))
    d.ties = parseTieMethod(Rcpp::as<std::string>(data["ties"]));
  if (data.containsElementNamed("censoringByStratum"))
    d.censoringByStratum = Rcpp::as<bool>(data["censoringByStratum"]);
  SEXP stratum = data["stratum"];
  SEXP stratumStart = data["stratumStart"];
  if (!Rf_isNull(stratum)) {
    ARGUS_REQUIRE(TYPEOF(stratum) == INTSXP && Rf_xlength(stratum) == n, "corrupt strata");
    d.outcomes.stratum = INTEGER(stratum);
  }
  if (!Rf_isNull(stratumStart)) {
    Rcpp::NumericVector ss(stratumStart);
    ARGUS_REQUIRE(ss.size() >= 2 && ss.size() - 1 <= n, "corrupt strata: stratumStart has the wrong length");
    binding->stratumStart.resize(static_cast<std::size_t>(ss.size()));
    for (R_xlen_t s = 0; s < ss.size(); ++s)
      binding->stratumStart[s] = wholeNumber(ss[s], static_cast<double>(n), "corrupt strata: stratumStart");
    d.outcomes.stratumStart = binding->stratumStart.data();
    d.outcomes.nStrata = static_cast<std::int32_t>(ss.size() - 1);
  }
}

// As R's message(): on stderr, and suppressMessages() silences it, like the one-line summary
// R prints itself (the engine's lines went to stdout). A calling handler's muffle restart
// returns inside message(); an exiting handler's jump unwinds through Rcpp's protection.
void RProgressSink::message(const std::string& text) {
  Rcpp::Function rMessage("message", R_BaseEnv);
  rMessage(text);
}

namespace {
// What R_CheckUserInterrupt() raised other than an interrupt: an error (setTimeLimit()'s).
struct CheckOutcome {
  bool error = false;
  std::string message;
};
SEXP checkInterruptBody(void*) {
  R_CheckUserInterrupt();
  return R_NilValue;
}
SEXP recordError(SEXP condition, void* data) {
  auto* outcome = static_cast<CheckOutcome*>(data);
  outcome->error = true;
  SEXP call = PROTECT(Rf_lang2(Rf_install("conditionMessage"), condition));
  SEXP text = PROTECT(Rf_eval(call, R_BaseEnv));
  if (TYPEOF(text) == STRSXP && Rf_length(text) > 0) outcome->message = CHAR(STRING_ELT(text, 0));
  UNPROTECT(2);
  return R_NilValue;
}
void checkInterruptCallback(void* data) { R_tryCatchError(checkInterruptBody, nullptr, recordError, data); }
}  // namespace

void RProgressSink::checkInterrupt() {
  // R_CheckUserInterrupt() would longjmp over C++ frames; R_ToplevelExec contains it, and
  // R_tryCatchError inside it keeps an error apart from an interrupt. Rcpp's END_RCPP turns
  // InterruptedException into R's own interrupt (an "interrupt" condition, which
  // tryCatch(error = ) does not catch: as an ArgusError, Ctrl-C in a loop of fits wrapped in
  // tryCatch(error = ) was swallowed and the loop went on); an error (a time limit) stays an
  // error with R's message (both said "interrupted by the user").
  CheckOutcome outcome;
  if (R_ToplevelExec(checkInterruptCallback, &outcome) == FALSE) throw Rcpp::internal::InterruptedException();
  if (outcome.error) throw ArgusError(outcome.message.empty() ? "stopped by R" : outcome.message);
}

}  // namespace bridge
}  // namespace argus
