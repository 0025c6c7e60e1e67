// The CPU's refresh of the survival slot arrays after a step (survival_likelihood.h), split
// into parts that threads share.
//
// With continuous event times a data set has about as many event slots as events, and the
// O(slots) refresh after every moved coordinate is most of a cycle. The slots are cut into
// at most kMaxParts parts of at least partSlots slots each. How many, and where they start,
// depends on the number of slots alone, never on the threads, so a fit is bit-identical for
// any number of threads. Each part runs the passes of survival_slot_passes.h on its pieces
// of strata (segments) with running sums started at 0; between the passes the calling thread
// carries the sums across part boundaries (a two-pass parallel prefix):
//   A. per part: den's local suffix sums (and Fine-Gray's competing prefix sums);
//      carries: D of the stratum above each part, competing u / G below it;
//   B. per part: the event-slot terms with those carries, then local cumulative sums and tails;
//      carries: c1, c2, cumG from below, tails from above;
//   C. per part: the carries added.
// Without a team the parts run in ascending order and B stores c1, c2 and cumG with their
// carries added (the same sums C forms), so only Fine-Gray's tails wait for C.
// A data set with fewer than 2 partSlots slots is one part. The design, and what was
// measured: survival_refresh.md.
#pragma once

#include <cstdint>
#include <vector>

#include "common/worker_team.h"
#include "data/risk_set_index.h"
#include "models/survival_slot_passes.h"
#include "models/survival_slot_state.h"

namespace argus {

class SlotRefresh {
 public:
  static constexpr int kMaxParts = 4;
  static constexpr std::int64_t kPartSlots = 8192;

  explicit SlotRefresh(const RiskSetIndex& index, std::int64_t partSlots = kPartSlots);

  // Rebuilds den, the terms, c1, c2 (and Fine-Gray's cumG and tails) from D (and F, the
  // competing sums). `team` may be null.
  void run(const SurvivalSlotState& st, bool efron, bool fineGray, WorkerTeam* team);
  int parts() const { return static_cast<int>(parts_.size()); }

 private:
  struct Part {
    std::int64_t begin = 0, end = 0;
    std::int32_t firstStratum = 0;  // the stratum of slot `begin`
    bool continuesBelow = false;    // its bottom segment continues a stratum of the part below
    bool continuesAbove = false;    // its top segment continues into the part above
    bool oneSegment = true;         // a single stratum piece: bottom and top segment at once
  };
  // Calls f(k0, k1, bottom, top) for each segment of part p, ascending.
  template <typename F>
  void forSegments(const Part& p, F&& f) const;
  template <typename F>
  void forParts(WorkerTeam* team, F&& f);

  const std::int32_t* slotStart_;
  std::int32_t nStrata_;
  std::vector<Part> parts_;
  // Per part: the totals of its bottom and top segments, and the carries into them.
  std::vector<SlotSegmentTotals> bottom_, top_, under_, above_;
};

}  // namespace argus
