#include "models/conditional_likelihood.h"

#include "common/force_inline.h"
#include "common/prefetch.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "common/errors.h"
#include "models/conditional_functors.h"

namespace argus {

ConditionalLikelihood::ConditionalLikelihood(const Dataset& data, const double* weights)
    : Likelihood(data, weights),
      stratum_(data.outcomes.stratum),
      ties_(data.ties),
      u_(data.ties == TieMethod::Breslow ? 0 : static_cast<std::size_t>(data.nRows())),
      breslowRows_(data.ties == TieMethod::Breslow ? static_cast<std::size_t>(data.nRows()) : 0),
      outcomeInRecords_(outcomesFitRecords()),
      shift_(static_cast<std::size_t>(data.outcomes.nStrata), 0.0),
      strata_(static_cast<std::size_t>(data.outcomes.nStrata)),
      linearTerm_(data.design, outcomeInRecords_ ? std::vector<double>() : weightedOutcomes()),
      deferred_(data.design.nColumns()) {
  ARGUS_REQUIRE(ties_ == TieMethod::Breslow || data.model == ModelType::ConditionalLogistic,
                "ties other than Breslow are for clr only among the conditional models");
  const double* y = data.outcomes.y;
  for (std::int64_t r = 0; r < nRows(); ++r) strata_[stratum_[r]].events += weight(r) * y[r];
  if (ties_ == TieMethod::Efron) {
    const std::size_t strata = strata_.size();
    caseCount_.assign(strata, 0.0);
    caseRisk_.assign(strata, 0.0);
    efronTerms_.assign(strata, EventSlotTerms{});
    for (std::int64_t r = 0; r < nRows(); ++r)
      if (isCase(r) && weight(r) > 0.0) caseCount_[stratum_[r]] += 1.0;
  }
  if (ties_ == TieMethod::Exact) exact_ = ExactConditionalStrata(data.outcomes, weights, nRows());
  for (std::size_t r = 0; r < breslowRows_.size(); ++r) {
    breslowRows_[r].stratum = stratum_[r];
    if (outcomeInRecords_) breslowRows_[r].outcome = static_cast<float>(weight(r) * y[r]);
  }
}

bool ConditionalLikelihood::outcomesFitRecords() const {
  if (data_.ties != TieMethod::Breslow) return false;
  const double* y = data_.outcomes.y;
  bool exact = true;
  for (std::int64_t r = 0; r < nRows(); ++r) {
    const double c = weight(r) * y[r];
    exact &= std::fabs(c) <= FLT_MAX && static_cast<double>(static_cast<float>(c)) == c;
  }
  return exact;
}

std::vector<double> ConditionalLikelihood::weightedOutcomes() const {
  std::vector<double> c(static_cast<std::size_t>(nRows()));
  for (std::int64_t r = 0; r < nRows(); ++r) c[r] = weight(r) * data_.outcomes.y[r];
  return c;
}

void ConditionalLikelihood::rebuildFromEta() {
  deferred_.clear();  // eta_ was just set (reset, setEta): it holds every step taken
  std::fill(shift_.begin(), shift_.end(), -INFINITY);
  for (std::int64_t r = 0; r < nRows(); ++r)
    shift_[stratum_[r]] = runningMax(shift_[stratum_[r]], eta_[r]);
  for (double& top : shift_)
    if (!std::isfinite(top)) top = 0.0;  // an empty stratum, or eta already not finite
  const bool breslow = ties_ == TieMethod::Breslow;
  for (std::int64_t r = 0; r < nRows(); ++r) {
    const double u = scale(r) * expFromShift(eta_[r], shift_[stratum_[r]]);
    (breslow ? breslowRows_[r].u : u_[r]) = u;
  }
  weightedOutcomeEta_ = Likelihood::weightedOutcomeEta();
  refreshSums();
}

void ConditionalLikelihood::rebuild() {
  if (ties_ != TieMethod::Breslow) return Likelihood::rebuild();
  refreshSums();
}

const std::vector<double>& ConditionalLikelihood::eta() const {
  deferred_.applyTo(data_.design, const_cast<std::vector<double>*>(&eta_));
  return eta_;
}

void ConditionalLikelihood::refreshSums() {
  for (StratumSums& t : strata_) t.den = 0.0;
  if (ties_ == TieMethod::Breslow) {
    for (const BreslowRow& row : breslowRows_) strata_[row.stratum].den += row.u;
    return;
  }
  for (std::int64_t r = 0; r < nRows(); ++r) strata_[stratum_[r]].den += u_[r];
  if (ties_ != TieMethod::Efron) return;
  std::fill(caseRisk_.begin(), caseRisk_.end(), 0.0);
  for (std::int64_t r = 0; r < nRows(); ++r)
    if (isCase(r)) caseRisk_[stratum_[r]] += u_[r];
  for (std::int32_t s = 0; s < static_cast<std::int32_t>(strata_.size()); ++s) refreshEfronTerms(s);
}

// One pass over the column's entries; a change of stratum closes the previous one's term.
// Breslow and Efron strata need only the touched rows' sums (N1, N2 and, Efron, the cases'
// F1, F2); an exact stratum collects its entries and runs the recursion over all its rows.
template <TieMethod Ties>
GradHess ConditionalLikelihood::scanView(const ColumnView& c) const {
  GradHess total{0.0, 0.0};
  std::int32_t current = -1;
  bool exact = false;
  StratumMoments moments;
  double f1 = 0.0, f2 = 0.0;
  auto flush = [&]() {
    if (current < 0) return;
    GradHess t;
    if constexpr (Ties == TieMethod::Efron) {
      t = tiedStratumTerm(efronTerms_[current], moments.n1, moments.n2, f1, f2);
    } else if (Ties == TieMethod::Exact && exact) {
      t = exact_.term(current, u_.data(), eta_.data(), shift_[current], exactEntries_.data(),
                      static_cast<std::int64_t>(exactEntries_.size()));
    } else {
      const StratumSums& sums = strata_[current];
      t = conditionalStratumTerm(sums.events, sums.den, moments.n1, moments.n2);
    }
    total.g += t.g;
    total.h += t.h;
  };
  // The stratum's sums are fetched through the row's stratum: one load that may wait, but it
  // overlaps with the rest (measured on the SCCS benchmark when Breslow ran here: 7.7 -> 6.8
  // ms per pass). Efron reads its slot terms instead.
  auto ahead = [&](std::int64_t r) {
    ARGUS_PREFETCH(&u_[r]);
    if constexpr (Ties != TieMethod::Efron) ARGUS_PREFETCH(&strata_[stratum_[r]]);
  };
  forEachEntryPrefetched(c, nRows(), ahead, [&](std::int64_t r, double x) {
    const std::int32_t s = stratum_[r];
    if (s != current) {
      flush();
      current = s;
      moments = StratumMoments{};
      if constexpr (Ties == TieMethod::Efron) f1 = f2 = 0.0;
      if constexpr (Ties == TieMethod::Exact) {
        exact = exact_.isExact(s);
        exactEntries_.clear();
      }
    }
    if constexpr (Ties == TieMethod::Exact) {
      if (exact) {
        exactEntries_.push_back({r, x});
        return;
      }
    }
    const double a = moments.add(u_[r], x);
    if constexpr (Ties == TieMethod::Efron) {
      if (isCase(r)) {
        f1 += a;
        f2 += a * x;
      }
    }
  });
  flush();
  return total;
}

// u_r = c_r exp(eta_r) is updated by multiplication: one exp per coordinate for indicator
// columns. refreshSums() re-adds den (and Efron's F) from u once per cycle; reset()
// recomputes u exactly. Efron's slot terms follow den and F, so each touched stratum's are
// recomputed once its run of entries ends (O(cases) each). Breslow's step is stepBreslow().
void ConditionalLikelihood::stepEfron(const ColumnView& c, double delta) {
  const double unitFactor = std::exp(delta);
  std::int32_t current = -1;
  auto ahead = [&](std::int64_t r) {
    ARGUS_PREFETCH(&u_[r]);
    ARGUS_PREFETCH(&eta_[r]);
    ARGUS_PREFETCH(&strata_[stratum_[r]]);
  };
  forEachEntryPrefetched(c, nRows(), ahead, [&](std::int64_t r, double x) {
    const double du = moveRiskEntry(eta_[r], u_[r], x, delta, unitFactor);
    const std::int32_t s = stratum_[r];
    strata_[s].den += du;
    if (isCase(r)) caseRisk_[s] += du;
    if (s != current) {
      if (current >= 0) refreshEfronTerms(current);
      current = s;
    }
  });
  if (current >= 0) refreshEfronTerms(current);
}

// The Breslow scan (SCCS, cpr, clr's default) as one plain loop per column kind, its sums
// held in registers; scanView() keeps Efron and Exact. In the lambda form GCC kept the
// running moments and (g, h) in the stack frame at R's -O2 (R's Argus.so: the entry loop a
// separate function, each entry a load and store of the sums).
// The row records are prefetched 96 entries ahead and the strata (whose index is in the
// record) 24 ahead: with 64 and 32 the read of a record's stratum for the second prefetch
// waited on memory (30% of the scan's samples on that one load, R's SCCS fit); 96 / 24 took
// a whole engine SCCS fit 0.88-0.93 of its time (in-process A/B, medians of 10), 128 / 24
// 0.93, 96 / 32 0.91-0.95, 96 / 48 0.98. The step's distances measured alike either way.
template <ColumnKind Kind, bool WithLinear>
ARGUS_NO_SLP GradHess ConditionalLikelihood::scanBreslow(const ColumnView& c, double* linear) const {
  constexpr std::int64_t kRecordsAhead = 96, kStrataAhead = 24;
  constexpr bool kStored = Kind == ColumnKind::Indicator || Kind == ColumnKind::Sparse;
  const std::int32_t* rows = c.rows;
  const std::int64_t nnz = kStored ? c.nnz : nRows();
  double g = 0.0, h = 0.0, lin = 0.0;
  std::int32_t current = -1;
  StratumMoments moments;
  const BreslowRow* records = breslowRows_.data();
  for (std::int64_t k = 0; k < nnz; ++k) {
    if (kStored && k + kRecordsAhead < nnz) ARGUS_PREFETCH(&records[rows[k + kRecordsAhead]]);
    if (kStored && k + kStrataAhead < nnz) ARGUS_PREFETCH(&strata_[records[rows[k + kStrataAhead]].stratum]);
    const std::int64_t r = kStored ? rows[k] : k;
    const std::int32_t s = records[r].stratum;
    if (s != current) {
      if (current >= 0) {
        const GradHess t = conditionalStratumTerm(strata_[current].events, strata_[current].den,
                                                  moments.n1, moments.n2);
        g += t.g;
        h += t.h;
      }
      current = s;
      moments = StratumMoments{};
    }
    const double x = kindEntryValue<Kind>(c, k);
    moments.add(records[r].u, x);
    if constexpr (WithLinear) lin += static_cast<double>(records[r].outcome) * x;
  }
  if (current >= 0) {
    const GradHess t = conditionalStratumTerm(strata_[current].events, strata_[current].den,
                                              moments.n1, moments.n2);
    g += t.g;
    h += t.h;
  }
  if constexpr (WithLinear) *linear = lin;
  return {g, h};
}

// The Breslow step, as plain a loop as the scan above. MovesEta = false: a column's step,
// whose share of eta is deferred (applyStep()); the records and the sums are all it moves.
template <ColumnKind Kind, bool MovesEta>
void ConditionalLikelihood::stepBreslow(const ColumnView& c, double delta) {
  constexpr std::int64_t kAhead = 32;
  constexpr bool kStored = Kind == ColumnKind::Indicator || Kind == ColumnKind::Sparse;
  const double unitFactor = std::exp(delta);
  const std::int32_t* rows = c.rows;
  const std::int64_t nnz = kStored ? c.nnz : nRows();
  if (ties_ != TieMethod::Breslow) {  // Exact (clr's small sets): u in u_, for the recursion
    ARGUS_REQUIRE(MovesEta, "only the Breslow path defers eta");
    for (std::int64_t k = 0; k < nnz; ++k) {
      const std::int64_t r = kStored ? rows[k] : k;
      strata_[stratum_[r]].den += moveRiskEntry(eta_[r], u_[r], kindEntryValue<Kind>(c, k), delta, unitFactor);
    }
    return;
  }
  BreslowRow* records = breslowRows_.data();
  for (std::int64_t k = 0; k < nnz; ++k) {
    if (kStored && k + 2 * kAhead < nnz) {
      const std::int32_t ahead = rows[k + 2 * kAhead];
      ARGUS_PREFETCH(&records[ahead]);
      if constexpr (MovesEta) ARGUS_PREFETCH(&eta_[ahead]);
    }
    if (kStored && k + kAhead < nnz) ARGUS_PREFETCH(&strata_[records[rows[k + kAhead]].stratum]);
    const std::int64_t r = kStored ? rows[k] : k;
    BreslowRow& row = records[r];
    const double x = kindEntryValue<Kind>(c, k);
    if constexpr (MovesEta) {
      strata_[row.stratum].den += moveRiskEntry(eta_[r], row.u, x, delta, unitFactor);
    } else {
      strata_[row.stratum].den += scaleRiskEntry(row.u, x, delta, unitFactor);
    }
  }
}

GradHess ConditionalLikelihood::scan(const ColumnView& c) const {
  switch (ties_) {
    case TieMethod::Efron: return scanView<TieMethod::Efron>(c);
    case TieMethod::Exact: return scanView<TieMethod::Exact>(c);
    case TieMethod::Breslow: break;
  }
  switch (c.kind) {
    case ColumnKind::Indicator: return scanBreslow<ColumnKind::Indicator, false>(c, nullptr);
    case ColumnKind::Sparse: return scanBreslow<ColumnKind::Sparse, false>(c, nullptr);
    case ColumnKind::Dense: return scanBreslow<ColumnKind::Dense, false>(c, nullptr);
    case ColumnKind::Intercept: break;
  }
  return scanBreslow<ColumnKind::Intercept, false>(c, nullptr);
}

// The first scan of a column whose linear term the records carry: the term is summed in the
// same pass, in entry order (linearFromRecords()'s sum, to the bit). A separate pass cost
// about 4% of an SCCS fit (perf, R) though its records were then in cache for the scan.
GradHess ConditionalLikelihood::scanWithLinear(const ColumnView& c, double* linear) const {
  switch (c.kind) {
    case ColumnKind::Indicator: return scanBreslow<ColumnKind::Indicator, true>(c, linear);
    case ColumnKind::Sparse: return scanBreslow<ColumnKind::Sparse, true>(c, linear);
    case ColumnKind::Dense: return scanBreslow<ColumnKind::Dense, true>(c, linear);
    case ColumnKind::Intercept: break;
  }
  return scanBreslow<ColumnKind::Intercept, true>(c, linear);
}

template <bool MovesEta>
void ConditionalLikelihood::stepByKind(const ColumnView& c, double delta) {
  switch (c.kind) {
    case ColumnKind::Indicator: return stepBreslow<ColumnKind::Indicator, MovesEta>(c, delta);
    case ColumnKind::Sparse: return stepBreslow<ColumnKind::Sparse, MovesEta>(c, delta);
    case ColumnKind::Dense: return stepBreslow<ColumnKind::Dense, MovesEta>(c, delta);
    case ColumnKind::Intercept: break;
  }
  stepBreslow<ColumnKind::Intercept, MovesEta>(c, delta);
}

void ConditionalLikelihood::step(const ColumnView& c, double delta) {
  // Exact strata keep no sums of their own: u (and den, for the Breslow strata) is all.
  if (ties_ == TieMethod::Efron) {
    stepEfron(c, delta);
    return;
  }
  stepByKind<true>(c, delta);
}

// sum_r c_r x_rj from the records (outcomeInRecords_): ColumnLinearTerms' sum, term for term
// in its order (each float is c_r exactly). A column's first scan sums it in its own pass
// (scanWithLinear); this pass is for a step applied before any scan of its column (the
// sweep always scans first; a caller may step directly). Reading the records, not an N-array of
// c of its own, saved 3-7% of an R SCCS fit when this pass ran before every first scan.
template <ColumnKind Kind>
double ConditionalLikelihood::linearFromRecords(const ColumnView& c) const {
  constexpr std::int64_t kAhead = 64;
  constexpr bool kStored = Kind == ColumnKind::Indicator || Kind == ColumnKind::Sparse;
  const std::int64_t nnz = kStored ? c.nnz : nRows();
  const BreslowRow* records = breslowRows_.data();
  double sum = 0.0;
  for (std::int64_t k = 0; k < nnz; ++k) {
    if (kStored && k + kAhead < nnz) ARGUS_PREFETCH(&records[c.rows[k + kAhead]]);
    const std::int64_t r = kStored ? c.rows[k] : k;
    sum += static_cast<double>(records[r].outcome) * kindEntryValue<Kind>(c, k);
  }
  return sum;
}

double ConditionalLikelihood::linearTerm(std::size_t j) const {
  if (outcomeInRecords_ && !linearTerm_.known(j)) {
    const ColumnView& c = column(j);
    double sum = 0.0;
    switch (c.kind) {
      case ColumnKind::Indicator: sum = linearFromRecords<ColumnKind::Indicator>(c); break;
      case ColumnKind::Sparse: sum = linearFromRecords<ColumnKind::Sparse>(c); break;
      case ColumnKind::Dense: sum = linearFromRecords<ColumnKind::Dense>(c); break;
      case ColumnKind::Intercept: sum = linearFromRecords<ColumnKind::Intercept>(c); break;
    }
    linearTerm_.set(j, sum);
  }
  return linearTerm_(j);
}

GradHess ConditionalLikelihood::gradHess(std::size_t j) const {
  if (outcomeInRecords_ && !linearTerm_.known(j)) {
    double linear = 0.0;
    const GradHess terms = scanWithLinear(column(j), &linear);
    linearTerm_.set(j, linear);
    return withLinearTerm(terms, linear);
  }
  return withLinearTerm(scan(column(j)), linearTerm(j));
}

void ConditionalLikelihood::applyStep(std::size_t j, double delta) {
  if (ties_ == TieMethod::Breslow) {
    stepByKind<false>(column(j), delta);
    deferred_.add(j, delta);
  } else {
    step(column(j), delta);
  }
  weightedOutcomeEta_ += delta * linearTerm(j);
}

// Along an eta direction d: exactly gradHess() and applyStep() of a dense column holding d,
// whose linear term sum w y d is summed in the same order as ColumnLinearTerms does.
GradHess ConditionalLikelihood::gradHessAlong(const std::vector<double>& d) const {
  ARGUS_REQUIRE(static_cast<std::int64_t>(d.size()) == nRows(), "direction has the wrong length");
  return withLinearTerm(scan(denseColumnView(d)),
                        weightedOutcomeDot(nRows(), weights_, data_.outcomes.y, d.data()));
}

void ConditionalLikelihood::stepAlong(const std::vector<double>& d, double alpha) {
  ARGUS_REQUIRE(static_cast<std::int64_t>(d.size()) == nRows(), "direction has the wrong length");
  step(denseColumnView(d), alpha);
  weightedOutcomeEta_ += alpha * weightedOutcomeDot(nRows(), weights_, data_.outcomes.y, d.data());
}

double ConditionalLikelihood::logLikelihood() const {
  double sum = weightedOutcomeEta_;
  for (std::int32_t s = 0; s < static_cast<std::int32_t>(strata_.size()); ++s) {
    if (strata_[s].events == 0.0) continue;
    sum -= strata_[s].events * shift_[s];  // every stratum term is of degree n_s in u
    if (ties_ == TieMethod::Efron) {
      sum -= eventLogTerm(true, strata_[s].events, caseCount_[s], strata_[s].den, caseRisk_[s]);
    } else if (ties_ == TieMethod::Exact && exact_.isExact(s)) {
      sum -= exact_.logTerm(s, u_.data(), eta_.data(), shift_[s]);
    } else {
      sum -= strata_[s].events * std::log(strata_[s].den);
    }
  }
  return sum;
}

}  // namespace argus
