#include "device/auto_device.h"

#include "device/cuda_device.h"
#include "device/device_memory.h"

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

}  // namespace

bool autoPrefersCuda(const Dataset& data) {
  if (!deviceSupportsModel(data)) return false;
  std::int64_t entries = 0;
  for (const ColumnView& c : data.design.columns) entries += c.nnz;
  switch (data.model) {
    case ModelType::SelfControlledCaseSeries:
    case ModelType::ConditionalPoisson:
      return entries >= kAutoConditionalEntries;
    case ModelType::LeastSquares:
    case ModelType::Logistic:
    case ModelType::Poisson:
      return entries >= kAutoLargeEntries;
    case ModelType::ConditionalLogistic:
      // timed with exact ties only (auto_device.h)
      return data.ties == TieMethod::Exact && entries >= kAutoConditionalLogisticEntries;
    case ModelType::Cox:
      // Counting-process data: slower on the GPU at the one size timed (auto_device.h).
      return data.outcomes.startTime == nullptr && entries >= kAutoCoxEntries &&
             mostlyDistinctEventTimes(data);
    default:
      return false;
  }
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
