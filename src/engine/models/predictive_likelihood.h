// The log-likelihood of the data under another weight vector, at a given beta: the
// held-out ("predictive") log-likelihood of cross-validation, where the fold fit used the
// training weights and the score uses the held-out ones.
//
// It builds a fresh likelihood through makeLikelihood(), so it works for every model type,
// present and future, with no per-model code; the cost is one O(N + nnz) reset. A device
// runner may later offer a batched version over all folds at once.
#pragma once

#include <vector>

#include "data/dataset.h"

namespace argus {

double predictiveLogLikelihood(const Dataset& data, const double* heldOutWeights,
                               const std::vector<double>& beta);

}  // namespace argus
