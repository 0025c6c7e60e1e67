// The memory floor of a coordinate's passes on this machine (no engine code): what a column's
// scan (read each entry's row record) and step (rewrite it) cost per entry when they do
// nothing else, for the row-record shapes the engine uses. A fit's per-entry cost measured
// against this says how much is left to gain on the same data layout: where the two agree,
// only fewer passes (cycles) or fewer bytes per entry can make the fit faster, not tuning.
//
//   build-*/argus_bench_gather_floor [rows] [columns] [density] [slots]
//
// Each column holds `density * rows` distinct rows, increasing (as the engine stores them),
// drawn at random. Passes, per column as a CCD cycle makes them:
//   survival  16-byte records {u, eta}: scan sums u and u * c[slot] (slot arrays small enough
//             for L1, as whole days give), step multiplies u, adds to eta and to its slot's sum
//   glm       32-byte records {eta, exp(eta), w y, w}: scan computes the logistic derivatives
//             (one division), step moves eta and exp(eta)
//   glm-nodiv the same scan without the division (what the division itself costs)
// Prefetching 96 entries ahead, as the engine does. Prints ns per entry, scan and step apart
// and one after the other (as a cycle runs them), best of 5.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "common/prefetch.h"

namespace {

constexpr std::int64_t kAhead = 96;

struct alignas(16) SurvivalRecord {
  double u, eta;
};
struct alignas(32) GlmRecord {
  double eta, expEta, wy, wt;
};

using Columns = std::vector<std::vector<std::int32_t>>;

template <typename Pass>
double nsPerEntry(const Columns& columns, Pass&& pass) {
  std::int64_t entries = 0;
  for (const auto& c : columns) entries += static_cast<std::int64_t>(c.size());
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& c : columns) pass(c.data(), static_cast<std::int64_t>(c.size()));
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best * 1e9 / static_cast<double>(entries);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000000;
  const int p = argc > 2 ? std::atoi(argv[2]) : 200;
  const double density = argc > 3 ? std::atof(argv[3]) : 0.05;
  const int slots = argc > 4 ? std::atoi(argv[4]) : 1400;

  std::mt19937_64 rng(123);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  Columns columns(static_cast<std::size_t>(p));
  for (auto& c : columns)
    for (std::int64_t r = 0; r < n; ++r)
      if (unif(rng) < density) c.push_back(static_cast<std::int32_t>(r));
  std::vector<std::int32_t> slotOf(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) slotOf[r] = static_cast<std::int32_t>(r * slots / n);
  std::vector<double> c1(static_cast<std::size_t>(slots), 0.5), slotSum(static_cast<std::size_t>(slots), 0.0);
  std::vector<SurvivalRecord> survival(static_cast<std::size_t>(n));
  std::vector<GlmRecord> glm(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) {
    survival[r] = {unif(rng), 0.0};
    const double eta = unif(rng) - 1.0;
    glm[r] = {eta, std::exp(eta), unif(rng) < 0.2 ? 1.0 : 0.0, 1.0};
  }
  volatile double sink = 0.0;

  auto survivalScan = [&](const std::int32_t* rows, std::int64_t m) {
    double g = 0.0, h = 0.0;
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kAhead < m) ARGUS_PREFETCH(&survival[rows[k + kAhead]]);
      const std::int32_t r = rows[k];
      const double v = survival[r].u;
      g += v;
      h += v * c1[slotOf[r]];
    }
    sink = sink + g + h;
  };
  auto survivalStep = [&](const std::int32_t* rows, std::int64_t m) {
    const double delta = 1e-12, factor = std::exp(delta);
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kAhead < m) ARGUS_PREFETCH(&survival[rows[k + kAhead]]);
      const std::int32_t r = rows[k];
      SurvivalRecord& s = survival[r];
      const double du = s.u * (factor - 1.0);
      s.u += du;
      s.eta += delta;
      slotSum[slotOf[r]] += du;
    }
  };
  auto glmScan = [&](bool divide) {
    return [&, divide](const std::int32_t* rows, std::int64_t m) {
      double g = 0.0, c = 0.0, s = 0.0;
      for (std::int64_t k = 0; k < m; ++k) {
        if (k + kAhead < m) ARGUS_PREFETCH(&glm[rows[k + kAhead]]);
        const GlmRecord& x = glm[rows[k]];
        const double e = x.expEta < 1e300 ? x.expEta : 1e300;
        const double q = divide ? 1.0 / (1.0 + e) : 1.0 - 0.5 * e;
        const double mu = e * q, curv = x.wt * mu * q;
        g += x.wy - x.wt * mu;
        c += curv;
        s += curv * (q - mu);
      }
      sink = sink + g + c + s;
    };
  };
  auto glmStep = [&](const std::int32_t* rows, std::int64_t m) {
    const double delta = 1e-12, factor = std::exp(delta);
    for (std::int64_t k = 0; k < m; ++k) {
      if (k + kAhead < m) ARGUS_PREFETCH(&glm[rows[k + kAhead]]);
      GlmRecord& x = glm[rows[k]];
      x.eta += delta;
      x.expEta *= factor;
    }
  };

  std::printf("rows %lld, columns %d, density %g, slots %d (ns per entry, best of 5)\n",
              static_cast<long long>(n), p, density, slots);
  const double sScan = nsPerEntry(columns, survivalScan), sStep = nsPerEntry(columns, survivalStep);
  const double sBoth = nsPerEntry(columns, [&](const std::int32_t* rows, std::int64_t m) {
    survivalScan(rows, m);
    survivalStep(rows, m);
  });
  std::printf("survival   scan %.2f  step %.2f  scan then step %.2f\n", sScan, sStep, sBoth);
  const auto divided = glmScan(true), undivided = glmScan(false);
  const double gScan = nsPerEntry(columns, divided), gStep = nsPerEntry(columns, glmStep);
  const double gBoth = nsPerEntry(columns, [&](const std::int32_t* rows, std::int64_t m) {
    divided(rows, m);
    glmStep(rows, m);
  });
  std::printf("glm        scan %.2f  step %.2f  scan then step %.2f\n", gScan, gStep, gBoth);
  std::printf("glm-nodiv  scan %.2f\n", nsPerEntry(columns, undivided));
  return 0;
}
