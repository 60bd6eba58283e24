// Launchers of the FMD member kernels.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_fmd_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
void launchFmdRotate(const MhcaView& v, int* temp, int blocks, cudaStream_t stream) {
    fmdRotateKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(v, temp);
    CL_CUDA_CHECK_LAUNCH();
}

void launchFmdPlace(const MhcaView& v, const int* temp, int blocks, cudaStream_t stream) {
    fmdPlaceKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(v, temp);
    CL_CUDA_CHECK_LAUNCH();
}

namespace {
/// Member points per load of a cluster's metric in the member pass: 2 (4 needs 200 registers at
/// d = 16 and halves the resident warps); the generic instance (d > 16) takes one.
template <int MAXD, int POINTS>
void launchMemberPass(const MhcaView& v, const FmdBatch& batch, dim3 grid, std::size_t stageBytes,
                      cudaStream_t stream) {
    fmdMemberPassKernel<MAXD, POINTS><<<grid, kMemberBlock, stageBytes, stream>>>(v, batch);
    CL_CUDA_CHECK_LAUNCH();
}
}  // namespace

int fmdGridRows(const FmdBatch& batch) {
    return batch.rowLimit ? std::min(batch.rowCount, kFmdRowBlocks) : batch.rowCount;
}

void launchFmdPointPass(const MhcaView& v, const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream) {
    const unsigned rows = static_cast<unsigned>(std::max(1, fmdGridRows(batch)));
    byDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        fmdPointPassKernel<kMaxD>
            <<<dim3(static_cast<unsigned>(batch.tiles), rows), kTile, rowBytes, stream>>>(v, batch);
        CL_CUDA_CHECK_LAUNCH();
    });
}

void launchFmdMemberPass(const MhcaView& v, const FmdBatch& batch, cudaStream_t stream) {
    const unsigned rows = static_cast<unsigned>(std::max(1, fmdGridRows(batch)));
    const unsigned memberBlocks = static_cast<unsigned>(std::max(1, (v.listLen + kMemberBlock - 1) / kMemberBlock));
    const std::size_t stageBytes = static_cast<std::size_t>(batch.stage) * v.cfg.d * sizeof(double);
    const dim3 grid(memberBlocks, static_cast<unsigned>(batch.chunks), rows);
    byDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD == 0) {
            launchMemberPass<0, 1>(v, batch, grid, stageBytes, stream);
        } else {
            launchMemberPass<kMaxD, 2>(v, batch, grid, stageBytes, stream);
        }
    });
}

void launchFmdSums(const MhcaView& v, const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream) {
    launchFmdPointPass(v, batch, rowBytes, stream);
    launchFmdMemberPass(v, batch, stream);
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
