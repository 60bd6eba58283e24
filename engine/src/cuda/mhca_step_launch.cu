// Launchers of the MHCA step kernels common to CMD and FMD, and the live-list compaction.

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <type_traits>

#include "cuda/kernels/mhca_step_kernels.cuh"
#include "cuda/mhca_launch.cuh"
#include "cuda/util/cuda_check.cuh"
#include "cuda/util/kernel_modules.cuh"

namespace clusterlens::cuda::mhca {
namespace {

constexpr int kNearestThreads = 128;

struct AliveSlot {
    const unsigned char* alive;
    __device__ bool operator()(int slot) const { return alive[slot] != 0; }
};

}  // namespace

std::size_t shapeSharedBytes(int d, int stageRows) {
    ShapeLayout layout{d, stageRows};
    return layout.doubles() * sizeof(double);
}

void launchSinglePointSlots(const MhcaConfig& cfg, const ClusterView& clusters, bool keepIds, cudaStream_t stream) {
    const int blocks = std::max(1, std::min((cfg.n + 255) / 256, 4096));
    singlePointSlotsKernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(cfg, clusters, keepIds ? 1 : 0);
    CL_CUDA_CHECK_LAUNCH();
}

void launchNearestPoints(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                         const MergeLogView& mergeLog, int rowBegin, int rowEnd, bool largest, cudaStream_t stream) {
    if (rowEnd <= rowBegin) return;
    const unsigned blocks = static_cast<unsigned>((rowEnd - rowBegin + kNearestThreads - 1) / kNearestThreads);
    const std::size_t perRow = cfg.d * sizeof(double) + sizeof(int);
    const int tileRows = static_cast<int>(std::clamp<std::size_t>(40 * 1024 / perRow, 1, kNearestThreads));
    const std::size_t shared = static_cast<std::size_t>(tileRows) * perRow;
    auto run = [&](auto instance) {
        constexpr int kMaxD = decltype(instance)::value;
        if (largest) {
            nearestPointKernel<kMaxD, true><<<blocks, kNearestThreads, shared, stream>>>(
                cfg, clusters, nearest, mergeLog, rowBegin, rowEnd, tileRows);
        } else {
            nearestPointKernel<kMaxD, false><<<blocks, kNearestThreads, shared, stream>>>(
                cfg, clusters, nearest, mergeLog, rowBegin, rowEnd, tileRows);
        }
    };
    byWideDimension(cfg.d, run);
    CL_CUDA_CHECK_LAUNCH();
}

void launchClosestPair(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                       const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                       int blocks, cudaStream_t stream) {
    closestPairKernel<<<static_cast<unsigned>(std::max(1, blocks)), kListThreads, 0, stream>>>(
        cfg, clusters, nearest, mergeLog, scratch, visited);
    CL_CUDA_CHECK_LAUNCH();
}

void launchMergeShape(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                      const MergeScratchView& scratch, int stageRows, double* globalWork, std::size_t sharedBytes,
                      cudaStream_t stream) {
    ShapeLayout layout{cfg.d, stageRows};
    mergeShapeKernel<<<1, kShapeThreads, globalWork ? 0 : sharedBytes, stream>>>(cfg, clusters, mergeLog, scratch,
                                                                                 layout, globalWork);
    CL_CUDA_CHECK_LAUNCH();
}

void launchSpeculativeShape(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                            const MergeLogView& mergeLog, const MergeScratchView& scratch,
                            const VisitedListView& visited, RowTop* parts, int blocks, int stageRows,
                            std::size_t sharedBytes, cudaStream_t stream) {
    blocks = std::max(1, blocks);
    fmdSpeculationScanKernel<<<static_cast<unsigned>(blocks), kListThreads, 0, stream>>>(clusters, nearest, mergeLog,
                                                                                         visited, parts);
    CL_CUDA_CHECK_LAUNCH();
    const bool staged = sharedBytes > 0;
    fmdSpeculativeShapeKernel<<<1, kShapeThreads, sharedBytes, stream>>>(cfg, clusters, nearest, mergeLog, scratch,
                                                                         ShapeLayout{cfg.d, staged ? stageRows : 0},
                                                                         staged ? 1 : 0, parts, blocks);
    CL_CUDA_CHECK_LAUNCH();
}

void launchScatterClusters(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                           const ClusterUpload& upload, cudaStream_t stream) {
    if (upload.count <= 0) return;
    const unsigned blocks = static_cast<unsigned>(std::min(upload.count, 4096));
    scatterClustersKernel<<<blocks, 128, 0, stream>>>(cfg, clusters, nearest, upload);
    CL_CUDA_CHECK_LAUNCH();
}

void launchSlotShapes(const MhcaConfig& cfg, const ClusterView& clusters, const int* slots, int count, int* sizes,
                      double* scatter, bool toCompact, cudaStream_t stream) {
    if (count <= 0) return;
    slotShapesKernel<<<static_cast<unsigned>(std::min(count, 4096)), 128, 0, stream>>>(cfg, clusters, slots, count,
                                                                                       sizes, scatter, toCompact);
    CL_CUDA_CHECK_LAUNCH();
}

std::size_t compactTempBytes(int n) {
    std::size_t bytes = 0;
    CL_CUDA_TRY(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int*>(nullptr), static_cast<int*>(nullptr),
                                      static_cast<int*>(nullptr), n, AliveSlot{nullptr}));
    return bytes;
}

void launchCompact(const int* in, int* out, int count, const unsigned char* alive, void* temp, std::size_t tempBytes,
                   int* selected, cudaStream_t stream) {
    CL_CUDA_TRY(cub::DeviceSelect::If(temp, tempBytes, in, out, selected, count, AliveSlot{alive}, stream));
}

void configureKernelLimits(std::size_t shapeBytes) {
    if (shapeBytes > 48 * 1024) {
        CL_CUDA_TRY(cudaFuncSetAttribute(mergeShapeKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shapeBytes)));
        CL_CUDA_TRY(cudaFuncSetAttribute(fmdSpeculativeShapeKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shapeBytes)));
    }
}

CL_CUDA_KERNEL_MODULE(singlePointSlotsKernel)

}  // namespace clusterlens::cuda::mhca
