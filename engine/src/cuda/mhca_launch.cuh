#pragma once
// Host launchers of the MHCA kernels: each sizes its grid, picks the register-resident instance for
// the dimension (d <= 4, 8, 16, for some kernels 24; any d otherwise) and checks the launch. Kernels live in
// cuda/kernels/mhca_*_kernels.cuh, each included by exactly one launcher source.

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "cuda/mhca_types.cuh"

namespace clusterlens::cuda::mhca {

/// Threads per block of the list-wide kernels.
constexpr int kListThreads = 256;
/// Threads of the single-block shape kernel.
constexpr int kShapeThreads = 256;

/// Instance of the dimension-templated kernels: 4, 8 or 16 (registers), 0 (any d).
inline int dimensionInstance(int d) {
    return d <= 4 ? 4 : d <= 8 ? 8 : d <= 16 ? 16 : 0;
}

/// Calls run(std::integral_constant<int, K>{}) with the kernel instance K for dimension d.
template <typename Run>
void byDimension(int d, Run&& run) {
    switch (dimensionInstance(d)) {
        case 4:
            run(std::integral_constant<int, 4>{});
            break;
        case 8:
            run(std::integral_constant<int, 8>{});
            break;
        case 16:
            run(std::integral_constant<int, 16>{});
            break;
        default:
            run(std::integral_constant<int, 0>{});
            break;
    }
}

/// byDimension with a register instance for 16 < d <= 24 as well, for the kernels whose registers
/// allow it (one cluster's forms per thread, 256 threads): the CMD per-stage kernels, the initial
/// nearest points and the group kernel. The any-d forms reload both means for every matrix entry.
template <typename Run>
void byWideDimension(int d, Run&& run) {
    if (d > 16 && d <= 24) {
        run(std::integral_constant<int, 24>{});
    } else if (d > 24 && d <= 40) {
        run(std::integral_constant<int, 40>{});
    } else {
        byDimension(d, run);
    }
}

/// Shared memory of the shape kernel for d and staged member rows (0 when it does not fit and the
/// kernel works in global scratch instead).
std::size_t shapeSharedBytes(int d, int stageRows);
/// Raises the shape kernel's dynamic shared-memory limit when its layout needs more than 48 KiB.
void configureKernelLimits(std::size_t shapeBytes);

/// Every slot a single point: its size, position, id (unless keepIds), birth, nmf, weight, mean and,
/// for CMD, member list (singlePointSlotsKernel). O(n·d).
void launchSinglePointSlots(const MhcaConfig& cfg, const ClusterView& clusters, bool keepIds, cudaStream_t stream);
/// Single points of the same group: kLargest pass (maxDistX) or the initial nearest-neighbour keys.
void launchNearestPoints(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                         const MergeLogView& mergeLog, int rowBegin, int rowEnd, bool largest, cudaStream_t stream);
void launchClosestPair(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                       const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                       int blocks, cudaStream_t stream);
void launchMergeShape(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                      const MergeScratchView& scratch, int stageRows, double* globalWork, std::size_t sharedBytes,
                      cudaStream_t stream);
/// FMD: the shape of the likely next merge, ahead of it: a scan of the rows (`blocks` blocks, their bests
/// in parts), then one block (sharedBytes 0: it works in its global area).
void launchSpeculativeShape(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                            const MergeLogView& mergeLog, const MergeScratchView& scratch,
                            const VisitedListView& visited, RowTop* parts, int blocks, int stageRows,
                            std::size_t sharedBytes, cudaStream_t stream);
/// Scatters the initial clusters of a run that starts from clusters into their slots.
void launchScatterClusters(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                           const ClusterUpload& upload, cudaStream_t stream);

/// The sizes and packed scatter matrices of `count` slots (device array `slots`) gathered into the compact
/// buffers (toCompact: sizes[t], scatter[t · packed + e]) or written from them into the slots.
void launchSlotShapes(const MhcaConfig& cfg, const ClusterView& clusters, const int* slots, int count, int* sizes,
                      double* scatter, bool toCompact, cudaStream_t stream);

/// CMD: the merged cluster's distances to the list and the shift (one block per kListThreads entries).
void launchCentroidNewDistances(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                                const MergeScratchView& scratch, const VisitedListView& visited, std::size_t rowBytes,
                                cudaStream_t stream);
/// CMD and FMD: keys of the merged cluster's row, updates of the earlier rows, rescan marks; with
/// `runners` (FMD) the rows' runners-up are kept and answer stale rows where they can.
void launchNewRowUpdate(const ClusterView& clusters, const NearestRowView& nearest, const MergeLogView& mergeLog,
                        const MergeScratchView& scratch, const VisitedListView& visited, cudaStream_t stream,
                        bool runners = false);
/// CMD: the marked rows against their later partners (mode: 0 keys, 1 largest distance).
void launchCentroidRescan(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                          const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                          int blocks, int targetItems, std::size_t rowBytes, int mode, cudaStream_t stream);

/// FMD: the member block move of the step's merge (rotation through `temp`, starts, owners).
/// (1) the rotation of perm's positions [endA, endB) into `temp`; the merged cluster's shape may read b's
/// members there while (2) fmdPlaceKernel copies them back and updates starts and owners.
void launchFmdRotate(const ClusterView& clusters, const MergeLogView& mergeLog, int* temp, int blocks,
                     cudaStream_t stream);
void launchFmdPlace(const ClusterView& clusters, const MergeLogView& mergeLog, const VisitedListView& visited,
                    const int* temp, int blocks, cudaStream_t stream);
/// FMD: blocks along the rows of a device-sized batch (each loops over the rows it is dealt): most
/// merges mark a few rows, and blocks past the marked rows leave at once.
constexpr int kFmdRowBlocks = 4;
/// Row blocks a launch over the batch uses (kFmdRowBlocks at most when it is sized on the device).
int fmdGridRows(const FmdBatch& batch);
/// FMD: Σ_{x∈j} m(x, row) for every live cluster j and batch row (a pass over all points).
void launchFmdPointPass(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                        const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream);
/// FMD: Σ_{x∈row} m(x, j) for every live cluster j and batch row; independent of the point pass.
void launchFmdMemberPass(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                         const VisitedListView& visited, const FmdBatch& batch, cudaStream_t stream);
/// FMD: both member sums of the batch rows against every live cluster (the two passes in turn).
void launchFmdSums(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                   const VisitedListView& visited, const FmdBatch& batch, std::size_t rowBytes, cudaStream_t stream);
/// FMD: the merged cluster's distances from its sums and the shift.
void launchFmdNewDistances(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                           const MergeScratchView& scratch, const VisitedListView& visited, const FmdBatch& batch,
                           cudaStream_t stream);
/// FMD: the batch rows' keys (mode 0), smallest key (1) or largest distance (2) from their sums.
void launchFmdFinalize(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                       const MergeLogView& mergeLog, const MergeScratchView& scratch, const VisitedListView& visited,
                       const FmdBatch& batch, int blocks, int targetItems, int mode, cudaStream_t stream);
/// The shift decided by an all-pairs smallest-key pass.
void launchApplyShift(const MergeLogView& mergeLog, const MergeScratchView& scratch, cudaStream_t stream);

/// Launch shape of the persistent CMD kernel for a dimension; maxBlocks == 0: it cannot run here
/// (d > 16, no cooperative launch, or its shared memory does not fit), use the per-stage kernels.
struct PersistentShape {
    int maxBlocks = 0;  ///< one per multiprocessor (co-resident: a cooperative launch needs that)
    int stageRows = 0;
    int areaDoubles = 0;
    std::size_t sharedBytes = 0;
    std::size_t growthBytes = 0;  ///< the growth kernel's dynamic shared memory (0: it does not fit)
    int blockEntries = 32;        ///< list entries per block below one block per multiprocessor
};
PersistentShape planPersistentCmd(int d, int memberCap, int sms);
/// Blocks of a launch over a visited list of listLen entries (shape.blockEntries per block, at most one
/// block per multiprocessor).
int persistentBlocks(const PersistentShape& shape, int listLen);
/// CMD: up to args.merges merge steps in one cooperative launch (mhca_persistent_kernels.cuh).
void launchCmdPersistent(const MhcaView& v, const PersistentArgs& args, int blocks, std::size_t sharedBytes,
                         cudaStream_t stream);
/// CMD: the growth kernel (mhca_growth_kernel.cuh), one block beside a persistent launch whose first
/// `workers` blocks own entries, on another stream; it ends when that launch ends. growth: reset by the
/// caller (plans, intents and records all ones, stop zero; the nearest keys are tagged). Needs
/// shape.growthBytes > 0.
void launchCmdGrowth(const MhcaView& v, const GrowthShared& growth, int workers, const PersistentShape& shape,
                     cudaStream_t stream);
/// Marks every row's runners-up unknown (rows whose neighbours the per-stage kernels computed).
void launchForgetRunners(const MhcaConfig& cfg, const NearestRowView& nearest, cudaStream_t stream);
/// Puts every live slot of the list into the rescan list (any order: each row's result is its own).
void launchListLiveRows(const ClusterView& clusters, const MergeScratchView& scratch, const VisitedListView& visited,
                        cudaStream_t stream);
/// Every listed row's best partner, runners-up and bound while every cluster is a single point and no
/// key has shifted (mhca_prologue_kernels.cuh): the first rescan of every row as one tiled pass,
/// O(N²·d) work, d <= 16 (dimensionInstance(d) > 0). `fused`: FMD's sums (fused multiply-adds).
void launchSingletonRows(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                         const MergeLogView& mergeLog, const VisitedListView& visited, bool fused, cudaStream_t stream);
/// CMD: the same rows' state and the group's maxDistX (which must be 0 before: no largest pass ran)
/// from one pass over the pairs (mhca_singleton_pairs_kernels.cuh), O(N²·d / 2) work, for a list of
/// single points in position order (the start's). Rows whose keys tie beyond their kept partners
/// get runCount -1 (all rows with flagAll, a test of that path): launchSingletonRowsFlagged next.
void launchSingletonPairs(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                          const MergeLogView& mergeLog, const VisitedListView& visited, bool flagAll,
                          cudaStream_t stream);
/// launchSingletonRows' pass for the rows whose runCount is -1 only (a block without one returns).
void launchSingletonRowsFlagged(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                                const MergeLogView& mergeLog, const VisitedListView& visited, cudaStream_t stream);

/// Launch shape of the CMD group phase; maxBlocks == 0: its shared memory does not fit (large d).
struct GroupPhaseShape {
    int maxBlocks = 0;  ///< resident blocks on the whole device
    int stageRows = 0;
    int areaDoubles = 0;
    std::size_t sharedBytes = 0;
};
GroupPhaseShape planGroupPhase(int d, int memberCap, int sms);
/// Warps of a group block (its threads are kGroupWarps * 32).
constexpr int kGroupWarps = 8;
/// CMD apriori groups below the threshold, a block per group (mhca_group_kernels.cuh).
void launchCmdGroups(const MhcaView& v, const GroupPhaseArgs& args, const GroupPhaseShape& shape, cudaStream_t stream);

/// Keeps the live slots of `in` (ascending) in `out`; `temp` from compactTempBytes.
std::size_t compactTempBytes(int n);
void launchCompact(const int* in, int* out, int count, const unsigned char* alive, void* temp, std::size_t tempBytes,
                   int* selected, cudaStream_t stream);

}  // namespace clusterlens::cuda::mhca
