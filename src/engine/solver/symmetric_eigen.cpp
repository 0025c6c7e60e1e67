#include "solver/symmetric_eigen.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace argus {

SymmetricEigen symmetricEigen(const std::vector<double>& matrix, std::size_t k) {
  std::vector<double> a(k * k), v(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    v[i * k + i] = 1.0;
    for (std::size_t j = i; j < k; ++j) a[i * k + j] = a[j * k + i] = matrix[i * k + j];
  }
  auto at = [&](std::vector<double>& m, std::size_t i, std::size_t j) -> double& { return m[i * k + j]; };
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0, diagonal = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      diagonal += at(a, i, i) * at(a, i, i);
      for (std::size_t j = i + 1; j < k; ++j) off += at(a, i, j) * at(a, i, j);
    }
    if (off <= 1e-30 * diagonal || off == 0.0) break;
    for (std::size_t p = 0; p < k; ++p) {
      for (std::size_t q = p + 1; q < k; ++q) {
        const double apq = at(a, p, q);
        if (apq == 0.0) continue;
        // The rotation that zeroes a_pq (Golub & Van Loan, the symmetric Schur step).
        const double theta = (at(a, q, q) - at(a, p, p)) / (2.0 * apq);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (std::size_t r = 0; r < k; ++r) {
          const double arp = at(a, r, p), arq = at(a, r, q);
          at(a, r, p) = c * arp - s * arq;
          at(a, r, q) = s * arp + c * arq;
        }
        for (std::size_t r = 0; r < k; ++r) {
          const double apr = at(a, p, r), aqr = at(a, q, r);
          at(a, p, r) = c * apr - s * aqr;
          at(a, q, r) = s * apr + c * aqr;
        }
        for (std::size_t r = 0; r < k; ++r) {
          const double vrp = at(v, r, p), vrq = at(v, r, q);
          at(v, r, p) = c * vrp - s * vrq;
          at(v, r, q) = s * vrp + c * vrq;
        }
      }
    }
  }
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return at(a, x, x) < at(a, y, y); });
  SymmetricEigen out;
  out.values.resize(k);
  out.vectors.resize(k * k);
  for (std::size_t i = 0; i < k; ++i) {
    out.values[i] = at(a, order[i], order[i]);
    for (std::size_t r = 0; r < k; ++r) out.vectors[r * k + i] = at(v, r, order[i]);
  }
  return out;
}

}  // namespace argus
