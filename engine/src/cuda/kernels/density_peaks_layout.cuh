#pragma once
// The layout of the points in the GPU density-peaks passes (see density_peaks_tiles.cuh) and the
// exponential of their Gaussian terms. No kernels here: every density-peaks translation unit may
// include it.

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/kernels/tiled_pairs.cuh"

namespace clusterlens::cuda {

constexpr int kDpcTile = kTiledTile;        ///< points per tile
constexpr int kDpcThreads = kTiledThreads;  ///< threads per block: 16 x 16, each 8 x 8 pairs
constexpr int kDpcChunk = kTiledChunk;      ///< features per shared-memory stage

/// The points in tile layout: tile t holds dPad rows of 128 floats, row k the k-th feature of the
/// tile's points (padding and points past n are zero).
struct DpcTiles {
    const float* data;  ///< tileCount x dPad x 128 floats
    int n;
    int d;
    int dPad;
    int tileCount;

    __device__ float at(int point, int feature) const {
        return data[(static_cast<size_t>(point / kDpcTile) * dPad + feature) * kDpcTile + point % kDpcTile];
    }
};

/// 2^x for x <= 0 on the special-function unit (relative error ~2^-22, flushes tiny results to 0).
__device__ __forceinline__ float dpcExp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

constexpr double kDpcLog2E = 1.4426950408889634;

}  // namespace clusterlens::cuda
