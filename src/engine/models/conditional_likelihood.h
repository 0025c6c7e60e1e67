// Conditional logistic / conditional Poisson / SCCS likelihood (see conditional_functors.h
// for the formulas). Rows are grouped by stratum in the internal order, so walking column j's
// nonzeros in row order meets each touched stratum in one run: g_j, h_j cost O(nnz_j), and a
// step updates u_r and den_s on those rows only.
//
// clr takes three tie methods (Dataset::ties): Breslow (den_s^n_s, as cpr and sccs), Efron
// (per stratum one Efron event slot, terms cached per stratum and refreshed for the strata a
// step touches) and Exact (strata with two or more cases through ExactConditionalStrata, the
// others on the Breslow path, which is exact for one case). The scan and the step are
// compiled per tie method, so the Breslow path carries no Efron or Exact branches, and they
// take any ColumnView: a dense view of an eta direction gives gradHessAlong() and stepAlong().
// On the Breslow path a coordinate's step moves u and den only; eta's share waits in
// DeferredColumnSteps until something reads eta, and sum w y eta moves by delta times the
// column's linear term (deferred_column_steps.h says why).
#pragma once

#include <vector>

#include "models/column_linear_terms.h"
#include "models/deferred_column_steps.h"
#include "models/exact_conditional_strata.h"
#include "models/likelihood.h"
#include "models/survival_functors.h"

namespace argus {

class ConditionalLikelihood final : public Likelihood {
 public:
  ConditionalLikelihood(const Dataset& data, const double* weights);

  void refreshSums() override;
  GradHess gradHess(std::size_t j) const override;
  void applyStep(std::size_t j, double delta) override;
  double logLikelihood() const override;
  bool supportsDirection() const override { return true; }
  // The cycle extrapolation's O(N) passes cost more than they save here: SCCS has fewer
  // entries than rows (bench/sccs.R 1e5 x 200: 5 cycles either way, 5.8 ms per cycle without,
  // 8.9 with), and the block Newton step takes the dense, coupled columns.
  bool extrapolatesCycles() const override { return false; }
  GradHess gradHessAlong(const std::vector<double>& d) const override;
  void stepAlong(const std::vector<double>& d, double alpha) override;
  // Current eta: the deferred steps are added first (eta is logically part of the state,
  // so bringing it up to date does not change what this const object is). It writes eta_,
  // so a likelihood is not to be read from two threads at once (none is: each fit, fold and
  // replicate has its own).
  const std::vector<double>& eta() const override;
  // sum_r w_r y_r eta_r, kept as eta moves (no pass over the rows per readout).
  double weightedOutcomeEta() const override { return weightedOutcomeEta_; }
  // Breslow: the stratum sums afresh from the rows' u, which the steps move by
  // multiplication (no drift to speak of), leaving the deferred steps deferred: bringing eta
  // up to date (a pass over every moved column's entries) and one exp per row cost ~8 ms of
  // a 117 ms SCCS 1e5 x 200 fit, for a final readout that reads no eta. Other ties: eta is
  // current, and the rebuild from it is the base class's.
  void rebuild() override;

 private:
  template <TieMethod Ties>
  GradHess scanView(const ColumnView& c) const;
  void stepEfron(const ColumnView& c, double delta);
  // The stratum terms of column c (withLinearTerm() adds the linear term); WithLinear: the
  // column's linear term from the records too, into *linear (its first scan).
  template <ColumnKind Kind, bool WithLinear>
  GradHess scanBreslow(const ColumnView& c, double* linear) const;
  template <ColumnKind Kind, bool MovesEta>
  void stepBreslow(const ColumnView& c, double delta);
  GradHess scan(const ColumnView& c) const;
  GradHess scanWithLinear(const ColumnView& c, double* linear) const;  // Breslow, records
  // Moves u, the sums and eta (stepAlong's direction, Efron, Exact); stepByKind<false> the
  // Breslow records and sums only (a column's step, eta deferred).
  void step(const ColumnView& c, double delta);
  template <bool MovesEta>
  void stepByKind(const ColumnView& c, double delta);

  void rebuildFromEta() override;
  double scale(std::int64_t r) const { return weight(r) * exposure(r); }  // c_r
  bool isCase(std::int64_t r) const { return data_.outcomes.y[r] != 0.0; }
  std::vector<double> weightedOutcomes() const;  // w_r y_r
  bool outcomesFitRecords() const;               // Breslow, every w_r y_r exactly a float
  double linearTerm(std::size_t j) const;
  template <ColumnKind Kind>
  double linearFromRecords(const ColumnView& c) const;
  void refreshEfronTerms(std::int32_t s) {
    const StratumSums& sums = strata_[s];
    efronTerms_[s] = efronEventTerms(sums.events, caseCount_[s], sums.den, caseRisk_[s]);
  }

  const std::int32_t* stratum_;
  const TieMethod ties_;
  // c_r exp(eta_r - shift_s): each stratum's likelihood is invariant to a common shift of
  // its eta, so u is kept relative to the stratum's largest eta (set at every rebuild) and
  // exp() cannot overflow (an offset of 800 used to give inf); logLikelihood() adds
  // events_s shift_s back.
  // Efron and Exact keep u in u_; Breslow keeps it beside the row's stratum (BreslowRow), so
  // that a scan's entry gathers one cache line for both, not two (and a step three, not
  // four). R, SCCS 1e5 cases x 200 drugs, medians of 9 fits in ten alternating processes:
  // faster in nine, 0.107-0.154 -> 0.108-0.131 s. (The engine bench, which builds a fresh
  // likelihood per fit, pays the larger array's first touch and shows it slower; R reuses
  // its freed memory.)
  std::vector<double> u_;
  // The record's last 4 bytes carry c_r = w_r y_r where every c_r is exactly a float
  // (counts, integer weights: outcomeInRecords_), so that a column's linear term is summed
  // from the records its first scan gathers anyway, not from a separate N-array.
  struct BreslowRow {
    double u = 0.0;
    std::int32_t stratum = 0;
    float outcome = 0.0f;
  };
  std::vector<BreslowRow> breslowRows_;
  const bool outcomeInRecords_;
  std::vector<double> shift_;      // per stratum
  // Per stratum, side by side (a column's scan reads both of a stratum it meets: one cache
  // line): den_s and n_s = sum w y, fixed for the fit.
  struct StratumSums {
    double den = 0.0;
    double events = 0.0;
  };
  std::vector<StratumSums> strata_;
  ColumnLinearTerms linearTerm_;   // sum_r w_r y_r x_rj, fixed for the fit
  // The Breslow path's steps not yet in eta_ (eta() adds them), and sum_r w_r y_r eta_r with
  // them: computed at every rebuild, moved by every step.
  mutable DeferredColumnSteps deferred_;
  double weightedOutcomeEta_ = 0.0;
  // Efron only, per stratum: positively weighted cases, their share of den (F_s), slot terms.
  std::vector<double> caseCount_;
  std::vector<double> caseRisk_;
  std::vector<EventSlotTerms> efronTerms_;
  // Exact only: the strata with several cases, and the scanned column's entries in the
  // current one (the recursion walks every row of the stratum).
  ExactConditionalStrata exact_;
  mutable std::vector<StratumEntry> exactEntries_;
};

}  // namespace argus
