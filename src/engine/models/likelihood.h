// The per-coordinate interface every likelihood offers to the CPU cycle.
//
// A likelihood caches the linear predictor eta and whatever running sums make one
// coordinate's gradient and Hessian cheap (per-row derivatives for GLMs, per-stratum
// denominators for conditional models). The cycle (solver/cycle_runner.h) is the unit of work
// seen from outside; this interface is what the CPU implementation of a cycle calls.
#pragma once

#include <cmath>

#include <cstdint>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "priors/prior.h"

namespace argus {

class Likelihood {
 public:
  Likelihood(const Dataset& data, const double* weights);
  virtual ~Likelihood() = default;

  // Sets eta = offset + X beta and rebuilds every cached quantity from scratch.
  void reset(const std::vector<double>& beta);
  // Recomputes running sums from the per-row caches (once per cycle: incremental updates
  // drift). Likelihoods without running sums have nothing to do.
  virtual void refreshSums() {}
  // g_j and h_j of the log-likelihood at the current beta.
  virtual GradHess gradHess(std::size_t j) const = 0;
  // gradHess(j) of every column j with skip[j] == 0 (skip empty: every column) into out, sized
  // to the columns ({0, 0} where skipped): what the optimality check and the aliasing check
  // read. Here gradHess(j) in turn; a device model computes them all before reading any back.
  virtual void gradHessAll(const std::vector<unsigned char>& skip, std::vector<GradHess>* out) const;
  // An O(1) estimate of gradHess(j) where the likelihood keeps coordinate j's g, h as
  // running sums (the GLM intercept, see glm_likelihood.h): exact after reset() and
  // refreshSums(), Taylor-accurate in between. Where tracksGradHess(j) is false it is the
  // exact gradHess(j).
  virtual bool tracksGradHess(std::size_t) const { return false; }
  virtual GradHess gradHessEstimate(std::size_t j) const { return gradHess(j); }
  // beta_j += delta: updates eta and the running sums on column j's rows only (a likelihood
  // may defer eta's share until eta() is read: the conditional Breslow path does).
  virtual void applyStep(std::size_t j, double delta) = 0;
  virtual double logLikelihood() const = 0;
  // The scale of the log-likelihood's units at the current eta (priors/optimality.h): 1, or
  // for least squares the weighted mean squared residual.
  virtual double dispersion() const { return 1.0; }
  // Threads a likelihood may use inside one coordinate's work (ControlSettings::threads).
  // Results must not depend on it; likelihoods that cannot split a coordinate ignore it.
  virtual void setThreads(int /*threads*/) {}

