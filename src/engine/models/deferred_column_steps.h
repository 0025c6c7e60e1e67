// Coordinate steps not yet added to eta: per column, the sum of the deltas taken since eta
// was last brought up to date.
//
// Why: in a conditional Breslow fit (SCCS, cpr, clr) nothing in a cycle reads eta. The
// scan and the step need only u_r = c_r exp(eta_r - shift_s), moved by multiplication, and
// the stratum sums; sum_r w_r y_r eta_r, which the "gradient" criterion watches, moves by
// delta sum_r w_r y_r x_rj, the column's linear term. Writing eta_r at every entry of every
// step was a third random cache line per entry (the row record and the stratum sums are the
// others). Deferred, eta is brought up to date in one pass over the moved columns when
// something asks for it (a readout of eta, a rebuild at the end of the fit): SCCS 1e5 cases
// x 200 drugs, a whole engine fit 0.78-0.89 of its time, in-process A/B (bench/RESULTS.md).
//
// applyTo() adds each column's pending sum times its entries, column by column: eta differs
// from the entry-by-entry updates only by rounding (the same terms, grouped per column).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/column.h"

namespace argus {

class DeferredColumnSteps {
 public:
  explicit DeferredColumnSteps(std::size_t nColumns) : pending_(nColumns, 0.0) {}

  void add(std::size_t j, double delta) {
    pending_[j] += delta;
    any_ = true;
  }
  bool any() const { return any_; }
  // Forgets the pending steps: eta was set from elsewhere (reset, setEta), which holds them.
  void clear() {
    if (!any_) return;
    std::fill(pending_.begin(), pending_.end(), 0.0);
    any_ = false;
  }
  // eta += X pending, then nothing is pending.
  void applyTo(const DesignView& design, std::vector<double>* eta) {
    if (!any_) return;
    addDesignTimes(design, pending_.data(), eta->data());
    clear();
  }

 private:
  std::vector<double> pending_;
  bool any_ = false;
};

}  // namespace argus
