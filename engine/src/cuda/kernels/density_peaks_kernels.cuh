#pragma once
// Kernels of the GPU density-peaks clustering (Rodriguez & Laio 2014): the fused epilogues of the
// tiled all-pairs engine (density_peaks_tiles.cuh) for rho and delta, and the small kernels around.
//
// Cutoff densities, nearest-higher links and delta compare distances only: the dot-product form
// screens the pairs, and every pair inside its error band is decided exactly in double from the
// original values, with the bits of the CPU reference, so they equal the CPU's for the same
// density order. Gaussian densities are float sums of float terms (difference form), accumulated in
// double and 64-bit fixed point (the same bits run to run); rows with rho < 1, whose terms are all
// far and whose float error would be largest, are recomputed from exact distances
// (density_peaks_rows_kernels.cuh).

#include <cuda_runtime.h>

#include <climits>

#include "cuda/kernels/density_peaks_tiles.cuh"

namespace clusterlens::cuda {

// ---------------------------------------------------------------------------------------------
// rho: one pass over the pairs i <= j (tiles colTile >= rowTile). Each off-diagonal pair adds its
// term to both points: to the row point through a sum per thread (shared memory, double), to the
// column point through a per-tile column reduction. Sums become integers (value · fixedScale) added
// with 64-bit atomics, which are associative, so the order in which blocks finish does not matter.

struct DpcRhoParams {
    DpcTiles tiles;       ///< original values (Gaussian engine input)
    const float* points;  ///< original values, row-major (cutoff exact decisions)
    DpcTiles centred;     ///< centred values (cutoff engine input)
    DpcGuard guard;       ///< cutoff: norms of the centred points and the error bound
    float negScale;       ///< Gaussian: -log2(e) / dc²
    float insideF;        ///< cutoff: upper bound < insideF  =>  e < threshold
    float outsideF;       ///< cutoff: lower bound >= outsideF  =>  e >= threshold
    double threshold;     ///< cutoff: d < dc  <=>  e < threshold (dpc::cutoffSquaredThreshold)
    double fixedScale;    ///< 2^s
    unsigned long long* acc;
};

template <bool kGaussian>
struct DpcRhoEpilogue {
    DpcRhoParams p;
    float* s_col;      // 8 warps x 128 column partial sums
    double* s_rowSum;  // 8 rows x 256 threads: row sums over the unit (shared memory keeps registers free)
    float rowNorm[8];  // cutoff: norms of the thread's rows

    __device__ unsigned long long toFixed(double v) const { return __double2ull_rn(v * p.fixedScale); }

    /// Adds the tile's terms to rowAcc / colAcc; for the cutoff kernel returns the mask (bit 8r + c)
    /// of the pairs inside the error band, which are left out and decided exactly.
    template <bool kMasked>
    __device__ unsigned long long accumulate(const float (&f)[8][8], int rowTile, int colTile, float (&rowAcc)[8],
                                             float (&colAcc)[8]) const {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        float colNorm[8];
        if constexpr (!kGaussian) p.guard.load(colTile, tx, colNorm);
        bool band = false;
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                float v;
                if constexpr (kGaussian) {
                    v = dpcExp2(f[r][c] * p.negScale);
                } else {
                    float e, lower, upper;
                    p.guard.bounds(f[r][c], rowNorm[r], colNorm[c], e, lower, upper);
                    v = upper < p.insideF ? 1.0f : 0.0f;
                    band |= lower < p.outsideF && !(upper < p.insideF);
                }
                if constexpr (kMasked) {
                    const int i = rowTile * kDpcTile + dpcOffset(ty, r);
                    const int j = colTile * kDpcTile + dpcOffset(tx, c);
                    if (j >= p.tiles.n || i == j) v = 0.0f;
                }
                rowAcc[r] += v;
                colAcc[c] += v;
            }
        unsigned long long mask = 0;
        if constexpr (!kGaussian) {
            if (band) {
                p.guard.load<true>(colTile, tx, colNorm);
#pragma unroll
                for (int r = 0; r < 8; ++r)
#pragma unroll
                    for (int c = 0; c < 8; ++c) {
                        float e, lower, upper;
                        p.guard.bounds(f[r][c], rowNorm[r], colNorm[c], e, lower, upper);
                        if (lower < p.outsideF && !(upper < p.insideF)) mask |= 1ull << (8 * r + c);
                    }
            }
        }
        return mask;
    }

    /// The band pairs of `mask`, decided by the exact distance: row sums in shared memory, the
    /// (rare) column corrections straight into the global sums.
    __device__ void correctBand(unsigned long long mask, int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        while (mask) {
            const int bit = __ffsll(static_cast<long long>(mask)) - 1;
            mask &= mask - 1;
            const int r = bit >> 3;
            const int i = rowTile * kDpcTile + dpcOffset(ty, r);
            const int j = colTile * kDpcTile + dpcOffset(tx, bit & 7);
            if (i >= p.tiles.n || j >= p.tiles.n || i == j) continue;
            if (!(dpcExactRowDistance(p.points, p.tiles.d, i, j) < p.threshold)) continue;
            s_rowSum[r * kDpcThreads + threadIdx.x] += 1.0;
            if (rowTile != colTile) atomicAdd(p.acc + j, toFixed(1.0));
        }
    }

