#include "models/conditional_likelihood.h"

#include <algorithm>
#include <cmath>

#include "models/conditional_functors.h"

namespace argus {

ConditionalLikelihood::ConditionalLikelihood(const Dataset& data, const double* weights)
    : Likelihood(data, weights),
      stratum_(data.outcomes.stratum),
      u_(static_cast<std::size_t>(data.nRows())),
      den_(static_cast<std::size_t>(data.outcomes.nStrata)),
      events_(static_cast<std::size_t>(data.outcomes.nStrata), 0.0),
      linearTerm_(data.design, weightedOutcomes()) {
  const double* y = data.outcomes.y;
  for (std::int64_t r = 0; r < nRows(); ++r) events_[stratum_[r]] += weight(r) * y[r];
}

std::vector<double> ConditionalLikelihood::weightedOutcomes() const {
  std::vector<double> c(static_cast<std::size_t>(nRows()));
  for (std::int64_t r = 0; r < nRows(); ++r) c[r] = weight(r) * data_.outcomes.y[r];
  return c;
}

void ConditionalLikelihood::rebuildFromEta() {
  for (std::int64_t r = 0; r < nRows(); ++r) u_[r] = scale(r) * std::exp(eta_[r]);
  refreshSums();
}

void ConditionalLikelihood::refreshSums() {
  std::fill(den_.begin(), den_.end(), 0.0);
  for (std::int64_t r = 0; r < nRows(); ++r) den_[stratum_[r]] += u_[r];
}

GradHess ConditionalLikelihood::gradHess(std::size_t j) const {
  GradHess total{linearTerm_(j), 0.0};
  std::int32_t current = -1;
  double n1 = 0.0, n2 = 0.0;
  auto flush = [&]() {
    if (current < 0) return;
    const GradHess t = conditionalStratumTerm(events_[current], den_[current], n1, n2);
    total.g += t.g;
    total.h += t.h;
  };
  forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
    const std::int32_t s = stratum_[r];
    if (s != current) {
      flush();
      current = s;
      n1 = n2 = 0.0;
    }
    const double a = u_[r] * x;
    n1 += a;
    n2 += a * x;
  });
  flush();
  return total;
}

void ConditionalLikelihood::applyStep(std::size_t j, double delta) {
  // u_r = c_r exp(eta_r) is updated by multiplication: one exp per coordinate for indicator
  // columns. refreshSums() re-adds den from u once per cycle; reset() recomputes u exactly.
  const double unitFactor = std::exp(delta);
  forEachEntry(column(j), nRows(), [&](std::int64_t r, double x) {
    const double change = delta * x;
    eta_[r] += change;
    const double updated = u_[r] * ((x == 1.0) ? unitFactor : std::exp(change));
    den_[stratum_[r]] += updated - u_[r];
    u_[r] = updated;
  });
}

double ConditionalLikelihood::logLikelihood() const {
  double sum = 0.0;
  const double* y = data_.outcomes.y;
  for (std::int64_t r = 0; r < nRows(); ++r) sum += weight(r) * y[r] * eta_[r];
  for (std::size_t s = 0; s < den_.size(); ++s)
    if (events_[s] > 0.0) sum -= events_[s] * std::log(den_[s]);
  return sum;
}

}  // namespace argus
