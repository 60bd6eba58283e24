#pragma once
// The shape Σ'^-1 of one cluster (thesis 2.5.3, with Cholesky instead of the thesis's
// cublasSmatinvBatched; by a team of threads, the triangular inverse by one warp): Cholesky factor,
// determinant powers and inverse in the operation order of mhcaCpu (mhca_linalg.cpp: dpotrf2 with reference BLAS,
// dtrti2 + dlauu2), so that the factorisation of a singular covariance fails or succeeds exactly as on the host.

#include <cuda_runtime.h>
#include <math_constants.h>

#ifdef CLUSTERLENS_RACECHECK_BARRIERS
#include <cuda/barrier>
#endif

#include "cuda/kernels/mhca_device.cuh"

namespace clusterlens::cuda::mhca {

#ifdef CLUSTERLENS_RACECHECK_BARRIERS
/// Checking builds only (CMake option CLUSTERLENS_RACECHECK_BARRIERS): compute-sanitizer's racecheck
/// reports false hazards between the warps of a named barrier with a thread count and the other warps
/// on any shared variable they later share across __syncthreads (tests/gpu/sanitizer/
/// named_barrier_race.cu shows it on a correct reduction). An mbarrier of the team's size, which
/// racecheck models, stands in for the named barrier; the kernel calls initTeamBarrier first.
#pragma nv_diag_suppress static_var_with_dynamic_init
__device__ __forceinline__ ::cuda::barrier<::cuda::thread_scope_block>& teamBarrier() {
    __shared__ ::cuda::barrier<::cuda::thread_scope_block> s_team;
    return s_team;
}
#endif

/// Before any ShapeTeam of `teamThreads` (< the block) syncs; every thread calls. Nothing to do in
/// production builds, where the team syncs on a hardware named barrier.
__device__ __forceinline__ void initTeamBarrier([[maybe_unused]] int teamThreads) {
#ifdef CLUSTERLENS_RACECHECK_BARRIERS
    if (threadIdx.x == 0) init(&teamBarrier(), teamThreads);
    __syncthreads();
#endif
}

/// The threads that shape a cluster: the whole block (barrier 0: __syncthreads) or its first `nt`
/// threads, a multiple of 32, synchronised by the named barrier `barrier` while the others work on.
struct ShapeTeam {
    int tid;
    int nt;
    int barrier;
    __device__ __forceinline__ void sync() const {
        if (barrier == 0) {
            __syncthreads();
        } else {
#ifdef CLUSTERLENS_RACECHECK_BARRIERS
            // A team of the whole block is every thread: __syncthreads is the same barrier.
            if (nt == static_cast<int>(blockDim.x)) {
                __syncthreads();
            } else {
                teamBarrier().arrive_and_wait();
            }
#else
            asm volatile("bar.sync %0, %1;" ::"r"(barrier), "r"(nt) : "memory");
#endif
        }
    }
};

__device__ __forceinline__ ShapeTeam wholeBlock() {
    return ShapeTeam{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x), 0};
}

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

/// Cholesky factorisation of the p x p row-major `a` (lower triangle), by the team, in the operation
/// order of mhca_linalg.cpp's choleskyInPlace, with one barrier per column: every thread takes the
/// pivot's root and reciprocal itself and scales the two column entries its trailing entry needs
/// (the values the host stores), and column k goes to the unused upper triangle and the root to
/// `roots` (p doubles) until the end, since step k still reads them below the diagonal. The upper
/// triangle of `a` is overwritten. Team-uniform result.
__device__ inline bool choleskyTeam(double* a, double* roots, int p, const ShapeTeam& team) {
    for (int k = 0; k < p; ++k) {
        const double pivot = a[k * p + k];
        if (!(pivot > 0.0)) return false;
        const double root = sqrt(pivot);
        const double reciprocal = 1.0 / root;
        const int m = p - k - 1;
        // t < m*m: trailing entry (i, j), k < j <= i; then the m column entries (i, k).
        for (int t = team.tid; t < m * m + m; t += team.nt) {
            if (t < m * m) {
                const int i = k + 1 + t / m, j = k + 1 + t % m;
                if (j > i) continue;
                const double ljk = dmul(reciprocal, a[j * p + k]);
                const double lik = dmul(reciprocal, a[i * p + k]);
                a[i * p + j] = dsub(a[i * p + j], dmul(ljk, lik));
            } else {
                const int i = k + 1 + (t - m * m);
                a[k * p + i] = dmul(reciprocal, a[i * p + k]);
            }
        }
        if (team.tid == 0) roots[k] = root;
        team.sync();
    }
    for (int t = team.tid; t < p * p; t += team.nt) {
        const int i = t / p, k = t % p;
        if (k < i) a[i * p + k] = a[k * p + i];
        if (k == i) a[i * p + i] = roots[i];
    }
    team.sync();
    return true;
}

