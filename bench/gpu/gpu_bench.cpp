// The device benchmark, engine only (no R): the papers' designs simulated in C++, each fitted
// on the CPU and on a device in the same run, with ms per fit and per cycle and the largest
// coefficient difference.
//
//   argus_bench_gpu DEVICE DESIGN [size] [columns] [reps]
//     DEVICE  cuda | cuda:N | emulated
//     DESIGN  sccs: `size` cases x `columns` drugs (paper 000; Laplace, variance 1)
//             lr:   `size` rows x `columns` indicators at 5% (Laplace, variance 1)
//             cox, fgr: `size` rows x `columns` indicators at 5% (paper 003 §3.2: exponential
//                   times against uniform censoring, fgr with 30% competing events), integer
//                   days; cox-continuous, fgr-continuous: unrounded times (E ~ 0.6 N);
//                   cox-counting: continuous times as (start, stop] rows
//             clr-exact: `size` rows in matched sets of 10 with 3 cases (exact ties) x
//                   `columns` indicators at 5%
//             cv-cox, cv-cox-continuous: the cox designs' 10-fold x `reps`-repetition
//                   cross-validation fold fits of one candidate variance (1), timed as a whole
//
//   Environment: ARGUS_BENCH_CPU_REPS=k fits the CPU k times (0: not at all, for sizes where one
//   CPU fit takes many minutes); ARGUS_BENCH_MAX_CYCLES=c stops each fit after c cycles (ms per
//   cycle on designs too large to fit to the end); ARGUS_BENCH_THREADS=t CPU threads (default 1);
//   ARGUS_BENCH_DEVICE_THREADS=t host threads driving the device (cross-validation folds; default 1);
//   ARGUS_BENCH_START=auto|always|never the majorized start on the device (default auto: the
//   control's default; "always" takes the device's all-coordinates steps on every model that
//   offers them), ARGUS_BENCH_CPU_START likewise for the CPU (default auto);
//   ARGUS_BENCH_STARTS=never,always fits the device once per rule listed (the CPU once);
//   ARGUS_BENCH_SETUP=1 times the device runner's setup (upload, plans, first rebuild).
//
// bench/gpu/run.sh builds it and runs the designs of the issue.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "data/design_storage.h"
#include "data/row_plan.h"
#include "bench_support.h"
#include "survival_design.h"
#include "selection/cross_validation.h"
#include "selection/folds.h"
#include "solver/ccd_solver.h"
#include "solver/compute_device.h"

using namespace argus;

