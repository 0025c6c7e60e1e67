// The per-slot state of the survival likelihoods (survival_likelihood.h, the device model in
// device/device_survival_likelihood.h) as raw pointers, for the passes that write it
// (survival_slots.h, survival_slot_passes.h) on the CPU and on a device alike.
#pragma once

#include <cstdint>

#include "models/survival_functors.h"

namespace argus {

struct SurvivalSlotState {
  double* exitRisk;       // D
  double* competingRisk;  // sum of u / G of competing rows exiting there (Fine-Gray)
  double* tiedRisk;       // F, u of the events there (Efron)
  const double* events;   // d_e
  const double* eventCount;  // m_e
  const double* slotG;    // G(t_e-) (Fine-Gray)
  double* den;
  EventSlotTerms* terms;
  double* c1;
  double* c2;
  double* cumG;
  double* tail1;
  double* tail2;
  // Fine-Gray, between the refresh's passes: the competing u / G that exited below each slot
  // (survival_slot_passes.h). It may alias tail2, which the refresh writes only after it has
  // read this: the device does so to save an array.
  double* competingBelow;
  // Efron: the slots with tied events (m > 1), ascending; null: found by reading eventCount.
  const std::int32_t* tiedSlots = nullptr;
  std::int64_t tiedSlotCount = 0;
};

}  // namespace argus
