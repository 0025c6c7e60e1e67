#include <string>

#include "common/errors.h"
#include "device/compute_device.h"
#include "device/emulated_device.h"
#include "solver/likelihood_cycle_runner.h"

namespace argus {

ComputeDevice parseComputeDevice(const std::string& name) {
  ComputeDevice device;
  if (name == "cpu") return device;
  if (name == "auto") {
    device.kind = ComputeDevice::Kind::Auto;
    return device;
  }
  if (name == "emulated") {
    device.kind = ComputeDevice::Kind::Emulated;
    return device;
  }
  if (name == "cuda" || name.rfind("cuda:", 0) == 0) {
    device.kind = ComputeDevice::Kind::Cuda;
    if (name != "cuda") {
      const std::string digits = name.substr(5);
      ARGUS_REQUIRE(!digits.empty() && digits.size() <= 6 &&
                  digits.find_first_not_of("0123456789") == std::string::npos,
              "device '" + name + "' is not of the form cuda:N");
      device.index = std::stoi(digits);
    }
    return device;
  }
  throw ArgusError("unknown device '" + name + "'; expected cpu, cuda, cuda:N, emulated or auto");
}

std::string computeDeviceName(const ComputeDevice& device) {
  if (device.kind == ComputeDevice::Kind::Cpu) return "cpu";
  if (device.kind == ComputeDevice::Kind::Emulated) return "emulated";
  if (device.kind == ComputeDevice::Kind::Auto) return "auto";
  return "cuda:" + std::to_string(device.index);
}

bool deviceSupportsModel(const Dataset& data) {
  switch (data.model) {
    case ModelType::LeastSquares:
    case ModelType::Logistic:
    case ModelType::Poisson:
    case ModelType::ConditionalPoisson:
    case ModelType::SelfControlledCaseSeries:
    case ModelType::ConditionalLogistic:
    case ModelType::Cox:
    case ModelType::FineGray:
      return true;
    default:
      return false;
  }
}

double deviceBytesNeeded(const Dataset& data) {
  const double n = static_cast<double>(data.nRows());
  const double p = static_cast<double>(data.design.nColumns());
  double entries = 0.0, values = 0.0, visits = 0.0;
  for (const ColumnView& c : data.design.columns) {
    const bool stored = c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse;
    if (stored) entries += static_cast<double>(c.nnz);
    if (c.kind == ColumnKind::Sparse || c.kind == ColumnKind::Dense) values += static_cast<double>(c.nnz);
    visits += stored ? static_cast<double>(c.nnz) : n;  // a run starts at most once per entry
  }
  // The design, beta / bound / prior (8 + 8 + 16 bytes each), 4 KiB of device scalars and
  // room for CUB's scratch.
  double bytes = 4.0 * entries + 8.0 * values + 32.0 * p + 4096.0 + 64.0 * 1048576.0;
  const double strata = static_cast<double>(data.outcomes.nStrata);
  if (data.model == ModelType::Cox || data.model == ModelType::FineGray) {
    // Rows: 8 doubles, the event flag, the exit slot, the stratum, a competing item (16 bytes),
    // an exit run (12) and a staged entry (32); slots (at most one per row and stratum): 12
    // doubles, the event terms (40), stratum, base flag and a tied-slot entry (4); chunks of
    // at least 16 entries: their starts (8) and at most one crossing group per cut (24), and
    // for one column's (at most N / 16) a step's two pieces (slot, share and their sum by
    // slot: 2 x 52; the chunks' partial sums are folded as they are scanned, in CUB's scratch).
    const double slots = n + strata;
    const double chunks = (visits + n) / 16.0 + p + 1.0;
    bytes += (8.0 * 8.0 + 1.0 + 4.0 + 4.0 + 16.0 + 12.0 + 32.0) * n +
             (12.0 * 8.0 + 40.0 + 4.0 + 1.0 + 4.0) * slots + (8.0 + 24.0) * chunks + 8.0 * (p + 1.0) +
             104.0 * (n / 16.0 + 1.0) + 32.0 * strata;
    // Counting-process data: up to two items per entry (exit and entry, 8 bytes each) and
    // their chunks, a second staged entry per row, the moved entries (32), the entry slot and
    // the rows by entry slot (4 + 4 + 8).
    if (data.outcomes.startTime)
      bytes += 16.0 * (visits + n) + (8.0 + 24.0) * chunks + (32.0 + 32.0 + 16.0) * n + 8.0 +
               104.0 * (n / 16.0 + 1.0);  // twice the chunks of one column
  } else if (isConditional(data.model)) {
    const double runs = visits + n + p + 1.0;  // every column's runs, all rows', one end each
    bytes += 7.0 * 8.0 * n + 12.0 * runs + 16.0 * n +  // the run terms: one per run of a column
             40.0 * strata;
    // clr's Efron and exact ties: per stratum the cases, F, the slot terms (40), the exact
    // weight, scratch offset and failure flag; the exact recursion's scratch (32 bytes per
    // case and stratum, at most one case per row).
    if (data.model == ModelType::ConditionalLogistic && data.ties != TieMethod::Breslow)
      bytes += (8.0 + 8.0 + 40.0 + 4.0 + 8.0 + 8.0 + 1.0) * strata + 32.0 * (n + strata);
  } else {
    bytes += 10.0 * 8.0 * n;
  }
  return bytes;
}

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
      // timed with exact ties only (compute_device.h)
      return data.ties == TieMethod::Exact && entries >= kAutoConditionalLogisticEntries;
    case ModelType::Cox:
      // Counting-process data: slower on the GPU at the one size timed (compute_device.h).
      return data.outcomes.startTime == nullptr && entries >= kAutoCoxEntries &&
             mostlyDistinctEventTimes(data);
    default:
      return false;
  }
}

ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data) {
  if (device.kind != ComputeDevice::Kind::Auto) return device;
  ComputeDevice out;
  if (kCudaRunnerValidated && builtWithCuda() && autoPrefersCuda(data) && cudaDeviceCount() > 0)
    out.kind = ComputeDevice::Kind::Cuda;
  return out;
}

