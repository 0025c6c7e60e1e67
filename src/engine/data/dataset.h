// A data set as the likelihoods see it: the design plus per-row outcome arrays, all in the
// internal row order and all non-owning. Absent optional arrays (nullptr) mean time = 1,
// weight = 1, offset = 0. Weights are separate from the rest so that cross-validation folds
// and bootstrap replicates can share everything else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/model_type.h"
#include "data/column.h"

namespace argus {

// How cases sharing an event time (cox) or a stratum (clr) enter the likelihood (MODELS.md
// §2). cox: Breslow or Efron. clr: Breslow (den^n), Efron (the stratum's cases tied at one
// time, as clogit(method = "efron")) or Exact (the conditional likelihood, clogit's
// default). Every other model: Breslow, which is then its only likelihood.
enum class TieMethod : int { Breslow = 0, Efron = 1, Exact = 2 };

TieMethod parseTieMethod(const std::string& name);  // "breslow", "efron", "exact"; throws

struct OutcomeView {
  const double* y = nullptr;
  const double* time = nullptr;
  // Survival models only. startTime: counting-process entry, the row is at risk on
  // (startTime, time]. censoringSurvival: user-supplied G(time_r-) for Fine-Gray (probability
  // of remaining uncensored just before the row's time); nullptr: Kaplan-Meier inside.
  const double* startTime = nullptr;
  const double* censoringSurvival = nullptr;
  const double* offset = nullptr;
  const std::int32_t* stratum = nullptr;       // conditional and survival: contiguous strata
  const std::int64_t* stratumStart = nullptr;  // nStrata + 1 offsets
  std::int32_t nStrata = 1;
};

struct Dataset {
  ModelType model = ModelType::LeastSquares;
  TieMethod ties = TieMethod::Breslow;  // cox, clr
  bool censoringByStratum = false;      // fgr: one censoring distribution per stratum
  DesignView design;
  OutcomeView outcomes;
  std::int64_t nRows() const { return design.nRows; }
};

// The largest ratio of a Fine-Gray censoring survival over the rows it weighs in a stratum
// (validateDataset; R/data.R says the same).
constexpr double kCensoringSurvivalSpan = 1e10;

// Throws ArgusError naming the first problem: non-finite values, y outside the model's set,
// non-positive exposure time, negative survival times, startTime >= time, negative weights,
// stratum offsets that do not rise from 0 to the number of rows (checked before any row is
// read through them), strata that are not contiguous, survival rows not sorted by time
// descending in a stratum, a Fine-Gray censoring survival that rises with time (a competing
// row's below a later event's) or spans more than kCensoringSurvivalSpan. Every engine entry point runs it before it reads the data.
void validateDataset(const Dataset& data, const double* weights);

}  // namespace argus
