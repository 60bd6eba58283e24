#pragma once
// The tiled all-pairs engine of the GPU density-peaks passes (rho, delta, dc selection), in the
// spirit of CUDA-DP (Ge et al. 2017: tiles in shared memory, structure-of-arrays data) but with the
// reduction fused into the tile and no distance matrix: a block of 256 threads works through a
// 128 x 128 tile of pairs, each thread an 8 x 8 register micro-tile, and hands the tile to an
// epilogue (a density sum, a nearest-higher search, a window count).
//
// Two forms of the per-pair arithmetic:
//  - differences (2 operations per feature): f = sum (a_k - b_k)^2 in float, relative error at most
//    floatDistanceTolerance(d); used by the Gaussian density, whose terms need relative accuracy;
//  - dot products (1 fused multiply-add per feature) of mean-centred points, f = |a|^2 + |b|^2 - 2 a.b
//    (DpcGuard): an absolute error of at most kappa·(|a|^2 + |b|^2); used by the passes that only
//    compare distances (cutoff count, nearest higher, dc window), which re-decide every pair inside
//    the error band exactly in double from the original values.
//
// Data layout ("tiles"): the points are cut into tiles of 128; tile t holds dPad rows of 128 floats,
// row k the k-th feature of the tile's points (dPad = d rounded up to even; padding is zero, points
// past n are zero too and are masked by the epilogues). The engine itself is tiled_pairs.cuh, shared
// with the VAT passes.

#include <cuda_runtime.h>

#include "cpu/density_peaks_math.hpp"
#include "cpu/density_peaks_schedule.hpp"
#include "cuda/kernels/density_peaks_layout.cuh"
#include "cuda/kernels/tiled_pairs.cuh"

namespace clusterlens::cuda {

/// A block's work: the pairs of tile `tile` with tiles first..last (inclusive); `slot` numbers the
/// unit (the delta pass stores one partial result per slot).
using DpcUnit = dpc::TileUnit;

/// Offset inside a tile of micro-tile entry r (0..7) of thread coordinate t (0..15): two runs of
/// four, 64 apart, so that a warp's 16-byte shared loads are free of bank conflicts.
__device__ __forceinline__ int dpcOffset(int t, int r) {
    return (r < 4 ? 0 : 64) + t * 4 + (r & 3);
}

/// Squared norms of the centred points (tileCount x 128 floats, zero past n) and the bound factor:
/// |f - e| <= kappa·(|a|^2 + |b|^2) for f from the dot-product form and e the exact squared distance
/// of the original points (see dpcGuardKappa).
struct DpcGuard {
    const float* norms;
    float kappa;

