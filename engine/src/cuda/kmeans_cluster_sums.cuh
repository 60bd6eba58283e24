#pragma once
// The k-means update step's per-cluster feature sums and counts on the GPU, in O(n d) work
// (kernels/kmeans_update_kernels.cuh): a stable radix sort of the labels, then fixed-shape sums over
// each cluster's run of points. The sums depend only on the points and labels, not on the device.

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda/util/device_buffer.cuh"

namespace clusterlens::cuda {

class KMeansClusterSums {
public:
    /// For n points x d features on the device (`d_x`, row-major float) and k clusters, on `stream`.
    /// Device memory: 4 n ints, (n / 256 + k) d doubles of chunk sums, the sort's scratch.
    KMeansClusterSums(const float* d_x, std::size_t n, std::size_t d, std::size_t k, cudaStream_t stream);

    /// Sums (k x d, row-major) and counts (k) of the points under each label of `d_labels` (n labels in
    /// [0, k) on the device). Copies both to the host; waits for the stream.
    void compute(const int* d_labels, std::vector<double>& sums, std::vector<long long>& counts);

private:
    const float* m_x;
    int m_n, m_d, m_k;
    int m_endBit;  // labels fit in bits [0, m_endBit)
    int m_featureTile;
    cudaStream_t m_stream;
    std::vector<int> m_offsets, m_chunkBegin, m_chunkFirst;
    DeviceBuffer<int> d_index, d_sortedLabels, d_order, d_offsets, d_chunkBegin, d_chunkFirst;
    DeviceBuffer<unsigned char> d_sortScratch;
    DeviceBuffer<double> d_chunkSums, d_sums;
};

}  // namespace clusterlens::cuda
