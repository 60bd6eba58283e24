// Launchers of the CMD neighbour-array kernels.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_cmd_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"

namespace clusterlens::cuda::mhca {
void launchCentroidNewDistances(const MhcaView& v, std::size_t rowBytes, cudaStream_t stream) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (v.listLen + kListThreads - 1) / kListThreads));
    byWideDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        centroidNewDistancesKernel<kMaxD><<<blocks, kListThreads, rowBytes, stream>>>(v);
    });
    CL_CUDA_CHECK_LAUNCH();
}

void launchNewRowUpdate(const MhcaView& v, cudaStream_t stream, bool runners) {
    const unsigned blocks = static_cast<unsigned>(std::max(1, (v.listLen + kListThreads - 1) / kListThreads));
    if (runners) {
        newRowUpdateKernel<true><<<blocks, kListThreads, 0, stream>>>(v);
    } else {
        newRowUpdateKernel<false><<<blocks, kListThreads, 0, stream>>>(v);
    }
    CL_CUDA_CHECK_LAUNCH();
}

void launchCentroidRescan(const MhcaView& v, int blocks, int targetItems, std::size_t rowBytes, int mode,
                          cudaStream_t stream) {
    byWideDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        centroidRescanKernel<kMaxD>
            <<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, rowBytes, stream>>>(v, targetItems, mode);
    });
    CL_CUDA_CHECK_LAUNCH();
}

}  // namespace clusterlens::cuda::mhca
