#include "cuda/kmeans_matrix_assign.cuh"

#include <algorithm>
#include <cmath>
#include <string>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/kmeans_screen_kernels.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda {
namespace {

/// Cross terms held at once (256 MiB): the rows of 32,768 points at k = 1,024.
constexpr std::size_t kDotsBudget = std::size_t{32} << 20;
constexpr int kScreenThreads = 256;  // 8 points (warps) per block

void checkCublas(cublasStatus_t status, const char* call) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    if (status == CUBLAS_STATUS_ALLOC_FAILED) {
        std::size_t freeBytes = 0, totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) freeBytes = 0;
        throw OutOfDeviceMemory(std::string("the GPU ran out of memory in ") + call, 0, freeBytes);
    }
    throw CudaError(std::string(call) + " failed: " + cublasGetStatusString(status), false);
}

}  // namespace

KMeansMatrixAssign::KMeansMatrixAssign(const float* d_x, std::size_t n, std::size_t d, std::size_t k,
                                       const std::vector<double>& mean, cudaStream_t stream)
    : m_x(d_x),
      m_n(static_cast<int>(n)),
      m_d(static_cast<int>(d)),
      m_k(static_cast<int>(k)),
      m_chunk(static_cast<int>(std::clamp<std::size_t>(kDotsBudget / k, 1, n))),
      m_stream(stream),
      m_mean(mean) {
    d_y = DeviceBuffer<double>(n * d, stream);
    d_norm2 = DeviceBuffer<double>(n, stream);
    d_z = DeviceBuffer<double>(k * d, stream);
    d_centroidNorm2 = DeviceBuffer<double>(k, stream);
    d_dots = DeviceBuffer<double>(static_cast<std::size_t>(m_chunk) * k, stream);
    d_changed = DeviceBuffer<int>(n, stream);
    DeviceBuffer<double> d_mean(d, stream);
    d_mean.copyFromHost(mean.data(), d);
    kmeansShiftKernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(d_x, m_n, m_d, d_mean.data(),
                                                                                  d_y.data(), d_norm2.data());
    CL_CUDA_CHECK_LAUNCH();
    checkCublas(cublasCreate(&m_handle), "cublasCreate");
    checkCublas(cublasSetStream(m_handle, stream), "cublasSetStream");
}

KMeansMatrixAssign::~KMeansMatrixAssign() {
    if (m_handle) cublasDestroy(m_handle);
}

void KMeansMatrixAssign::assign(const std::vector<double>& centroids, const double* d_centroids, int* d_labels,
                                double* d_distance, double* d_blockInertia, int* d_blockChanged) {
    const std::size_t k = static_cast<std::size_t>(m_k), d = static_cast<std::size_t>(m_d);
    std::vector<double> z(k * d), norm2(k);
    double zMax = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
        double sum = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            const double v = centroids[c * d + j] - m_mean[j];
            z[c * d + j] = v;
            sum += v * v;
        }
        norm2[c] = sum;
        zMax = std::max(zMax, std::sqrt(sum));
    }
    d_z.copyFromHost(z.data(), z.size());
    d_centroidNorm2.copyFromHost(norm2.data(), k);
    const double boundPerR2 = 8.0 * static_cast<double>(m_d + 4) * 0x1.0p-53;
    const double one = 1.0, zero = 0.0;
    for (int first = 0; first < m_n; first += m_chunk) {
        const int count = std::min(m_chunk, m_n - first);
        // Column-major: dots (k x count) = Z^T (k x d) * Y (d x count); point w's k terms are contiguous.
        checkCublas(cublasDgemm(m_handle, CUBLAS_OP_T, CUBLAS_OP_N, m_k, count, m_d, &one, d_z.data(), m_d,
                                d_y.data() + static_cast<std::size_t>(first) * d, m_d, &zero, d_dots.data(), m_k),
                    "cublasDgemm");
        const unsigned blocks =
            static_cast<unsigned>((static_cast<std::size_t>(count) * 32 + kScreenThreads - 1) / kScreenThreads);
        kmeansScreenKernel<<<blocks, kScreenThreads, 0, m_stream>>>(
            m_x, m_d, d_centroids, m_k, d_dots.data(), d_norm2.data(), d_centroidNorm2.data(), zMax, boundPerR2, first,
            count, d_labels, d_distance, d_changed.data());
        CL_CUDA_CHECK_LAUNCH();
    }
    const unsigned totalBlocks = static_cast<unsigned>((m_n + kKMeansThreads - 1) / kKMeansThreads);
    kmeansAssignTotalsKernel<<<totalBlocks, kKMeansThreads, 0, m_stream>>>(d_distance, d_changed.data(), m_n,
                                                                           d_blockInertia, d_blockChanged);
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(kmeansScreenKernel)

}  // namespace clusterlens::cuda
