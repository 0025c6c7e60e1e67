// Likelihood of the independent-row GLMs (ls, lr, pr), parameterized by a row functor from
// glm_functors.h. Caches resid_r and curv_r per row, so g_j, h_j is one pass over column j
// and a step touches only column j's rows: O(nnz_j) either way.
#pragma once

#include <vector>

#include "models/glm_functors.h"
#include "models/likelihood.h"

namespace argus {

template <typename Row>
class GlmLikelihood final : public Likelihood {
 public:
  GlmLikelihood(const Dataset& data, const double* weights)
      : Likelihood(data, weights),
        resid_(static_cast<std::size_t>(data.nRows())),
        curv_(static_cast<std::size_t>(data.nRows())) {}

  GradHess gradHess(std::size_t j) const override {
    double g = 0.0, h = 0.0;
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      g += x * resid_[r];
      h -= x * x * curv_[r];
    });
    return {g, h};
  }

  void applyStep(std::size_t j, double delta) override {
    forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
      eta_[r] += delta * x;
      updateRow(r);
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
    for (std::int64_t r = 0; r < nRows(); ++r) updateRow(r);
  }

  void updateRow(std::int64_t r) {
    const RowDerivatives d = row_(eta_[r], data_.outcomes.y[r], weight(r), exposure(r));
    resid_[r] = d.resid;
    curv_[r] = d.curv;
  }

  Row row_;
  std::vector<double> resid_;
  std::vector<double> curv_;
};

}  // namespace argus
