// The conditional likelihoods (sccs, cpr, and clr with ties = "breslow", "efron" or "exact")
// on a device: conditional_likelihood.h's algorithm with its state in device memory and a
// coordinate sweep that never returns to the host.
//
// State: eta, u_r = c_r exp(eta_r - shift_s) and the per-stratum den_s, shift_s, events n_s
// (clr's Efron: F_s and the slot terms; exact: scratch for each exact stratum's recursion).
// A coordinate is O(nnz_j) (exact strata: O(m_s n_s) each) in four launches: one thread per
// run of the column's entries (device_stratum_runs.h) sums N1, N2 over its entries in order
// and writes its stratum's term (device_conditional_terms.h: the CPU's formulas); a reduction
// sums the terms; a one-thread functor adds the column's linear term (withLinearTerm) and
// takes the Newton step (prior.h); then one thread per run moves its entries' eta and u and
// its stratum's sums, returning at once where the step is 0. Every sum runs in the CPU's
// order, so Thrust's CPP system gives the CPU's coefficients bit for bit (the CPU defers
// eta, deferred_column_steps.h, so eta and the readouts agree to rounding).
#pragma once

#include <thrust/device_vector.h>
#include <thrust/fill.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/errors.h"
#include "device/all_coordinates_steps.h"
#include "device/device_bound_source.h"
#include "device/device_columns.h"
#include "device/device_common.h"
#include "device/device_conditional_terms.h"
#include "device/device_design.h"
#include "device/device_stratum_runs.h"
#include "models/column_linear_terms.h"
#include "models/conditional_functors.h"
#include "models/exact_conditional_strata.h"

namespace argus {

namespace conditional_device {

// sc->gh holds column j's stratum terms; its linear term is added here, last, as the CPU's
// scan adds it (withLinearTerm).
struct CoordinateStep {
  ConditionalDeviceScalars* sc;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  std::int32_t j;
  double linear;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    const GradHess gh = withLinearTerm(sc->gh, linear);
    const double delta = trustRegionStep(newtonStep(gh, beta[j], prior[j]), &bound[j]);
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

struct ResetMoves {
  ConditionalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->moved = 0; }
};

// Row r's Breslow bound (conditionalRowScore) for the all-coordinates steps.
struct RowBound {
  State st;
  const double* w;
  AllCoordinatesView rowsByStratum;
  double* score;
  double* curvature;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    const std::int32_t s = rowsByStratum.stratumOf(r);
    conditionalRowScore(w[r] * st.y[r], st.u[r], st.events[s], st.den[s], score + r, curvature + r);
  }
};

}  // namespace conditional_device

