#include "solver/recession.h"

#include <algorithm>
#include <cmath>

#include "data/column_centring.h"
#include "solver/symmetric_eigen.h"

namespace argus {

namespace {
// A probe passes (no drop) where the log-likelihood drops by less than this share of what the
// diagonal curvature predicts for the move, or by no more than rounding.
constexpr double kShareOfPredictedDrop = 1e-4;

bool isFar(const CycleState& state, const std::vector<double>& maxAbs, std::size_t j) {
  return !state.fixed[j] && state.prior[j].kind == PriorKind::None && maxAbs[j] > 0.0 &&
         std::fabs(state.beta[j]) * maxAbs[j] >= kFarEta;
}
// The basis the far block is probed in. Beside a free intercept, a dense column with a large
// mean against its spread (a birth year, 1986 - age) is nearly parallel to the intercept: the
// valley of the two is as flat on the correlation scale as a recession, the two flat
// directions mix in the block's eigenvectors, and no probe along a mix recedes (birthwt: the
// birth year beside a race without events among whites reported SUCCESS, intercept -75). Such
// a column is probed as x_j - c_j (its coordinate moves beta_j and the intercept by -c_j per
// unit), as the Newton block steps it (block_newton.h); the valley is then not flat.
struct ProbeBasis {
  std::int32_t intercept = -1;  // set where some coordinate is shifted
  std::vector<double> shift;    // per coordinate of the block: c_j, or 0
  std::vector<double> reach;    // per coordinate: max |x_j - c_j| (max |x_j| where not shifted)

  ProbeBasis(const DesignView* design, const std::vector<std::int32_t>& at,
             const std::vector<double>& maxAbs, std::int32_t interceptColumn, bool shiftInvariant)
      : shift(at.size(), 0.0), reach(at.size()) {
    for (std::size_t i = 0; i < at.size(); ++i) reach[i] = maxAbs[at[i]];
    if (!design || shiftInvariant || std::find(at.begin(), at.end(), interceptColumn) == at.end()) return;
    const std::vector<double> means = largeColumnMeans(*design, at);
    for (std::size_t i = 0; i < at.size(); ++i) {
      const double c = means[at[i]];
      if (c == 0.0 || at[i] == interceptColumn) continue;
      const ColumnView& column = design->columns[at[i]];
      double largest = 0.0;
      for (std::int64_t r = 0; r < design->nRows; ++r)
        largest = std::fmax(largest, std::fabs(column.values[r] - c));
      if (!(largest > 0.0)) continue;
      shift[i] = c;
      reach[i] = largest;
      intercept = interceptColumn;
    }
  }

