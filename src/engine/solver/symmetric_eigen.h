// Eigenvalues and eigenvectors of a small dense symmetric matrix by cyclic Jacobi rotations:
// accurate for the smallest eigenvalues too (each rotation is orthogonal, so a nearly
// singular matrix keeps its tiny eigenvalues to the rounding of its largest), which is what
// the recession probe reads (solver/recession.h). O(k^3) per sweep, for k up to a few tens.
#pragma once

#include <cstddef>
#include <vector>

namespace argus {

struct SymmetricEigen {
  std::vector<double> values;   // ascending
  std::vector<double> vectors;  // row-major k x k: column i is the unit eigenvector of values[i]
};

// `matrix`: row-major k x k, symmetric (only its upper triangle is read).
SymmetricEigen symmetricEigen(const std::vector<double>& matrix, std::size_t k);

}  // namespace argus
