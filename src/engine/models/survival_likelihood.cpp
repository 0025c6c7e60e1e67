#include "models/survival_likelihood.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "data/censoring_survival.h"

namespace argus {

// Accumulates one coordinate's g and h from its items, visited per stratum in descending
// slot order. Slot groups matter twice: Efron's tied-event terms need N1(e) once every item
// of slot e is in, and Fine-Gray's cross term needs the sums over strictly higher slots.
class SurvivalLikelihood::CoordinateScan {
 public:
  CoordinateScan(const SurvivalLikelihood& lik, std::vector<Item>* competing)
      : lik_(lik), competing_(competing) {
    competing_->clear();
  }

  void visit(const Item& it) {
    if (it.stratum != stratum_) {
      endStratum();
      stratum_ = it.stratum;
    }
    if (it.slot != slot_) {
      endSlot();
      slot_ = it.slot;
      groupPrefix_ = sums_.prefix;
      groupPrefixCG_ = prefixCG_;
    }
    const std::size_t k = static_cast<std::size_t>(it.slot);
    sums_.add(it.v, it.x, lik_.c1_[k], lik_.c2_[k]);
    if (lik_.efron_ && it.event) {
      tied1_ += it.v;
      tied2_ += it.v * it.x;
    }
    if (lik_.fineGray_) {
      prefixCG_ += it.v * lik_.cumG_[k];
      if (it.inverseG != 0.0) {
        // A competing row stays at risk after its exit, weighted by G(t_e) / G(time_r).
        const double b = it.v * it.inverseG;
        sums_.gradient += b * lik_.tail1_[k];
        sums_.first += b * it.x * lik_.tail1_[k];
        cross_ += 2.0 * b * (groupPrefixCG_ - lik_.cumG_[k] * groupPrefix_);
        competing_->push_back(it);
        competing_->back().v = b;
      }
    }
  }

  GradHess finish(double linearTerm) {
    endStratum();
    double second = sums_.first - (sums_.squared + cross_ + tiedSquared_);
    // A covariate constant over every risk set leaves only rounding noise here.
    if (second <= 1e-12 * std::fabs(sums_.first)) second = 0.0;
    return {linearTerm - sums_.gradient + tiedGradient_, -second};
  }

 private:
  void endSlot() {
    if (tied1_ == 0.0 && tied2_ == 0.0) return;
    const EventSlotTerms& t = lik_.terms_[static_cast<std::size_t>(slot_)];
    tiedGradient_ += t.b * tied1_;
    sums_.first -= t.b * tied2_;
    tiedSquared_ += -2.0 * t.q1 * sums_.prefix * tied1_ + t.q2 * tied1_ * tied1_;
    tied1_ = tied2_ = 0.0;
  }

  void endStratum() {
    endSlot();
    // Fine-Gray: the competing rows' share, sum_e Q0 G^2 B(e)^2 with B(e) the sum over
    // competing rows that exited below e, summed by parts in ascending slot order.
    double below = 0.0;
    for (auto it = competing_->rbegin(); it != competing_->rend(); ++it) {
      sums_.squared += lik_.tail2_[static_cast<std::size_t>(it->slot)] * it->v *
                       (2.0 * below + it->v);
      below += it->v;
    }
    competing_->clear();
    sums_.prefix = 0.0;
    prefixCG_ = 0.0;
    slot_ = -1;
  }

