#include "solver/likelihood_cycle_runner.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "data/column_centring.h"
#include "data/duplicate_columns.h"
#include "priors/optimality.h"
#include "solver/ccd_solver.h"
#include "solver/collinear_columns.h"
#include "solver/information_rows.h"

namespace argus {

LikelihoodCycleRunner::LikelihoodCycleRunner(const Dataset& data, const double* weights, int threads)
    : data_(data),
      weights_(weights),
      certificateScale_(certificateWeightScale(weights, data.nRows())),
      likelihood_(makeLikelihood(data, weights)),
      hostSweep_(std::make_unique<HostCoordinateSweep>(*likelihood_)),
      sweep_(hostSweep_.get()),
      block_(data, likelihood_->fusesBlockHessian()) {
  likelihood_->setThreads(threads);
}

LikelihoodCycleRunner::LikelihoodCycleRunner(const Dataset& data, const double* weights,
                                             std::unique_ptr<DeviceModel> model)
    : data_(data),
      weights_(weights),
      certificateScale_(certificateWeightScale(weights, data.nRows())),
      sweep_(model.get()),
      device_(model.get()),
      block_(data, model->fusesBlockHessian()) {
  likelihood_ = std::move(model);
}

// What a reset or rebuild reads out: the log-likelihood and sum w y eta, the references of
// the first cycle's rules (and non-finite when eta is: 0 * inf is NaN). Eta's movement is
// only marked, where the "zhang" rule reads it: a readout of it here was an O(N) pass and,
// on the first reset, an N-double allocation (perf, SCCS fit in R: 2.7% of its samples).
CycleReadout LikelihoodCycleRunner::startReadout(const CycleState& state) {
  previousDirection_.clear();
  if (state.tracksEtaChange) likelihood_->takeEtaMovement();  // the mark for the next readout's change
  const CycleReadout out = readout(0, ReadoutNeeds{true, true, false});
  logLikelihoodScale_ = std::isfinite(out.logLikelihood) ? std::fabs(out.logLikelihood) : 0.0;
  return out;
}

bool LikelihoodCycleRunner::restart() {
  if (!hostSweep_) return false;
  block_.restart();
  previousDirection_.clear();
  logLikelihoodScale_ = 0.0;
  return true;
}

CycleReadout LikelihoodCycleRunner::reset(const CycleState& state) {
  likelihood_->reset(state.beta);
  return startReadout(state);
}

CycleReadout LikelihoodCycleRunner::resetToEta(const CycleState& state, const std::vector<double>& eta) {
  likelihood_->setEta(eta);
  return startReadout(state);
}

CycleReadout LikelihoodCycleRunner::rebuild(const CycleState& state) {
  likelihood_->rebuild();
  return startReadout(state);
}

CycleReadout LikelihoodCycleRunner::runCycle(CycleState& state, const CyclePlan& plan,
                                             const ReadoutNeeds& needs) {
  const bool extrapolating = state.extrapolate && likelihood_->extrapolatesCycles();
  if (!extrapolating) previousDirection_.clear();
  if (extrapolating) {
    cycleStartEta_ = likelihood_->eta();  // current: reset() and refreshSums() sync it
    cycleStartBeta_ = state.beta;
  }
  std::int64_t moved = sweep_->sweep(state, plan);
  likelihood_->refreshSums();
  if (state.blockNewton && block_.step(*likelihood_, state)) {
    ++moved;
    previousDirection_.clear();  // the next cycle's move is not this one's repetition
  } else if (extrapolating && moved > 0) {
    extrapolate(state);
  }
  return readout(moved, needs);
}

std::int64_t HostCoordinateSweep::sweep(CycleState& state, const CyclePlan& plan) {
  const std::int32_t f = plan.follower;
  const bool follow = f >= 0 && !state.fixed[f] && likelihood_.tracksGradHess(f);
  std::int64_t moved = 0;
  for (const std::int32_t j : plan.coordinates) {
    if (state.fixed[j]) continue;
    const GradHess gh = likelihood_.gradHess(j);
    double delta = newtonStep(gh, state.beta[j], state.prior[j]);
    delta = trustRegionStep(delta, &state.bound[j]);
    if (delta == 0.0) continue;
    state.beta[j] += delta;
    likelihood_.applyStep(j, delta);
    ++moved;
    if (!follow || j == f) continue;
    // The follower (CyclePlan) re-steps from the likelihood's O(1) estimate of its g, h.
    const GradHess gf = likelihood_.gradHessEstimate(f);
    const double step =
        followerStep(newtonStep(gf, state.beta[f], state.prior[f]), &state.bound[f]);
    if (step == 0.0) continue;
    state.beta[f] += step;
    likelihood_.applyStep(f, step);
  }
  return moved;
}

OptimalityReport LikelihoodCycleRunner::checkOptimality(const CycleState& state) {
  OptimalityReport report;
  const double dispersion = likelihood_->dispersion() * certificateScale_;
  std::vector<GradHess> gh;
  likelihood_->gradHessAll(state.fixed, &gh);
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    if (state.fixed[j]) continue;
    const double v = optimalityViolation(gh[j], state.beta[j], state.prior[j], dispersion);
    if (report.worst < 0 || !(v <= report.maxViolation)) {
      report.maxViolation = v;
      report.worst = static_cast<std::int32_t>(j);
    }
  }
  return report;
}

