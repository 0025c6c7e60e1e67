#include "data/dataset.h"

#include <cmath>
#include <string>

#include "common/errors.h"

namespace argus {

namespace {
std::string at(std::int64_t r) { return " (internal row " + std::to_string(r + 1) + ")"; }
}  // namespace

TieMethod parseTieMethod(const std::string& name) {
  if (name == "breslow") return TieMethod::Breslow;
  if (name == "efron") return TieMethod::Efron;
  if (name == "exact") return TieMethod::Exact;
  throw ArgusError("unknown ties '" + name + "'; expected breslow, efron or exact");
}

namespace {

// What the model asks of each row, looked up once (the predicates are out-of-line calls).
struct RowRules {
  bool binary, count, fineGray, exposure;  // survival times: any finite value (their order matters)
};

// One row's checks, each with its message: run only on a row the screen below rejected.
void checkRow(const OutcomeView& o, const double* weights, const RowRules& rules, std::int64_t r) {
  const double y = o.y[r];
  ARGUS_REQUIRE(std::isfinite(y), "y is not finite" + at(r));
  if (rules.binary) ARGUS_REQUIRE(y == 0.0 || y == 1.0, "y must be 0 or 1 for this model" + at(r));
  if (rules.count)
    ARGUS_REQUIRE(y >= 0.0 && y == std::floor(y), "y must be a non-negative count" + at(r));
  if (rules.fineGray)
    ARGUS_REQUIRE(y == 0.0 || y == 1.0 || y == 2.0,
                  "y must be 0 (censored), 1 (event) or 2 (competing event) for fgr" + at(r));
  if (o.time) {
    ARGUS_REQUIRE(std::isfinite(o.time[r]), "time is not finite" + at(r));
    if (rules.exposure) ARGUS_REQUIRE(o.time[r] > 0.0, "exposure time must be positive" + at(r));
  }
  if (o.startTime) {
    ARGUS_REQUIRE(std::isfinite(o.startTime[r]), "startTime is not finite" + at(r));
    if (o.time) ARGUS_REQUIRE(o.startTime[r] < o.time[r], "startTime must be before time" + at(r));
  }
  if (o.censoringSurvival)
    ARGUS_REQUIRE(o.censoringSurvival[r] > 0.0 && o.censoringSurvival[r] <= 1.0,
                  "censoring survival must lie in (0, 1]" + at(r));
  if (o.offset) ARGUS_REQUIRE(std::isfinite(o.offset[r]), "offset is not finite" + at(r));
  if (weights)
    ARGUS_REQUIRE(std::isfinite(weights[r]) && weights[r] >= 0.0,
                  "weights must be finite and non-negative" + at(r));
}

// A whole number in [0, 2^53): the conversion is exact there (floor() is a library call on
// baseline x86-64, and this screen runs once per row of every fit).
inline bool isCount(double y) {
  return y >= 0.0 && y < 9007199254740992.0 &&
         y == static_cast<double>(static_cast<std::int64_t>(y));
}

// The same checks as one flag per row, with no message: cheap enough for every fit. A value
// outside a range compares false, so NaN and infinities fail the range tests below.
bool rowPasses(const OutcomeView& o, const double* weights, const RowRules& rules, std::int64_t r) {
  const double y = o.y[r];
  bool ok = std::isfinite(y);
  if (rules.binary) ok &= y == 0.0 || y == 1.0;
  if (rules.count) ok &= isCount(y);
  if (rules.fineGray) ok &= y == 0.0 || y == 1.0 || y == 2.0;
  if (o.time) {
    const double t = o.time[r];
    ok &= std::isfinite(t);
    if (rules.exposure) ok &= t > 0.0;
    if (o.startTime) ok &= o.startTime[r] < t;
  }
  if (o.startTime) ok &= std::isfinite(o.startTime[r]);
  if (o.censoringSurvival) ok &= o.censoringSurvival[r] > 0.0 && o.censoringSurvival[r] <= 1.0;
  if (o.offset) ok &= std::isfinite(o.offset[r]);
  if (weights) ok &= std::isfinite(weights[r]) && weights[r] >= 0.0;
  return ok;
}

// A column's entries screened without messages: rows strictly increasing within [0, n),
// values finite (the loops carry no branch, so they vectorize).
bool entriesPass(const ColumnView& c, std::int64_t n) {
  bool ok = true;
  const std::int64_t stored = c.kind == ColumnKind::Dense ? n : c.nnz;
  if (c.kind != ColumnKind::Dense && stored > 0) {
    ok = c.rows[0] >= 0 && c.rows[stored - 1] < n;
    for (std::int64_t k = 1; k < stored; ++k) ok &= c.rows[k - 1] < c.rows[k];
  }
  if (c.kind != ColumnKind::Indicator)
    for (std::int64_t k = 0; k < stored; ++k) ok &= std::isfinite(c.values[k]);
  return ok;
}

// Stratum offsets, where given, before anything reads a row through them: from 0 to n,
// rising (every stratum holds a row), and with the rows' strata each row in the stratum its
// offsets say. (An edited R object's offset of 1e7 was read as a row: a segfault.)
void checkStrata(const OutcomeView& o, std::int64_t n) {
  if (o.stratumStart == nullptr) return;
  ARGUS_REQUIRE(o.nStrata >= 1, "corrupt strata: no stratum offsets");
  ARGUS_REQUIRE(o.stratumStart[0] == 0 && o.stratumStart[o.nStrata] == n,
                "strata do not cover every row");
  for (std::int32_t s = 0; s < o.nStrata; ++s)
    ARGUS_REQUIRE(o.stratumStart[s] < o.stratumStart[s + 1],
                  "corrupt strata: the offsets of stratum " + std::to_string(s + 1) + " do not rise");
  if (o.stratum == nullptr) return;
  for (std::int32_t s = 0; s < o.nStrata; ++s)
    for (std::int64_t r = o.stratumStart[s]; r < o.stratumStart[s + 1]; ++r)
      ARGUS_REQUIRE(o.stratum[r] == s, "strata are not contiguous in the internal row order");
}

// Fine-Gray's G(t-) given by the user is a survival function: it does not rise with time, so
// that a competing row's weight G(t_e-) / G(time_r-) in a later risk set is at most 1. One
// that rose (a competing row's G of 1e-300 before events at 0.5) weighted that row 1e300 in
// every later risk set, where the sums lost the other rows (two coefficients called aliased,
// with SUCCESS). Nor may it span more than kCensoringSurvivalSpan over the rows it weighs
// (events and competing rows) within a stratum: the risk-set sums then lose a late competing
// row's curvature to rounding (a G falling by 1e-17 after the median time made a coefficient
// "aliased", with SUCCESS; by 1e-15 and less it fitted exactly). Rows are sorted by time
// descending within each stratum (checked before).
void checkCensoringSurvivalShape(const OutcomeView& o, std::int64_t n) {
  constexpr double kRounding = 1e-12;  // relative
  double laterEvent = 0.0;  // the largest G of an event at a strictly later time in the stratum
  double atTime = 0.0;      // the largest G of an event at the current time
  double largest = 0.0, smallest = INFINITY;  // over the stratum's events and competing rows
  for (std::int64_t r = 0; r < n; ++r) {
    const bool newStratum = r == 0 || (o.stratum && o.stratum[r] != o.stratum[r - 1]);
    if (newStratum) {
      laterEvent = atTime = largest = 0.0;
      smallest = INFINITY;
    } else if (o.time[r] != o.time[r - 1]) {
      laterEvent = std::fmax(laterEvent, atTime);
      atTime = 0.0;
    }
    const double g = o.censoringSurvival[r];
    if (o.y[r] == 1.0) atTime = std::fmax(atTime, g);
    if (o.y[r] == 2.0)
      ARGUS_REQUIRE(!(laterEvent > g * (1.0 + kRounding)),
                    "censoring survival rises with time: a competing row's G(t-) is below a later"
                    " event's" + at(r));
    if (o.y[r] == 1.0 || o.y[r] == 2.0) {
      largest = std::fmax(largest, g);
      smallest = std::fmin(smallest, g);
      ARGUS_REQUIRE(largest <= kCensoringSurvivalSpan * smallest,
                    "censoring survival spans more than 1e10 within a stratum, beyond what the"
                    " Fine-Gray sums carry" + at(r));
    }
  }
}

}  // namespace

void validateDataset(const Dataset& data, const double* weights) {
  const std::int64_t n = data.nRows();
  const OutcomeView& o = data.outcomes;
  ARGUS_REQUIRE(n > 0, "the data have no rows");
  ARGUS_REQUIRE(o.y != nullptr, "the outcome y is missing");
  checkStrata(o, n);
  const RowRules rules{requiresBinaryOutcome(data.model), requiresCountOutcome(data.model),
                       data.model == ModelType::FineGray, usesExposureTime(data.model)};
  for (std::int64_t r = 0; r < n; ++r)
    if (!rowPasses(o, weights, rules, r)) checkRow(o, weights, rules, r);
  if (isSurvival(data.model)) {
    ARGUS_REQUIRE(o.time != nullptr, "survival models need time");
    ARGUS_REQUIRE(data.model == ModelType::Cox || o.startTime == nullptr,
                  "fgr does not take counting-process (startTime) data");
    ARGUS_REQUIRE(data.model == ModelType::Cox || data.ties == TieMethod::Breslow,
                  "fgr uses Breslow ties only");
    ARGUS_REQUIRE(data.ties != TieMethod::Exact,
                  "exact ties are not implemented for cox (use Breslow or Efron)");
  } else {
    ARGUS_REQUIRE(o.startTime == nullptr, "startTime is only for survival models");
    ARGUS_REQUIRE(data.model == ModelType::ConditionalLogistic ||
                      data.ties == TieMethod::Breslow,
                  "ties other than Breslow are for cox and clr only");
  }
  if (hasStratumBaseline(data.model))
    ARGUS_REQUIRE(o.stratum != nullptr && o.stratumStart != nullptr,
                  "conditional and survival models need strata (one stratum is fine)");
  if (isSurvival(data.model))
    for (std::int64_t r = 1; r < n; ++r)
      ARGUS_REQUIRE(o.stratum[r] != o.stratum[r - 1] || o.time[r] <= o.time[r - 1],
                    "survival rows are not sorted by time descending" + at(r));
  if (data.model == ModelType::FineGray && o.censoringSurvival) checkCensoringSurvivalShape(o, n);
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    const ColumnView& c = data.design.columns[j];
    if (c.kind == ColumnKind::Intercept) {
      ARGUS_REQUIRE(!hasStratumBaseline(data.model),
              "an intercept is not identifiable in a conditional or survival model");
      continue;
    }
    if (entriesPass(c, n)) continue;
    std::int64_t last = -1;
    forEachEntry(c, n, [&](std::int64_t r, double x) {
      ARGUS_REQUIRE(std::isfinite(x), "covariate column " + std::to_string(j + 1) +
                                    " has a non-finite value");
      ARGUS_REQUIRE(r > last && r < n, "covariate column " + std::to_string(j + 1) +
                                     " has unsorted or out-of-range rows");
      last = r;
    });
  }
}

}  // namespace argus
