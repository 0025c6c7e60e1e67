// The survival slot refresh on a device as scans by key (keys: each slot's stratum).
//
// The CPU refreshes the slots with running sums in a few parts (models/survival_refresh.h);
// a GPU thread that walks thousands of slots in order waits on memory at every slot, so on a
// device the same sums are segmented scans over all slots at once:
//   Fine-Gray: competingBelow = exclusive prefix of the competing u / G;
//   den = suffix sums of D (plus, for Fine-Gray, G(t_e) times competingBelow);
//   Efron: the tie terms at the slots with tied events (a list made once per fit);
//   c1, c2 = prefix sums of the event terms A and Q0, computed from den as the scans read them
//   (breslowEventTerms / efronEventTerms, the CPU's functors);
//   Fine-Gray: cumG = prefix sums of Q0 G; tail1, tail2 = exclusive suffix sums of G A, G^2 Q0.
// The sums are the CPU's up to rounding (a scan adds in a tree). After a coordinate whose step
// was 0 every part returns at once, reading one device flag (scanByKeyIf; the forEach parts
// read it too), where the primitives gate a scan of this length cheaply (on CUB: up to 4,096
// slots; longer scans are CUB's own, ungated, and then every part runs). All parts follow one
// condition: a refresh whose parts ran on different conditions would mix old and new sums
// (as Fine-Gray's den did once on a GPU, when CUB's scans, which take their work from the
// host, ran and a gated part did not).
#pragma once

#include <cstdint>

#include "device/device_common.h"
#include "models/survival_functors.h"
#include "models/survival_slot_state.h"

namespace argus {
namespace slot_scans {

// The event terms of slot k, from the finished den (tied slots: as stored by TiedTerms).
struct TermsAt {
  SurvivalSlotState st;
  bool efron;
  ARGUS_HOST_DEVICE EventSlotTerms operator()(std::int64_t k) const {
    if (efron && st.eventCount[k] > 1.0) return st.terms[k];
    return breslowEventTerms(st.events[k], st.den[k]);
  }
};

enum class Field { A, Q0, Q0G, GA, GGQ0 };

template <Field F>
struct TermValue {
  TermsAt at;
  ARGUS_HOST_DEVICE double operator()(std::int64_t k) const {
    const EventSlotTerms t = at(k);
    const double g = F == Field::A || F == Field::Q0 ? 1.0 : at.st.slotG[k];
    switch (F) {
      case Field::A: return t.a;
      case Field::Q0: return t.q0;
      case Field::Q0G: return t.q0 * g;
      case Field::GA: return g * t.a;
      default: return g * g * t.q0;
    }
  }
};

struct TiedTerms {
  SurvivalSlotState st;
  const int* flag;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    if (flag && !*flag) return;
    const std::int32_t k = st.tiedSlots[i];
    st.terms[k] = efronEventTerms(st.events[k], st.eventCount[k], st.den[k], st.tiedRisk[k]);
  }
};

// Fine-Gray: competing rows that exited below a slot stay at risk there, weighted by G(t_e).
struct CompetingAtRisk {
  SurvivalSlotState st;
  const int* flag;
  ARGUS_HOST_DEVICE void operator()(std::int64_t k) const {
    if (flag && !*flag) return;
    st.den[k] += st.slotG[k] * st.competingBelow[k];
  }
};

}  // namespace slot_scans

// Rebuilds den, the tie terms, c1, c2 (and Fine-Gray's cumG and tails) of all `slots` from D
// (and F, the competing sums), where *flag is set (flag null: always). st.competingBelow may
// alias tail2: it is read before tail2 is written.
template <typename Prims>
void refreshSlotsByScans(const Prims& prims, const SurvivalSlotState& st, const std::int32_t* slotStratum,
                         std::int64_t slots, bool efron, bool fineGray, const int* flag) {
  using namespace slot_scans;
  const device::Plus plus;
  // Gated where that is cheap (Prims::gatedScanPays); else every part runs, as one.
  if (!Prims::gatedScanPays(slots)) flag = nullptr;
  if (fineGray)
    prims.template scanByKeyIf<false, true>(flag, slotStratum, st.competingRisk, slots, plus, st.competingBelow);
  prims.template scanByKeyIf<true, false>(flag, slotStratum, st.exitRisk, slots, plus, st.den);
  if (fineGray) prims.forEach(slots, CompetingAtRisk{st, flag});
  if (efron) prims.forEach(st.tiedSlotCount, TiedTerms{st, flag});
  const TermsAt at{st, efron};
  prims.template scanByKeyIf<false, false>(flag, slotStratum, device::indexed(TermValue<Field::A>{at}), slots, plus,
                                           st.c1);
  prims.template scanByKeyIf<false, false>(flag, slotStratum, device::indexed(TermValue<Field::Q0>{at}), slots, plus,
                                           st.c2);
  if (!fineGray) return;
  prims.template scanByKeyIf<false, false>(flag, slotStratum, device::indexed(TermValue<Field::Q0G>{at}), slots,
                                           plus, st.cumG);
  prims.template scanByKeyIf<true, true>(flag, slotStratum, device::indexed(TermValue<Field::GA>{at}), slots, plus,
                                         st.tail1);
  prims.template scanByKeyIf<true, true>(flag, slotStratum, device::indexed(TermValue<Field::GGQ0>{at}), slots,
                                         plus, st.tail2);
}

}  // namespace argus
