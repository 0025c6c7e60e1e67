// symmetricEigen (solver/symmetric_eigen.h) against matrices built from known eigenpairs,
// including a nearly singular one whose tiny eigenvalue the recession probe relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "solver/symmetric_eigen.h"

namespace argus {
namespace {

// Q diag(values) Q' for a random orthogonal Q (Gram-Schmidt of normal columns).
std::vector<double> withEigenvalues(const std::vector<double>& values, std::vector<double>* q, unsigned seed) {
  const std::size_t k = values.size();
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  q->assign(k * k, 0.0);
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<double> v(k);
    for (double& x : v) x = normal(rng);
    for (std::size_t p = 0; p < c; ++p) {
      double dot = 0.0;
      for (std::size_t r = 0; r < k; ++r) dot += v[r] * (*q)[r * k + p];
      for (std::size_t r = 0; r < k; ++r) v[r] -= dot * (*q)[r * k + p];
    }
    double norm = 0.0;
    for (double x : v) norm += x * x;
    for (std::size_t r = 0; r < k; ++r) (*q)[r * k + c] = v[r] / std::sqrt(norm);
  }
  std::vector<double> a(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t c = 0; c < k; ++c) a[i * k + j] += (*q)[i * k + c] * values[c] * (*q)[j * k + c];
  return a;
}

TEST(SymmetricEigen, RecoversKnownEigenpairsInAscendingOrder) {
  const std::vector<double> values = {3.0, 1e-9, 0.5, 7.25, 1.0, 0.01};
  std::vector<double> q;
  const std::vector<double> a = withEigenvalues(values, &q, 5);
  const std::size_t k = values.size();
  const SymmetricEigen e = symmetricEigen(a, k);
  const std::vector<double> sorted = {1e-9, 0.01, 0.5, 1.0, 3.0, 7.25};
  for (std::size_t i = 0; i < k; ++i) EXPECT_NEAR(e.values[i], sorted[i], 1e-14) << i;
  // Each vector is unit length and A v = lambda v.
  for (std::size_t i = 0; i < k; ++i) {
    double norm = 0.0;
    for (std::size_t r = 0; r < k; ++r) norm += e.vectors[r * k + i] * e.vectors[r * k + i];
    EXPECT_NEAR(norm, 1.0, 1e-13);
    for (std::size_t r = 0; r < k; ++r) {
      double av = 0.0;
      for (std::size_t c = 0; c < k; ++c) av += a[r * k + c] * e.vectors[c * k + i];
      EXPECT_NEAR(av, e.values[i] * e.vectors[r * k + i], 1e-13) << i << " " << r;
    }
  }
  // The tiny eigenvalue's vector is Q's column 1, up to sign.
  double dot = 0.0;
  for (std::size_t r = 0; r < k; ++r) dot += e.vectors[r * k + 0] * q[r * k + 1];
  EXPECT_NEAR(std::fabs(dot), 1.0, 1e-6);
}

TEST(SymmetricEigen, DiagonalAndOneByOneMatricesAreTheirOwnEigenvalues) {
  const SymmetricEigen one = symmetricEigen({4.0}, 1);
  EXPECT_EQ(one.values, (std::vector<double>{4.0}));
  EXPECT_EQ(one.vectors, (std::vector<double>{1.0}));
  const SymmetricEigen diagonal = symmetricEigen({2.0, 0.0, 0.0, -1.0}, 2);
  EXPECT_EQ(diagonal.values, (std::vector<double>{-1.0, 2.0}));
  EXPECT_EQ(std::fabs(diagonal.vectors[1 * 2 + 0]), 1.0);
}

}  // namespace
}  // namespace argus
