// Conditional logistic / conditional Poisson / SCCS likelihood (see conditional_functors.h
// for the formulas). Rows are grouped by stratum in the internal order, so walking column j's
// nonzeros in row order meets each touched stratum in one run: g_j, h_j cost O(nnz_j), and a
// step updates u_r and den_s on those rows only.
#pragma once

#include <vector>

#include "models/column_linear_terms.h"
#include "models/likelihood.h"

namespace argus {

class ConditionalLikelihood final : public Likelihood {
 public:
  ConditionalLikelihood(const Dataset& data, const double* weights);

  void refreshSums() override;
  GradHess gradHess(std::size_t j) const override;
  void applyStep(std::size_t j, double delta) override;
  double logLikelihood() const override;

 private:
  void rebuildFromEta() override;
  double scale(std::int64_t r) const { return weight(r) * exposure(r); }  // c_r
  std::vector<double> weightedOutcomes() const;  // w_r y_r

  const std::int32_t* stratum_;
  std::vector<double> u_;          // c_r exp(eta_r)
  std::vector<double> den_;        // per stratum
  std::vector<double> events_;     // n_s = sum w y, fixed for the fit
  ColumnLinearTerms linearTerm_;   // sum_r w_r y_r x_rj, fixed for the fit
};

}  // namespace argus
