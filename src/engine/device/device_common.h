// Small pieces every device model uses: raw pointers into device vectors, the sum functor,
// the once-per-fit upload of the cycle state, and the eta readouts (sum w y eta and the eta
// movement of the "zhang" criterion) computed where eta lives.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "models/likelihood.h"
#include "priors/prior.h"
#include "solver/coordinate_sweep.h"
#include "solver/cycle_runner.h"

namespace argus {
namespace device {

template <typename T>
T* raw(thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }
template <typename T>
const T* raw(const thrust::device_vector<T>& v) { return thrust::raw_pointer_cast(v.data()); }

struct Plus {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return a + b; }
};
struct GradHessPlus {
  ARGUS_HOST_DEVICE GradHess operator()(const GradHess& a, const GradHess& b) const {
    return {a.g + b.g, a.h + b.h};
  }
};

// The value at a device address, copied to the host (a synchronization on a GPU). Not
// `vector[0]` or `*device_ptr`: Thrust's element reference binds its system through a null
// pointer, which UBSan reports.
template <typename T>
T readBack(const T* at) {
  T value;
  thrust::copy(thrust::device_pointer_cast(at), thrust::device_pointer_cast(at) + 1, &value);
  return value;
}
template <typename T>
T readBack(const thrust::device_vector<T>& v) { return readBack(thrust::raw_pointer_cast(v.data())); }

// dst = src (host to device). An empty src only clears dst: Thrust's serial copy forms a
// reference to the first element even of an empty range, which UBSan reports.
template <typename T>
void upload(thrust::device_vector<T>& dst, const std::vector<T>& src) {
  if (src.empty()) {
    dst.clear();
    return;
  }
  dst = src;
}

// Bytes held by device vectors.
template <typename... V>
double bytesOf(const V&... v) {
  return (0.0 + ... + static_cast<double>(v.size() * sizeof(typename V::value_type)));
}

template <typename F>
auto indexed(F f) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), f);
}

// beta, bounds and priors in device memory for one sweep (P values each way).
struct DeviceCoefficients {
  thrust::device_vector<double> beta, bound;
  thrust::device_vector<CoordinatePrior> prior;
  void upload(const CycleState& state) {
    beta.assign(state.beta.begin(), state.beta.end());
    bound.assign(state.bound.begin(), state.bound.end());
    prior.assign(state.prior.begin(), state.prior.end());
  }
  void download(CycleState& state) const {
    thrust::copy(beta.begin(), beta.end(), state.beta.begin());
    thrust::copy(bound.begin(), bound.end(), state.bound.begin());
  }
  double bytes() const { return bytesOf(beta, bound, prior); }
};

struct WeightedOutcomeEtaTerm {
  const double* w;
  const double* y;
  const double* eta;
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const { return w[r] * y[r] * eta[r]; }
};

struct MovementTerm {
  const double* eta;
  const double* mark;
  ARGUS_HOST_DEVICE Likelihood::EtaMovement operator()(std::int64_t r) const {
    return {fabs(eta[r]), fabs(eta[r] - mark[r])};
  }
};
struct MovementPlus {
  ARGUS_HOST_DEVICE Likelihood::EtaMovement operator()(const Likelihood::EtaMovement& a,
                                                      const Likelihood::EtaMovement& b) const {
    return {a.sumAbsEta + b.sumAbsEta, a.sumAbsChange + b.sumAbsChange};
  }
};

// Every column's g, h from a device array (one read-back), {0, 0} where skipped:
// Likelihood::gradHessAll on a device.
inline void readBackGradHess(const thrust::device_vector<GradHess>& all, const std::vector<unsigned char>& skip,
                             std::vector<GradHess>* out) {
  out->assign(all.size(), GradHess{});
  thrust::copy(all.begin(), all.end(), out->begin());
  for (std::size_t j = 0; j < skip.size() && j < out->size(); ++j)
    if (skip[j]) (*out)[j] = GradHess{};
}

