// Launcher of the CMD group phase (mhca_group_kernels.cuh): its shared-memory layout, occupancy and grid.

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_group_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {
namespace {

/// Shared memory a group block asks for at most: several blocks share a multiprocessor, so that one
/// group's factorisation chain overlaps the others' work.
constexpr std::size_t kGroupSharedBudget = 64 * 1024;

template <int MAXD>
void setGroupLimits(std::size_t sharedBytes, int& perSm) {
    CL_CUDA_TRY(cudaFuncSetAttribute(cmdGroupKernel<MAXD>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(sharedBytes)));
    CL_CUDA_TRY(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, cmdGroupKernel<MAXD>, kGroupThreads, sharedBytes));
}

}  // namespace

GroupPhaseShape planGroupPhase(int d, int memberCap, int sms) {
    GroupPhaseShape shape;
    int device = 0, optIn = 0;
    CL_CUDA_TRY(cudaGetDevice(&device));
    CL_CUDA_TRY(cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const std::size_t budget = std::min<std::size_t>(static_cast<std::size_t>(optIn), kGroupSharedBudget);
    // The area also holds a staged row (d + 2 * packed doubles), which is less than its 3 d² matrices.
    const std::size_t base = ShapeLayout{d, 0}.doubles() * sizeof(double);
    if (base > budget) return shape;
    const std::size_t fit = (budget - base) / (static_cast<std::size_t>(d) * sizeof(double));
    shape.stageRows = static_cast<int>(std::min<std::size_t>(fit, static_cast<std::size_t>(memberCap)));
    shape.areaDoubles = static_cast<int>(ShapeLayout{d, shape.stageRows}.doubles());
    shape.sharedBytes = static_cast<std::size_t>(shape.areaDoubles) * sizeof(double);
    int perSm = 0;
    byWideDimension(d, [&](auto instance) { setGroupLimits<decltype(instance)::value>(shape.sharedBytes, perSm); });
    shape.maxBlocks = perSm * std::max(1, sms);
    return shape;
}

void launchCmdGroups(const MhcaView& v, const GroupPhaseArgs& args, const GroupPhaseShape& shape, cudaStream_t stream) {
    const unsigned blocks = static_cast<unsigned>(std::clamp(args.groups, 1, std::max(1, shape.maxBlocks)));
    byWideDimension(v.cfg.d, [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        cmdGroupKernel<kMaxD><<<blocks, kGroupThreads, shape.sharedBytes, stream>>>(v, args);
    });
    CL_CUDA_CHECK_LAUNCH();
}

CL_CUDA_KERNEL_MODULE(cmdGroupKernel<16>)

}  // namespace clusterlens::cuda::mhca
