// The device functors of the batched all-coordinates steps (device/batched_steps.h): the
// member index is a dimension of every array (member-major: member m's row r at m n + r, its
// coordinate j at m p + j), and the passes over X carry one lane per member, so that X is read
// once for up to kLanes members. The formulas are models/separable_bound.h's and
// priors/prior.h's, as in the single fit's steps (all_coordinates_functors.h).
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "device/all_coordinates_design.h"
#include "device/all_coordinates_functors.h"
#include "models/separable_bound.h"
#include "priors/prior.h"
#include "solver/batched_start.h"

namespace argus {
namespace batch_device {

// Members whose passes share one read of X (the solver's kBatchLanes, one constant).
constexpr int kLanes = kBatchLanes;

// One value per member of a chunk (lanes past the chunk's members stay 0).
struct Lanes {
  double v[kLanes];
};
struct LanesPlus {
  ARGUS_HOST_DEVICE Lanes operator()(const Lanes& a, const Lanes& b) const {
    Lanes out;
    for (int k = 0; k < kLanes; ++k) out.v[k] = a.v[k] + b.v[k];
    return out;
  }
};
ARGUS_HOST_DEVICE inline Lanes zeroLanes() {
  Lanes out;
  for (int k = 0; k < kLanes; ++k) out.v[k] = 0.0;
  return out;
}

// The chunk's members (their indices among all members) and the batch's sizes.
struct Chunk {
  const std::int32_t* member;  // device: the chunk's members, `count` of them
  int count;
  std::int64_t n, p;
};

// Column-major entry k: c x^2 (squares) or c x per member of the chunk (the runs' sums).
struct CurvatureLanes {
  AllCoordinatesView v;
  Chunk chunk;
  const double* c;
  bool squares;
  ARGUS_HOST_DEVICE Lanes operator()(std::int64_t k) const {
    Lanes out = zeroLanes();
    const std::int32_t r = v.entryRow[k];
    const double x = v.value(k);
    for (int i = 0; i < chunk.count; ++i) {
      const double cx = c[chunk.member[i] * chunk.n + r] * x;
      out.v[i] = squares ? cx * x : cx;
    }
    return out;
  }
};

// Column-major entry k: x (s - c alpha_s(r)) per member (the gradient of q at D = 0).
struct GradientLanes {
  AllCoordinatesView v;
  Chunk chunk;
  const double* score;
  const double* c;
  const double* alpha;  // member-major per stratum; null: no shift
  std::int32_t strata;
  ARGUS_HOST_DEVICE Lanes operator()(std::int64_t k) const {
    Lanes out = zeroLanes();
    const std::int32_t r = v.entryRow[k];
    const double x = v.value(k);
    const std::int32_t s = v.stratumOf(r);
    for (int i = 0; i < chunk.count; ++i) {
      const std::int64_t m = chunk.member[i];
      const double a = alpha ? alpha[m * strata + s] : 0.0;
      out.v[i] = boundGradientTerm(x, score[m * chunk.n + r], c[m * chunk.n + r], a);
    }
    return out;
  }
};

// Lane i of sums[k] into out[member_i * stride + k] (k < count).
struct ScatterLanes {
  const Lanes* sums;
  Chunk chunk;
  std::int64_t stride;
  double* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    for (int i = 0; i < chunk.count; ++i) out[chunk.member[i] * stride + k] = sums[k].v[i];
  }
};

// A member's runs' sums of c x^2 and c x, paired as the single fit's steps read them.
struct PairRuns {
  const double* cxx;
  const double* cx;
  bound_device::CurvatureSums* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = {cxx[i], cx[i]}; }
};

// Per row: D = X delta for every member of the chunk, from the row-major copy.
struct RowMoveLanes {
  AllCoordinatesView v;
  Chunk chunk;
  const double* delta;  // member-major per coordinate
  double* d;            // member-major per row
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    double sum[kLanes];
    for (int i = 0; i < chunk.count; ++i) sum[i] = 0.0;
    for (std::int64_t k = v.rowStart[r]; k < v.rowStart[r + 1]; ++k) {
      const double x = v.rowEntryValue(k);
      const std::int32_t j = v.rowColumn[k];
      for (int i = 0; i < chunk.count; ++i) sum[i] += x * delta[chunk.member[i] * chunk.p + j];
    }
    for (int i = 0; i < chunk.count; ++i) d[chunk.member[i] * chunk.n + r] = sum[i];
  }
};

// Per (member of the chunk, coordinate): the proximal step from beta with curvature L_m h.
struct ProximalLanes {
  Chunk chunk;
  const double* g;
  const double* h;
  const unsigned char* active;
  const double* from;
  const CoordinatePrior* prior;
  const double* lipschitz;  // per member
  double* delta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t m = chunk.member[i / chunk.p], j = i % chunk.p, at = m * chunk.p + j;
    const double b = from[at];
    delta[at] = active[at] ? proximalPoint(GradHess{g[at], -lipschitz[m] * h[at]}, b, prior[j]) - b : 0.0;
  }
};

}  // namespace batch_device
}  // namespace argus
