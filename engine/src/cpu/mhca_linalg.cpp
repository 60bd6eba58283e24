#include "mhca_linalg.hpp"

#include <algorithm>
#include <cmath>

#include "cpu/mhca_rules.hpp"

namespace clusterlens::mhca {

void sampleCovariance(const double* rows, std::size_t r, std::size_t p, double* cov, double* means) {
    for (std::size_t j = 0; j < p; ++j) {
        double sum = 0.0;
        for (std::size_t k = 0; k < r; ++k) sum += rows[k * p + j];
        means[j] = sum / static_cast<double>(r);
    }
    const double divisor = static_cast<double>(r) - 1.0;
    for (std::size_t i = 0; i < p; ++i) {
        for (std::size_t j = i; j < p; ++j) {
            double sum = 0.0;
            for (std::size_t k = 0; k < r; ++k) sum += (rows[k * p + i] - means[i]) * (rows[k * p + j] - means[j]);
            cov[i * p + j] = cov[j * p + i] = sum / divisor;
        }
    }
}

void columnMeansR(const double* rows, std::size_t r, std::size_t p, double* means) {
    for (std::size_t j = 0; j < p; ++j) {
        long double sum = 0.0L;
        for (std::size_t k = 0; k < r; ++k) sum += rows[k * p + j];
        means[j] = static_cast<double>(sum / static_cast<long double>(r));
    }
}

void sampleCovarianceR(const double* rows, std::size_t r, std::size_t p, double* cov, double* means) {
    // R's cov(): long double mean refined by the mean residual, then long double cross products.
    const auto nobs = static_cast<long double>(r);
    for (std::size_t j = 0; j < p; ++j) {
        long double sum = 0.0L;
        for (std::size_t k = 0; k < r; ++k) sum += rows[k * p + j];
        long double mean = sum / nobs;
        if (std::isfinite(static_cast<double>(mean))) {
            sum = 0.0L;
            for (std::size_t k = 0; k < r; ++k) sum += rows[k * p + j] - mean;
            mean = mean + sum / nobs;
        }
        means[j] = static_cast<double>(mean);
    }
    const long double divisor = nobs - 1.0L;
    for (std::size_t i = 0; i < p; ++i) {
        const long double mi = means[i];
        for (std::size_t j = 0; j <= i; ++j) {
            const long double mj = means[j];
            long double sum = 0.0L;
            for (std::size_t k = 0; k < r; ++k) sum += (rows[k * p + i] - mi) * (rows[k * p + j] - mj);
            cov[i * p + j] = cov[j * p + i] = static_cast<double>(sum / divisor);
        }
    }
}

bool choleskyInPlace(double* a, std::size_t p) {
    // dpotrf2 with reference dtrsm/dsyrk is the right-looking algorithm: every entry is reduced by
    // l_ik·l_jk in increasing k, the diagonal pivot is square-rooted, the column below is multiplied
    // by the reciprocal of the pivot.
    for (std::size_t k = 0; k < p; ++k) {
        const double pivot = a[k * p + k];
        if (!(pivot > 0.0)) return false;
        const double lkk = std::sqrt(pivot);
        a[k * p + k] = lkk;
        const double reciprocal = 1.0 / lkk;
        for (std::size_t i = k + 1; i < p; ++i) a[i * p + k] = reciprocal * a[i * p + k];
        for (std::size_t j = k + 1; j < p; ++j) {
            const double ljk = a[j * p + k];
            for (std::size_t i = j; i < p; ++i) a[i * p + j] -= ljk * a[i * p + k];
        }
    }
    return true;
}

double diagonalProduct(const double* a, std::size_t p) {
    double product = 1.0;
    for (std::size_t i = 0; i < p; ++i) product *= a[i * p + i];
    return product;
}

namespace {

/// LAPACK dtrti2 (lower, non-unit): L^-1 in place, column by column from the last one.
void invertLowerTriangular(double* a, std::size_t p) {
    for (std::size_t jj = p; jj-- > 0;) {
        a[jj * p + jj] = 1.0 / a[jj * p + jj];
        const double scale = -a[jj * p + jj];
        // dtrmv (lower, no transpose) of the already inverted trailing block with column jj below the
        // diagonal, then dscal by -1/l_jj.
        for (std::size_t c = p; c-- > jj + 1;) {
            const double temp = a[c * p + jj];
            if (temp == 0.0) continue;
            for (std::size_t i = p; i-- > c + 1;) a[i * p + jj] = a[i * p + jj] + temp * a[i * p + c];
            a[c * p + jj] = a[c * p + jj] * a[c * p + c];
        }
        for (std::size_t i = jj + 1; i < p; ++i) a[i * p + jj] = scale * a[i * p + jj];
    }
}

/// LAPACK dlauu2 (lower): Lᵀ·L of the inverted factor, in the lower triangle.
void lowerTransposeTimesLower(double* a, std::size_t p) {
    for (std::size_t i = 0; i < p; ++i) {
        const double aii = a[i * p + i];
        if (i + 1 < p) {
            double dot = 0.0;
            for (std::size_t k = i; k < p; ++k) dot = dot + a[k * p + i] * a[k * p + i];
            a[i * p + i] = dot;
            // dgemv('T') with beta = aii on row i left of the diagonal.
            for (std::size_t j = 0; j < i; ++j) a[i * p + j] = aii == 0.0 ? 0.0 : aii * a[i * p + j];
            for (std::size_t j = 0; j < i; ++j) {
                double temp = 0.0;
                for (std::size_t k = i + 1; k < p; ++k) temp = temp + a[k * p + j] * a[k * p + i];
                a[i * p + j] = a[i * p + j] + temp;
            }
        } else {
            for (std::size_t j = 0; j <= i; ++j) a[i * p + j] = aii * a[i * p + j];
        }
    }
}

}  // namespace

void inverseFromCholesky(double* a, std::size_t p) {
    invertLowerTriangular(a, p);
    lowerTransposeTimesLower(a, p);
    for (std::size_t i = 0; i < p; ++i)
        for (std::size_t j = i + 1; j < p; ++j) a[i * p + j] = a[j * p + i];
}

double luDeterminant(const double* a, std::size_t p, double* work) {
    std::copy(a, a + p * p, work);
    double sign = 1.0;
    double modulus = 0.0;
    for (std::size_t k = 0; k < p; ++k) {
        std::size_t pivotRow = k;
        for (std::size_t i = k + 1; i < p; ++i)
            if (std::fabs(work[i * p + k]) > std::fabs(work[pivotRow * p + k])) pivotRow = i;
        if (pivotRow != k) {
            for (std::size_t j = 0; j < p; ++j) std::swap(work[k * p + j], work[pivotRow * p + j]);
            sign = -sign;
        }
        const double pivot = work[k * p + k];
        if (pivot == 0.0) return 0.0;
        for (std::size_t i = k + 1; i < p; ++i) {
            const double factor = work[i * p + k] / pivot;
            for (std::size_t j = k + 1; j < p; ++j) work[i * p + j] -= factor * work[k * p + j];
        }
        if (pivot < 0.0) sign = -sign;
        modulus += std::log(std::fabs(pivot));
    }
    return sign * std::exp(modulus);
}

void setIdentity(double* a, std::size_t p) {
    std::fill(a, a + p * p, 0.0);
    for (std::size_t i = 0; i < p; ++i) a[i * p + i] = 1.0;
}

double clusterShape(double* cov, std::size_t p, double wf, SubthresholdMode mode, DeterminantRule rule, double* invcov,
                    double* work) {
    if (!shapedInMode(mode, wf)) {
        setIdentity(invcov, p);
        return 1.0;
    }
    const double pd = static_cast<double>(p);
    double mf = 1.0;
    if (scaledShrinkage(mode)) {
        if (rule == DeterminantRule::Cholesky) {
            std::copy(cov, cov + p * p, work);
            mf = choleskyInPlace(work, p) ? std::pow(diagonalProduct(work, p), 2.0 / pd) : 1.0;
        } else {
            mf = std::pow(luDeterminant(cov, p, work), 1.0 / pd);
        }
    }
    // mhclust.c shrinks only below the threshold; mhclust.R always evaluates the expression (a NaN mf
    // from a negative determinant then makes the factorisation fail, as in R).
    if (rule == DeterminantRule::Lu || wf < 1.0) {
        const double scale = shrinkScale(wf, mf);
        for (std::size_t i = 0; i < p; ++i)
            for (std::size_t j = 0; j < p; ++j)
                cov[i * p + j] = shrunkEntry(wf, cov[i * p + j], scale, i == j ? 1.0 : 0.0);
    }
    if (!choleskyInPlace(cov, p)) {
        setIdentity(invcov, p);
        return 1.0;
    }
    const double product = diagonalProduct(cov, p);
    const double nmf =
        rule == DeterminantRule::Cholesky ? std::pow(product, -2.0 / pd) : std::pow(1.0 / product, 2.0 / pd);
    inverseFromCholesky(cov, p);
    std::copy(cov, cov + p * p, invcov);
    return nmf;
}

}  // namespace clusterlens::mhca
