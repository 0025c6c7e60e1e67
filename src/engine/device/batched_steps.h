// The all-coordinates steps of a batch of fits (solver/batched_start.h): members that differ
// only in their weights (a cross-validation's folds), the member index a dimension of every
// array of the bound (member-major), and each pass over X serving up to kLanes members at once
// (device/batched_functors.h): the runs' curvature sums, every column's gradient and eta's move
// D = X delta read the entries once per chunk of members, not once per member.
//
// Each member keeps its own device model (its weights, eta and sums: the likelihood's state is
// per fit), sharing the data's device design; per member, the model writes its row scores into
// the batch's arrays and loads the trials' eta from them (DeviceBoundSource). A step here is one
// proximal pass from beta in the metric L_m diag(h) (L_m per member: doubled after a step whose
// curvature in q exceeded L_m times its size, halved otherwise), with the member's own line
// search around it (MajorizedStartLoop): the outer search does what more passes would, and the
// members stay in lockstep without per-member retries of a pass.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "device/all_coordinates_design.h"
#include "device/all_coordinates_functors.h"
#include "device/batched_functors.h"
#include "device/device_bound_source.h"
#include "device/device_common.h"
#include "solver/batched_start.h"
#include "solver/coordinate_sweep.h"

namespace argus {

struct BatchScalars {
  double value = 0.0;
  bound_device::StratumTerms strata;
  bound_device::CoordinateSums coordinates;
};

template <typename Prims>
class DeviceBatchedSteps final : public BatchedBoundSteps {
 public:
  // One member per model (each a DeviceBoundSource with its weights), all on `design`.
  DeviceBatchedSteps(std::vector<std::unique_ptr<DeviceModel>> models, const AllCoordinatesDesign& design)
      : models_(std::move(models)), design_(design), view_(design.view()), n_(design.rows()),
        p_(design.columns()), strata_(design.strata()), runs_(design.runs()),
        members_(static_cast<std::int64_t>(models_.size())) {
    for (auto& m : models_) sources_.push_back(dynamic_cast<DeviceBoundSource*>(m.get()));
    shiftKind_ = sources_[0]->boundShift();
    for (auto* v : {&score_, &c_, &base_, &eta_, &d_, &dz_}) v->assign(members_ * n_, 0.0);
    for (auto* v : {&h_, &g_, &from_, &delta_}) v->assign(members_ * p_, 0.0);
    active_.assign(members_ * p_, 0);
    fixed_.assign(members_ * p_, 0);
    for (auto* v : {&sumC_, &total_, &alpha_}) v->assign(members_ * strata_, 0.0);
    runCxx_.assign(members_ * std::max<std::int64_t>(runs_, 1), 0.0);
    runCx_.assign(runCxx_.size(), 0.0);
    lanes_.resize(static_cast<std::size_t>(std::max({runs_, p_, std::int64_t{1}})));
    columnSums_.resize(p_);
    runSums_.resize(static_cast<std::size_t>(std::max<std::int64_t>(runs_, 1)));
    stratumSums_.resize(strata_);
    stratumTerms_.resize(strata_);
    lipschitz_.assign(members_, 1.0);
    lipschitzHost_.assign(members_, 1.0);
    chunkMembers_.resize(batch_device::kLanes);
    scalars_.resize(1);
    hostDelta_.assign(members_, std::vector<double>(p_, 0.0));
    for (std::int64_t m = 0; m < members_; ++m) trials_.emplace_back(std::make_unique<MemberTrials>(*this, m));
  }

  int members() const override { return static_cast<int>(members_); }
  BoundSteps& member(int m) override { return *trials_[m]; }

  CycleReadout reset(int m, const CycleState& state) override {
    models_[m]->reset(state.beta);
    CycleReadout r;
    r.logLikelihood = models_[m]->logLikelihood();
    r.weightedOutcomeEta = models_[m]->weightedOutcomeEta();
    return r;
  }

