#include "selection/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/errors.h"
#include "common/task_runner.h"
#include "selection/random_stream.h"

namespace argus {

std::vector<std::int32_t> resampleCounts(std::int64_t nUnits, std::uint64_t seed, int replicate) {
  std::vector<std::int32_t> counts(static_cast<std::size_t>(nUnits), 0);
  RandomStream rng(streamSeed(seed, static_cast<std::uint64_t>(replicate)));
  for (std::int64_t i = 0; i < nUnits; ++i)
    ++counts[rng.uniformBelow(static_cast<std::uint64_t>(nUnits))];
  return counts;
}

BootstrapResult runBootstrap(const BootstrapRequest& request, ProgressSink* progress) {
  ARGUS_REQUIRE(request.fit.data != nullptr, "no data");
  ARGUS_REQUIRE(request.replicates >= 1, "at least one bootstrap replicate is needed");
  ARGUS_REQUIRE(request.firstReplicate >= 0, "the first replicate must not be negative");
  ARGUS_REQUIRE(request.threads >= 1, "threads must be at least 1");
  const Dataset& data = *request.fit.data;
  validateDataset(data, request.fit.weights);
  BootstrapRequest local;
  const BootstrapRequest& req = withSharedDevice(request, &local);
  const std::size_t p = data.design.nColumns();
  const std::int64_t n = data.nRows();

  BootstrapResult result;
  const SamplingUnits units = resolveSamplingUnits(data, req.unit, req.clusterOfRow);
  result.unit = units.unit;
  result.units = units.count;
  const std::size_t replicates = static_cast<std::size_t>(req.replicates);
  result.beta.assign(replicates * p, 0.0);
  result.status.assign(replicates, FitStatus::Success);
  if (req.keepCounts) result.counts.assign(replicates * static_cast<std::size_t>(result.units), 0);

  auto replicate = [&](std::size_t b, ProgressSink* sink) {
    const std::vector<std::int32_t> counts =
        resampleCounts(result.units, req.seed, req.firstReplicate + static_cast<int>(b));
    std::vector<double> weights(static_cast<std::size_t>(n));
    for (std::int64_t r = 0; r < n; ++r)
      weights[r] = counts[units.of(data, r)] * (req.fit.weights ? req.fit.weights[r] : 1.0);
    FitRequest fitRequest = req.fit;
    fitRequest.weights = weights.data();
    fitRequest.control.verbose = false;
    fitRequest.control.progressSeconds = -1.0;  // a run of fits reports as a whole
    fitRequest.control.threads = 1;  // the replicates are what runs in parallel
    const FitResult fit = fitCcd(fitRequest, sink);
    std::copy(fit.beta.begin(), fit.beta.end(), result.beta.begin() + b * p);
    // A coefficient the resample cannot identify (a factor level or sparse covariate not
    // drawn) is held at 0 by the fit; as an estimate that 0 would enter the summaries.
    for (const std::int32_t a : fit.aliased) result.beta[b * p + static_cast<std::size_t>(a)] = std::nan("");
    result.status[b] = fit.status;
    if (req.keepCounts)
      std::copy(counts.begin(), counts.end(), result.counts.begin() + b * result.units);
  };
  const std::size_t every = replicates >= 10 ? replicates / 10 : 1;
  std::size_t lastReported = 0;
  runTasks(replicates, req.threads, replicate, progress, [&](std::size_t done) {
    if (!progress || !req.messages || (done - lastReported < every && done != replicates)) return;
    lastReported = done;
    progress->message("bootstrap: " + std::to_string(done) + " of " +
                      std::to_string(replicates) + " replicates");
  });
  return result;
}

}  // namespace argus
