// The majorized start's steps on a device (solver/bound_steps.h): every coordinate moves at
// once. The outer loop is the CPU's (solver/majorized_start.h: the bound at beta, its step,
// a line search on the log posterior, the stopping rules); its inner work here is:
//
//   load()     the bound at beta (models/separable_bound.h): the model's row scores and
//              curvatures into device arrays (DeviceBoundSource), C per stratum, and per run
//              of a column's entries in one stratum its sums of c x^2 and c x (one segmented
//              reduction); at each step's start each column's curvature h_j of q from its runs,
//              with the shift: per stratum (survival, conditional), or the intercept's move
//              where a GLM's intercept is free and flat (it then moves as the shift that
//              maximizes q, not as a coordinate: the columns of x >= 0 all correlate with it,
//              and an lr fit of 200 indicators took 51 steps of 8 passes without, 6 of 4 with);
//   propose()  an accelerated proximal gradient method on q with the log prior (FISTA with
//              backtracking and a restart where the objective drops; Beck and Teboulle 2009,
//              O'Donoghue and Candes 2015) in the metric L diag(h): each pass is the gradient of
//              every column at once (one segmented reduction over the column-major entries), the
//              proximal step of every coordinate with its prior (priors/prior.h, proximalPoint),
//              and eta's move D = X delta (one thread per row over the row-major copy). L starts
//              at 1 (the metric's diagonal is the bound's own), doubles where a step's curvature
//              in q exceeds L times its size in the metric, and halves at each outer step;
//   trials     eta = base + s D on the device, the model loaded there (loadEta), its
//              log-likelihood and sum w y eta read back: no N values cross to the host.
//
// Every sum has a grouping fixed by the data (segmented reductions, per-row loops, reductions
// whose tree depends on n alone), with no atomics, so two runs give the same bits.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/progress_sink.h"
#include "device/all_coordinates_design.h"
#include "device/all_coordinates_functors.h"
#include "device/device_bound_source.h"
#include "device/device_common.h"
#include "models/likelihood.h"
#include "solver/bound_steps.h"

namespace argus {

// The scalars one pass reads back.
struct BoundPassScalars {
  bound_device::StratumTerms strata;       // q's strata terms (and rows'), E' A E
  bound_device::CoordinateSums coordinates;  // h (z - y)^2, log p(z)
  double slope = 0.0, change = 0.0;
};

template <typename Prims>
class DeviceBoundSteps final : public BoundSteps {
 public:
  // Passes per step at most; a step ends sooner where a pass gains less than kInnerGain of
  // what the step has gained so far. Three: the outer step's line search (a longer step where
  // the parabola through the log-likelihood says so) does much of what more passes would, at
  // the price of one trial. Measured on the emulated device at 1e5 x 1000 (bench/gpu, passes
  // + steps, each about one read of X): Cox with whole days 1 pass 112, 2: 84, 3: 88, 8: 142;
  // continuous times 76, 63, 52, 110; lr 22, 21, 24, 32; Fine-Gray 28, 36, 32, 42.
  static constexpr int kMaxPasses = 3;
  static constexpr double kInnerGain = 1e-3;

  DeviceBoundSteps(Likelihood& likelihood, DeviceBoundSource& source, const AllCoordinatesDesign& design)
      : likelihood_(likelihood),
        source_(source),
        design_(design),
        view_(design.view()),
        n_(design.rows()),
        p_(design.columns()),
        strata_(design.strata()),
        shiftKind_(source.boundShift()) {
    for (auto* v : {&score_, &c_, &base_, &eta_, &d_, &dPrev_, &dNew_, &dy_, &dz_}) v->assign(n_, 0.0);
    for (auto* v : {&h_, &g_, &from_d_, &z_, &zPrev_, &zNew_, &y_, &delta_d_}) v->assign(p_, 0.0);
    active_.assign(p_, 0);
    fixed_.assign(p_, 0);
    prior_.resize(p_);
    for (auto* v : {&sumC_, &total_, &alpha_}) v->assign(strata_, 0.0);
    stratumSums_.resize(strata_);
    stratumTerms_.resize(strata_);
    runSums_.resize(static_cast<std::size_t>(std::max<std::int64_t>(design.runs(), 1)));
    columnSums_.resize(p_);
    scalars_.resize(1);
  }

