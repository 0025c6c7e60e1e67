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

void validateDataset(const Dataset& data, const double* weights) {
  const std::int64_t n = data.nRows();
  const OutcomeView& o = data.outcomes;
  ARGUS_REQUIRE(n > 0, "the data have no rows");
  ARGUS_REQUIRE(o.y != nullptr, "the outcome y is missing");
  for (std::int64_t r = 0; r < n; ++r) {
    const double y = o.y[r];
    ARGUS_REQUIRE(std::isfinite(y), "y is not finite" + at(r));
    if (requiresBinaryOutcome(data.model))
      ARGUS_REQUIRE(y == 0.0 || y == 1.0, "y must be 0 or 1 for this model" + at(r));
    if (requiresCountOutcome(data.model))
      ARGUS_REQUIRE(y >= 0.0 && y == std::floor(y), "y must be a non-negative count" + at(r));
    if (data.model == ModelType::FineGray)
      ARGUS_REQUIRE(y == 0.0 || y == 1.0 || y == 2.0,
                    "y must be 0 (censored), 1 (event) or 2 (competing event) for fgr" + at(r));
    if (o.time) {
      ARGUS_REQUIRE(std::isfinite(o.time[r]), "time is not finite" + at(r));
      if (usesExposureTime(data.model))
        ARGUS_REQUIRE(o.time[r] > 0.0, "exposure time must be positive" + at(r));
      if (isSurvival(data.model)) ARGUS_REQUIRE(o.time[r] >= 0.0, "time is negative" + at(r));
    }
    if (o.startTime) {
      ARGUS_REQUIRE(std::isfinite(o.startTime[r]), "startTime is not finite" + at(r));
      ARGUS_REQUIRE(o.startTime[r] < o.time[r], "startTime must be before time" + at(r));
    }
    if (o.censoringSurvival)
      ARGUS_REQUIRE(o.censoringSurvival[r] > 0.0 && o.censoringSurvival[r] <= 1.0,
                    "censoring survival must lie in (0, 1]" + at(r));
    if (o.offset) ARGUS_REQUIRE(std::isfinite(o.offset[r]), "offset is not finite" + at(r));
    if (weights)
      ARGUS_REQUIRE(std::isfinite(weights[r]) && weights[r] >= 0.0,
              "weights must be finite and non-negative" + at(r));
  }
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
  if (hasStratumBaseline(data.model)) {
    ARGUS_REQUIRE(o.stratum != nullptr && o.stratumStart != nullptr,
                  "conditional and survival models need strata (one stratum is fine)");
    for (std::int32_t s = 0; s < o.nStrata; ++s)
      for (std::int64_t r = o.stratumStart[s]; r < o.stratumStart[s + 1]; ++r)
        ARGUS_REQUIRE(o.stratum[r] == s, "strata are not contiguous in the internal row order");
    ARGUS_REQUIRE(o.stratumStart[o.nStrata] == n, "strata do not cover every row");
  }
  if (isSurvival(data.model))
    for (std::int64_t r = 1; r < n; ++r)
      ARGUS_REQUIRE(o.stratum[r] != o.stratum[r - 1] || o.time[r] <= o.time[r - 1],
                    "survival rows are not sorted by time descending" + at(r));
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    const ColumnView& c = data.design.columns[j];
    if (c.kind == ColumnKind::Intercept) {
      ARGUS_REQUIRE(!hasStratumBaseline(data.model),
              "an intercept is not identifiable in a conditional or survival model");
      continue;
    }
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
