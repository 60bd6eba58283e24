// Launcher of the first rescan of every row when every cluster is a single point
// (mhca_prologue_kernels.cuh), for CMD's persistent loop and for FMD.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_prologue_kernels.cuh"
#include "cuda/kernels/mhca_singleton_pairs_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {

void launchSingletonRows(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                         const MergeLogView& mergeLog, const VisitedListView& visited, bool fused,
                         cudaStream_t stream) {
    byDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD > 0) {
            const unsigned blocks =
                std::max(1u, static_cast<unsigned>((visited.length + kPrologueTile - 1) / kPrologueTile));
            if (fused) {
                singletonRowsKernel<kMaxD, true>
                    <<<blocks, kPrologueTile, 0, stream>>>(cfg, clusters, nearest, mergeLog, visited, 0);
            } else {
                singletonRowsKernel<kMaxD, false>
                    <<<blocks, kPrologueTile, 0, stream>>>(cfg, clusters, nearest, mergeLog, visited, 0);
            }
        }
    });
    CL_CUDA_CHECK_LAUNCH();
}

namespace {

/// singletonPairsKernel for exactly d features, d in [1, D]: the padded features of the instance for
/// 16 were (16 - d) / 16 of the pass's FP64 work (12.5 % at d = 14).
template <int D>
void launchPairsOfDimension(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                            const MergeLogView& mergeLog, const VisitedListView& visited, unsigned blocks,
                            cudaStream_t stream) {
    if constexpr (D > 1) {
        if (cfg.d < D) {
            launchPairsOfDimension<D - 1>(cfg, clusters, nearest, mergeLog, visited, blocks, stream);
            return;
        }
    }
    singletonPairsKernel<D><<<blocks, kPairsThreads, 0, stream>>>(cfg, clusters, nearest, mergeLog, visited);
}

}  // namespace

void launchSingletonPairs(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                          const MergeLogView& mergeLog, const VisitedListView& visited, bool flagAll,
                          cudaStream_t stream) {
    if (dimensionInstance(cfg.d) <= 0) return;  // (d > 16: launchSingletonRows' limit too)
    const int rowTiles = std::max(1, (visited.length + kPairsRows - 1) / kPairsRows);
    launchPairsOfDimension<16>(cfg, clusters, nearest, mergeLog, visited, static_cast<unsigned>((rowTiles + 1) / 2),
                               stream);
    CL_CUDA_CHECK_LAUNCH();
    const unsigned rowBlocks = static_cast<unsigned>((visited.length + 255) / 256);
    singletonRowsFromPairsKernel<<<std::max(1u, rowBlocks), 256, 0, stream>>>(clusters, nearest, mergeLog, visited,
                                                                              flagAll ? 1 : 0);
    CL_CUDA_CHECK_LAUNCH();
}

void launchSingletonRowsFlagged(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                                const MergeLogView& mergeLog, const VisitedListView& visited, cudaStream_t stream) {
    byDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD > 0) {
            const unsigned tiles =
                static_cast<unsigned>(std::max(1, (visited.length + kPrologueTile - 1) / kPrologueTile));
            singletonRowsKernel<kMaxD, false>
                <<<tiles, kPrologueTile, 0, stream>>>(cfg, clusters, nearest, mergeLog, visited, 1);
            CL_CUDA_CHECK_LAUNCH();
        }
    });
}

CL_CUDA_KERNEL_MODULE(singletonRowsFromPairsKernel)

}  // namespace clusterlens::cuda::mhca
