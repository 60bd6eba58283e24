#pragma once
// The persistent CMD kernel's block state and the phases of its merge loop up to the shape phase
// (mhca_persistent_kernels.cuh): the launch's start, the rescans, the closest candidate, the plan and
// the shape phase. The phases from the new distances on are in mhca_persistent_rows.cuh. Each phase
// is a __forceinline__ function of the one kernel: the barriers stay where they were, in the order
// the kernel's file comment gives, and the arithmetic is the per-stage kernels'.

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"
#include "cuda/kernels/mhca_persistent_phases.cuh"
#include "cuda/kernels/mhca_growth_shared.cuh"
#include "cuda/kernels/mhca_persistent_speculation.cuh"
#include "cuda/kernels/mhca_runner_device.cuh"

namespace clusterlens::cuda::mhca {

/// Threads of the shape team (warps 0-3, named barrier 1); the other warps stream metrics meanwhile.
constexpr int kShapeTeamThreads = 128;
/// Warps that select pending runner lists in the shape phase at most (the merged row and a few rows of
/// the last rescan pass: usually one or two).
constexpr int kSelectorWarps = 2;

/// A block's static shared memory across the merge loop (the shape area is dynamic shared memory).
struct PersistentShared {
    RowTop warp[32];  ///< blockTop's per-warp partials
    double min[32];   ///< blockMinValue's per-warp partials
    int flag;         ///< the shape's failure flag
    MergePlan plan;   ///< this merge's plan (every block plans it alike)
    ShapeResult shape;
    Candidate best;       ///< the closest candidate as closestCandidate reduced it
    Candidate partsBest;  ///< without S3: the blocks' parts' first candidate (mergedRowAndClosest)
    RowTop aRow;          ///< the merged row's best and bound after S4
    double smallest;      ///< the merge's smallest new key
    double value;         ///< the largest lazy bound, and the shape's scratch value
    int rows;             ///< rows listed for the next merge's rescans
    RowTop rowWarp[kRescanRowsPerPass * 32];
    ShiftCache shifts;
    PendingRows pending;
    int claim;                ///< the next chunk of the streaming (otherSideForms)
    unsigned long long lazy;  ///< the order bits of the range's largest lazy bound
    int specHit;              ///< this merge's shape comes from the speculation record
    int growthHit;            ///< ... from the growth kernel's record (mhca_growth_kernel.cuh)
    int shiftSeen;            ///< without S3: the rows must be updated again with a shift
    Step specStep;            ///< the speculating block: the pair it shapes for the next merge
};

/// The profile's shared memory (only the profiled instance references it). The sums stay in shared
/// memory while the kernel runs (a global read-modify-write per phase would add its latency to the
/// phases it times) and are added to the global ones at the end.
struct PersistentProbeShared {
    int heavy[2];                   ///< the count of stale and lazy rows in the row update
    unsigned long long phaseStart;  ///< the shape phase's start
    unsigned long long streamEnd;   ///< the last warp's end of its streaming
    unsigned long long sums[kPersistentProfileSlots + kPhaseSlots];
};

/// What a block fixes at the launch's start, and the profile's clock.
struct PersistentBlock {
    PersistentArgs pa;                    ///< the launch's arguments; with the profile, its sums are in shared memory
    unsigned long long* profileOut;       ///< the global profile sums (null without the profile)
    unsigned long long* blockProfileOut;  ///< the global per-block phase sums
    unsigned long long* stamps;           ///< the global profile's arrival stamps (null without the profile)
    double* dyn;                          ///< the dynamic shared memory
    ShapeArea area;
    double* metC;  ///< the merged cluster's metric, staged after the shape area
    OwnedEntries own;
    int tid, blk, blocks, warps;
    int specBlock;    ///< the speculating block (the last one), or -1
    int workers;      ///< the blocks that own entries
    bool elide;       ///< rows update without barrier S3 (mhca_row_journal.cuh)
    bool timed;       ///< block 0's thread 0 times the phases
    bool blockTimed;  ///< every block's thread 0 times its phases, for their spread
    unsigned long long stamp;
    unsigned long long partStamp;

