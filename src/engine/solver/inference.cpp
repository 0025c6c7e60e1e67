#include "solver/inference.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "data/column_centring.h"

namespace argus {

namespace {
// The data are checked before anything reads them: the centring reads every row through the
// stratum offsets, and a runner trusts its input.
std::unique_ptr<ShiftInvariantCentring> validatedCentring(const Dataset& data, const double* weights) {
  validateDataset(data, weights);
  return std::make_unique<ShiftInvariantCentring>(data);
}
}  // namespace

LikelihoodProbe::LikelihoodProbe(const ComputeDevice& device, const Dataset& input,
                                 const double* weights)
    : centring_(validatedCentring(input, weights)),
      runner_(makeCycleRunner(device, centring_->data(), weights)),
      nColumns_(input.design.nColumns()) {
  const Dataset& data = centring_->data();
  // reset() reads only beta; the rest is sized so that a device runner may copy it as is.
  state_.bound.assign(nColumns_, 1.0);
  state_.prior.assign(nColumns_, CoordinatePrior{});
  state_.fixed.assign(nColumns_, 0);
  columnScale_.resize(nColumns_);
  for (std::size_t j = 0; j < nColumns_; ++j) {
    // Root mean square of the stored values: the typical |x| of a row that column j touches.
    double sum = 0.0;
    std::int64_t count = 0;
    forEachEntry(data.design.columns[j], data.nRows(), [&](std::int64_t, double x) {
      sum += x * x;
      ++count;
    });
    const double rms = count > 0 ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
    columnScale_[j] = rms > 0.0 && std::isfinite(rms) ? rms : 1.0;
  }
  intercept_ = interceptColumn(data.design);
  centre_.assign(nColumns_, 0.0);
  centredScale_.assign(nColumns_, 1.0);
  if (intercept_ < 0) return;
  std::vector<double> spread;
  centre_ = largeColumnMeans(data.design, &spread);
  for (std::size_t j = 0; j < nColumns_; ++j)
    if (spread[j] > 0.0 && std::isfinite(spread[j])) centredScale_[j] = spread[j];  // RMS of x - mean
}

std::vector<double> LikelihoodProbe::centringShifts(const std::vector<std::int32_t>& coordinates) const {
  std::vector<double> shifts;
  if (std::find(coordinates.begin(), coordinates.end(), intercept_) == coordinates.end()) return shifts;
  bool any = false;
  shifts.resize(coordinates.size());
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    shifts[i] = centre_[coordinates[i]];
    any = any || shifts[i] != 0.0;
  }
  if (!any) shifts.clear();
  return shifts;
}

double LikelihoodProbe::moveTo(const std::vector<double>& beta) {
  ARGUS_REQUIRE(beta.size() == nColumns_, "beta has the wrong length");
  for (double b : beta) ARGUS_REQUIRE(std::isfinite(b), "beta must be finite");
  state_.beta = beta;
  return runner_->reset(state_).logLikelihood;
}

namespace {

void checkCoordinates(const LikelihoodProbe& probe, const std::vector<std::int32_t>& coords) {
  for (std::int32_t j : coords)
    ARGUS_REQUIRE(j >= 0 && static_cast<std::size_t>(j) < probe.nColumns(),
                  "coordinate " + std::to_string(j) + " is out of range");
}

std::vector<double> gradientAt(LikelihoodProbe& probe, const std::vector<double>& beta,
                               const std::vector<std::int32_t>& coords) {
  probe.moveTo(beta);
  std::vector<double> g(coords.size());
  for (std::size_t i = 0; i < coords.size(); ++i) g[i] = probe.gradHess(coords[i]).g;
  return g;
}

// The gradient in the centred basis (hessianAt()): g~_i = g_i - c_i g_0, g_0 at `origin`.
void toCentredBasis(std::vector<double>* g, const std::vector<double>& shifts, std::size_t origin) {
  if (shifts.empty()) return;
  const double g0 = (*g)[origin];
  for (std::size_t i = 0; i < g->size(); ++i) (*g)[i] -= shifts[i] * g0;
}

// One central difference of the gradient along coordinate j with step h: the step actually
// taken is (beta_j + h) - (beta_j - h) in floating point, not 2h. Centred (shift != 0): the
// intercept `zero` moves by -shift times that step, so eta moves along x_j - shift.
std::vector<double> centralDifference(LikelihoodProbe& probe, std::vector<double> beta,
                                      std::int32_t j, double h,
                                      const std::vector<std::int32_t>& coords,
                                      const std::vector<double>& shifts, double shift, std::int32_t zero,
                                      std::size_t origin) {
  const double centre = beta[j];
  const double intercept = zero >= 0 ? beta[zero] : 0.0;
  beta[j] = centre + h;
  const double up = beta[j];
  if (shift != 0.0) beta[zero] = intercept - shift * (up - centre);
  std::vector<double> gUp = gradientAt(probe, beta, coords);
  beta[j] = centre - h;
  const double down = beta[j];
  if (shift != 0.0) beta[zero] = intercept - shift * (down - centre);
  std::vector<double> gDown = gradientAt(probe, beta, coords);
  toCentredBasis(&gUp, shifts, origin);
  toCentredBasis(&gDown, shifts, origin);
  for (std::size_t i = 0; i < coords.size(); ++i) gUp[i] = (gUp[i] - gDown[i]) / (up - down);
  return gUp;
}

}  // namespace

