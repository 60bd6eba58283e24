#pragma once
// MhcaEngine's device state, one object per concern: the clusters' moments, the nearest-partner rows,
// the merge log, the visited list and its compaction, the merge loop's scratch, the persistent
// kernel's state and the apriori group phase's. Each owns its buffers and lists them once (visitBuffers), so the same
// list gives its byte count before anything is allocated (partBytes), allocates it (allocatePart), and fills the
// kernels' views of it.

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "cuda/mhca_launch.cuh"
#include "cuda/mhca_types.cuh"
#include "cuda/util/device_buffer.cuh"

namespace clusterlens::cuda::mhca {

/// Entries of a cluster array moved per pass of moveLiveSlots (its scratch holds that many per slot).
constexpr int kSlotMoveChunk = 16;

/// What sizes the arrays of one run: the data's shape and the engine's plan for it (from the device,
/// n, d and the policy). Counts are elements, not bytes.
struct MhcaSizing {
    std::size_t n = 0;
    std::size_t d = 0;
    std::size_t packed = 0;            ///< d(d+1)/2
    bool full = false;                 ///< FMD
    std::size_t memberCap = 0;         ///< member-list entries per slot (CMD)
    std::size_t partials = 0;          ///< RowTop partials of the per-stage reductions
    std::size_t fmdRows = 0;           ///< FMD rows per device pass
    std::size_t tiles = 0;             ///< 256-point tiles of the FMD sums
    std::size_t sms = 0;               ///< multiprocessors
    std::size_t shapeAreaBytes = 0;    ///< a shape area in global memory (shapeSharedBytes(d, 0))
    bool shapeInGlobal = false;        ///< the shape kernel works in global memory (its area does not fit)
    std::size_t compactBytes = 0;      ///< the compaction's temporary storage
    std::size_t persistentBlocks = 0;  ///< 0: no persistent kernel
    std::size_t growthStride = 0;      ///< growth-kernel entries per merge
    bool profiled = false;             ///< the per-block phase sums of the profile
};

template <typename T>
constexpr std::size_t elementBytes(const DeviceBuffer<T>&) {
    return sizeof(T);
}

/// Bytes of a part's buffers for `z`, before anything is allocated.
template <class Part, class Sizing>
std::size_t partBytes(const Sizing& z) {
    Part part;
    std::size_t sum = 0;
    part.visitBuffers(z, [&](auto& buffer, std::size_t count) { sum += count * elementBytes(buffer); });
    return sum;
}

/// Allocates every buffer of a part on stream `s` (throws OutOfDeviceMemory).
template <class Part, class Sizing>
void allocatePart(Part& part, const Sizing& z, cudaStream_t s) {
    part.visitBuffers(z, [&](auto& buffer, std::size_t count) { buffer = std::decay_t<decltype(buffer)>(count, s); });
}

/// The points and the clusters' moments and members (ClusterView), by slot.
struct ClusterState {
    DeviceBuffer<double> x;  ///< n x d points
    DeviceBuffer<int> size, pos, id, birth, group;
    DeviceBuffer<signed char> mode, identity;
    DeviceBuffer<unsigned char> alive;
    DeviceBuffer<double> mu, metric, scaled, scatter, nmf, weight;
    DeviceBuffer<int> members;
    DeviceBuffer<int> start, perm, pointSlot, temp;  ///< FMD: the member order and the rotation's scratch

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        const std::size_t n = z.n;
        visit(x, n * z.d);
        for (DeviceBuffer<int>* b : {&size, &pos, &id, &birth, &group}) visit(*b, n);
        visit(members, z.full ? 0 : n * z.memberCap);
        visit(mode, n);
        visit(identity, n);
        visit(alive, n);
        visit(mu, n * z.d);
        for (DeviceBuffer<double>* b : {&metric, &scaled, &scatter}) visit(*b, n * z.packed);
        visit(nmf, n);
        visit(weight, n);
        for (DeviceBuffer<int>* b : {&start, &perm, &pointSlot, &temp}) visit(*b, z.full ? n : 0);
    }
    /// Zeroes the metrics (rows whose metric stays the identity are staged, never used) and scatters.
    void clear(cudaStream_t s);
    /// The kernels' pointers into this state (moved: FMD's rotation scratch, `temp`).
    ClusterView view();
};