    /// Block 0's parts of a phase; the first starts with the phase.
    __device__ __forceinline__ void part(int slot) {
        if (!timed) return;
        const unsigned long long now = globalNanoseconds();
        pa.profile[slot] += now - (slot == persistent_profile::kRowGridMinimum ? stamp : partStamp);
        partStamp = now;
    }
    /// The phase that ends now, in block 0's sums, this block's and the speculating block's.
    __device__ __forceinline__ void lap(int slot) {
        if (!blockTimed) return;
        const unsigned long long now = globalNanoseconds();
        if (timed) pa.profile[slot] += now - stamp;
        if (slot < kPhaseSlots - 1) pa.blockProfile[blk * kPhaseSlots + slot] += now - stamp;
        if (blk == specBlock && slot < kPhaseSlots - 1)
            pa.profile[persistent_profile::kSpeculatorPhases + slot] += now - stamp;
        stamp = now;
    }
};

/// The merge loop's state carried from one merge to the next.
struct MergeLoop {
    int m;         ///< the merge's index (read by every block before the first barrier; written after S3 only)
    int prevRows;  ///< rows of the rescan list
    int passed;    ///< rows of the rescan list [0, prevRows) rescanned so far
    int prevA, prevANn;
    Candidate aCand;   ///< the merged row's candidate of the last merge
    int done;          ///< merges made by this launch
    bool lazyChecked;  ///< this merge's closest candidate was checked against the lazy rows
    // Without S3: knownBest and value were reduced after S4 beside the merged row's parts; the group's
    // state is plan.gs, the last plan's (nothing but that merge's commit and a key shift changes it).
    bool closestKnown, groupKnown;
    Candidate knownBest;
    unsigned int splitArrivals;  ///< without S3: the blocks' arrivals at the split barrier S4 so far
};

/// The block's fixed state; with the profile, the sums are zeroed (a block barrier).
template <bool kProfiled>
__device__ __forceinline__ PersistentBlock startBlock(const MhcaView& v, PersistentArgs args, double* dyn,
                                                      PersistentProbeShared& probe) {
    PersistentBlock c;
    c.tid = static_cast<int>(threadIdx.x);
    c.blk = static_cast<int>(blockIdx.x);
    c.blocks = static_cast<int>(gridDim.x);
    c.warps = static_cast<int>(blockDim.x >> 5);
    // The last block speculates (mhca_persistent_speculation.cuh) and owns no entries.
    c.specBlock = args.speculate && c.blocks >= 2 ? c.blocks - 1 : -1;
    c.workers = c.specBlock >= 0 ? c.blocks - 1 : c.blocks;
    c.own = ownedEntries(v.visited.length, 0, c.warps, c.workers);
    // Without barrier S3 (mhca_row_journal.cuh): the rows update as soon as a block's new distances
    // are done. The rows a block's selecting warps write are then those it owns, which the identity
    // list makes cheap to tell.
    c.elide = args.elideS3 && c.specBlock >= 0 && v.visited.isIdentity;
    c.pa = args;
    if (!kProfiled) {
        args.profile = nullptr;
        c.pa.profile = nullptr;
        c.pa.blockProfile = nullptr;
    }
    if (args.profile != nullptr) {
        if (c.tid < kPersistentProfileSlots + kPhaseSlots) probe.sums[c.tid] = 0ull;
        c.pa.profile = probe.sums;
        c.pa.blockProfile = probe.sums + kPersistentProfileSlots - c.blk * kPhaseSlots;  // [blk * kPhaseSlots] is ours
        __syncthreads();
    }
    initTeamBarrier(kShapeTeamThreads);  // (every team of fewer threads than the block has this size)
    c.dyn = dyn;
    c.area = shapeArea(dyn, v.cfg.d, c.pa.stageRows);
    c.metC = dyn + c.pa.areaDoubles;
    c.timed = c.pa.profile != nullptr && c.blk == 0 && c.tid == 0;
    c.blockTimed = c.pa.profile != nullptr && c.tid == 0;
    c.stamp = c.blockTimed ? globalNanoseconds() : 0ull;
    c.stamps = args.profile != nullptr ? args.profile + kPersistentProfileSlots : nullptr;
    c.partStamp = 0ull;
    c.profileOut = args.profile;
    c.blockProfileOut = args.blockProfile;
    return c;
}

/// The profile: the bare cost of a grid barrier.
__device__ __forceinline__ void timeBareBarriers(PersistentBlock& c, cooperative_groups::grid_group& grid) {
    if (c.pa.profile == nullptr) return;
    for (int k = 0; k < 32; ++k) grid.sync();
    if (c.timed) {
        c.pa.profile[persistent_profile::kBareBarriers] += 32ull;
        c.lap(persistent_profile::kBareBarrier);
    }
}

/// The launch's start: the speculation records' first "none", every range's best candidate and lazy
/// bound from the state the launch starts from, then a grid barrier.
__device__ __forceinline__ MergeLoop launchStartPhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                                      cooperative_groups::grid_group& grid) {
    if (c.tid == 0) {
        s.lazy = 0ull;
        s.shiftSeen = 0;
    }
    // Records of an earlier launch name slots that compaction may have moved. The blocks wait for the
    // record of every merge: the first's is out already, "none".
    if (c.pa.spec != nullptr && c.blk == 0 && c.tid < 2) {
        const int first = *v.mergeLog.mergeCount;
        c.pa.spec[c.tid] = noSpecRecord(c.tid == (first & 1) ? first : -1);
    }
    __syncthreads();
    {
        RowTop top = noTop();
        for (int t = c.own.first; t < c.own.end; t += c.own.stride) {
            const int slot = listSlot(v, t);
            if (!v.clusters.alive[slot]) continue;
            const int nn = v.nearest.nn[slot];
            if (nn == kLazyRow) atomicMax(&s.lazy, keyOrderBits(v.nearest.nnKey[slot]));
            const Candidate cand = rowCandidate(v.nearest.nnKey[slot], v.clusters.pos[slot], slot, nn);
            if (candidateBefore(cand, top.best)) top.best = cand;
        }
        top = blockTop(top, s.warp);
        if (c.tid == 0) {
            c.pa.blockPart[c.blk] = top;
            c.pa.lazyPart[c.blk] = keyFromOrderBits(s.lazy);
            if (c.blk == 0) c.pa.arrive[0] = c.pa.arrive[1] = 0u;  // count from the launch's first merge
        }
    }
    if (c.tid == 0) {
        s.pending.count = 0;
        s.growthHit = 0;
    }
    MergeLoop loop;
    loop.m = *v.mergeLog.mergeCount;
    loop.prevRows = c.pa.prologue ? *reinterpret_cast<volatile int*>(v.scratch.rescanCount) : 0;
    loop.prevA = -1;
    loop.prevANn = -1;
    loop.aCand = noCandidate();
    grid.sync();
    if (c.blockTimed) c.stamp = globalNanoseconds();
    loop.done = 0;
    loop.passed = 0;
    loop.lazyChecked = false;
    loop.closestKnown = false;
    loop.groupKnown = false;
    loop.knownBest = noCandidate();
    loop.splitArrivals = 0u;
    return loop;
}

