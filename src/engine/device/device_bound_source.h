// What a device model offers the all-coordinates steps (device/all_coordinates_steps.h):
// its per-row bound at the current eta, written into device arrays, and eta in and out of
// device memory, so that a step's trials never copy N values to the host.
//
// The row formulas are the models': survivalRowScore (models/survival_slots.h, also the CPU
// likelihood's rowScores), the GLMs' row derivatives (glm_functors.h: the score is resid, the
// curvature curv, so the bound is the exact second-order model) and the conditional models'
// Breslow term (conditionalRowScore, models/conditional_functors.h).
#pragma once

#include "models/separable_bound.h"

namespace argus {

class DeviceBoundSource {
 public:
  virtual ~DeviceBoundSource() = default;
  // Whether the model offers its bound (clr's Efron and exact strata do not).
  virtual bool offersBound() const { return true; }
  // Whether the bound is maximized over a shift of eta per stratum (models/separable_bound.h).
  virtual BoundShift boundShift() const = 0;
  // Per row at the current eta: the score dL/deta_r and the curvature bound c_r, into device
  // arrays of nRows() each.
  virtual void boundRowScores(double* score, double* curvature) const = 0;
  // The device array that holds the current eta (after reset() or loadEta()).
  virtual const double* currentEta() const = 0;
  // Loads eta from a device array and rebuilds every sum from it: setEta() without the host.
  virtual void loadEta(const double* eta) = 0;
};

}  // namespace argus
