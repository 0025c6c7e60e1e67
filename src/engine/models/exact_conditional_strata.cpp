#include "models/exact_conditional_strata.h"

#include <cmath>
#include <string>

#include "common/errors.h"

namespace argus {

namespace {
std::string stratumName(std::int32_t s) {
  return "stratum " + std::to_string(s + 1) + " (internal order)";
}
}  // namespace

ExactConditionalStrata::ExactConditionalStrata(const OutcomeView& outcomes, const double* weights,
                                               std::int64_t nRows)
    : stratumStart_(outcomes.stratumStart),
      rowWeights_(weights),
      cases_(static_cast<std::size_t>(outcomes.nStrata), 0),
      weight_(static_cast<std::size_t>(outcomes.nStrata), 1.0),
      logWeight_(static_cast<std::size_t>(outcomes.nStrata), 0.0) {
  auto w = [&](std::int64_t r) { return weights ? weights[r] : 1.0; };
  for (std::int64_t r = 0; r < nRows; ++r)
    if (outcomes.y[r] != 0.0 && w(r) > 0.0) ++cases_[outcomes.stratum[r]];
  if (!weights) return;
  for (std::int32_t s = 0; s < outcomes.nStrata; ++s) {
    if (cases_[s] < 2) continue;
    double first = 0.0;
    for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r) {
      const double wr = weights[r];
      if (wr == 0.0) continue;
      if (first == 0.0) first = wr;
      ARGUS_REQUIRE(std::fabs(wr - first) <= 1e-12 * first,
                    "ties = \"exact\" needs one weight for all rows of a stratum with several "
                    "cases (0 leaves a row out): " + stratumName(s) + " has weights " +
                        std::to_string(first) + " and " + std::to_string(wr));
    }
    weight_[s] = first;
    logWeight_[s] = std::log(first);
  }
}

std::string exactNotFiniteMessage(std::int32_t s) {
  return "the exact conditional likelihood of " + stratumName(s) +
         " is not finite: its linear predictor is out of range (exp(eta) overflows or underflows)";
}

void ExactConditionalStrata::notFinite(std::int32_t s) const { throw ArgusError(exactNotFiniteMessage(s)); }

ExactScratch ExactConditionalStrata::scratch(std::int32_t s) const {
  const std::size_t n = static_cast<std::size_t>(cases_[s]);
  levels_.resize(n + 1);
  heap_.resize(n);
  return ExactScratch{levels_.data(), heap_.data()};
}

namespace {
struct EntryList {
  const StratumEntry* e;
  std::int64_t row(std::int64_t i) const { return e[i].row; }
  double x(std::int64_t i) const { return e[i].x; }
};
}  // namespace

bool ExactConditionalStrata::scaledRecursionFits(std::int32_t s, const double* u) const {
  for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r)
    if (!(rowWeights_ && !(rowWeights_[r] > 0.0)) && !std::isnormal(u[r])) return false;
  return true;
}

ExactLogLevel ExactConditionalStrata::logRecursion(std::int32_t s, const double* eta, double shift,
                                                   const StratumEntry* entries, std::int64_t count) const {
  const int cases = cases_[s];
  logLevels_.resize(static_cast<std::size_t>(cases) + 1);
  exactLogRecursionStart(cases, logLevels_.data());
  std::int64_t e = 0;
  int i = 0;
  for (std::int64_t r = stratumStart_[s]; r < stratumStart_[s + 1]; ++r) {
    double x = 0.0;
    if (e < count && entries[e].row == r) x = entries[e++].x;
    if (rowWeights_ && !(rowWeights_[r] > 0.0)) continue;  // weight 0: in no case set
    const double logU = logWeight_[s] + eta[r] - shift;
    if (!(std::fabs(logU) < INFINITY)) notFinite(s);
    exactLogRecursionAddRow(cases, ++i, logU, x, logLevels_.data());
  }
  return logLevels_[cases];
}

GradHess ExactConditionalStrata::term(std::int32_t s, const double* u, const double* eta, double shift,
                                      const StratumEntry* entries, std::int64_t count) const {
  if (scaledRecursionFits(s, u)) {
    bool ok = true;
    const GradHess t = exactStratumGradHess(cases_[s], weight_[s], u, stratumStart_[s], stratumStart_[s + 1],
                                            EntryList{entries}, count, scratch(s), &ok);
    if (ok) return t;
  }
  const ExactLogLevel top = logRecursion(s, eta, shift, entries, count);
  const GradHess logged = exactStratumTerm(weight_[s], ExactLevel{1.0, top.mean, top.second});
  if (!(std::isfinite(top.logB) && std::isfinite(logged.g) && std::isfinite(logged.h))) notFinite(s);
  return logged;
}

double ExactConditionalStrata::logTerm(std::int32_t s, const double* u, const double* eta, double shift) const {
  if (scaledRecursionFits(s, u)) {
    bool ok = true;
    const double value =
        exactStratumLogTerm(cases_[s], weight_[s], u, stratumStart_[s], stratumStart_[s + 1], scratch(s), &ok);
    if (ok) return value;
  }
  const double logged = weight_[s] * logRecursion(s, eta, shift, nullptr, 0).logB;
  if (!std::isfinite(logged)) notFinite(s);
  return logged;
}

}  // namespace argus
