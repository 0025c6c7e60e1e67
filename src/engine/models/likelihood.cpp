#include "models/likelihood.h"

#include <cmath>

#include "common/errors.h"

namespace argus {

Likelihood::Likelihood(const Dataset& data, const double* weights)
    : data_(data),
      weights_(weights),
      hasExposure_(data.outcomes.time != nullptr && usesExposureTime(data.model)),
      eta_(static_cast<std::size_t>(data.nRows()), 0.0) {}

void Likelihood::reset(const std::vector<double>& beta) {
  ARGUS_REQUIRE(beta.size() == data_.design.nColumns(), "beta has the wrong length");
  const double* offset = data_.outcomes.offset;
  for (std::int64_t r = 0; r < nRows(); ++r) eta_[r] = offset ? offset[r] : 0.0;
  addDesignTimes(data_.design, beta.data(), eta_.data());
  rebuildFromEta();
}

void Likelihood::gradHessAll(const std::vector<unsigned char>& skip, std::vector<GradHess>* out) const {
  out->assign(data_.design.nColumns(), GradHess{});
  for (std::size_t j = 0; j < out->size(); ++j)
    if (skip.empty() || !skip[j]) (*out)[j] = gradHess(j);
}

void Likelihood::setEta(const std::vector<double>& eta) {
  ARGUS_REQUIRE(eta.size() == eta_.size(), "eta has the wrong length");
  eta_ = eta;  // rebuild() passes eta_ itself: a vector assigned to itself is unchanged
  rebuildFromEta();
}

double Likelihood::weightedOutcomeEta() const {
  double sum = 0.0;
  for (std::int64_t r = 0; r < nRows(); ++r) sum += weight(r) * data_.outcomes.y[r] * eta_[r];
  return sum;
}

Likelihood::EtaMovement Likelihood::takeEtaMovement() {
  const std::vector<double>& now = eta();
  EtaMovement out;
  if (etaMark_.size() != now.size()) etaMark_.assign(now.size(), 0.0);
  // One pass that also moves the mark (a separate copy was a second pass over N doubles).
  double* mark = etaMark_.data();
  for (std::size_t r = 0; r < now.size(); ++r) {
    out.sumAbsEta += std::fabs(now[r]);
    out.sumAbsChange += std::fabs(now[r] - mark[r]);
    mark[r] = now[r];
  }
  return out;
}

}  // namespace argus
