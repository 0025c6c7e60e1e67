// Which rows go together when data are split (cross-validation) or resampled (bootstrap),
// and the cross-validation folds themselves.
//
// A sampling unit is a row, a whole stratum or a whole cluster. Conditional models need whole
// strata:
// splitting a matched set or a patient's eras across folds would leak information and make
// the held-out likelihood meaningless. So Auto resolves to Stratum for conditional models and
// to Row otherwise. Survival strata are few large groups with their own baseline hazard (sex,
// site), not units of sampling: a held-out fold keeps its rows' strata, and its partial
// likelihood is taken over the held-out rows' own risk sets.
//
// Fold assignment of one repetition: the units are put in a random order (RandomStream seeded
// with streamSeed(seed, repetition)) and dealt to folds 0, 1, ..., k-1, 0, 1, ... in that
// order, so fold sizes (in units) differ by at most one. With outcome balancing the units that
// hold an event (a row with y > 0; y = 1 for survival models) are dealt first, so each fold also gets its share of
// event units, within one. Repetitions re-permute with their own stream.
#pragma once

#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace argus {

// Clusters (a formula's cluster(id): a patient's (start, stop] rows) are the units of Auto
// where they are given and the model is not conditional (whose units stay its strata): a fold
// then never holds out part of a patient, and a bootstrap draws patients.
enum class SamplingUnit { Auto, Row, Stratum, Cluster };

// Auto -> Row or Stratum as described above; Stratum without strata (or with one) -> Row,
// each row its own unit, as the incumbent gives each row its own person id there.
SamplingUnit resolveSamplingUnit(const Dataset& data, SamplingUnit requested);
std::int64_t unitCount(const Dataset& data, SamplingUnit resolved);
inline std::int64_t unitOfRow(const Dataset& data, SamplingUnit resolved, std::int64_t row) {
  return resolved == SamplingUnit::Stratum ? data.outcomes.stratum[row] : row;
}
// The resolved units with their clusters: `clusterOfRow` (per internal row, its cluster
// 0 .. C-1; empty: none) makes the clusters the units of Auto (and of Cluster) for a model
// that is not conditional; otherwise resolveSamplingUnit() decides.
struct SamplingUnits {
  SamplingUnit unit = SamplingUnit::Row;
  std::int64_t count = 0;
  const std::vector<std::int32_t>* clusterOfRow = nullptr;  // set where unit is Cluster
  std::int64_t of(const Dataset& data, std::int64_t row) const {
    return unit == SamplingUnit::Cluster ? (*clusterOfRow)[row] : unitOfRow(data, unit, row);
  }
};
SamplingUnits resolveSamplingUnits(const Dataset& data, SamplingUnit requested,
                                   const std::vector<std::int32_t>& clusterOfRow);
// Per unit: does any of its rows have an event (y > 0; y = 1 for survival models)?
std::vector<unsigned char> unitHasEvent(const Dataset& data, const SamplingUnits& units);

struct FoldSettings {
  int folds = 10;
  int repetitions = 1;
  SamplingUnit unit = SamplingUnit::Auto;
  bool balanceOutcome = false;
  std::uint64_t seed = 0;
  std::vector<std::int32_t> clusterOfRow;  // SamplingUnits: empty, or one cluster per row
};

struct FoldPlan {
  int folds = 0;
  SamplingUnit unit = SamplingUnit::Row;                 // resolved
  std::vector<std::vector<std::int32_t>> foldOfRow;      // [repetition][internal row]
  int repetitions() const { return static_cast<int>(foldOfRow.size()); }
};

FoldPlan makeFoldPlan(const Dataset& data, const FoldSettings& settings);

// Folds given by the user: one id in 0..k-1 per internal row, k = largest id + 1 >= 2. Every
// fold must hold a row, and with Stratum units the rows of a stratum must share their fold.
FoldPlan foldPlanFromIds(const Dataset& data, std::vector<std::int32_t> foldOfRow,
                         SamplingUnit requested);

// Weights of the fit that leaves `fold` out (user weight, 0 inside the fold) and of the
// held-out rows (user weight inside the fold, 0 elsewhere). userWeights may be nullptr (1).
void foldWeights(const FoldPlan& plan, int repetition, int fold, const double* userWeights,
                 std::vector<double>* training, std::vector<double>* heldOut);

}  // namespace argus
