// Engine-only SCCS benchmark (no R): the shape of ../shared/peers/gen.R's simSCCS, which the
// head-to-head against the incumbent uses. Each case has 1 + Poisson(meanEras - 1) eras of
// ceil(Exponential(mean 60)) days; each of J drugs is on in an era with probability 0.02; 20%
// of the drugs have effects N(0, 0.5^2); phi_i = -log(case days) + N(0, 0.5^2); y ~ Poisson;
// cases without events are redrawn. Laplace prior, variance 1, default control.
//
//   build-*/argus_bench_sccs [cases] [drugs] [reps]
//
// Environment: ARGUS_VERBOSE=1 prints the solver's cycle lines; ARGUS_BENCH_MAX_CYCLES=c stops
// each fit after c cycles (with c = 1, the fixed cost of a fit).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "data/design_storage.h"
#include "solver/ccd_solver.h"

#include "bench_support.h"

using namespace argus;
using argus::bench::PrintSink;
using argus::bench::median;

namespace {

using Problem = argus::bench::SimulatedProblem;

void simulate(Problem* pr, std::int64_t cases, int drugs, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 0.5);
  std::poisson_distribution<int> moreEras(4.0);
  std::exponential_distribution<double> eraDays(1.0 / 60.0);
  std::vector<double> beta(static_cast<std::size_t>(drugs), 0.0);
  for (double& b : beta)
    if (unif(rng) < 0.2) b = normal(rng);
  std::vector<std::vector<std::int32_t>> rowsOf(static_cast<std::size_t>(drugs));
  std::int32_t row = 0;
  std::int64_t kept = 0;
  while (kept < cases) {
    const int eras = 1 + moreEras(rng);
    std::vector<double> days(eras), eta(eras, 0.0);
    std::vector<std::vector<int>> on(eras);
    double total = 0.0;
    for (int k = 0; k < eras; ++k) {
      days[k] = std::max(1.0, std::ceil(eraDays(rng)));  // a draw of exactly 0 is possible
      total += days[k];
      for (int d = 0; d < drugs; ++d)
        if (unif(rng) < 0.02) {
          on[k].push_back(d);
          eta[k] += beta[d];
        }
    }
    const double phi = -std::log(total) + normal(rng);
    std::vector<double> y(eras);
    double events = 0.0;
    for (int k = 0; k < eras; ++k) {
      std::poisson_distribution<int> count(days[k] * std::exp(phi + eta[k]));
      y[k] = count(rng);
      events += y[k];
    }
    if (events == 0.0) continue;
    pr->stratumStart.push_back(row);
    for (int k = 0; k < eras; ++k, ++row) {
      for (int d : on[k]) rowsOf[d].push_back(row);
      pr->y.push_back(y[k]);
      pr->time.push_back(days[k]);
      pr->stratum.push_back(static_cast<std::int32_t>(kept));
    }
    ++kept;
  }
  pr->stratumStart.push_back(row);
  DesignStorage& s = pr->storage;
  s.nRows = row;
  for (const auto& rows : rowsOf) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Indicator));
    s.rows.insert(s.rows.end(), rows.begin(), rows.end());
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(0);
  }
  pr->data.model = ModelType::SelfControlledCaseSeries;
  pr->data.design = s.view();
  pr->data.outcomes.y = pr->y.data();
  pr->data.outcomes.time = pr->time.data();
  pr->data.outcomes.stratum = pr->stratum.data();
  pr->data.outcomes.stratumStart = pr->stratumStart.data();
  pr->data.outcomes.nStrata = static_cast<std::int32_t>(kept);
}

FitResult fit(const Problem& pr, int maxCycles) {
  FitRequest req;
  req.data = &pr.data;
  req.prior.assign(pr.data.design.nColumns(), CoordinatePrior{PriorKind::Laplace, 1.0});
  if (maxCycles > 0) req.control.maxIterations = maxCycles;
  req.control.verbose = std::getenv("ARGUS_VERBOSE") != nullptr;
  PrintSink sink;
  return fitCcd(req, &sink);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t cases = argc > 1 ? static_cast<std::int64_t>(std::atof(argv[1])) : 100000;
  const int drugs = argc > 2 ? std::atoi(argv[2]) : 200;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  const char* maxEnv = std::getenv("ARGUS_BENCH_MAX_CYCLES");
  const int maxCycles = maxEnv ? std::atoi(maxEnv) : 0;
  Problem pr;
  simulate(&pr, cases, drugs, 123);
  std::int64_t entries = 0;
  for (const ColumnView& c : pr.data.design.columns) entries += c.nnz;
  std::vector<double> seconds;
  FitResult f;
  for (int k = 0; k < reps; ++k) {
    f = fit(pr, maxCycles);
    seconds.push_back(f.seconds);
  }
  std::printf("sccs %lld cases x %d drugs: %lld rows, %lld entries; %d cycles, %s, %.1f ms per fit "
              "(median of %d), log-likelihood %.10g\n",
              static_cast<long long>(cases), drugs, static_cast<long long>(pr.data.nRows()),
              static_cast<long long>(entries), f.iterations, fitStatusName(f.status).c_str(),
              1000.0 * median(seconds), reps, f.logLikelihood);
  return 0;
}