/// The listed rows' rescans: the launch's prologue, the last merge's stale rows, or the lazy rows
/// forced by closestCandidatePhase. The last pass leaves its selections to the next shape phase unless
/// an earlier pass of the same merge did (the pending list holds one pass and row a). A grid barrier
/// after each pass.
template <int MAXD>
__device__ __forceinline__ void rescanPhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s, MergeLoop& loop,
                                            cooperative_groups::grid_group& grid) {
    const int from = loop.passed;
    for (int first = loop.passed; first < loop.prevRows; first += kRescanRowsPerPass) {
        const int count = min(kRescanRowsPerPass, loop.prevRows - first);
        const bool defer = first + count == loop.prevRows && from == 0;
        rescanPass<MAXD>(v, c.pa, first, count, c.own, c.dyn, s.rowWarp, &s.shifts, defer, &s.pending, c.elide);
        c.lap(persistent_profile::kRescans);
        grid.sync();
        c.lap(persistent_profile::kRescanBarriers);
        if (c.elide && defer && c.tid == 0) {  // the owner selects a deferred row's runners-up
            for (int i = 0; i < count; ++i) {
                const int r = v.scratch.rescanRows[first + i];
                if (ownerBlock(r, c.workers) == c.blk) s.pending.add(r, c.pa.rowPart + i * c.blocks);
            }
        }
    }
    if (c.timed)
        c.pa.profile[persistent_profile::kRescannedRows] +=
            static_cast<unsigned long long>(loop.prevRows - loop.passed);
    loop.passed = loop.prevRows;
}

