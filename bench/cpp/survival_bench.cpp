// Engine-only survival benchmark (no R): the design of bench/survival.R (paper 003 §3.2):
// N rows x P indicator columns at a given density, beta ~ N(0, 1) x Bernoulli(0.2),
// exponential event times (scale 300) against uniform censoring on (0, 500), rounded up to
// whole days; fgr turns 30% of the events into competing events. Laplace prior on every
// column. Prints cycles, seconds and ms/cycle, where a cycle's cost is measured as in
// bench/survival.R: (full fit - fit stopped after one cycle) / (cycles - 1).
//
//   build-*/argus_bench_survival [n] [p] [density] [model cox|fgr] [ties breslow|efron]
//                                [reps] [variance]
//
// Environment: ARGUS_VERBOSE=1 prints one line per cycle; ARGUS_THREADS=k sets
// ControlSettings::threads.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "data/design_storage.h"
#include "data/row_plan.h"
#include "solver/ccd_solver.h"

#include "bench_support.h"

using namespace argus;
using argus::bench::PrintSink;
using argus::bench::median;

namespace {

struct Problem {
  DesignStorage storage;
  std::vector<double> y, time;
  std::vector<std::int32_t> stratum;
  std::vector<std::int64_t> stratumStart;
  Dataset data;
};

void simulate(Problem* pr, std::int64_t n, int p, double density, ModelType model,
              TieMethod ties, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<std::int32_t>> userRows(static_cast<std::size_t>(p));
  std::vector<double> eta(static_cast<std::size_t>(n), 0.0);
  for (int j = 0; j < p; ++j) {
    const double beta = unif(rng) < 0.2 ? normal(rng) : 0.0;
    // Each row independently with probability `density`: geometric gaps between entries.
    std::geometric_distribution<std::int64_t> gap(density);
    for (std::int64_t r = gap(rng); r < n; r += 1 + gap(rng)) {
      userRows[j].push_back(static_cast<std::int32_t>(r));
      eta[r] += beta;
    }
  }
  std::vector<double> y(static_cast<std::size_t>(n)), time(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    const double event = -std::log(unif(rng)) * 300.0 / std::exp(eta[r]);
    const double censor = 500.0 * unif(rng);
    y[r] = event <= censor ? 1.0 : 0.0;
    if (model == ModelType::FineGray && y[r] == 1.0 && unif(rng) < 0.3) y[r] = 2.0;
    time[r] = std::ceil(std::min(event, censor));
  }
  const RowPlan plan = planRows(model, n, y.data(), time.data(), nullptr, 0);
  for (const std::int64_t u : plan.order) {
    pr->y.push_back(y[u]);
    pr->time.push_back(time[u]);
  }
  pr->stratum = plan.stratum;
  pr->stratumStart = plan.stratumStart;
  DesignStorage& s = pr->storage;
  s.nRows = n;
  for (int j = 0; j < p; ++j) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Indicator));
    std::vector<std::int32_t> rows;
    for (const std::int32_t u : userRows[j]) rows.push_back(plan.internalOfUser[u]);
    std::sort(rows.begin(), rows.end());
    s.rows.insert(s.rows.end(), rows.begin(), rows.end());
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(0);
  }
  Dataset& d = pr->data;
  d.model = model;
  d.ties = ties;
  d.design = s.view();
  d.outcomes.y = pr->y.data();
  d.outcomes.time = pr->time.data();
  d.outcomes.stratum = pr->stratum.data();
  d.outcomes.stratumStart = pr->stratumStart.data();
  d.outcomes.nStrata = plan.nStrata;
}

FitResult fit(const Problem& pr, double variance, int maxCycles) {
  FitRequest req;
  req.data = &pr.data;
  req.prior.assign(pr.data.design.nColumns(), CoordinatePrior{PriorKind::Laplace, variance});
  req.control.tolerance = 1e-6;
  if (maxCycles > 0) req.control.maxIterations = maxCycles;
  if (const char* t = std::getenv("ARGUS_THREADS")) req.control.threads = std::atoi(t);
  req.control.verbose = std::getenv("ARGUS_VERBOSE") != nullptr;
  PrintSink sink;
  return fitCcd(req, &sink);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t n = argc > 1 ? static_cast<std::int64_t>(std::atof(argv[1])) : 100000;
  const int p = argc > 2 ? std::atoi(argv[2]) : 1000;
  const double density = argc > 3 ? std::atof(argv[3]) : 0.05;
  const std::string modelName = argc > 4 ? argv[4] : "cox";
  const std::string tiesName = argc > 5 ? argv[5] : "breslow";
  const int reps = argc > 6 ? std::atoi(argv[6]) : 3;
  const double variance = argc > 7 ? std::atof(argv[7]) : 1.0;
  const ModelType model = modelName == "fgr" ? ModelType::FineGray : ModelType::Cox;
  const TieMethod ties = tiesName == "efron" ? TieMethod::Efron : TieMethod::Breslow;
  Problem pr;
  simulate(&pr, n, p, density, model, ties, 42);
  std::vector<double> full, one, cpu;
  FitResult f;
  for (int k = 0; k < reps; ++k) {
    const std::clock_t c0 = std::clock();
    f = fit(pr, variance, 0);
    cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    full.push_back(f.seconds);
    one.push_back(fit(pr, variance, 1).seconds);
  }
  const double t = median(full), t1 = median(one);
  int nonzero = 0;
  for (const double b : f.beta) nonzero += b != 0.0;
  std::printf("%s %s n %lld p %d: %d cycles, %.3f s (cpu %.3f s), one cycle %.3f s, "
              "%.1f ms/cycle, %s, nonzero %d, objective %.10g\n",
              modelName.c_str(), tiesName.c_str(), static_cast<long long>(n), p, f.iterations, t,
              median(cpu), t1, f.iterations > 1 ? 1000 * (t - t1) / (f.iterations - 1) : 0.0,
              fitStatusName(f.status).c_str(), nonzero, -(f.logLikelihood + f.logPrior));
  return 0;
}
