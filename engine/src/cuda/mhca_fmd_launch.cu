// Launchers of the FMD member kernels.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_fmd_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
void launchFmdMove(const MhcaView& v, int* temp, int blocks, cudaStream_t stream) {
    const unsigned grid = static_cast<unsigned>(std::max(1, blocks));
    fmdRotateKernel<<<grid, kListThreads, 0, stream>>>(v, temp);
    CL_CUDA_CHECK_LAUNCH();
    fmdPlaceKernel<<<grid, kListThreads, 0, stream>>>(v, temp);
    CL_CUDA_CHECK_LAUNCH();
}

int fmdGridRows(const FmdBatch& batch) {
    return batch.rowLimit ? std::min(batch.rowCount, kFmdRowBlocks) : batch.rowCount;
}

void launchFmdSums(const MhcaView& v, const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream) {
    const unsigned rows = static_cast<unsigned>(std::max(1, fmdGridRows(batch)));
    const unsigned memberBlocks = static_cast<unsigned>(std::max(1, (v.listLen + kMemberBlock - 1) / kMemberBlock));
    const std::size_t stageBytes = static_cast<std::size_t>(batch.stage) * v.cfg.d * sizeof(double);
    byDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        fmdPointPassKernel<kMaxD>
            <<<dim3(static_cast<unsigned>(batch.tiles), rows), kTile, rowBytes, stream>>>(v, batch);
        CL_CUDA_CHECK_LAUNCH();
        fmdMemberPassKernel<kMaxD>
            <<<dim3(memberBlocks, static_cast<unsigned>(batch.chunks), rows), kMemberBlock, stageBytes, stream>>>(
                v, batch);
        CL_CUDA_CHECK_LAUNCH();
    });
}

void launchFmdNewDistances(const MhcaView& v, const FmdBatch& batch, cudaStream_t stream) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (v.listLen + kListThreads - 1) / kListThreads));
    fmdNewDistancesKernel<<<blocks, kListThreads, 0, stream>>>(v, batch);
    CL_CUDA_CHECK_LAUNCH();
}

void launchFmdFinalize(const MhcaView& v, const FmdBatch& batch, int blocks, int targetItems, int mode,
                       cudaStream_t stream) {
    fmdFinalizeKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(v, batch, targetItems,
                                                                                               mode);
    CL_CUDA_CHECK_LAUNCH();
}

void launchApplyShift(const MhcaView& v, cudaStream_t stream) {
    applyShiftKernel<<<1, 32, 0, stream>>>(v);
    CL_CUDA_CHECK_LAUNCH();
}

}  // namespace clusterlens::cuda::mhca