double LikelihoodProbe::stepFor(std::int32_t j, double betaJ, double relativeStep, bool centred) const {
  // The truncation error of a central difference depends on how much eta moves, h * |x|, so
  // the step follows the column's scale; the floor keeps beta_j +- h well resolved when
  // |beta_j| is large (rounding of beta_j + h is relative to |beta_j|).
  return std::max(relativeStep / (centred ? centredScale_[j] : columnScale_[j]), 1e-6 * std::fabs(betaJ));
}

PointDerivatives derivativesAt(LikelihoodProbe& probe, const std::vector<double>& beta,
                               const std::vector<std::int32_t>& coordinates) {
  checkCoordinates(probe, coordinates);
  PointDerivatives out;
  out.logLikelihood = probe.moveTo(beta);
  out.gradient.resize(coordinates.size());
  out.hessianDiagonal.resize(coordinates.size());
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    const GradHess gh = probe.gradHess(coordinates[i]);
    out.gradient[i] = gh.g;
    out.hessianDiagonal[i] = gh.h;
  }
  return out;
}

SquareMatrix hessianAt(LikelihoodProbe& probe, const std::vector<double>& beta,
                       const std::vector<std::int32_t>& coordinates,
                       const HessianOptions& options, const std::vector<double>& shifts) {
  checkCoordinates(probe, coordinates);
  ARGUS_REQUIRE(options.relativeStep > 0.0, "the difference step must be positive");
  const std::size_t k = coordinates.size();
  std::size_t origin = 0;  // the intercept's position, where centred
  if (!shifts.empty()) {
    ARGUS_REQUIRE(shifts.size() == k, "one shift per coordinate");
    const auto at = std::find(coordinates.begin(), coordinates.end(), probe.intercept());
    ARGUS_REQUIRE(at != coordinates.end(), "centring needs the intercept among the coordinates");
    origin = static_cast<std::size_t>(at - coordinates.begin());
  }
  SquareMatrix exact{k, {}, true};
  probe.moveTo(beta);
  if (options.exactWhereFormed && probe.exactHessian(coordinates, shifts, &exact.values)) return exact;
  const std::int32_t zero = shifts.empty() ? -1 : coordinates[origin];
  SquareMatrix raw{k, std::vector<double>(k * k)};
  for (std::size_t c = 0; c < k; ++c) {
    const std::int32_t j = coordinates[c];
    const double shift = shifts.empty() ? 0.0 : shifts[c];
    const double h = probe.stepFor(j, beta[j], options.relativeStep, shift != 0.0);
    // Richardson: D(h) = H + a h^2 + O(h^4), so (4 D(h/2) - D(h)) / 3 = H + O(h^4).
    const std::vector<double> wide =
        centralDifference(probe, beta, j, h, coordinates, shifts, shift, zero, origin);
    const std::vector<double> narrow =
        centralDifference(probe, beta, j, 0.5 * h, coordinates, shifts, shift, zero, origin);
    for (std::size_t i = 0; i < k; ++i)
      raw.values[i * k + c] = (4.0 * narrow[i] - wide[i]) / 3.0;
  }
  // H is symmetric; the two differences of each pair carry independent errors, so averaging
  // them halves the noise and returns an exactly symmetric matrix.
  SquareMatrix out{k, std::vector<double>(k * k)};
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = 0; c < k; ++c)
      out.values[i * k + c] = 0.5 * (raw(i, c) + raw(c, i));
  probe.moveTo(beta);  // leave the probe where the caller asked, not at the last difference
  return out;
}

std::vector<double> linearPredictor(const Dataset& data, const std::vector<double>& beta) {
  ARGUS_REQUIRE(beta.size() == data.design.nColumns(), "beta has the wrong length");
  validateDataset(data, nullptr);
  std::vector<double> eta(static_cast<std::size_t>(data.nRows()), 0.0);
  if (data.outcomes.offset)
    std::copy(data.outcomes.offset, data.outcomes.offset + data.nRows(), eta.begin());
  addDesignTimes(data.design, beta.data(), eta.data());
  return eta;
}

}  // namespace argus