  // A move d of the block's coordinates, in this basis, as a move of its columns' beta.
  void toColumns(const std::vector<std::int32_t>& at, std::vector<double>* d) const {
    if (intercept < 0) return;
    const std::size_t i0 = static_cast<std::size_t>(std::find(at.begin(), at.end(), intercept) - at.begin());
    for (std::size_t i = 0; i < at.size(); ++i) (*d)[i0] -= shift[i] * (*d)[i];
  }
};

// Scales the move `d` of the coordinates `at` so that it moves eta by about kProbeEta, as
// X d says (`baseEta`: eta at state.beta): the bound sum_j |d_j| max|x_j| overstates it by
// orders of magnitude where columns cancel (raw polynomials of degree 6: a probe then moved
// eta by 1e-5, dropped nothing, and a valley still climbing was called a recession). Returns
// the factor applied (0 where the move moves no eta). One reset.
double scaleToReach(CycleRunner& runner, const CycleState& state, const std::vector<double>& baseEta,
                    bool shiftInvariant, const std::vector<std::int32_t>& at, std::vector<double>* d) {
  CycleState trial = state;
  for (std::size_t i = 0; i < at.size(); ++i) trial.beta[at[i]] += (*d)[i];
  runner.reset(trial);
  const std::vector<double> eta = runner.linearPredictor();
  // Where the likelihood ignores a common shift of eta (Cox, conditional models: their runners
  // keep centred columns, so eta moves by a constant besides X d), half the spread of the
  // move; elsewhere its largest value.
  double low = INFINITY, high = -INFINITY;
  for (std::size_t r = 0; r < eta.size(); ++r) {
    low = std::fmin(low, eta[r] - baseEta[r]);
    high = std::fmax(high, eta[r] - baseEta[r]);
  }
  const double reach = shiftInvariant ? 0.5 * (high - low) : std::fmax(high, -low);
  if (!(reach > 0.0) || !std::isfinite(reach)) return 0.0;
  const double factor = kProbeEta / reach;
  for (double& v : *d) v *= factor;
  return factor;
}

// The coordinates a receding move carries: those moving eta by at least 5% of the largest
// coordinate's move (`share`: each one's move of eta, |d_j| max|x_j|; judged on the correlation
// scale, a rare level that runs off with the others looked small; flagging every coordinate
// that moved named pbc's age, settling beside a factor level without events).
struct Direction {
  std::vector<std::int32_t> at;
  std::vector<double> d;                // per coordinate of `at`, in the columns' units
  std::vector<std::int32_t> flaggedBy;  // the coordinates it flagged: its pin is one of them
};
// What the probes found: the coordinates flagged, those receding alone, and the receding
// combinations (pinsOf() picks the pins from them).
struct Flags {
  std::vector<std::int32_t> flagged, alone;
  std::vector<Direction> combinations;
};

constexpr double kShare = 0.05;

// Flags the coordinates of a receding direction `d` (in the columns' units) whose share is
// at least kShare of the largest, and keeps the direction for pinsOf().
void flagShares(const std::vector<std::int32_t>& at, const std::vector<double>& share,
                const std::vector<double>& d, Flags* flags) {
  double largest = 0.0;
  for (const double v : share) largest = std::fmax(largest, v);
  Direction direction{at, d, {}};
  for (std::size_t i = 0; i < at.size(); ++i)
    if (share[i] >= kShare * largest) direction.flaggedBy.push_back(at[i]);
  flags->flagged.insert(flags->flagged.end(), direction.flaggedBy.begin(), direction.flaggedBy.end());
  flags->combinations.push_back(std::move(direction));
}

void flagMovers(const std::vector<std::int32_t>& at, const std::vector<double>& d,
                const std::vector<double>& maxAbs, Flags* flags) {
  std::vector<double> share(at.size());
  for (std::size_t i = 0; i < at.size(); ++i) share[i] = std::fabs(d[i]) * maxAbs[at[i]];
  flagShares(at, share, d, flags);
}

// One pin per independent direction (recession.h), by elimination: a coordinate receding
// alone pins itself; each combination, less its components along the pins' directions so far,
// pins the coordinate it flagged that moves eta most, or nothing where what is left of its
// flagged coordinates is below kShare of the direction (the recent move along a direction an
// eigenvector found already, give or take a finite coefficient still settling: a pin there
// would hold a finite coefficient in a profile).
std::vector<std::int32_t> pinsOf(const Flags& flags, const std::vector<double>& maxAbs) {
  const std::size_t p = maxAbs.size();
  std::vector<std::int32_t> pins;
  std::vector<std::vector<double>> along;  // each pin's direction, reduced
  for (const std::int32_t j : flags.alone) {
    pins.push_back(j);
    along.emplace_back(p, 0.0);
    along.back()[j] = 1.0;
  }
  for (const Direction& c : flags.combinations) {
    std::vector<double> v(p, 0.0);
    for (std::size_t i = 0; i < c.at.size(); ++i) v[c.at[i]] = c.d[i];
    double before = 0.0;
    for (std::size_t j = 0; j < p; ++j) before = std::fmax(before, std::fabs(v[j]) * maxAbs[j]);
    for (std::size_t k = 0; k < pins.size(); ++k) {
      const double factor = v[pins[k]] / along[k][pins[k]];
      if (factor == 0.0) continue;
      for (std::size_t j = 0; j < p; ++j) v[j] -= factor * along[k][j];
      v[pins[k]] = 0.0;
    }
    std::int32_t pin = -1;
    double largest = kShare * before;
    for (const std::int32_t j : c.flaggedBy)
      if (std::fabs(v[j]) * maxAbs[j] >= largest) {
        largest = std::fabs(v[j]) * maxAbs[j];
        pin = j;
      }
    if (pin < 0) continue;
    pins.push_back(pin);
    along.push_back(std::move(v));
  }
  return pins;
}

// Whether the log-likelihood recedes along +d (returns 1), -d (-1) or neither (0), for a move
// `d` of the coordinates `at` already scaled to move eta by kProbeEta (scaleToReach). Along a
// recession the way on drops nothing (at most 1e-4 of the way back, or rounding) while the
// way back drops (or, deep in a complete separation, nothing moves either way); and so it is
// kFarProbe times as far, where a valley that the fit was still climbing (a correlated,
// uncentred polynomial: the certificate passes per coordinate while the log-likelihood is 1.6
// short) has turned down and drops as the way back does. Judged against the way back, not
// against nothing, since an eigen-direction is the recession's only to rounding of the block
// (birthwt, weight + 700: 7.8e-4 at eta 100, against 8,280 the other way). A valley at its
// maximum drops alike both ways. Four resets.
int recedesAlong(CycleRunner& runner, const CycleState& state, const std::vector<std::int32_t>& at,
                 const std::vector<double>& d, double logLikelihood) {
  constexpr double kFarProbe = 10.0;
  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  CycleState trial = state;
  auto dropAt = [&](double t) {
    trial.beta = state.beta;
    for (std::size_t i = 0; i < at.size(); ++i) trial.beta[at[i]] += t * d[i];
    const double value = runner.reset(trial).logLikelihood;
    return std::isfinite(value) ? logLikelihood - value : INFINITY;
  };
  const double drop[2] = {dropAt(1.0), dropAt(-1.0)};
  for (int side = 0; side < 2; ++side) {
    const double onward = drop[side], back = drop[1 - side];
    const double allowed = std::fmax(kShareOfPredictedDrop * back, rounding);
    // (a log-likelihood that is not finite there, exp(eta) overflowed, is a drop, and no
    // measure of the way back)
    if (!(std::isfinite(onward) && std::isfinite(back) && onward <= allowed)) continue;
    const double sign = side == 0 ? 1.0 : -1.0;
    const double farOnward = dropAt(sign * kFarProbe), farBack = dropAt(-sign * kFarProbe);
    const bool stillFlat = std::isfinite(farOnward) && std::isfinite(farBack) &&
                           farOnward <= std::fmax(kShareOfPredictedDrop * farBack, rounding);
    return stillFlat ? (side == 0 ? 1 : -1) : 0;
  }
  return 0;
}

// The far coordinates' information block, -H_FF (positive semi-definite), by forward
// differences of the analytic gradient (|F| + 1 resets): the step moves eta by at most 1e-5
// per row, so the entries are good to ~1e-5 relative, far inside what the eigenvalue gate
// below tells apart (kFlat; a borderline direction only costs a probe that clears it).
// In the basis of `basis` (coordinate i moves beta_far[i] and the intercept by -shift[i]).
std::vector<double> farInformation(CycleRunner& runner, const CycleState& state,
                                   const std::vector<std::int32_t>& far, const ProbeBasis& basis) {
  const std::size_t k = far.size();
  auto gradients = [&](std::vector<double>* g) {
    const double g0 = basis.intercept >= 0 ? runner.gradHess(basis.intercept).g : 0.0;
    for (std::size_t i = 0; i < k; ++i) (*g)[i] = runner.gradHess(far[i]).g - basis.shift[i] * g0;
  };
  std::vector<double> info(k * k, 0.0), base(k), moved(k);
  runner.reset(state);
  gradients(&base);
  CycleState trial = state;
  for (std::size_t c = 0; c < k; ++c) {
    const double step = 1e-5 / basis.reach[c];
    trial.beta = state.beta;
    trial.beta[far[c]] += step;
    if (basis.shift[c] != 0.0) trial.beta[basis.intercept] -= basis.shift[c] * step;
    runner.reset(trial);
    gradients(&moved);
    for (std::size_t i = 0; i < k; ++i) info[i * k + c] = -(moved[i] - base[i]) / step;
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = i + 1; c < k; ++c)
      info[i * k + c] = info[c * k + i] = 0.5 * (info[i * k + c] + info[c * k + i]);
  return info;
}

// Recession along a combination of the far coordinates (x1 - x2 separating; the reference
// level of a factor without events: the intercept to -inf, every other level to +inf). Along
// such a direction the curvature vanishes while each coordinate's own does not, so it is an
// eigenvector of the far block's information on the correlation scale (D^-1/2 I D^-1/2, D its
// diagonal) with a tiny eigenvalue. Each eigenvector with eigenvalue below kFlat (at most
// kMaxDirections, smallest first) is scaled to move eta by kProbeEta and probed by
// recedesAlong() (a valley of correlated coefficients at a finite maximum, an intercept beside
// an uncentred calendar year, is flat too and drops alike both ways); flagMovers() names the
// coordinates it carries, not a finite coefficient beside them (age beside a factor whose
// reference level has no events).
//
// Probes nothing where the block cannot be trusted: an entry not finite, or a diagonal entry
// more than 10% off the coordinate's analytic curvature (`curvature`). Where every row is
// saturated (complete separation, eta of 25 and more), a step of 1e-5 in eta moves the
// gradient by less than its rounding, and the differences are noise.
void probeFlatDirections(CycleRunner& runner, const CycleState& state,
                         const std::vector<std::int32_t>& far, const std::vector<double>& curvature,
                         const std::vector<double>& baseEta, bool shiftInvariant,
                         double logLikelihood, const ProbeBasis& basis, Flags* flags) {
  constexpr double kFlat = 1e-3;
  constexpr std::size_t kMaxDirections = 8;
  constexpr double kDiagonalAgreement = 0.1;
  const std::size_t k = far.size();
  const std::vector<double> info = farInformation(runner, state, far, basis);
  for (const double v : info)
    if (!std::isfinite(v)) return;
  std::vector<double> scale(k), correlation(k * k);
  for (std::size_t i = 0; i < k; ++i) {
    const double diagonal = info[i * k + i], analytic = curvature[far[i]];
    if (!(diagonal > 0.0)) return;
    // (a centred coordinate has no analytic curvature of its own to compare with)
    if (basis.shift[i] == 0.0 && !(std::fabs(diagonal - analytic) <= kDiagonalAgreement * analytic)) return;
    scale[i] = 1.0 / std::sqrt(diagonal);
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t c = 0; c < k; ++c) correlation[i * k + c] = info[i * k + c] * scale[i] * scale[c];
  const SymmetricEigen eigen = symmetricEigen(correlation, k);
  for (std::size_t e = 0; e < std::min(k, kMaxDirections) && eigen.values[e] < kFlat; ++e) {
    std::vector<double> d(k), share(k);
    double reach = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      d[i] = eigen.vectors[i * k + e] * scale[i];
      share[i] = std::fabs(d[i]) * basis.reach[i];  // its move of eta, in the probe's basis
      reach += share[i];
    }
    if (!(reach > 0.0) || !std::isfinite(reach)) continue;
    for (std::size_t i = 0; i < k; ++i) d[i] *= kProbeEta / reach;
    basis.toColumns(far, &d);
    if (!(scaleToReach(runner, state, baseEta, shiftInvariant, far, &d) > 0.0)) continue;
    if (recedesAlong(runner, state, far, d, logLikelihood) == 0) continue;
    flagShares(far, share, d, flags);
  }
}

// The combination along the fit's recent move (beta minus beta 8 to 16 cycles before; the
// finite coefficients have settled by then), scaled to move eta by kProbeEta, probed by
// recedesAlong() either way; the coordinates it carries are flagged (flagMovers).
void probeRecentMove(CycleRunner& runner, const CycleState& state, const std::vector<std::int32_t>& far,
                     const std::vector<double>& maxAbs, const std::vector<double>& recentMove,
                     const std::vector<double>& baseEta, bool shiftInvariant, double logLikelihood,
                     Flags* flags) {
  double reach = 0.0;  // an upper bound of max_r |sum_j x_rj move_j|
  for (const std::int32_t j : far) reach += std::fabs(recentMove[j]) * maxAbs[j];
  if (!(reach > 0.0)) return;
  std::vector<double> d(far.size());
  for (std::size_t i = 0; i < far.size(); ++i) d[i] = recentMove[far[i]] * (kProbeEta / reach);
  if (!(scaleToReach(runner, state, baseEta, shiftInvariant, far, &d) > 0.0)) return;
  // either way: the move's sign says where the fit went, not where the supremum lies
  if (recedesAlong(runner, state, far, d, logLikelihood) == 0) return;
  flagMovers(far, d, maxAbs, flags);
}

// The far coordinates, farthest first (in eta), at most kMaxProbes: each costs a reset, and
// more (a factor with hundreds of levels without events) keep the farthest. 20 once left six
// of Boston's 26 such levels unnamed.
std::vector<std::int32_t> farCoordinates(const CycleState& state, const std::vector<double>& maxAbs) {
  constexpr std::size_t kMaxProbes = 200;
  std::vector<std::int32_t> far;
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) far.push_back(static_cast<std::int32_t>(j));
  std::sort(far.begin(), far.end(), [&](std::int32_t a, std::int32_t b) {
    return std::fabs(state.beta[a]) * maxAbs[a] > std::fabs(state.beta[b]) * maxAbs[b];
  });
  if (far.size() > kMaxProbes) far.resize(kMaxProbes);
  return far;
}

