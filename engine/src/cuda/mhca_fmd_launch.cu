// Launchers of the FMD member kernels.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_fmd_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {
void launchFmdRotate(const ClusterView& clusters, const MergeLogView& mergeLog, int* temp, int blocks,
                     cudaStream_t stream) {
    fmdRotateKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(clusters, mergeLog, temp);
    CL_CUDA_CHECK_LAUNCH();
}

void launchFmdPlace(const ClusterView& clusters, const MergeLogView& mergeLog, const VisitedListView& visited,
                    const int* temp, int blocks, cudaStream_t stream) {
    fmdPlaceKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(clusters, mergeLog, visited,
                                                                                            temp);
    CL_CUDA_CHECK_LAUNCH();
}

namespace {
/// Member points per load of a cluster's metric in the member pass: 2 (4 needs 200 registers at
/// d = 16 and halves the resident warps); the generic instance (d > 16) takes one.
template <int MAXD, int POINTS>
void launchMemberPass(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                      const VisitedListView& visited, const FmdBatch& batch, dim3 grid, std::size_t stageBytes,
                      cudaStream_t stream) {
    fmdMemberPassKernel<MAXD, POINTS>
        <<<grid, kMemberBlock, stageBytes, stream>>>(cfg, clusters, mergeLog, visited, batch);
    CL_CUDA_CHECK_LAUNCH();
}
}  // namespace

int fmdGridRows(const FmdBatch& batch) {
    return batch.rowLimit ? std::min(batch.rowCount, kFmdRowBlocks) : batch.rowCount;
}

void launchFmdPointPass(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                        const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream) {
    const unsigned rows = static_cast<unsigned>(std::max(1, fmdGridRows(batch)));
    byDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        fmdPointPassKernel<kMaxD><<<dim3(static_cast<unsigned>(batch.tiles), rows), kTile, rowBytes, stream>>>(
            cfg, clusters, mergeLog, batch);
        CL_CUDA_CHECK_LAUNCH();
    });
}

void launchFmdMemberPass(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                         const VisitedListView& visited, const FmdBatch& batch, cudaStream_t stream) {
    const unsigned rows = static_cast<unsigned>(std::max(1, fmdGridRows(batch)));
    const unsigned memberBlocks =
        static_cast<unsigned>(std::max(1, (visited.length + kMemberBlock - 1) / kMemberBlock));
    const std::size_t stageBytes = static_cast<std::size_t>(batch.stage) * cfg.d * sizeof(double);
    const dim3 grid(memberBlocks, static_cast<unsigned>(batch.chunks), rows);
    byDimension(cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD == 0) {
            launchMemberPass<0, 1>(cfg, clusters, mergeLog, visited, batch, grid, stageBytes, stream);
        } else {
            launchMemberPass<kMaxD, 2>(cfg, clusters, mergeLog, visited, batch, grid, stageBytes, stream);
        }
    });
}

void launchFmdSums(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                   const VisitedListView& visited, const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream) {
    launchFmdPointPass(cfg, clusters, mergeLog, batch, rowBytes, stream);
    launchFmdMemberPass(cfg, clusters, mergeLog, visited, batch, stream);
}

void launchFmdNewDistances(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                           const MergeScratchView& scratch, const VisitedListView& visited, const FmdBatch& batch,
                           cudaStream_t stream) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (visited.length + kListThreads - 1) / kListThreads));
    fmdNewDistancesKernel<<<blocks, kListThreads, 0, stream>>>(cfg, clusters, mergeLog, scratch, visited, batch);
    CL_CUDA_CHECK_LAUNCH();
}

void launchFmdFinalize(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                       const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                       const FmdBatch& batch, int blocks, int targetItems, int mode, cudaStream_t stream) {
    fmdFinalizeKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(
        cfg, clusters, nearest, mergeLog, scratch, visited, batch, targetItems, mode);
    CL_CUDA_CHECK_LAUNCH();
}

void launchApplyShift(const MergeLogView& mergeLog, const MergeScratchView& scratch, cudaStream_t stream) {
    applyShiftKernel<<<1, 32, 0, stream>>>(mergeLog, scratch);
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(fmdRotateKernel)

}  // namespace clusterlens::cuda::mhca
