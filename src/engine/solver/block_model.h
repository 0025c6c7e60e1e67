// The block Newton step's model, solved exactly (solver/block_newton.h): the log posterior of
// the block's coordinates replaced by its second-order expansion in the likelihood and the
// smooth priors, with the Laplace terms kept exact,
//     q(d) = c'd - d'Md/2 - sum_j lambda_j (|beta_j + d_j| - |beta_j|),
// c the gradient (likelihood and smooth priors), M minus the Hessian (positive
// semi-definite), lambda_j the Laplace rate (0 for a smooth coordinate).
//
// Why exactly: a Newton step that keeps each Laplace coordinate's sign and is cut where the
// first one reaches 0 stalls when many coordinates sit near 0 (25 correlated columns with
// mean 50: 1,000 cycles without reaching the optimum); solving the penalized model makes the
// block step a proximal Newton step, whose convergence is as fast as Newton's.
//
// The method is a primal active set with signs (k is at most 32, so each step is a small
// Cholesky): the active coordinates are the smooth ones, the nonzero Laplace ones and the
// Laplace zeros whose model gradient exceeds lambda; with their signs fixed the model is
// smooth and its maximizer over them solves one linear system. If a Laplace coordinate would
// change sign, the step stops where the first one reaches 0, which leaves the active set;
// otherwise the most violating Laplace zero joins. The model value rises at every step and
// the (active set, signs) pairs cannot repeat, so it ends; kMaxRounds bounds it anyway.
// Singular directions (aliased columns) do not move (dense_block.h).
#pragma once

#include <vector>

namespace argus {

struct BlockModel {
  std::vector<double> m;       // row-major k x k, positive semi-definite
  std::vector<double> c;       // k
  std::vector<double> beta;    // the current coefficients, k
  std::vector<double> lambda;  // k; 0 where the coordinate's prior is smooth
};

// The maximizer d of q (a move of the coefficients), and its model gain q(d) - q(0) >= 0.
struct BlockModelSolution {
  std::vector<double> delta;
  double gain = 0.0;
  double linearGain = 0.0;  // c'd - sum lambda (|beta + d| - |beta|): q's first-order part
};

BlockModelSolution solveBlockModel(const BlockModel& model, double aliasTolerance);

}  // namespace argus