// What a sweep's launches depend on besides buffers that stay put: its coordinates in order,
// which of them are fixed, the follower and the coefficient arrays. Equal keys, equal
// launches: the key under which Prims::replay() keeps a recorded sweep (compared whole, so
// no two sweeps can share a recording).
using SweepKey = std::vector<std::uint64_t>;
inline SweepKey sweepKey(const CyclePlan& plan, const std::vector<unsigned char>& fixed,
                         const DeviceCoefficients& coef) {
  SweepKey key;
  key.reserve(plan.coordinates.size() + 5);
  for (const std::int32_t j : plan.coordinates)
    key.push_back((static_cast<std::uint64_t>(static_cast<std::uint32_t>(j)) << 1) | (fixed[j] != 0));
  key.push_back(static_cast<std::uint64_t>(static_cast<std::int64_t>(plan.follower)));
  key.push_back(plan.follower >= 0 && fixed[plan.follower] != 0);
  for (const void* p : {static_cast<const void*>(raw(coef.beta)), static_cast<const void*>(raw(coef.bound)),
                        static_cast<const void*>(raw(coef.prior))})
    key.push_back(reinterpret_cast<std::uintptr_t>(p));
  return key;
}

// The readouts of an eta held on the device, in the CPU's order of summation.
template <typename Prims>
class EtaReadouts {
 public:
  explicit EtaReadouts(std::int64_t n) : n_(n), mark_(n, 0.0), out_(1), movement_(1) {}

  double weightedOutcomeEta(const Prims& prims, const double* w, const double* y, const double* eta) const {
    prims.reduceTo(indexed(WeightedOutcomeEtaTerm{w, y, eta}), n_, 0.0, Plus{}, raw(out_));
    return readBack(out_);
  }
  Likelihood::EtaMovement take(const Prims& prims, const double* eta) {
    prims.reduceTo(indexed(MovementTerm{eta, raw(mark_)}), n_, Likelihood::EtaMovement{},
                   MovementPlus{}, raw(movement_));
    thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, mark_.begin());
    return readBack(movement_);
  }
  double bytes() const { return bytesOf(mark_, out_, movement_); }
  // eta copied to `host` (sized n).
  void download(const double* eta, std::vector<double>& host) const {
    thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, host.begin());
  }

 private:
  std::int64_t n_;
  thrust::device_vector<double> mark_;
  mutable thrust::device_vector<double> out_;
  thrust::device_vector<Likelihood::EtaMovement> movement_;
};

}  // namespace device

// What every device model shares, written once: the rows' weights and outcomes on the device,
// and the eta readouts (eta() copied to the host on demand; sum w y eta and the eta movement
// computed where eta lives). A model says which device array holds eta with the CPU's timing
// (publishedEta(): as of the last reset() or refreshSums() for the GLMs, current for the
// others, as their CPU likelihoods) and calls etaChanged() whenever that array changes.
template <typename Prims>
class DeviceModelBase : public DeviceModel {
 public:
  DeviceModelBase(const Dataset& data, const double* weights)
      : DeviceModel(data, weights), n_(data.nRows()), readouts_(data.nRows()), hostEta_(data.nRows()) {
    std::vector<double> w(n_);
    for (std::int64_t r = 0; r < n_; ++r) w[r] = weight(r);
    device::upload(w_, w);
    y_.assign(data.outcomes.y, data.outcomes.y + n_);
  }

  const std::vector<double>& eta() const override {
    if (!hostEtaCurrent_) {
      readouts_.download(publishedEta(), hostEta_);
      hostEtaCurrent_ = true;
    }
    return hostEta_;
  }
  double weightedOutcomeEta() const override {
    return readouts_.weightedOutcomeEta(prims_, device::raw(w_), device::raw(y_), publishedEta());
  }
  EtaMovement takeEtaMovement() override { return readouts_.take(prims_, publishedEta()); }

 protected:
  virtual const double* publishedEta() const = 0;
  void etaChanged() const { hostEtaCurrent_ = false; }
  // After rebuildFromEta(): the host copy is what was loaded.
  void etaLoaded() {
    hostEta_ = eta_;
    hostEtaCurrent_ = true;
  }
  double baseBytes() const { return readouts_.bytes() + device::bytesOf(w_, y_); }

  Prims prims_;
  std::int64_t n_;
  thrust::device_vector<double> w_, y_;  // weights (1 where none) and outcomes, per row

 private:
  mutable device::EtaReadouts<Prims> readouts_;
  mutable std::vector<double> hostEta_;
  mutable bool hostEtaCurrent_ = false;
};

}  // namespace argus
