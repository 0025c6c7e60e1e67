// A cubic B-spline basis for tests (Cox-de Boor), the kind of design that is nearly collinear
// by construction: with its intercept's partition of unity it reproduces the constant, and on
// a skewed covariate its columns are mostly 0 (stored sparse) and correlated.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace argus {
namespace testing_data {

// The basis at t: `knots` holds the boundary knots four times and the interior ones once;
// t inside [first, last]. knots.size() - 4 functions.
inline std::vector<double> bsplineBasis(double t, const std::vector<double>& knots) {
  const std::size_t m = knots.size() - 1;
  std::vector<double> b(m, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    if (knots[i] <= t && (t < knots[i + 1] || (t == knots.back() && knots[i + 1] == knots.back() && knots[i] < knots[i + 1])))
      b[i] = 1.0;
  for (std::size_t degree = 1; degree <= 3; ++degree)
    for (std::size_t i = 0; i + degree < m; ++i) {
      const double left = knots[i + degree] - knots[i], right = knots[i + degree + 1] - knots[i + 1];
      b[i] = (left > 0.0 ? (t - knots[i]) / left * b[i] : 0.0) +
             (right > 0.0 ? (knots[i + degree + 1] - t) / right * b[i + 1] : 0.0);
    }
  b.resize(m - 3);
  return b;
}

// Columns of the df-function basis (with its intercept) at t, knots at quantiles of t.
inline std::vector<std::vector<double>> bsplineColumns(const std::vector<double>& t, std::size_t df) {
  std::vector<double> sorted = t;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = t.size();
  std::vector<double> knots(4, sorted.front());
  for (std::size_t i = 1; i + 3 < df; ++i) knots.push_back(sorted[i * (n - 1) / (df - 3)]);
  for (int i = 0; i < 4; ++i) knots.push_back(sorted.back());
  std::vector<std::vector<double>> x(df, std::vector<double>(n));
  for (std::size_t r = 0; r < n; ++r) {
    const std::vector<double> b = bsplineBasis(t[r], knots);
    for (std::size_t i = 0; i < df; ++i) x[i][r] = b[i];
  }
  return x;
}

// The basis, then `indicator`, then the basis times the indicator (R's bs(t) * factor).
inline std::vector<std::vector<double>> bsplineTimesIndicator(const std::vector<double>& t, std::size_t df,
                                                              const std::vector<double>& indicator) {
  std::vector<std::vector<double>> x = bsplineColumns(t, df);
  x.push_back(indicator);
  for (std::size_t i = 0; i < df; ++i) {
    std::vector<double> v(t.size());
    for (std::size_t r = 0; r < t.size(); ++r) v[r] = x[i][r] * indicator[r];
    x.push_back(v);
  }
  return x;
}

}  // namespace testing_data
}  // namespace argus
