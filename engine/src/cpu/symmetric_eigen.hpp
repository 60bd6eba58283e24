#pragma once
// Eigen-decomposition of a real symmetric matrix (the covariance of PCA): Householder reduction to
// tridiagonal form, then the implicit QL algorithm with shifts — EISPACK's tred2 and tql2 (Bowdler,
// Martin, Reinsch and Wilkinson, Numer. Math. 11 (1968) 181-195 and 293-306), as in the public-domain
// JAMA library.

#include <cstddef>
#include <vector>

namespace clusterlens::cpu {

struct SymmetricEigen {
    std::vector<double> values;   ///< d eigenvalues, descending
    std::vector<double> vectors;  ///< d x d row-major: row i is the unit eigenvector of values[i]
};

/// `matrix` is d x d row-major and symmetric (only its lower triangle is read). Eigenvectors are
/// orthonormal to rounding; their signs are whatever the algorithm gives. Time O(d^3) (about 9 d^3
/// flops), memory d^2 doubles beside the input. Throws InvalidInput if QL does not converge (NaN input).
SymmetricEigen symmetricEigen(std::vector<double> matrix, std::size_t d);

}  // namespace clusterlens::cpu
