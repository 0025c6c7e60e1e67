// The majorized start's steps on the host (solver/bound_steps.h): the runner's row scores
// copied out, one Gauss-Seidel sweep of coordinate steps on the bound per step
// (models/separable_bound.h), and trials through CycleRunner::resetToEta. The shape the CPU
// runner uses, and any runner that offers row scores but no steps of its own.
//
// A sweep's coordinate step costs O(nnz_j): the gradient sums x (t_r - c_r alpha_s(r)) with
// t = score - c (X delta), the curvature sum c x^2 less, per stratum, (sum c x)^2 / C_s
// (alpha re-maximized with the coordinate), and a step updates t on the column's rows and
// alpha on its strata. Threads split the steps of columns with more than pieceEntries entries
// into up to 4 pieces fixed by the column, combined in piece order: results depend on the
// pieces, never on the threads.
#pragma once

#include <memory>

#include "data/dataset.h"
#include "solver/bound_steps.h"
#include "solver/cycle_runner.h"
#include "solver/majorized_start.h"

namespace argus {

std::unique_ptr<BoundSteps> makeHostBoundSteps(CycleRunner& runner, const Dataset& data,
                                               const MajorizedStartOptions& options);

}  // namespace argus