/// Product of the diagonal from 1 in index order (mhca_linalg.cpp's diagonalProduct); thread-local.
__device__ __forceinline__ double diagonalProduct(const double* a, int p) {
    double product = 1.0;
    for (int i = 0; i < p; ++i) product = dmul(product, a[i * p + i]);
    return product;
}

/// First half of LAPACK dpotri (dtrti2, mhca_linalg.cpp's inverseFromCholesky): the Cholesky factor L
/// in the lower triangle of `a` becomes L^-1, by the 32 lanes of one warp; `col` and `rec` are p
/// doubles of scratch. dtrti2 replaces each diagonal entry by its reciprocal as it reaches it, and
/// only later columns read them, so all reciprocals are taken at once up front (off the chain of
/// dependent columns). Every entry follows the same operations as on the host.
__device__ inline void triangularInverseWarp(double* a, double* col, double* rec, int p) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    for (int i = lane; i < p; i += 32) rec[i] = 1.0 / a[i * p + i];
    __syncwarp();
    for (int jj = p - 1; jj >= 0; --jj) {
        for (int i = jj + 1 + lane; i < p; i += 32) col[i] = a[i * p + jj];
        __syncwarp();
        const double scale = -rec[jj];
        for (int i = jj + 1 + lane; i < p; i += 32) {
            double v = col[i];
            if (v != 0.0) v = dmul(v, rec[i]);
            for (int c = i - 1; c > jj; --c)
                if (col[c] != 0.0) v = dadd(v, dmul(col[c], a[i * p + c]));
            a[i * p + jj] = dmul(scale, v);
        }
        __syncwarp();
    }
    for (int i = lane; i < p; i += 32) a[i * p + i] = rec[i];
    __syncwarp();
}

/// The warp path's bound on p: a row of the factor per lane, in registers (the shape of clusters of
/// up to 16 features, every dimension instance of the CMD kernels).
constexpr int kShapeRegs = 16;

/// Cholesky factorisation of a p x p matrix (p <= kShapeRegs) held by the 32 lanes of one warp, lane i
/// row i: row[j] = a_ij (j < i) and diag = a_ii, in the operation order of choleskyInPlace. The chain
/// from one pivot to the next is one shuffle, the root, its reciprocal and the pivot's own update
/// (lane k + 1 reduces its diagonal with its own l_(k+1)k), no barrier. On an H200 (p = 14, one warp
/// alone) it takes ~5.1K cycles; the chain's floor is 14 x (shuffle 26 + root and reciprocal 172 +
/// 3 x 8) ~ 3.1K. Broadcasting each column through shared memory instead of shuffles measured slower
/// (6.3K). Afterwards row[j] = l_ij and diag = l_ii. Warp-uniform result; lanes >= p carry unused
/// values.
__device__ __forceinline__ bool choleskyRegs(double (&row)[kShapeRegs], double& diag, int p) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
#pragma unroll
    for (int k = 0; k < kShapeRegs; ++k) {
        if (k < p) {
            const double pivot = __shfl_sync(0xffffffffu, diag, k);
            if (!(pivot > 0.0)) return false;
            const double root = sqrt(pivot);
            const double reciprocal = 1.0 / root;
            const double lik = dmul(reciprocal, row[k]);
            if (lane > k) {
                row[k] = lik;
                diag = dsub(diag, dmul(lik, lik));
            } else if (lane == k) {
                diag = root;
            }
#pragma unroll
            for (int j = k + 1; j < kShapeRegs - 1; ++j) {
                const double ljk = __shfl_sync(0xffffffffu, lik, j);
                if (lane > j) row[j] = dsub(row[j], dmul(ljk, lik));
            }
        }
    }
    return true;
}

