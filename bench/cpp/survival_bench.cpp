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
// ControlSettings::threads; ARGUS_MAJORIZED=always|never|auto sets the majorized start's
// rule (default auto); ARGUS_CONTINUOUS=1 keeps the event times continuous (E about
// 0.6 N distinct event times, the papers' jittered design) instead of whole days.
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
#include "survival_design.h"

using namespace argus;
using argus::bench::PrintSink;
using argus::bench::median;

namespace {

using Problem = argus::bench::SurvivalProblem;

FitResult fit(const Problem& pr, double variance, int maxCycles) {
  FitRequest req;
  req.data = &pr.data;
  req.prior.assign(pr.data.design.nColumns(), CoordinatePrior{PriorKind::Laplace, variance});
  req.control.tolerance = 1e-6;
  if (maxCycles > 0) req.control.maxIterations = maxCycles;
  if (const char* t = std::getenv("ARGUS_THREADS")) req.control.threads = std::atoi(t);
  req.control.verbose = std::getenv("ARGUS_VERBOSE") != nullptr;
  if (const char* m = std::getenv("ARGUS_MAJORIZED")) req.control.majorizedStart = parseMajorizedStartRule(m);
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
  const bool continuous = std::getenv("ARGUS_CONTINUOUS") != nullptr;
  argus::bench::simulateSurvival(&pr, n, p, density, model, ties, !continuous, 42);
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