std::vector<std::int32_t> LikelihoodCycleRunner::aliasedColumns(const CycleState& state) {
  std::vector<std::int32_t> flat, out;
  std::vector<unsigned char> skip(state.beta.size());
  for (std::size_t j = 0; j < skip.size(); ++j) skip[j] = state.fixed[j] || state.prior[j].kind != PriorKind::None;
  std::vector<GradHess> gh;
  likelihood_->gradHessAll(skip, &gh);
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    if (skip[j]) continue;
    const std::int32_t column = static_cast<std::int32_t>(j);
    // No curvature at all (no entries where the model has information): nothing to estimate.
    // A curvature that is not a number (overflowed sums: a survival linear predictor beyond
    // the span its risk sets hold) says nothing about aliasing: the column is kept, and the
    // fit's checks judge it (it once sent every covariate to NA with SUCCESS).
    const double h = gh[j].h;
    if (h >= 0.0) {
      out.push_back(column);
      continue;
    }
    flat.push_back(column);
  }
  // Collinearity (solver/collinear_columns.h) among the first kMaxCollinearityColumns flat
  // columns in order; any beyond them are checked for exact duplicates only.
  std::vector<std::int32_t> checked(flat.begin(),
                                    flat.begin() + std::min(flat.size(), kMaxCollinearityColumns));
  // GLMs: a flat intercept absorbs the means (it is never aliased itself).
  const bool shiftInvariant = isSurvival(data_.model) || isConditional(data_.model);
  const std::int32_t intercept = interceptColumn(data_.design);
  const auto at = std::find(checked.begin(), checked.end(), intercept);
  const bool centreOnce = !shiftInvariant && at != checked.end();
  if (centreOnce) checked.erase(at);
  if (checked.empty()) {  // a penalized fit with a flat intercept alone: nothing to factor
    std::sort(out.begin(), out.end());
    return out;
  }
  const InformationRows information = informationRows(data_, weights_);
  CollinearityRows rows;
  rows.weights = information.weight.data();
  rows.group = information.group.data();
  rows.centre = information.centred || centreOnce;
  const Collinearity collinearity = collinearColumns(data_.design, rows, checked, kAliasTolerance);
  out.insert(out.end(), collinearity.aliased.begin(), collinearity.aliased.end());
  // Columns so nearly collinear that CCD would crawl along them join the Newton block,
  // whatever their kind and cost: ns(dis, 16, intercept = TRUE) * chas on 1e5 rows (its
  // spline columns stored sparse, 1 - R^2 down to 3e-12) ended MAX_ITERATIONS after 1000
  // cycles, 453 units of log-likelihood short of lm; now SUCCESS in 4 cycles at lm's optimum.
  if (collinearity.smallestEigenvalue < kCrawlingEigenvalue) {
    std::vector<std::int32_t> kept;
    for (const std::int32_t j : flat)
      if (!std::binary_search(collinearity.aliased.begin(), collinearity.aliased.end(), j)) kept.push_back(j);
    block_.admit(kept);
  }
  if (flat.size() > kMaxCollinearityColumns) {
    const std::vector<std::int32_t> duplicate = duplicatesOfEarlier(data_.design, flat);
    for (std::size_t i = kMaxCollinearityColumns; i < flat.size(); ++i)
      if (duplicate[i] >= 0) out.push_back(flat[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
constexpr double kMaxAlpha = 8.0;
constexpr double kGainFloor = 0.25 * DBL_EPSILON;  // relative to |log-likelihood|
constexpr double kMinCosine = 0.9;
constexpr double kBoundMargin = 1e-9;  // relative to |log-likelihood|, 4e6 gain floors
}  // namespace

void LikelihoodCycleRunner::extrapolate(CycleState& state) {
  const std::vector<double>& eta = likelihood_->eta();
  if (!repeatsLastMove(eta)) return;
  dropKinkCoordinates(state);
  GradHess likelihoodAlong;
  const double alpha = extrapolationLength(state, &likelihoodAlong);
  if (!(alpha > 0.0)) return;
  stepIfItGains(state, eta, alpha, likelihoodAlong);
}

// The cycle's move of eta, d, in direction_. Extrapolate only once successive cycles move eta
// in nearly the same direction: that is the linear-convergence regime where the next cycles
// would repeat this move, shrunken.
bool LikelihoodCycleRunner::repeatsLastMove(const std::vector<double>& eta) {
  direction_.resize(eta.size());
  for (std::size_t r = 0; r < eta.size(); ++r) direction_[r] = eta[r] - cycleStartEta_[r];
  double dot = 0.0, norm = 0.0, previousNorm = 0.0;
  const bool havePrevious = previousDirection_.size() == direction_.size();
  for (std::size_t r = 0; havePrevious && r < eta.size(); ++r) {
    dot += direction_[r] * previousDirection_[r];
    norm += direction_[r] * direction_[r];
    previousNorm += previousDirection_[r] * previousDirection_[r];
  }
  previousDirection_ = direction_;
  return havePrevious && dot > kMinCosine * std::sqrt(norm * previousNorm);
}

// The cycle's move of beta in step_. A Laplace coordinate that ended the cycle on 0 sits on
// the kink: leave it out of the direction (its share of d is removed), so the others can
// still be extrapolated.
void LikelihoodCycleRunner::dropKinkCoordinates(const CycleState& state) {
  step_.assign(state.beta.size(), 0.0);
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    const double delta = state.beta[j] - cycleStartBeta_[j];
    if (delta == 0.0) continue;
    if (state.beta[j] == 0.0 && state.prior[j].kind == PriorKind::Laplace) {
      forEachEntry(data_.design.columns[j], data_.nRows(),
                   [&](std::int64_t r, double x) { direction_[r] -= delta * x; });
      continue;
    }
    step_[j] = delta;
  }
}

// The Newton step along the move on the log posterior, clipped where a Laplace coordinate
// moving towards 0 reaches its kink and to kMaxAlpha; 0 where the posterior does not rise
// and curve down along it. *likelihoodAlong: the log-likelihood's g and h along d.
double LikelihoodCycleRunner::extrapolationLength(const CycleState& state, GradHess* likelihoodAlong) {
  GradHess along = likelihood_->gradHessAlong(direction_);
  *likelihoodAlong = along;
  double maxAlpha = kMaxAlpha;
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    const double delta = step_[j];
    if (delta == 0.0) continue;
    const double beta = state.beta[j];
    const PriorSlope prior = priorSlope(beta, state.prior[j], beta > 0.0 ? 1.0 : -1.0);
    along.g += prior.gradient * delta;
    along.h -= prior.curvature * delta * delta;
    if (state.prior[j].kind == PriorKind::Laplace && delta * beta < 0.0)
      maxAlpha = std::min(maxAlpha, -beta / delta);
  }
  if (!(along.h < 0.0) || !(along.g > 0.0)) return 0.0;
  return std::min(-along.g / along.h, maxAlpha);
}

