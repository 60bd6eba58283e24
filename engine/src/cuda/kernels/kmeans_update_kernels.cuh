#pragma once
// Kernels of the k-means update step (kmeans_cluster_sums.cuh): the per-cluster feature sums of the
// points in label order. The points sorted stably by label make each cluster one run of positions;
// each run is cut into chunks of at most kSumChunk positions, a chunk's points are summed in position
// order, then each cluster's chunk sums in chunk order. The order of every addition follows from the
// labels alone, so the sums do not vary between runs or devices; the work is O(n d).

#include <cuda_runtime.h>

namespace clusterlens::cuda {

constexpr int kSumChunk = 256;    // sorted points per chunk sum
constexpr int kSumThreads = 128;  // threads of a chunk's block

/// offsets[c] = the first position of label c among `sortedLabels` (n ascending labels), for
/// c = 0..k; offsets[k] = n. One thread per c.
__global__ void kmeansClusterStartsKernel(const int* __restrict__ sortedLabels, int n, int k,
                                          int* __restrict__ offsets) {
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c > k) return;
    int low = 0, high = n;
    while (low < high) {
        const int mid = low + (high - low) / 2;
        if (sortedLabels[mid] < c)
            low = mid + 1;
        else
            high = mid;
    }
    offsets[c] = low;
}

/// Block b sums chunk b: the points order[chunkBegin[b]] .. order[chunkBegin[b + 1] - 1] (at most
/// kSumChunk, one cluster), feature by feature in position order, into chunkSums[b * d ...]. The
/// chunk's rows pass through shared memory `featureTile` features at a time (dynamic shared memory
/// kSumChunk * featureTile floats).
__global__ void kmeansChunkSumsKernel(const float* __restrict__ d_x, const int* __restrict__ order, int d,
                                      int featureTile, const int* __restrict__ chunkBegin,
                                      double* __restrict__ chunkSums) {
    extern __shared__ float s_rows[];
    const int begin = chunkBegin[blockIdx.x];
    const int rows = chunkBegin[blockIdx.x + 1] - begin;
    double* sums = chunkSums + static_cast<size_t>(blockIdx.x) * d;
    for (int first = 0; first < d; first += featureTile) {
        const int width = min(featureTile, d - first);
        __syncthreads();
        for (int e = threadIdx.x; e < rows * width; e += blockDim.x) {
            const int r = e / width, j = e % width;
            s_rows[e] = d_x[static_cast<size_t>(order[begin + r]) * d + first + j];
        }
        __syncthreads();
        for (int j = threadIdx.x; j < width; j += blockDim.x) {
            double sum = 0.0;
            for (int r = 0; r < rows; ++r) sum += static_cast<double>(s_rows[r * width + j]);
            sums[first + j] = sum;
        }
    }
}

/// sums[c * d + j] = the chunk sums of cluster c's chunks chunkFirst[c] .. chunkFirst[c + 1] - 1 in
/// chunk order (0 for an empty cluster). One thread per entry of the k x d sums.
__global__ void kmeansClusterSumsKernel(const double* __restrict__ chunkSums, const int* __restrict__ chunkFirst, int k,
                                        int d, double* __restrict__ sums) {
    const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (e >= k * d) return;
    const int c = e / d, j = e % d;
    double sum = 0.0;
    for (int b = chunkFirst[c]; b < chunkFirst[c + 1]; ++b) sum += chunkSums[static_cast<size_t>(b) * d + j];
    sums[e] = sum;
}

}  // namespace clusterlens::cuda
