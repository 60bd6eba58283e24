#pragma once
// Kernels of the k-means assignment in FP64 tensor-core tiles (kmeans_tile_assign.cuh). A warp forms
// the cross terms y.z of its 16 points with 32 centroids at a time as mma.sync m16n8k4 double products
// held in registers, and each point keeps its smallest and second smallest screened value
// |y|^2 + |z|^2 - 2 y.z over all centroids: no matrix of cross terms is written or read. The bound of
// kmeans_screen_point.cuh holds for these sums in any order, so the same screen decides: a point whose
// second smallest value is beyond the bound gets its nearest centroid's exact distance at once; every
// other point (near-ties, a NaN) is marked and settled by kmeansTileRecheckKernel through screenPoint,
// the matrix product's own screen. Labels and distances equal kmeansAssignKernel's bit for bit.
//
// Work per assignment: n k d' multiply-adds on the tensor cores (d' = d rounded up to a multiple of 8),
// the centroid tiles read once per block of 128 points from the L2 cache.

#include <cuda_pipeline_primitives.h>
#include <cstddef>
#include <cuda_runtime.h>

#include "cuda/kernels/kmeans_arithmetic.cuh"
#include "cuda/kernels/kmeans_screen_point.cuh"

namespace clusterlens::cuda {

constexpr int kTileThreads = 256;     // 8 warps
constexpr int kTileRowsPerWarp = 16;  // one 16-row product
constexpr int kTilePoints = kTileThreads / 32 * kTileRowsPerWarp;
// 32 centroids (four 8-column products) at a time keep a thread within 128 registers, so that two
// blocks share an SM: the tensor products' latency needs more than the 8 warps one block has.
constexpr int kTileCentroids = 32;
constexpr int kTileFragments = kTileCentroids / 8;
constexpr int kTileBlocksPerSm = 2;

/// Doubles of one centroid tile in fragment order (the layout of d_zTiles): for each of the `steps`
/// 4-feature steps, kTileFragments fragments of 32 lanes, lane l of fragment j of step s holding feature
/// 4 s + l % 4 of centroid 8 j + l / 4 of the tile.
__host__ __device__ constexpr int tileDoubles(int steps) {
    return steps * kTileFragments * 32;
}

/// Dynamic shared memory of kmeansTileScreenKernel<steps>: two tiles and their |z|^2.
constexpr std::size_t tileSharedBytes(int steps) {
    return 2 * static_cast<std::size_t>(tileDoubles(steps) + kTileCentroids) * sizeof(double);
}

/// c += a b for one 16 x 8 block, A 16 x 4 (row-major), B 4 x 8 (column-major), in double. PTX ISA,
/// .f64 fragments, g = l / 4 and q = l % 4 for lane l: A[g][q] in a0 and A[g + 8][q] in a1, B[q][g] in
/// b, C[g][2q], C[g][2q + 1], C[g + 8][2q], C[g + 8][2q + 1] in c0 to c3. Compute 9.0 has the 16 x 8 x 4
/// shape; 8.0 runs it as two m8n8k4 products (the same fragments for rows g and g + 8).
__device__ inline void mmaM16N8K4(double& c0, double& c1, double& c2, double& c3, double a0, double a1, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
        "{%0, %1, %2, %3};\n"
        : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)
        : "d"(a0), "d"(a1), "d"(b));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c0), "+d"(c1)
                 : "d"(a0), "d"(b));
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c2), "+d"(c3)
                 : "d"(a1), "d"(b));
#elif defined(__CUDA_ARCH__)
    __trap();  // the host chooses the tiles only on devices with FP64 tensor cores (compute 8.0 on)
#else
    (void)c0, (void)c1, (void)c2, (void)c3, (void)a0, (void)a1, (void)b;
#endif
}

