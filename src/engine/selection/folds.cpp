#include "selection/folds.h"

#include <algorithm>
#include <string>

#include "common/errors.h"
#include "selection/random_stream.h"

namespace argus {

SamplingUnit resolveSamplingUnit(const Dataset& data, SamplingUnit requested) {
  const bool hasStrata = data.outcomes.stratum != nullptr && data.outcomes.stratumStart != nullptr;
  if (requested == SamplingUnit::Stratum) {
    // Without strata (or with one) each row is its own unit: the incumbent's person ids
    // default to the row ids there (PatientLevelPrediction asks byPid of plain lr data).
    return hasStrata && data.outcomes.nStrata > 1 ? SamplingUnit::Stratum : SamplingUnit::Row;
  }
  if (requested == SamplingUnit::Row) return SamplingUnit::Row;
  return isConditional(data.model) ? SamplingUnit::Stratum : SamplingUnit::Row;
}

std::int64_t unitCount(const Dataset& data, SamplingUnit resolved) {
  return resolved == SamplingUnit::Stratum ? data.outcomes.nStrata : data.nRows();
}


SamplingUnits resolveSamplingUnits(const Dataset& data, SamplingUnit requested,
                                   const std::vector<std::int32_t>& clusterOfRow) {
  SamplingUnits units;
  const bool byCluster = !clusterOfRow.empty() && !isConditional(data.model) &&
                         (requested == SamplingUnit::Auto || requested == SamplingUnit::Cluster);
  if (byCluster) {
    ARGUS_REQUIRE(static_cast<std::int64_t>(clusterOfRow.size()) == data.nRows(),
                  "the clusters must have one entry per row");
    const auto range = std::minmax_element(clusterOfRow.begin(), clusterOfRow.end());
    ARGUS_REQUIRE(*range.first >= 0 && *range.second < data.nRows(),
                  "cluster codes must lie in 0 .. rows - 1");
    units.unit = SamplingUnit::Cluster;
    units.count = static_cast<std::int64_t>(*range.second) + 1;
    units.clusterOfRow = &clusterOfRow;
    return units;
  }
  units.unit = resolveSamplingUnit(data, requested == SamplingUnit::Cluster ? SamplingUnit::Auto : requested);
  units.count = unitCount(data, units.unit);
  return units;
}

std::vector<unsigned char> unitHasEvent(const Dataset& data, const SamplingUnits& units) {
  std::vector<unsigned char> event(static_cast<std::size_t>(units.count), 0);
  for (std::int64_t r = 0; r < data.nRows(); ++r)
    if (isSurvival(data.model) ? data.outcomes.y[r] == 1.0 : data.outcomes.y[r] > 0.0)
      event[units.of(data, r)] = 1;
  return event;
}

namespace {

std::vector<std::int32_t> assignOneRepetition(const Dataset& data, const FoldSettings& settings,
                                              const SamplingUnits& units, int repetition) {
  const std::int64_t nUnits = units.count;
  std::vector<std::int64_t> order(static_cast<std::size_t>(nUnits));
  for (std::int64_t u = 0; u < nUnits; ++u) order[u] = u;
  RandomStream rng(streamSeed(settings.seed, static_cast<std::uint64_t>(repetition)));
  rng.shuffle(&order);
  if (settings.balanceOutcome) {
    const std::vector<unsigned char> event = unitHasEvent(data, units);
    std::stable_partition(order.begin(), order.end(),
                          [&](std::int64_t u) { return event[u] != 0; });
  }
  std::vector<std::int32_t> foldOfUnit(static_cast<std::size_t>(nUnits));
  for (std::size_t i = 0; i < order.size(); ++i)
    foldOfUnit[order[i]] = static_cast<std::int32_t>(i % static_cast<std::size_t>(settings.folds));
  std::vector<std::int32_t> foldOfRow(static_cast<std::size_t>(data.nRows()));
  for (std::int64_t r = 0; r < data.nRows(); ++r) foldOfRow[r] = foldOfUnit[units.of(data, r)];
  return foldOfRow;
}

}  // namespace

FoldPlan makeFoldPlan(const Dataset& data, const FoldSettings& settings) {
  validateDataset(data, nullptr);  // the units are read through the strata
  ARGUS_REQUIRE(settings.folds >= 2, "at least 2 folds are needed");
  ARGUS_REQUIRE(settings.repetitions >= 1, "at least 1 cross-validation repetition is needed");
  FoldPlan plan;
  plan.folds = settings.folds;
  const SamplingUnits units = resolveSamplingUnits(data, settings.unit, settings.clusterOfRow);
  plan.unit = units.unit;
  const char* what = plan.unit == SamplingUnit::Stratum   ? "strata"
                     : plan.unit == SamplingUnit::Cluster ? "clusters"
                                                          : "rows";
  ARGUS_REQUIRE(units.count >= settings.folds,
                std::to_string(settings.folds) + " folds need at least as many " + what +
                    " (the data have " + std::to_string(units.count) + ")");
  for (int rep = 0; rep < settings.repetitions; ++rep)
    plan.foldOfRow.push_back(assignOneRepetition(data, settings, units, rep));
  return plan;
}

FoldPlan foldPlanFromIds(const Dataset& data, std::vector<std::int32_t> foldOfRow,
                         SamplingUnit requested) {
  validateDataset(data, nullptr);
  ARGUS_REQUIRE(static_cast<std::int64_t>(foldOfRow.size()) == data.nRows(),
                "fold ids: one per row is required");
  FoldPlan plan;
  plan.unit = resolveSamplingUnit(data, requested);
  std::int32_t largest = -1;
  for (std::int32_t f : foldOfRow) {
    ARGUS_REQUIRE(f >= 0, "fold ids must be non-negative");
    largest = std::max(largest, f);
  }
  plan.folds = largest + 1;
  ARGUS_REQUIRE(plan.folds >= 2, "user-supplied folds: at least 2 folds are needed");
  std::vector<std::int64_t> size(static_cast<std::size_t>(plan.folds), 0);
  for (std::int32_t f : foldOfRow) ++size[f];
  for (int f = 0; f < plan.folds; ++f)
    ARGUS_REQUIRE(size[f] > 0, "user-supplied fold " + std::to_string(f + 1) +
                                   " has no rows (after dropping strata without events)");
  if (plan.unit == SamplingUnit::Stratum) {
    const std::int64_t* start = data.outcomes.stratumStart;
    for (std::int32_t s = 0; s < data.outcomes.nStrata; ++s)
      for (std::int64_t r = start[s]; r < start[s + 1]; ++r)
        ARGUS_REQUIRE(foldOfRow[r] == foldOfRow[start[s]],
                      "user-supplied folds split stratum " + std::to_string(s + 1) +
                          " (internal numbering): the rows of a stratum must share a fold");
  }
  plan.foldOfRow.push_back(std::move(foldOfRow));
  return plan;
}

void foldWeights(const FoldPlan& plan, int repetition, int fold, const double* userWeights,
                 std::vector<double>* training, std::vector<double>* heldOut) {
  const std::vector<std::int32_t>& folds = plan.foldOfRow[repetition];
  training->resize(folds.size());
  heldOut->resize(folds.size());
  for (std::size_t r = 0; r < folds.size(); ++r) {
    const double w = userWeights ? userWeights[r] : 1.0;
    const bool out = folds[r] == fold;
    (*training)[r] = out ? 0.0 : w;
    (*heldOut)[r] = out ? w : 0.0;
  }
}

}  // namespace argus
