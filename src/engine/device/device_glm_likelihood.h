// The GLM likelihoods (ls, lr, pr) on a device: glm_likelihood.h's algorithm with its state
// in device memory, and a coordinate sweep that never returns to the host.
//
// The same lazy intercept shift, the same per-row formulas (glm_functors.h: the row functor,
// glmEntrySums, InterceptTracking) and the same step rules (priors/prior.h) as the CPU
// likelihood, in the same order, so that a sweep moves beta as the CPU's does, to rounding
// (the CPU's scan sums even and odd entries apart: glm_likelihood.h). Per coordinate the sweep enqueues
//   1. the column's sums (one reduction over its nnz entries, or all rows for the intercept),
//   2. a one-thread functor: the Newton step with its prior and trust region, beta and bound
//      updated in place, the intercept's running sums moved (or the intercept's O(1) shift),
//   3. for other columns, the update of their entries' eta and exp(eta), which reads the step
//      and returns at once where it is 0,
//   4. with a follower: the exact intercept sums where its estimate is stale (a reduction
//      gated by a device flag) and the follower's step, again one thread.
// Nothing is read back until the sweep ends (beta, bound, the count of moves). The calls made
// once per cycle (refresh, readouts, block Newton, optimality check) use the same device
// state and return scalars; the block Hessian and directions are host-assisted (see
// DESIGN.md, "The device backend (device/)").
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "device/all_coordinates_steps.h"
#include "device/device_bound_source.h"
#include "device/device_columns.h"
#include "device/device_common.h"
#include "device/device_design.h"
#include "models/glm_block_hessian.h"
#include "models/glm_functors.h"

namespace argus {

// The device-resident scalars of one GLM fit.
struct GlmDeviceScalars {
  double shift = 0.0, expShift = 1.0;  // the lazy intercept shift and exp(shift)
  double step = 0.0;                   // the last coordinate's step (0: did not move)
  double unitFactor = 1.0;             // exp(step), the factor of an indicator entry
  std::int64_t moved = 0;              // coordinates moved in this sweep
  int needExact = 0;                   // the follower needs the exact intercept sums
  GlmColumnSums sums;                  // the last coordinate's column sums
  GlmColumnSums exact;                 // exact intercept sums (refresh, follower)
  InterceptTracking tracked;           // the intercept's running estimate
  double reduced = 0.0;                // a scalar readout (log-likelihood, sum w y eta)
};

using device::raw;

namespace glm_device {

// Row state in structure-of-arrays form.
struct Rows {
  double* eta;     // eta - shift
  double* expEta;  // exp(eta - shift) (unused by least squares)
  const double* wy;
  const double* wt;
};

template <typename Row>
struct EntrySums {
  Row row;
  Rows rows;
  const GlmDeviceScalars* sc;
  ColumnEntries col;
  ARGUS_HOST_DEVICE GlmColumnSums operator()(std::int64_t k) const {
    const std::int64_t r = col.row(k);
    const RowDerivatives d =
        glmRowDerivatives(row, rows.eta[r] + sc->shift, rows.expEta[r] * sc->expShift, rows.wy[r],
                          rows.wt[r]);
    return glmEntrySums(d, col.value(k));
  }
};

// Applies a decided step `delta` of coordinate j to the running state (not to the entries).
template <typename Row>
ARGUS_HOST_DEVICE inline void recordStep(GlmDeviceScalars* sc, bool intercept, double delta) {
  sc->step = delta;
  if (delta == 0.0) return;
  if (intercept) {
    sc->shift += delta;
    sc->expShift = Row::kUsesExp ? exp(sc->shift) : 1.0;
    sc->tracked.interceptStep(delta);
  } else {
    sc->tracked.columnStep(sc->sums, delta);
    sc->unitFactor = Row::kUsesExp ? exp(delta) : 1.0;
  }
}

template <typename Row>
struct CoordinateStep {
  GlmDeviceScalars* sc;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  std::int32_t j;
  bool intercept;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    const GradHess gh = glmGradHess(sc->sums.g, sc->sums.x2Curv);
    const double delta = trustRegionStep(newtonStep(gh, beta[j], prior[j]), &bound[j]);
    recordStep<Row>(sc, intercept, delta);
    // Whether a follower must recompute the intercept's sums exactly before its step (read
    // only when one follows, as the CPU's gradHessEstimate() does).
    sc->needExact = delta != 0.0 && sc->tracked.stale;
    if (delta == 0.0) return;
    beta[j] += delta;
    ++sc->moved;
  }
};

template <typename Row>
struct GivenStep {
  GlmDeviceScalars* sc;
  double delta;
  bool intercept;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { recordStep<Row>(sc, intercept, delta); }
};

template <typename Row>
struct ApplyEntries {
  Rows rows;
  const GlmDeviceScalars* sc;
  ColumnEntries col;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    const double delta = sc->step;
    if (delta == 0.0) return;
    const std::int64_t r = col.row(k);
    moveGlmRow<Row::kUsesExp>(rows.eta[r], rows.expEta[r], col.value(k), delta, sc->unitFactor);
  }
};

