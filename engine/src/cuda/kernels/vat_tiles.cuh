#pragma once
// The fused tiled all-pairs engine of the GPU VAT passes. A block of 256 threads holds one row tile
// of 128 points and streams a LIST of column tiles (those not pruned by the tile balls) through
// shared memory; each thread accumulates an 8 x 8 register micro-tile of screening values (one fused
// multiply-add per feature in the dot form, two operations per feature for manhattan) and hands it
// to an epilogue that reduces it on the spot (nearest candidates, farthest bounds). No distance
// ever reaches device memory: O(N·D) memory for any N.
//
// Layout ("tiles"): tile t holds dPad rows of 128 floats, row k the k-th screening coordinate of the
// tile's 128 positions (dPad = d rounded up to even, padding zero). The engine itself is
// tiled_pairs.cuh, shared with the density-peaks passes.

#include <cuda_runtime.h>

#include <type_traits>

#include "cuda/kernels/tiled_pairs.cuh"
#include "cuda/kernels/vat_common.cuh"

namespace clusterlens::cuda {

static_assert(kVatTile == kTiledTile && kVatThreads == kTiledThreads && kVatChunk == kTiledChunk,
              "the VAT passes run the shared tiled engine");

/// Shared memory of the engine for a given dPad: two stages of an A and a B chunk.
__host__ __device__ inline int vatEngineSharedFloats(int dPad) {
    return tiledPairsSharedFloats(dPad);
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
    const auto column = [&](int j) {
        const int at = first + j;
        return list[at < count ? at : at - count];
    };
    tiledPairs<kL1 ? PairForm::L1 : PairForm::Dot>(
        dPad, count, [&](int k0) { return rowTile + static_cast<size_t>(k0) * kVatTile; },
        [&](int j, int k0) { return tiles + (static_cast<size_t>(column(j)) * dPad + k0) * kVatTile; },
        [&](float(&f)[8][8], int j) { epilogue.tile(f, column(j)); }, s_tiles);
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
