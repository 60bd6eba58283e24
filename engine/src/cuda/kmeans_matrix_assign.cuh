#pragma once
// The k-means assignment step through a matrix product (kernels/kmeans_screen_kernels.cuh): per chunk
// of points one cuBLAS DGEMM gives the cross terms of every point-centroid distance, a screen with a
// proven bound keeps the centroids that can still be the nearest, and those are recomputed exactly.
// Same labels, distances and block totals as kmeansAssignKernel, bit for bit. kmeans.cu chooses it
// for many centroids (k x d >= 4096) where the tensor-core tiles (kmeans_tile_assign.cuh) cannot run.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda/util/device_buffer.cuh"
#include "cuda/util/owned_stream_graph.cuh"

namespace clusterlens::cuda {

/// Centroids shifted by the data's mean for the products: z = c - mean in k rows of `ld` doubles (zeros
/// after d), |z|^2 of each and the largest |z|.
struct ShiftedCentroids {
    std::vector<double> z, norm2;
    double zMax = 0.0;
};
ShiftedCentroids shiftCentroids(const std::vector<double>& centroids, const std::vector<double>& mean, std::size_t k,
                                std::size_t d, std::size_t ld);

/// Queues y = x - mean (n rows of `ld` doubles, zeros after d) and |y|^2 for n points x d features.
void queueShiftPoints(const float* d_x, std::size_t n, std::size_t d, std::size_t ld, const std::vector<double>& mean,
                      double* d_y, double* d_norm2, cudaStream_t stream);

/// Queues kmeansAssignKernel's block totals (summed squared distances, changed labels per block of
/// kKMeansThreads points) from the distances and changed flags an assignment wrote.
void queueAssignTotals(const double* d_distance, const int* d_changed, int n, double* d_blockInertia,
                       int* d_blockChanged, cudaStream_t stream);

class KMeansMatrixAssign {
public:
    /// For n points x d features on the device (`d_x`, row-major float) and k centroids, on `stream`.
    /// `mean` (d values) is subtracted from points and centroids before the product (shorter vectors,
    /// a tighter screen). Device memory: n (d + 5) doubles and ints, up to 4M doubles of cross terms,
    /// 32 MiB of cuBLAS workspace.
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
    /// The device arrays an assignment reads (centroids) and writes.
    struct Arrays {
        const double* centroids = nullptr;
        int* labels = nullptr;
        double* distance = nullptr;
        double* blockInertia = nullptr;
        int* blockChanged = nullptr;
        bool operator==(const Arrays&) const = default;
    };
    /// Queues the chunks' products, screens and the block totals on `stream`.
    void queueChunks(cudaStream_t stream, const Arrays& arrays);

    const float* m_x;
    int m_n, m_d, m_k;
    int m_ld;     // y's and z's row length: d rounded up to a multiple of 4, zeros after d
    int m_chunk;  // points per product
    cudaStream_t m_stream;
    cublasHandle_t m_handle = nullptr;
    std::vector<double> m_mean;
    DeviceBuffer<double> d_y, d_norm2, d_z, d_centroidNorm2, d_zMax, d_dots;
    DeviceBuffer<int> d_changed;
    DeviceBuffer<unsigned char> d_cublasWorkspace;  // set on the handle: no allocation while capturing
    // The chunk loop (hundreds of launches at k = 1,000) runs as one graph, captured at the first
    // assign on a stream of its own, for the output arrays it was captured with.
    OwnedStream m_captureStream;
    OwnedGraph m_chunks;
    Arrays m_captured;
};

}  // namespace clusterlens::cuda
