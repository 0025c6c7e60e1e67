#include "models/survival_refresh.h"

#include <algorithm>

#include "common/errors.h"

namespace argus {

namespace {

// The passes compiled for several instruction sets, the best one picked when the library
// loads (GCC's target_clones, Linux on x86-64): R builds packages for the baseline x86-64,
// whose two-lane SIMD halves what the vectorized division of the terms pass and the carries
// do per instruction. Every thread of a process runs the same clone, so results stay
// independent of the threads.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define ARGUS_SLOT_PASS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ARGUS_SLOT_PASS
#endif

ARGUS_SLOT_PASS double atRiskPass(const SurvivalSlotState& st, std::int64_t k0, std::int64_t k1) {
  return localAtRisk(st, k0, k1);
}

ARGUS_SLOT_PASS SlotSegmentTotals termsPass(const SurvivalSlotState& st, std::int64_t k0,
                                            std::int64_t k1, double atRiskAbove,
                                            double competingUnder, bool efron, bool fineGray,
                                            const SlotSegmentTotals* under) {
  return termsAndSums(st, k0, k1, atRiskAbove, competingUnder, efron, fineGray, under);
}

ARGUS_SLOT_PASS void carryPass(const SurvivalSlotState& st, std::int64_t k0, std::int64_t k1,
                               const SlotSegmentTotals& under, const SlotSegmentTotals& above,
                               bool fineGray) {
  addCarries(st, k0, k1, under, above, fineGray);
}

}  // namespace

SlotRefresh::SlotRefresh(const RiskSetIndex& index, std::int64_t partSlots)
    : slotStart_(index.slotStart.data()),
      nStrata_(static_cast<std::int32_t>(index.slotStart.size()) - 1) {
  ARGUS_REQUIRE(partSlots >= 1, "a part needs at least one slot");
  const std::int64_t slots = index.nSlots;
  const std::int64_t k = std::clamp<std::int64_t>(slots / partSlots, 1, kMaxParts);
  for (std::int64_t i = 0; i < k; ++i) {
    Part p;
    p.begin = slots * i / k;
    p.end = slots * (i + 1) / k;
    if (p.begin == p.end) continue;
    const std::int32_t* top = slotStart_ + nStrata_ + 1;
    p.firstStratum = static_cast<std::int32_t>(std::upper_bound(slotStart_, top, p.begin) - slotStart_ - 1);
    const std::int32_t lastStratum =
        static_cast<std::int32_t>(std::upper_bound(slotStart_, top, p.end - 1) - slotStart_ - 1);
    p.continuesBelow = slotStart_[p.firstStratum] != p.begin;
    p.continuesAbove = slotStart_[lastStratum + 1] > p.end;
    p.oneSegment = lastStratum == p.firstStratum;
    parts_.push_back(p);
  }
  bottom_.resize(parts_.size());
  top_.resize(parts_.size());
  under_.resize(parts_.size());
  above_.resize(parts_.size());
}

template <typename F>
void SlotRefresh::forSegments(const Part& p, F&& f) const {
  std::int64_t k0 = p.begin;
  for (std::int32_t s = p.firstStratum; k0 < p.end; ++s) {
    const std::int64_t k1 = std::min<std::int64_t>(slotStart_[s + 1], p.end);
    f(k0, k1, k0 == p.begin, k1 == p.end);
    k0 = k1;
  }
}

template <typename F>
void SlotRefresh::forParts(WorkerTeam* team, F&& f) {
  const int k = parts();
  if (!team || k == 1 || !team->together()) {
    for (int p = 0; p < k; ++p) f(p);
    return;
  }
  // Piece i is part k - 1 - i, so member 0 takes the highest parts first: a column's entries
  // run from the latest exit (highest slot) down, and the first of its chunks, which member 0
  // scans and steps (survival_likelihood.cpp), writes and reads these slots. Each core then
  // keeps its own slots in its cache; split the other way, the slot arrays crossed between
  // the cores twice per coordinate and two threads were slower than one.
  team->run(k, [&](int i) { f(k - 1 - i); });
}

void SlotRefresh::run(const SurvivalSlotState& st, bool efron, bool fineGray, WorkerTeam* team) {
  const int k = parts();
  std::fill(bottom_.begin(), bottom_.end(), SlotSegmentTotals{});
  std::fill(top_.begin(), top_.end(), SlotSegmentTotals{});
  std::fill(under_.begin(), under_.end(), SlotSegmentTotals{});
  std::fill(above_.begin(), above_.end(), SlotSegmentTotals{});
  // A carry into part p: what its neighbour's facing segment summed, plus, when that
  // neighbour is a single piece of the same stratum, what was carried into it.
  auto carryFromAbove = [&](auto field) {
    for (int p = k - 2; p >= 0; --p)
      if (parts_[p].continuesAbove)
        above_[p].*field = bottom_[p + 1].*field + (parts_[p + 1].oneSegment ? above_[p + 1].*field : 0.0);
  };
  auto carryBelow = [&](int p, auto field) {
    if (p > 0 && parts_[p].continuesBelow)
      under_[p].*field = top_[p - 1].*field + (parts_[p - 1].oneSegment ? under_[p - 1].*field : 0.0);
  };
  auto carryFromBelow = [&](auto field) {
    for (int p = 1; p < k; ++p) carryBelow(p, field);
  };

  forParts(team, [&](int p) {
    forSegments(parts_[p], [&](std::int64_t k0, std::int64_t k1, bool bottom, bool top) {
      const double atRisk = atRiskPass(st, k0, k1);
      if (bottom) bottom_[p].atRisk = atRisk;
      if (fineGray) {
        const double below = localCompetingBelow(st, k0, k1);
        if (top) top_[p].competingBelow = below;
      }
    });
  });
  carryFromAbove(&SlotSegmentTotals::atRisk);
  if (fineGray) carryFromBelow(&SlotSegmentTotals::competingBelow);

  // Without a team the parts run in ascending order, so the ascending carries are known when
  // a part starts and cumulativePass adds them as it stores (the same sums as addCarries).
  const bool inOrder = !team || k == 1 || !team->together();
  forParts(team, [&](int p) {
    if (inOrder)
      for (auto field : {&SlotSegmentTotals::c1, &SlotSegmentTotals::c2, &SlotSegmentTotals::cumG})
        carryBelow(p, field);
    forSegments(parts_[p], [&](std::int64_t k0, std::int64_t k1, bool bottom, bool top) {
      const SlotSegmentTotals t =
          termsPass(st, k0, k1, top ? above_[p].atRisk : 0.0, bottom ? under_[p].competingBelow : 0.0,
                    efron, fineGray, inOrder && bottom ? &under_[p] : nullptr);
      if (bottom) {
        bottom_[p].tail1 = t.tail1;
        bottom_[p].tail2 = t.tail2;
      }
      if (top) {
        top_[p].c1 = t.c1;
        top_[p].c2 = t.c2;
        top_[p].cumG = t.cumG;
      }
    });
  });
  if (k == 1) return;
  if (!inOrder) {
    carryFromBelow(&SlotSegmentTotals::c1);
    carryFromBelow(&SlotSegmentTotals::c2);
    if (fineGray) carryFromBelow(&SlotSegmentTotals::cumG);
  }
  if (fineGray) {
    carryFromAbove(&SlotSegmentTotals::tail1);
    carryFromAbove(&SlotSegmentTotals::tail2);
  }
  if (inOrder && !fineGray) return;

  // What is left: every carry with a team, Fine-Gray's tails (descending) without one.
  const SlotSegmentTotals none;
  forParts(team, [&](int p) {
    forSegments(parts_[p], [&](std::int64_t k0, std::int64_t k1, bool bottom, bool top) {
      const bool below = bottom && !inOrder;
      if (below || top) carryPass(st, k0, k1, below ? under_[p] : none, top ? above_[p] : none, fineGray);
    });
  });
}

}  // namespace argus
