// The part of a coordinate's gradient that does not depend on beta: sum_r c_r x_rj, for a
// per-row coefficient c fixed for the fit (conditional models: c = w y; Cox and Fine-Gray:
// c = w on events, 0 elsewhere).
//
// Each column's term is computed on its first use, in one branch-free pass over its entries
// (c gathered from a per-row array). A likelihood built only to be evaluated, such as
// cross-validation's held-out score, never asks for one, and the pass over every column it
// would otherwise pay cost about a tenth of a Cox fold fit (perf, bench/cv.R).
//
// Not thread-safe: a likelihood computes one coordinate's terms on the calling thread (its
// chunk workers, survival_likelihood.h, never ask for them). rowCoefficient may be empty
// where the likelihood sets every term itself before asking (set()).
#pragma once

#include <cstdint>
#include <vector>

#include "common/errors.h"
#include "data/column.h"

namespace argus {

class ColumnLinearTerms {
 public:
  ColumnLinearTerms(const DesignView& design, std::vector<double> rowCoefficient)
      : design_(design),
        rowCoefficient_(std::move(rowCoefficient)),
        value_(design.nColumns(), 0.0),
        known_(design.nColumns(), 0) {}

  // Where a likelihood sums a column's term itself (from row records that carry c): the
  // same sum, in the same order, stored as if computed here.
  bool known(std::size_t j) const { return known_[j] != 0; }
  void set(std::size_t j, double value) const {
    value_[j] = value;
    known_[j] = 1;
  }

  double operator()(std::size_t j) const {
    if (!known_[j]) {
      ARGUS_REQUIRE(!rowCoefficient_.empty() || design_.nRows == 0,
                    "a column's linear term was asked for before it was set");
      double sum = 0.0;
      const double* c = rowCoefficient_.data();
      forEachEntry(design_.columns[j], design_.nRows,
                   [&](std::int64_t r, double x) { sum += c[r] * x; });
      value_[j] = sum;
      known_[j] = 1;
    }
    return value_[j];
  }

 private:
  const DesignView& design_;
  const std::vector<double> rowCoefficient_;
  mutable std::vector<double> value_;
  mutable std::vector<unsigned char> known_;
};

}  // namespace argus
