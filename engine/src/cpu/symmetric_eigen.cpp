#include "cpu/symmetric_eigen.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "clusterlens/errors.hpp"

namespace clusterlens::cpu {
namespace {

/// Column-major d x d view: tred2's inner loops run down columns, which are contiguous here, and the
/// transformation it leaves (eigenvectors in columns) is, read row-major, its transpose W = V^T.
struct ColumnMajor {
    std::vector<double>& a;
    std::size_t d;
    double& operator()(std::size_t i, std::size_t j) { return a[j * d + i]; }
};

/// EISPACK tred2: reduces V (symmetric, in place) to tridiagonal form, diagonal in `diag`, sub-diagonal
/// in `off` (off[0] = 0), and leaves in V the orthogonal transformation (columns).
void householderTridiagonal(ColumnMajor v, std::vector<double>& diag, std::vector<double>& off) {
    const std::size_t n = v.d;
    for (std::size_t j = 0; j < n; ++j) diag[j] = v(n - 1, j);
    for (std::size_t i = n - 1; i > 0; --i) {
        double scale = 0.0, h = 0.0;
        for (std::size_t k = 0; k < i; ++k) scale += std::abs(diag[k]);
        if (scale == 0.0) {
            off[i] = diag[i - 1];
            for (std::size_t j = 0; j < i; ++j) {
                diag[j] = v(i - 1, j);
                v(i, j) = v(j, i) = 0.0;
            }
            diag[i] = h;
            continue;
        }
        for (std::size_t k = 0; k < i; ++k) {
            diag[k] /= scale;
            h += diag[k] * diag[k];
        }
        double f = diag[i - 1];
        double g = f > 0 ? -std::sqrt(h) : std::sqrt(h);
        off[i] = scale * g;
        h -= f * g;
        diag[i - 1] = f - g;
        std::fill(off.begin(), off.begin() + static_cast<std::ptrdiff_t>(i), 0.0);
        for (std::size_t j = 0; j < i; ++j) {
            f = diag[j];
            v(j, i) = f;
            g = off[j] + v(j, j) * f;
            for (std::size_t k = j + 1; k < i; ++k) {
                g += v(k, j) * diag[k];
                off[k] += v(k, j) * f;
            }
            off[j] = g;
        }
        f = 0.0;
        for (std::size_t j = 0; j < i; ++j) {
            off[j] /= h;
            f += off[j] * diag[j];
        }
        const double hh = f / (h + h);
        for (std::size_t j = 0; j < i; ++j) off[j] -= hh * diag[j];
        for (std::size_t j = 0; j < i; ++j) {
            f = diag[j];
            g = off[j];
            for (std::size_t k = j; k < i; ++k) v(k, j) -= f * off[k] + g * diag[k];
            diag[j] = v(i - 1, j);
            v(i, j) = 0.0;
        }
        diag[i] = h;
    }
    // Accumulate the transformations.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        v(n - 1, i) = v(i, i);
        v(i, i) = 1.0;
        const double h = diag[i + 1];
        if (h != 0.0) {
            for (std::size_t k = 0; k <= i; ++k) diag[k] = v(k, i + 1) / h;
            for (std::size_t j = 0; j <= i; ++j) {
                double g = 0.0;
                for (std::size_t k = 0; k <= i; ++k) g += v(k, i + 1) * v(k, j);
                for (std::size_t k = 0; k <= i; ++k) v(k, j) -= g * diag[k];
            }
        }
        for (std::size_t k = 0; k <= i; ++k) v(k, i + 1) = 0.0;
    }
    for (std::size_t j = 0; j < n; ++j) {
        diag[j] = v(n - 1, j);
        v(n - 1, j) = 0.0;
    }
    v(n - 1, n - 1) = 1.0;
    off[0] = 0.0;
}

/// Applies one Givens rotation to rows i and i+1 of W (d x d row-major, the transposed transformation).
void rotateRows(std::vector<double>& w, std::size_t d, std::size_t i, double c, double s) {
    double* lower = &w[i * d];
    double* upper = &w[(i + 1) * d];
    for (std::size_t k = 0; k < d; ++k) {
        const double h = upper[k];
        upper[k] = s * lower[k] + c * h;
        lower[k] = c * lower[k] - s * h;
    }
}

/// EISPACK tql2 on the tridiagonal (diag, off) with the transformation W = V^T (eigenvectors become
/// its rows, so that every rotation touches two contiguous rows).
void implicitQl(std::vector<double>& w, std::vector<double>& diag, std::vector<double>& off) {
    const std::size_t n = diag.size();
    for (std::size_t i = 1; i < n; ++i) off[i - 1] = off[i];
    off[n - 1] = 0.0;
    const double eps = std::ldexp(1.0, -52);
    double f = 0.0, largest = 0.0;
    for (std::size_t l = 0; l < n; ++l) {
        largest = std::max(largest, std::abs(diag[l]) + std::abs(off[l]));
        std::size_t m = l;
        while (m < n - 1 && std::abs(off[m]) > eps * largest) ++m;
        for (std::size_t iteration = 0; m > l && std::abs(off[l]) > eps * largest; ++iteration) {
            if (iteration == 100 || !std::isfinite(off[l]))
                throw InvalidInput("pca: the eigen-decomposition did not converge");
            double g = diag[l];
            double p = (diag[l + 1] - g) / (2.0 * off[l]);
            double r = std::copysign(std::hypot(p, 1.0), p);
            diag[l] = off[l] / (p + r);
            diag[l + 1] = off[l] * (p + r);
            const double next = diag[l + 1];
            double h = g - diag[l];
            for (std::size_t i = l + 2; i < n; ++i) diag[i] -= h;
            f += h;
            p = diag[m];
            double c = 1.0, c2 = 1.0, c3 = 1.0, s = 0.0, s2 = 0.0;
            const double offNext = off[l + 1];
            for (std::size_t i = m; i-- > l;) {
                c3 = c2;
                c2 = c;
                s2 = s;
                g = c * off[i];
                h = c * p;
                r = std::hypot(p, off[i]);
                off[i + 1] = s * r;
                s = off[i] / r;
                c = p / r;
                p = c * diag[i] - s * g;
                diag[i + 1] = h + s * (c * g + s * diag[i]);
                rotateRows(w, n, i, c, s);
            }
            p = -s * s2 * c3 * offNext * off[l] / next;
            off[l] = s * p;
            diag[l] = c * p;
        }
        diag[l] += f;
        off[l] = 0.0;
    }
}

}  // namespace

SymmetricEigen symmetricEigen(std::vector<double> matrix, std::size_t d) {
    SymmetricEigen result;
    if (d == 0) return result;
    for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = i + 1; j < d; ++j) matrix[i * d + j] = matrix[j * d + i];
    std::vector<double> diag(d), off(d);
    householderTridiagonal({matrix, d}, diag, off);
    implicitQl(matrix, diag, off);  // matrix now holds W = V^T row-major
    const std::vector<double>& w = matrix;
    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return diag[a] > diag[b]; });
    result.values.resize(d);
    result.vectors.resize(d * d);
    for (std::size_t r = 0; r < d; ++r) {
        result.values[r] = diag[order[r]];
        std::copy_n(w.begin() + static_cast<std::ptrdiff_t>(order[r] * d), d,
                    result.vectors.begin() + static_cast<std::ptrdiff_t>(r * d));
    }
    return result;
}

}  // namespace clusterlens::cpu