namespace {

using Problem = argus::bench::SimulatedProblem;

// Indicator columns from per-column row lists (rows increasing).
void addIndicators(DesignStorage& s, const std::vector<std::vector<std::int32_t>>& rowsOf) {
  for (const auto& rows : rowsOf) {
    s.kinds.push_back(static_cast<int>(ColumnKind::Indicator));
    s.rows.insert(s.rows.end(), rows.begin(), rows.end());
    s.rowStart.push_back(static_cast<std::int64_t>(s.rows.size()));
    s.valueStart.push_back(0);
  }
}

// SCCS: each case's observation period cut by 1-4 exposure eras into intervals (rows, one
// stratum per case); drugs by Zipf popularity; 10 drugs with effects 0.2-1; 1 + Poisson(0.3)
// events per case spread over its rows in proportion to time exp(x beta).
void simulateSccs(Problem* pr, std::int64_t cases, int drugs, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::vector<double> popularity(drugs), beta(drugs, 0.0);
  for (int d = 0; d < drugs; ++d) popularity[d] = 1.0 / (d + 1.0);
  std::discrete_distribution<int> pick(popularity.begin(), popularity.end());
  for (int d = 0; d < std::min(10, drugs); ++d) beta[d] = 0.2 + 0.8 * unif(rng);
  std::vector<std::vector<std::int32_t>> rowsOf(drugs);
  std::int32_t row = 0;
  for (std::int64_t c = 0; c < cases; ++c) {
    const int eras = 1 + static_cast<int>(unif(rng) * 4);
    const int rows = 1 + eras;  // unexposed time plus one interval per era
    std::vector<double> weight(rows);
    for (int k = 0; k < rows; ++k) {
      const double t = 10.0 + std::floor(unif(rng) * 300.0);
      double eta = 0.0;
      if (k > 0) {
        const int d = pick(rng);
        rowsOf[d].push_back(row + k);
        eta = beta[d];
      }
      pr->time.push_back(t);
      pr->stratum.push_back(static_cast<std::int32_t>(c));
      weight[k] = t * std::exp(eta);
    }
    std::vector<double> y(rows, 0.0);
    std::discrete_distribution<int> where(weight.begin(), weight.end());
    std::poisson_distribution<int> extra(0.3);
    for (int e = 1 + extra(rng); e > 0; --e) y[where(rng)] += 1.0;
    pr->y.insert(pr->y.end(), y.begin(), y.end());
    row += rows;
  }
  DesignStorage& s = pr->storage;
  s.nRows = row;
  for (auto& rows : rowsOf) std::sort(rows.begin(), rows.end());
  addIndicators(s, rowsOf);
  pr->stratumStart.push_back(0);
  for (std::int32_t r = 1; r < row; ++r)
    if (pr->stratum[r] != pr->stratum[r - 1]) pr->stratumStart.push_back(r);
  pr->stratumStart.push_back(row);
  pr->data.model = ModelType::SelfControlledCaseSeries;
  pr->data.outcomes.time = pr->time.data();
  pr->data.outcomes.stratum = pr->stratum.data();
  pr->data.outcomes.stratumStart = pr->stratumStart.data();
  pr->data.outcomes.nStrata = static_cast<std::int32_t>(cases);
}

// `columns` indicators over n rows at 5% (geometric gaps), the first 20 with effects of
// +-0.2-1 added into eta.
void addEffectIndicators(DesignStorage& s, std::int64_t n, int columns, std::mt19937_64& rng,
                         std::vector<double>& eta) {
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::vector<double> beta(columns, 0.0);
  for (int k = 0; k < 20 && k < columns; ++k) beta[k] = (k % 2 ? -1 : 1) * (0.2 + 0.8 * unif(rng));
  std::vector<std::vector<std::int32_t>> rowsOf(columns);
  std::geometric_distribution<std::int64_t> gap(0.05);
  for (int j = 0; j < columns; ++j)
    for (std::int64_t r = gap(rng); r < n; r += 1 + gap(rng)) {
      rowsOf[j].push_back(static_cast<std::int32_t>(r));
      eta[r] += beta[j];
    }
  addIndicators(s, rowsOf);
}

// clr with exact ties: matched sets of 10 rows with 3 cases, `columns` indicators at 5%, 20
// with effects of +-0.2-1; the cases drawn in proportion to exp(x beta) within each set.
void simulateClr(Problem* pr, std::int64_t n, int columns, unsigned seed) {
  std::mt19937_64 rng(seed);
  const std::int64_t sets = n / 10;
  n = sets * 10;
  DesignStorage& s = pr->storage;
  s.nRows = n;
  std::vector<double> eta(n, 0.0);
  addEffectIndicators(s, n, columns, rng, eta);
  pr->y.assign(n, 0.0);
  for (std::int64_t set = 0; set < sets; ++set) {
    for (int c = 0; c < 3; ++c) {
      std::vector<double> w(10);
      for (int k = 0; k < 10; ++k) w[k] = pr->y[set * 10 + k] != 0.0 ? 0.0 : std::exp(eta[set * 10 + k]);
      std::discrete_distribution<int> pick(w.begin(), w.end());
      pr->y[set * 10 + pick(rng)] = 1.0;
    }
    for (int k = 0; k < 10; ++k) pr->stratum.push_back(static_cast<std::int32_t>(set));
    pr->stratumStart.push_back(set * 10);
  }
  pr->stratumStart.push_back(n);
  pr->data.model = ModelType::ConditionalLogistic;
  pr->data.ties = TieMethod::Exact;
  pr->data.outcomes.stratum = pr->stratum.data();
  pr->data.outcomes.stratumStart = pr->stratumStart.data();
  pr->data.outcomes.nStrata = static_cast<std::int32_t>(sets);
}

// lr: an intercept of -1 and `columns` indicators at 5%, 20 with effects of +-0.2-1.
void simulateLr(Problem* pr, std::int64_t n, int columns, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  DesignStorage& s = pr->storage;
  s.nRows = n;
  s.kinds.push_back(static_cast<int>(ColumnKind::Intercept));
  s.rowStart.push_back(0);
  s.valueStart.push_back(0);
  std::vector<double> eta(n, -1.0);
  addEffectIndicators(s, n, columns, rng, eta);
  pr->y.resize(n);
  for (std::int64_t r = 0; r < n; ++r) pr->y[r] = unif(rng) < 1.0 / (1.0 + std::exp(-eta[r])) ? 1.0 : 0.0;
  pr->data.model = ModelType::Logistic;
}

int envInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

FitRequest requestFor(const Dataset& data, const std::string& device) {
  FitRequest req;
  req.data = &data;
  const std::size_t p = data.design.nColumns();
  req.prior.assign(p, CoordinatePrior{PriorKind::Laplace, 1.0});
  if (data.design.columns[0].kind == ColumnKind::Intercept) req.prior[0] = CoordinatePrior{};
  req.device = parseComputeDevice(device);
  req.control.threads = device == "cpu" ? envInt("ARGUS_BENCH_THREADS", 1) : envInt("ARGUS_BENCH_DEVICE_THREADS", 1);
  const int maxCycles = envInt("ARGUS_BENCH_MAX_CYCLES", 0);
  if (maxCycles > 0) req.control.maxIterations = maxCycles;
  const char* start = std::getenv(device == "cpu" ? "ARGUS_BENCH_CPU_START" : "ARGUS_BENCH_START");
  if (start && *start) req.control.majorizedStart = parseMajorizedStartRule(start);
  return req;
}

// ARGUS_BENCH_TRACE=1: the fit's verbose messages, each with the milliseconds since the fit
// began (and since the message before), to see where a fit's time goes on a device without a
// profiler for the host's share.
class TimedMessages : public ProgressSink {
 public:
  void message(const std::string& m) override {
    const double now = elapsedMs();
    std::printf("    [%9.1f ms, +%8.1f] %s\n", now, now - last_, m.c_str());
    last_ = now;
  }