// Each far coordinate moved kProbeEta further out on its own: flagged (alone) where the
// log-likelihood drops by less than its curvature predicts allows (`rounding` at least).
void probeEachAlone(CycleRunner& runner, const CycleState& state, const std::vector<std::int32_t>& far,
                    const std::vector<double>& maxAbs, const std::vector<double>& curvature,
                    double logLikelihood, double rounding, Flags* flags) {
  CycleState trial = state;
  for (const std::int32_t j : far) {
    const double t = std::copysign(kProbeEta / maxAbs[j], state.beta[j]);
    trial.beta = state.beta;
    trial.beta[j] += t;
    const double value = runner.reset(trial).logLikelihood;
    const double allowed = std::fmax(kShareOfPredictedDrop * (0.5 * curvature[j] * t * t), rounding);
    if (!(std::isfinite(value) && value >= logLikelihood - allowed)) continue;
    flags->flagged.push_back(j);
    flags->alone.push_back(j);
  }
}

}  // namespace

bool hasFarCoefficient(const CycleState& state, const std::vector<double>& maxAbs) {
  for (std::size_t j = 0; j < state.beta.size(); ++j)
    if (isFar(state, maxAbs, j)) return true;
  return false;
}

std::vector<std::int32_t> findRecession(CycleRunner& runner, const CycleState& state,
                                        const std::vector<double>& maxAbs,
                                        const std::vector<double>& recentMove,
                                        std::int32_t intercept, bool shiftInvariant,
                                        const DesignView* design, std::vector<std::int32_t>* pinned) {
  std::vector<std::int32_t> far = farCoordinates(state, maxAbs);
  if (far.empty()) return {};
  // The baseline from a reset, as each probe's value: the fit's own final readout is rebuilt
  // from its running state (eta, or the conditional models' u), which differs from X beta by
  // the rounding of the fit's updates, so only two resets compare within the rounding
  // allowance below.
  const double logLikelihood = runner.reset(state).logLikelihood;
  const std::vector<double> baseEta = runner.linearPredictor();

  const double rounding = 1e-13 * (1.0 + std::fabs(logLikelihood));
  // The runner stands at state.beta: each far coordinate's curvature there.
  std::vector<double> curvature(state.beta.size(), 0.0);
  for (const std::int32_t j : far) curvature[j] = std::fabs(runner.gradHess(j).h);
  const bool joinsIntercept = intercept >= 0 && !state.fixed[intercept] &&
                              state.prior[intercept].kind == PriorKind::None && maxAbs[intercept] > 0.0 &&
                              std::find(far.begin(), far.end(), intercept) == far.end();
  if (joinsIntercept) curvature[intercept] = std::fabs(runner.gradHess(intercept).h);
  Flags flags;
  probeEachAlone(runner, state, far, maxAbs, curvature, logLikelihood, rounding, &flags);
  const std::vector<std::int32_t>& flagged = flags.flagged;
  // Combinations among the far coordinates no single probe flagged: the flat eigen-directions
  // of their block (a coordinate receding alone once hid a factor's levels receding together:
  // birthwt's race beside a lone ftv level); and the fit's recent move over all far
  // coordinates (a block of saturated rows is rounding noise, and under complete separation
  // one coordinate of x1 - x2 may pass alone while the other, at -3977, does not).
  std::vector<std::int32_t> rest;
  for (const std::int32_t j : far)
    if (std::find(flagged.begin(), flagged.end(), j) == flagged.end()) rest.push_back(j);
  if (joinsIntercept) {
    far.push_back(intercept);
    rest.push_back(intercept);
  }
  if (far.size() >= 2 && !rest.empty()) {
    if (rest.size() >= 2) {
      const ProbeBasis basis(design, rest, maxAbs, intercept, shiftInvariant);
      probeFlatDirections(runner, state, rest, curvature, baseEta, shiftInvariant, logLikelihood, basis,
                          &flags);
    }
    probeRecentMove(runner, state, far, maxAbs, recentMove, baseEta, shiftInvariant, logLikelihood, &flags);
  }
  runner.reset(state);
  auto sorted = [](std::vector<std::int32_t> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  if (pinned) *pinned = sorted(pinsOf(flags, maxAbs));
  return sorted(flags.flagged);
}

}  // namespace argus
