// The device functors of the all-coordinates steps (device/all_coordinates_steps.h): per
// row, per column-major entry, per run, per stratum and per coordinate. The bound's formulas
// are models/separable_bound.h's, the step's priors/prior.h's (proximalPoint), so the host's
// sweeps and these passes compute one bound.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/host_device.h"
#include "device/all_coordinates_design.h"
#include "models/separable_bound.h"
#include "priors/prior.h"

namespace argus {
namespace bound_device {

// ---- per row, summed per stratum ----

// A stratum's sums at a move D of eta: sum of s D - c D^2 / 2, T = sum t (t = s - c D), and
// with E = D - Dy (the last step's change): sum c E^2 and sum c E.
struct RowSums {
  double value = 0.0, total = 0.0, ce2 = 0.0, ce = 0.0;
};
struct RowSumsPlus {
  ARGUS_HOST_DEVICE RowSums operator()(const RowSums& a, const RowSums& b) const {
    return {a.value + b.value, a.total + b.total, a.ce2 + b.ce2, a.ce + b.ce};
  }
};
struct RowSumTerm {
  const double* score;
  const double* c;
  const double* d;
  const double* dy;  // null: no change terms
  ARGUS_HOST_DEVICE RowSums operator()(std::int64_t r) const {
    RowSums s;
    s.value = boundRowValue(score[r], c[r], d[r]);
    s.total = boundResidual(score[r], c[r], d[r]);
    if (dy) {
      const double e = d[r] - dy[r];
      s.ce = c[r] * e;
      s.ce2 = s.ce * e;
    }
    return s;
  }
};
struct RowCurvature {
  const double* c;
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const { return c[r]; }
};

// What a stratum adds to q (its T^2 / 2C where the bound shifts per stratum) and to the
// change's curvature E' A E (less (sum c E)^2 / C); its T kept for the shift alpha = T / C.
struct StratumTerms {
  double value = 0.0, curvature = 0.0;
};
struct StratumTermsPlus {
  ARGUS_HOST_DEVICE StratumTerms operator()(const StratumTerms& a, const StratumTerms& b) const {
    return {a.value + b.value, a.curvature + b.curvature};
  }
};
struct FinishStrata {
  const RowSums* sums;
  const double* sumC;
  bool shift;
  double* total;      // T_s out (may be null)
  StratumTerms* out;  // per stratum
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    const RowSums& a = sums[s];
    if (total) total[s] = a.total;
    StratumTerms t{a.value, a.ce2};
    if (shift) {
      t.value += boundStratumValue(a.total, sumC[s]);
      if (sumC[s] > 0.0) t.curvature -= boundRunExcess(a.ce, sumC[s]);
    }
    out[s] = t;
  }
};

// alpha_s = T_s / C_s where the bound shifts per stratum.
struct StratumShift {
  const double* total;
  const double* sumC;
  double* alpha;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const { alpha[s] = boundShift(total[s], sumC[s]); }
};

// ---- per column-major entry, summed per run or column ----

struct CurvatureSums {
  double cxx = 0.0, cx = 0.0;
};
struct CurvatureSumsPlus {
  ARGUS_HOST_DEVICE CurvatureSums operator()(const CurvatureSums& a, const CurvatureSums& b) const {
    return {a.cxx + b.cxx, a.cx + b.cx};
  }
};
struct CurvatureTerm {
  AllCoordinatesView v;
  const double* c;
  ARGUS_HOST_DEVICE CurvatureSums operator()(std::int64_t k) const {
    const double x = v.value(k);
    const double cx = c[v.entryRow[k]] * x;
    return {cx * x, cx};
  }
};
// A run's (cxx, its excess (sum c x)^2 / C_s); runs of a column summed into its curvature.
struct RunExcessTerm {
  const CurvatureSums* runs;
  const std::int32_t* runStratum;
  const double* sumC;
  bool shift;
  ARGUS_HOST_DEVICE CurvatureSums operator()(std::int64_t i) const {
    const double c = sumC[runStratum[i]];
    return {runs[i].cxx, shift && c > 0.0 ? boundRunExcess(runs[i].cx, c) : 0.0};
  }
};
// Column j's curvature of q (cxx less the excess, in the second field) and whether it moves:
// free, informative and not the intercept whose move is the shift.
struct FinishCurvature {
  const CurvatureSums* columns;  // (cxx, excess)
  const unsigned char* fixed;
  std::int32_t absorbed;  // the intercept the shift moves, or -1
  double* h;
  unsigned char* active;
  ARGUS_HOST_DEVICE void operator()(std::int64_t j) const {
    const double curvature = boundCurvature(columns[j].cxx, columns[j].cx);
    h[j] = curvature;
    active[j] = !fixed[j] && j != absorbed && boundInformative(curvature, columns[j].cxx);
  }
};

// d += a: the intercept's move (the shift) into eta's move.
struct AddShift {
  const double* alpha;
  double* d;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const { d[r] += *alpha; }
};

// Entry k's share of its column's gradient of q at Dy: x (t - c alpha_s(r)), t = s - c Dy.
struct GradientTerm {
  AllCoordinatesView v;
  const double* score;
  const double* c;
  const double* dy;
  const double* alpha;  // per stratum; null: no shift
  ARGUS_HOST_DEVICE double operator()(std::int64_t k) const {
    const std::int32_t r = v.entryRow[k];
    const double a = alpha ? alpha[v.stratumOf(r)] : 0.0;
    return boundGradientTerm(v.value(k), boundResidual(score[r], c[r], dy[r]), c[r], a);
  }
};

// ---- per coordinate ----

// The proximal step of every coordinate from y with curvature L h (priors/prior.h): the new
// point, and its move from where the step set out.
struct ProximalSteps {
  const double* g;
  const double* h;
  const unsigned char* active;
  const double* y;
  const double* from;
  const CoordinatePrior* prior;
  double lipschitz;
  double* point;
  double* delta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t j) const {
    const double z = active[j] ? proximalPoint(GradHess{g[j], -lipschitz * h[j]}, y[j], prior[j]) : from[j];
    point[j] = z;
    delta[j] = z - from[j];
  }
};

