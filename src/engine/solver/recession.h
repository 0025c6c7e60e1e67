// Coefficients without a finite maximum-likelihood estimate: separation in lr, all-zero
// counts in pr, an arm without events in cox, a single row... The log-likelihood then keeps
// rising towards a supremum as some coefficients run off to infinity (a direction of
// recession), CCD creeps after it, and the gradient becomes tiny long before the coefficients
// stop: by the optimality check alone such a fit looks converged.
//
// The test (after the fit): a flat-prior coefficient whose term x_j beta_j already moves the
// linear predictor by kFarEta or more is moved kProbeEta further in the same direction
// (beta_j + sign(beta_j) kProbeEta / max|x_j|). At a finite maximum, moving the linear
// predictor of the column's rows by 10 costs log-likelihood, a lot of it; along a direction of
// recession it costs nothing (or gains). So the coefficient is flagged when the log-likelihood
// drops by less than 1e-4 of what its own curvature predicts for the move (h_j t^2 / 2; along a
// direction of recession the curvature has vanished), or by no more than rounding. Measuring
// the drop against the coefficient's own curvature keeps the test free of the data's scale: a
// subgroup with weights of 1e-7 and one event is not mistaken for a separated one.
//
// Recession along a combination of coefficients (x1 - x2 separating; a factor whose reference
// level has no events) shows where no single coefficient does. Among the far coefficients no
// single probe flagged, the information block (gradient differences) on the correlation scale
// has eigenvectors with tiny eigenvalues; each (up to 8), and the fit's recent move (beta
// minus beta 8 to 16 cycles earlier), is scaled to move eta by kProbeEta as X d says (the
// bound sum |d_j| max|x_j| overstates it by orders of magnitude for raw polynomials) and
// probed both ways: a recession drops nothing one way (at most 1e-4 of the other way, or
// rounding), and still nothing 10 times as far, where a valley that the fit was still climbing
// has turned down; a valley at its maximum drops alike both ways. The coordinates that move
// eta by at least 5% of the largest move are flagged. Coordinates without any information (no
// curvature) were set aside before the fit (CycleRunner::aliasedColumns), so a flat likelihood
// here means recession, not indifference. Cost: one reset per far coefficient (at most 200),
// and with two or more, one per coefficient of the block and four per direction probed.
//
// Pins: one flagged coordinate per direction of recession found (a coordinate receding alone
// is its own; a combination's is the coordinate that moves eta most, not already a pin). A
// profile holds only the pins where the fit left them: that stops every receding direction
// while finite combinations of the flagged coordinates stay free (a factor whose reference
// level has no events: the intercept and every other level run off together, and their sums,
// the other levels' rates, are finite; holding all of them fixed froze those rates, and a
// covariate's profile interval beside them came out too narrow).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/cycle_runner.h"

namespace argus {

constexpr double kFarEta = 5.0;
constexpr double kProbeEta = 10.0;

// Whether some free flat-prior coefficient moves the linear predictor by kFarEta or more: the
// only ones findRecession() probes.
bool hasFarCoefficient(const CycleState& state, const std::vector<double>& maxAbs);

// `maxAbs`: per column, the largest |x| (columnMaxAbs); `recentMove`: beta minus beta some
// cycles before. The runner stands at state.beta. Where there is something to probe, the
// log-likelihood there is taken from a reset() (X beta), as each probe takes its own, and the
// runner is left reset at state.beta; otherwise the runner is not touched.
// `shiftInvariant`: the likelihood ignores a common shift of eta (Cox, Fine-Gray, the
// conditional models). `intercept`: its column, or -1. A free flat-prior intercept joins the combinations even
// where it is not far: an uncentred covariate beside it takes up its value (birthwt's race
// with no events among whites and weight + 700: intercept -1.4, x -0.015), and the direction
// of recession that needs it went unseen. `design` (optional): there, beside the intercept, a
// dense column with a large mean is probed centred (see ProbeBasis in recession.cpp).
// `pinned` (optional): the pins (above), ascending.
std::vector<std::int32_t> findRecession(CycleRunner& runner, const CycleState& state,
                                        const std::vector<double>& maxAbs,
                                        const std::vector<double>& recentMove,
                                        std::int32_t intercept = -1, bool shiftInvariant = false,
                                        const DesignView* design = nullptr,
                                        std::vector<std::int32_t>* pinned = nullptr);

}  // namespace argus
