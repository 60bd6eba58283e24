#pragma once
// The k-means assignment step through a matrix product (kernels/kmeans_screen_kernels.cuh): per chunk
// of points one cuBLAS DGEMM gives the cross terms of every point-centroid distance, a screen with a
// proven bound keeps the centroids that can still be the nearest, and those are recomputed exactly.
// Same labels, distances and block totals as kmeansAssignKernel, bit for bit. kmeans.cu chooses it
// for many centroids (k x d >= 4096).

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda/util/device_buffer.cuh"

namespace clusterlens::cuda {

class KMeansMatrixAssign {
public:
    /// For n points x d features on the device (`d_x`, row-major float) and k centroids, on `stream`.
    /// `mean` (d values) is subtracted from points and centroids before the product (shorter vectors,
    /// a tighter screen). Device memory: n (d + 2) doubles and ints, up to 32M doubles of cross terms.
    KMeansMatrixAssign(const float* d_x, std::size_t n, std::size_t d, std::size_t k, const std::vector<double>& mean,
                       cudaStream_t stream);
    ~KMeansMatrixAssign();
    KMeansMatrixAssign(const KMeansMatrixAssign&) = delete;
    KMeansMatrixAssign& operator=(const KMeansMatrixAssign&) = delete;

    /// Assigns every point: `centroids` on the host (k x d), `d_centroids` the same on the device. Writes
    /// labels, distances and, per block of kKMeansThreads points, kmeansAssignKernel's totals.
    void assign(const std::vector<double>& centroids, const double* d_centroids, int* d_labels, double* d_distance,
                double* d_blockInertia, int* d_blockChanged);

private:
    const float* m_x;
    int m_n, m_d, m_k;
    int m_chunk;  // points per product
    cudaStream_t m_stream;
    cublasHandle_t m_handle = nullptr;
    std::vector<double> m_mean;
    DeviceBuffer<double> d_y, d_norm2, d_z, d_centroidNorm2, d_dots;
    DeviceBuffer<int> d_changed;
};

}  // namespace clusterlens::cuda