// The GLMs sum the gain per row (Likelihood::stepAlongGain), each row's change off by a few
// units of rounding, where the difference of two log-likelihoods saw nothing below a unit in
// the last place of |L|. A gain below a quarter of that unit is not taken: at the end of a fit
// such a step slides beta along a flat valley of the posterior for nothing, and later cycles
// pay to settle it (glm_intercept_test's lr follower: 14 -> 19 cycles to a 1e-11 change, 133
// to 1e-13, when gains of 1e-15 at |L| = 334 were taken). The old difference took some of
// those by the luck of its rounding; in long crawls at tolerances near 1e-10 without the block
// step that luck saved cycles (logistic 1,128 cycles then, 1,736 now), at default settings a
// few at most. |L| is the last one computed: the reset's (a cold start's is the largest of the
// fit), refreshed before a positive gain is turned down, as |L| shrinks while a fit climbs
// (least squares on an uncentred outcome: 271 cycles, 365 with the reset's |L|).
//
// Where the likelihood bounds its third derivative along d (logistic, least squares), the gain
// is at least g alpha + h alpha^2 / 2 - B alpha^3 / 6; a step whose bound clears the floor by
// far (kBoundMargin of |L|, room for the rounding of g and h over every row) is taken on it,
// since summing the exact gain would decide the same: engine lr 1e5 x 1000, the row's
// division and log1p were a third of an extrapolation's passes.
void LikelihoodCycleRunner::stepIfItGains(CycleState& state, const std::vector<double>& eta, double alpha,
                                          const GradHess& likelihoodAlong) {
  const double priorBefore = logPriorTotal(state.beta, state.prior);
  betaBeforeStep_ = state.beta;
  etaBeforeStep_ = eta;
  for (std::size_t j = 0; j < state.beta.size(); ++j) {
    if (step_[j] == 0.0) continue;
    const double moved = state.beta[j] + alpha * step_[j];
    // A Laplace coordinate that limited alpha lands on 0 exactly, not on rounding noise
    // (others may cross 0 freely: their posterior is smooth there).
    const bool landsOnKink = state.prior[j].kind == PriorKind::Laplace && moved * state.beta[j] <= 0.0;
    state.beta[j] = landsOnKink ? 0.0 : moved;
  }
  const double priorChange = logPriorTotal(state.beta, state.prior) - priorBefore;
  const double third = likelihood_->thirdDerivativeBoundAlong(direction_);
  const double gainBound = likelihoodAlong.g * alpha + 0.5 * likelihoodAlong.h * alpha * alpha -
                           third * alpha * alpha * alpha / 6.0 + priorChange;
  double gain;
  if (std::isfinite(gainBound) && gainBound > kBoundMargin * (1.0 + logLikelihoodScale_)) {
    likelihood_->stepAlong(direction_, alpha);
    likelihood_->refreshSums();
    gain = gainBound;
  } else {
    gain = likelihood_->stepAlongGain(direction_, alpha) + priorChange;
  }
  double floor = kGainFloor * (1.0 + logLikelihoodScale_);
  if (gain > 0.0 && !(gain > floor)) {
    const double now = likelihood_->logLikelihood();
    if (std::isfinite(now)) logLikelihoodScale_ = std::fabs(now);
    floor = kGainFloor * (1.0 + logLikelihoodScale_);
  }
  if (!(gain > floor)) {
    state.beta = betaBeforeStep_;
    likelihood_->setEta(etaBeforeStep_);
  }
}