  const SurvivalLikelihood& lik_;
  std::vector<Item>* competing_;
  RiskSetItemSums sums_;
  std::int32_t stratum_ = -1, slot_ = -1;
  double groupPrefix_ = 0.0, groupPrefixCG_ = 0.0, prefixCG_ = 0.0, cross_ = 0.0;
  double tied1_ = 0.0, tied2_ = 0.0, tiedGradient_ = 0.0, tiedSquared_ = 0.0;
};

SurvivalLikelihood::SurvivalLikelihood(const Dataset& data, const double* weights)
    : Likelihood(data, weights),
      stratum_(data.outcomes.stratum),
      index_(buildRiskSetIndex(data)),
      efron_(data.ties == TieMethod::Efron),
      fineGray_(data.model == ModelType::FineGray),
      u_(static_cast<std::size_t>(data.nRows())),
      shift_(static_cast<std::size_t>(data.outcomes.nStrata), 0.0),
      linearTerm_(data.design.nColumns(), 0.0) {
  const std::size_t slots = static_cast<std::size_t>(index_.nSlots);
  for (auto* v : {&exitRisk_, &competingRisk_, &tiedRisk_, &events_, &eventCount_, &den_, &c1_,
                  &c2_, &cumG_, &tail1_, &tail2_, &slotG_})
    v->assign(slots, 0.0);
  terms_.assign(slots, EventSlotTerms{});
  for (std::int64_t r = 0; r < nRows(); ++r) {
    if (!isEvent(r)) continue;
    const std::size_t k = static_cast<std::size_t>(index_.exitSlot[r]);
    events_[k] += weight(r);
    if (weight(r) > 0.0) eventCount_[k] += 1.0;
  }
  if (fineGray_) {
    const std::vector<double> g = censoringSurvivalBefore(data, weights);
    inverseG_.assign(g.size(), 0.0);
    std::vector<unsigned char> seen(slots, 0);
    for (std::int64_t r = 0; r < nRows(); ++r) {
      if (data.outcomes.y[r] == 2.0) inverseG_[r] = 1.0 / g[r];
      if (!isEvent(r)) continue;
      const std::size_t k = static_cast<std::size_t>(index_.exitSlot[r]);
      ARGUS_REQUIRE(!seen[k] || std::fabs(slotG_[k] - g[r]) <= 1e-12,
                    "censoring survival differs between events tied at one time");
      slotG_[k] = g[r];
      seen[k] = 1;
    }
  }
  const double* y = data.outcomes.y;
  for (std::size_t j = 0; j < data.design.nColumns(); ++j) {
    double sum = 0.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      if (y[r] == 1.0) sum += weight(r) * x;
    });
    linearTerm_[j] = sum;
  }
  if (index_.countingProcess()) buildEntryOrder();
}

namespace {

// Row and value of a column's stored entry p (dense and intercept: p is the row).
std::int64_t entryRow(const ColumnView& c, std::int64_t p) {
  return (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse) ? c.rows[p] : p;
}
double entryValue(const ColumnView& c, std::int64_t p) {
  switch (c.kind) {
    case ColumnKind::Sparse:
    case ColumnKind::Dense:
      return c.values[p];
    default:
      return 1.0;
  }
}

}  // namespace

void SurvivalLikelihood::buildEntryOrder() {
  entryOrder_.resize(data_.design.nColumns());
  for (std::size_t j = 0; j < entryOrder_.size(); ++j) {
    const ColumnView& c = column(j);
    std::vector<std::int32_t>& order = entryOrder_[j];
    order.clear();
    const std::int64_t n = (c.kind == ColumnKind::Indicator || c.kind == ColumnKind::Sparse)
                               ? c.nnz : nRows();
    for (std::int64_t p = 0; p < n; ++p) {
      const std::int64_t r = entryRow(c, p);
      // An entry at the stratum's base slot never changes a risk set.
      if (!index_.isBase(index_.entrySlot[r], stratum_[r]))
        order.push_back(static_cast<std::int32_t>(p));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
      const std::int64_t ra = entryRow(c, a), rb = entryRow(c, b);
      if (stratum_[ra] != stratum_[rb]) return stratum_[ra] < stratum_[rb];
      return index_.entrySlot[ra] > index_.entrySlot[rb];
    });
  }
}

void SurvivalLikelihood::rebuildFromEta() {
  const OutcomeView& o = data_.outcomes;
  for (std::int32_t s = 0; s < o.nStrata; ++s) {
    double top = -INFINITY;
    for (std::int64_t r = o.stratumStart[s]; r < o.stratumStart[s + 1]; ++r)
      top = std::max(top, eta_[r]);
    shift_[s] = std::isfinite(top) ? top : 0.0;
  }
  for (std::int64_t r = 0; r < nRows(); ++r)
    u_[r] = weight(r) * std::exp(eta_[r] - shift_[stratum_[r]]);
  scatterRows();
  refreshSlots();
}

// Recomputed from eta once per cycle: incremental updates of u and D drift.
void SurvivalLikelihood::refreshSums() { rebuildFromEta(); }

void SurvivalLikelihood::scatterRows() {
  std::fill(exitRisk_.begin(), exitRisk_.end(), 0.0);
  std::fill(competingRisk_.begin(), competingRisk_.end(), 0.0);
  std::fill(tiedRisk_.begin(), tiedRisk_.end(), 0.0);
  for (std::int64_t r = 0; r < nRows(); ++r) {
    const std::size_t k = static_cast<std::size_t>(index_.exitSlot[r]);
    exitRisk_[k] += u_[r];
    if (index_.countingProcess()) exitRisk_[static_cast<std::size_t>(index_.entrySlot[r])] -= u_[r];
    if (efron_ && isEvent(r)) tiedRisk_[k] += u_[r];
    if (fineGray_) competingRisk_[k] += u_[r] * inverseG_[r];
  }
}

