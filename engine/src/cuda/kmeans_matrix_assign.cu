#include "cuda/kmeans_matrix_assign.cuh"

#include <algorithm>
#include <cmath>
#include <string>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/kmeans_screen_kernels.cuh"
#include "cuda/util/cublas_library.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"
#include "cuda/util/launch_grid.cuh"

namespace clusterlens::cuda {
namespace {

/// Cross terms held at once (32 MiB, so that a chunk's terms stay in the L2 cache between the product
/// that writes them and the screen that reads them): the rows of 4,096 points at k = 1,024.
constexpr std::size_t kDotsBudget = std::size_t{4} << 20;
constexpr int kScreenThreads = 256;                              // 8 points (warps) per block
constexpr std::size_t kCublasWorkspace = std::size_t{32} << 20;  // cuBLAS's recommendation for Hopper

void checkCublas(cublasStatus_t status, const char* call) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    if (status == CUBLAS_STATUS_ALLOC_FAILED) {
        std::size_t freeBytes = 0, totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) freeBytes = 0;
        throw OutOfDeviceMemory(std::string("the GPU ran out of memory in ") + call, 0, freeBytes);
    }
    throw CudaError(std::string(call) + " failed: " + requireCublas().statusString(status), false);
}

}  // namespace

void queueShiftPoints(const float* d_x, std::size_t n, std::size_t d, std::size_t ld, const std::vector<double>& mean,
                      double* d_y, double* d_norm2, cudaStream_t stream) {
    DeviceBuffer<double> d_mean(d, stream);
    d_mean.copyFromHost(mean.data(), d);
    kmeansShiftKernel<<<gridFor(n, 256), 256, 0, stream>>>(d_x, static_cast<int>(n), static_cast<int>(d),
                                                           static_cast<int>(ld), d_mean.data(), d_y, d_norm2);
    CL_CUDA_CHECK_LAUNCH();
}

void queueAssignTotals(const double* d_distance, const int* d_changed, int n, double* d_blockInertia,
                       int* d_blockChanged, cudaStream_t stream) {
    kmeansAssignTotalsKernel<<<gridFor(static_cast<std::size_t>(n), kKMeansThreads), kKMeansThreads, 0, stream>>>(
        d_distance, d_changed, n, d_blockInertia, d_blockChanged);
    CL_CUDA_CHECK_LAUNCH();
}

KMeansMatrixAssign::KMeansMatrixAssign(const float* d_x, std::size_t n, std::size_t d, std::size_t k,
                                       const std::vector<double>& mean, cudaStream_t stream)
    : m_x(d_x),
      m_n(static_cast<int>(n)),
      m_d(static_cast<int>(d)),
      m_k(static_cast<int>(k)),
      m_ld(static_cast<int>((d + 3) / 4 * 4)),
      m_chunk(static_cast<int>(std::clamp<std::size_t>(kDotsBudget / k, 1, n))),
      m_stream(stream),
      m_mean(mean) {
    const auto ld = static_cast<std::size_t>(m_ld);
    d_y = DeviceBuffer<double>(n * ld, stream);
    d_norm2 = DeviceBuffer<double>(n, stream);
    d_z = DeviceBuffer<double>(k * ld, stream);
    d_centroidNorm2 = DeviceBuffer<double>(k, stream);
    d_zMax = DeviceBuffer<double>(1, stream);
    d_dots = DeviceBuffer<double>(static_cast<std::size_t>(m_chunk) * k, stream);
    d_changed = DeviceBuffer<int>(n, stream);
    queueShiftPoints(d_x, n, d, ld, mean, d_y.data(), d_norm2.data(), stream);
    const CublasLibrary& cublas = requireCublas();
    checkCublas(cublas.create(&m_handle), "cublasCreate");
    d_cublasWorkspace = DeviceBuffer<unsigned char>(kCublasWorkspace, stream);
    checkCublas(cublas.setWorkspace(m_handle, d_cublasWorkspace.data(), kCublasWorkspace), "cublasSetWorkspace");
}

KMeansMatrixAssign::~KMeansMatrixAssign() {
    if (m_handle) requireCublas().destroy(m_handle);
}

ShiftedCentroids shiftCentroids(const std::vector<double>& centroids, const std::vector<double>& mean, std::size_t k,
                                std::size_t d, std::size_t ld) {
    ShiftedCentroids shifted{std::vector<double>(k * ld, 0.0), std::vector<double>(k), 0.0};
    for (std::size_t c = 0; c < k; ++c) {
        double sum = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            const double v = centroids[c * d + j] - mean[j];
            shifted.z[c * ld + j] = v;
            sum += v * v;
        }
        shifted.norm2[c] = sum;
        shifted.zMax = std::max(shifted.zMax, std::sqrt(sum));
    }
    return shifted;
}

void KMeansMatrixAssign::assign(const std::vector<double>& centroids, const double* d_centroids, int* d_labels,
                                double* d_distance, double* d_blockInertia, int* d_blockChanged) {
    const std::size_t k = static_cast<std::size_t>(m_k);
    const ShiftedCentroids shifted =
        shiftCentroids(centroids, m_mean, k, static_cast<std::size_t>(m_d), static_cast<std::size_t>(m_ld));
    d_z.copyFromHost(shifted.z.data(), shifted.z.size());
    d_centroidNorm2.copyFromHost(shifted.norm2.data(), k);
    d_zMax.copyFromHost(&shifted.zMax, 1);
    const Arrays arrays{d_centroids, d_labels, d_distance, d_blockInertia, d_blockChanged};
    if (!m_chunks.get() || !(m_captured == arrays)) {
        m_chunks.reset(captureGraph(m_captureStream.get(), [&](cudaStream_t s) { queueChunks(s, arrays); }));
        m_captured = arrays;
    }
    CL_CUDA_TRY(cudaGraphLaunch(m_chunks.get(), m_stream));
}

void KMeansMatrixAssign::queueChunks(cudaStream_t stream, const Arrays& arrays) {
    const auto ld = static_cast<std::size_t>(m_ld);
    const double boundPerR2 = 8.0 * static_cast<double>(m_ld + 4) * 0x1.0p-53;
    const double one = 1.0, zero = 0.0;
    const CublasLibrary& cublas = requireCublas();
    checkCublas(cublas.setStream(m_handle, stream), "cublasSetStream");
    for (int first = 0; first < m_n; first += m_chunk) {
        const int count = std::min(m_chunk, m_n - first);
        // Column-major: dots (k x count) = Z^T (k x ld) * Y (ld x count); point w's k terms are contiguous.
        checkCublas(cublas.dgemm(m_handle, CUBLAS_OP_T, CUBLAS_OP_N, m_k, count, m_ld, &one, d_z.data(), m_ld,
                                 d_y.data() + static_cast<std::size_t>(first) * ld, m_ld, &zero, d_dots.data(), m_k),
                    "cublasDgemm");
        const unsigned blocks = gridFor(static_cast<std::size_t>(count) * 32, kScreenThreads);
        kmeansScreenKernel<<<blocks, kScreenThreads, 0, stream>>>(
            m_x, m_d, arrays.centroids, m_k, d_dots.data(), d_norm2.data(), d_centroidNorm2.data(), d_zMax.data(),
            boundPerR2, first, count, arrays.labels, arrays.distance, d_changed.data());
        CL_CUDA_CHECK_LAUNCH();
    }
    queueAssignTotals(arrays.distance, d_changed.data(), m_n, arrays.blockInertia, arrays.blockChanged, stream);
}

CL_CUDA_KERNEL_MODULE(kmeansScreenKernel)

}  // namespace clusterlens::cuda