    __device__ void tile(const float (&f)[8][8], int rowTile, int colTile) {
        const bool diagonal = rowTile == colTile;
        const bool ragged = (colTile + 1) * kDpcTile > p.tiles.n;
        float rowAcc[8], colAcc[8];
#pragma unroll
        for (int r = 0; r < 8; ++r) rowAcc[r] = colAcc[r] = 0.0f;
        const unsigned long long band = diagonal || ragged ? accumulate<true>(f, rowTile, colTile, rowAcc, colAcc)
                                                           : accumulate<false>(f, rowTile, colTile, rowAcc, colAcc);
#pragma unroll
        for (int r = 0; r < 8; ++r) s_rowSum[r * kDpcThreads + threadIdx.x] += static_cast<double>(rowAcc[r]);
        if (!diagonal) {  // the diagonal tile's rows already saw every pair of it
            const int lane = static_cast<int>(threadIdx.x) & 31;
            const int warp = static_cast<int>(threadIdx.x) >> 5;
            const int tx = static_cast<int>(threadIdx.x) & 15;
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const float v = colAcc[c] + __shfl_xor_sync(0xffffffffu, colAcc[c], 16);
                if (lane < 16) s_col[warp * kDpcTile + dpcOffset(tx, c)] = v;
            }
            __syncthreads();
            if (threadIdx.x < kDpcTile) {
                float s = 0.0f;
#pragma unroll
                for (int w = 0; w < kDpcThreads / 32; ++w) s += s_col[w * kDpcTile + threadIdx.x];
                const int j = colTile * kDpcTile + static_cast<int>(threadIdx.x);
                if (j < p.tiles.n && s != 0.0f) atomicAdd(p.acc + j, toFixed(static_cast<double>(s)));
            }
        }
        if (!kGaussian && band) correctBand(band, rowTile, colTile);
    }

    __device__ void finish(int rowTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            double v = s_rowSum[r * kDpcThreads + threadIdx.x];
#pragma unroll
            for (int lanes = 1; lanes < 16; lanes <<= 1) v += __shfl_xor_sync(0xffffffffu, v, lanes);
            const int i = rowTile * kDpcTile + dpcOffset(ty, r);
            if (tx == 0 && i < p.tiles.n && v != 0.0) atomicAdd(p.acc + i, toFixed(v));
        }
    }
};

template <bool kGaussian>
__global__ void __launch_bounds__(kDpcThreads, 2)
    dpcRhoKernel(const DpcRhoParams params, const DpcUnit* __restrict__ d_units, int unitOffset) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    const DpcTiles& engineTiles = kGaussian ? params.tiles : params.centred;
    DpcRhoEpilogue<kGaussian> epilogue;
    epilogue.p = params;
    epilogue.s_col = s_tiles + dpcEngineSharedFloats(engineTiles.dPad);
    epilogue.s_rowSum = reinterpret_cast<double*>(epilogue.s_col + kDpcTile * (kDpcThreads / 32));
#pragma unroll
    for (int r = 0; r < 8; ++r) epilogue.s_rowSum[r * kDpcThreads + threadIdx.x] = 0.0;
    const DpcUnit unit = d_units[unitOffset + static_cast<int>(blockIdx.x)];
    if constexpr (!kGaussian) params.guard.load(unit.tile, static_cast<int>(threadIdx.x) >> 4, epilogue.rowNorm);
    dpcTiledPairs<!kGaussian>(engineTiles, unit, epilogue, s_tiles);
    epilogue.finish(unit.tile);
}

/// rho_i = acc_i / fixedScale; the rows with rho below `exactBelow` are listed for an exact recount.
__global__ void dpcRhoFromFixedKernel(const unsigned long long* __restrict__ d_acc, int n, double inverseScale,
                                      double exactBelow, double* __restrict__ d_rho, int* __restrict__ d_rows,
                                      int* __restrict__ d_rowCount) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const double rho = static_cast<double>(d_acc[i]) * inverseScale;
    d_rho[i] = rho;
    if (rho < exactBelow) d_rows[atomicAdd(d_rowCount, 1)] = i;
}

/// rho[rows[b]] = values[b] for b < count (the exact recount of the listed rows).
__global__ void dpcScatterRowsKernel(const int* __restrict__ d_rows, const double* __restrict__ d_values, int count,
                                     double* __restrict__ d_rho) {
    const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (b < count) d_rho[d_rows[b]] = d_values[b];
}

/// Sort keys of the density order: ascending ~bits(rho) is descending rho (rho >= 0); a stable sort
/// of the indices 0..n-1 keeps equal densities in increasing index order.
__global__ void dpcOrderKeysKernel(const double* __restrict__ d_rho, int n, unsigned long long* __restrict__ d_keys,
                                   int* __restrict__ d_index) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    d_keys[i] = ~static_cast<unsigned long long>(__double_as_longlong(d_rho[i]));
    d_index[i] = i;
}

}  // namespace clusterlens::cuda