void SurvivalLikelihood::refreshSlots() {
  logTermTotal_ = 0.0;
  for (std::int32_t s = 0; s + 1 < static_cast<std::int32_t>(index_.slotStart.size()); ++s) {
    const std::size_t lo = static_cast<std::size_t>(index_.slotStart[s]);
    const std::size_t hi = static_cast<std::size_t>(index_.slotStart[s + 1]);
    // Fine-Gray: competing rows that exited below e, weighted by G(t_e).
    double competingBelow = 0.0;
    for (std::size_t k = lo; k < hi; ++k) {
      den_[k] = fineGray_ ? slotG_[k] * competingBelow : 0.0;
      competingBelow += competingRisk_[k];
    }
    double atRisk = 0.0;
    for (std::size_t k = hi - 1; k > lo; --k) {
      atRisk += exitRisk_[k];
      den_[k] += atRisk;
      terms_[k] = efron_ ? efronEventTerms(events_[k], eventCount_[k], den_[k], tiedRisk_[k])
                         : breslowEventTerms(events_[k], den_[k]);
      logTermTotal_ += terms_[k].logTerm + events_[k] * shift_[s];
    }
    c1_[lo] = c2_[lo] = cumG_[lo] = 0.0;
    for (std::size_t k = lo + 1; k < hi; ++k) {
      c1_[k] = c1_[k - 1] + terms_[k].a;
      c2_[k] = c2_[k - 1] + terms_[k].q0;
      if (fineGray_) cumG_[k] = cumG_[k - 1] + terms_[k].q0 * slotG_[k];
    }
    if (fineGray_) {
      tail1_[hi - 1] = tail2_[hi - 1] = 0.0;
      for (std::size_t k = hi - 1; k > lo; --k) {
        tail1_[k - 1] = tail1_[k] + slotG_[k] * terms_[k].a;
        tail2_[k - 1] = tail2_[k] + slotG_[k] * slotG_[k] * terms_[k].q0;
      }
    }
  }
}

GradHess SurvivalLikelihood::gradHess(std::size_t j) const {
  CoordinateScan scan(*this, &scratch_);
  const ColumnView& c = column(j);
  auto exitItem = [&](std::int64_t r, double x) {
    return Item{stratum_[r], index_.exitSlot[r], u_[r] * x, x, isEvent(r),
                fineGray_ ? inverseG_[r] : 0.0};
  };
  if (!index_.countingProcess()) {
    forEachEntry(c, nRows(), [&](std::int64_t r, double x) { scan.visit(exitItem(r, x)); });
    return scan.finish(linearTerm_[j]);
  }
  // Counting process: merge the exits (row order) with the entries (pre-sorted) by stratum,
  // then slot descending. Entries subtract: the row was not yet at risk at or below a(r).
  const std::vector<std::int32_t>& entries = entryOrder_[j];
  std::size_t e = 0;
  auto entryItem = [&](std::int32_t p) {
    const std::int64_t r = entryRow(c, p);
    const double x = entryValue(c, p);
    return Item{stratum_[r], index_.entrySlot[r], -u_[r] * x, x, false, 0.0};
  };
  auto before = [](const Item& a, const Item& b) {
    return a.stratum < b.stratum || (a.stratum == b.stratum && a.slot > b.slot);
  };
  forEachEntry(c, nRows(), [&](std::int64_t r, double x) {
    const Item exit = exitItem(r, x);
    for (; e < entries.size(); ++e) {
      const Item entry = entryItem(entries[e]);
      if (!before(entry, exit)) break;
      scan.visit(entry);
    }
    scan.visit(exit);
  });
  for (; e < entries.size(); ++e) scan.visit(entryItem(entries[e]));
  return scan.finish(linearTerm_[j]);
}

void SurvivalLikelihood::applyStep(std::size_t j, double delta) {
  const double unitFactor = std::exp(delta);
  forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
    const double change = delta * x;
    eta_[r] += change;
    const double updated = u_[r] * ((x == 1.0) ? unitFactor : std::exp(change));
    const double du = updated - u_[r];
    u_[r] = updated;
    const std::size_t k = static_cast<std::size_t>(index_.exitSlot[r]);
    exitRisk_[k] += du;
    if (index_.countingProcess()) exitRisk_[static_cast<std::size_t>(index_.entrySlot[r])] -= du;
    if (efron_ && isEvent(r)) tiedRisk_[k] += du;
    if (fineGray_) competingRisk_[k] += du * inverseG_[r];
  });
  refreshSlots();
}

double SurvivalLikelihood::logLikelihood() const {
  double sum = 0.0;
  for (std::int64_t r = 0; r < nRows(); ++r)
    if (isEvent(r)) sum += weight(r) * eta_[r];
  return sum - logTermTotal_;
}

}  // namespace argus
