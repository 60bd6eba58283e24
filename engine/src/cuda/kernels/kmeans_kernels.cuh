#pragma once
// Kernels of the GPU k-means (k-means++ seeding of Arthur & Vassilvitskii 2007, Lloyd 1982).
// Squared distances are summed in double, feature by feature, with separately rounded multiply
// and add — the arithmetic of kmeansCpu — so distances, and hence the seeding draws and the labels,
// agree with the CPU bit for bit. Every sum is reduced in a fixed order (a shared-memory tree per
// block, then the block results in block order), so results do not vary between runs.

#include <cuda_runtime.h>

#include "cuda/kernels/kmeans_arithmetic.cuh"

namespace clusterlens::cuda {

/// k-means++ potential against the candidate centre `centreRow` (d floats on the device): v_i = dist²(x_i, centre)
/// (Initialise, stored in closest), min(closest_i, dist²) (Trial, not stored) or the same stored (Update).
/// d_blockSums[b] = sum of v over block b's points. The centre row is staged in shared memory when
/// `sharedCentre` (dynamic shared memory d doubles), else read from global memory.
__global__ void kmeansSeedKernel(const float* __restrict__ d_x, int n, int d, const float* __restrict__ centreRow,
                                 SeedMode mode, bool sharedCentre, double* __restrict__ d_closest,
                                 double* __restrict__ d_blockSums) {
    extern __shared__ double s_centre[];
    __shared__ double s_sum[kKMeansThreads];
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

}  // namespace clusterlens::cuda