/// The closest candidate into *bestNow, every block alike. Returns true when lazy rows whose bound
/// could reach it were listed for rescans (after a grid barrier): the loop rescans them and takes the
/// candidate again.
__device__ __forceinline__ bool closestCandidatePhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                                      MergeLoop& loop, cooperative_groups::grid_group& grid,
                                                      Candidate* bestNow) {
    *bestNow = loop.knownBest;
    if (!loop.closestKnown) {
        closestCandidate(c.pa.blockPart, c.blocks, c.pa.rowFinal, loop.prevRows, loop.aCand, &s.best, c.pa.lazyPart,
                         &s.value);
        *bestNow = s.best;
    }
    loop.closestKnown = false;
    if (!loop.lazyChecked) {
        // Lazy rows whose bound could reach the closest candidate are rescanned first (grid-uniform:
        // every block reduced the same parts). Their rescans can only raise the best, so once
        // per merge suffices.
        loop.lazyChecked = true;
        const Candidate known = *bestNow;
        if (s.value != kNoKey && lazyRowForced(s.value, known)) {
            for (int t = c.own.first; t < c.own.end; t += c.own.stride) {
                const int o = listSlot(v, t);
                if (v.clusters.alive[o] && v.nearest.nn[o] == kLazyRow && lazyRowForced(v.nearest.nnKey[o], known))
                    appendRescan(v.scratch, o);  // the row holding s.value, unless a prologue rescanned it
            }
            grid.sync();
            // With nothing appended there is no pass (no barrier) before block 0 resets the count,
            // so a slow block may read 0: the list only grows between resets.
            loop.prevRows = max(loop.prevRows, *reinterpret_cast<volatile int*>(v.scratch.rescanCount));
            return true;
        }
    }
    loop.lazyChecked = false;
    return false;
}

