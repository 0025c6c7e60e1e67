// mergeScanPartials (models/survival_scan.h): a coordinate's scan over its entries cut into
// chunks, the chunks' partials merged in any grouping (the CPU folds left to right, a GPU
// merges in a tree), gives the g and h of one scan over all entries. Breslow and Fine-Gray
// chunks may split a slot's entries (the GPU's cut); Efron chunks end where the slot changes
// (its tie terms are quadratic in a slot's sum of events).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "models/survival_scan.h"

namespace argus {
namespace {

struct Entry {
  std::int32_t slot;
  double v, x, inverseG;
  bool event;
};

struct Sums {
  std::vector<double> c1, c2, cumG, tail1, tail2;
  std::vector<EventSlotTerms> terms;
  SlotSums view() const {
    return {c1.data(), c2.data(), cumG.data(), tail1.data(), tail2.data(), terms.data()};
  }
};

// Three strata of 40 slots; entries visited per stratum with slots descending, several per slot.
std::vector<Entry> makeEntries(std::mt19937_64& rng, Sums* sums) {
  std::uniform_real_distribution<double> unif(0.1, 1.0);
  const int slots = 120;
  for (auto* v : {&sums->c1, &sums->c2, &sums->cumG, &sums->tail1, &sums->tail2}) {
    v->resize(slots);
    for (double& x : *v) x = unif(rng);
  }
  sums->terms.resize(slots);
  for (EventSlotTerms& t : sums->terms) t = {unif(rng), unif(rng), unif(rng), unif(rng), unif(rng)};
  std::vector<Entry> out;
  for (int s = 0; s < 3; ++s)
    for (int k = 40 * s + 39; k >= 40 * s + 1; --k) {
      const int n = static_cast<int>(unif(rng) * 4.0);  // 0-3 entries at this slot
      for (int i = 0; i < n; ++i)
        out.push_back({k, unif(rng), unif(rng), unif(rng) < 0.3 ? 1.0 / unif(rng) : 0.0, unif(rng) < 0.5});
    }
  return out;
}

template <bool Efron, bool FineGray>
ScanPartial scanChunk(const Sums& sums, const std::vector<Entry>& e, std::size_t b, std::size_t end) {
  std::vector<CompetingItem> competing(end - b + 1);
  CoordinateScan<Efron, FineGray> scan(sums.view(), competing.data());
  for (std::size_t k = b; k < end; ++k)
    scan.visit(e[k].slot, e[k].v, e[k].x, Efron && e[k].event, FineGray ? e[k].inverseG : 0.0);
  return scan.partial();
}

// Merges parts[lo, hi) in a random binary tree (order kept).
ScanPartial mergeTree(const std::vector<ScanPartial>& parts, std::size_t lo, std::size_t hi, std::mt19937_64& rng) {
  if (hi - lo == 1) return parts[lo];
  std::uniform_int_distribution<std::size_t> cut(lo + 1, hi - 1);
  const std::size_t m = cut(rng);
  return mergeScanPartials(mergeTree(parts, lo, m, rng), mergeTree(parts, m, hi, rng));
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fmax(1.0, std::fabs(b)); }

// The sums g and h are made of (h clamps a non-positive second derivative to 0, which random
// slot sums can give, so the sums themselves are compared).
void expectSameSums(const ScanPartial& got, const ScanPartial& want, const char* what) {
  EXPECT_TRUE(close(got.gradient, want.gradient)) << what;
  EXPECT_TRUE(close(got.first, want.first)) << what;
  EXPECT_TRUE(close(got.squared, want.squared)) << what << ": " << got.squared << " vs " << want.squared;
  EXPECT_TRUE(close(got.cross, want.cross)) << what << ": " << got.cross << " vs " << want.cross;
  EXPECT_TRUE(close(got.tiedGradient, want.tiedGradient)) << what;
  EXPECT_TRUE(close(got.tiedSquared, want.tiedSquared)) << what << ": " << got.tiedSquared << " vs " << want.tiedSquared;
}

template <bool Efron, bool FineGray>
void checkGroupings(bool splitSlots) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    Sums sums;
    const std::vector<Entry> e = makeEntries(rng, &sums);
    const ScanPartial wholePart = scanChunk<Efron, FineGray>(sums, e, 0, e.size());
    const GradHess whole = scanGradHess(wholePart, 0.7);
    // Chunks of 1-6 entries; unless slots may split, extended to the end of their slot.
    std::vector<ScanPartial> parts;
    std::uniform_int_distribution<std::size_t> len(1, 6);
    std::size_t splits = 0;
    for (std::size_t b = 0; b < e.size();) {
      std::size_t end = std::min(e.size(), b + len(rng));
      if (!splitSlots)
        while (end < e.size() && e[end].slot == e[end - 1].slot) ++end;
      if (end < e.size() && e[end].slot == e[end - 1].slot) ++splits;
      parts.push_back(scanChunk<Efron, FineGray>(sums, e, b, end));
      b = end;
    }
    if (splitSlots) EXPECT_GT(splits, 0u);
    const GradHess folded = combineScans(parts.data(), static_cast<std::int64_t>(parts.size()), 0.7);
    EXPECT_TRUE(close(folded.g, whole.g)) << folded.g << " vs " << whole.g;
    EXPECT_TRUE(close(folded.h, whole.h)) << folded.h << " vs " << whole.h;
    ScanPartial left;
    for (const ScanPartial& p : parts) left = mergeScanPartials(left, p);
    expectSameSums(left, wholePart, "left fold");
    for (int t = 0; t < 5; ++t) expectSameSums(mergeTree(parts, 0, parts.size(), rng), wholePart, "tree");
    // The empty partial is the identity on either side.
    const ScanPartial empty;
    expectSameSums(mergeScanPartials(empty, mergeScanPartials(mergeTree(parts, 0, parts.size(), rng), empty)),
                   wholePart, "padded");
  }
}

TEST(ScanMerge, BreslowChunksSplittingSlotsMergeInAnyGrouping) { checkGroupings<false, false>(true); }
TEST(ScanMerge, EfronChunksOfWholeSlotsMergeInAnyGrouping) { checkGroupings<true, false>(false); }
TEST(ScanMerge, FineGrayChunksOfWholeSlotsMergeInAnyGrouping) { checkGroupings<false, true>(false); }
// A Fine-Gray slot group split between chunks: the later chunk's competing items take the
// earlier chunk's tail sums as their prefix, including the group's own share, whose terms
// cancel (b (V cumG(e) - cumG(e) V) = 0); the squared terms merge as Breslow's.
TEST(ScanMerge, FineGrayChunksSplittingSlotsMergeInAnyGrouping) { checkGroupings<false, true>(true); }

}  // namespace
}  // namespace argus