// Per coordinate: h (z - y)^2 over the moving ones (the step's size in the bound's metric) and
// log p(z).
struct CoordinateSums {
  double hdd = 0.0, logPrior = 0.0;
};
struct CoordinateSumsPlus {
  ARGUS_HOST_DEVICE CoordinateSums operator()(const CoordinateSums& a, const CoordinateSums& b) const {
    return {a.hdd + b.hdd, a.logPrior + b.logPrior};
  }
};
struct CoordinateTerm {
  const double* point;
  const double* y;
  const double* h;
  const unsigned char* active;
  const CoordinatePrior* prior;
  ARGUS_HOST_DEVICE CoordinateSums operator()(std::int64_t j) const {
    const double d = point[j] - y[j];
    return {active[j] ? h[j] * d * d : 0.0, logPriorDensity(point[j], prior[j])};
  }
};

// out = now + m (now - before): the accelerated step's extrapolation, for coefficients and
// for eta's move alike (X is linear).
struct Extrapolate {
  const double* now;
  const double* before;
  double m;
  double* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = now[i] + m * (now[i] - before[i]); }
};

// ---- per row: X delta from the row-major copy ----

struct RowMove {
  AllCoordinatesView v;
  const double* delta;
  double* d;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    double sum = 0.0;
    for (std::int64_t k = v.rowStart[r]; k < v.rowStart[r + 1]; ++k) sum += v.rowEntryValue(k) * delta[v.rowColumn[k]];
    d[r] = sum;
  }
};

// A trial's eta: base + s D, less (s - 1) Dz beyond s = 1 (Dz: the share of the coordinates
// the step set to 0, which stay there).
struct TrialEta {
  const double* base;
  const double* d;
  const double* dz;  // null: none zeroed
  double s;
  double* eta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    double e = base[r] + s * d[r];
    if (dz && s > 1.0) e -= (s - 1.0) * dz[r];
    eta[r] = e;
  }
};

struct SlopeTerm {
  const double* score;
  const double* d;
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const { return boundScoreSlopeTerm(score[r], d[r]); }
};
struct AbsChangeTerm {
  const double* a;
  const double* b;
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const { return fabs(a[r] - b[r]); }
};

}  // namespace bound_device
}  // namespace argus
