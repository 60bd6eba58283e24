#pragma once
// The screen of the k-means assignment through a matrix product (kmeans_matrix_assign.cuh,
// kmeans_tile_assign.cuh): the squared distance |x - c|^2 = |y|^2 + |z|^2 - 2 y.z with y = x - m,
// z = c - m (m the data's mean) has its cross terms from a product of many points and centroids (cuBLAS
// DGEMM, or FP64 tensor-core tiles); each point's centroids are screened by that value
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

/// The screen and exact recheck of point i by one warp (every lane calls it). `valueOf(c)` gives
/// centroid c's screened value |y|^2 + |z_c|^2 - 2 y.z_c within the bound above, `norm2` is |y|^2,
/// `boundPerR2` 8 (d' + 4) 2^-53 (d' the product's inner dimension) and `zMax` the largest |z_c|.
/// Writes the label (the nearest centroid, ties to the lower label), its exact squared distance and
/// whether the label changed. One pass finds the smallest and second smallest screened values; when
/// the second is beyond the bound (nearly always), only the smallest one's centroid is recomputed, else
/// every centroid within the bound.
template <class ValueOf>
__device__ void screenPoint(int i, int lane, const float* __restrict__ d_x, int d,
                            const double* __restrict__ d_centroids, int k, double norm2, double zMax, double boundPerR2,
                            ValueOf valueOf, int* __restrict__ d_labels, double* __restrict__ d_distance,
                            int* __restrict__ d_changed) {
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
            screened[u] = c < k ? valueOf(c) : inf;
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
    const double r = sqrt(norm2) + zMax;
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
            if (valueOf(c) > limit) continue;  // (a NaN is recomputed)
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

}  // namespace clusterlens::cuda
