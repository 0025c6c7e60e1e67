// The log-likelihood of the data under another weight vector, at a given beta: the
// held-out ("predictive") log-likelihood of cross-validation, where the fold fit used the
// training weights and the score uses the held-out ones.
//
// It builds a fresh likelihood through makeLikelihood(), so it works for every model type,
// present and future, with no per-model code. From beta the cost is one O(N + nnz) reset;
// from eta (a fold fit's FitResult::eta, the same numbers) it is O(N): the likelihoods
// compute their beta-independent column terms only when a gradient asks for them
// (column_linear_terms.h). A device runner may later offer a batched version over all folds.
#pragma once

#include <vector>

#include "data/dataset.h"

namespace argus {

double predictiveLogLikelihood(const Dataset& data, const double* heldOutWeights,
                               const std::vector<double>& beta);
double predictiveLogLikelihoodAtEta(const Dataset& data, const double* heldOutWeights,
                                    const std::vector<double>& eta);

}  // namespace argus
