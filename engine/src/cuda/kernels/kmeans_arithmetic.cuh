#pragma once
// The arithmetic every k-means kernel shares (kmeans_kernels.cuh, kmeans_screen_kernels.cuh): squared
// distances summed in double, feature by feature, with separately rounded multiply and add, as
// kmeansCpu; block sums in a fixed halving order, and the assignment's block totals built from them.
// No kernels: the host code that launches them (kmeans_devices.cuh) includes it too.

#include <cuda_runtime.h>

namespace clusterlens::cuda {

constexpr int kKMeansThreads = 256;

/// What kmeansSeedKernel does with a candidate centre's distances (see there).
enum class SeedMode : int { Initialise = 0, Trial = 1, Update = 2 };

/// Squared distance of a float point to a centre (double, or a float point), as kmeansCpu's
/// squaredDistance.
template <class Centre>
__device__ inline double pointCentreDistance2(const float* point, const Centre* centre, int d) {
    double sum = 0.0;
    for (int j = 0; j < d; ++j) {
        const double diff = static_cast<double>(point[j]) - static_cast<double>(centre[j]);
        sum = __dadd_rn(sum, __dmul_rn(diff, diff));
    }
    return sum;
}

/// Sum of one value per thread over the block (kKMeansThreads threads), a fixed halving tree.
/// Thread 0 gets the sum.
__device__ inline double blockSum(double value, double* s_sum) {
    s_sum[threadIdx.x] = value;
    __syncthreads();
    for (int half = kKMeansThreads / 2; half > 0; half >>= 1) {
        if (static_cast<int>(threadIdx.x) < half) s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
        __syncthreads();
    }
    return s_sum[0];
}

/// The assignment's block totals: the block's summed squared distances and its number of changed
/// labels (one value of each per thread), written by thread 0 to the block's entries.
__device__ inline void writeAssignTotals(double best, int changed, double* s_sum, double* d_blockInertia,
                                         int* d_blockChanged) {
    const double inertia = blockSum(best, s_sum);
    __syncthreads();
    const double moved = blockSum(static_cast<double>(changed), s_sum);
    if (threadIdx.x == 0) {
        d_blockInertia[blockIdx.x] = inertia;
        d_blockChanged[blockIdx.x] = static_cast<int>(moved);
    }
}

}  // namespace clusterlens::cuda
