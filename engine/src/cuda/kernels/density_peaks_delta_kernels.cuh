#pragma once
// delta of the GPU density-peaks clustering (Rodriguez & Laio 2014): the points are in density
// order and position p searches positions q < p (tiles colTile <= rowTile) for the nearest, ties
// to the smaller original index. The dot-product form gives each pair a lower and an upper bound of
// its exact squared distance; per thread and row, the smallest upper bound seen so far screens the
// candidates, and those whose lower bound reaches it are compared exactly (e, then index).

#include <cuda_runtime.h>

#include <climits>

#include "cuda/kernels/density_peaks_tiles.cuh"

namespace clusterlens::cuda {

struct DpcDeltaParams {
    DpcTiles centred;     ///< centred values in density order (engine input)
    DpcTiles tiles;       ///< shape (n, d)
    const float* points;  ///< original values in density order, row-major (exact distances)
    DpcGuard guard;       ///< norms in density order
    const int* order;     ///< position -> original index
    double* partE;        ///< per part and tile row: best exact squared distance
    int* partJ;           ///< and its original index
};

struct DpcDeltaEpilogue {
    DpcDeltaParams p;
    double* s_bestE;  // 8 rows x 256 threads
    int* s_bestJ;
    float bestUpper[8];
    float rowNorm[8];

    /// Exact comparison of the candidates in `mask` (bit 8r + c).
    __device__ void examine(unsigned long long mask, int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        while (mask) {
            const int bit = __ffsll(static_cast<long long>(mask)) - 1;
            mask &= mask - 1;
            const int slot = (bit >> 3) * kDpcThreads + static_cast<int>(threadIdx.x);
            const int row = rowTile * kDpcTile + dpcOffset(ty, bit >> 3);
            const int q = colTile * kDpcTile + dpcOffset(tx, bit & 7);
            const double e = dpcExactRowDistance(p.points, p.tiles.d, row, q);
            const int j = p.order[q];
            if (dpc::candidateBefore(e, j, s_bestE[slot], s_bestJ[slot])) {
                s_bestE[slot] = e;
                s_bestJ[slot] = j;
            }
        }
    }

    __device__ void tile(const float (&g)[8][8], int rowTile, int colTile) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
        const bool diagonal = rowTile == colTile;
        const float invalid = __int_as_float(0x7fffffff);  // NaN: fails every comparison, ignored by fminf
        float colNorm[8];
        p.guard.load(colTile, tx, colNorm);
        unsigned long long mask = 0;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const int row = rowTile * kDpcTile + dpcOffset(ty, r);
            float lower[8];
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                float e, upper;
                p.guard.bounds(g[r][c], rowNorm[r], colNorm[c], e, lower[c], upper);
                if (diagonal && colTile * kDpcTile + dpcOffset(tx, c) >= row) lower[c] = invalid;
            }
            float m = lower[0];
#pragma unroll
            for (int c = 1; c < 8; ++c) m = fminf(m, lower[c]);
            if (row < p.tiles.n && m <= bestUpper[r]) {
                float best = bestUpper[r];
#pragma unroll
                for (int c = 0; c < 8; ++c)
                    if (lower[c] <= bestUpper[r]) {
                        float e, l, upper;
                        p.guard.bounds(g[r][c], rowNorm[r], colNorm[c], e, l, upper);
                        best = fminf(best, upper);
                        mask |= 1ull << (8 * r + c);
                    }
                bestUpper[r] = best;
            }
        }
        if (mask) examine(mask, rowTile, colTile);
    }

    __device__ void finish(const DpcUnit& unit) {
        const int tx = static_cast<int>(threadIdx.x) & 15;
        const int ty = static_cast<int>(threadIdx.x) >> 4;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            double e = s_bestE[r * kDpcThreads + threadIdx.x];
            int j = s_bestJ[r * kDpcThreads + threadIdx.x];
#pragma unroll
            for (int lanes = 1; lanes < 16; lanes <<= 1) {
                const double oe = __shfl_xor_sync(0xffffffffu, e, lanes);
                const int oj = __shfl_xor_sync(0xffffffffu, j, lanes);
                if (dpc::candidateBefore(oe, oj, e, j)) {
                    e = oe;
                    j = oj;
                }
            }
            if (tx == 0) {
                const size_t at = static_cast<size_t>(unit.part) * kDpcTile + dpcOffset(ty, r);
                p.partE[at] = e;
                p.partJ[at] = j;
            }
        }
    }
};

