#pragma once
// The k-means assignment in FP64 tensor-core tiles (kernels/kmeans_tile_kernels.cuh): each point's
// cross terms with every centroid are formed in registers, 32 centroids at a time, and screened there
// with the matrix product's proven bound; no matrix of cross terms is written. Same labels, distances
// and block totals as kmeansAssignKernel, bit for bit. For devices with FP64 tensor cores (compute
// 8.0, 9.0, 10.0) and at most 64 features; kmeans.cu chooses it for many centroids.

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda/util/device_buffer.cuh"

namespace clusterlens::cuda {

class KMeansTileAssign {
public:
    /// Features the tiles take at most (16 steps of 4 in registers).
    static constexpr std::size_t kMaxFeatures = 64;
    /// Whether the current device has FP64 tensor cores at full rate (A100, H100/H200, B200).
    static bool deviceSupported();

    /// For n points x d features (d <= kMaxFeatures) on the device (`d_x`, row-major float) and k
    /// centroids, on `stream`; `mean` (d values) is subtracted from points and centroids before the
    /// products. Device memory: n (d' + 1) doubles and 2 n ints (d' = d rounded up to a multiple of 8) and
    /// 2 k d' doubles of centroids.
    KMeansTileAssign(const float* d_x, std::size_t n, std::size_t d, std::size_t k, const std::vector<double>& mean,
                     cudaStream_t stream);

    /// Assigns every point: `centroids` on the host (k x d), `d_centroids` the same on the device. Writes
    /// labels, distances and, per block of kKMeansThreads points, kmeansAssignKernel's totals.
    void assign(const std::vector<double>& centroids, const double* d_centroids, int* d_labels, double* d_distance,
                double* d_blockInertia, int* d_blockChanged);

private:
    /// Queues the screen kernel of m_steps steps.
    void queueScreen(const double* d_centroids, int* d_labels, double* d_distance);

    const float* m_x;
    int m_n, m_d, m_k;
    int m_steps;  // 4-feature steps: d rounded up to a multiple of 8, over 4
    int m_tiles;  // centroid tiles of kTileCentroids
    cudaStream_t m_stream;
    std::vector<double> m_mean;
    DeviceBuffer<double> d_y, d_norm2, d_z, d_zTiles, d_centroidNorm2, d_zMax;
    DeviceBuffer<int> d_changed, d_pending, d_pendingCount;
};

}  // namespace clusterlens::cuda
