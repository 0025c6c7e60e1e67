// The conditional device model's per-run and per-stratum work (device_conditional_likelihood.h),
// compiled per tie method as the CPU's scan and step are (conditional_likelihood.h):
// Breslow (sccs, cpr, clr), clr's Efron strata (one Cox event slot per stratum, its terms
// cached and refreshed by the thread that moved the stratum) and clr's exact strata (strata
// with two or more cases run the recursion over all their rows: one thread per run, with the
// stratum's own scratch, since a column's run is the only one in its stratum). The formulas
// are the CPU's: conditionalStratumTerm, tiedStratumTerm, efronEventTerms, eventLogTerm,
// exactStratumGradHess, exactStratumLogTerm.
//
// An exact stratum whose term is not finite marks itself in `failed` (one byte per stratum,
// each written by one thread); the host looks after the sweep and raises the CPU's error.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/host_device.h"
#include "data/dataset.h"
#include "device/device_columns.h"
#include "device/device_stratum_runs.h"
#include "models/conditional_functors.h"
#include "models/exact_conditional_functors.h"
#include "models/survival_functors.h"

namespace argus {

struct ConditionalDeviceScalars {
  double step = 0.0;        // the last coordinate's step (0: did not move)
  double unitFactor = 1.0;  // exp(step)
  std::int64_t moved = 0;
  GradHess gh;              // the last coordinate's g, h
  double reduced = 0.0;     // a scalar readout
};

namespace conditional_device {

struct State {
  double* eta;
  double* u;
  double* den;
  double* shift;
  const double* events;
  const double* y;
  const std::int64_t* first;  // per stratum, its rows [first, end)
  const std::int64_t* end;
  // Efron: per stratum its positively weighted cases, their u (F) and the slot terms.
  const double* caseCount;
  double* caseRisk;
  EventSlotTerms* efron;
  // Exact: per stratum its cases (>= 2: exact), weight and scratch offset (cases + 1 for each
  // exact stratum before it); the scratch; failures.
  const int* cases;
  const double* exactWeight;
  const std::int64_t* scratchStart;
  ExactLevel* levels;
  double* heap;
  unsigned char* failed;
  ARGUS_HOST_DEVICE bool isExact(std::int32_t s) const { return cases[s] >= 2; }
  ARGUS_HOST_DEVICE ExactScratch scratch(std::int32_t s) const {
    return {levels + scratchStart[s], heap + scratchStart[s]};  // cases + 1 levels, cases doubles
  }
};

// A run's entries as exactStratumGradHess reads them.
struct RunEntries {
  ColumnEntries col;
  std::int64_t begin;
  ARGUS_HOST_DEVICE std::int64_t row(std::int64_t e) const { return col.row(begin + e); }
  ARGUS_HOST_DEVICE double x(std::int64_t e) const { return col.value(begin + e); }
};

template <TieMethod Ties>
struct RunTerms {
  RunView runs;
  ColumnEntries col;
  State st;
  GradHess* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int32_t s = runs.stratum[i];
    const std::int64_t b = runs.begin[i], e = runs.begin[i + 1];
    if (Ties == TieMethod::Exact && st.isExact(s)) {
      bool ok = true;
      out[i] = exactStratumGradHess(st.cases[s], st.exactWeight[s], st.u, st.first[s], st.end[s],
                                    RunEntries{col, b}, e - b, st.scratch(s), &ok);
      if (!ok) {
        st.failed[s] = 1;
        out[i] = GradHess{0.0, 0.0};
      }
      return;
    }
    StratumMoments moments;
    double f1 = 0.0, f2 = 0.0;
    for (std::int64_t k = b; k < e; ++k) {
      const std::int64_t r = col.row(k);
      const double x = col.value(k);
      const double a = moments.add(st.u[r], x);
      if (Ties == TieMethod::Efron && st.y[r] != 0.0) {
        f1 += a;
        f2 += a * x;
      }
    }
    out[i] = Ties == TieMethod::Efron ? tiedStratumTerm(st.efron[s], moments.n1, moments.n2, f1, f2)
                                      : conditionalStratumTerm(st.events[s], st.den[s], moments.n1, moments.n2);
  }
};

// A step on one run: its entries' eta and u, its stratum's den (Efron: and F, then the
// stratum's terms). Exact strata keep no sums of their own (u is all), as on the CPU.
template <TieMethod Ties>
struct ApplyRuns {
  RunView runs;
  ColumnEntries col;
  State st;
  const ConditionalDeviceScalars* sc;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const {
    const double delta = sc->step;
    if (delta == 0.0) return;
    const std::int32_t s = runs.stratum[i];
    for (std::int64_t k = runs.begin[i]; k < runs.begin[i + 1]; ++k) {
      const std::int64_t r = col.row(k);
      const double du = moveRiskEntry(st.eta[r], st.u[r], col.value(k), delta, sc->unitFactor);
      st.den[s] += du;
      if (Ties == TieMethod::Efron && st.y[r] != 0.0) st.caseRisk[s] += du;
    }
    if (Ties == TieMethod::Efron) st.efron[s] = efronEventTerms(st.events[s], st.caseCount[s], st.den[s], st.caseRisk[s]);
  }
};

// Per stratum: den_s = sum of u over its rows (row order), after `rebuild` also shift_s (the
// largest eta, 0 if none is finite) and u_r; Efron also F_s and the slot terms.
template <TieMethod Ties>
struct StratumSums {
  State st;
  const double* scale;  // c_r = w_r exposure_r
  bool rebuild;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    const std::int64_t first = st.first[s], end = st.end[s];
    if (rebuild) {
      const double top = stratumShift(st.eta, first, end);
      st.shift[s] = top;
      for (std::int64_t r = first; r < end; ++r) st.u[r] = scale[r] * expFromShift(st.eta[r], top);
    }
    double sum = 0.0;
    for (std::int64_t r = first; r < end; ++r) sum += st.u[r];
    st.den[s] = sum;
    if (Ties != TieMethod::Efron) return;
    double cases = 0.0;
    for (std::int64_t r = first; r < end; ++r)
      if (st.y[r] != 0.0) cases += st.u[r];
    st.caseRisk[s] = cases;
    st.efron[s] = efronEventTerms(st.events[s], st.caseCount[s], sum, cases);
  }
};