struct ResetMoves {
  GlmDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->moved = 0; }
};

template <typename Row>
struct FollowerStep {
  GlmDeviceScalars* sc;
  double* beta;
  double* bound;
  const CoordinatePrior* prior;
  std::int32_t f;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    if (sc->step == 0.0) return;
    if (sc->needExact) sc->tracked.setExact(sc->exact);
    const GradHess gf = glmGradHess(sc->tracked.g, sc->tracked.curv);
    const double step = followerStep(newtonStep(gf, beta[f], prior[f]), &bound[f]);
    if (step == 0.0) return;
    beta[f] += step;
    sc->shift += step;
    sc->expShift = Row::kUsesExp ? exp(sc->shift) : 1.0;
    sc->tracked.interceptStep(step);
  }
};

template <typename Row>
struct FoldShift {
  Rows rows;
  double* published;
  const GlmDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    foldGlmShift<Row::kUsesExp>(rows.eta[r], rows.expEta[r], sc->shift, sc->expShift);
    published[r] = rows.eta[r];
  }
};

struct ClearShift {
  GlmDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    sc->shift = 0.0;
    sc->expShift = 1.0;
  }
};

struct SetExactTracking {
  GlmDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->tracked.setExact(sc->exact); }
};

struct MarkStale {
  GlmDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { sc->tracked.stale = 1; }
};

template <typename Row>
struct Rebuild {
  Rows rows;
  double* published;
  const double* eta;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    rows.eta[r] = eta[r];
    rows.expEta[r] = Row::kUsesExp ? exp(eta[r]) : 0.0;
    published[r] = eta[r];
  }
};

template <typename Row>
struct StepAlong {
  Rows rows;
  const double* d;
  double alpha;
  double unitFactor;  // exp(alpha)
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    moveGlmRow<Row::kUsesExp>(rows.eta[r], rows.expEta[r], d[r], alpha, unitFactor);
  }
};

// A row's share of what StepAlong gains (glmRowGain), read before the rows move.
template <typename Row>
struct RowGainAlong {
  Row row;
  Rows rows;
  const double* d;
  const GlmDeviceScalars* sc;
  double alpha;
  double unitFactor;  // exp(alpha)
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const {
    return glmRowGain(row, rows.eta[r] + sc->shift, rows.expEta[r] * sc->expShift, rows.wy[r],
                      rows.wt[r], d[r], alpha, unitFactor);
  }
};

// Row r's bound for the all-coordinates steps: its score resid and curvature curv, the exact
// second-order model of a GLM row.
template <typename Row>
struct RowBound {
  Row row;
  Rows rows;
  const GlmDeviceScalars* sc;
  double* score;
  double* curvature;
  ARGUS_HOST_DEVICE void operator()(std::int64_t r) const {
    const RowDerivatives d =
        glmRowDerivatives(row, rows.eta[r] + sc->shift, rows.expEta[r] * sc->expShift, rows.wy[r], rows.wt[r]);
    score[r] = d.resid;
    curvature[r] = d.curv;
  }
};

template <typename Row>
struct RowLogLik {
  Row row;
  const double* eta;
  const GlmDeviceScalars* sc;
  const double* y;
  const double* w;
  const double* exposure;
  ARGUS_HOST_DEVICE double operator()(std::int64_t r) const {
    return row.logLik(eta[r] + sc->shift, y[r], w[r], exposure[r]);
  }
};

struct RowResidual {
  const double* eta;
  const GlmDeviceScalars* sc;
  const double* y;
  const double* w;
  ARGUS_HOST_DEVICE ResidualSquares operator()(std::int64_t r) const {
    return residualSquares(y[r], eta[r] + sc->shift, w[r]);
  }
};

}  // namespace glm_device

