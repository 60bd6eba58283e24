#pragma once
// The exact dc-selection pass of the GPU density-peaks clustering (see cpu/density_peaks_select.hpp):
// for a window [lo, hi) of exact squared distances, over the pairs i < j, count the pairs below and
// inside, histogram the inside ones and optionally collect their exact values. The dot-product form
// bounds each pair's exact squared distance; a pair whose bounds straddle lo or hi is decided
// exactly in double, so the counts are those of the CPU reference. Histogram bins of pairs certainly
// inside use the float estimate (the bins only guide the next window).

#include <cuda_runtime.h>

#include "cuda/kernels/density_peaks_tiles.cuh"

namespace clusterlens::cuda {

struct DpcWindowParams {
    DpcTiles centred;     ///< engine input
    DpcTiles tiles;       ///< shape (n, d) of the original values
    const float* points;  ///< original values, row-major (exact distances)
    DpcGuard guard;
    float loBelow;  ///< upper bound < loBelow  =>  e < lo
    float loAbove;  ///< lower bound >= loAbove  =>  e >= lo
    float hiBelow;  ///< upper bound < hiBelow  =>  e < hi
    float hiAbove;  ///< lower bound >= hiAbove  =>  e >= hi
    double lo;
    double hi;
    int bins;                     ///< histogram bins over [lo, hi) (0: none); at most kDpcMaxBins
    double binScale;              ///< bins / (hi - lo)
    float binScaleF;              ///< the same in float, for the estimated bins of certain pairs
    int collect;                  ///< 1: store the exact inside values
    unsigned long long capacity;  ///< values stored at most
    unsigned long long* counts;   ///< [0] below, [1] inside, [2] values offered (may exceed capacity)
    unsigned long long* hist;     ///< bins
    double* values;               ///< capacity
};

constexpr int kDpcMaxBins = 1024;

struct DpcWindowEpilogue {
    DpcWindowParams p;
    unsigned int* s_hist;
    unsigned long long below;
    unsigned long long inside;
    float rowNorm[8];

    /// The pairs of `mask` (bit 8r + c), decided exactly.
    __device__ void exactPairs(unsigned long long mask, int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        while (mask) {
            const int bit = __ffsll(static_cast<long long>(mask)) - 1;
            mask &= mask - 1;
            const int i = rowTile * kDpcTile + dpcOffset(ty, bit >> 3);
            const int j = colTile * kDpcTile + dpcOffset(tx, bit & 7);
            const double e = dpcExactRowDistance(p.points, p.tiles.d, i, j);
            if (e < p.lo) {
                ++below;
            } else if (e < p.hi) {
                ++inside;
                if (p.bins > 0) atomicAdd(s_hist + dpc::binOf(e, p.lo, p.binScale, p.bins), 1u);
                if (p.collect) {
                    const unsigned long long at = atomicAdd(p.counts + 2, 1ull);
                    if (at < p.capacity) p.values[at] = e;
                }
            }
        }
    }

    /// Counts the tile's pairs certainly below the window; pairs that may lie inside are counted
    /// (certainly inside, not collecting) or returned in the mask for an exact decision.
    template <bool kMasked>
    __device__ unsigned long long screen(const float (&g)[8][8], int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        float colNorm[8];
        p.guard.load(colTile, tx, colNorm);
        int countBelow = 0;
        int countNotAbove = 0;
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                bool valid = true;
                if constexpr (kMasked) {
                    const int i = rowTile * kDpcTile + dpcOffset(ty, r);
                    const int j = colTile * kDpcTile + dpcOffset(tx, c);
                    valid = i < j && j < p.tiles.n;
                }
                float f, lower, upper;
                p.guard.bounds(g[r][c], rowNorm[r], colNorm[c], f, lower, upper);
                countBelow += valid && upper < p.loBelow;
                countNotAbove += valid && lower < p.hiAbove;
            }
        below += static_cast<unsigned long long>(countBelow);
        unsigned long long mask = 0;
        if (countNotAbove == countBelow) return mask;
        p.guard.load<true>(colTile, tx, colNorm);
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int i = rowTile * kDpcTile + dpcOffset(ty, r);
                const int j = colTile * kDpcTile + dpcOffset(tx, c);
                if (kMasked && !(i < j && j < p.tiles.n)) continue;
                float f, lower, upper;
                p.guard.bounds(g[r][c], rowNorm[r], colNorm[c], f, lower, upper);
                if (upper < p.loBelow || !(lower < p.hiAbove)) continue;
                if (!p.collect && lower >= p.loAbove && upper < p.hiBelow) {
                    ++inside;
                    if (p.bins > 0) {
                        const int b = static_cast<int>(fmaxf(0.0f, (f - p.loBelow) * p.binScaleF));
                        atomicAdd(s_hist + min(b, p.bins - 1), 1u);
                    }
                } else {
                    mask |= 1ull << (8 * r + c);
                }
            }
        return mask;
    }

    __device__ void tile(const float (&g)[8][8], int rowTile, int colTile) {
        const bool masked = rowTile == colTile || (colTile + 1) * kDpcTile > p.tiles.n;
        const unsigned long long mask = masked ? screen<true>(g, rowTile, colTile) : screen<false>(g, rowTile, colTile);
        if (mask) exactPairs(mask, rowTile, colTile);
    }

    __device__ void finish() {
        unsigned long long b = below;
        unsigned long long in = inside;
#pragma unroll
        for (int lanes = 16; lanes > 0; lanes >>= 1) {
            b += __shfl_xor_sync(0xffffffffu, b, lanes);
            in += __shfl_xor_sync(0xffffffffu, in, lanes);
        }
        if ((threadIdx.x & 31) == 0) {
            if (b) atomicAdd(p.counts, b);
            if (in) atomicAdd(p.counts + 1, in);
        }
        __syncthreads();
        for (int bin = static_cast<int>(threadIdx.x); bin < p.bins; bin += kDpcThreads)
            if (s_hist[bin]) atomicAdd(p.hist + bin, static_cast<unsigned long long>(s_hist[bin]));
    }
};

__global__ void __launch_bounds__(kDpcThreads, 2)
    dpcWindowKernel(const DpcWindowParams params, const DpcUnit* __restrict__ d_units, int unitOffset) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    DpcWindowEpilogue epilogue;
    epilogue.p = params;
    epilogue.s_hist = reinterpret_cast<unsigned int*>(s_tiles + dpcEngineSharedFloats(params.centred.dPad));
    epilogue.below = 0;
    epilogue.inside = 0;
    for (int bin = static_cast<int>(threadIdx.x); bin < params.bins; bin += kDpcThreads) epilogue.s_hist[bin] = 0u;
    __syncthreads();
    const DpcUnit unit = d_units[unitOffset + static_cast<int>(blockIdx.x)];
    params.guard.load(unit.tile, static_cast<int>(threadIdx.x) >> 4, epilogue.rowNorm);
    dpcTiledPairs<true>(params.centred, unit, epilogue, s_tiles);
    epilogue.finish();
}

}  // namespace clusterlens::cuda
