#pragma once
// The shape Σ'^-1 of one cluster by one block (thesis 2.5.3, with Cholesky instead of the thesis's
// cublasSmatinvBatched): Cholesky factor, determinant powers and inverse in the operation order of
// mhcaCpu (mhca_linalg.cpp: dpotrf2 with reference BLAS, dtrti2 + dlauu2), so that the factorisation
// of a singular covariance fails or succeeds exactly as on the host.

#include <cuda_runtime.h>
#include <math_constants.h>

#include "cuda/kernels/mhca_device.cuh"

namespace clusterlens::cuda::mhca {

/// Double-double arithmetic (error-free products by fused multiply-add) for shapePower.
struct DoubleDouble {
    double hi;
    double lo;
};

__device__ __forceinline__ DoubleDouble ddProduct(double a, double b) {
    const double p = a * b;
    return {p, fma(a, b, -p)};
}

__device__ __forceinline__ DoubleDouble ddNormalize(double hi, double lo) {
    const double s = hi + lo;
    return {s, lo - (s - hi)};
}

__device__ __forceinline__ DoubleDouble ddMul(DoubleDouble a, DoubleDouble b) {
    const DoubleDouble p = ddProduct(a.hi, b.hi);
    return ddNormalize(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

__device__ __forceinline__ bool ddLess(DoubleDouble a, DoubleDouble b) {
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/// x^(2/p) or x^(-2/p) (x > 0) as the host's std::pow(x, ±2.0/p) gives it: pow on the device may be
/// off by an ulp, which can break a tie the other way than mhcaCpu. When ±2.0/p is exact (p a power
/// of two) the result is rounded correctly by testing the neighbouring midpoints m against
/// m^p <=> x² (resp. m^p·x² <=> 1) in double-double; glibc's pow agrees with that but in rare
/// near-midpoint cases. Other p keep pow's result.
__device__ inline double shapePower(double x, int p, bool negative) {
    double z = pow(x, negative ? -2.0 / static_cast<double>(p) : 2.0 / static_cast<double>(p));
    if (!(x > 0.0) || !isfinite(x) || !(z > 0.0) || !isfinite(z) || (p & (p - 1)) != 0) return z;
    const DoubleDouble square = ddProduct(x, x);
    auto below = [&](DoubleDouble m) {  // m < x^(±2/p)
        DoubleDouble power{1.0, 0.0}, base = m;
        for (int k = p; k > 0; k >>= 1) {
            if (k & 1) power = ddMul(power, base);
            base = ddMul(base, base);
        }
        return negative ? ddLess(ddMul(power, square), DoubleDouble{1.0, 0.0}) : ddLess(power, square);
    };
    for (int iteration = 0; iteration < 8; ++iteration) {
        const double up = nextafter(z, CUDART_INF), down = nextafter(z, 0.0);
        if (below(ddNormalize(z, (up - z) * 0.5))) {
            z = up;
        } else if (!below(ddNormalize(z, (down - z) * 0.5))) {
            z = down;
        } else {
            break;
        }
    }
    return z;
}

/// Cholesky factorisation of the p x p row-major `a` in place (lower triangle), by the whole block,
/// in the operation order of mhca_linalg.cpp's choleskyInPlace. Block-uniform result.
__device__ inline bool choleskyBlock(double* a, int p, int* s_flag) {
    for (int k = 0; k < p; ++k) {
        if (threadIdx.x == 0) {
            const double pivot = a[k * p + k];
            *s_flag = pivot > 0.0;
            if (pivot > 0.0) a[k * p + k] = sqrt(pivot);
        }
        __syncthreads();
        if (!*s_flag) return false;
        const double reciprocal = 1.0 / a[k * p + k];
        for (int i = k + 1 + static_cast<int>(threadIdx.x); i < p; i += static_cast<int>(blockDim.x))
            a[i * p + k] = dmul(reciprocal, a[i * p + k]);
        __syncthreads();
        const int m = p - k - 1;  // trailing block, lower triangle: (i, j), k < j <= i
        for (int t = static_cast<int>(threadIdx.x); t < m * m; t += static_cast<int>(blockDim.x)) {
            const int i = k + 1 + t / m, j = k + 1 + t % m;
            if (j <= i) a[i * p + j] = dsub(a[i * p + j], dmul(a[j * p + k], a[i * p + k]));
        }
        __syncthreads();
    }
    return true;
}

/// Product of the diagonal from 1 in index order (mhca_linalg.cpp's diagonalProduct); thread-local.
__device__ __forceinline__ double diagonalProduct(const double* a, int p) {
    double product = 1.0;
    for (int i = 0; i < p; ++i) product = dmul(product, a[i * p + i]);
    return product;
}

/// From the Cholesky factor L (lower triangle of a) to (L·Lᵀ)^-1 in both triangles of `out`
/// (LAPACK dpotri: dtrti2 then dlauu2, mhca_linalg.cpp's inverseFromCholesky). `a` is overwritten
/// by L^-1; `col` is p doubles of scratch. Every entry follows the same operations as on the host.
__device__ inline void inverseFromCholeskyBlock(double* a, double* out, double* col, int p) {
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int jj = p - 1; jj >= 0; --jj) {
        for (int i = jj + 1 + tid; i < p; i += nt) col[i] = a[i * p + jj];
        __syncthreads();
        const double diag = 1.0 / a[jj * p + jj];
        const double scale = -diag;
        for (int i = jj + 1 + tid; i < p; i += nt) {
            double v = col[i];
            if (v != 0.0) v = dmul(v, a[i * p + i]);
            for (int c = i - 1; c > jj; --c)
                if (col[c] != 0.0) v = dadd(v, dmul(col[c], a[i * p + c]));
            a[i * p + jj] = dmul(scale, v);
        }
        __syncthreads();
        if (tid == 0) a[jj * p + jj] = diag;
        __syncthreads();
    }
    for (int t = tid; t < p * p; t += nt) {
        const int i = t / p, j = t % p;
        if (j > i) continue;
        const double aii = a[i * p + i];
        double v;
        if (i + 1 < p) {
            if (j == i) {
                v = 0.0;
                for (int k = i; k < p; ++k) v = dadd(v, dmul(a[k * p + i], a[k * p + i]));
            } else {
                v = aii == 0.0 ? 0.0 : dmul(aii, a[i * p + j]);
                double temp = 0.0;
                for (int k = i + 1; k < p; ++k) temp = dadd(temp, dmul(a[k * p + j], a[k * p + i]));
                v = dadd(v, temp);
            }
        } else {
            v = dmul(aii, a[i * p + j]);
        }
        out[i * p + j] = v;
        out[j * p + i] = v;
    }
    __syncthreads();
}

}  // namespace clusterlens::cuda::mhca
