#pragma once
// The fused tiled all-pairs engine of the GPU VAT passes. A block of 256 threads holds one row tile
// of 128 points and streams a LIST of column tiles (those not pruned by the tile balls) through
// shared memory; each thread accumulates an 8 x 8 register micro-tile of screening values (one fused
// multiply-add per feature in the dot form, two operations per feature for manhattan) and hands it
// to an epilogue that reduces it on the spot (nearest candidates, farthest bounds). No distance
// ever reaches device memory: O(N·D) memory for any N.
//
// Layout ("tiles"): tile t holds dPad rows of 128 floats, row k the k-th screening coordinate of the
// tile's 128 positions (dPad = d rounded up to even, padding zero). Feature chunks of up to kVatChunk
// rows are double-buffered in shared memory with cp.async (as in the density-peaks engine).

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <type_traits>

#include "cuda/kernels/vat_common.cuh"

namespace clusterlens::cuda {

/// Shared memory of the engine for a given dPad: two stages of an A and a B chunk.
__host__ __device__ inline int vatEngineSharedFloats(int dPad) {
    const int chunk = dPad < kVatChunk ? dPad : kVatChunk;
    return 4 * chunk * kVatTile;
}

/// Runs the column tiles list[0..count) against the row tile `rowTile` (dPad x 128 floats), starting at
/// list[first] and wrapping around (lists ascend in kd order, so starting near the row tile meets the
/// nearest columns first and the screening bounds tighten early), and calls
/// epilogue.tile(f, colTile) per column tile, f[r][c] belonging to row offset vatOffset(ty, r) and
/// column position colTile*128 + vatOffset(tx, c): the dot product of the two screening rows (kL1
/// false) or the float L1 distance (kL1 true). Every thread of the block must call it.
template <bool kL1, class Epilogue>
__device__ void vatTiledPairs(const float* __restrict__ rowTile, const float* __restrict__ tiles, int dPad,
                              const int* __restrict__ list, int count, int first, Epilogue& epilogue, float* s_tiles) {
    const int tx = static_cast<int>(threadIdx.x) & 15;
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    const int chunkRows = dPad < kVatChunk ? dPad : kVatChunk;
    const int chunks = (dPad + chunkRows - 1) / chunkRows;
    const int stage = chunkRows * kVatTile;
    float* s_a = s_tiles;
    float* s_b = s_tiles + 2 * stage;
    const int steps = count * chunks;
    if (steps == 0) return;

    const auto column = [&](int step) {
        const int at = first + step / chunks;
        return list[at < count ? at : at - count];
    };
    const auto issue = [&](int step) {
        const int colTile = column(step);
        const int k0 = (step % chunks) * chunkRows;
        const int rows = min(chunkRows, dPad - k0);
        const int buffer = step & 1;
        const float* srcA = rowTile + static_cast<size_t>(k0) * kVatTile;
        const float* srcB = tiles + (static_cast<size_t>(colTile) * dPad + k0) * kVatTile;
        const bool loadA = chunks > 1 || step == 0;
        for (int v = static_cast<int>(threadIdx.x); v < rows * (kVatTile / 4); v += kVatThreads) {
            if (loadA) __pipeline_memcpy_async(s_a + buffer * stage + 4 * v, srcA + 4 * v, 16);
            __pipeline_memcpy_async(s_b + buffer * stage + 4 * v, srcB + 4 * v, 16);
        }
        __pipeline_commit();
    };

    float f[8][8];
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) f[r][c] = 0.0f;

    issue(0);
    for (int step = 0; step < steps; ++step) {
        if (step + 1 < steps) {
            issue(step + 1);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        const float* a = s_a + (chunks > 1 ? (step & 1) : 0) * stage;
        const float* b = s_b + (step & 1) * stage;
        const int rows = min(chunkRows, dPad - (step % chunks) * chunkRows);
#pragma unroll 2
        for (int k = 0; k < rows; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(a + k * kVatTile + ty * 4);
            const float4 a1 = *reinterpret_cast<const float4*>(a + k * kVatTile + 64 + ty * 4);
            const float4 b0 = *reinterpret_cast<const float4*>(b + k * kVatTile + tx * 4);
            const float4 b1 = *reinterpret_cast<const float4*>(b + k * kVatTile + 64 + tx * 4);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) {
                    if constexpr (kL1) {
                        f[r][c] += fabsf(av[r] - bv[c]);
                    } else {
                        f[r][c] = fmaf(av[r], bv[c], f[r][c]);
                    }
                }
        }
        if (step % chunks == chunks - 1) {
            epilogue.tile(f, column(step));
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) f[r][c] = 0.0f;
        }
        __syncthreads();
    }
}

/// Index of the first entry >= tile in the ascending list[0..count) (count when none; then 0).
__device__ __forceinline__ int vatListStart(const int* __restrict__ list, int count, int tile) {
    int lo = 0, hi = count;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (list[mid] < tile)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count ? lo : 0;
}

/// Loads 8 values of a per-position array for micro-tile coordinate t of tile `tile` (two 16-byte
/// loads: positions vatOffset(t, 0..7)).
template <class T>
__device__ __forceinline__ void vatLoad8(const T* __restrict__ values, int tile, int t, T (&out)[8]) {
    static_assert(sizeof(T) == 4, "four-byte values");
    using V = typename std::conditional<std::is_same<T, float>::value, float4, int4>::type;
    const V* at = reinterpret_cast<const V*>(values + static_cast<size_t>(tile) * kVatTile);
    const V v0 = at[t];
    const V v1 = at[16 + t];
    out[0] = v0.x, out[1] = v0.y, out[2] = v0.z, out[3] = v0.w;
    out[4] = v1.x, out[5] = v1.y, out[6] = v1.z, out[7] = v1.w;
}

}  // namespace clusterlens::cuda