  bool load() override {
    source_.boundRowScores(device::raw(score_), device::raw(c_));
    const double* eta = source_.currentEta();
    thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, base_.begin());
    perStratum(device::indexed(bound_device::RowCurvature{device::raw(c_)}), 0.0, device::Plus{}, device::raw(sumC_));
    prims_.segmentedReduceTo(device::indexed(bound_device::CurvatureTerm{view_, device::raw(c_)}), view_.runStart,
                             design_.runs(), bound_device::CurvatureSums{}, bound_device::CurvatureSumsPlus{},
                             device::raw(runSums_));
    return true;
  }

  Proposal propose(const CycleState& state, ProgressSink* progress) override {
    startFrom(state);
    Proposal out;
    double value = evaluate(nullptr).strata.value + hostScalars().coordinates.logPrior;
    const double initial = value;
    double theta = 1.0;
    bool momentum = false;
    lipschitz_ = std::max(1.0, 0.5 * lipschitz_);
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      if (progress) progress->checkInterrupt();
      gradientAtY();
      ++out.passes;
      const BoundPassScalars s = stepWithinBound();
      const double next = s.strata.value + s.coordinates.logPrior;
      if (!(next >= value)) {
        if (!momentum) break;  // a plain step that does not gain: rounding's floor
        restartAtZ();  // the momentum overshot: from z again, without it
        theta = 1.0;
        momentum = false;
        continue;
      }
      const double gain = next - value;
      accept();
      value = next;
      if (!(gain > kInnerGain * (value - initial))) break;
      const double thetaNext = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * theta * theta));
      extrapolate((theta - 1.0) / thetaNext);
      momentum = theta > 1.0;
      theta = thetaNext;
    }
    finishProposal(&out);
    return out;
  }

  void beginTrials(const CycleState& state) override {
    from_ = state.beta;
    zeroed_.assign(p_, 0);
    bool any = false;
    std::vector<double> zeroedDelta(p_, 0.0);
    for (std::int64_t j = 0; j < p_; ++j) {
      zeroed_[j] = delta_[j] != 0.0 && from_[j] + delta_[j] == 0.0;
      if (zeroed_[j]) zeroedDelta[j] = delta_[j];
      any = any || zeroed_[j];
    }
    anyZeroed_ = any;
    if (!any) return;
    device::upload(delta_d_, zeroedDelta);
    prims_.forEach(n_, bound_device::RowMove{view_, device::raw(delta_d_), device::raw(dz_)});
  }
  const std::vector<double>& from() const override { return from_; }
  const std::vector<double>& delta() const override { return delta_; }
  const std::vector<unsigned char>& zeroed() const override { return zeroed_; }

  CycleReadout at(CycleState& state, double s) override {
    for (std::int64_t j = 0; j < p_; ++j) state.beta[j] = (s > 1.0 && zeroed_[j]) ? 0.0 : from_[j] + s * delta_[j];
    prims_.forEach(n_, bound_device::TrialEta{device::raw(base_), device::raw(d_),
                                              anyZeroed_ ? device::raw(dz_) : nullptr, s, device::raw(eta_)});
    source_.loadEta(device::raw(eta_));
    CycleReadout r;
    r.logLikelihood = likelihood_.logLikelihood();
    r.weightedOutcomeEta = likelihood_.weightedOutcomeEta();
    return r;
  }

  double deviceBytes() const override {
    return device::bytesOf(score_, c_, base_, eta_, d_, dPrev_, dNew_, dy_, dz_, h_, g_, from_d_, z_, zPrev_, zNew_,
                           y_, delta_d_, active_, fixed_, prior_, sumC_, total_, alpha_, stratumSums_, stratumTerms_,
                           runSums_, columnSums_, scalars_);
  }

  double etaChange() override {
    prims_.reduceTo(device::indexed(bound_device::AbsChangeTerm{device::raw(eta_), device::raw(base_)}), n_, 0.0,
                    device::Plus{}, &scalars()->change);
    return hostScalars().change;
  }

 private:
  BoundPassScalars* scalars() const { return thrust::raw_pointer_cast(scalars_.data()); }
  BoundPassScalars hostScalars() const { return device::readBack(scalars_); }

  // sums of `terms` over each stratum's rows into out[s] (reducePerStratum)
  template <typename It, typename T, typename Op>
  void perStratum(It terms, T init, Op op, T* out) const {
    reducePerStratum(prims_, view_, n_, strata_, terms, init, op, out);
  }

  // The step's start: z = y = from, D = Dy = 0; the shift (per stratum, or the intercept's
  // where it is free and flat), each column's curvature of q with it, the coordinates that move.
  void startFrom(const CycleState& state) {
    from_ = state.beta;
    const std::int32_t j0 = design_.intercept();
    absorbed_ = shiftKind_ == BoundShift::Intercept && j0 >= 0 && !state.fixed[j0] &&
                        state.prior[j0].kind == PriorKind::None
                    ? j0
                    : -1;
    shift_ = shiftKind_ == BoundShift::PerStratum || absorbed_ >= 0;
    std::vector<unsigned char> fixed(state.fixed.begin(), state.fixed.end());
    device::upload(from_d_, from_);
    device::upload(fixed_, fixed);
    prior_.assign(state.prior.begin(), state.prior.end());
    prims_.segmentedReduceTo(device::indexed(bound_device::RunExcessTerm{device::raw(runSums_), view_.runStratum,
                                                                          device::raw(sumC_), shift_}),
                             view_.columnRunStart, p_, bound_device::CurvatureSums{}, bound_device::CurvatureSumsPlus{},
                             device::raw(columnSums_));
    prims_.forEach(p_, bound_device::FinishCurvature{device::raw(columnSums_), device::raw(fixed_), absorbed_,
                                                     device::raw(h_), device::raw(active_)});
    for (auto* v : {&z_, &zPrev_, &y_}) thrust::copy(from_d_.begin(), from_d_.end(), v->begin());
    for (auto* v : {&d_, &dPrev_, &dy_}) thrust::fill(v->begin(), v->end(), 0.0);
  }

  // q (rows and strata) and log p at (z, D) with the change from (y, Dy) where `dy` is given:
  // (zNew, dNew) after a step, (z, D) before the first.
  BoundPassScalars evaluate(const double* dy) {
    using namespace bound_device;
    const bool after = dy != nullptr;
    const double* d = after ? device::raw(dNew_) : device::raw(d_);
    const double* z = after ? device::raw(zNew_) : device::raw(z_);
    perStratum(device::indexed(RowSumTerm{device::raw(score_), device::raw(c_), d, dy}), RowSums{}, RowSumsPlus{},
               device::raw(stratumSums_));
    prims_.forEach(strata_, FinishStrata{device::raw(stratumSums_), device::raw(sumC_), shift_, device::raw(total_),
                                         device::raw(stratumTerms_)});
    prims_.reduceTo(device::raw(stratumTerms_), strata_, StratumTerms{}, StratumTermsPlus{}, &scalars()->strata);
    prims_.reduceTo(device::indexed(CoordinateTerm{z, device::raw(y_), device::raw(h_), device::raw(active_),
                                                   device::raw(prior_)}),
                    p_, CoordinateSums{}, CoordinateSumsPlus{}, &scalars()->coordinates);
    return hostScalars();
  }

  // Every column's gradient of q at (y, Dy): the strata's shift at Dy, then one segmented
  // reduction over the column-major entries.
  void gradientAtY() {
    using namespace bound_device;
    const double* alpha = nullptr;
    if (shift_) {
      perStratum(device::indexed(RowSumTerm{device::raw(score_), device::raw(c_), device::raw(dy_), nullptr}),
                 RowSums{}, RowSumsPlus{}, device::raw(stratumSums_));
      prims_.forEach(strata_, FinishStrata{device::raw(stratumSums_), device::raw(sumC_), false, device::raw(total_),
                                           device::raw(stratumTerms_)});
      prims_.forEach(strata_, StratumShift{device::raw(total_), device::raw(sumC_), device::raw(alpha_)});
      alpha = device::raw(alpha_);
    }
    prims_.segmentedReduceTo(
        device::indexed(GradientTerm{view_, device::raw(score_), device::raw(c_), device::raw(dy_), alpha}),
        view_.columnStart, p_, 0.0, device::Plus{}, device::raw(g_));
  }

  // The proximal step from y in the metric L h, D's move with it, and the check that the
  // step's curvature in q is within L times its size in the metric (else L grows and the
  // step is retaken from the same gradient: one more row pass).
  BoundPassScalars stepWithinBound() {
    for (;;) {
      prims_.forEach(p_, bound_device::ProximalSteps{device::raw(g_), device::raw(h_), device::raw(active_),
                                                     device::raw(y_), device::raw(from_d_), device::raw(prior_),
                                                     lipschitz_, device::raw(zNew_), device::raw(delta_d_)});
      prims_.forEach(n_, bound_device::RowMove{view_, device::raw(delta_d_), device::raw(dNew_)});
      const BoundPassScalars s = evaluate(device::raw(dy_));
      const double size = s.coordinates.hdd, curvature = s.strata.curvature;
      if (!(curvature > lipschitz_ * size * (1.0 + 1e-9)) || !std::isfinite(curvature) || size <= 0.0) return s;
      lipschitz_ = std::max(2.0 * lipschitz_, 1.05 * curvature / size);
    }
  }

  void accept() {
    zPrev_.swap(z_);
    z_.swap(zNew_);
    dPrev_.swap(d_);
    d_.swap(dNew_);
  }
  void restartAtZ() {
    thrust::copy(z_.begin(), z_.end(), y_.begin());
    thrust::copy(d_.begin(), d_.end(), dy_.begin());
  }
  void extrapolate(double m) {
    prims_.forEach(p_, bound_device::Extrapolate{device::raw(z_), device::raw(zPrev_), m, device::raw(y_)});
    prims_.forEach(n_, bound_device::Extrapolate{device::raw(d_), device::raw(dPrev_), m, device::raw(dy_)});
  }

  // delta = z - from on the host (the intercept's the shift at D, which D takes in), its
  // largest |value| and the slope sum s D.
  void finishProposal(Proposal* out) {
    std::vector<double> z(p_);
    thrust::copy(z_.begin(), z_.end(), z.begin());
    delta_.assign(p_, 0.0);
    for (std::int64_t j = 0; j < p_; ++j) delta_[j] = z[j] - from_[j];
    if (absorbed_ >= 0) delta_[absorbed_] = interceptMove();
    for (std::int64_t j = 0; j < p_; ++j) out->move = std::max(out->move, std::fabs(delta_[j]));
    if (out->move == 0.0) return;
    prims_.reduceTo(device::indexed(bound_device::SlopeTerm{device::raw(score_), device::raw(d_)}), n_, 0.0,
                    device::Plus{}, &scalars()->slope);
    out->slope = hostScalars().slope;
  }

  // The shift at D = X (z - from), alpha = T / C over every row, added into D: the intercept's
  // move that maximizes q with the others'.
  double interceptMove() {
    using namespace bound_device;
    perStratum(device::indexed(RowSumTerm{device::raw(score_), device::raw(c_), device::raw(d_), nullptr}), RowSums{},
               RowSumsPlus{}, device::raw(stratumSums_));
    prims_.forEach(strata_, FinishStrata{device::raw(stratumSums_), device::raw(sumC_), false, device::raw(total_),
                                         device::raw(stratumTerms_)});
    prims_.forEach(strata_, StratumShift{device::raw(total_), device::raw(sumC_), device::raw(alpha_)});
    prims_.forEach(n_, AddShift{device::raw(alpha_), device::raw(d_)});
    return device::readBack(alpha_);
  }

  Likelihood& likelihood_;
  DeviceBoundSource& source_;
  const AllCoordinatesDesign& design_;
  AllCoordinatesView view_;
  Prims prims_;
  std::int64_t n_, p_;
  std::int32_t strata_;
  BoundShift shiftKind_;
  bool shift_ = false;         // q maximized over a shift (per stratum, or the intercept's)
  std::int32_t absorbed_ = -1;  // the intercept whose move is the shift, or -1
  double lipschitz_ = 1.0;
  bool anyZeroed_ = false;
  std::vector<double> from_, delta_;
  std::vector<unsigned char> zeroed_;
  // Per row: the bound, eta where the step set out and at a trial, eta's moves at z, at the
  // previous z, at the candidate and at y, and the zeroed coordinates' share.
  thrust::device_vector<double> score_, c_, base_, eta_, d_, dPrev_, dNew_, dy_, dz_;
  // Per coordinate: the curvature and gradient of q, where the step set out, z, the previous
  // z, the candidate, y, and a move.
  thrust::device_vector<double> h_, g_, from_d_, z_, zPrev_, zNew_, y_, delta_d_;
  thrust::device_vector<unsigned char> active_, fixed_;
  thrust::device_vector<CoordinatePrior> prior_;
  thrust::device_vector<double> sumC_, total_, alpha_;  // per stratum
  thrust::device_vector<bound_device::RowSums> stratumSums_;
  thrust::device_vector<bound_device::StratumTerms> stratumTerms_;
  thrust::device_vector<bound_device::CurvatureSums> runSums_, columnSums_;
  mutable thrust::device_vector<BoundPassScalars> scalars_;
};

}  // namespace argus
