// The conditional likelihoods with Breslow's form (sccs, cpr, and clr with ties = "breslow")
// on a device: conditional_likelihood.h's algorithm with its state in device memory and a
// coordinate sweep that never returns to the host.
//
// State: eta, u_r = c_r exp(eta_r - shift_s) and the per-stratum den_s, shift_s, events n_s.
// A coordinate is O(nnz_j) in three launches: one thread per run of the column's entries
// (device_stratum_runs.h) sums N1, N2 over its entries in order and writes its stratum's term
// (conditionalStratumTerm, conditional_functors.h: the CPU's formula); a reduction folds the
// terms onto the column's linear term; a one-thread functor takes the Newton step (prior.h);
// then one thread per run moves its entries' eta and u and its stratum's den, returning at
// once where the step is 0. Every sum runs in the CPU's order, so Thrust's CPP system gives
// the CPU's numbers bit for bit.
#pragma once

#include <thrust/device_vector.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "device/device_columns.h"
#include "device/device_common.h"
#include "device/device_stratum_runs.h"
#include "models/column_linear_terms.h"
#include "models/conditional_functors.h"

namespace argus {

struct ConditionalDeviceScalars {
  double step = 0.0;        // the last coordinate's step (0: did not move)
  double unitFactor = 1.0;  // exp(step)
  std::int64_t moved = 0;
  GradHess gh;              // the last coordinate's g, h
  double reduced = 0.0;     // a scalar readout
};

namespace conditional_device {

struct State {
  double* eta;
  double* u;
  double* den;
  double* shift;
  const double* events;
};

struct RunTerms {
  RunView runs;
  ColumnEntries col;
  State st;
  GradHess* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    StratumMoments moments;
    for (std::int64_t k = runs.begin[i]; k < runs.begin[i + 1]; ++k) moments.add(st.u[col.row(k)], col.value(k));
    const std::int32_t s = runs.stratum[i];
    out[i] = conditionalStratumTerm(st.events[s], st.den[s], moments.n1, moments.n2);
  }
};

struct CoordinateStep {
  ConditionalDeviceScalars* sc;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  std::int32_t j;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    const double delta = trustRegionStep(newtonStep(sc->gh, beta[j], prior[j]), &bound[j]);
    sc->step = delta;
    if (delta == 0.0) return;
    sc->unitFactor = exp(delta);
    beta[j] += delta;
    ++sc->moved;
  }
};

struct GivenStep {
  ConditionalDeviceScalars* sc;
  double delta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->step = delta;
    sc->unitFactor = exp(delta);
  }
};

struct ApplyRuns {
  RunView runs;
  ColumnEntries col;
  State st;
  const ConditionalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const double delta = sc->step;
    if (delta == 0.0) return;
    const std::int32_t s = runs.stratum[i];
    for (std::int64_t k = runs.begin[i]; k < runs.begin[i + 1]; ++k) {
      const std::int64_t r = col.row(k);
      st.den[s] += moveRiskEntry(st.eta[r], st.u[r], col.value(k), delta, sc->unitFactor);
    }
  }
};

// Per stratum: den_s = sum of u over its rows (row order), after `rebuild` also shift_s (the
// largest eta, 0 if none is finite) and u_r.
struct StratumSums {
  State st;
  const std::int64_t* first;
  const std::int64_t* end;
  const double* scale;  // c_r = w_r exposure_r
  bool rebuild;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    if (rebuild) {
      const double top = stratumShift(st.eta, first[s], end[s]);
      st.shift[s] = top;
      for (std::int64_t r = first[s]; r < end[s]; ++r) st.u[r] = scale[r] * exp(st.eta[r] - top);
    }
    double sum = 0.0;
    for (std::int64_t r = first[s]; r < end[s]; ++r) sum += st.u[r];
    st.den[s] = sum;
  }
};

// The log-likelihood's terms in the CPU's order: w y eta per row, then per stratum with
// events -n_s shift_s and -n_s log den_s.
struct LogLikTerm {
  std::int64_t n;
  const double* w;
  const double* y;
  State st;
  ARGUS_HOST_DEVICE double operator()(std::int64_t k) const {
    if (k < n) return w[k] * y[k] * st.eta[k];
    const std::int64_t s = (k - n) / 2;
    const double events = st.events[s];
    if (events == 0.0) return 0.0;
    return (k - n) % 2 == 0 ? -(events * st.shift[s]) : -(events * log(st.den[s]));
  }
};

struct ResetMoves {
  ConditionalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->moved = 0; }
};

}  // namespace conditional_device

