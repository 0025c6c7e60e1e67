#include "models/predictive_likelihood.h"

#include "models/likelihood.h"

namespace argus {

double predictiveLogLikelihood(const Dataset& data, const double* heldOutWeights,
                               const std::vector<double>& beta) {
  std::unique_ptr<Likelihood> likelihood = makeLikelihood(data, heldOutWeights);
  likelihood->reset(beta);
  return likelihood->logLikelihood();
}

double predictiveLogLikelihoodAtEta(const Dataset& data, const double* heldOutWeights,
                                    const std::vector<double>& eta) {
  std::unique_ptr<Likelihood> likelihood = makeLikelihood(data, heldOutWeights);
  likelihood->setEta(eta);
  return likelihood->logLikelihood();
}

}  // namespace argus
