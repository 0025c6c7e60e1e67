// Derivatives of the log-likelihood at a given beta, for inference (vcov, Wald intervals,
// the first step of profile-likelihood bracketing) and for diagnostics.
//
// Everything goes through CycleRunner::reset() and CycleRunner::gradHess(), so it works for
// any model that implements a Likelihood and on any device that implements a runner: a new
// likelihood (Cox, Fine-Gray) gets a full Hessian without writing its second derivatives
// twice. The full Hessian is built from central differences of the analytic gradient (see
// hessianAt() for the step and the error control).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "data/column_centring.h"
#include "data/dataset.h"
#include "solver/compute_device.h"
#include "solver/cycle_runner.h"

namespace argus {

// Log-likelihood, gradient and the diagonal of the Hessian over `coordinates` at one beta.
struct PointDerivatives {
  double logLikelihood = 0.0;
  std::vector<double> gradient;
  std::vector<double> hessianDiagonal;
};

// A row-major k x k matrix over k coordinates.
struct SquareMatrix {
  std::size_t size = 0;
  std::vector<double> values;
  bool exact = false;  // formed exactly, not from differences (hessianAt)
  double operator()(std::size_t i, std::size_t k) const { return values[i * size + k]; }
};

// Holds one runner over one data set and moves it to the betas it is asked about.
class LikelihoodProbe {
 public:
  LikelihoodProbe(const ComputeDevice& device, const Dataset& data, const double* weights);

  std::size_t nColumns() const { return nColumns_; }
  // Loads beta (recomputing every cached sum exactly) and returns the log-likelihood there.
  double moveTo(const std::vector<double>& beta);
  // g_j, h_j at the beta of the last moveTo().
  GradHess gradHess(std::int32_t j) { return runner_->gradHess(j); }
  // CycleRunner::exactHessian at the beta of the last moveTo().
  bool exactHessian(const std::vector<std::int32_t>& columns, const std::vector<double>& shifts,
                    std::vector<double>* h) {
    return runner_->exactHessian(columns, shifts, h);
  }
  // The difference step for coordinate j at beta_j (hessianAt()); `centred`: along x_j - c_j.
  double stepFor(std::int32_t j, double betaJ, double relativeStep, bool centred = false) const;
  // Per coordinate, the shift c of a column to centre (data/column_centring.h; 0 elsewhere),
  // or empty where `coordinates` holds no intercept or nothing is to be centred.
  std::vector<double> centringShifts(const std::vector<std::int32_t>& coordinates) const;
  std::int32_t intercept() const { return intercept_; }

 private:
  // Survival and conditional models: the data with huge-mean columns centred (the same
  // likelihood of beta, better digits: data/column_centring.h); the runner reads this.
  std::unique_ptr<ShiftInvariantCentring> centring_;
  std::unique_ptr<CycleRunner> runner_;
  CycleState state_;
  std::size_t nColumns_;
  std::vector<double> columnScale_;  // RMS of each column's stored values
  std::vector<double> centre_;       // per column: the mean to centre on, or 0
  std::vector<double> centredScale_; // per centred column: RMS of x - mean
  std::int32_t intercept_ = -1;
};

PointDerivatives derivativesAt(LikelihoodProbe& probe, const std::vector<double>& beta,
                               const std::vector<std::int32_t>& coordinates);

// Full Hessian of the log-likelihood over `coordinates` at beta. Where the likelihood forms
// it exactly (the GLMs in one pass; survival and conditional models by polarization where
// that is affordable: CycleRunner::exactHessian) that one, `exact` set: the differences
// below carry ~1e-12 relative error, which an inverse multiplies by the condition number
// (calendar year and its square, 1 - R^2 ~ 4e-8: standard errors 0.2% off), and it costs one
// pass over the rows instead of 4 gradients per coordinate. Otherwise column k is the central
// difference (g(beta + h_k e_k) - g(beta - h_k e_k)) / (2 h_k) of the analytic gradient over
// `coordinates`, with one Richardson extrapolation (steps h_k and h_k / 2), then symmetrized.
// The step follows the scale of column k (see stepFor() in inference.cpp), so that the change
// in eta, which is what the truncation error depends on, is about relativeStep per row.
// With `shifts` (centringShifts(); the intercept among `coordinates`): the Hessian in the
// basis of the centred columns, x_k - c_k, whose coefficients beta~ map back by beta_0 =
// beta~_0 - sum_k c_k beta~_k; the differences move along e_k - c_k e_0 and the gradient is
// taken as g~_k = g_k - c_k g_0. Its inverse maps back as A V~ A' (A: that map).
struct HessianOptions {
  double relativeStep = 1e-3;
  bool exactWhereFormed = true;  // false: the differences always (their tests)
};
SquareMatrix hessianAt(LikelihoodProbe& probe, const std::vector<double>& beta,
                       const std::vector<std::int32_t>& coordinates,
                       const HessianOptions& options = HessianOptions(),
                       const std::vector<double>& shifts = {});

// eta = offset + X beta in the internal row order (predictions for an argusData object).
std::vector<double> linearPredictor(const Dataset& data, const std::vector<double>& beta);

}  // namespace argus
