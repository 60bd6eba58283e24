// Kernels of the k-means assignment through cuBLAS (kmeans_matrix_assign.cuh): the shift of the points
// by the data's mean, the screen of a chunk's cross terms (kmeans_screen_point.cuh) and the block
// totals.

#include <cuda_runtime.h>

#include "cuda/kernels/kmeans_arithmetic.cuh"
#include "cuda/kernels/kmeans_screen_point.cuh"

namespace clusterlens::cuda {

/// y = x - mean as doubles (n rows of `ld` >= d, row-major, zeros after d) and |y|^2, one thread per point.
__global__ void kmeansShiftKernel(const float* __restrict__ d_x, int n, int d, int ld,
                                  const double* __restrict__ d_mean, double* __restrict__ d_y,
                                  double* __restrict__ d_norm2) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const float* point = d_x + static_cast<size_t>(i) * d;
    double* y = d_y + static_cast<size_t>(i) * ld;
    double sum = 0.0;
    for (int j = 0; j < d; ++j) {
        const double v = static_cast<double>(point[j]) - d_mean[j];
        y[j] = v;
        sum += v * v;
    }
    for (int j = d; j < ld; ++j) y[j] = 0.0;
    d_norm2[i] = sum;
}

/// Screen and exact recheck (screenPoint) for points [first, first + count), one warp per point.
/// d_dots holds the chunk's cross terms y_i . z_c, the k of point first + w at d_dots[w * k];
/// d_centroidNorm2 holds |z_c|^2 and d_zMax[0] the largest |z_c|.
__global__ void kmeansScreenKernel(const float* __restrict__ d_x, int d, const double* __restrict__ d_centroids, int k,
                                   const double* __restrict__ d_dots, const double* __restrict__ d_norm2,
                                   const double* __restrict__ d_centroidNorm2, const double* __restrict__ d_zMax,
                                   double boundPerR2, int first, int count, int* __restrict__ d_labels,
                                   double* __restrict__ d_distance, int* __restrict__ d_changed) {
    const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (warp >= count) return;  // (whole warps: blockDim.x is a multiple of 32)
    const int i = first + warp;
    const double* dots = d_dots + static_cast<size_t>(warp) * k;
    const double norm2 = d_norm2[i];
    screenPoint(
        i, lane, d_x, d, d_centroids, k, norm2, d_zMax[0], boundPerR2,
        [&](int c) { return norm2 + d_centroidNorm2[c] - 2.0 * dots[c]; }, d_labels, d_distance, d_changed);
}

/// The block totals of kmeansAssignKernel (summed squared distances, changed labels), from the
/// distances and flags the screen wrote, in the same blocks and the same order.
__global__ void kmeansAssignTotalsKernel(const double* __restrict__ d_distance, const int* __restrict__ d_changed,
                                         int n, double* __restrict__ d_blockInertia, int* __restrict__ d_blockChanged) {
    __shared__ double s_sum[kKMeansThreads];
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const double best = i < n ? d_distance[i] : 0.0;
    const int changed = i < n ? d_changed[i] : 0;
    writeAssignTotals(best, changed, s_sum, d_blockInertia, d_blockChanged);
}

}  // namespace clusterlens::cuda
