// The passes that rebuild the survival likelihoods' slot arrays (survival_slots.h), each over
// one segment [k0, k1) of one stratum's slots, with its running sums started at 0:
//   1. localAtRisk (descending): den = suffix sums of D;
//      localCompetingBelow (ascending, Fine-Gray): the competing rows' u / G that exited
//      strictly below each slot;
//   2. eventTermsPass (ascending, no carried dependency: vectorizable): den completed with
//      the carries from outside the segment, the event-slot terms A and Q0 written raw into
//      c1 and c2, Efron's B, Q1, Q2 into `terms`;
//   3. cumulativePass: Fine-Gray's tails (descending, from the raw terms), then c1, c2 and
//      cumG as prefix sums (ascending, in place);
//   4. addCarries: what the segments below (prefix sums) and above (suffix sums) owe it.
// The CPU cuts the slots into parts fixed by the data and runs the parts' passes on its
// threads, computing the carries in between (survival_refresh.h); a stratum in one part is
// the four passes with carries 0. (A device runs the same sums as scans by stratum over all
// slots at once, device/device_slot_scans.h, with the event terms' functors shared.)
//
// Why passes rather than one loop per slot: a suffix sum (den) feeds a prefix sum (c1, c2),
// so no single pass can do both, and the divisions in between are independent per slot. In
// their own loop they vectorize and overlap; inside a running sum they waited on it. One
// reciprocal per slot serves A and Q0 (breslowEventTerms).
#pragma once

#include <cstdint>

#include "common/force_inline.h"
#include "common/host_device.h"
#include "models/survival_functors.h"
#include "models/survival_slot_state.h"