/// The nearest-partner rows: each row's best later partner, its key, the bound of the others, and its
/// runners-up (mhca_runner_device.cuh).
struct NearestRowState {
    DeviceBuffer<int> nn;
    DeviceBuffer<double> nnKey, nnBefore;
    DeviceBuffer<double> runKey, runBound;
    DeviceBuffer<int> runSlot, runPos, runBirth, runCount;

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        const std::size_t n = z.n;
        visit(nn, n);
        visit(nnKey, n);
        visit(nnBefore, n);
        visit(runKey, n * kRunners);
        for (DeviceBuffer<int>* b : {&runSlot, &runPos, &runBirth}) visit(*b, n * kRunners);
        visit(runCount, n);
        visit(runBound, n);
    }
    /// Zeroes the runner lists (resolveRow loads a whole list, entries past its count included).
    void clear(cudaStream_t s);
    NearestRowView view();
};

/// The merge log: the step being made, the groups' state, the merge records and the key-shift log.
struct MergeLogState {
    DeviceBuffer<Step> step, haltStep;
    DeviceBuffer<int> halt;
    DeviceBuffer<GroupState> groups;
    DeviceBuffer<int> mergeCount, outA, outB, outSize, outGroup;
    DeviceBuffer<double> outHeight;
    DeviceBuffer<int> shiftCount, shiftTime, shiftGroup;
    DeviceBuffer<double> shiftAmount, shiftMaxBefore;

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        const std::size_t n = z.n;
        visit(step, 1);
        visit(haltStep, 1);
        visit(halt, 1);
        visit(groups, n);
        visit(mergeCount, 1);
        for (DeviceBuffer<int>* b : {&outA, &outB, &outSize, &outGroup}) visit(*b, n);
        visit(outHeight, n);
        visit(shiftCount, 1);
        visit(shiftTime, n);
        visit(shiftGroup, n);
        visit(shiftAmount, n);
        visit(shiftMaxBefore, n);
    }
    /// Zeroes the counts: no merge, no shift, no halt.
    void clear(cudaStream_t s);
    MergeLogView view();
};

/// The visited list and its compaction (the slot move's scratch with the persistent kernel).
struct VisitedListState {
    DeviceBuffer<int> list, listSpare, selected;
    DeviceBuffer<unsigned char> compactTemp;
    DeviceBuffer<double> slotScratch;  ///< (n / 2 + 1) x kSlotMoveChunk values of the slot move
    DeviceBuffer<int> slotMap;

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        visit(list, z.n);
        visit(listSpare, z.n);
        visit(selected, 1);
        visit(compactTemp, z.compactBytes);
        // compaction moves at most n / 2 live slots
        visit(slotScratch, z.persistentBlocks > 0 ? (z.n / 2 + 1) * kSlotMoveChunk : 0);
        visit(slotMap, z.persistentBlocks > 0 ? z.n : 0);
    }
    /// The kernels' view of the list's first `length` entries (`identity`: list[t] == t for each).
    VisitedListView view(int length, bool identity);
};

/// The per-stage merge loop's scratch: new distances, rescans, reductions, the shape's global area,
/// and FMD's sums and speculated shapes.
struct MergeScratchState {
    DeviceBuffer<double> newDist, extreme;
    DeviceBuffer<int> rescanRows, rescanCount;
    DeviceBuffer<RowTop> partials;
    DeviceBuffer<unsigned int> counters;
    DeviceBuffer<double> shapeWork;
    DeviceBuffer<double> h1, tileParts, h2;
    DeviceBuffer<SpecShape> spec;
    DeviceBuffer<RowTop> specParts;  ///< the speculation scan's block results (2 * sms)
    DeviceBuffer<double> specArea;

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        const std::size_t n = z.n;
        visit(newDist, n);
        visit(extreme, 1);
        visit(rescanRows, n);
        visit(rescanCount, 1);
        visit(partials, z.partials);
        visit(counters, n + 2);
        visit(shapeWork, z.shapeInGlobal ? z.shapeAreaBytes / sizeof(double) + 1 : 0);
        const std::size_t rows = z.full ? z.fmdRows : 0;
        visit(h1, rows * n);
        visit(tileParts, rows * z.tiles * 2);
        visit(h2, z.full ? rows * n + z.sms * 2048 : 0);
        visit(spec, z.full ? 2 : 0);
        visit(specParts, z.full ? 2 * z.sms : 0);
        visit(specArea, z.full ? 2 * z.shapeAreaBytes / sizeof(double) : 0);
    }
    /// Zeroes the arrival counters and the rescan count; FMD's speculated shapes are "none".
    void clear(cudaStream_t s);
    MergeScratchView view();
};

