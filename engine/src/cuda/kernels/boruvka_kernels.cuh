#pragma once
// Kernels of the GPU minimum spanning tree (Borůvka 1926 / Sollin): the fused, tiled all-pairs scan
// that finds for every point its nearest point in another component.
//
// Points are stored row-major with a padded row stride (a multiple of 4 floats, padding zero) so
// that rows load as float4. Distances are screened in float32; a candidate whose float distance is
// within `tolerance` (relative) of the best float distance seen so far is re-evaluated exactly in
// double (same operations and order as cpu::squaredEuclidean), and the exact value decides. Since
// the float error of a squared distance is below (d+2)·2^-24 relative, the exact nearest point is
// never screened out when tolerance exceeds twice that bound.

#include <cuda_runtime.h>

#include <cfloat>

namespace clusterlens::cuda {

/// Squared Euclidean distance of two float d-vectors, summed in double from the first feature to
/// the last with separately rounded multiply and add (no FMA contraction): bit for bit the value
/// of cpu::squaredEuclidean on the host.
__device__ inline double exactSquaredDistance(const float* a, const float* b, int d) {
    double sum = 0.0;
    for (int k = 0; k < d; ++k) {
        const double diff = static_cast<double>(a[k]) - static_cast<double>(b[k]);
        sum = __dadd_rn(sum, __dmul_rn(diff, diff));
    }
    return sum;
}

/// Candidate order of one query point i: smaller exact squared distance, then smaller
/// (min(i,j), max(i,j)) — the edge order the per-component minimum uses.
__device__ inline bool edgeBefore(double w2, int i, int j, double bestW2, int bestJ) {
    if (w2 != bestW2) return w2 < bestW2;
    if (bestJ < 0) return true;
    const int lo = min(i, j), hi = max(i, j);
    const int bestLo = min(i, bestJ), bestHi = max(i, bestJ);
    return lo != bestLo ? lo < bestLo : hi < bestHi;
}

/// For query points [rowBegin, rowEnd): the exact nearest point of another component.
/// d_x: n rows of `stride` floats (stride % 4 == 0, zero padding), d_component: n labels.
/// kChunks > 0: the query row lives in registers as kChunks float4 (stride == 4·kChunks);
/// kChunks == 0: any stride, the query row is read from global memory.
/// One thread per query point; candidate rows stream through shared memory in tiles of `tileRows`
/// (dynamic shared memory: tileRows·stride floats + tileRows ints). Outputs d_bestW2 (exact squared
/// distance, +inf when no other component exists) and d_bestJ (-1 then).
template <int kChunks>
__global__ void boruvkaNearestKernel(const float* __restrict__ d_x, const int* __restrict__ d_component, int n,
                                     int d, int stride, int tileRows, int rowBegin, int rowEnd, float tolerance,
                                     double* __restrict__ d_bestW2, int* __restrict__ d_bestJ) {
    extern __shared__ float4 s_tile4[];
    float* s_tile = reinterpret_cast<float*>(s_tile4);
    int* s_component = reinterpret_cast<int*>(s_tile + static_cast<size_t>(tileRows) * stride);

    const int i = rowBegin + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const bool active = i < rowEnd;
    const float* query = d_x + static_cast<size_t>(active ? i : rowBegin) * stride;
    float4 q[kChunks > 0 ? kChunks : 1];
    if (kChunks > 0) {
#pragma unroll
        for (int c = 0; c < kChunks; ++c) q[c] = reinterpret_cast<const float4*>(query)[c];
    }
    const int ownComponent = active ? d_component[i] : -1;

    float bestF = FLT_MAX;
    double bestW2 = __longlong_as_double(0x7ff0000000000000LL);
    int bestJ = -1;
    const int stride4 = stride / 4;
    for (int t0 = 0; t0 < n; t0 += tileRows) {
        const int rows = min(tileRows, n - t0);
        const float4* src = reinterpret_cast<const float4*>(d_x + static_cast<size_t>(t0) * stride);
        for (int e = threadIdx.x; e < rows * stride4; e += blockDim.x) s_tile4[e] = src[e];
        for (int r = threadIdx.x; r < rows; r += blockDim.x) s_component[r] = d_component[t0 + r];
        __syncthreads();
        if (active) {
            for (int r = 0; r < rows; ++r) {
                if (s_component[r] == ownComponent) continue;
                const float* row = s_tile + static_cast<size_t>(r) * stride;
                float f = 0.0f;
                if (kChunks > 0) {
#pragma unroll
                    for (int c = 0; c < (kChunks > 0 ? kChunks : 1); ++c) {
                        const float4 v = reinterpret_cast<const float4*>(row)[c];
                        const float dx = q[c].x - v.x, dy = q[c].y - v.y, dz = q[c].z - v.z, dw = q[c].w - v.w;
                        f = fmaf(dx, dx, f);
                        f = fmaf(dy, dy, f);
                        f = fmaf(dz, dz, f);
                        f = fmaf(dw, dw, f);
                    }
                } else {
                    for (int k = 0; k < d; ++k) {
                        const float diff = query[k] - row[k];
                        f = fmaf(diff, diff, f);
                    }
                }
                if (f <= fmaf(bestF, tolerance, bestF) + FLT_MIN) {
                    const int j = t0 + r;
                    const double w2 = exactSquaredDistance(query, row, d);
                    if (edgeBefore(w2, i, j, bestW2, bestJ)) {
                        bestW2 = w2;
                        bestJ = j;
                    }
                    bestF = fminf(bestF, f);
                }
            }
        }
        __syncthreads();
    }
    if (active) {
        d_bestW2[i] = bestW2;
        d_bestJ[i] = bestJ;
    }
}

} // namespace clusterlens::cuda
