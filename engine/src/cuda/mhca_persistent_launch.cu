// Launcher of the persistent CMD kernel: its shared-memory layout, occupancy check and cooperative
// launch (a grid barrier needs every block resident, which cudaLaunchCooperativeKernel guarantees).

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_growth_kernel.cuh"
#include "cuda/kernels/mhca_persistent_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {
namespace {

/// Shared memory the persistent kernel asks for at most (the shape area with its staged member rows
/// and the merged metric); the rest of the multiprocessor's shared memory stays L1.
constexpr std::size_t kPersistentSharedBudget = 96 * 1024;
/// Its static shared memory (reduction scratch, plan, results), kept out of the budget.
constexpr std::size_t kPersistentStaticReserve = 16 * 1024;

/// Runners unknown for every slot (bound +inf): rows computed without lists rescan when stale.
__global__ void forgetRunnersKernel(const __grid_constant__ MhcaConfig cfg,
                                    const __grid_constant__ NearestRowView nearest) {
    for (int s = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); s < cfg.n;
         s += static_cast<int>(gridDim.x * blockDim.x)) {
        nearest.runCount[s] = 0;
        nearest.runBound[s] = __longlong_as_double(0x7ff0000000000000LL);
    }
}

/// Every live slot of the visited list into the rescan list.
__global__ void listLiveRowsKernel(const __grid_constant__ ClusterView clusters,
                                   const __grid_constant__ MergeScratchView scratch,
                                   const __grid_constant__ VisitedListView visited) {
    for (int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); t < visited.length;
         t += static_cast<int>(gridDim.x * blockDim.x))
        if (clusters.alive[visited.list[t]]) appendRescan(scratch, visited.list[t]);
}

}  // namespace

PersistentShape planPersistentCmd(int d, int memberCap, int sms) {
    PersistentShape shape;
    if (dimensionInstance(d) == 0) return shape;
    int device = 0, cooperative = 0, optIn = 0;
    CL_CUDA_TRY(cudaGetDevice(&device));
    CL_CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    CL_CUDA_TRY(cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (!cooperative) return shape;
    const std::size_t budget =
        std::min<std::size_t>(static_cast<std::size_t>(optIn), kPersistentSharedBudget) - kPersistentStaticReserve;
    const std::size_t packed = static_cast<std::size_t>(d) * (d + 1) / 2;
    // A rescan pass stages its rows where the shape area was.
    const std::size_t rescanArea = kRescanRowsPerPass * (d + 2 * packed);
    const std::size_t fixed = std::max<std::size_t>(ShapeLayout{d, 0}.doubles(), rescanArea) + packed;
    if (fixed * sizeof(double) > budget) return shape;
    const std::size_t fit = (budget / sizeof(double) - fixed) / static_cast<std::size_t>(d);
    shape.stageRows = static_cast<int>(std::min<std::size_t>(fit, static_cast<std::size_t>(memberCap)));
    shape.areaDoubles = static_cast<int>(std::max<std::size_t>(ShapeLayout{d, shape.stageRows}.doubles(), rescanArea));
    shape.sharedBytes = (static_cast<std::size_t>(shape.areaDoubles) + packed) * sizeof(double);
    int perSm = 0;
    byDimension(d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD > 0) {
            int timedPerSm = 0;
            CL_CUDA_TRY(cudaFuncSetAttribute(cmdPersistentKernel<kMaxD, false>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(shape.sharedBytes)));
            CL_CUDA_TRY(cudaFuncSetAttribute(cmdPersistentKernel<kMaxD, true>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(shape.sharedBytes)));
            CL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, cmdPersistentKernel<kMaxD, false>,
                                                                      kPersistentThreads, shape.sharedBytes));
            CL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&timedPerSm, cmdPersistentKernel<kMaxD, true>,
                                                                      kPersistentThreads, shape.sharedBytes));
            perSm = std::min(perSm, timedPerSm);
        }
    });
    shape.maxBlocks = perSm >= 1 ? std::max(1, sms) : 0;
    // The growth kernel beside it: the same shape area, then the pair's two member lists.
    shape.growthBytes = static_cast<std::size_t>(ShapeLayout{d, shape.stageRows}.doubles()) * sizeof(double) +
                        2 * static_cast<std::size_t>(memberCap) * sizeof(int);
    if (shape.maxBlocks > 0 && shape.growthBytes + kPersistentStaticReserve <= static_cast<std::size_t>(optIn)) {
        CL_CUDA_TRY(cudaFuncSetAttribute(cmdGrowthKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shape.growthBytes)));
    } else {
        shape.growthBytes = 0;
    }
    return shape;
}

int persistentBlocks(const PersistentShape& shape, int listLen) {
    // Every multiprocessor once the list has shape.blockEntries entries for each (a sixteenth of a
    // block's threads): a merge's phases are chains of round trips, which a block with fewer entries
    // finishes sooner, and more blocks cost less than that (H200, CMD 44K×14: 1.43 s against 1.46 s
    // with 256 entries, whose last 5.5K merges ran on 6-22 blocks at 38-43 µs each; 36-37 µs with 64).
    const int per = std::max(1, shape.blockEntries);
    return std::clamp((listLen + per - 1) / per, 1, std::max(1, shape.maxBlocks));
}

void launchCmdPersistent(const MhcaView& v, const PersistentArgs& args, int blocks, std::size_t sharedBytes,
                         cudaStream_t stream) {
    MhcaView view = v;
    PersistentArgs persistent = args;
    void* params[] = {&view, &persistent};
    byDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if constexpr (kMaxD > 0) {
            const void* kernel = args.profile != nullptr
                                     ? reinterpret_cast<const void*>(&cmdPersistentKernel<kMaxD, true>)
                                     : reinterpret_cast<const void*>(&cmdPersistentKernel<kMaxD, false>);
            CL_CUDA_TRY(cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(blocks)),
                                                    dim3(kPersistentThreads), params, sharedBytes, stream));
        }
    });
    CL_CUDA_CHECK_LAUNCH();
}

void launchCmdGrowth(const MhcaView& v, const GrowthShared& growth, int workers, const PersistentShape& shape,
                     cudaStream_t stream) {
    cmdGrowthKernel<<<1, kPersistentThreads, shape.growthBytes, stream>>>(v, growth, workers, shape.stageRows);
    CL_CUDA_CHECK_LAUNCH();
}

void launchListLiveRows(const ClusterView& clusters, const MergeScratchView& scratch, const VisitedListView& visited,
                        cudaStream_t stream) {
    listLiveRowsKernel<<<std::max(1, std::min(1024, (visited.length + 255) / 256)), 256, 0, stream>>>(clusters, scratch,
                                                                                                      visited);
    CL_CUDA_CHECK_LAUNCH();
}

void launchForgetRunners(const MhcaConfig& cfg, const NearestRowView& nearest, cudaStream_t stream) {
    forgetRunnersKernel<<<256, 256, 0, stream>>>(cfg, nearest);
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(forgetRunnersKernel)

}  // namespace clusterlens::cuda::mhca