/// The plan, every block alike, from the unchanged global state (nothing is written yet); then a
/// block barrier.
__device__ __forceinline__ void planPhase(const MhcaView& v, const PersistentBlock& c, PersistentShared& s,
                                          const MergeLoop& loop, const Candidate& bestNow) {
    // The speculating block's warp 0 picks the pair it shapes while its warp 1 plans (so that the
    // shape's chain starts one step earlier): the pair must be clear of this merge's, the closest
    // candidate and its partner, which it finds as the plan does.
    if (c.blk == c.specBlock && c.tid < 32) {
        Step merging{};
        merging.a = bestNow.slot;
        merging.b =
            bestNow.slot < 0 ? -1 : (bestNow.slot == loop.prevA ? loop.prevANn : __ldcg(&v.nearest.nn[bestNow.slot]));
        merging.merge = loop.m;
        speculatedStep(v, c.pa.blockPart, c.blocks, c.pa.rowFinal, loop.prevRows, loop.aCand, loop.prevANn, merging,
                       &s.specStep);
    }
    if (c.tid == (c.blk == c.specBlock ? 32 : 0)) {
        // All blocks read the last merge's rescan count before the barrier that ended its rescans.
        if (c.blk == 0 && loop.prevRows > 0) *v.scratch.rescanCount = 0;
        const Candidate best = bestNow;
        const int nnBest = best.slot < 0 ? -1 : (best.slot == loop.prevA ? loop.prevANn : v.nearest.nn[best.slot]);
        const GroupState known = s.plan.gs;
        const int knownGroup = s.plan.st.group;
        s.plan = planMerge(v.cfg, v.clusters, v.mergeLog, best, nnBest, loop.m, loop.groupKnown ? &known : nullptr,
                           knownGroup);
        if (c.blk == c.specBlock && c.pa.growth.plans != nullptr)
            publishPlan(&c.pa.growth.plans[loop.m & 1], s.plan.st);
        s.specHit = 0;
        s.claim = 0;
        s.lazy = 0ull;
    }
    __syncthreads();
}

/// The shape team's part of the shape phase: this merge's speculation or growth record when one names
/// it, else the merged shape (the speculating block: its own pair's, up to the factorisation).
template <bool kProfiled>
__device__ __forceinline__ void shapeTeamPart(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                              PersistentProbeShared& probe, int m, const Step& planned,
                                              const Step& shapeStep, int teamThreads) {
    const int tid = c.tid;
    if (c.specBlock >= 0 && c.blk != c.specBlock && c.pa.spec != nullptr) {
        // The speculation record of this merge, once out (without S3 the speculating block
        // finishes it after its arrival at S4; the streaming goes on meanwhile).
        if (tid == 0) {
            const unsigned long long awaitStart = kProfiled && c.blk == 0 ? globalNanoseconds() : 0ull;
            s.specHit = takeSpecRecord(awaitSpecRecord(&c.pa.spec[m & 1], m), planned, &s.shape);
            // Else the growth kernel's record, once its intent names this pair.
            s.growthHit = !s.specHit && c.pa.growth.plans != nullptr &&
                          growthIntended(&c.pa.growth.intents[m & 1], planned) &&
                          takeSpecRecord(awaitSpecRecord(&c.pa.growth.records[m & 1], m), planned, &s.shape);
            s.specHit = s.specHit || s.growthHit;
            if (kProfiled && c.blk == 0)
                c.pa.profile[persistent_profile::kBlockZeroRecordWait] += globalNanoseconds() - awaitStart;
        }
        ShapeTeam{tid, teamThreads, 1}.sync();
    }
    if (s.specHit) {
        loadSpecShape(v, s.growthHit ? c.pa.growth.payload : c.pa.specPayload, m, c.area, tid, kShapeTeamThreads);
        if (kProfiled && c.blk == 0) {  // the stores (after their loads) reached the barrier
            ShapeTeam{tid, kShapeTeamThreads, 1}.sync();
            if (tid == 0) c.pa.profile[persistent_profile::kRecordLoaded] += globalNanoseconds() - probe.phaseStart;
        }
        if (c.timed) c.pa.profile[persistent_profile::kSpeculatedTaken] += 1ull;
        if (c.timed && s.growthHit) c.pa.profile[persistent_profile::kGrowthTaken] += 1ull;
    } else if (shapeStep.valid) {
        // The speculating block stops after the factorisation and finishes after barrier S3,
        // in its empty row update, so that neither barrier waits for its whole chain.
        mergedShapeBlock(v.cfg, v.clusters, shapeStep, c.area, &s.shape, &s.flag, &s.value,
                         ShapeTeam{tid, teamThreads, 1}, true,
                         c.timed ? c.pa.profile + persistent_profile::kShapeMemberSums : nullptr, c.blk == c.specBlock);
    }
}

