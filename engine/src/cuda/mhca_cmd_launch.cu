// Launchers of the CMD neighbour-array kernels.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_cmd_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {
void launchCentroidNewDistances(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                                const MergeScratchView& scratch, const VisitedListView& visited, std::size_t rowBytes,
                                cudaStream_t stream) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (visited.length + kListThreads - 1) / kListThreads));
    byWideDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        centroidNewDistancesKernel<kMaxD>
            <<<blocks, kListThreads, rowBytes, stream>>>(cfg, clusters, mergeLog, scratch, visited);
    });
    CL_CUDA_CHECK_LAUNCH();
}

void launchNewRowUpdate(const ClusterView& clusters, const NearestRowView& nearest, const MergeLogView& mergeLog,
                        const MergeScratchView& scratch, const VisitedListView& visited, cudaStream_t stream,
                        bool runners) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (visited.length + kListThreads - 1) / kListThreads));
    if (runners) {
        newRowUpdateKernel<true><<<blocks, kListThreads, 0, stream>>>(clusters, nearest, mergeLog, scratch, visited);
    } else {
        newRowUpdateKernel<false><<<blocks, kListThreads, 0, stream>>>(clusters, nearest, mergeLog, scratch, visited);
    }
    CL_CUDA_CHECK_LAUNCH();
}

void launchCentroidRescan(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                          const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                          int blocks, int targetItems, std::size_t rowBytes, int mode, cudaStream_t stream) {
    byWideDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        centroidRescanKernel<kMaxD><<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, rowBytes, stream>>>(
            cfg, clusters, nearest, mergeLog, scratch, visited, targetItems, mode);
    });
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(newRowUpdateKernel<true>)

}  // namespace clusterlens::cuda::mhca