 private:
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_ = 0.0;
};

FitResult fitOn(const Dataset& data, const std::string& device, const std::string& start = "") {
  FitRequest req = requestFor(data, device);
  if (!start.empty()) req.control.majorizedStart = parseMajorizedStartRule(start);
  if (envInt("ARGUS_BENCH_TRACE", 0) == 0) return fitCcd(req);
  req.control.verbose = true;
  TimedMessages sink;
  return fitCcd(req, &sink);
}

// The fold fits of one candidate variance (10 folds x `repetitions`), all started from the
// all-data fit as the cross-validation starts them; seconds for the whole batch.
double timeFoldFits(const Dataset& data, const std::string& device, int repetitions, long long* cycles,
                    int* converged) {
  CrossValidationRequest req;
  req.fit = requestFor(data, device);
  FoldSettings folds;
  folds.folds = 10;
  folds.repetitions = repetitions;
  folds.seed = 7;
  req.folds = makeFoldPlan(data, folds);
  req.settings.threads = req.fit.control.threads;
  req.fit.control.threads = 1;
  const FitResult all = fitCcd(req.fit);
  std::vector<std::size_t> tasks(static_cast<std::size_t>(10 * repetitions));
  for (std::size_t k = 0; k < tasks.size(); ++k) tasks[k] = k;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<FoldTaskResult> out = runFoldTasks(req, 1.0, all.beta, tasks);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *cycles = 0;
  *converged = 0;
  for (const FoldTaskResult& r : out) {
    *cycles += r.cycles;
    *converged += r.converged ? 1 : 0;
  }
  return seconds;
}

// One fit's timing: the last fit and the median ms over `reps` fits (start: "" for the default
// or ARGUS_BENCH_START, else a rule name).
struct FitTiming {
  FitResult fit;
  double ms = 0.0;
};

FitTiming timeFits(const Dataset& data, const std::string& device, const std::string& start, int reps) {
  FitTiming out;
  std::vector<double> t;
  for (int k = 0; k < std::max(1, reps); ++k) {
    out.fit = fitOn(data, device, start);
    t.push_back(1000.0 * out.fit.seconds);
  }
  out.ms = bench::median(t);
  const FitResult& f = out.fit;
  std::printf("  %-9s %-7s %s, %3d cycles, %9.1f ms per fit, %8.2f ms per cycle (median of %d); start: %d steps, %d passes\n",
              device.c_str(), start.empty() ? "" : start.c_str(), fitStatusName(f.status).c_str(), f.iterations,
              out.ms, out.ms / std::max(1, f.iterations), std::max(1, reps), f.majorizedSteps, f.majorizedPasses);
  if (f.iterations > 1 && std::getenv("ARGUS_BENCH_MAX_CYCLES")) {
    // A fit of one cycle holds the setup (copies to the device, the index, the first
    // rebuild) and the final checks; what the later cycles add is the cost of a cycle.
    FitRequest one = requestFor(data, device);
    one.control.maxIterations = 1;
    if (!start.empty()) one.control.majorizedStart = parseMajorizedStartRule(start);
    const double first = 1000.0 * fitCcd(one).seconds;
    std::printf("  %-9s one-cycle fit %.1f ms; each further cycle %.2f ms\n", device.c_str(), first,
                (out.ms - first) / (f.iterations - 1));
  }
  return out;
}

// The runner made for the data (device upload and plans) and reset at beta = 0 (the first
// rebuild), in ms.
double setupMs(const Dataset& data, const std::string& device) {
  const auto t0 = std::chrono::steady_clock::now();
  auto runner = makeCycleRunner(parseComputeDevice(device), data, nullptr);
  CycleState st;
  const std::size_t p = data.design.nColumns();
  st.beta.assign(p, 0.0);
  st.bound.assign(p, 1.0);
  st.prior.assign(p, CoordinatePrior{});
  st.fixed.assign(p, 0);
  runner->reset(st);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: argus_bench_gpu DEVICE sccs|lr|clr-exact|cox|fgr|cox-continuous|fgr-continuous|cox-counting [size] "
                 "[columns] [reps]\n");
    return 2;
  }
  const std::string device = argv[1], design = argv[2];
  const std::int64_t size = argc > 3 ? static_cast<std::int64_t>(std::atof(argv[3])) : 100000;
  const int columns = argc > 4 ? std::atoi(argv[4]) : 200;
  const int reps = argc > 5 ? std::atoi(argv[5]) : 3;
  Problem pr;
  bench::SurvivalProblem survival;
  const bool isCv = design.rfind("cv-", 0) == 0;
  const std::string base = isCv ? design.substr(3) : design;
  const bool isSurvival = base == "cox" || base == "fgr" || base == "cox-continuous" ||
                          base == "fgr-continuous" || base == "cox-counting";
  if (isCv && base != "cox" && base != "cox-continuous") {
    std::fprintf(stderr, "cross-validation designs: cv-cox, cv-cox-continuous\n");
    return 2;
  }
  if (isSurvival) {
    const ModelType model = design.rfind("fgr", 0) == 0 ? ModelType::FineGray : ModelType::Cox;
    const bool counting = base == "cox-counting";
    bench::simulateSurvival(&survival, size, columns, 0.05, model, TieMethod::Breslow,
                            base.find("continuous") == std::string::npos && !counting, 42, counting);
  } else if (design == "sccs") {
    simulateSccs(&pr, size, columns, 42);
  } else if (design == "lr") {
    simulateLr(&pr, size, columns, 42);
  } else if (design == "clr-exact") {
    simulateClr(&pr, size, columns, 42);
  } else {
    std::fprintf(stderr, "unknown design '%s'\n", design.c_str());
    return 2;
  }
  if (!isSurvival) {
    pr.data.design = pr.storage.view();
    pr.data.outcomes.y = pr.y.data();
  }
  const Dataset& data = isSurvival ? survival.data : pr.data;
  std::int64_t entries = 0;
  for (const ColumnView& c : data.design.columns) entries += c.nnz;
  std::printf("%s: %lld rows, %zu columns, %lld entries\n", design.c_str(),
              static_cast<long long>(data.nRows()), data.design.nColumns(),
              static_cast<long long>(entries));
  const std::string devices[2] = {"cpu", device};
  const int cpuReps = envInt("ARGUS_BENCH_CPU_REPS", reps);
  if (isCv) {
    for (int d = 0; d < 2; ++d) {
      if (d == 0 && cpuReps == 0) continue;
      long long cycles = 0;
      int converged = 0;
      const double s = timeFoldFits(data, devices[d], reps, &cycles, &converged);
      std::printf("  %-9s 10 folds x %d: %.1f s for %d fold fits (%d converged), %lld cycles, %.2f ms per cycle\n",
                  devices[d].c_str(), reps, s, 10 * reps, converged, cycles,
                  1000.0 * s / std::max<long long>(1, cycles));
    }
    return 0;
  }
  // Setup on the device: the runner made (upload, plans) and its first rebuild at beta = 0.
  if (envInt("ARGUS_BENCH_SETUP", 0) > 0) {
    std::vector<double> t;
    for (int k = 0; k < std::max(1, reps); ++k) t.push_back(setupMs(data, device));
    std::printf("  %-9s setup (runner, plans, first rebuild) %.1f ms (median of %d)\n", device.c_str(),
                bench::median(t), std::max(1, reps));
  }
  const FitTiming cpu = cpuReps > 0 ? timeFits(data, "cpu", "", cpuReps) : FitTiming{};
  if (cpuReps == 0) std::printf("  %-9s not fitted (ARGUS_BENCH_CPU_REPS=0)\n", "cpu");
  // The device once per start rule asked for (ARGUS_BENCH_STARTS, comma separated; default:
  // ARGUS_BENCH_START or the control's default).
  const char* starts = std::getenv("ARGUS_BENCH_STARTS");
  std::string list = starts && *starts ? starts : "";
  do {
    const std::size_t comma = list.find(',');
    const std::string rule = list.substr(0, comma);
    const FitTiming dev = timeFits(data, device, rule, reps);
    if (cpuReps > 0) {
      double diff = 0.0;
      for (std::size_t j = 0; j < cpu.fit.beta.size(); ++j)
        diff = std::max(diff, std::fabs(cpu.fit.beta[j] - dev.fit.beta[j]));
      std::printf("  %s%s / cpu time per fit: %.3f (cpu / device %.1fx); max |beta_device - beta_cpu| %.2g\n",
                  device.c_str(), rule.empty() ? "" : (" start=" + rule).c_str(), dev.ms / cpu.ms, cpu.ms / dev.ms,
                  diff);
    }
    list = comma == std::string::npos ? "" : list.substr(comma + 1);
  } while (!list.empty());
  return 0;
}