template <typename Prims>
class DeviceConditionalLikelihood final : public DeviceModelBase<Prims>, public DeviceBoundSource {
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
  DeviceConditionalLikelihood(const Dataset& data, const double* weights, std::shared_ptr<const DeviceDesign> design)
      : Base(data, weights),
        design_(std::move(design)),
        columns_(design_->columns),
        runs_(*design_->runs),
        strata_(data.outcomes.nStrata),
        ties_(data.model == ModelType::ConditionalLogistic ? data.ties : TieMethod::Breslow),
        linear_(data.design, weightedOutcomes()) {
    const std::int32_t* stratum = data.outcomes.stratum;
    std::vector<double> scale(n_), events(strata_, 0.0), caseCount;
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
    if (ties_ == TieMethod::Efron) {  // as the CPU's: positively weighted cases per stratum
      caseCount.assign(strata_, 0.0);
      for (std::int64_t r = 0; r < n_; ++r)
        if (data.outcomes.y[r] != 0.0 && weight(r) > 0.0) caseCount[stratum[r]] += 1.0;
      caseRisk_.resize(strata_);
      efron_.resize(strata_);
    }
    if (ties_ == TieMethod::Exact) planExactStrata(ExactConditionalStrata(data.outcomes, weights, n_));
    device::upload(scale_, scale);
    device::upload(events_, events);
    device::upload(caseCount_, caseCount);
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
        enqueueTerms(runs_.column(j), columns_.entries(j));
        prims_.forEach(1, conditional_device::CoordinateStep{sc, device::raw(coef_.beta), device::raw(coef_.bound),
                                                             device::raw(coef_.prior), j, linear_(j)});
        enqueueApply(runs_.column(j), columns_.entries(j));
      }
    });
    coef_.download(state);
    this->etaChanged();
    const std::int64_t moved = hostScalars().moved;
    checkExactStrata();
    return moved;
  }

  double deviceBytes() const override {
    return columns_.bytes() + runs_.bytes() + coef_.bytes() + this->baseBytes() +
           device::bytesOf(scale_, events_, first_, end_, eta_d_, u_, den_, shift_, direction_,
                           terms_, scalars_, caseCount_, caseRisk_, efron_, cases_, exactWeight_,
                           scratchStart_, levels_, heap_, failed_, gradHessOut_);
  }

  GradHess gradHess(std::size_t j) const override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    enqueueTerms(runs_.column(c), columns_.entries(c));
    const GradHess gh = withLinearTerm(hostScalars().gh, linear_(j));
    checkExactStrata();
    return gh;
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
    withTies([&](auto ties) {
      prims_.reduceTo(device::indexed(conditional_device::LogLikTerm<decltype(ties)::value>{n_, device::raw(w_),
                                                                                           state()}),
                      n_ + 2 * static_cast<std::int64_t>(strata_), 0.0, device::Plus{}, &sc->reduced);
    });
    const double value = hostScalars().reduced;
    checkExactStrata();
    return value;
  }

  // Every column's stratum terms enqueued into a device array, read back once.
  void gradHessAll(const std::vector<unsigned char>& skip, std::vector<GradHess>* out) const override {
    const std::size_t p = data_.design.nColumns();
    gradHessOut_.resize(p);
    for (std::size_t j = 0; j < p; ++j) {
      if (!skip.empty() && skip[j]) continue;
      const std::int32_t c = static_cast<std::int32_t>(j);
      enqueueTerms(runs_.column(c), columns_.entries(c), thrust::raw_pointer_cast(gradHessOut_.data()) + j);
    }
    device::readBackGradHess(gradHessOut_, skip, out);
    for (std::size_t j = 0; j < p; ++j)
      if (skip.empty() || !skip[j]) (*out)[j] = withLinearTerm((*out)[j], linear_(j));
    checkExactStrata();
  }

  // The all-coordinates steps (device/all_coordinates_steps.h) under Breslow's form (sccs,
  // cpr, clr with ties = "breslow"); clr's Efron and exact strata offer no bound (yet), and
  // their fits take the exact cycles alone. The bound shifts per stratum.
  bool offersBound() const override { return ties_ == TieMethod::Breslow; }
  std::unique_ptr<BoundSteps> boundSteps() override {
    if (!offersBound()) return nullptr;
    return std::make_unique<DeviceBoundSteps<Prims>>(*this, *this, design_->template allCoordinates<Prims>());
  }
  BoundShift boundShift() const override { return BoundShift::PerStratum; }
  void boundRowScores(double* score, double* curvature) const override {
    prims_.forEach(n_, conditional_device::RowBound{state(), device::raw(w_), design_->template allCoordinates<Prims>().view(), score,
                                                    curvature});
  }
  const double* currentEta() const override { return device::raw(eta_d_); }
  void loadEta(const double* eta) override {
    thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, eta_d_.begin());
    enqueueStrata(true);
    this->etaChanged();
  }

  // Directions (host-assisted, once per cycle): a dense column over every row.
  bool supportsDirection() const override { return true; }
  bool extrapolatesCycles() const override { return false; }  // as the CPU's
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    const double linear = weightedOutcomeDot(n_, weights_, data_.outcomes.y, d.data());
    thrust::copy(d.begin(), d.end(), direction_.begin());
    enqueueTerms(runs_.allRows(), ColumnEntries{nullptr, device::raw(direction_)});
    const GradHess gh = withLinearTerm(hostScalars().gh, linear);
    checkExactStrata();
    return gh;
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
  // Exact ties: per stratum its cases and weight (the CPU's, which also checks the weights)
  // and room for the recursion of each stratum with two or more cases.
  void planExactStrata(const ExactConditionalStrata& exact) {
    std::vector<std::int64_t> start(strata_, 0);
    std::int64_t total = 0;
    for (std::int32_t s = 0; s < strata_; ++s) {
      start[s] = total;
      if (exact.cases()[s] >= 2) total += exact.cases()[s] + 1;
    }
    device::upload(cases_, exact.cases());
    device::upload(exactWeight_, exact.weights());
    device::upload(scratchStart_, start);
    levels_.resize(static_cast<std::size_t>(total > 0 ? total : 1));
    heap_.resize(levels_.size());
    failed_.assign(strata_, 0);
  }
  // After a scan or log-likelihood: an exact stratum whose term was not finite is the CPU's
  // error, naming the first such stratum.
  void checkExactStrata() const {
    if (ties_ != TieMethod::Exact || strata_ == 0) return;
    ConditionalDeviceScalars* sc = scalars();
    prims_.reduceTo(device::indexed(conditional_device::FailedCount{device::raw(failed_)}), strata_, 0.0,
                    device::Plus{}, &sc->reduced);
    if (hostScalars().reduced == 0.0) return;
    std::vector<unsigned char> failed(failed_.size());
    thrust::copy(failed_.begin(), failed_.end(), failed.begin());
    thrust::fill(failed_.begin(), failed_.end(), static_cast<unsigned char>(0));
    // The CPU falls back to the log-domain recursion there (ExactConditionalStrata); the
    // device does not yet, so a fit running off along a recession stops with this error.
    for (std::int32_t s = 0; s < strata_; ++s)
      if (failed[s]) throw ArgusError(exactNotFiniteMessage(s));
  }
  // Calls f with the tie method as a compile-time constant (the functors are compiled per
  // method, as the CPU's scan and step).
  template <typename F>
  void withTies(F&& f) const {
    switch (ties_) {
      case TieMethod::Efron: return f(std::integral_constant<TieMethod, TieMethod::Efron>{});
      case TieMethod::Exact: return f(std::integral_constant<TieMethod, TieMethod::Exact>{});
      case TieMethod::Breslow: break;
    }
    f(std::integral_constant<TieMethod, TieMethod::Breslow>{});
  }
  ConditionalDeviceScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  ConditionalDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  conditional_device::State state() const {
    auto m = [](auto& v) { return thrust::raw_pointer_cast(v.data()); };
    return {m(eta_d_), m(u_), m(den_), m(shift_), device::raw(events_), device::raw(y_), device::raw(first_),
            device::raw(end_), device::raw(caseCount_), m(caseRisk_), m(efron_), device::raw(cases_),
            device::raw(exactWeight_), device::raw(scratchStart_), m(levels_), m(heap_), m(failed_)};
  }
  // A column's stratum terms, summed into *out (scalars()->gh where not given; withLinearTerm()
  // adds its linear term).
  void enqueueTerms(RunView runs, ColumnEntries col, GradHess* out = nullptr) const {
    GradHess* terms = thrust::raw_pointer_cast(terms_.data());
    withTies([&](auto ties) {
      prims_.forEach(runs.count, conditional_device::RunTerms<decltype(ties)::value>{runs, col, state(), terms});
    });
    prims_.reduceTo(terms, runs.count, GradHess{0.0, 0.0}, device::GradHessPlus{}, out ? out : &scalars()->gh);
  }
  void enqueueApply(RunView runs, ColumnEntries col) {
    // Exact strata keep no sums of their own: their step is Breslow's (den), as on the CPU.
    if (ties_ == TieMethod::Efron)
      prims_.forEach(runs.count, conditional_device::ApplyRuns<TieMethod::Efron>{runs, col, state(), scalars()});
    else
      prims_.forEach(runs.count, conditional_device::ApplyRuns<TieMethod::Breslow>{runs, col, state(), scalars()});
  }
  void enqueueStrata(bool rebuild) {
    if (ties_ == TieMethod::Efron)
      prims_.forEach(strata_, conditional_device::StratumSums<TieMethod::Efron>{state(), device::raw(scale_), rebuild});
    else
      prims_.forEach(strata_, conditional_device::StratumSums<TieMethod::Breslow>{state(), device::raw(scale_), rebuild});
  }

  const double* publishedEta() const override { return device::raw(eta_d_); }  // current, as the CPU's

  std::shared_ptr<const DeviceDesign> design_;  // shared by a cross-validation's fits
  const DeviceColumns& columns_;
  const DeviceStratumRuns& runs_;
  std::int32_t strata_;
  TieMethod ties_;
  ColumnLinearTerms linear_;  // sum_r w_r y_r x_rj, on the host once per column (as the CPU)
  thrust::device_vector<double> scale_, events_, caseCount_, exactWeight_;
  thrust::device_vector<std::int64_t> first_, end_, scratchStart_;
  thrust::device_vector<int> cases_;
  mutable thrust::device_vector<double> eta_d_, u_, den_, shift_, direction_, caseRisk_, heap_;
  mutable thrust::device_vector<EventSlotTerms> efron_;
  mutable thrust::device_vector<ExactLevel> levels_;
  mutable thrust::device_vector<unsigned char> failed_;
  mutable thrust::device_vector<GradHess> terms_, gradHessOut_;
  mutable thrust::device_vector<ConditionalDeviceScalars> scalars_;
  device::DeviceCoefficients coef_;
};

}  // namespace argus