template <typename Prims, typename Row>
class DeviceGlmLikelihood final : public DeviceModelBase<Prims>, public DeviceBoundSource {
  using Base = DeviceModelBase<Prims>;
  using Base::prims_;
  using Base::n_;
  using Base::w_;
  using Base::y_;
  using Base::weight;
  using Base::exposure;
  using Base::data_;
  using Base::eta_;

 public:
  DeviceGlmLikelihood(const Dataset& data, const double* weights, std::shared_ptr<const DeviceDesign> design)
      : Base(data, weights), design_(std::move(design)), columns_(design_->columns) {
    std::vector<double> wy(n_), wt(n_), exposure(n_);
    for (std::int64_t r = 0; r < n_; ++r) {
      const double w = weight(r);
      exposure[r] = this->exposure(r);
      wy[r] = w * data.outcomes.y[r];
      wt[r] = w * exposure[r];
    }
    device::upload(wy_, wy);
    device::upload(wt_, wt);
    device::upload(exposure_, exposure);
    eta_d_.resize(n_);
    expEta_.resize(n_);
    published_.resize(n_);
    direction_.resize(n_);
    scalars_.resize(1);
  }

  // ---- the device sweep ----
  std::int64_t sweep(CycleState& state, const CyclePlan& plan) override {
    coef_.upload(state);
    GlmDeviceScalars* sc = scalarsPtr();
    prims_.replay(device::sweepKey(plan, state.fixed, coef_), [&] {
      prims_.forEach(1, glm_device::ResetMoves{sc});
      const std::int32_t f = plan.follower;
      const bool follow = f >= 0 && !state.fixed[f] && isIntercept(f);
      for (const std::int32_t j : plan.coordinates) {
        if (state.fixed[j]) continue;
        const bool intercept = isIntercept(j);
        enqueueSums(j, &sc->sums);
        prims_.forEach(1, glm_device::CoordinateStep<Row>{sc, raw(coef_.beta), raw(coef_.bound), raw(coef_.prior), j, intercept});
        if (!intercept) prims_.forEach(columns_.count(j), glm_device::ApplyEntries<Row>{rows(), sc, columns_.entries(j)});
        if (!follow || j == f) continue;
        prims_.reduceToIf(&sc->needExact, sumsIterator(columns_.all()), n_, GlmColumnSums{},
                          GlmColumnSumsPlus{}, &sc->exact);
        prims_.forEach(1, glm_device::FollowerStep<Row>{sc, raw(coef_.beta), raw(coef_.bound), raw(coef_.prior), f});
      }
    });
    coef_.download(state);
    return hostScalars().moved;
  }

  double deviceBytes() const override {
    return columns_.bytes() + coef_.bytes() + this->baseBytes() +
           device::bytesOf(wy_, wt_, exposure_, eta_d_, expEta_, published_, direction_, scalars_,
                           residuals_, columnSums_);
  }