/// Screen of kTilePoints points per block. d_y: n rows of 4 `steps` doubles (y = x - mean, zeros after
/// d), d_norm2: |y|^2; d_zTiles: `tiles` tiles in fragment order (zeros past k), d_centroidNorm2: |z|^2
/// (k values), d_zMax[0] the largest |z|. For each point the screen settles, writes its label, exact
/// distance and changed flag; every other point is appended to d_pending (*d_pendingCount of them, in
/// no particular order: each is settled on its own).
template <int steps>
__global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSm)
    kmeansTileScreenKernel(const double* __restrict__ d_y, const double* __restrict__ d_norm2, int n,
                           const double* __restrict__ d_zTiles, const double* __restrict__ d_centroidNorm2, int k,
                           int tiles, const double* __restrict__ d_zMax, double boundPerR2,
                           const float* __restrict__ d_x, int d, const double* __restrict__ d_centroids,
                           int* __restrict__ d_labels, double* __restrict__ d_distance, int* __restrict__ d_changed,
                           int* __restrict__ d_pending, int* __restrict__ d_pendingCount) {
    extern __shared__ double s_tiles[];  // two buffers of tileDoubles(steps) products' inputs + |z|^2
    constexpr int kFeatures = 4 * steps;
    constexpr int kBuffer = tileDoubles(steps) + kTileCentroids;
    const double inf = __longlong_as_double(0x7ff0000000000000LL);
    const int lane = static_cast<int>(threadIdx.x % 32);
    const int group = lane / 4, quad = lane % 4;
    const int first =
        static_cast<int>(blockIdx.x) * kTilePoints + static_cast<int>(threadIdx.x / 32) * kTileRowsPerWarp;

    double a[2][steps];  // the A fragments (rows g and g + 8 of the 16-row product), every step
    double norm2[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const int row = first + r * 8 + group;
        const bool inside = row < n;
#pragma unroll
        for (int s = 0; s < steps; ++s)
            a[r][s] = inside ? d_y[static_cast<size_t>(row) * kFeatures + s * 4 + quad] : 0.0;
        norm2[r] = inside ? d_norm2[row] : 0.0;
    }

    // Copies tile t into buffer b asynchronously (its |z|^2 directly); visible after the next barrier.
    const auto stage = [&](int t, int b) {
        double* to = s_tiles + b * kBuffer;
        const double* from = d_zTiles + static_cast<size_t>(t) * tileDoubles(steps);
        for (int e = static_cast<int>(threadIdx.x) * 2; e < tileDoubles(steps); e += kTileThreads * 2)
            __pipeline_memcpy_async(to + e, from + e, 2 * sizeof(double));
        __pipeline_commit();
        for (int e = static_cast<int>(threadIdx.x); e < kTileCentroids; e += kTileThreads) {
            const int c = t * kTileCentroids + e;
            to[tileDoubles(steps) + e] = c < k ? d_centroidNorm2[c] : inf;
        }
    };

    double smallest[2] = {inf, inf}, second[2] = {inf, inf};
    int nearest[2] = {k, k};
    bool unordered = false;
    stage(0, 0);
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            stage(t + 1, (t + 1) & 1);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        const double* tile = s_tiles + (t & 1) * kBuffer;
        double acc[2][kTileFragments][2] = {};
#pragma unroll
        for (int s = 0; s < steps; ++s) {
            double b[kTileFragments];
#pragma unroll
            for (int j = 0; j < kTileFragments; ++j) b[j] = tile[(s * kTileFragments + j) * 32 + lane];
#pragma unroll
            for (int j = 0; j < kTileFragments; ++j)
                mmaM16N8K4(acc[0][j][0], acc[0][j][1], acc[1][j][0], acc[1][j][1], a[0][s], a[1][s], b[j]);
        }
        const double* zNorm2 = tile + tileDoubles(steps);
#pragma unroll
        for (int j = 0; j < kTileFragments; ++j) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int column = j * 8 + quad * 2 + h;
                const double zz = zNorm2[column];
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    const double v = norm2[r] + zz - 2.0 * acc[r][j][h];
                    if (isnan(v)) unordered = true;
                    if (v < smallest[r]) {
                        second[r] = smallest[r];
                        smallest[r] = v;
                        nearest[r] = t * kTileCentroids + column;
                    } else if (v < second[r]) {
                        second[r] = v;
                    }
                }
            }
        }
        __syncthreads();  // every warp is done with this buffer before it is staged again
    }

    // The four lanes of a group hold the same two rows' values for different columns.
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        for (int offset = 1; offset < 4; offset <<= 1) {
            const double otherSmallest = __shfl_xor_sync(0xffffffffu, smallest[r], offset);
            const double otherSecond = __shfl_xor_sync(0xffffffffu, second[r], offset);
            const int otherNearest = __shfl_xor_sync(0xffffffffu, nearest[r], offset);
            second[r] = fmin(fmin(second[r], otherSecond), fmax(smallest[r], otherSmallest));
            if (otherSmallest < smallest[r] || (otherSmallest == smallest[r] && otherNearest < nearest[r])) {
                smallest[r] = otherSmallest;
                nearest[r] = otherNearest;
            }
        }
    }
    unordered = __any_sync(0xffffffffu, unordered);
    if (quad != 0) return;
    const double zMax = d_zMax[0];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const int row = first + r * 8 + group;
        if (row >= n) continue;
        const double reach = sqrt(norm2[r]) + zMax;
        const double limit = smallest[r] + 2.0 * boundPerR2 * reach * reach;
        double exact = inf;
        if (!unordered && second[r] > limit && nearest[r] < k)
            exact = pointCentreDistance2(d_x + static_cast<size_t>(row) * d,
                                         d_centroids + static_cast<size_t>(nearest[r]) * d, d);
        if (exact < inf) {  // only `nearest` can be the nearest centroid
            d_changed[row] = d_labels[row] != nearest[r] ? 1 : 0;
            d_labels[row] = nearest[r];
            d_distance[row] = exact;
        } else {
            d_pending[atomicAdd(d_pendingCount, 1)] = row;
        }
    }
}

/// Settles the points kmeansTileScreenKernel left pending (d_pending, *d_pendingCount of them), one warp
/// per point over a grid of any size, with screenPoint and cross terms summed from d_y and d_z (k rows of
/// `ld` doubles, row-major).
__global__ void kmeansTileRecheckKernel(const double* __restrict__ d_y, const double* __restrict__ d_norm2, int ld,
                                        const double* __restrict__ d_z, const double* __restrict__ d_centroidNorm2,
                                        int k, const double* __restrict__ d_zMax, double boundPerR2,
                                        const float* __restrict__ d_x, int d, const double* __restrict__ d_centroids,
                                        const int* __restrict__ d_pending, const int* __restrict__ d_pendingCount,
                                        int* __restrict__ d_labels, double* __restrict__ d_distance,
                                        int* __restrict__ d_changed) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const int warps = static_cast<int>(gridDim.x * blockDim.x / 32);
    const int count = *d_pendingCount;
    for (int p = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); p < count; p += warps) {
        const int i = d_pending[p];
        const double* y = d_y + static_cast<size_t>(i) * ld;
        const double norm2 = d_norm2[i];
        const auto valueOf = [&](int c) {
            const double* z = d_z + static_cast<size_t>(c) * ld;
            double dot = 0.0;
            for (int j = 0; j < ld; ++j) dot += y[j] * z[j];
            return norm2 + d_centroidNorm2[c] - 2.0 * dot;
        };
        screenPoint(i, lane, d_x, d, d_centroids, k, norm2, d_zMax[0], boundPerR2, valueOf, d_labels, d_distance,
                    d_changed);
    }
}

}  // namespace clusterlens::cuda