// The log-likelihood's terms in the CPU's order: w y eta per row, then per stratum with
// events -n_s shift_s and minus its log term (Breslow n_s log den_s, Efron's, exact w_s log B_s).
template <TieMethod Ties>
struct LogLikTerm {
  std::int64_t n;
  const double* w;
  State st;
  ARGUS_HOST_DEVICE double operator()(std::int64_t k) const {
    if (k < n) return w[k] * st.y[k] * st.eta[k];
    const std::int32_t s = static_cast<std::int32_t>((k - n) / 2);
    const double events = st.events[s];
    if (events == 0.0) return 0.0;
    if ((k - n) % 2 == 0) return -(events * st.shift[s]);
    if (Ties == TieMethod::Efron) return -eventLogTerm(true, events, st.caseCount[s], st.den[s], st.caseRisk[s]);
    if (Ties == TieMethod::Exact && st.isExact(s)) {
      bool ok = true;
      const double value = exactStratumLogTerm(st.cases[s], st.exactWeight[s], st.u, st.first[s], st.end[s],
                                               st.scratch(s), &ok);
      if (ok) return -value;
      st.failed[s] = 1;
      return 0.0;
    }
    return -(events * log(st.den[s]));
  }
};

struct FailedCount {
  const unsigned char* failed;
  ARGUS_HOST_DEVICE double operator()(std::int64_t s) const { return failed[s] ? 1.0 : 0.0; }
};

}  // namespace conditional_device
}  // namespace argus
