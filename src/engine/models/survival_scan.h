// One coordinate's g and h over the survival risk sets (MODELS.md §5), as a scan over its
// items that a CPU loop and a device thread run alike: the scan of one chunk of a column's
// entries (CoordinateScan), its partial sums (ScanPartial), and their combination across
// chunks (combineScans), which corrects the prefix sums of a chunk that continues the
// previous chunk's stratum. The CPU likelihood (survival_likelihood.h) cuts a column into at
// most four chunks for its threads; a device cuts it into many, one per thread. The slot
// arrays it reads come in a SlotSums view; Fine-Gray's competing items go to a buffer the
// caller provides, with room for as many items as the chunk has entries.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/force_inline.h"
#include "common/host_device.h"
#include "models/survival_functors.h"
#include "priors/prior.h"

namespace argus {

// The per-slot arrays a scan reads (survival_likelihood.h): cumulative A and Q0 within the
// stratum, Fine-Gray's cumulative Q0 G and tails, and the event-slot terms.
struct SlotSums {
  const double* c1;
  const double* c2;
  const double* cumG;
  const double* tail1;
  const double* tail2;
  const EventSlotTerms* terms;
};

// A competing row's exit (Fine-Gray): its slot and b = u x / G(time_r-).
struct CompetingItem {
  std::int32_t slot;
  double b;
};

// One chunk's share of a coordinate's g and h: its items' sums, computed as if the chunk's
// first stratum started with it, plus what combineScans() needs to correct that when the
// chunk continues the previous chunk's last stratum. The CPU's chunks end at slot-group
// boundaries; a device's Breslow and Fine-Gray chunks may split a slot group, which merges
// as well (Efron's may not: its tie terms are quadratic in a slot's sum of events).
struct ScanPartial {
  double gradient = 0.0, first = 0.0, squared = 0.0, cross = 0.0;
  double tiedGradient = 0.0, tiedSquared = 0.0;
  std::int32_t firstSlot = -1, lastSlot = -1;  // -1: no items
  bool oneStratum = true;
  // Over the items of its first stratum: sum c2 v, sum q1 N1 (Efron, per slot group), and for
  // competing rows sum b and sum b cumG (Fine-Gray).
  double headC2V = 0.0, headQ1Tied = 0.0, headB = 0.0, headBCumG = 0.0;
  // Its last stratum's running sums at its end: sum v, sum v cumG, sum tail2 b (competing).
  double tailPrefix = 0.0, tailPrefixCG = 0.0, tailT2B = 0.0;
};

// Accumulates one coordinate's g and h from its items (MODELS.md §5), visited per stratum in
// descending slot order; a rising slot starts a new stratum. Breslow takes each item on its
// own (visitBreslow); slot groups matter to the others: Efron's tied-event terms need N1(e)
// once every item of slot e is in, and Fine-Gray's cross term needs the sums over strictly
// higher slots. Compile-time flags keep the Breslow path free of the other models' branches.
template <bool Efron, bool FineGray>
class CoordinateScan {
 public:
  // `competing`: room for as many items as the chunk has entries (Fine-Gray only).
  ARGUS_HOST_DEVICE CoordinateScan(const SlotSums& slots, CompetingItem* competing)
      : c1_(slots.c1), c2_(slots.c2), cumG_(slots.cumG), tail1_(slots.tail1), tail2_(slots.tail2),
        terms_(slots.terms), competing_(competing) {}

  // v = u x (negative for a counting-process entry); inverseG: 1/G(time_r-) for a competing
  // row's exit under Fine-Gray, else 0.
  ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE void visit(std::int32_t slot, double v, double x, bool event, double inverseG) {
    if constexpr (!Efron && !FineGray) {
      visitBreslow(slot, v, x, c1_[slot], c2_[slot]);
      return;
    }
    if (slot != slot_) {
      endGroup();
      if (slot > slot_) {
        startStratum(slot);
      } else {
        if (Efron) endSlot();
      }
      slot_ = slot;
      if (FineGray) {
        groupPrefix_ = sums_.prefix;
        groupPrefixCG_ = prefixCG_;
      }
    }
    groupV_ += v;
    groupVX_ += v * x;
    if (Efron && event) {
      tied1_ += v;
      tied2_ += v * x;
    }
    if (FineGray) {
      if (inverseG != 0.0) {
        // A competing row stays at risk after its exit, weighted by G(t_e) / G(time_r).
        const double b = v * inverseG;
        sums_.gradient += b * tail1_[slot];
        sums_.first += b * x * tail1_[slot];
        cross_ += 2.0 * b * (groupPrefixCG_ - cumG_[slot] * groupPrefix_);
        competing_[competingCount_++] = CompetingItem{slot, b};
        competingB_ += b;
        competingBCumG_ += b * cumG_[slot];
      }
    }
  }

