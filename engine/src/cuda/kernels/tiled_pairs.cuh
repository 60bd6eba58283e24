#pragma once
// The fused tiled all-pairs engine shared by the GPU density-peaks passes (density_peaks_tiles.cuh) and
// the GPU VAT passes (vat_tiles.cuh). A block of 256 threads holds one row tile of 128 points and
// streams column tiles through shared memory; each thread accumulates an 8 x 8 register micro-tile of
// per-pair values and hands it to an epilogue once a column tile is complete. No pair value ever
// reaches device memory.
//
// Layout ("tiles"): tile t holds dPad rows of 128 floats, row k the k-th coordinate of the tile's 128
// positions (dPad = d rounded up to even, padding zero). Feature chunks of up to kTiledChunk rows are
// double-buffered in shared memory with cp.async; the row tile's chunk is loaded once when it fits.

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace clusterlens::cuda {

constexpr int kTiledTile = 128;     ///< positions per tile
constexpr int kTiledThreads = 256;  ///< threads per block: 16 x 16, each 8 x 8 pairs
constexpr int kTiledChunk = 32;     ///< coordinates per shared-memory stage

/// The per-pair arithmetic, accumulated over the coordinates in float.
enum class PairForm {
    Dot,        ///< sum a_k b_k (one fused multiply-add per coordinate)
    SquaredL2,  ///< sum (a_k - b_k)^2 (two operations per coordinate)
    L1,         ///< sum |a_k - b_k| (two operations per coordinate)
};

/// Shared memory of the engine for a given dPad, in floats: two stages of a row and a column chunk.
__host__ __device__ inline int tiledPairsSharedFloats(int dPad) {
    const int chunk = dPad < kTiledChunk ? dPad : kTiledChunk;
    return 4 * chunk * kTiledTile;
}

/// Runs `columns` column tiles against one row tile. rowChunk(k0) points at row k0 of the row tile,
/// columnChunk(j, k0) at row k0 of the j-th column tile (j in [0, columns)); epilogue(f, j) receives
/// the finished micro-tile of the j-th column tile, f[r][c] belonging to row offset (ty, r) and column
/// offset (tx, c) (tx = thread % 16, ty = thread / 16; see vatOffset / dpcOffset). Every thread of the
/// block must call it; s_tiles holds tiledPairsSharedFloats(dPad) floats.
template <PairForm kForm, class RowChunk, class ColumnChunk, class Epilogue>
__device__ __forceinline__ void tiledPairs(int dPad, int columns, RowChunk rowChunk, ColumnChunk columnChunk,
                                           Epilogue epilogue, float* s_tiles) {
    const int tx = static_cast<int>(threadIdx.x) & 15;
    const int ty = static_cast<int>(threadIdx.x) >> 4;
    const int chunkRows = dPad < kTiledChunk ? dPad : kTiledChunk;
    const int chunks = (dPad + chunkRows - 1) / chunkRows;
    const int stage = chunkRows * kTiledTile;
    float* s_a = s_tiles;
    float* s_b = s_tiles + 2 * stage;
    const int steps = columns * chunks;
    if (steps == 0) return;

    const auto issue = [&](int step) {
        const int k0 = (step % chunks) * chunkRows;
        const int rows = min(chunkRows, dPad - k0);
        const int buffer = step & 1;
        const float* srcA = rowChunk(k0);
        const float* srcB = columnChunk(step / chunks, k0);
        const bool loadA = chunks > 1 || step == 0;
        for (int v = static_cast<int>(threadIdx.x); v < rows * (kTiledTile / 4); v += kTiledThreads) {
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
            const float4 a0 = *reinterpret_cast<const float4*>(a + k * kTiledTile + ty * 4);
            const float4 a1 = *reinterpret_cast<const float4*>(a + k * kTiledTile + 64 + ty * 4);
            const float4 b0 = *reinterpret_cast<const float4*>(b + k * kTiledTile + tx * 4);
            const float4 b1 = *reinterpret_cast<const float4*>(b + k * kTiledTile + 64 + tx * 4);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) {
                    if constexpr (kForm == PairForm::Dot) {
                        f[r][c] = fmaf(av[r], bv[c], f[r][c]);
                    } else if constexpr (kForm == PairForm::SquaredL2) {
                        const float t = av[r] - bv[c];
                        f[r][c] = fmaf(t, t, f[r][c]);
                    } else {
                        f[r][c] += fabsf(av[r] - bv[c]);
                    }
                }
        }
        if (step % chunks == chunks - 1) {
            epilogue(f, step / chunks);
#pragma unroll
            for (int r = 0; r < 8; ++r)
#pragma unroll
                for (int c = 0; c < 8; ++c) f[r][c] = 0.0f;
        }
        __syncthreads();
    }
}

}  // namespace clusterlens::cuda
