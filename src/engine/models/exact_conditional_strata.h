// The strata of a conditional logistic fit with ties = "exact" that need the exact
// likelihood: those with two or more cases (formulas in exact_conditional_functors.h).
// A stratum with one case is the same under every tie method and stays on the O(nnz_j)
// Breslow path of ConditionalLikelihood; only these strata pay O(m_s n_s) per touched
// coordinate, because the recursion needs every row of the stratum.
//
// Weights. The exact likelihood has no "row appears w times" reading, so the stratum's term
// is multiplied by one weight: the positive weights of such a stratum must be equal (the
// constructor throws otherwise). Rows with weight 0 are left out (u = 0 adds nothing to any
// B(k)), so a stratum weighted 0 throughout is removed, and cases weighted 0 are not cases.
// Cross-validation and the bootstrap sample whole strata for conditional models, so their
// weights are constant within strata.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "models/exact_conditional_functors.h"

namespace argus {

// One entry of a column inside the stratum being scanned.
struct StratumEntry {
  std::int64_t row;
  double x;
};

class ExactConditionalStrata {
 public:
  ExactConditionalStrata() = default;
  // Finds the strata with >= 2 positively weighted cases (y = 1) and checks their weights.
  ExactConditionalStrata(const OutcomeView& outcomes, const double* weights, std::int64_t nRows);

  bool isExact(std::int32_t s) const { return !cases_.empty() && cases_[s] >= 2; }
  // (g, h) of stratum s without the linear term, along a column whose entries in s are
  // entries[0 .. count) (rows increasing); u = w exp(eta - shift) per row, with eta and the
  // stratum's shift for the log-domain recursion where the scaled one leaves the double range
  // (exact_conditional_functors.h). Throws only where that fails too (eta not finite).
  GradHess term(std::int32_t s, const double* u, const double* eta, double shift,
                const StratumEntry* entries, std::int64_t count) const;
  // w_s log B_s: what stratum s subtracts from the log-likelihood.
  double logTerm(std::int32_t s, const double* u, const double* eta, double shift) const;

  // What a device model needs to run the same recursion: per stratum its cases (>= 2: an
  // exact stratum) and its weight.
  const std::vector<int>& cases() const { return cases_; }
  const std::vector<double>& weights() const { return weight_; }

 private:
  ExactScratch scratch(std::int32_t s) const;  // levels_ and heap_, sized for stratum s
  [[noreturn]] void notFinite(std::int32_t s) const;

  // Whether every positively weighted row of stratum s has a normal u (not 0, subnormal or
  // inf): otherwise the scaled recursion is skipped, since a subnormal u passes it with a
  // wrong mean (0.7302 against 0.7273) and an underflowed one reads as a row of weight 0.
  bool scaledRecursionFits(std::int32_t s, const double* u) const;
  // The log-domain recursion over stratum s (log u = log w_s + eta - shift), along the
  // column's entries in it; throws where an eta is not finite.
  ExactLogLevel logRecursion(std::int32_t s, const double* eta, double shift,
                             const StratumEntry* entries, std::int64_t count) const;

  const std::int64_t* stratumStart_ = nullptr;
  const double* rowWeights_ = nullptr;
  std::vector<int> cases_;        // positively weighted cases per stratum
  std::vector<double> weight_;    // the stratum's positive weight (exact strata)
  std::vector<double> logWeight_; // its log
  mutable std::vector<ExactLevel> levels_;  // n_s + 1 levels of the running recursion
  mutable std::vector<double> heap_;        // n_s: the largest u (exactLogScale)
  mutable std::vector<ExactLogLevel> logLevels_;  // the log-domain recursion's levels
};

// The error for stratum s (internal order) whose exact term is not finite.
std::string exactNotFiniteMessage(std::int32_t s);

}  // namespace argus