  // ---- the per-coordinate interface, for calls made once per cycle or less ----
  GradHess gradHess(std::size_t j) const override {
    enqueueSums(static_cast<std::int32_t>(j), &scalarsPtr()->sums);
    const GlmColumnSums s = hostScalars().sums;
    return glmGradHess(s.g, s.x2Curv);
  }
  // Every column's sums enqueued into a device array, read back once.
  void gradHessAll(const std::vector<unsigned char>& skip, std::vector<GradHess>* out) const override {
    const std::size_t p = data_.design.nColumns();
    columnSums_.resize(p);
    for (std::size_t j = 0; j < p; ++j)
      if (skip.empty() || !skip[j]) enqueueSums(static_cast<std::int32_t>(j), raw(columnSums_) + j);
    std::vector<GlmColumnSums> sums(p);
    thrust::copy(columnSums_.begin(), columnSums_.end(), sums.begin());
    out->assign(p, GradHess{});
    for (std::size_t j = 0; j < p; ++j)
      if (skip.empty() || !skip[j]) (*out)[j] = glmGradHess(sums[j].g, sums[j].x2Curv);
  }
  bool tracksGradHess(std::size_t j) const override { return isIntercept(static_cast<std::int32_t>(j)); }
  GradHess gradHessEstimate(std::size_t j) const override {
    if (!isIntercept(static_cast<std::int32_t>(j))) return gradHess(j);
    GlmDeviceScalars* sc = scalarsPtr();
    if (hostScalars().tracked.stale) {
      prims_.reduceTo(sumsIterator(columns_.all()), n_, GlmColumnSums{}, GlmColumnSumsPlus{}, &sc->exact);
      prims_.forEach(1, glm_device::SetExactTracking{sc});
    }
    const InterceptTracking t = hostScalars().tracked;
    return glmGradHess(t.g, t.curv);
  }
  void applyStep(std::size_t j, double delta) override {
    const std::int32_t c = static_cast<std::int32_t>(j);
    GlmDeviceScalars* sc = scalarsPtr();
    enqueueSums(c, &sc->sums);
    prims_.forEach(1, glm_device::GivenStep<Row>{sc, delta, isIntercept(c)});
    if (!isIntercept(c)) prims_.forEach(columns_.count(c), glm_device::ApplyEntries<Row>{rows(), sc, columns_.entries(c)});
  }
  void refreshSums() override {
    GlmDeviceScalars* sc = scalarsPtr();
    prims_.forEach(n_, glm_device::FoldShift<Row>{rows(), raw(published_), sc});
    prims_.forEach(1, glm_device::ClearShift{sc});
    exactTracking();
    this->etaChanged();
  }
  double logLikelihood() const override {
    GlmDeviceScalars* sc = scalarsPtr();
    auto terms = thrust::make_transform_iterator(
        thrust::counting_iterator<std::int64_t>(0),
        glm_device::RowLogLik<Row>{Row{}, raw(eta_d_), sc, raw(y_), raw(w_), raw(exposure_)});
    prims_.reduceTo(terms, n_, 0.0, device::Plus{}, &sc->reduced);
    return hostScalars().reduced;
  }
  double dispersion() const override {
    if constexpr (!Row::kEstimatesDispersion) {
      return 1.0;
    } else {
      auto terms = thrust::make_transform_iterator(
          thrust::counting_iterator<std::int64_t>(0),
          glm_device::RowResidual{raw(eta_d_), scalarsPtr(), raw(y_), raw(w_)});
      prims_.reduceTo(terms, n_, ResidualSquares{}, ResidualSquaresPlus{}, raw(residuals_));
      const ResidualSquares s = device::readBack(residuals_);
      return leastSquaresDispersion(s.rss, s.squares, s.weight);
    }
  }

  // ---- the all-coordinates steps (device/all_coordinates_steps.h) ----
  // The bound is the rows' exact second-order model, maximized over the intercept's move where
  // the intercept is free and flat (BoundShift::Intercept): columns of x >= 0 all correlate
  // with it, and steps of every coordinate at once would otherwise crawl along that direction.
  std::unique_ptr<BoundSteps> boundSteps() override {
    return std::make_unique<DeviceBoundSteps<Prims>>(*this, *this, design_->template allCoordinates<Prims>());
  }
  BoundShift boundShift() const override { return BoundShift::Intercept; }
  void boundRowScores(double* score, double* curvature) const override {
    prims_.forEach(n_, glm_device::RowBound<Row>{Row{}, rows(), scalarsPtr(), score, curvature});
  }
  const double* currentEta() const override { return raw(published_); }  // after reset() or loadEta()
  void loadEta(const double* eta) override {
    prims_.forEach(n_, glm_device::Rebuild<Row>{rows(), raw(published_), eta});
    prims_.forEach(1, glm_device::ClearShift{scalarsPtr()});
    exactTracking();
    this->etaChanged();
  }