  void load(const std::vector<int>& active) override {
    for (const int m : active) {
      sources_[m]->boundRowScores(rowsOf(score_, m), rowsOf(c_, m));
      const double* eta = sources_[m]->currentEta();
      thrust::copy(thrust::device_pointer_cast(eta), thrust::device_pointer_cast(eta) + n_, base_.begin() + m * n_);
      perStratum(device::indexed(bound_device::RowCurvature{rowsOf(c_, m)}), 0.0, device::Plus{}, strataOf(sumC_, m));
    }
    forChunks(active, [&](const batch_device::Chunk& chunk) {
      runLanes(chunk, true, device::raw(runCxx_));
      runLanes(chunk, false, device::raw(runCx_));
    });
  }

  std::vector<BoundSteps::Proposal> propose(const std::vector<int>& active, const std::vector<CycleState>& states,
                                            ProgressSink* progress) override {
    if (progress) progress->checkInterrupt();
    for (const int m : active) startFrom(m, states[m]);
    forChunks(active, [&](const batch_device::Chunk& chunk) { gradientAndStep(chunk); });
    std::vector<BoundSteps::Proposal> out;
    for (const int m : active) out.push_back(finish(m));
    return out;
  }

 private:
  // Member m's trials along its step (solver/bound_steps.h): eta on the device, the model
  // loaded there.
  class MemberTrials final : public BoundSteps {
   public:
    MemberTrials(DeviceBatchedSteps& batch, std::int64_t m) : b_(batch), m_(m) {}
    bool load() override { return false; }  // the batch's
    Proposal propose(const CycleState&, ProgressSink*) override { return {}; }
    void beginTrials(const CycleState& state) override { b_.beginTrials(m_, state); }
    const std::vector<double>& from() const override { return b_.hostFrom_[m_]; }
    const std::vector<double>& delta() const override { return b_.hostDelta_[m_]; }
    const std::vector<unsigned char>& zeroed() const override { return b_.hostZeroed_[m_]; }
    CycleReadout at(CycleState& state, double s) override { return b_.at(m_, state, s); }
    double etaChange() override { return b_.etaChange(m_); }

   private:
    DeviceBatchedSteps& b_;
    std::int64_t m_;
  };

  double* rowsOf(thrust::device_vector<double>& v, std::int64_t m) { return device::raw(v) + m * n_; }
  double* coordsOf(thrust::device_vector<double>& v, std::int64_t m) { return device::raw(v) + m * p_; }
  double* strataOf(thrust::device_vector<double>& v, std::int64_t m) { return device::raw(v) + m * strata_; }

  template <typename It, typename T, typename Op>
  void perStratum(It terms, T init, Op op, T* out) const {
    reducePerStratum(prims_, view_, n_, strata_, terms, init, op, out);
  }

  // f(chunk) for the active members kLanes at a time.
  template <typename F>
  void forChunks(const std::vector<int>& active, F&& f) {
    for (std::size_t first = 0; first < active.size(); first += batch_device::kLanes) {
      const std::size_t count = std::min<std::size_t>(batch_device::kLanes, active.size() - first);
      std::vector<std::int32_t> members(active.begin() + first, active.begin() + first + count);
      thrust::copy(members.begin(), members.end(), chunkMembers_.begin());
      f(batch_device::Chunk{device::raw(chunkMembers_), static_cast<int>(count), n_, p_});
    }
  }

  // Per run of a column's entries in one stratum: sum c x^2 (squares) or sum c x, per member.
  void runLanes(const batch_device::Chunk& chunk, bool squares, double* out) {
    prims_.segmentedReduceTo(device::indexed(batch_device::CurvatureLanes{view_, chunk, device::raw(c_), squares}),
                             view_.runStart, runs_, batch_device::zeroLanes(), batch_device::LanesPlus{},
                             device::raw(lanes_));
    prims_.forEach(runs_, batch_device::ScatterLanes{device::raw(lanes_), chunk, runs_, out});
  }

