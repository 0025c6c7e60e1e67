// One data set's device copy of what its fits share: the design (DeviceColumns) and what the
// device models plan from the data alone (the conditional models' runs of entries by
// stratum, the survival models' risk-set index and chunks), none of it depending on weights.
// A cross-validation makes one (prepareDeviceRun, solver/compute_device.h) and every fold fit
// of every candidate variance, and every bootstrap replicate, runs on it: one copy of X on
// the device and one planning pass, where separate fits would each upload and plan again
// (and hold a copy each when they run side by side on a GPU's streams). A fit without one
// makes its own. Read-only once built, so fits on several host threads share it freely.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "common/model_type.h"
#include "data/dataset.h"
#include "device/all_coordinates_design.h"
#include "device/device_columns.h"
#include "device/device_stratum_runs.h"
#include "device/device_survival_plan.h"
#include "solver/compute_device.h"

namespace argus {

class DeviceDesign final : public SharedDeviceData {
 public:
  explicit DeviceDesign(const Dataset& data) : data_(&data), columns(data.design) {
    built_.fetch_add(1, std::memory_order_relaxed);
    if (isConditional(data.model))
      runs = std::make_unique<const DeviceStratumRuns>(data.design, data.outcomes.stratum);
    if (isSurvival(data.model))
      survival = std::make_unique<const SurvivalDevicePlan>(data);
  }
  // Made for this Dataset object (a cross-validation's fits all point at one).
  bool serves(const Dataset& data) const { return &data == data_; }
  // How many have been built in this process (the device suite checks that a
  // cross-validation builds one).
  static std::int64_t built() { return built_.load(std::memory_order_relaxed); }
  double bytes() const {
    return columns.bytes() + (runs ? runs->bytes() : 0.0) + (survival ? survival->bytes() : 0.0) +
           (allCoordinates_ ? allCoordinates_->bytes() : 0.0);
  }
  // The views the all-coordinates steps read (all_coordinates_design.h), built on the device
  // on first use, once, whichever of the fits sharing this design asks first.
  template <typename Prims>
  const AllCoordinatesDesign& allCoordinates() const {
    std::call_once(allCoordinatesOnce_,
                   [&] { allCoordinates_ = std::make_unique<const AllCoordinatesDesign>(*data_, columns, Prims{}); });
    return *allCoordinates_;
  }

 private:
  static inline std::atomic<std::int64_t> built_{0};
  const Dataset* data_;
  mutable std::once_flag allCoordinatesOnce_;
  mutable std::unique_ptr<const AllCoordinatesDesign> allCoordinates_;

 public:
  DeviceColumns columns;
  std::unique_ptr<const DeviceStratumRuns> runs;        // conditional models
  std::unique_ptr<const SurvivalDevicePlan> survival;  // cox, fgr
};

// The design a device model of `data` runs on: `shared` where it was made for this data,
// else a new one of its own.
inline std::shared_ptr<const DeviceDesign> deviceDesignFor(const Dataset& data,
                                                           const std::shared_ptr<const SharedDeviceData>& shared) {
  auto design = std::dynamic_pointer_cast<const DeviceDesign>(shared);
  if (design && design->serves(data)) return design;
  return std::make_shared<const DeviceDesign>(data);
}

}  // namespace argus