  // Breslow: each item enters the sums on its own, c2 v (2 P + v) with P the stratum's sum
  // over the items before it; over a slot group (whose items share c1 and c2) that adds up to
  // the group's c2 V (2 P + V), so Breslow needs no groups. Without them there is no branch
  // per item: with whole days (gen.R's Cox: ~4 entries of a column per slot) the branch at
  // each group's end was mispredicted (engine, Cox 1e5 with ~1,400 days: 50 -> 41 ms per
  // cycle; with the step's per-entry adds in survival_likelihood.cpp, 28).
  // The slot's c1 and c2 come loaded: a device thread loads a few items' slot sums together
  // before visiting them, instead of waiting on memory per item.
  ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE void visitBreslow(std::int32_t slot, double v, double x, double c1, double c2) {
    static_assert(!Efron && !FineGray, "Breslow only: the other models visit slot groups");
    if (slot > slot_) startStratum(slot);
    sums_.add(v, v * x, c1, c2);
    c2v_ += c2 * v;
    slot_ = slot;
  }

  ARGUS_HOST_DEVICE ScanPartial partial() {
    endGroup();
    part_.lastSlot = slot_;
    part_.tailPrefix = sums_.prefix;
    part_.tailPrefixCG = prefixCG_;
    if (FineGray)
      for (std::int64_t i = 0; i < competingCount_; ++i)
        part_.tailT2B += tail2_[competing_[i].slot] * competing_[i].b;
    endStratum();
    if (part_.oneStratum) closeHead();
    part_.gradient = sums_.gradient;
    part_.first = sums_.first;
    part_.squared = sums_.squared;
    part_.cross = cross_;
    part_.tiedGradient = tiedGradient_;
    part_.tiedSquared = tiedSquared_;
    return part_;
  }

 private:
  // The first item, or a rising slot: a new stratum.
  ARGUS_HOST_DEVICE void startStratum(std::int32_t slot) {
    endStratum();
    if (slot_ >= 0 && part_.oneStratum) {
      closeHead();
      part_.oneStratum = false;
    }
    if (slot_ < 0) part_.firstSlot = slot;
  }

  ARGUS_HOST_DEVICE void closeHead() {
    part_.headC2V = c2v_;
    part_.headQ1Tied = q1Tied_;
    part_.headB = competingB_;
    part_.headBCumG = competingBCumG_;
  }

  // Efron and Fine-Gray: the items of the slot group just visited enter the sums as one
  // (RiskSetItemSums): per item, only two additions in registers, and the slot's c1, c2 and
  // cumG are read once. (Breslow's items entered on their own; its group sums stay zero.)
  ARGUS_HOST_DEVICE ARGUS_FORCE_INLINE void endGroup() {
    if (slot_ < 0) return;
    sums_.add(groupV_, groupVX_, c1_[slot_], c2_[slot_]);
    c2v_ += c2_[slot_] * groupV_;
    if (FineGray) prefixCG_ += groupV_ * cumG_[slot_];
    groupV_ = groupVX_ = 0.0;
  }

  ARGUS_HOST_DEVICE void endSlot() {
    if (tied1_ == 0.0 && tied2_ == 0.0) return;
    const EventSlotTerms& t = terms_[slot_];
    tiedGradient_ += t.b * tied1_;
    sums_.first -= t.b * tied2_;
    tiedSquared_ += -2.0 * t.q1 * sums_.prefix * tied1_ + t.q2 * tied1_ * tied1_;
    q1Tied_ += t.q1 * tied1_;
    tied1_ = tied2_ = 0.0;
  }

  ARGUS_HOST_DEVICE void endStratum() {
    if (Efron) endSlot();
    if (FineGray) {
      // The competing rows' share, sum_e Q0 G^2 B(e)^2 with B(e) the sum over competing
      // rows that exited below e, summed by parts in ascending slot order.
      double below = 0.0;
      for (std::int64_t i = competingCount_ - 1; i >= 0; --i) {
        const CompetingItem& it = competing_[i];
        sums_.squared += tail2_[it.slot] * it.b * (2.0 * below + it.b);
        below += it.b;
      }
      competingCount_ = 0;
      prefixCG_ = 0.0;
    }
    sums_.prefix = 0.0;
  }

