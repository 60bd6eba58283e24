#pragma once
// Small dense linear algebra of MHCA: covariance, Cholesky, inverse, determinant, and the cluster
// shape Σ'^-1 of mhca's mhclust (src/mhclust.c and R/mhclust.R of tsieger/mhca).
//
// Matrices are p×p, row-major (a[i*p + j]). The Cholesky factor and the inverse follow the operation
// order of reference LAPACK (dpotrf2 → right-looking, dpotri = dtrti2 + dlauu2) with reference BLAS,
// which is what R's bundled libraries compute: a covariance of a cluster with fewer than d+1 members is
// singular, and whether its factorisation succeeds is decided by rounding, so the order matters for
// reproducing mhclust's merges.

#include <cstddef>

#include "clusterlens/hca/mhca.hpp"

namespace clusterlens::mhca {

/// Where the scaling factor mf = det(Σ)^(1/d) of the `mahal` mode comes from.
enum class DeterminantRule {
    Cholesky,  ///< mhclust.c (clusters born while clustering): from the Cholesky factor, 1 when it fails
    Lu         ///< mhclust.R (apriori groups): R's det(), an LU factorisation
};

/// Sample covariance (divisor r-1) of r rows of p values, two-pass as mhclust.c's cov().
/// rows: r*p row-major. cov: p*p, full symmetric. means: p scratch values.
void sampleCovariance(const double* rows, std::size_t r, std::size_t p, double* cov, double* means);

/// Column means and sample covariance as R's colMeans() and cov() compute them (long double sums,
/// mean refined by a second pass). Used for apriori groups, which mhclust.R prepares in R.
void sampleCovarianceR(const double* rows, std::size_t r, std::size_t p, double* cov, double* means);
void columnMeansR(const double* rows, std::size_t r, std::size_t p, double* means);

/// In-place Cholesky factorisation A = L·Lᵀ of the lower triangle (LAPACK dpotrf). Returns false
/// when a pivot is ≤ 0 or NaN; `a` is then partially overwritten.
bool choleskyInPlace(double* a, std::size_t p);

/// Product of the diagonal of a p×p matrix, accumulated from 1 in index order.
double diagonalProduct(const double* a, std::size_t p);

/// From the Cholesky factor L in the lower triangle of `a` to (L·Lᵀ)^-1 in both triangles
/// (LAPACK dpotri, lower).
void inverseFromCholesky(double* a, std::size_t p);

/// det(A) as R's det(): sign·exp(Σ log|u_ii|) of an LU factorisation with partial pivoting; 0 when a
/// pivot is exactly 0. work: p*p scratch.
double luDeterminant(const double* a, std::size_t p, double* work);

/// Writes the p×p identity.
void setIdentity(double* a, std::size_t p);

/// The shape of a cluster: Σ'^-1 (full symmetric, into invcov) and the factor nmf = det(Σ')^(-1/d)
/// that makes Σ'^-1/nmf unit-determinant (mhca's invcovNmf). `cov` (the sample covariance, or the
/// identity for clusters of two points) is overwritten. wf = min(1, |C|/(thresh·N_full)).
/// mahal/mahal0, or a cluster at the threshold (wf = 1): Σ' = wf·Σ + (1-wf)·mf·I, mf = det(Σ)^(1/d)
/// (mahal) or 1 (mahal0); euclid/euclidMahal below the threshold: Σ' = I. A failing Cholesky of Σ'
/// gives I and nmf = 1. work: p*p scratch.
double clusterShape(double* cov, std::size_t p, double wf, SubthresholdMode mode, DeterminantRule rule, double* invcov,
                    double* work);

}  // namespace clusterlens::mhca
