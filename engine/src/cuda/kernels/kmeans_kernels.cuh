#pragma once
// Kernels of the GPU k-means (k-means++ seeding of Arthur & Vassilvitskii 2007, Lloyd 1982).
// Squared distances are summed in double, feature by feature, with separately rounded multiply
// and add — the arithmetic of kmeansCpu — so distances, and hence the seeding draws and the labels,
// agree with the CPU bit for bit. Every sum is reduced in a fixed order (a shared-memory tree per
// block, then the block results in block order), so results do not vary between runs.

#include <cuda_runtime.h>

#include "cuda/kernels/kmeans_arithmetic.cuh"

namespace clusterlens::cuda {

enum class SeedMode : int { Initialise = 0, Trial = 1, Update = 2 };

/// k-means++ potential against the candidate centre x[centre]: v_i = dist²(x_i, centre) (Initialise,
/// stored in closest), min(closest_i, dist²) (Trial, not stored) or the same stored (Update).
/// d_blockSums[b] = sum of v over block b's points. The centre row is staged in shared memory when
/// `sharedCentre` (dynamic shared memory d doubles), else read from global memory.
__global__ void kmeansSeedKernel(const float* __restrict__ d_x, int n, int d, int centre, SeedMode mode,
                                 bool sharedCentre, double* __restrict__ d_closest, double* __restrict__ d_blockSums) {
    extern __shared__ double s_centre[];
    __shared__ double s_sum[kKMeansThreads];
    const float* centreRow = d_x + static_cast<size_t>(centre) * d;
    if (sharedCentre) {
        for (int j = threadIdx.x; j < d; j += blockDim.x) s_centre[j] = static_cast<double>(centreRow[j]);
        __syncthreads();
    }
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    double v = 0.0;
    if (i < n) {
        const float* point = d_x + static_cast<size_t>(i) * d;
        v = sharedCentre ? pointCentreDistance2(point, s_centre, d) : pointCentreDistance2(point, centreRow, d);
        if (mode != SeedMode::Initialise) v = fmin(d_closest[i], v);
        if (mode != SeedMode::Trial) d_closest[i] = v;
    }
    const double total = blockSum(v, s_sum);
    if (threadIdx.x == 0) d_blockSums[blockIdx.x] = total;
}

/// Assignment step: each point takes the nearest centroid (strictly smaller distance wins, so ties
/// go to the lower label). Centroids (k x d doubles) are staged in shared memory when
/// `sharedCentroids` (dynamic shared memory k·d doubles), else read from global memory.
/// Per block: summed squared distances and the number of labels that changed.
__global__ void kmeansAssignKernel(const float* __restrict__ d_x, int n, int d, const double* __restrict__ d_centroids,
                                   int k, bool sharedCentroids, int* __restrict__ d_labels,
                                   double* __restrict__ d_distance, double* __restrict__ d_blockInertia,
                                   int* __restrict__ d_blockChanged) {
    extern __shared__ double s_centroids[];
    __shared__ double s_sum[kKMeansThreads];
    const double* centroids = d_centroids;
    if (sharedCentroids) {
        for (int e = threadIdx.x; e < k * d; e += blockDim.x) s_centroids[e] = d_centroids[e];
        __syncthreads();
        centroids = s_centroids;
    }
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    double best = 0.0;
    int changed = 0;
    if (i < n) {
        const float* point = d_x + static_cast<size_t>(i) * d;
        best = __longlong_as_double(0x7ff0000000000000LL);
        int label = 0;
        for (int c = 0; c < k; ++c) {
            const double dist = pointCentreDistance2(point, centroids + static_cast<size_t>(c) * d, d);
            if (dist < best) {
                best = dist;
                label = c;
            }
        }
        changed = d_labels[i] != label ? 1 : 0;
        d_labels[i] = label;
        d_distance[i] = best;
    }
    writeAssignTotals(best, changed, s_sum, d_blockInertia, d_blockChanged);
}

/// Update step, part 1: block b sums the points [b·perBlock, (b+1)·perBlock) per cluster and
/// feature, in point order, into its row of d_partialSums (k·d doubles) and d_partialCounts (k).
/// Points and labels stream through shared memory in tiles of `tile` points (dynamic shared memory
/// tile·d floats + tile ints); thread t owns the entries t, t + blockDim.x, ... of the row.
__global__ void kmeansPartialSumsKernel(const float* __restrict__ d_x, const int* __restrict__ d_labels, int n, int d,
                                        int k, int perBlock, int tile, double* __restrict__ d_partialSums,
                                        int* __restrict__ d_partialCounts) {
    extern __shared__ float s_points[];
    int* s_labels = reinterpret_cast<int*>(s_points + static_cast<size_t>(tile) * d);
    const int begin = static_cast<int>(blockIdx.x) * perBlock;
    const int end = min(n, begin + perBlock);
    double* sums = d_partialSums + static_cast<size_t>(blockIdx.x) * k * d;
    int* counts = d_partialCounts + static_cast<size_t>(blockIdx.x) * k;
    for (int e = threadIdx.x; e < k * d; e += blockDim.x) sums[e] = 0.0;
    for (int c = threadIdx.x; c < k; c += blockDim.x) counts[c] = 0;
    for (int t0 = begin; t0 < end; t0 += tile) {
        const int rows = min(tile, end - t0);
        __syncthreads();
        for (int e = threadIdx.x; e < rows * d; e += blockDim.x) s_points[e] = d_x[static_cast<size_t>(t0) * d + e];
        for (int r = threadIdx.x; r < rows; r += blockDim.x) s_labels[r] = d_labels[t0 + r];
        __syncthreads();
        for (int e = threadIdx.x; e < k * d; e += blockDim.x) {
            const int c = e / d, j = e % d;
            double sum = sums[e];
            for (int r = 0; r < rows; ++r)
                if (s_labels[r] == c) sum += static_cast<double>(s_points[r * d + j]);
            sums[e] = sum;
        }
        for (int c = threadIdx.x; c < k; c += blockDim.x) {
            int count = counts[c];
            for (int r = 0; r < rows; ++r) count += s_labels[r] == c ? 1 : 0;
            counts[c] = count;
        }
    }
}

/// Update step, part 2: sums the block rows in block order. One thread per entry of the k·d sums
/// (the first k threads also add up the counts).
__global__ void kmeansReduceSumsKernel(const double* __restrict__ d_partialSums,
                                       const int* __restrict__ d_partialCounts, int blocks, int k, int d,
                                       double* __restrict__ d_sums, long long* __restrict__ d_counts) {
    const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (e < k * d) {
        double sum = 0.0;
        for (int b = 0; b < blocks; ++b) sum += d_partialSums[static_cast<size_t>(b) * k * d + e];
        d_sums[e] = sum;
    }
    if (e < k) {
        long long count = 0;
        for (int b = 0; b < blocks; ++b) count += d_partialCounts[static_cast<size_t>(b) * k + e];
        d_counts[e] = count;
    }
}

}  // namespace clusterlens::cuda
