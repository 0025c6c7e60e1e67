// Engine-only logistic benchmark (no R): the design of bench/lr.R (N rows x P indicator
// columns at a given density, 20 true effects, intercept -1), Laplace prior on every column
// but the intercept. Prints cycles, seconds, ms/cycle and the penalized objective, and the
// max |beta - reference| against a tight (tolerance 1e-13) fit of the same data.
//
//   build-*/argus_bench_lr [n] [p] [density] [convergence] [tolerance] [reps] [variance]
//
// Environment: ARGUS_VERBOSE=1 prints one line per cycle; ARGUS_ACTIVE_SET=0|1 overrides
// ControlSettings::activeSet; ARGUS_GEN_SHAPE=1 draws the effects as ../shared/peers/gen.R
// does for the head-to-head (20% of the columns N(0, 1), mean probability 20%).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "data/design_storage.h"
#include "solver/ccd_solver.h"

#include "bench_support.h"

using namespace argus;
using argus::bench::PrintSink;
using argus::bench::median;

namespace {

struct Problem {
  DesignStorage storage;
  std::vector<double> y;
  Dataset data;
};

bool genShape = false;

void simulate(Problem* pr, std::int64_t n, int p, double density, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  DesignStorage& s = pr->storage;
  s.nRows = n;
  s.kinds.push_back(static_cast<int>(ColumnKind::Intercept));
  s.rowStart.push_back(0);
  s.valueStart.push_back(0);
  std::vector<double> eta(static_cast<std::size_t>(n), -1.0);
  std::vector<double> beta(static_cast<std::size_t>(p), 0.0);
  if (genShape) {
    // ../shared/peers/gen.R's simLogistic: 20% of the effects N(0, 1).
    std::normal_distribution<double> normal(0.0, 1.0);
    for (double& b : beta)
      if (unif(rng) < 0.2) b = normal(rng);
  } else {
    for (int k = 0; k < 20 && k < p; ++k) {
      const double size = 0.2 + 0.8 * unif(rng);
      beta[static_cast<std::size_t>(unif(rng) * p)] = unif(rng) < 0.5 ? -size : size;
    }
  }
  for (int j = 0; j < p; ++j) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Indicator));
    for (std::int64_t r = 0; r < n; ++r)
      if (unif(rng) < density) {
        s.rows.push_back(static_cast<std::int32_t>(r));
        eta[r] += beta[j];
      }
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(0);
  }
  if (genShape) {
    // The intercept that makes the mean probability 20%, as gen.R solves for it.
    double lo = -60.0, hi = 60.0;
    for (int it = 0; it < 100; ++it) {
      const double b0 = 0.5 * (lo + hi);
      double mean = 0.0;
      for (std::int64_t r = 0; r < n; ++r) mean += 1.0 / (1.0 + std::exp(-(eta[r] + 1.0 + b0)));
      (mean / static_cast<double>(n) > 0.2 ? hi : lo) = b0;
    }
    for (double& e : eta) e += 1.0 + 0.5 * (lo + hi);
  }
  pr->y.resize(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r)
    pr->y[r] = unif(rng) < 1.0 / (1.0 + std::exp(-eta[r])) ? 1.0 : 0.0;
  pr->data.model = ModelType::Logistic;
  pr->data.design = s.view();
  pr->data.outcomes.y = pr->y.data();
}

int activeSet = -1;
bool verbose = false;

double variance = 1.0;

FitResult fit(const Problem& pr, ConvergenceType conv, double tol) {
  FitRequest req;
  req.data = &pr.data;
  const std::size_t p = pr.data.design.nColumns();
  req.prior.assign(p, CoordinatePrior{PriorKind::Laplace, variance});
  req.prior[0] = CoordinatePrior{PriorKind::None, 1.0};
  req.control.tolerance = tol;
  req.control.convergence = conv;
  if (activeSet >= 0) req.control.activeSet = activeSet != 0;
  req.control.verbose = verbose;
  PrintSink sink;
  return fitCcd(req, &sink);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t n = argc > 1 ? static_cast<std::int64_t>(std::atof(argv[1])) : 100000;
  const int p = argc > 2 ? std::atoi(argv[2]) : 1000;
  const double density = argc > 3 ? std::atof(argv[3]) : 0.05;
  const std::string convName = argc > 4 ? argv[4] : "gradient";
  const ConvergenceType conv = parseConvergenceType(convName);
  const double tol = argc > 5 ? std::atof(argv[5]) : 1e-6;
  const int reps = argc > 6 ? std::atoi(argv[6]) : 3;
  variance = argc > 7 ? std::atof(argv[7]) : 1.0;
  if (const char* a = std::getenv("ARGUS_ACTIVE_SET")) activeSet = std::atoi(a);
  verbose = std::getenv("ARGUS_VERBOSE") != nullptr;
  genShape = std::getenv("ARGUS_GEN_SHAPE") != nullptr;
  Problem pr;
  simulate(&pr, n, p, density, 42);
  const FitResult ref = fit(pr, ConvergenceType::Lange, 1e-13);
  const double refObj = -(ref.logLikelihood + ref.logPrior);
  std::vector<double> times;
  FitResult f;
  std::vector<double> cpu;
  for (int k = 0; k < reps; ++k) {
    const std::clock_t c0 = std::clock();
    f = fit(pr, conv, tol);
    cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    times.push_back(f.seconds);
  }
  std::printf("min cpu %.3f  ", *std::min_element(cpu.begin(), cpu.end()));
  double maxDiff = 0.0;
  int nonzero = 0;
  for (std::size_t j = 0; j < f.beta.size(); ++j) {
    maxDiff = std::max(maxDiff, std::fabs(f.beta[j] - ref.beta[j]));
    nonzero += j > 0 && f.beta[j] != 0.0;
  }
  const double t = median(times);
  std::printf("%s tol %g: %d cycles, %.3f s (cpu %.3f s), %.1f ms/cycle, %s, nonzero %d, "
              "max|beta - ref| %.2g, objective - ref %.3g (ref: %d cycles, %.3f s)\n",
              convName.c_str(), tol, f.iterations, t, median(cpu), 1000 * t / f.iterations,
              fitStatusName(f.status).c_str(), nonzero, maxDiff,
              -(f.logLikelihood + f.logPrior) - refObj, ref.iterations, ref.seconds);
  return 0;
}
