// The survival slot refresh on a device as scans by key (keys: each slot's stratum).
//
// The CPU refreshes the slots with running sums in a few parts (models/survival_refresh.h);
// a GPU thread that walks thousands of slots in order waits on memory at every slot, so on a
// device the same sums are segmented scans over all slots at once:
//   Fine-Gray: competingBelow = exclusive prefix of the competing u / G;
//   den = suffix sums of D (plus, for Fine-Gray, G(t_e) times competingBelow);
//   Efron: the tie terms at the slots with tied events (a list made once per fit);
//   c1, c2 = prefix sums of the event terms A and Q0, computed from den as the scan reads them
//   (breslowEventTerms / efronEventTerms, the CPU's functors), in one scan;
//   Fine-Gray: cumG = prefix sums of Q0 G (in that scan too); tail1, tail2 = exclusive suffix
//   sums of G A, G^2 Q0 (one scan).
// The sums are the CPU's up to rounding (a scan adds in a tree). After a coordinate whose step
// was 0 every part returns at once, reading one device flag (scanByKeyIf; the forEach parts
// read it too), where the primitives gate a scan of this length cheaply (on CUB: up to 4,096
// slots; longer scans are CUB's own, ungated, and then every part runs). All parts follow one
// condition: a refresh whose parts ran on different conditions would mix old and new sums
// (as Fine-Gray's den did once on a GPU, when CUB's scans, which take their work from the
// host, ran and a gated part did not).
#pragma once

#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <cstdint>
#include <utility>

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

// A field of a slot's event terms `t`, at its G(t_e-) `g` (Fine-Gray's fields only).
template <Field F>
ARGUS_HOST_DEVICE double termField(const EventSlotTerms& t, double g) {
  switch (F) {
    case Field::A: return t.a;
    case Field::Q0: return t.q0;
    case Field::Q0G: return t.q0 * g;
    case Field::GA: return g * t.a;
    default: return g * g * t.q0;
  }
}

// Several fields' scans in one: a slot's fields side by side, summed field by field, and
// written each to its own array (fieldsTo): one scan over the slots instead of one per field,
// the slot's event terms computed once for all its fields (termField). On an H200 at Cox 1e6
// with continuous times the scan of c1 and c2 took 25.6 us against 2 x 11.5 and their two
// init launches of 2.5: as fast for Cox, in fewer launches (a smaller graph per sweep);
// Fine-Gray's five term scans are two.
template <int N>
struct FieldSums {
  double v[N];
};
template <int N>
struct FieldSumsPlus {
  ARGUS_HOST_DEVICE FieldSums<N> operator()(const FieldSums<N>& a, const FieldSums<N>& b) const {
    FieldSums<N> s;
    for (int i = 0; i < N; ++i) s.v[i] = a.v[i] + b.v[i];
    return s;
  }
};
template <Field... F>
struct TermFields {
  TermsAt at;
  ARGUS_HOST_DEVICE FieldSums<sizeof...(F)> operator()(std::int64_t k) const {
    constexpr bool needsG = ((F != Field::A && F != Field::Q0) || ...);
    const EventSlotTerms t = at(k);
    const double g = needsG ? at.st.slotG[k] : 1.0;
    return FieldSums<sizeof...(F)>{{termField<F>(t, g)...}};
  }
};
// The output iterator: slot k's fields into out[0][k], out[1][k], ...
template <int N>
struct ToTuple {
  template <int... I>
  ARGUS_HOST_DEVICE static auto make(const FieldSums<N>& s, std::integer_sequence<int, I...>) {
    return thrust::make_tuple(s.v[I]...);
  }
  ARGUS_HOST_DEVICE auto operator()(const FieldSums<N>& s) const {
    return make(s, std::make_integer_sequence<int, N>{});
  }
};
template <typename... P>
auto fieldsTo(P*... out) {
  return thrust::make_transform_output_iterator(thrust::make_zip_iterator(out...), ToTuple<sizeof...(P)>{});
}

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
  if (fineGray)
    prims.template scanByKeyIf<false, true>(flag, slotStratum, st.competingRisk, slots, plus, st.competingBelow);
  prims.template scanByKeyIf<true, false>(flag, slotStratum, st.exitRisk, slots, plus, st.den);
  if (fineGray) prims.forEach(slots, CompetingAtRisk{st, flag});
  if (efron) prims.forEach(st.tiedSlotCount, TiedTerms{st, flag});
  const TermsAt at{st, efron};
  if (!fineGray) {
    prims.template scanByKeyIf<false, false>(flag, slotStratum,
                                             device::indexed(TermFields<Field::A, Field::Q0>{at}), slots,
                                             FieldSumsPlus<2>{}, fieldsTo(st.c1, st.c2));
    return;
  }
  prims.template scanByKeyIf<false, false>(flag, slotStratum,
                                           device::indexed(TermFields<Field::A, Field::Q0, Field::Q0G>{at}), slots,
                                           FieldSumsPlus<3>{}, fieldsTo(st.c1, st.c2, st.cumG));
  prims.template scanByKeyIf<true, true>(flag, slotStratum, device::indexed(TermFields<Field::GA, Field::GGQ0>{at}),
                                         slots, FieldSumsPlus<2>{}, fieldsTo(st.tail1, st.tail2));
}

}  // namespace argus
