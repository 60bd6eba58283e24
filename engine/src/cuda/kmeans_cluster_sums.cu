#include "cuda/kmeans_cluster_sums.cuh"

#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <numeric>

#include "cuda/kernels/kmeans_update_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"
#include "cuda/util/launch_grid.cuh"

namespace clusterlens::cuda {
namespace {

constexpr std::size_t kTileBytes = 40 * 1024;  // a chunk's rows in shared memory

}  // namespace

KMeansClusterSums::KMeansClusterSums(const float* d_x, std::size_t n, std::size_t d, std::size_t k, cudaStream_t stream)
    : m_x(d_x),
      m_n(static_cast<int>(n)),
      m_d(static_cast<int>(d)),
      m_k(static_cast<int>(k)),
      m_endBit(std::max(1, static_cast<int>(std::bit_width(k - 1)))),
      m_featureTile(static_cast<int>(std::min<std::size_t>(d, kTileBytes / (kSumChunk * sizeof(float))))),
      m_stream(stream),
      m_offsets(k + 1) {
    const std::size_t maxChunks = n / kSumChunk + k;  // sum over clusters of ceil(size / kSumChunk)
    std::vector<int> index(n);
    std::iota(index.begin(), index.end(), 0);
    d_index = DeviceBuffer<int>(n, stream);
    d_index.copyFromHost(index.data(), n);
    d_sortedLabels = DeviceBuffer<int>(n, stream);
    d_order = DeviceBuffer<int>(n, stream);
    d_offsets = DeviceBuffer<int>(k + 1, stream);
    d_chunkBegin = DeviceBuffer<int>(maxChunks + 1, stream);
    d_chunkFirst = DeviceBuffer<int>(k + 1, stream);
    d_chunkSums = DeviceBuffer<double>(maxChunks * d, stream);
    d_sums = DeviceBuffer<double>(k * d, stream);
    std::size_t scratch = 0;
    CL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, scratch, static_cast<const int*>(nullptr),
                                                static_cast<int*>(nullptr), static_cast<const int*>(nullptr),
                                                static_cast<int*>(nullptr), m_n, 0, m_endBit, stream));
    d_sortScratch = DeviceBuffer<unsigned char>(std::max<std::size_t>(scratch, 1), stream);
    m_chunkBegin.reserve(maxChunks + 1);
}

void KMeansClusterSums::compute(const int* d_labels, std::vector<double>& sums, std::vector<long long>& counts) {
    std::size_t scratch = d_sortScratch.size();
    CL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(d_sortScratch.data(), scratch, d_labels, d_sortedLabels.data(),
                                                d_index.data(), d_order.data(), m_n, 0, m_endBit, m_stream));
    kmeansClusterStartsKernel<<<gridFor(static_cast<std::size_t>(m_k) + 1, 256), 256, 0, m_stream>>>(
        d_sortedLabels.data(), m_n, m_k, d_offsets.data());
    CL_CUDA_CHECK_LAUNCH();
    d_offsets.copyToHost(m_offsets.data(), m_offsets.size());

    // Each cluster's run of sorted positions in chunks of at most kSumChunk.
    m_chunkBegin.clear();
    m_chunkFirst.assign(static_cast<std::size_t>(m_k) + 1, 0);
    for (int c = 0; c < m_k; ++c) {
        m_chunkFirst[static_cast<std::size_t>(c)] = static_cast<int>(m_chunkBegin.size());
        counts[static_cast<std::size_t>(c)] =
            m_offsets[static_cast<std::size_t>(c) + 1] - m_offsets[static_cast<std::size_t>(c)];
        for (int p = m_offsets[static_cast<std::size_t>(c)]; p < m_offsets[static_cast<std::size_t>(c) + 1];
             p += kSumChunk)
            m_chunkBegin.push_back(p);
    }
    const auto chunks = static_cast<int>(m_chunkBegin.size());
    m_chunkFirst[static_cast<std::size_t>(m_k)] = chunks;
    m_chunkBegin.push_back(m_n);
    d_chunkBegin.copyFromHost(m_chunkBegin.data(), m_chunkBegin.size());
    d_chunkFirst.copyFromHost(m_chunkFirst.data(), m_chunkFirst.size());

    if (chunks > 0) {
        const std::size_t shared =
            static_cast<std::size_t>(kSumChunk) * static_cast<std::size_t>(m_featureTile) * sizeof(float);
        kmeansChunkSumsKernel<<<static_cast<unsigned>(chunks), kSumThreads, shared, m_stream>>>(
            m_x, d_order.data(), m_d, m_featureTile, d_chunkBegin.data(), d_chunkSums.data());
        CL_CUDA_CHECK_LAUNCH();
    }
    const std::size_t entries = static_cast<std::size_t>(m_k) * static_cast<std::size_t>(m_d);
    kmeansClusterSumsKernel<<<gridFor(entries, 256), 256, 0, m_stream>>>(d_chunkSums.data(), d_chunkFirst.data(), m_k,
                                                                         m_d, d_sums.data());
    CL_CUDA_CHECK_LAUNCH();
    d_sums.copyToHost(sums.data(), entries);
}

CL_CUDA_KERNEL_MODULE(kmeansChunkSumsKernel)

}  // namespace clusterlens::cuda
