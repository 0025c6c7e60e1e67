#include "models/survival_baseline.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "data/censoring_survival.h"
#include "data/risk_set_index.h"
#include "models/survival_functors.h"

namespace argus {

BaselineHazard baselineHazard(const Dataset& data, const double* weights,
                              const std::vector<double>& eta) {
  ARGUS_REQUIRE(isSurvival(data.model), "a baseline hazard needs a cox or fgr data set");
  const std::int64_t n = data.nRows();
  ARGUS_REQUIRE(static_cast<std::int64_t>(eta.size()) == n, "eta has the wrong length");
  const OutcomeView& o = data.outcomes;
  const RiskSetIndex index = buildRiskSetIndex(data);
  const bool fineGray = data.model == ModelType::FineGray;
  const std::vector<double> g = fineGray ? censoringSurvivalBefore(data, weights)
                                         : std::vector<double>();
  auto weight = [&](std::int64_t r) { return weights ? weights[r] : 1.0; };
  const std::size_t slots = static_cast<std::size_t>(index.nSlots);
  // Per slot: D (exits minus entries), Fine-Gray's u/G of competing rows exiting there, and
  // the event sums d, m, F, as in the likelihood (DESIGN.md, "State per slot").
  std::vector<double> exits(slots, 0.0), competing(slots, 0.0), events(slots, 0.0),
      count(slots, 0.0), tied(slots, 0.0), slotG(slots, 1.0);

  BaselineHazard out;
  for (std::int32_t s = 0; s < o.nStrata; ++s) {
    const std::int64_t lo = o.stratumStart[s], hi = o.stratumStart[s + 1];
    // u = w exp(eta - shift) with shift the stratum's largest eta, so that exp cannot
    // overflow; the jumps scale by exp(-shift), taken off at the end.
    double shift = -INFINITY;
    for (std::int64_t r = lo; r < hi; ++r) shift = std::max(shift, eta[r]);
    for (std::int64_t r = lo; r < hi; ++r) {
      const double u = weight(r) * std::exp(eta[r] - shift);
      const std::size_t b = static_cast<std::size_t>(index.exitSlot[r]);
      exits[b] += u;
      if (index.countingProcess()) exits[static_cast<std::size_t>(index.entrySlot[r])] -= u;
      if (o.y[r] == 1.0) {
        events[b] += weight(r);
        if (weight(r) > 0.0) count[b] += 1.0;
        tied[b] += u;
        if (fineGray) slotG[b] = g[r];
      } else if (fineGray && o.y[r] == 2.0) {
        competing[b] += u / g[r];
      }
    }
    const std::int32_t base = index.slotStart[s], end = index.slotStart[s + 1];
    // den_e: the suffix sum of D over slots >= e, plus G(t_e-) times the competing rows that
    // exited below e (a prefix sum).
    std::vector<double> den(static_cast<std::size_t>(end - base), 0.0);
    double suffix = 0.0;
    for (std::int32_t k = end - 1; k > base; --k) {
      suffix += exits[k];
      den[k - base] = suffix;
    }
    double below = competing[base];
    for (std::int32_t k = base + 1; k < end; ++k) {
      if (fineGray) den[k - base] += slotG[k] * below;
      below += competing[k];
      const EventSlotTerms t = data.ties == TieMethod::Efron
                                   ? efronEventTerms(events[k], count[k], den[k - base], tied[k])
                                   : breslowEventTerms(events[k], den[k - base]);
      out.stratum.push_back(s);
      out.time.push_back(index.slotTime[k]);
      out.jump.push_back(t.a * std::exp(-shift));
    }
  }
  return out;
}

}  // namespace argus