/// diagonalProduct of the factor held by choleskyRegs (every lane gets it).
__device__ __forceinline__ double diagonalProductRegs(double diag, int p) {
    double product = 1.0;
#pragma unroll
    for (int i = 0; i < kShapeRegs; ++i)
        if (i < p) product = dmul(product, __shfl_sync(0xffffffffu, diag, i));
    return product;
}

/// triangularInverseWarp on the factor held by choleskyRegs, whose copy is in the row-major `l` (lanes
/// read its columns): lane i computes row i of L^-1 alone, since entry (i, jj) reads only the original
/// column jj of L and the entries (i, c > jj) of its own row, so no lane waits for another. The warp
/// barrier per column keeps the compiler from hoisting every column's loads at once (registers).
/// H200, p = 14: ~9.4K cycles against ~14K for triangularInverseWarp; adding each finished entry's
/// term to all pending entries of the row at once (the same order per entry) measured slower (~11K).
/// Afterwards row[j] = (L^-1)_ij (j < i) and diag = 1 / l_ii.
__device__ __forceinline__ void triangularInverseRegs(double (&row)[kShapeRegs], double& diag, const double* l, int p) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    const double reciprocal = 1.0 / diag;
#pragma unroll
    for (int jj = kShapeRegs - 2; jj >= 0; --jj) {
        if (jj < p - 1) {
            const double scale = -__shfl_sync(0xffffffffu, reciprocal, jj);
            // Selects, not branches: the lanes start their sums at different c and must not diverge.
            const double own = row[jj];
            double v = own != 0.0 ? dmul(own, reciprocal) : own;
#pragma unroll
            for (int c = kShapeRegs - 2; c > jj; --c) {
                const double column = c < p ? l[c * p + jj] : 0.0;
                const double sum = dadd(v, dmul(column, row[c]));
                v = (c < lane && column != 0.0) ? sum : v;
            }
            if (lane > jj) row[jj] = dmul(scale, v);
            __syncwarp();
        }
    }
    diag = reciprocal;
}

/// Stores the lower triangle held by a warp (row, diag) into the row-major p x p `a` (lanes < p).
__device__ __forceinline__ void storeLowerRegs(const double (&row)[kShapeRegs], double diag, double* a, int p) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    if (lane >= p) return;
#pragma unroll
    for (int j = 0; j < kShapeRegs; ++j)
        if (j < lane) a[lane * p + j] = row[j];
    a[lane * p + lane] = diag;
}

/// Second half of dpotri (dlauu2): (L^-1)ᵀ L^-1 from L^-1 in the lower triangle of `a` into both
/// triangles of `out`, by the team; ends with its barrier.
__device__ inline void inverseProductBlock(const double* a, double* out, int p, const ShapeTeam& team) {
    const int tid = team.tid, nt = team.nt;
    if (p <= kShapeRegs) {
        // Unrolled to the bound: every product of an entry's sum is loaded and formed before the
        // chain of additions (in dlauu2's order, k ascending) starts (H200, p = 14: ~2.6K cycles
        // against ~3.2K for the loop below).
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (j > i) continue;
            const double aii = a[i * p + i];
            double v;
            if (i + 1 < p) {
                const int first = j == i ? i : i + 1;
                double product[kShapeRegs];
#pragma unroll
                for (int q = 0; q < kShapeRegs; ++q) {
                    const int k = first + q;
                    product[q] = k < p ? dmul(a[k * p + j], a[k * p + i]) : 0.0;
                }
                double sum = 0.0;
#pragma unroll
                for (int q = 0; q < kShapeRegs; ++q) sum = first + q < p ? dadd(sum, product[q]) : sum;
                v = j == i ? sum : dadd(aii == 0.0 ? 0.0 : dmul(aii, a[i * p + j]), sum);
            } else {
                v = dmul(aii, a[i * p + j]);
            }
            out[i * p + j] = v;
            out[j * p + i] = v;
        }
        team.sync();
        return;
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
    team.sync();
}

}  // namespace clusterlens::cuda::mhca