  // ---- directions and the block (host-assisted, once per cycle) ----
  bool supportsDirection() const override { return true; }
  bool extrapolatesCycles() const override { return true; }  // as the CPU GLMs
  GradHess gradHessAlong(const std::vector<double>& d) const override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    GlmDeviceScalars* sc = scalarsPtr();
    prims_.reduceTo(sumsIterator(ColumnEntries{nullptr, raw(direction_)}), n_, GlmColumnSums{},
                    GlmColumnSumsPlus{}, &sc->sums);
    const GlmColumnSums s = hostScalars().sums;
    return glmGradHess(s.g, s.x2Curv);
  }
  void stepAlong(const std::vector<double>& d, double alpha) override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    moveAlongDirection(alpha);
  }
  // The gain summed from the rows before they move (a reduction may call its transform more
  // than once, so the move is its own pass), then the step and the refresh.
  double stepAlongGain(const std::vector<double>& d, double alpha) override {
    thrust::copy(d.begin(), d.end(), direction_.begin());
    GlmDeviceScalars* sc = scalarsPtr();
    auto terms = thrust::make_transform_iterator(
        thrust::counting_iterator<std::int64_t>(0),
        glm_device::RowGainAlong<Row>{Row{}, rows(), raw(direction_), sc, alpha, unitFactor(alpha)});
    prims_.reduceTo(terms, n_, 0.0, device::Plus{}, &sc->reduced);
    const double gain = hostScalars().reduced;
    moveAlongDirection(alpha);
    refreshSums();
    return gain;
  }
  bool fusesBlockHessian() const override { return true; }
  void blockGradHess(const std::vector<std::int32_t>& columns, const std::vector<double>& shifts,
                     std::vector<double>* g, std::vector<double>* h) const override {
    std::vector<double> eta(n_), expEta(n_), wy(n_), wt(n_);
    thrust::copy(eta_d_.begin(), eta_d_.end(), eta.begin());
    thrust::copy(expEta_.begin(), expEta_.end(), expEta.begin());
    thrust::copy(wy_.begin(), wy_.end(), wy.begin());
    thrust::copy(wt_.begin(), wt_.end(), wt.begin());
    const GlmDeviceScalars sc = hostScalars();
    const Row row{};
    glmBlockGradHess(data_.design, columns, shifts, [&](std::int64_t r) {
      return glmRowDerivatives(row, eta[r] + sc.shift, expEta[r] * sc.expShift, wy[r], wt[r]);
    }, g, h);
  }

 protected:
  void rebuildFromEta() override {
    thrust::copy(eta_.begin(), eta_.end(), direction_.begin());
    prims_.forEach(n_, glm_device::Rebuild<Row>{rows(), raw(published_), raw(direction_)});
    prims_.forEach(1, glm_device::ClearShift{scalarsPtr()});
    exactTracking();
    this->etaLoaded();
  }

 private:
  bool isIntercept(std::int32_t j) const { return columns_.kind(j) == ColumnKind::Intercept; }
  static double unitFactor(double alpha) { return Row::kUsesExp ? std::exp(alpha) : 1.0; }
  // eta += alpha d with d already in direction_ (stepAlong, stepAlongGain).
  void moveAlongDirection(double alpha) {
    prims_.forEach(n_, glm_device::StepAlong<Row>{rows(), raw(direction_), alpha, unitFactor(alpha)});
    prims_.forEach(1, glm_device::MarkStale{scalarsPtr()});
  }
  GlmDeviceScalars* scalarsPtr() const { return thrust::raw_pointer_cast(scalars_.data()); }
  GlmDeviceScalars hostScalars() const { return device::readBack(scalars_); }
  glm_device::Rows rows() const {
    return {thrust::raw_pointer_cast(eta_d_.data()), thrust::raw_pointer_cast(expEta_.data()),
            raw(wy_), raw(wt_)};
  }
  auto sumsIterator(ColumnEntries col) const {
    return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                           glm_device::EntrySums<Row>{Row{}, rows(), scalarsPtr(), col});
  }
  void enqueueSums(std::int32_t j, GlmColumnSums* out) const {
    prims_.reduceTo(sumsIterator(columns_.entries(j)), columns_.count(j), GlmColumnSums{},
                    GlmColumnSumsPlus{}, out);
  }
  void exactTracking() const {
    GlmDeviceScalars* sc = scalarsPtr();
    prims_.reduceTo(sumsIterator(columns_.all()), n_, GlmColumnSums{}, GlmColumnSumsPlus{}, &sc->exact);
    prims_.forEach(1, glm_device::SetExactTracking{sc});
  }
  const double* publishedEta() const override { return raw(published_); }

  std::shared_ptr<const DeviceDesign> design_;  // shared by a cross-validation's fits
  const DeviceColumns& columns_;
  thrust::device_vector<double> wy_, wt_, exposure_;
  mutable thrust::device_vector<double> eta_d_, expEta_, published_, direction_;
  device::DeviceCoefficients coef_;
  mutable thrust::device_vector<GlmDeviceScalars> scalars_;
  mutable thrust::device_vector<ResidualSquares> residuals_{1};
  mutable thrust::device_vector<GlmColumnSums> columnSums_;  // gradHessAll()
};

}  // namespace argus