  // Member m's step start: beta, its fixed coordinates, the shift, each column's curvature of
  // q from the member's runs, the coordinates that move, alpha at D = 0.
  void startFrom(std::int64_t m, const CycleState& state) {
    hostFrom_.resize(members_);
    hostFrom_[m] = state.beta;
    std::vector<unsigned char> fixed(state.fixed.begin(), state.fixed.end());
    thrust::copy(state.beta.begin(), state.beta.end(), from_.begin() + m * p_);
    thrust::copy(fixed.begin(), fixed.end(), fixed_.begin() + m * p_);
    if (prior_.empty()) prior_.assign(state.prior.begin(), state.prior.end());  // one prior for all members
    const std::int32_t j0 = design_.intercept();
    const std::int32_t absorbed = shiftKind_ == BoundShift::Intercept && j0 >= 0 && !state.fixed[j0] &&
                                          state.prior[j0].kind == PriorKind::None
                                      ? j0
                                      : -1;
    absorbed_.resize(members_, -1);
    absorbed_[m] = absorbed;
    const bool shift = shiftKind_ == BoundShift::PerStratum || absorbed >= 0;
    shift_.resize(members_, 0);
    shift_[m] = shift;
    columnCurvature(m, shift, absorbed);
    // alpha at D = 0 (T_s: the stratum's sum of scores), 0 without a shift.
    thrust::fill(d_.begin() + m * n_, d_.begin() + (m + 1) * n_, 0.0);
    thrust::fill(alpha_.begin() + m * strata_, alpha_.begin() + (m + 1) * strata_, 0.0);
    if (!shift) return;
    perStratum(device::indexed(bound_device::RowSumTerm{rowsOf(score_, m), rowsOf(c_, m), rowsOf(d_, m), nullptr}),
               bound_device::RowSums{}, bound_device::RowSumsPlus{}, device::raw(stratumSums_));
    prims_.forEach(strata_, bound_device::FinishStrata{device::raw(stratumSums_), strataOf(sumC_, m), false,
                                                       strataOf(total_, m), device::raw(stratumTerms_)});
    prims_.forEach(strata_, bound_device::StratumShift{strataOf(total_, m), strataOf(sumC_, m), strataOf(alpha_, m)});
  }

  void columnCurvature(std::int64_t m, bool shift, std::int32_t absorbed) {
    // (cxx, cx) per run of member m, its excess per column, then h and the moving coordinates.
    bound_device::CurvatureSums* runs = device::raw(runSums_);
    prims_.forEach(runs_, batch_device::PairRuns{device::raw(runCxx_) + m * runs_, device::raw(runCx_) + m * runs_, runs});
    prims_.segmentedReduceTo(
        device::indexed(bound_device::RunExcessTerm{runs, view_.runStratum, strataOf(sumC_, m), shift}),
        view_.columnRunStart, p_, bound_device::CurvatureSums{}, bound_device::CurvatureSumsPlus{},
        device::raw(columnSums_));
    prims_.forEach(p_, bound_device::FinishCurvature{device::raw(columnSums_), device::raw(fixed_) + m * p_, absorbed,
                                                     coordsOf(h_, m), device::raw(active_) + m * p_});
  }

  // The chunk's gradients at D = 0, its proximal steps and their D = X delta.
  void gradientAndStep(const batch_device::Chunk& chunk) {
    const bool anyShift = shiftKind_ != BoundShift::None;
    prims_.segmentedReduceTo(device::indexed(batch_device::GradientLanes{view_, chunk, device::raw(score_), device::raw(c_),
                                                                         anyShift ? device::raw(alpha_) : nullptr, strata_}),
                             view_.columnStart, p_, batch_device::zeroLanes(), batch_device::LanesPlus{},
                             device::raw(lanes_));
    prims_.forEach(p_, batch_device::ScatterLanes{device::raw(lanes_), chunk, p_, device::raw(g_)});
    thrust::copy(lipschitzHost_.begin(), lipschitzHost_.end(), lipschitz_.begin());
    prims_.forEach(chunk.count * p_, batch_device::ProximalLanes{chunk, device::raw(g_), device::raw(h_),
                                                                 device::raw(active_), device::raw(from_),
                                                                 device::raw(prior_), device::raw(lipschitz_),
                                                                 device::raw(delta_)});
    prims_.forEach(n_, batch_device::RowMoveLanes{view_, chunk, device::raw(delta_), device::raw(d_)});
  }

