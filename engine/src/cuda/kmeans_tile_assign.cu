#include "cuda/kmeans_tile_assign.cuh"

#include <algorithm>
#include <string>

#include "clusterlens/errors.hpp"
#include "cuda/kernels/kmeans_tile_kernels.cuh"
#include "cuda/kmeans_matrix_assign.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"
#include "cuda/util/launch_grid.cuh"

namespace clusterlens::cuda {
namespace {

/// The screen kernel for `steps` 4-feature steps (even, 2 to 16).
using ScreenKernel = void (*)(const double*, const double*, int, const double*, const double*, int, int, const double*,
                              double, const float*, int, const double*, int*, double*, int*, int*, int*);

ScreenKernel screenKernel(int steps) {
    switch (steps) {
        case 2:
            return kmeansTileScreenKernel<2>;
        case 4:
            return kmeansTileScreenKernel<4>;
        case 6:
            return kmeansTileScreenKernel<6>;
        case 8:
            return kmeansTileScreenKernel<8>;
        case 10:
            return kmeansTileScreenKernel<10>;
        case 12:
            return kmeansTileScreenKernel<12>;
        case 14:
            return kmeansTileScreenKernel<14>;
        case 16:
            return kmeansTileScreenKernel<16>;
        default:
            throw InvalidInput("k-means tensor tiles: " + std::to_string(steps * 4) + " features are more than 64");
    }
}

}  // namespace

bool KMeansTileAssign::deviceSupported() {
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
        return false;
    // 8.6, 8.9 and 12.x run FP64 tensor instructions at a small fraction of that rate.
    return minor == 0 && (major == 8 || major == 9 || major == 10);
}

KMeansTileAssign::KMeansTileAssign(const float* d_x, std::size_t n, std::size_t d, std::size_t k,
                                   const std::vector<double>& mean, cudaStream_t stream)
    : m_x(d_x),
      m_n(static_cast<int>(n)),
      m_d(static_cast<int>(d)),
      m_k(static_cast<int>(k)),
      m_steps(static_cast<int>((d + 7) / 8 * 2)),
      m_tiles(static_cast<int>((k + kTileCentroids - 1) / kTileCentroids)),
      m_stream(stream),
      m_mean(mean) {
    if (d > kMaxFeatures) throw InvalidInput("k-means tensor tiles take at most 64 features, not " + std::to_string(d));
    const ScreenKernel kernel = screenKernel(m_steps);
    const auto ld = static_cast<std::size_t>(4 * m_steps);
    d_y = DeviceBuffer<double>(n * ld, stream);
    d_norm2 = DeviceBuffer<double>(n, stream);
    d_z = DeviceBuffer<double>(k * ld, stream);
    d_zTiles = DeviceBuffer<double>(static_cast<std::size_t>(m_tiles) * tileDoubles(m_steps), stream);
    d_centroidNorm2 = DeviceBuffer<double>(k, stream);
    d_zMax = DeviceBuffer<double>(1, stream);
    d_changed = DeviceBuffer<int>(n, stream);
    d_pending = DeviceBuffer<int>(n, stream);
    d_pendingCount = DeviceBuffer<int>(1, stream);
    queueShiftPoints(d_x, n, d, ld, mean, d_y.data(), d_norm2.data(), stream);
    CL_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(tileSharedBytes(m_steps))));
}

void KMeansTileAssign::assign(const std::vector<double>& centroids, const double* d_centroids, int* d_labels,
                              double* d_distance, double* d_blockInertia, int* d_blockChanged) {
    const auto k = static_cast<std::size_t>(m_k), ld = static_cast<std::size_t>(4 * m_steps);
    const ShiftedCentroids shifted = shiftCentroids(centroids, m_mean, k, static_cast<std::size_t>(m_d), ld);
    // The tiles in fragment order (kmeans_tile_kernels.cuh): tile, step, fragment, lane.
    std::vector<double> tiles(static_cast<std::size_t>(m_tiles) * tileDoubles(m_steps), 0.0);
    for (std::size_t e = 0; e < tiles.size(); ++e) {
        const std::size_t lane = e % 32, fragment = e / 32 % kTileFragments, step = e / 32 / kTileFragments % m_steps;
        const std::size_t tile = e / static_cast<std::size_t>(tileDoubles(m_steps));
        const std::size_t c = tile * kTileCentroids + fragment * 8 + lane / 4, feature = step * 4 + lane % 4;
        if (c < k) tiles[e] = shifted.z[c * ld + feature];
    }
    d_z.copyFromHost(shifted.z.data(), shifted.z.size());
    d_zTiles.copyFromHost(tiles.data(), tiles.size());
    d_centroidNorm2.copyFromHost(shifted.norm2.data(), k);
    d_zMax.copyFromHost(&shifted.zMax, 1);
    queueScreen(d_centroids, d_labels, d_distance);
    queueAssignTotals(d_distance, d_changed.data(), m_n, d_blockInertia, d_blockChanged, m_stream);
}

void KMeansTileAssign::queueScreen(const double* d_centroids, int* d_labels, double* d_distance) {
    const int ld = 4 * m_steps;
    const double boundPerR2 = 8.0 * static_cast<double>(ld + 4) * 0x1.0p-53;  // kmeans_screen_point.cuh
    const unsigned blocks = gridFor(static_cast<std::size_t>(m_n), kTilePoints);
    CL_CUDA_TRY(cudaMemsetAsync(d_pendingCount.data(), 0, sizeof(int), m_stream));
    screenKernel(m_steps)<<<blocks, kTileThreads, tileSharedBytes(m_steps), m_stream>>>(
        d_y.data(), d_norm2.data(), m_n, d_zTiles.data(), d_centroidNorm2.data(), m_k, m_tiles, d_zMax.data(),
        boundPerR2, m_x, m_d, d_centroids, d_labels, d_distance, d_changed.data(), d_pending.data(),
        d_pendingCount.data());
    CL_CUDA_CHECK_LAUNCH();
    // Pending points are few (near-ties): a small grid walks the list; an empty list costs one launch.
    constexpr int kRecheckThreads = 256;  // 8 points (warps) at a time per block
    const unsigned recheckBlocks = static_cast<unsigned>(std::min(1024, (m_n + 7) / 8));
    kmeansTileRecheckKernel<<<recheckBlocks, kRecheckThreads, 0, m_stream>>>(
        d_y.data(), d_norm2.data(), ld, d_z.data(), d_centroidNorm2.data(), m_k, d_zMax.data(), boundPerR2, m_x, m_d,
        d_centroids, d_pending.data(), d_pendingCount.data(), d_labels, d_distance, d_changed.data());
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(kmeansTileRecheckKernel)

}  // namespace clusterlens::cuda
