// Nonparametric bootstrap of a fit at a fixed prior (MODELS.md §6).
//
// Replicate b draws as many units (rows, whole strata: SamplingUnit, folds.h; or the clusters
// the request gives, as a patient's (start, stop] rows) as the data have, uniformly with
// replacement, from RandomStream(streamSeed(seed, b)). A unit drawn c
// times enters the refit with weight c x its user weight, which is the same likelihood as
// c copies of it (the conditional likelihoods included: a stratum counted twice contributes
// its term twice). Each refit starts from the request's start, as the original fit did, so a
// replicate equals fitCcd() with those weights, and replicate b is the same whichever thread
// runs it: the results are identical for any number of threads.
#pragma once

#include <cstdint>
#include <vector>

#include "selection/folds.h"
#include "solver/ccd_solver.h"

namespace argus {

struct BootstrapRequest {
  FitRequest fit;  // data, user weights, prior (the chosen variance), start, fixed, control
  int replicates = 200;
  // The replicates run are firstReplicate .. firstReplicate + replicates - 1: a share of a
  // larger run (spread over processes), each replicate the same as in the whole run.
  int firstReplicate = 0;
  std::uint64_t seed = 0;
  SamplingUnit unit = SamplingUnit::Auto;
  int threads = 1;
  bool keepCounts = false;  // return every replicate's counts per unit
  bool messages = false;    // progress lines (about every tenth of the replicates)
  // Per internal row, its cluster 0 .. C-1 (cluster(id) of the formula), or empty:
  // resolveSamplingUnits() (folds.h).
  std::vector<std::int32_t> clusterOfRow;
};

struct BootstrapResult {
  std::vector<double> beta;  // replicates x p, replicate-major; NaN where a replicate aliased the column
  std::vector<FitStatus> status;
  std::vector<std::int32_t> counts;  // replicates x units, replicate-major (keepCounts)
  SamplingUnit unit = SamplingUnit::Row;
  std::int64_t units = 0;
};

// How many times each of nUnits units is drawn in replicate `replicate`.
std::vector<std::int32_t> resampleCounts(std::int64_t nUnits, std::uint64_t seed, int replicate);

BootstrapResult runBootstrap(const BootstrapRequest& request, ProgressSink* progress = nullptr);

}  // namespace argus
