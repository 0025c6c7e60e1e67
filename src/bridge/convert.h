// Conversions between R objects and engine types. No math lives in the bridge.
#pragma once

#include <Rcpp.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/id_index.h"
#include "solver/ccd_solver.h"

namespace argus {
namespace bridge {

// Identifiers arrive as doubles holding whole numbers, or as bit64::integer64 (doubles whose
// bits are an int64); R has checked which, and that doubles are whole.
std::vector<std::int64_t> toInt64(const Rcpp::NumericVector& ids, bool isInteger64);
Rcpp::NumericVector fromInt64(const std::vector<std::int64_t>& ids, bool isInteger64);

// The same identifiers read in place (no copy): R integers, doubles, or integer64's bits.
IdColumn idColumn(SEXP ids, bool isInteger64);

// Optional numeric vector: nullptr for R NULL.
const double* optionalDoubles(SEXP x, R_xlen_t expectedLength, const char* what);

// Views of an "argusData" payload (see R/data.R, engineData()). The R list owns the arrays;
// the binding owns the few that need converting (stratum offsets are doubles in R).
struct DatasetBinding {
  Dataset data;
  std::vector<std::int64_t> stratumStart;
};
void bindDataset(const Rcpp::List& list, DatasetBinding* binding);

// Reports through R (message()) and lets the user interrupt long fits.
class RProgressSink : public ProgressSink {
 public:
  void message(const std::string& text) override;
  void checkInterrupt() override;
};

}  // namespace bridge
}  // namespace argus