CycleReadout LikelihoodCycleRunner::readout(std::int64_t moved, const ReadoutNeeds& needs) {
  CycleReadout out;
  if (needs.logLikelihood) out.logLikelihood = likelihood_->logLikelihood();
  if (needs.weightedOutcomeEta) out.weightedOutcomeEta = likelihood_->weightedOutcomeEta();
  if (needs.etaChange) {
    const Likelihood::EtaMovement m = likelihood_->takeEtaMovement();
    out.sumAbsEta = m.sumAbsEta;
    out.sumAbsEtaChange = m.sumAbsChange;
  }
  out.coordinatesMoved = moved;
  return out;
}

// Differences of the gradient carry a truncation error of ~1e-8 relative to the Hessian's
// entries, which its inverse multiplies by the condition number: Cox standard errors of age in
// years beside age from dates in days (1 - R^2 ~ 1e-7) came out 5e-4 off coxph's, and one step
// more collinear (1e-10, still estimable) the whole matrix was called singular (NA). A
// polarization is exact to rounding. It costs one dense direction per pair, k (k - 1) / 2 passes
// of N rows, against 4 gradients of k column scans per coordinate for the differences: taken
// while no dearer than those (dense columns: 8 times cheaper), or within 2e8 row operations (a
// fit of a few covariates always has it).
bool LikelihoodCycleRunner::exactHessian(const std::vector<std::int32_t>& columns,
                                         const std::vector<double>& shifts, std::vector<double>* h) {
  if (likelihood_->fusesBlockHessian()) {
    std::vector<double> g;
    likelihood_->blockGradHess(columns, shifts, &g, h);
    return true;
  }
  if (!likelihood_->supportsDirection() || columns.empty()) return false;
  for (const double shift : shifts)
    if (shift != 0.0) return false;  // centred on an intercept: GLMs only
  const double k = static_cast<double>(columns.size());
  const double rows = static_cast<double>(data_.nRows());
  double entries = 0.0;
  for (const std::int32_t j : columns) {
    const ColumnView& c = data_.design.columns[j];
    entries += c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse ? static_cast<double>(c.nnz) : rows;
  }
  const double polarization = 0.5 * k * (k - 1.0) * rows;
  if (polarization > std::max(4.0 * k * entries, 2e8)) return false;
  const std::size_t n = columns.size();
  h->assign(n * n, 0.0);
  for (std::size_t a = 0; a < n; ++a) {
    const double curvature = likelihood_->gradHess(static_cast<std::size_t>(columns[a])).h;
    if (!(curvature < 0.0) || !std::isfinite(curvature)) return false;  // differences say it
    (*h)[a * n + a] = curvature;
  }
  std::vector<double> direction;
  polarizeHessian(*likelihood_, data_, columns, h, &direction, /*centred=*/true);
  return true;
}

}  // namespace argus
