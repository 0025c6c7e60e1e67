// Which dense columns to centre where an intercept can absorb the shift (the block Newton
// step, solver/block_newton.h, and the Hessian that vcov() inverts, solver/inference.h).
//
// A dense column whose mean is far from its spread (a calendar year, a time stamp in seconds
// within a day: mean/sd of 1e3 to 1e6) is nearly parallel to the intercept. Written with the
// column as is, the Hessian over (intercept, x) has condition (mean/sd)^2: its pivot for x is
// var / (var + mean^2) of the diagonal. In the basis of x - c (c: the mean) the same
// information is well conditioned, and beta maps back exactly (beta_0 = beta~_0 - sum_j c_j
// beta~_j). Up to kCentreRatio standard deviations the pivot is at least 1/257 of the diagonal
// and nothing is centred, so ordinary fits keep their paths bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "data/column.h"
#include "data/dataset.h"

namespace argus {

constexpr double kCentreRatio = 16.0;
// A column whose squares left after centring (within strata, or about its mean beside an
// intercept) are at most this share of its squares as given is constant up to rounding:
// lm's QR tolerance, 1e-7 of a column's norm, squared. ShiftInvariantCentring zeroes such a
// column and collinearColumns() calls it aliased; a time stamp of 1.7e9 +- 1,000 (3.5e-13)
// is a column.
constexpr double kRoundingShare = 1e-14;

// Per column of the design (0 where not centred): the mean of each of `columns` that is dense
// with |mean| > kCentreRatio times its standard deviation over the rows; `spreads` (if given,
// per column): that standard deviation where the column is centred.
std::vector<double> largeColumnMeans(const DesignView& design, const std::vector<std::int32_t>& columns,
                                     std::vector<double>* spreads = nullptr);
// The same over every column.
std::vector<double> largeColumnMeans(const DesignView& design, std::vector<double>* spreads = nullptr);

// The design's intercept column, or -1.
std::int32_t interceptColumn(const DesignView& design);

// The survival and conditional models are invariant to shifting a column within a stratum:
// x_j + c multiplies every row's exp(eta) in a risk set or stratum by the same exp(beta_j c),
// which cancels. So their fits run on a copy of the data in which each dense column whose
// stratum means are large against its spread about them (more than kCentreRatio times) is
// centred within each stratum: the same beta, the same log-likelihood, but a coordinate's
// curvature that keeps its digits (summed over the risk sets from x itself, a time stamp of
// 1.7e9 +- 1,000 lost the variance, and the fit held the column at 0 as aliased, biasing the
// others by 14%; columns shifted by about 1e3 per stratum, nearly collinear within strata,
// left a stratified Cox fit 3.2 units of log-likelihood short and called NO_FINITE_MLE).
// Where nothing is centred, data() is the input itself.
class ShiftInvariantCentring {
 public:
  explicit ShiftInvariantCentring(const Dataset& data);
  ShiftInvariantCentring(const ShiftInvariantCentring&) = delete;  // copy_ points into values_
  ShiftInvariantCentring& operator=(const ShiftInvariantCentring&) = delete;
  bool active() const { return !columns_.empty(); }
  const Dataset& data() const { return active() ? copy_ : *input_; }
  // eta += sum_j beta_j c_j(stratum): the input's linear predictor from the copy's.
  void addEtaShift(const std::vector<double>& beta, std::vector<double>* eta) const;

 private:
  const Dataset* input_;
  Dataset copy_;
  std::vector<std::int32_t> columns_;              // the centred columns
  std::vector<std::vector<double>> shift_;         // their means, per stratum
  std::vector<std::vector<double>> values_;        // their centred values
};

}  // namespace argus