namespace argus {

// What a segment's running sums reach at its far end (in each sum's own direction).
struct SlotSegmentTotals {
  double atRisk = 0.0;          // sum of D over the segment (descending)
  double competingBelow = 0.0;  // sum of u / G of competing exits (ascending)
  double c1 = 0.0, c2 = 0.0, cumG = 0.0;  // ascending
  double tail1 = 0.0, tail2 = 0.0;        // descending
};

// Two running sums advanced together (c1 and c2).
struct SlotSumPair {
  double first = 0.0, second = 0.0;
};
ARGUS_HOST_DEVICE inline SlotSumPair operator+(const SlotSumPair& x, const SlotSumPair& y) {
  return {x.first + y.first, x.second + y.second};
}

// Running sums over slots [k0, k1), ascending or descending: store(k, sum of value(i) over
// the slots visited up to and including k), returning the total; T is double or SlotSumPair.
// Four slots at a time: their partial sums do not wait on the running sum, which takes one
// addition per four slots, so the loop is not held to one slot per addition latency (its
// rounding is fixed by the code, the same on every thread and device).
template <bool Descending, typename T, typename Value, typename Store>
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE T blockedRunningSum(std::int64_t k0, std::int64_t k1,
                                                         Value&& value, Store&& store) {
  T run{};
  const std::int64_t n = k1 - k0;
  std::int64_t i = 0;
  auto at = [&](std::int64_t m) { return Descending ? k1 - 1 - m : k0 + m; };
  for (; i + 4 <= n; i += 4) {
    const T v0 = value(at(i)), v1 = value(at(i + 1)), v2 = value(at(i + 2)), v3 = value(at(i + 3));
    const T p1 = v0 + v1;
    const T p2 = p1 + v2;
    const T p3 = p1 + (v2 + v3);
    store(at(i), run + v0);
    store(at(i + 1), run + p1);
    store(at(i + 2), run + p2);
    run = run + p3;
    store(at(i + 3), run);
  }
  for (; i < n; ++i) {
    run = run + value(at(i));
    store(at(i), run);
  }
  return run;
}

ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE double localAtRisk(const SurvivalSlotState& st, std::int64_t k0,
                                            std::int64_t k1) {
  return blockedRunningSum<true, double>(k0, k1, [&](std::int64_t k) { return st.exitRisk[k]; },
                                         [&](std::int64_t k, double sum) { st.den[k] = sum; });
}

ARGUS_HOST_DEVICE inline double localCompetingBelow(const SurvivalSlotState& st, std::int64_t k0,
                                                    std::int64_t k1) {
  double below = 0.0;
  for (std::int64_t k = k0; k < k1; ++k) {
    st.competingBelow[k] = below;
    below += st.competingRisk[k];
  }
  return below;
}

// atRiskAbove: D of the stratum's slots above the segment; competingUnder: competing u / G of
// its slots under the segment. A stratum's base slot has no events, so its terms are 0 and
// its cumulative sums start at 0.
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE void eventTermsPass(const SurvivalSlotState& st, std::int64_t k0,
                                             std::int64_t k1, double atRiskAbove,
                                             double competingUnder, bool efron, bool fineGray) {
  if (!fineGray) {
    ARGUS_SIMD
    for (std::int64_t k = k0; k < k1; ++k) {
      const double den = st.den[k] + atRiskAbove;
      st.den[k] = den;
      const EventSlotTerms t = breslowEventTerms(st.events[k], den);
      st.c1[k] = t.a;
      st.c2[k] = t.q0;
    }
    // Efron differs only where events are tied (m > 1): with continuous times, hardly
    // anywhere. Elsewhere B = Q1 = Q2 = 0 for the whole fit, as `terms` was set up.
    if (efron) {
      auto tied = [&](std::int64_t k) ARGUS_INLINE_LAMBDA {
        const EventSlotTerms t = efronEventTerms(st.events[k], st.eventCount[k], st.den[k], st.tiedRisk[k]);
        st.c1[k] = t.a;
        st.c2[k] = t.q0;
        st.terms[k] = t;
      };
      if (st.tiedSlots) {
        // The first listed slot at or above k0 (binary search), then the listed ones below k1.
        std::int64_t lo = 0, hi = st.tiedSlotCount;
        while (lo < hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          if (st.tiedSlots[mid] < k0) lo = mid + 1; else hi = mid;
        }
        for (std::int64_t i = lo; i < st.tiedSlotCount && st.tiedSlots[i] < k1; ++i) tied(st.tiedSlots[i]);
      } else {
        for (std::int64_t k = k0; k < k1; ++k)
          if (st.eventCount[k] > 1.0) tied(k);
      }
    }
    return;
  }
  for (std::int64_t k = k0; k < k1; ++k) {
    double den = st.den[k] + atRiskAbove;
    // Fine-Gray: competing rows that exited below the slot stay at risk, weighted by G(t_e).
    if (fineGray) den += st.slotG[k] * (st.competingBelow[k] + competingUnder);
    st.den[k] = den;
    const EventSlotTerms t = efron ? efronEventTerms(st.events[k], st.eventCount[k], den, st.tiedRisk[k])
                                   : breslowEventTerms(st.events[k], den);
    st.c1[k] = t.a;
    st.c2[k] = t.q0;
    if (efron) st.terms[k] = t;
  }
}

// Turns the raw terms of the segment into its local cumulative sums and tails, and returns
// the local totals. `within` (may be null): the ascending sums of earlier blocks of the same
// segment, added to each sum first; `under` (may be null): those of the segments below,
// added next, the very addition addCarries() would make afterwards (so that the sums do not
// depend on whether the carry was known in time).
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE SlotSegmentTotals cumulativePass(const SurvivalSlotState& st,
                                                          std::int64_t k0, std::int64_t k1,
                                                          bool fineGray,
                                                          const SlotSegmentTotals* under = nullptr,
                                                          const SlotSegmentTotals* within = nullptr) {
  SlotSegmentTotals t;
  // x + 0 is x: a missing carry adds nothing, so one expression serves every case.
  const SlotSegmentTotals none;
  const SlotSegmentTotals& carry = under ? *under : none;
  const SlotSegmentTotals& earlier = within ? *within : none;
  // Everything that reads the raw A and Q0 first, then c1 and c2 in place.
  if (fineGray) {
    // tail1 = sum_{e > k} G A, tail2 = sum_{e > k} G^2 Q0 (exclusive suffix sums).
    double run1 = 0.0, run2 = 0.0;
    for (std::int64_t k = k1 - 1; k >= k0; --k) {
      st.tail1[k] = run1;
      st.tail2[k] = run2;
      run1 += st.slotG[k] * st.c1[k];
      run2 += st.slotG[k] * st.slotG[k] * st.c2[k];
    }
    t.tail1 = run1;
    t.tail2 = run2;
    t.cumG = blockedRunningSum<false, double>(
        k0, k1, [&](std::int64_t k) { return st.c2[k] * st.slotG[k]; },
        [&](std::int64_t k, double sum) { st.cumG[k] = (sum + earlier.cumG) + carry.cumG; });
  }
  const SlotSumPair total = blockedRunningSum<false, SlotSumPair>(
      k0, k1, [&](std::int64_t k) { return SlotSumPair{st.c1[k], st.c2[k]}; },
      [&](std::int64_t k, const SlotSumPair& sum) {
        st.c1[k] = (sum.first + earlier.c1) + carry.c1;
        st.c2[k] = (sum.second + earlier.c2) + carry.c2;
      });
  t.c1 = total.first;
  t.c2 = total.second;
  return t;
}

// Slots per block of termsAndSums: the raw terms a block writes into c1 and c2 are summed
// while they are still in the first-level cache, so at N = 1e6 (half a million slots, arrays
// far beyond the caches) c1 and c2 travel to memory once per refresh, not three times.
constexpr std::int64_t kTermsBlock = 512;

// eventTermsPass then cumulativePass over a segment, block by block, each block's sums
// continuing the earlier blocks' (blocks start at the segment's first slot, which the parts
// fix: the same sums for any number of threads, and on a device). Fine-Gray in one piece:
// its tails are suffix sums over the whole segment.
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE SlotSegmentTotals termsAndSums(
    const SurvivalSlotState& st, std::int64_t k0, std::int64_t k1, double atRiskAbove,
    double competingUnder, bool efron, bool fineGray, const SlotSegmentTotals* under) {
  if (fineGray) {
    eventTermsPass(st, k0, k1, atRiskAbove, competingUnder, efron, fineGray);
    return cumulativePass(st, k0, k1, fineGray, under);
  }
  SlotSegmentTotals total;
  for (std::int64_t b0 = k0; b0 < k1; b0 += kTermsBlock) {
    const std::int64_t b1 = b0 + kTermsBlock < k1 ? b0 + kTermsBlock : k1;
    eventTermsPass(st, b0, b1, atRiskAbove, 0.0, efron, false);
    const SlotSegmentTotals t = cumulativePass(st, b0, b1, false, under, &total);
    total.c1 += t.c1;
    total.c2 += t.c2;
  }
  return total;
}

// under: the ascending sums of the stratum's slots under the segment (c1, c2, cumG); above:
// the descending ones above it (tail1, tail2). Zero carries are skipped: x + 0 is x.
ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE void addCarries(const SurvivalSlotState& st, std::int64_t k0,
                                         std::int64_t k1, const SlotSegmentTotals& under,
                                         const SlotSegmentTotals& above, bool fineGray) {
  if (under.c1 != 0.0 || under.c2 != 0.0 || under.cumG != 0.0) {
    ARGUS_SIMD
    for (std::int64_t k = k0; k < k1; ++k) {
      st.c1[k] += under.c1;
      st.c2[k] += under.c2;
    }
    if (fineGray)
      for (std::int64_t k = k0; k < k1; ++k) st.cumG[k] += under.cumG;
  }
  if (fineGray && (above.tail1 != 0.0 || above.tail2 != 0.0)) {
    ARGUS_SIMD
    for (std::int64_t k = k0; k < k1; ++k) {
      st.tail1[k] += above.tail1;
      st.tail2[k] += above.tail2;
    }
  }
}

}  // namespace argus