__global__ void __launch_bounds__(kDpcThreads, 2)
    dpcDeltaKernel(const DpcDeltaParams params, const DpcUnit* __restrict__ d_units, int unitOffset) {
    extern __shared__ float4 s_dynamic[];
    float* s_tiles = reinterpret_cast<float*>(s_dynamic);
    DpcDeltaEpilogue epilogue;
    epilogue.p = params;
    epilogue.s_bestE = reinterpret_cast<double*>(s_tiles + dpcEngineSharedFloats(params.centred.dPad));
    epilogue.s_bestJ = reinterpret_cast<int*>(epilogue.s_bestE + kDpcThreads * 8);
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        epilogue.bestUpper[r] = __int_as_float(0x7f800000);
        epilogue.s_bestE[r * kDpcThreads + threadIdx.x] = __longlong_as_double(0x7ff0000000000000LL);
        epilogue.s_bestJ[r * kDpcThreads + threadIdx.x] = INT_MAX;
    }
    const DpcUnit unit = d_units[unitOffset + static_cast<int>(blockIdx.x)];
    params.guard.load(unit.tile, static_cast<int>(threadIdx.x) >> 4, epilogue.rowNorm);
    dpcTiledPairs<true>(params.centred, unit, epilogue, s_tiles);
    epilogue.finish(unit);
}

/// Row-major points in density order: d_out row p = d_points row d_order[p].
__global__ void dpcPermuteRowsKernel(const float* __restrict__ d_points, const int* __restrict__ d_order, int n, int d,
                                     float* __restrict__ d_out) {
    const size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (e >= static_cast<size_t>(n) * d) return;
    const size_t p = e / d;
    d_out[e] = d_points[static_cast<size_t>(d_order[p]) * d + e % d];
}

/// Merges the parts of each tile (d_partBegin: tileCount + 1 offsets) into delta and the link of the
/// point at each position p >= 1. Position 0, the densest point, gets delta 0 and link -1 (the host
/// replaces its delta with its largest distance), so every entry is written.
__global__ void dpcDeltaMergeKernel(const double* __restrict__ d_partE, const int* __restrict__ d_partJ,
                                    const int* __restrict__ d_partBegin, const int* __restrict__ d_order, int n,
                                    double* __restrict__ d_delta, int* __restrict__ d_nearest) {
    const int p = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (p >= n) return;
    if (p == 0) {  // the densest point has no higher one; the host sets its delta to the farthest distance
        d_delta[d_order[0]] = 0.0;
        d_nearest[d_order[0]] = -1;
        return;
    }
    const int t = p / kDpcTile;
    double e = __longlong_as_double(0x7ff0000000000000LL);
    int j = INT_MAX;
    for (int s = d_partBegin[t]; s < d_partBegin[t + 1]; ++s) {
        const size_t at = static_cast<size_t>(s) * kDpcTile + p % kDpcTile;
        if (dpc::candidateBefore(d_partE[at], d_partJ[at], e, j)) {
            e = d_partE[at];
            j = d_partJ[at];
        }
    }
    d_delta[d_order[p]] = sqrt(e);
    d_nearest[d_order[p]] = j;
}

/// The largest exact squared distance from the densest point d_order[0] to any point, as the bits
/// of a non-negative double (ordered like the values) maximised into *d_maxBits.
__global__ void dpcFarthestKernel(const float* __restrict__ d_points, int n, int d, const int* __restrict__ d_order,
                                  unsigned long long* __restrict__ d_maxBits) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    unsigned long long bits = 0;
    if (i < n)
        bits = static_cast<unsigned long long>(__double_as_longlong(dpcExactRowDistance(d_points, d, d_order[0], i)));
#pragma unroll
    for (int lanes = 16; lanes > 0; lanes >>= 1) {
        const unsigned long long other = __shfl_xor_sync(0xffffffffu, bits, lanes);
        bits = other > bits ? other : bits;
    }
    if ((threadIdx.x & 31) == 0) atomicMax(d_maxBits, bits);
}

}  // namespace clusterlens::cuda