    /// f, and f minus / plus its error bound, for a dot product g of centred points with norms na, nb.
    __device__ __forceinline__ void bounds(float g, float na, float nb, float& f, float& lower, float& upper) const {
        const float t = na + nb;
        f = fmaf(-2.0f, g, t);
        lower = fmaf(-kappa, t, f);
        upper = fmaf(kappa, t, f);
    }
    /// The 8 norms of micro-tile rows (or columns) of thread coordinate t in tile `tile`. With
    /// kFresh the load is not merged with an earlier one, so that the compiler recomputes the bounds
    /// of a rare second look at a tile instead of keeping all 64 of them live from the first.
    template <bool kFresh = false>
    __device__ __forceinline__ void load(int tile, int t, float (&out)[8]) const {
        const float4* at = reinterpret_cast<const float4*>(norms + tile * kDpcTile);
        const float4 n0 = kFresh ? __ldcv(at + t) : at[t];
        const float4 n1 = kFresh ? __ldcv(at + 16 + t) : at[16 + t];
        out[0] = n0.x, out[1] = n0.y, out[2] = n0.z, out[3] = n0.w;
        out[4] = n1.x, out[5] = n1.y, out[6] = n1.z, out[7] = n1.w;
    }
};

/// The bound factor of DpcGuard for d features. Error sources, in units of u = 2^-24 times
/// t = |a|^2 + |b|^2: centring the floats (a - mean rounded: at most 4), twice the dot product of d
/// fused multiply-adds (d), the float norms and their sum (3), rounding f (2) and then lower or
/// upper (2): (d + 11)·u in all; kappa is twice that, 2(d + 12)·u.
__host__ __device__ inline float dpcGuardKappa(int d) {
    return static_cast<float>((d + 12) * 0x1.0p-23);
}

/// Exact squared distance of two points of a tile layout (the bits of the CPU reference).
__device__ __forceinline__ double dpcExactDistance(const DpcTiles tiles, int p, int q) {
    return dpc::exactSquaredDistance([&](int k) { return tiles.at(p, k); }, [&](int k) { return tiles.at(q, k); },
                                     tiles.d);
}

/// Exact squared distance of points p and q of a row-major array of n x d floats: the two rows are
/// contiguous, so the (rare) exact decisions touch two or four cache lines instead of 2d.
__device__ __forceinline__ double dpcExactRowDistance(const float* __restrict__ points, int d, int p, int q) {
    const float* a = points + static_cast<size_t>(p) * d;
    const float* b = points + static_cast<size_t>(q) * d;
    return dpc::exactSquaredDistance([&](int k) { return a[k]; }, [&](int k) { return b[k]; }, d);
}

/// Shared memory the engine needs for a given dPad (two stages of an A and a B chunk).
__host__ __device__ inline int dpcEngineSharedFloats(int dPad) {
    return tiledPairsSharedFloats(dPad);
}

/// Runs the unit's tiles through `epilogue.tile(f, rowTile, colTile)`, f[r][c] belonging to row point
/// rowTile*128 + dpcOffset(ty, r) and column point colTile*128 + dpcOffset(tx, c): the float squared
/// distance, or with kDot the dot product of the two points. Every thread of the block must call it.
/// s_tiles: dpcEngineSharedFloats floats.
template <bool kDot, class Epilogue>
__device__ void dpcTiledPairs(const DpcTiles tiles, const DpcUnit unit, Epilogue& epilogue, float* s_tiles) {
    const auto tileRows = [&](int tile, int k0) {
        return tiles.data + (static_cast<size_t>(tile) * tiles.dPad + k0) * kDpcTile;
    };
    tiledPairs<kDot ? PairForm::Dot : PairForm::SquaredL2>(
        tiles.dPad, unit.last - unit.first + 1, [&](int k0) { return tileRows(unit.tile, k0); },
        [&](int j, int k0) { return tileRows(unit.first + j, k0); },
        [&](float(&f)[8][8], int j) { epilogue.tile(f, unit.tile, unit.first + j); }, s_tiles);
}

/// Builds the tile layout from row-major points, minus d_mean (d floats) when given: one thread per
/// (tile row, tile column).
__global__ void dpcBuildTilesKernel(const float* __restrict__ d_x, int n, int d, int dPad, int tileCount,
                                    const float* __restrict__ d_mean, float* __restrict__ d_tiles) {
    const size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t total = static_cast<size_t>(tileCount) * dPad * kDpcTile;
    if (e >= total) return;
    const int c = static_cast<int>(e % kDpcTile);
    const int k = static_cast<int>((e / kDpcTile) % dPad);
    const int t = static_cast<int>(e / (static_cast<size_t>(kDpcTile) * dPad));
    const int point = t * kDpcTile + c;
    float v = 0.0f;
    if (point < n && k < d)
        v = d_mean ? d_x[static_cast<size_t>(point) * d + k] - d_mean[k] : d_x[static_cast<size_t>(point) * d + k];
    d_tiles[e] = v;
}

/// Squared norms of the points of a tile layout, summed in double and rounded to float; zero past n.
__global__ void dpcNormsKernel(const DpcTiles tiles, float* __restrict__ d_norms) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= tiles.tileCount * kDpcTile) return;
    double s = 0.0;
    if (i < tiles.n)
        for (int k = 0; k < tiles.d; ++k) {
            const double v = static_cast<double>(tiles.at(i, k));
            s = fma(v, v, s);
        }
    d_norms[i] = static_cast<float>(s);
}

/// A tile layout of the points in density order: position p holds point d_order[p].
__global__ void dpcPermuteTilesKernel(const DpcTiles source, const int* __restrict__ d_order,
                                      float* __restrict__ d_tiles) {
    const size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t total = static_cast<size_t>(source.tileCount) * source.dPad * kDpcTile;
    if (e >= total) return;
    const int c = static_cast<int>(e % kDpcTile);
    const int k = static_cast<int>((e / kDpcTile) % source.dPad);
    const int t = static_cast<int>(e / (static_cast<size_t>(kDpcTile) * source.dPad));
    const int p = t * kDpcTile + c;
    d_tiles[e] = p < source.n ? source.at(d_order[p], k) : 0.0f;
}

/// d_out[p] = d_in[d_order[p]] for p < n, 0 up to `padded`.
__global__ void dpcPermuteNormsKernel(const float* __restrict__ d_in, const int* __restrict__ d_order, int n,
                                      int padded, float* __restrict__ d_out) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p < padded) d_out[p] = p < n ? d_in[d_order[p]] : 0.0f;
}

}  // namespace clusterlens::cuda
