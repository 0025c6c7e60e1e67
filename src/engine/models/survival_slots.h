// The rows' share of the survival likelihoods' per-slot state (survival_slot_state.h), written
// once for the CPU likelihood (a stratum at a time) and a device (an exit run per thread):
//   scatterStratumRows: the rows' u into their exit slots (D; with counting-process data minus
//     u at the entry slot), the tied events' share (Efron's F) and the competing rows' u / G.
// Within a stratum the rows of one slot are visited in row order, so the sums are the same
// whichever runs them. The slots' sums from D are survival_refresh.h's (CPU) and
// device/device_slot_scans.h's.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/errors.h"
#include "common/host_device.h"
#include "data/censoring_survival.h"
#include "data/risk_set_index.h"
#include "models/survival_functors.h"
#include "models/survival_slot_state.h"

namespace argus {

// Rows [first, end) of one stratum into the slot sums (which the caller has zeroed). `rows`
// gives each row's u(r), exitSlot(r), entrySlot(r) (read only with counting-process data),
// event(r) (y = 1) and inverseG(r) (1 / G(time_r-) for competing rows, else 0).
template <typename Rows>
ARGUS_HOST_DEVICE inline void scatterStratumRows(const SurvivalSlotState& st, std::int64_t first,
                                                 std::int64_t end, const Rows& rows, bool counting,
                                                 bool efron, bool fineGray) {
  for (std::int64_t r = first; r < end; ++r) {
    const std::int32_t k = rows.exitSlot(r);
    const double u = rows.u(r);
    st.exitRisk[k] += u;
    if (counting) st.exitRisk[rows.entrySlot(r)] -= u;
    // Read only where used: the CPU likelihood keeps 1 / G for Fine-Gray alone.
    if (efron && rows.event(r)) st.tiedRisk[k] += u;
    if (fineGray) st.competingRisk[k] += u * rows.inverseG(r);
  }
}

// Row r's score dL/deta_r and curvature (Likelihood::rowScores) from the refreshed slot sums:
// the coordinate scan's terms (survival_scan.h) for this row alone with x = 1, so that any
// column's gradient is sum_r x_r score_r. The row's cumulative hazard is c1 at its exit slot,
// less c1 at its entry slot (counting process) and Efron's B at a tied event's slot, plus
// tail1 / G(time_r-) for a Fine-Gray competing row; u times it, the row's expected events, is
// the curvature: the eta-Hessian is minus a sum over event slots of d (diag(p) - p p'), which
// diag(expected) bounds (solver/majorized_start.h). `rows` as for scatterStratumRows; weight:
// the row's w.
template <typename Rows>
ARGUS_HOST_DEVICE inline void survivalRowScore(const SurvivalSlotState& st, std::int64_t r, const Rows& rows,
                                               double weight, bool counting, bool efron, bool fineGray,
                                               double* score, double* curvature) {
  const std::int32_t k = rows.exitSlot(r);
  const bool event = rows.event(r);
  double hazard = st.c1[k];
  if (counting) hazard -= st.c1[rows.entrySlot(r)];
  // Efron's terms at slots with tied events are the refresh's (as the scan reads them).
  if (efron && event && st.eventCount[k] > 1.0) hazard -= st.terms[k].b;
  if (fineGray) hazard += rows.inverseG(r) * st.tail1[k];
  const double expected = rows.u(r) * hazard;
  *score = (event ? weight : 0.0) - expected;
  *curvature = expected;
}

// What the slots hold for the whole fit: d_e and m_e per slot, and for Fine-Gray G(t_e-) per
// slot and 1 / G(time_r-) per competing row (0 for other rows). Host code, once per fit.
struct SurvivalFitConstants {
  std::vector<double> events, eventCount, slotG, inverseG;
};
inline SurvivalFitConstants survivalFitConstants(const Dataset& data, const double* weights,
                                                 const RiskSetIndex& index) {
  const std::size_t slots = static_cast<std::size_t>(index.nSlots);
  const std::int64_t n = data.nRows();
  SurvivalFitConstants c;
  c.events.assign(slots, 0.0);
  c.eventCount.assign(slots, 0.0);
  c.slotG.assign(slots, 0.0);
  c.inverseG.assign(static_cast<std::size_t>(n), 0.0);
  const double* y = data.outcomes.y;
  for (std::int64_t r = 0; r < n; ++r) {
    if (y[r] != 1.0) continue;
    const double w = weights ? weights[r] : 1.0;
    const std::size_t k = static_cast<std::size_t>(index.exitSlot[r]);
    c.events[k] += w;
    if (w > 0.0) c.eventCount[k] += 1.0;
  }
  if (data.model == ModelType::FineGray) {
    const std::vector<double> g = censoringSurvivalBefore(data, weights);
    std::vector<unsigned char> seen(slots, 0);
    for (std::int64_t r = 0; r < n; ++r) {
      // A row of weight 0 is not in the estimate of G, so after the last censoring of weight
      // its G(time-) can be 0: its 1/G was inf, and 0 * inf made every sum NaN (a bootstrap
      // replicate or a fold holding such a row out ended MAX_ITERATIONS at beta = 0). It
      // carries nothing; a row of positive weight is at risk at every earlier censoring, so
      // its G(time-) is positive.
      if (y[r] == 2.0) c.inverseG[r] = (weights && weights[r] == 0.0) ? 0.0 : 1.0 / g[r];
      if (y[r] != 1.0) continue;
      const std::size_t k = static_cast<std::size_t>(index.exitSlot[r]);
      ARGUS_REQUIRE(!seen[k] || std::fabs(c.slotG[k] - g[r]) <= 1e-12,
                    "censoring survival differs between events tied at one time");
      c.slotG[k] = g[r];
      seen[k] = 1;
    }
  }
  return c;
}

// sum over events of w_r d_r (w = nullptr: all 1), in row order: a direction's linear term.
inline double eventWeightedDot(std::int64_t n, const double* w, const double* y, const double* d) {
  double sum = 0.0;
  for (std::int64_t r = 0; r < n; ++r)
    if (y[r] == 1.0) sum += (w ? w[r] : 1.0) * d[r];
  return sum;
}

}  // namespace argus