/// The shape phase: the merged mean, then the shape team shapes the merged cluster while one or two
/// other warps select the pending rows' runners-up, and every warp streams the other clusters' side
/// forms once its own part is done. Block barriers only.
template <int MAXD, bool kProfiled>
__device__ __forceinline__ void shapePhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                           PersistentProbeShared& probe, int m, const Step& planned, int modeC) {
    const int tid = c.tid;
    // The speculating block shapes its pair where the others shape this merge's (one call site).
    const Step& shapeStep = c.blk == c.specBlock ? s.specStep : s.plan.st;
    if (kProfiled && tid == 0) {
        probe.phaseStart = globalNanoseconds();
        probe.streamEnd = 0ull;
    }
    if (shapeStep.valid) mergedMean(v.cfg, v.clusters, shapeStep, c.area, tid, static_cast<int>(blockDim.x));
    __syncthreads();
    if (c.timed) c.pa.profile[persistent_profile::kMergedMean] += globalNanoseconds() - probe.phaseStart;
    // The shape team factorises while the other warps stream the other clusters' metrics. The
    // speculating block streams nothing: its whole block is the team unless it selects rows.
    const int teamThreads = c.blk == c.specBlock && s.pending.count == 0 ? c.warps * 32 : kShapeTeamThreads;
    if (tid < teamThreads) {
        shapeTeamPart<kProfiled>(v, c, s, probe, m, planned, shapeStep, teamThreads);
    } else if (!planned.switchNow) {
        const int selectors = min(s.pending.count, kSelectorWarps);
        const int w = (tid - kShapeTeamThreads) >> 5;
        for (int k = w; k < s.pending.count && w < selectors; k += selectors)
            warpFinishRow(runnerRefs(v.clusters, v.nearest), s.pending.row[k], s.pending.parts[k], c.blocks, false);
        if (kProfiled && c.blk == 0 && tid == kShapeTeamThreads && selectors > 0) {
            c.pa.profile[persistent_profile::kSelectionDone] += globalNanoseconds() - probe.phaseStart;
            c.pa.profile[persistent_profile::kSelections] += 1ull;
        }
    }
    // Every warp streams once its own part is done (the chunks are claimed, so the phase ends with
    // the last chunk, not with the last selection plus a fixed share).
    if (!planned.switchNow)
        otherSideForms<MAXD>(v, planned, modeC, c.area.newMu, &s.claim, c.pa.streamEvictFirst != 0, c.workers);
    if (kProfiled && (tid & 31) == 0) atomicMax(&probe.streamEnd, globalNanoseconds());
    __syncthreads();
    if (tid == 0) s.pending.count = 0;
    if (c.timed && s.specHit) {
        c.pa.profile[persistent_profile::kShapeWhenSpeculated] += globalNanoseconds() - probe.phaseStart;
        c.pa.profile[persistent_profile::kStreamingDone] += probe.streamEnd - probe.phaseStart;
    }
    if (kProfiled && c.blk == 1 && tid == 0 && s.specHit) {
        c.pa.profile[persistent_profile::kBlockOneShapeSpeculated] += globalNanoseconds() - probe.phaseStart;
        c.pa.profile[persistent_profile::kBlockOneSpeculatedMerges] += 1ull;
    }
    c.lap(persistent_profile::kMergeShape);
}

/// The switch step: after a grid barrier (every block planned from the state before this merge),
/// block 0 commits the plan and writes the shape; the host finishes the step.
__device__ __forceinline__ void switchStepStop(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                               cooperative_groups::grid_group& grid, const Step& planned) {
    grid.sync();
    if (c.blk == 0) {
        if (c.tid == 0) {
            commitMerge(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s.plan, true);
            c.pa.status[1] = 1;
        }
        writeMergedShape(v.cfg, v.clusters, planned, c.area, s.shape);
    }
}

}  // namespace clusterlens::cuda::mhca