template <typename Prims>
class DeviceConditionalLikelihood final : public DeviceModelBase<Prims> {
  using Base = DeviceModelBase<Prims>;
  using Base::prims_;
  using Base::n_;
  using Base::w_;
  using Base::y_;
  using Base::weight;
  using Base::exposure;
  using Base::data_;
  using Base::eta_;
  using Base::weights_;
  using Base::nRows;
 public:
  DeviceConditionalLikelihood(const Dataset& data, const double* weights)
      : Base(data, weights),
        columns_(data.design),
        runs_(data.design, data.outcomes.stratum),
        strata_(data.outcomes.nStrata),
        linear_(data.design, weightedOutcomes()) {
    const std::int32_t* stratum = data.outcomes.stratum;
    std::vector<double> scale(n_), events(strata_, 0.0);
    std::vector<std::int64_t> first(strata_, 0), end(strata_, 0);
    std::vector<unsigned char> seen(strata_, 0);
    for (std::int64_t r = 0; r < n_; ++r) {
      const std::int32_t s = stratum[r];
      scale[r] = weight(r) * exposure(r);
      events[s] += weight(r) * data.outcomes.y[r];
      if (!seen[s]) first[s] = r;
      seen[s] = 1;
      end[s] = r + 1;
    }
    device::upload(scale_, scale);
    device::upload(events_, events);
    device::upload(first_, first);
    device::upload(end_, end);
    eta_d_.resize(n_);
    u_.resize(n_);
    direction_.resize(n_);
    den_.resize(strata_);
    shift_.resize(strata_);
    terms_.resize(static_cast<std::size_t>(runs_.maxRuns() > 0 ? runs_.maxRuns() : 1));
    scalars_.resize(1);
  }

  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override {
    coef_.upload(state);
    ConditionalDeviceScalars* sc = scalars();
    prims_.replay(device::sweepKey(plan, state.fixed, coef_), [&] {
      prims_.forEach(1, conditional_device::ResetMoves{sc});
      for (const std::int32_t j : plan.coordinates) {
        if (state.fixed[j]) continue;
        enqueueGradHess(runs_.column(j), columns_.entries(j), linear_(j));
        prims_.forEach(1, conditional_device::CoordinateStep{sc, device::raw(coef_.beta), device::raw(coef_.bound),
                                                             device::raw(coef_.prior), j});
        enqueueApply(runs_.column(j), columns_.entries(j));
      }
    });
    coef_.download(state);
    this->etaChanged();
    return hostScalars().moved;
  }

  double deviceBytes() const override {
    return columns_.bytes() + runs_.bytes() + coef_.bytes() + this->baseBytes() +
           device::bytesOf(scale_, events_, first_, end_, eta_d_, u_, den_, shift_, direction_,
                           terms_, scalars_);
  }

  GradHess gradHess(std::size_t j) const override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    enqueueGradHess(runs_.column(c), columns_.entries(c), linear_(j));
    return hostScalars().gh;
  }
  void applyStep(std::size_t j, double delta) override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    prims_.forEach(1, conditional_device::GivenStep{scalars(), delta});
    enqueueApply(runs_.column(c), columns_.entries(c));
    this->etaChanged();
  }
  void refreshSums() override { enqueueStrata(false); }
  double logLikelihood() const override {
    ConditionalDeviceScalars* sc = scalars();
    prims_.reduceTo(device::indexed(conditional_device::LogLikTerm{n_, device::raw(w_), device::raw(y_), state()}),
                    n_ + 2 * static_cast<std::int64_t>(strata_), 0.0, device::Plus{}, &sc->reduced);
    return hostScalars().reduced;
  }

  // Directions (host-assisted, once per cycle): a dense column over every row.
  bool supportsDirection() const override { return true; }
  bool extrapolatesCycles() const override { return false; }  // as the CPU's
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    const double linear = weightedOutcomeDot(n_, weights_, data_.outcomes.y, d.data());
    thrust::copy(d.begin(), d.end(), direction_.begin());
    enqueueGradHess(runs_.allRows(), ColumnEntries{nullptr, device::raw(direction_)}, linear);
    return hostScalars().gh;
  }
  void stepAlong(const std::vector<double>& d, double alpha) override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    prims_.forEach(1, conditional_device::GivenStep{scalars(), alpha});
    enqueueApply(runs_.allRows(), ColumnEntries{nullptr, device::raw(direction_)});
    this->etaChanged();
  }

 protected:
  void rebuildFromEta() override {
    thrust::copy(eta_.begin(), eta_.end(), eta_d_.begin());
    enqueueStrata(true);
    this->etaLoaded();
  }

 private:
  std::vector<double> weightedOutcomes() const {
    std::vector<double> c(static_cast<std::size_t>(nRows()));
    for (std::int64_t r = 0; r < nRows(); ++r) c[r] = weight(r) * data_.outcomes.y[r];
    return c;
  }
  ConditionalDeviceScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  ConditionalDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  conditional_device::State state() const {
    return {thrust::raw_pointer_cast(eta_d_.data()), thrust::raw_pointer_cast(u_.data()),
            thrust::raw_pointer_cast(den_.data()), thrust::raw_pointer_cast(shift_.data()),
            device::raw(events_)};
  }
  void enqueueGradHess(RunView runs, ColumnEntries col, double linear) const {
    GradHess* terms = thrust::raw_pointer_cast(terms_.data());
    prims_.forEach(runs.count, conditional_device::RunTerms{runs, col, state(), terms});
    prims_.reduceTo(terms, runs.count, GradHess{linear, 0.0}, device::GradHessPlus{}, &scalars()->gh);
  }
  void enqueueApply(RunView runs, ColumnEntries col) {
    prims_.forEach(runs.count, conditional_device::ApplyRuns{runs, col, state(), scalars()});
  }
  void enqueueStrata(bool rebuild) {
    prims_.forEach(strata_, conditional_device::StratumSums{state(), device::raw(first_), device::raw(end_),
                                                            device::raw(scale_), rebuild});
  }

  const double* publishedEta() const override { return device::raw(eta_d_); }  // current, as the CPU's

  DeviceColumns columns_;
  DeviceStratumRuns runs_;
  std::int32_t strata_;
  ColumnLinearTerms linear_;  // sum_r w_r y_r x_rj, on the host once per column (as the CPU)
  thrust::device_vector<double> scale_, events_;
  thrust::device_vector<std::int64_t> first_, end_;
  mutable thrust::device_vector<double> eta_d_, u_, den_, shift_, direction_;
  mutable thrust::device_vector<GradHess> terms_;
  mutable thrust::device_vector<ConditionalDeviceScalars> scalars_;
  device::DeviceCoefficients coef_;
};

}  // namespace argus