  // Derivatives along an eta change d (one value per row; a dense "column") and the step
  // eta += alpha d: what the solver needs to extrapolate a whole cycle's move (see
  // LikelihoodCycleRunner). Likelihoods that do not offer them say so, and are not extrapolated.
  virtual bool supportsDirection() const { return false; }
  // Whether the CPU cycle extrapolates its move along the direction (likelihood_cycle_runner.h):
  // worth its O(N) passes where every coordinate moves every other's derivatives (survival).
  virtual bool extrapolatesCycles() const { return supportsDirection(); }
  virtual GradHess gradHessAlong(const std::vector<double>& /*d*/) const { return {}; }
  // B with |d^3 logLik(eta + alpha d) / d alpha^3| <= B for every alpha, or infinity where the
  // model bounds none: then logLik gains at least g a + h a^2 / 2 - B a^3 / 6 along d, and a
  // cycle extrapolation whose step clears its floor on that bound need not sum each row's
  // exact change (LikelihoodCycleRunner::extrapolate).
  virtual double thirdDerivativeBoundAlong(const std::vector<double>& /*d*/) const { return INFINITY; }
  virtual void stepAlong(const std::vector<double>& /*d*/, double /*alpha*/) {}
  // stepAlong(d, alpha) and refreshSums(), returning the log-likelihood's change: what a
  // cycle extrapolation gained. Here two full log-likelihoods; the GLMs sum each row's change
  // in the pass that moves it (glm_functors.h, logLikChange), one exp and one log1p a row
  // for logistic instead of three exp and two log1p.
  virtual double stepAlongGain(const std::vector<double>& d, double alpha) {
    const double before = logLikelihood();
    stepAlong(d, alpha);
    refreshSums();
    return logLikelihood() - before;
  }
  // g and H (row-major k x k) of the log-likelihood over a block of columns at the current
  // eta, formed in one pass where the likelihood can (GLMs: H_jk = -sum_r x_rj x_rk curv_r,
  // the same per-row terms as gradHess), with column a taken as x - shifts[a] (shifts empty:
  // as is). Others return false, and the block Newton step builds H from directional
  // derivatives instead (solver/block_newton.h).
  virtual bool fusesBlockHessian() const { return false; }
  virtual void blockGradHess(const std::vector<std::int32_t>& /*columns*/, const std::vector<double>& /*shifts*/,
                             std::vector<double>* /*g*/, std::vector<double>* /*h*/) const {}
  // What an exact cycle costs, in units of the majorized start's work per entry of a sweep:
  // per stored entry of a moved column, and per slot of the refresh after each moved
  // coordinate (`slots` of them). Zero where the likelihood offers no row scores. What
  // decides whether the start pays (majorizedStartPays, solver/majorized_start.h).
  struct ExactCycleCost {
    double perEntry = 0.0;
    double perSlot = 0.0;
    std::int64_t slots = 0;
  };
  virtual ExactCycleCost exactCycleCost() const { return {}; }
  // Per row at the current eta: the score dL/deta_r and a curvature c_r >= 0 such that
  // diag(c) bounds minus the eta-Hessian from above (solver/majorized_start.h). False where
  // the likelihood does not offer them.
  virtual bool rowScores(std::vector<double>* /*score*/, std::vector<double>* /*curvature*/) {
    return false;
  }
  // Rebuilds the running sums for a fit's final readout, so that the reported log-likelihood
  // does not carry the drift of running additions: here every cached quantity from the
  // current eta (eta() as of the last reset() or refreshSums(); a device model copies it from
  // where it lives). A likelihood whose per-row state carries only multiplicative rounding
  // but whose eta is costly to bring up to date may rebuild the sums from that state
  // instead (the conditional models: den from u; their tracked sum w y eta and the strata's
  // shifts stay as they are).
  virtual void rebuild() { setEta(eta()); }
  // Sets eta and rebuilds every cached quantity from it (restores a saved state exactly).
  void setEta(const std::vector<double>& eta);

  // eta as of the last reset() or refreshSums() (a likelihood may keep its working copy
  // elsewhere between them, as the GLMs do, or on a device, which copies it here on demand).
  virtual const std::vector<double>& eta() const { return eta_; }
  // sum_r w_r y_r eta_r (same timing as eta()): the quantity the "gradient" criterion watches.
  virtual double weightedOutcomeEta() const;
  // sum_r |eta_r| and sum_r |eta_r - mark_r| (same timing as eta()), then mark = eta: the
  // "zhang" criterion's readouts, computed where eta lives (a cycle runner's reset() sets the
  // mark by calling it once).
  struct EtaMovement {
    double sumAbsEta = 0.0;
    double sumAbsChange = 0.0;
  };
  virtual EtaMovement takeEtaMovement();

 protected:
  // Rebuilds every per-row cache and running sum from eta.
  virtual void rebuildFromEta() = 0;

  double weight(std::int64_t r) const { return weights_ ? weights_[r] : 1.0; }
  // Exposure time enters only the models where `time` means exposure (MODELS.md §1).
  double exposure(std::int64_t r) const {
    return hasExposure_ ? data_.outcomes.time[r] : 1.0;
  }
  const ColumnView& column(std::size_t j) const { return data_.design.columns[j]; }
  std::int64_t nRows() const { return data_.nRows(); }

  const Dataset& data_;
  const double* weights_;
  const bool hasExposure_;
  std::vector<double> eta_;
  std::vector<double> etaMark_;  // takeEtaMovement()'s reference
};

// The CPU likelihood of data.model (the model registry: models/likelihood_registry.cpp).
std::unique_ptr<Likelihood> makeLikelihood(const Dataset& data, const double* weights);

}  // namespace argus