std::shared_ptr<const SharedDeviceData> makeSharedDeviceData(const ComputeDevice& requested, const Dataset& data) {
  const ComputeDevice device = resolveComputeDevice(requested, data);
  switch (device.kind) {
    case ComputeDevice::Kind::Emulated:
      return makeEmulatedSharedData(data);
    case ComputeDevice::Kind::Cuda:
      if (!builtWithCuda() || device.index >= cudaDeviceCount()) return nullptr;  // the runner says why
      try {
        return makeCudaSharedData(device, data);
      } catch (const UnsupportedError&) {
        return nullptr;  // too little memory: each fit decides ("auto": the CPU; "cuda": an error)
      }
    default:
      return nullptr;
  }
}

std::unique_ptr<CycleRunner> makeCycleRunner(const ComputeDevice& requested, const Dataset& data,
                                             const double* weights, int threads,
                                             const std::shared_ptr<const SharedDeviceData>& shared) {
  const ComputeDevice device = resolveComputeDevice(requested, data);
  if (device.kind == ComputeDevice::Kind::Cpu)
    return std::make_unique<LikelihoodCycleRunner>(data, weights, threads);
  if (device.kind == ComputeDevice::Kind::Emulated) return makeEmulatedCycleRunner(data, weights, shared);
  if (!builtWithCuda())
    throw UnsupportedError("device '" + computeDeviceName(device) +
                           "' was requested but Argus was built without CUDA "
                           "(reinstall with ARGUS_CUDA=on and a CUDA toolkit)");
  if (device.index >= cudaDeviceCount())
    throw UnsupportedError("device '" + computeDeviceName(device) + "' is not visible (" +
                           std::to_string(cudaDeviceCount()) + " CUDA device(s) found)");
  if (requested.kind != ComputeDevice::Kind::Auto) return makeCudaCycleRunner(device, data, weights, shared);
  // "auto" chose the GPU; where it cannot take the fit (too little free memory, say), the CPU.
  try {
    return makeCudaCycleRunner(device, data, weights, shared);
  } catch (const UnsupportedError&) {
    return std::make_unique<LikelihoodCycleRunner>(data, weights, threads);
  }
}

}  // namespace argus