  // Member m's proposal: the intercept's shift where it is the bound's, L_m from the step's
  // curvature in q against its size, delta on the host, the slope.
  BoundSteps::Proposal finish(std::int64_t m) {
    using namespace bound_device;
    BoundSteps::Proposal out;
    out.passes = 1;
    hostDelta_[m].assign(p_, 0.0);
    thrust::copy(delta_.begin() + m * p_, delta_.begin() + (m + 1) * p_, hostDelta_[m].begin());
    // q's curvature along D and the step's size in the metric (y = beta: the change is D).
    perStratum(device::indexed(RowSumTerm{rowsOf(score_, m), rowsOf(c_, m), rowsOf(d_, m), zeroRows()}), RowSums{},
               RowSumsPlus{}, device::raw(stratumSums_));
    prims_.forEach(strata_, FinishStrata{device::raw(stratumSums_), strataOf(sumC_, m), shift_[m] != 0, nullptr,
                                         device::raw(stratumTerms_)});
    prims_.reduceTo(device::raw(stratumTerms_), strata_, StratumTerms{}, StratumTermsPlus{}, &scalars()->strata);
    prims_.reduceTo(device::indexed(CoordinateTerm{coordsOf(delta_, m), zeroCoordinates(), coordsOf(h_, m),
                                                   device::raw(active_) + m * p_, device::raw(prior_)}),
                    p_, CoordinateSums{}, CoordinateSumsPlus{}, &scalars()->coordinates);
    const BatchScalars s = device::readBack(scalars_);
    const double size = s.coordinates.hdd;
    lipschitzHost_[m] = size > 0.0 && s.strata.curvature > lipschitzHost_[m] * size
                            ? std::max(2.0 * lipschitzHost_[m], 1.05 * s.strata.curvature / size)
                            : std::max(1.0, 0.5 * lipschitzHost_[m]);
    if (absorbed_[m] >= 0) hostDelta_[m][absorbed_[m]] = interceptMove(m);
    for (const double d : hostDelta_[m]) out.move = std::max(out.move, std::fabs(d));
    if (out.move == 0.0) return out;
    prims_.reduceTo(device::indexed(SlopeTerm{rowsOf(score_, m), rowsOf(d_, m)}), n_, 0.0, device::Plus{}, &scalars()->value);
    out.slope = device::readBack(scalars_).value;
    return out;
  }

  // alpha at member m's D, added into D: the intercept's move (all_coordinates_steps.h).
  double interceptMove(std::int64_t m) {
    using namespace bound_device;
    perStratum(device::indexed(RowSumTerm{rowsOf(score_, m), rowsOf(c_, m), rowsOf(d_, m), nullptr}), RowSums{},
               RowSumsPlus{}, device::raw(stratumSums_));
    prims_.forEach(strata_, FinishStrata{device::raw(stratumSums_), strataOf(sumC_, m), false, strataOf(total_, m),
                                         device::raw(stratumTerms_)});
    prims_.forEach(strata_, StratumShift{strataOf(total_, m), strataOf(sumC_, m), strataOf(alpha_, m)});
    prims_.forEach(n_, AddShift{strataOf(alpha_, m), rowsOf(d_, m)});
    return device::readBack(strataOf(alpha_, m));
  }

  const double* zeroRows() {
    if (zeroRows_.empty()) zeroRows_.assign(n_, 0.0);
    return device::raw(zeroRows_);
  }
  const double* zeroCoordinates() {
    if (zeroCoordinates_.empty()) zeroCoordinates_.assign(p_, 0.0);
    return device::raw(zeroCoordinates_);
  }
  BatchScalars* scalars() { return thrust::raw_pointer_cast(scalars_.data()); }

