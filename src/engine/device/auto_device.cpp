#include "device/auto_device.h"

#include <limits>

#include "common/model_type.h"
#include "device/cuda_device.h"

namespace argus {

namespace {

// Whether at least half the events have an event time of their own within their stratum (rows
// are sorted by stratum, then time descending), as with continuous times.
bool mostlyDistinctEventTimes(const Dataset& data) {
  const OutcomeView& o = data.outcomes;
  std::int64_t events = 0, distinct = 0;
  for (std::int32_t s = 0; s < o.nStrata; ++s) {
    bool any = false;
    double last = 0.0;
    for (std::int64_t r = o.stratumStart[s]; r < o.stratumStart[s + 1]; ++r) {
      if (o.y[r] != 1.0) continue;
      ++events;
      if (!any || o.time[r] != last) ++distinct;
      any = true;
      last = o.time[r];
    }
  }
  return events > 0 && static_cast<double>(distinct) >= kAutoDistinctEventShare * static_cast<double>(events);
}

// clr: timed with exact ties only. Cox: (start, stop] data were slower on the GPU at the
// one size timed, and tied (whole-day) times too.
bool exactTies(const Dataset& data) { return data.ties == TieMethod::Exact; }
bool rightCensoredDistinctTimes(const Dataset& data) {
  return data.outcomes.startTime == nullptr && mostlyDistinctEventTimes(data);
}

// The rule per model type (auto_device.h): from how many stored design entries the GPU takes
// the fit, and what else the data must be (null: nothing). The model registry's table for
// the rule, one row per type in the order of common/model_type.h.
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
struct AutoRule {
  ModelType type;
  std::int64_t fromEntries;
  bool (*alsoNeeds)(const Dataset&);
};
constexpr AutoRule kAutoRules[] = {
    {ModelType::LeastSquares, kAutoLargeEntries, nullptr},
    {ModelType::Logistic, kAutoLargeEntries, nullptr},
    {ModelType::Poisson, kAutoLargeEntries, nullptr},
    {ModelType::ConditionalLogistic, kAutoConditionalLogisticEntries, exactTies},
    {ModelType::ConditionalPoisson, kAutoConditionalEntries, nullptr},
    {ModelType::SelfControlledCaseSeries, kAutoConditionalEntries, nullptr},
    {ModelType::Cox, kAutoCoxEntries, rightCensoredDistinctTimes},
    {ModelType::FineGray, kNever, nullptr},
};
static_assert(coversEveryModelType(kAutoRules), "kAutoRules: one row per model type, in order");

}  // namespace

bool autoPrefersCuda(const Dataset& data) {
  const AutoRule& rule = kAutoRules[modelIndex(data.model)];
  if (rule.fromEntries == kNever) return false;
  std::int64_t entries = 0;
  for (const ColumnView& c : data.design.columns) entries += c.nnz;
  return entries >= rule.fromEntries && (!rule.alsoNeeds || rule.alsoNeeds(data));
}

ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data) {
  if (device.kind != ComputeDevice::Kind::Auto) return device;
  ComputeDevice out;
  out.automatic = true;
  if (kCudaRunnerValidated && builtWithCuda() && autoPrefersCuda(data) && cudaDeviceCount() > 0)
    out.kind = ComputeDevice::Kind::Cuda;
  return out;
}

}  // namespace argus
