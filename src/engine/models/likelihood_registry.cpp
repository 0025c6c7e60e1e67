// The model registry's models-level table: each model type's likelihood on the CPU, one row
// per type in the order of common/model_type.h (checked at compile time).
#include <memory>

#include "common/model_type.h"
#include "models/conditional_likelihood.h"
#include "models/glm_likelihood.h"
#include "models/likelihood.h"
#include "models/survival_likelihood.h"

namespace argus {

namespace {

using LikelihoodFactory = std::unique_ptr<Likelihood> (*)(const Dataset&, const double*);

template <typename Model>
std::unique_ptr<Likelihood> make(const Dataset& data, const double* weights) {
  return std::make_unique<Model>(data, weights);
}

struct LikelihoodEntry {
  ModelType type;
  LikelihoodFactory make;
};

constexpr LikelihoodEntry kLikelihoods[] = {
    {ModelType::LeastSquares, &make<GlmLikelihood<LeastSquaresRow>>},
    {ModelType::Logistic, &make<GlmLikelihood<LogisticRow>>},
    {ModelType::Poisson, &make<GlmLikelihood<PoissonRow>>},
    {ModelType::ConditionalLogistic, &make<ConditionalLikelihood>},
    {ModelType::ConditionalPoisson, &make<ConditionalLikelihood>},
    {ModelType::SelfControlledCaseSeries, &make<ConditionalLikelihood>},
    {ModelType::Cox, &make<SurvivalLikelihood>},
    {ModelType::FineGray, &make<SurvivalLikelihood>},
};
static_assert(coversEveryModelType(kLikelihoods), "kLikelihoods: one row per model type, in order");

}  // namespace

std::unique_ptr<Likelihood> makeLikelihood(const Dataset& data, const double* weights) {
  return kLikelihoods[modelIndex(data.model)].make(data, weights);
}

}  // namespace argus