  const double *c1_, *c2_, *cumG_, *tail1_, *tail2_;
  const EventSlotTerms* terms_;
  CompetingItem* competing_;
  std::int64_t competingCount_ = 0;
  RiskSetItemSums sums_;
  ScanPartial part_;
  std::int32_t slot_ = -1;
  double groupV_ = 0.0, groupVX_ = 0.0;  // the current slot group's sums of v and v x
  double groupPrefix_ = 0.0, groupPrefixCG_ = 0.0, prefixCG_ = 0.0, cross_ = 0.0;
  double tied1_ = 0.0, tied2_ = 0.0, tiedGradient_ = 0.0, tiedSquared_ = 0.0;
  // Running totals, frozen into the head when the first stratum ends.
  double c2v_ = 0.0, q1Tied_ = 0.0, competingB_ = 0.0, competingBCumG_ = 0.0;
};

// Two adjacent chunks' partials as one, `a`'s items first. Where b's first slot lies below
// a's last slot (or on it), b continues a's last stratum: b's prefix sums should have started from a's
// carried sums (P = sum v, PC = sum v cumG, T = sum tail2 b of the stratum so far), which adds
//   2 P sum c2 v              to the squared term (summation by parts),
//   -2 P sum q1 N1            to Efron's tied squared term,
//   2 (PC sum b - P sum b cumG) to Fine-Gray's cross term,
//   2 T sum b                 to Fine-Gray's competing squared term,
// all sums over b's head (its items in that stratum). The merged chunk's head is a's, grown
// by b's where a lies in that one stratum; its tail is b's, grown by a's where b does. The
// merge is associative (an empty partial, firstSlot -1, is its identity), so the CPU folds
// its few chunks left to right and a device reduces its many in a tree, in the same order.
ARGUS_HOST_DEVICE inline ScanPartial mergeScanPartials(const ScanPartial& a, const ScanPartial& b) {
  if (b.firstSlot < 0) return a;
  if (a.firstSlot < 0) return b;
  ScanPartial m;
  m.gradient = a.gradient + b.gradient;
  m.first = a.first + b.first;
  m.squared = a.squared + b.squared;
  m.cross = a.cross + b.cross;
  m.tiedGradient = a.tiedGradient + b.tiedGradient;
  m.tiedSquared = a.tiedSquared + b.tiedSquared;
  // (Equal slots: a device split one slot's entries between chunks, which Breslow and
  // Fine-Gray allow: b's competing items then take a's tail sums, a's share of that slot
  // included, as their prefix, and that share's terms cancel, b (V cumG - cumG V) = 0.)
  const bool continues = b.firstSlot <= a.lastSlot;
  if (continues) {
    m.squared += 2.0 * (a.tailPrefix * b.headC2V + a.tailT2B * b.headB);
    m.tiedSquared -= 2.0 * a.tailPrefix * b.headQ1Tied;
    m.cross += 2.0 * (a.tailPrefixCG * b.headB - a.tailPrefix * b.headBCumG);
  }
  m.firstSlot = a.firstSlot;
  m.lastSlot = b.lastSlot;
  m.oneStratum = a.oneStratum && b.oneStratum && continues;
  const bool headGrows = continues && a.oneStratum;
  m.headC2V = headGrows ? a.headC2V + b.headC2V : a.headC2V;
  m.headQ1Tied = headGrows ? a.headQ1Tied + b.headQ1Tied : a.headQ1Tied;
  m.headB = headGrows ? a.headB + b.headB : a.headB;
  m.headBCumG = headGrows ? a.headBCumG + b.headBCumG : a.headBCumG;
  const bool tailGrows = continues && b.oneStratum;
  m.tailPrefix = tailGrows ? a.tailPrefix + b.tailPrefix : b.tailPrefix;
  m.tailPrefixCG = tailGrows ? a.tailPrefixCG + b.tailPrefixCG : b.tailPrefixCG;
  m.tailT2B = tailGrows ? a.tailT2B + b.tailT2B : b.tailT2B;
  return m;
}

struct MergeScanPartials {
  ARGUS_HOST_DEVICE ScanPartial operator()(const ScanPartial& a, const ScanPartial& b) const {
    return mergeScanPartials(a, b);
  }
};

// g and h of a coordinate from the merged partial of all its chunks.
ARGUS_HOST_DEVICE inline GradHess scanGradHess(const ScanPartial& all, double linearTerm) {
  double second = all.first - (all.squared + all.cross + all.tiedSquared);
  // A covariate constant over every risk set leaves only rounding noise here.
  if (second <= 1e-12 * fabs(all.first)) second = 0.0;
  return {linearTerm - all.gradient + all.tiedGradient, -second};
}

// The chunks merged in order.
ARGUS_HOST_DEVICE inline GradHess combineScans(const ScanPartial* parts, std::int64_t n, double linearTerm) {
  ScanPartial all;
  for (std::int64_t i = 0; i < n; ++i) all = mergeScanPartials(all, parts[i]);
  return scanGradHess(all, linearTerm);
}

}  // namespace argus