/// The persistent CMD kernel's state: the blocks' parts, the rescan passes' partials, the split
/// barrier's counters, the row journal, the speculation records, the growth kernel's shared records,
/// the status and the profile.
struct PersistentState {
    DeviceBuffer<RowTop> blockPart, aPart, rowPart;
    DeviceBuffer<double> minPart, lazyPart;
    DeviceBuffer<unsigned int> arrive;
    DeviceBuffer<int> shiftSeen;
    DeviceBuffer<double> rowJournal;
    DeviceBuffer<unsigned int> rowCounter;
    DeviceBuffer<Candidate> rowFinal;
    DeviceBuffer<SpecShape> cmdSpec;                 ///< the two speculation records
    DeviceBuffer<double> cmdSpecPayload;             ///< and their shapes
    DeviceBuffer<PlanRecord> growthPlans;            ///< GrowthShared (mhca_growth_kernel.cuh): [2]
    DeviceBuffer<unsigned long long> growthNearest;  ///< [2][growthStride]
    DeviceBuffer<SpecShape> growthIntents;           ///< [2]
    DeviceBuffer<SpecShape> growthRecords;           ///< [2]
    DeviceBuffer<double> growthPayload;              ///< [2][specPayloadDoubles(d)]
    DeviceBuffer<int> growthStop;                    ///< [1]
    DeviceBuffer<int> status;
    DeviceBuffer<unsigned long long> persistentProfile, blockProfile;

    template <class Visit>
    void visitBuffers(const MhcaSizing& z, Visit&& visit) {
        const std::size_t blocks = z.persistentBlocks, on = blocks > 0 ? 1 : 0;
        const std::size_t payload = 2 * (z.d * z.d + z.packed);
        visit(blockPart, blocks);
        visit(aPart, blocks);
        visit(rowPart, blocks * kRescanRowsPerPass);
        visit(minPart, blocks);
        visit(lazyPart, blocks);
        visit(arrive, 2 * on);
        visit(shiftSeen, 2 * on);
        visit(rowJournal, on * journalDoubles(z.n));
        visit(rowCounter, on * kRescanRowsPerPass);
        visit(rowFinal, on * z.n);
        visit(cmdSpec, 2 * on);
        visit(cmdSpecPayload, on * payload);
        visit(growthPlans, 2 * on);
        visit(growthNearest, on * 2 * z.growthStride);
        visit(growthIntents, 2 * on);
        visit(growthRecords, 2 * on);
        visit(growthPayload, on * payload);
        visit(growthStop, on);
        visit(status, 3 * on);
        visit(persistentProfile, on * (kPersistentProfileSlots + 2 * kProfileStampSlots));
        visit(blockProfile, z.profiled ? blocks * kPhaseSlots : 0);
    }
    /// Zeroes the counters, flags and profile; the records are "none" and the journal's stamps -1.
    void clear(cudaStream_t s, bool profiled);
    /// The launch's pointers into this state (PersistentArgs' buffers; the profile's with `profiled`).
    void fillArgs(PersistentArgs& args, bool profiled);
    /// The growth kernel's shared records.
    GrowthShared growth(int stride);
    static std::size_t journalDoubles(std::size_t n);
};

/// What sizes the group phase's state (MhcaEngine::runGroups): its groups and whether it is profiled.
struct GroupPhaseSizing {
    std::size_t groups = 0;
    bool profiled = false;
};

/// The CMD apriori group phase's state (GroupPhaseArgs' buffers), for one runGroups call.
struct GroupPhaseState {
    DeviceBuffer<int> order, start, mergeCounts, shiftCounts, rescanCounts, next, failed;
    DeviceBuffer<Step> steps;
    DeviceBuffer<unsigned long long> nanoseconds;
    DeviceBuffer<RowTop> rowParts;

    template <class Visit>
    void visitBuffers(const GroupPhaseSizing& z, Visit&& visit) {
        const std::size_t count = z.groups;
        visit(order, count);
        visit(start, count + 1);
        for (DeviceBuffer<int>* b : {&mergeCounts, &shiftCounts, &rescanCounts}) visit(*b, count);
        visit(next, 1);
        visit(failed, 1);
        visit(steps, count);
        visit(nanoseconds, z.profiled ? count : 0);
        visit(rowParts, count * kGroupWarps);
    }
    /// Zeroes the counts and the failure flag.
    void clear(cudaStream_t s);
    /// The launch's pointers into this state (order and groups are set per slice).
    void fillArgs(GroupPhaseArgs& args, bool profiled);
};

}  // namespace clusterlens::cuda::mhca
