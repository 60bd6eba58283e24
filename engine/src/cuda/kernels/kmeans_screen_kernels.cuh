#pragma once
// Kernels of the k-means assignment through a matrix product (kmeans_matrix_assign.cuh): the squared
// distance |x - c|^2 = |y|^2 + |z|^2 - 2 y.z with y = x - m, z = c - m (m the data's mean) has its cross
// terms for a chunk of points from one cuBLAS DGEMM; each point's centroids are screened by that value
// with a proven bound, and the few that the bound leaves open are recomputed with pointCentreDistance2,
// the arithmetic of kmeansAssignKernel and kmeansCpu. So labels and distances equal the kernel's bit for
// bit, and the block totals are summed in kmeansAssignKernel's order.
//
// The bound. With u = 2^-53 and R = |y| + |z|: the product, the norms and the two additions give
// |a - |y - z|^2| <= gamma(d + 2) R^2; rounding y and z moves |y - z| by at most u R; the exact kernel's
// own sum is within gamma(d + 2) |x - c|^2 <= gamma(d + 2) R^2 of the real distance. All together
// |a - e| < (2d + 7) u R^2 for the exact kernel value e; the screen uses 8 (d + 4) u R^2, with R from
// the largest |z|, a factor above 4 to spare. A centroid whose screened value exceeds the smallest by
// more than twice the bound is farther than the nearest one for certain; every other is recomputed.

#include <cuda_runtime.h>

#include "cuda/kernels/kmeans_arithmetic.cuh"

namespace clusterlens::cuda {

constexpr int kScreenBatch = 8;  // screened values per lane per step

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

/// Screen and exact recheck for points [first, first + count), one warp per point. d_dots holds the
/// chunk's cross terms y_i . z_c, the k of point first + w at d_dots[w * k]; d_centroidNorm2 holds |z_c|^2;
/// `boundPerR2` is 8 (d' + 4) 2^-53 (d' the product's inner dimension) and d_zMax[0] the largest |z_c|.
/// Writes the label (the nearest centroid, ties to the lower label), its exact squared distance and
/// whether the label changed. One pass finds the smallest and second smallest screened values; when
/// the second is beyond the bound (nearly always), only the smallest one's centroid is recomputed, else
/// every centroid within the bound.
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
    const double inf = __longlong_as_double(0x7ff0000000000000LL);
    double smallest = inf, second = inf;
    int nearest = k;
    bool unordered = false;  // a NaN screened value: recheck everything the bound does not exclude
    // kScreenBatch loads in flight per lane before any comparison: the loop is bound by their latency.
    for (int base = 0; base < k; base += 32 * kScreenBatch) {
        double screened[kScreenBatch];
#pragma unroll
        for (int u = 0; u < kScreenBatch; ++u) {
            const int c = base + u * 32 + lane;
            screened[u] = c < k ? norm2 + d_centroidNorm2[c] - 2.0 * dots[c] : inf;
        }
#pragma unroll
        for (int u = 0; u < kScreenBatch; ++u) {
            const double v = screened[u];
            if (isnan(v)) unordered = true;
            if (v < smallest) {
                second = smallest;
                smallest = v;
                nearest = base + u * 32 + lane;
            } else if (v < second) {
                second = v;
            }
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        const double otherSmallest = __shfl_xor_sync(0xffffffffu, smallest, offset);
        const double otherSecond = __shfl_xor_sync(0xffffffffu, second, offset);
        const int otherNearest = __shfl_xor_sync(0xffffffffu, nearest, offset);
        second = fmin(fmin(second, otherSecond), fmax(smallest, otherSmallest));
        if (otherSmallest < smallest || (otherSmallest == smallest && otherNearest < nearest)) {
            smallest = otherSmallest;
            nearest = otherNearest;
        }
    }
    unordered = __any_sync(0xffffffffu, unordered);
    const double r = sqrt(norm2) + d_zMax[0];
    const double limit = smallest + 2.0 * boundPerR2 * r * r;
    const float* point = d_x + static_cast<size_t>(i) * d;
    double best = inf;
    int label = k;
    if (!unordered && second > limit) {
        // Only `nearest` can be the nearest centroid.
        if (lane == 0 && nearest < k) {
            const double exact = pointCentreDistance2(point, d_centroids + static_cast<size_t>(nearest) * d, d);
            if (exact < best) {
                best = exact;
                label = nearest;
            }
        }
    } else {
        for (int c = lane; c < k; c += 32) {
            const double screened = norm2 + d_centroidNorm2[c] - 2.0 * dots[c];
            if (screened > limit) continue;  // (a NaN is recomputed)
            const double exact = pointCentreDistance2(point, d_centroids + static_cast<size_t>(c) * d, d);
            if (exact < best || (exact == best && c < label)) {
                best = exact;
                label = c;
            }
        }
        for (int offset = 16; offset > 0; offset >>= 1) {
            const double otherBest = __shfl_xor_sync(0xffffffffu, best, offset);
            const int otherLabel = __shfl_xor_sync(0xffffffffu, label, offset);
            if (otherBest < best || (otherBest == best && otherLabel < label)) {
                best = otherBest;
                label = otherLabel;
            }
        }
    }
    if (lane == 0) {
        if (label == k) label = 0;  // (no finite distance: kmeansAssignKernel keeps label 0 too)
        d_changed[i] = d_labels[i] != label ? 1 : 0;
        d_labels[i] = label;
        d_distance[i] = best;
    }
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
