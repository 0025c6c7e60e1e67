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
// subgroup with weights of 1e-7 and one event is not mistaken for a separated one. Recession
// along a combination of coefficients (x1 - x2 separating; a factor whose reference level has
// no events) shows where no single coefficient does: the far coefficients' information block,
// on the correlation scale, has an eigenvector with a tiny eigenvalue, probed both ways
// (recession.cpp, probeFlatDirections: a recession costs nothing one way and much the other;
// a valley of correlated coefficients at a finite maximum, an intercept beside an uncentred
// year, drops alike both ways). Where every row is saturated (complete separation) that block,
// from differences of the gradient, is rounding noise; the combination is then probed along
// the fit's recent move (beta minus beta 8 to 16 cycles earlier). Coordinates without any
// information (no curvature) were
// set aside before the fit (CycleRunner::aliasedColumns), so a flat likelihood here means
// recession, not indifference. Cost: one reset per probe, for the few far coefficients only,
// and where two or more are far and none alone recedes, one reset per far coefficient for the
// block (plus one) and 2 per flat direction.
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
std::vector<std::int32_t> findRecession(CycleRunner& runner, const CycleState& state,
                                        const std::vector<double>& maxAbs,
                                        const std::vector<double>& recentMove);

}  // namespace argus
