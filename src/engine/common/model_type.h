// The model types: the one list of them, and what each is (its capabilities), which is all
// the rest of the engine branches on. The model registry is this table plus one table per
// layer keyed by model type: each type's likelihood (models/likelihood_registry.cpp), its
// device model (device/device_model_registry.h) and its "auto" device rule
// (device/auto_device.cpp). Each is checked at compile time to cover this list, in order
// (coversEveryModelType), so adding a model is an enumerator and a row here, a row in each of
// those tables, and the model's own files.
#pragma once

#include <cstddef>
#include <string>

namespace argus {

enum class ModelType {
  LeastSquares,              // "ls"
  Logistic,                  // "lr"
  Poisson,                   // "pr"
  ConditionalLogistic,       // "clr"
  ConditionalPoisson,        // "cpr"
  SelfControlledCaseSeries,  // "sccs"
  Cox,                       // "cox"
  FineGray,                  // "fgr" (the last: kModelTypeCount counts up to it)
};

// How a model's likelihood is built: from independent rows (the GLMs), over strata that
// carry their own baseline, profiled out (conditional models), or over risk sets at event
// times (survival models: rows sorted by stratum, then time descending; `time` is an event
// or censoring time; y codes 0 = censored, 1 = event, and 2 = competing event for fgr).
enum class ModelFamily { Glm, Conditional, Survival };

struct ModelTraits {
  ModelType type;
  const char* name;     // as R's modelType
  ModelFamily family;
  bool exposureTime;    // `time` is an exposure length that enters as a log offset (MODELS.md §1)
  bool binaryOutcome;   // y must be 0 or 1
  bool countOutcome;    // y must be a non-negative count
  // Coefficients may have no finite estimate (separation; solver/recession.h). Not least
  // squares: its log-likelihood is quadratic, its flat directions are aliased before the fit.
  bool canRecede;
};

inline constexpr ModelTraits kModelTraits[] = {
    // type                          name    family                    exposure binary count  recede
    {ModelType::LeastSquares,             "ls",   ModelFamily::Glm,         false,   false, false, false},
    {ModelType::Logistic,                 "lr",   ModelFamily::Glm,         false,   true,  false, true},
    {ModelType::Poisson,                  "pr",   ModelFamily::Glm,         true,    false, true,  true},
    {ModelType::ConditionalLogistic,      "clr",  ModelFamily::Conditional, false,   true,  false, true},
    {ModelType::ConditionalPoisson,       "cpr",  ModelFamily::Conditional, true,    false, true,  true},
    {ModelType::SelfControlledCaseSeries, "sccs", ModelFamily::Conditional, true,    false, true,  true},
    {ModelType::Cox,                      "cox",  ModelFamily::Survival,    false,   true,  false, true},
    {ModelType::FineGray,                 "fgr",  ModelFamily::Survival,    false,   false, false, true},
};
inline constexpr std::size_t kModelTypeCount = sizeof(kModelTraits) / sizeof(kModelTraits[0]);

// Whether `table` (an array of entries with a `type`) holds one entry per model type, in the
// order of the enumeration, so that table[modelIndex(t)] is t's entry. Every table keyed by
// model type static_asserts it.
template <typename Entry, std::size_t N>
constexpr bool coversEveryModelType(const Entry (&table)[N]) {
  if (N != kModelTypeCount) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(table[i].type) != i) return false;
  return true;
}
static_assert(coversEveryModelType(kModelTraits), "kModelTraits: one row per model type, in order");
static_assert(static_cast<std::size_t>(ModelType::FineGray) + 1 == kModelTypeCount,
              "kModelTraits: a row for every enumerator of ModelType");

// The position of `type` in every table keyed by model type; an ArgusError for a value
// outside the enumeration.
[[noreturn]] void throwUnknownModelType(std::size_t index);
inline std::size_t modelIndex(ModelType type) {
  const auto index = static_cast<std::size_t>(type);
  if (index >= kModelTypeCount) throwUnknownModelType(index);
  return index;
}
inline const ModelTraits& modelTraits(ModelType type) { return kModelTraits[modelIndex(type)]; }

ModelType parseModelType(const std::string& name);  // throws on an unknown name
std::string modelTypeName(ModelType type);          // "unknown" outside the enumeration

// Strata carry their own baseline (profiled out): rows are grouped by stratum.
inline bool isConditional(ModelType type) { return modelTraits(type).family == ModelFamily::Conditional; }
// Risk sets over event times (ModelFamily::Survival).
inline bool isSurvival(ModelType type) { return modelTraits(type).family == ModelFamily::Survival; }
// Strata, if any, carry their own baseline: no intercept, rows grouped by stratum.
inline bool hasStratumBaseline(ModelType type) { return modelTraits(type).family != ModelFamily::Glm; }
inline bool usesExposureTime(ModelType type) { return modelTraits(type).exposureTime; }
inline bool requiresBinaryOutcome(ModelType type) { return modelTraits(type).binaryOutcome; }
inline bool requiresCountOutcome(ModelType type) { return modelTraits(type).countOutcome; }

}  // namespace argus
