// Likelihood of the independent-row GLMs (ls, lr, pr), parameterized by a row functor from
// glm_functors.h.
//
// Memory layout is what sets the speed here: a coordinate's gradient pass reads only the
// 16-byte derivative record of each nonzero row (1.6 MB for 1e5 rows: it stays in L2), and a
// step reads and writes eta (the base class's), the 24-byte row record and the derivatives. A step multiplies
// exp(eta) by exp(delta * x), a single exp per coordinate for indicator columns.
// g_j, h_j and the update are O(nnz_j).
#pragma once

#include <cmath>
#include <vector>

#include "models/glm_functors.h"
#include "models/likelihood.h"

namespace argus {

struct GlmRowState {
  double expEta, wy, wt;
};

template <typename Row>
class GlmLikelihood final : public Likelihood {
 public:
  GlmLikelihood(const Dataset& data, const double* weights)
      : Likelihood(data, weights),
        rows_(static_cast<std::size_t>(data.nRows())),
        derivs_(static_cast<std::size_t>(data.nRows())) {
    for (std::int64_t r = 0; r < nRows(); ++r) {
      rows_[r].wy = weight(r) * data.outcomes.y[r];
      rows_[r].wt = weight(r) * exposure(r);
    }
  }

  GradHess gradHess(std::size_t j) const override {
    double g = 0.0, h = 0.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      g += x * derivs_[r].resid;
      h -= x * x * derivs_[r].curv;
    });
    return {g, h};
  }

  void applyStep(std::size_t j, double delta) override {
    const double unitFactor = Row::kUsesExp ? std::exp(delta) : 1.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      GlmRowState& s = rows_[r];
      const double change = delta * x;
      eta_[r] += change;
      if (Row::kUsesExp) s.expEta *= (x == 1.0) ? unitFactor : std::exp(change);
      derivs_[r] = row_.derivatives(eta_[r], s.expEta, s.wy, s.wt);
    });
  }

  double logLikelihood() const override {
    double sum = 0.0;
    for (std::int64_t r = 0; r < nRows(); ++r)
      sum += row_.logLik(eta_[r], data_.outcomes.y[r], weight(r), exposure(r));
    return sum;
  }

 private:
  void rebuildFromEta() override {
    for (std::int64_t r = 0; r < nRows(); ++r) {
      GlmRowState& s = rows_[r];
      s.expEta = Row::kUsesExp ? std::exp(eta_[r]) : 0.0;
      derivs_[r] = row_.derivatives(eta_[r], s.expEta, s.wy, s.wt);
    }
  }

  Row row_;
  std::vector<GlmRowState> rows_;
  std::vector<RowDerivatives> derivs_;
};

}  // namespace argus
