// A CCD cycle over a Likelihood: the coordinate sweep (solver/coordinate_sweep.h), then the
// once-per-cycle work below. On the CPU the likelihood is makeLikelihood()'s and the sweep
// the host loop; a device model (solver/coordinate_sweep.h) is both a Likelihood, whose
// per-cycle calls run on the device and return a few scalars, and a device-resident sweep.
//
// Cycle extrapolation. When the coordinates are coupled (Cox: every covariate moves the same
// risk-set means), CCD converges linearly, each cycle repeating a shrunken copy of the last
// one's move (measured: ratio ~0.55 per cycle on the survival benchmark). After the loop the
// runner therefore takes one Newton step along the cycle's whole move Delta (eta moved by
// d = eta_after - eta_before = X Delta): alpha = -(g + g_prior) / (h + h_prior) along d,
// clipped so that no Laplace coordinate crosses zero (the posterior is smooth along the ray
// until then) and to [0, 8]. It is tried only when this cycle's eta move and the previous
// one's have cosine > 0.9 (that regime; elsewhere it would only perturb the path), and kept
// only if the log posterior rises, so every
// cycle still increases the objective and the optimum is the same; it costs O(N) (one dense
// direction), against O(nnz) for the cycle. Likelihoods without supportsDirection() skip it.
//
// Block Newton step. After the sweep (and instead of the extrapolation when it moves), a
// Newton step on the block of solver/block_newton.h: the intercept, the dense columns, and in
// small problems every column.
#pragma once

#include <memory>

#include "models/likelihood.h"
#include "solver/block_newton.h"
#include "solver/coordinate_sweep.h"
#include "solver/cycle_runner.h"

namespace argus {

class LikelihoodCycleRunner final : public CycleRunner {
 public:
  // The CPU runner: makeLikelihood() and the host sweep.
  LikelihoodCycleRunner(const Dataset& data, const double* weights, int threads = 1);
  // A runner over a device model, which is its own sweep.
  LikelihoodCycleRunner(const Dataset& data, const double* weights,
                        std::unique_ptr<DeviceModel> model);

  // The CPU runner: every fit starts with reset(), which recomputes the likelihood's state
  // from beta, and the once-per-cycle scratch is written before it is read; only the Newton
  // block learns (admit(), its step count). A device model's runner does not restart.
  bool restart() override;
  CycleReadout reset(const CycleState& state) override;
  CycleReadout rebuild(const CycleState& state) override;
  CycleReadout resetToEta(const CycleState& state, const std::vector<double>& eta) override;
  CycleReadout runCycle(CycleState& state, const CyclePlan& plan,
                        const ReadoutNeeds& needs) override;
  double logLikelihood(const CycleState&) override { return likelihood_->logLikelihood(); }
  GradHess gradHess(std::int32_t j) override { return likelihood_->gradHess(j); }
  std::vector<double> linearPredictor() override { return likelihood_->eta(); }
  OptimalityReport checkOptimality(const CycleState& state) override;
  std::vector<std::int32_t> aliasedColumns(const CycleState& state) override;
  Likelihood::ExactCycleCost exactCycleCost() const override { return likelihood_->exactCycleCost(); }
  bool rowScores(std::vector<double>* score, std::vector<double>* curvature) override {
    return likelihood_->rowScores(score, curvature);
  }
  // A device model's all-coordinates steps; on the CPU none (the host's sweeps serve).
  std::unique_ptr<BoundSteps> boundSteps() override { return device_ ? device_->boundSteps() : nullptr; }
  // The GLMs' one pass (blockGradHess); survival and conditional models by polarization of
  // their directional derivatives (polarizeHessian) where that costs at most a few times the
  // differences inference would take instead (likelihood_cycle_runner.cpp says why).
  bool exactHessian(const std::vector<std::int32_t>& columns, const std::vector<double>& shifts,
                    std::vector<double>* h) override;

 private:
  CycleReadout readout(std::int64_t moved, const ReadoutNeeds& needs);
  CycleReadout startReadout(const CycleState& state);  // after reset(), resetToEta(), rebuild()
  void extrapolate(CycleState& state);
  bool repeatsLastMove(const std::vector<double>& eta);
  void dropKinkCoordinates(const CycleState& state);
  double extrapolationLength(const CycleState& state, GradHess* likelihoodAlong);
  void stepIfItGains(CycleState& state, const std::vector<double>& eta, double alpha,
                     const GradHess& likelihoodAlong);

  // Flat-prior columns past this many are checked for exact duplicates only: the check's
  // k x k Gram matrix and its factorization (k^3 / 6) stay within a few tenths of a second.
  static constexpr std::size_t kMaxCollinearityColumns = 1000;
  // 1 - R^2 (on the correlation scale) at or below which a flat column is aliased.
  static constexpr double kAliasTolerance = 1e-12;
  // The smallest eigenvalue of the kept flat columns' correlation matrix below which they join
  // the Newton block (CCD needs of the order of its inverse in cycles along that direction).
  static constexpr double kCrawlingEigenvalue = 1e-3;

  const Dataset& data_;
  const double* weights_;
  const double certificateScale_;  // certificateWeightScale (priors/optimality.h)
  std::unique_ptr<Likelihood> likelihood_;
  std::unique_ptr<HostCoordinateSweep> hostSweep_;  // the CPU's; null on a device
  CoordinateSweep* sweep_;
  DeviceModel* device_ = nullptr;  // the likelihood, where it lives on a device
  BlockNewton block_;
  std::vector<double> cycleStartEta_, cycleStartBeta_, direction_, previousDirection_, step_;
  std::vector<double> betaBeforeStep_, etaBeforeStep_;  // an extrapolation's way back
  double logLikelihoodScale_ = 0.0;  // the last |log-likelihood| computed: the gains' scale
};

}  // namespace argus