  // ---- member m's trials ----
  void beginTrials(std::int64_t m, const CycleState& state) {
    hostFrom_[m] = state.beta;
    hostZeroed_.resize(members_);
    hostZeroed_[m].assign(p_, 0);
    std::vector<double> zeroedDelta(p_, 0.0);
    anyZeroed_.resize(members_, 0);
    anyZeroed_[m] = 0;
    for (std::int64_t j = 0; j < p_; ++j) {
      const double d = hostDelta_[m][j];
      hostZeroed_[m][j] = d != 0.0 && hostFrom_[m][j] + d == 0.0;
      if (hostZeroed_[m][j]) {
        zeroedDelta[j] = d;
        anyZeroed_[m] = 1;
      }
    }
    if (!anyZeroed_[m]) return;
    device::upload(zeroedDelta_, zeroedDelta);
    prims_.forEach(n_, bound_device::RowMove{view_, device::raw(zeroedDelta_), rowsOf(dz_, m)});
  }
  CycleReadout at(std::int64_t m, CycleState& state, double s) {
    const std::vector<double>& from = hostFrom_[m];
    const std::vector<double>& delta = hostDelta_[m];
    for (std::int64_t j = 0; j < p_; ++j) state.beta[j] = (s > 1.0 && hostZeroed_[m][j]) ? 0.0 : from[j] + s * delta[j];
    prims_.forEach(n_, bound_device::TrialEta{rowsOf(base_, m), rowsOf(d_, m), anyZeroed_[m] ? rowsOf(dz_, m) : nullptr,
                                              s, rowsOf(eta_, m)});
    sources_[m]->loadEta(rowsOf(eta_, m));
    CycleReadout r;
    r.logLikelihood = models_[m]->logLikelihood();
    r.weightedOutcomeEta = models_[m]->weightedOutcomeEta();
    return r;
  }
  double etaChange(std::int64_t m) {
    prims_.reduceTo(device::indexed(bound_device::AbsChangeTerm{rowsOf(eta_, m), rowsOf(base_, m)}), n_, 0.0,
                    device::Plus{}, &scalars()->value);
    return device::readBack(scalars_).value;
  }

  std::vector<std::unique_ptr<DeviceModel>> models_;
  std::vector<DeviceBoundSource*> sources_;
  const AllCoordinatesDesign& design_;
  AllCoordinatesView view_;
  Prims prims_;
  std::int64_t n_, p_;
  std::int32_t strata_;
  std::int64_t runs_, members_;
  BoundShift shiftKind_ = BoundShift::None;
  std::vector<std::int32_t> absorbed_;
  std::vector<unsigned char> shift_, anyZeroed_;
  std::vector<double> lipschitzHost_;
  std::vector<std::vector<double>> hostFrom_, hostDelta_;
  std::vector<std::vector<unsigned char>> hostZeroed_;
  std::vector<std::unique_ptr<MemberTrials>> trials_;
  // Member-major: per row, per coordinate, per stratum, per run.
  thrust::device_vector<double> score_, c_, base_, eta_, d_, dz_, zeroRows_;
  thrust::device_vector<double> h_, g_, from_, delta_, zeroedDelta_, zeroCoordinates_;
  thrust::device_vector<unsigned char> active_, fixed_;
  thrust::device_vector<CoordinatePrior> prior_;
  thrust::device_vector<double> sumC_, total_, alpha_, lipschitz_;
  thrust::device_vector<double> runCxx_, runCx_;
  thrust::device_vector<batch_device::Lanes> lanes_;
  thrust::device_vector<std::int32_t> chunkMembers_;
  thrust::device_vector<bound_device::CurvatureSums> runSums_, columnSums_;
  thrust::device_vector<bound_device::RowSums> stratumSums_;
  thrust::device_vector<bound_device::StratumTerms> stratumTerms_;
  thrust::device_vector<BatchScalars> scalars_;
};

}  // namespace argus
