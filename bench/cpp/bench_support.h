// What the engine-only benchmarks share: a progress sink that prints the solver's cycle lines
// (ARGUS_VERBOSE) and the median of repeated timings.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "data/design_storage.h"
#include "solver/ccd_solver.h"

namespace argus::bench {

struct PrintSink : ProgressSink {
  void message(const std::string& m) override { std::fprintf(stderr, "%s\n", m.c_str()); }
};

// A simulated design with its outcome arrays (strata, exposure or event times where the
// design has them); `data` points into the vectors.
struct SimulatedProblem {
  DesignStorage storage;
  std::vector<double> y, time;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
  Dataset data;
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace argus::bench
