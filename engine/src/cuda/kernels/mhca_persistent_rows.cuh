#pragma once
// The persistent CMD kernel's phases from the new distances on (mhca_persistent_kernels.cuh): the new
// distances and barrier S3, the commit, the row update, barrier S4 (split without S3), the rows
// updated again after a key shift, the merged row and the launch's end. Each phase is a
// __forceinline__ function of the one kernel; the barriers stay in the kernel's order.

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cuda/kernels/mhca_persistent_block.cuh"
#include "cuda/kernels/mhca_row_journal.cuh"

namespace clusterlens::cuda::mhca {

/// The new distances: the merged cluster's own side over the block's entries, its smallest new key
/// (without S3 only a flag when negative) and each warp's nearest partner for the growth kernel; then
/// barrier S3 (unless elided) and the speculating block's second half of its shape. Returns the
/// group's largest distance, unchanged by the plan.
template <int MAXD>
__device__ __forceinline__ double newDistancesPhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                                    cooperative_groups::grid_group& grid, int m, const Step& planned,
                                                    int modeC) {
    const int tid = c.tid;
    const bool identityC = modeC == kModeIdentity || s.shape.identity || c.blk == c.specBlock;
    if (!identityC) stageMergedMetric(v, c.area, s.shape, modeC, c.metC);
    const MetricRef mC{identityC ? nullptr : c.metC, 1};
    const double maxDist = s.plan.gs.maxDist;  // the group's, unchanged by the plan
    // Without S3, block 0 commits the merge once every block is past the shape phase (the last
    // reads of a's and b's old state).
    if (c.elide && tid == 0) {
        __threadfence();
        atomicAdd(&c.pa.arrive[0], 1u);
    }
    unsigned long long nearest = kNoNearest;
    double smallest = newDistancesOfRange<MAXD>(v, planned, c.area.newMu, mC, maxDist, c.own,
                                                c.pa.growth.plans != nullptr ? &nearest : nullptr);
    if (c.elide) {
        if (c.pa.growth.plans != nullptr && c.blk < c.workers) offerNearest(c.pa.growth, m, nearest);
        if (smallest < 0.0) c.pa.shiftSeen[m & 1] = 1;  // the rows update again after S4
    } else {
        smallest = blockMinValue(smallest, s.min);
        if (tid == 0) c.pa.minPart[c.blk] = smallest;
    }
    c.lap(persistent_profile::kNewDistances);
    if (!c.elide) grid.sync();  // S3
    c.lap(persistent_profile::kBarrierS3);
    if (c.blk == c.specBlock && !c.elide) {  // the speculated shape's second half, and its record
        if (s.specStep.valid)
            finishMergedShape(v.cfg, s.specStep, c.area, &s.shape, &s.flag, &s.value, ShapeTeam{tid, c.warps * 32, 1});
        publishSpecShape(v, c.pa.spec, c.pa.specPayload, c.area, s.shape, s.specStep, m + 1);
        if (c.pa.profile != nullptr && tid == 0 && s.specStep.valid)
            c.pa.profile[persistent_profile::kSpeculatedWritten] += 1ull;
    }
    return maxDist;
}

/// With S3, the commit: the merge's smallest key and the step as the rows see it; block 0 commits the
/// plan, records the shift and writes the merged shape (nobody reads what the merge changes before
/// S4). Without S3 the step goes unshifted and block 0 commits in rowUpdatePhase. *posA: a's position.
__device__ __forceinline__ Step commitPhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                            PersistentProbeShared& probe, const Step& planned, double maxDist,
                                            int* posA) {
    if (c.pa.profile != nullptr && c.tid == 0) probe.heavy[0] = probe.heavy[1] = 0;
    if (!c.elide) smallestValue(c.pa.minPart, c.blocks, &s.smallest);
    c.part(persistent_profile::kRowGridMinimum);
    Step st = planned;
    const double shift = c.elide ? 0.0 : s.smallest;
    st.shifted = shift < 0.0 ? 1 : 0;
    st.shiftAmount = shift;
    st.maxBefore = maxDist;
    if (c.blk == 0 && !c.elide) {
        if (c.tid == 0) {
            commitMerge(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s.plan, false);
            recordShift(v.mergeLog, s.smallest);
        }
        writeMergedShape(v.cfg, v.clusters, planned, c.area, s.shape);
    }
    *posA = v.clusters.pos[st.a];
    c.part(persistent_profile::kRowCommit);
    return st;
}

/// The row update over the block's range, and its parts for the next merge (without S3 once every
/// block is past this merge's shape phase, where the parts of the merge before are read last); without
/// S3 block 0 commits the merge here. *arrived: block thread 0's last count of that.
template <bool kProfiled>
__device__ __forceinline__ void rowUpdatePhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                               PersistentProbeShared& probe, const Step& st, const Step& planned,
                                               double maxDist, int posA, const RowJournal& journal,
                                               unsigned int arrivals, unsigned int* arrived) {
    const int tid = c.tid, blk = c.blk;
    RowTop topA = noTop(), range = noTop();
    if (blk != c.specBlock) {  // (it owns no rows: its parts are the empty ones)
        rowUpdateOfRange(v, st, maxDist, posA, c.own, topA, range.best, &s.lazy,
                         c.pa.profile != nullptr ? probe.heavy : nullptr, journal);
        c.part(persistent_profile::kRowThreadZero);
        topA = blockTop(topA, s.warp);
        c.part(persistent_profile::kRowOtherRows);
        range = blockTop(range, s.warp);
    }
    if (tid == 0) {
        const unsigned long long waitStart = kProfiled && *arrived < arrivals ? globalNanoseconds() : 0ull;
        *arrived = waitForCount(&c.pa.arrive[0], arrivals, *arrived);
        if (kProfiled && waitStart != 0ull && blk <= 1) {  // the wait of block 0 and of block 1
            c.pa.profile[blk == 0 ? persistent_profile::kBlockZeroCountWait : persistent_profile::kBlockOneCountWait] +=
                globalNanoseconds() - waitStart;
            c.pa.profile[blk == 0 ? persistent_profile::kBlockZeroCountWaits
                                  : persistent_profile::kBlockOneCountWaits] += 1ull;
        }
        c.pa.aPart[blk] = topA;
        c.pa.blockPart[blk] = range;
        c.pa.lazyPart[blk] = keyFromOrderBits(s.lazy);
    }
    if (c.elide && blk == 0 && journal.base != nullptr) {  // after every block's shape phase
        const unsigned long long commitStart = kProfiled && tid == 0 ? globalNanoseconds() : 0ull;
        if (tid == 0) commitMerge(v.cfg, v.clusters, v.nearest, v.mergeLog, v.scratch, v.visited, s.plan, false);
        __syncthreads();
        writeMergedShape(v.cfg, v.clusters, planned, c.area, s.shape);
        if (kProfiled && tid == 0)
            c.pa.profile[persistent_profile::kBlockZeroCommit] += globalNanoseconds() - commitStart;
    }
    if (c.blockTimed && blk < kProfileStampSlots) {
        c.stamps[blk] = globalNanoseconds();
        c.stamps[kProfileStampSlots + blk] =
            static_cast<unsigned long long>(probe.heavy[0]) | (static_cast<unsigned long long>(probe.heavy[1]) << 32);
    }
    c.lap(persistent_profile::kRowUpdate);
}

/// Barrier S4: a grid barrier with S3; without S3 split, the speculating block finishing its shape
/// and releasing its record between its arrival and its wait.
template <bool kProfiled>
__device__ __forceinline__ void barrierS4Phase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                               cooperative_groups::grid_group& grid, const RowJournal& journal, int m,
                                               unsigned int* splitArrivals) {
    const int tid = c.tid;
    if (c.elide) {
        splitBarrierArrive(&c.pa.arrive[1]);
        if (c.blk == c.specBlock && journal.base != nullptr) {
            const unsigned long long finishStart = kProfiled && tid == 0 ? globalNanoseconds() : 0ull;
            if (s.specStep.valid)
                finishMergedShape(v.cfg, s.specStep, c.area, &s.shape, &s.flag, &s.value,
                                  ShapeTeam{tid, c.warps * 32, 1});
            publishSpecShape(v, c.pa.spec, c.pa.specPayload, c.area, s.shape, s.specStep, m + 1);
            if (c.pa.profile != nullptr && tid == 0 && s.specStep.valid)
                c.pa.profile[persistent_profile::kSpeculatedWritten] += 1ull;
            if (kProfiled && tid == 0)
                c.pa.profile[persistent_profile::kSpeculatorRecordRelease] += globalNanoseconds() - finishStart;
        }
        *splitArrivals += static_cast<unsigned int>(c.blocks);
        splitBarrierWait(&c.pa.arrive[1], *splitArrivals);
    } else {
        grid.sync();  // S4
    }
    c.lap(persistent_profile::kBarrierS4);
}

/// The profile, by block 0's warp 0 after S4: the spread of the blocks' arrivals at S4, how many
/// blocks had stale or lazy rows, and whether the last one did.
__device__ __forceinline__ void profileArrivalsAtS4(PersistentBlock& c) {
    if (c.pa.profile == nullptr || c.blk != 0 || c.tid >= 32) return;
    const int tid = c.tid;
    unsigned long long* stamps = c.stamps;
    unsigned long long first = ~0ull, last = 0ull;
    int lastBlock = 0;
    for (int b = tid; b < min(c.blocks, kProfileStampSlots); b += 32) {
        const unsigned long long at = __ldcg(&stamps[b]);
        first = min(first, at);
        if (at > last) {
            last = at;
            lastBlock = b;
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        first = min(first, __shfl_down_sync(0xffffffffu, first, offset));
        const unsigned long long otherLast = __shfl_down_sync(0xffffffffu, last, offset);
        const int otherBlock = __shfl_down_sync(0xffffffffu, lastBlock, offset);
        if (otherLast > last) {
            last = otherLast;
            lastBlock = otherBlock;
        }
    }
    unsigned long long staleBlocks = 0ull, lazyRows = 0ull;
    for (int b = tid; b < min(c.blocks, kProfileStampSlots); b += 32) {
        const unsigned long long h = __ldcg(&stamps[kProfileStampSlots + b]);
        staleBlocks += (h & 0xffffffffull) != 0ull ? 1ull : 0ull;
        lazyRows += h >> 32;
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        staleBlocks += __shfl_down_sync(0xffffffffu, staleBlocks, offset);
        lazyRows += __shfl_down_sync(0xffffffffu, lazyRows, offset);
    }
    if (!c.timed) return;
    unsigned long long* profile = c.pa.profile;
    const unsigned long long lastHeavy = __ldcg(&stamps[kProfileStampSlots + lastBlock]);
    profile[persistent_profile::kArrivalSpreadS4] += last - first;
    profile[persistent_profile::kBlockZeroLastAtS4] += lastBlock == 0 ? 1ull : 0ull;
    profile[persistent_profile::kBlocksWithPartnerRows] += staleBlocks;
    profile[persistent_profile::kLazyRows] += lazyRows;
    profile[persistent_profile::kLastBlockHadPartnerRows] += (lastHeavy & 0xffffffffull) != 0ull ? 1ull : 0ull;
    profile[persistent_profile::kLastBlockHadLazyRows] += (lastHeavy >> 32) != 0ull ? 1ull : 0ull;
    if (c.specBlock >= 0 && c.specBlock < kProfileStampSlots) {  // the speculating block's arrival
        profile[persistent_profile::kSpeculatorLastAtS4] += lastBlock == c.specBlock ? 1ull : 0ull;
        profile[persistent_profile::kSpeculatorArrivalAfterFirst] += __ldcg(&stamps[c.specBlock]) - first;
    }
    c.stamp = globalNanoseconds();  // the scan is not the next phase's
}

/// After S4 a block saw a negative key: the merge's smallest new key (one more grid barrier), the rows
/// put back from the journal, the shift recorded (block 0 committed the merge before S4), and the step
/// shifted for the update once more.
__device__ __forceinline__ void shiftedUpdatePhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                                   cooperative_groups::grid_group& grid, Step* st, double maxDist,
                                                   RowJournal* journal, int m) {
    double low = smallestKeyOfRange(v, *st, maxDist, c.own);
    low = blockMinValue(low, s.min);
    if (c.tid == 0) c.pa.minPart[c.blk] = low;
    grid.sync();
    smallestValue(c.pa.minPart, c.blocks, &s.smallest);
    restoreRange(v, *st, c.own, *journal);
    if (c.tid == 0) {
        if (c.blk == 0) {
            recordShift(v.mergeLog, s.smallest);
            c.pa.shiftSeen[m & 1] = 0;  // every block read it before the barrier above
            c.pa.status[2] += 1;
        }
        s.lazy = 0ull;
    }
    st->shifted = 1;
    st->shiftAmount = s.smallest;
    journal->base = nullptr;
    __syncthreads();
}

/// The row update through S4, and again when the merge shifted the keys; after S4 the merged row's
/// parts are reduced (without S3 beside the next merge's closest candidate, in one round trip).
template <bool kProfiled>
__device__ __forceinline__ void rowUpdateThroughS4(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                                   PersistentProbeShared& probe, cooperative_groups::grid_group& grid,
                                                   MergeLoop& loop, Step* st, const Step& planned, double maxDist,
                                                   int posA) {
    // Without S3 the rows update as if no key shifted, journaled; a shift found after S4 puts them
    // back and updates them again (mhca_row_journal.cuh).
    RowJournal journal{c.elide ? c.pa.journal : nullptr, v.cfg.n, loop.m};
    // Without S3 a block writes its parts once every block is past this merge's shape phase, where
    // the parts of the merge before are read last; loaded here, the count is rarely short then.
    const unsigned int arrivals = static_cast<unsigned int>(c.blocks) * static_cast<unsigned int>(loop.done + 1);
    unsigned int arrived = c.elide && c.tid == 0 ? loadAcquire(&c.pa.arrive[0]) : arrivals;
    for (;;) {
        rowUpdatePhase<kProfiled>(v, c, s, probe, *st, planned, maxDist, posA, journal, arrivals, &arrived);
        barrierS4Phase<kProfiled>(v, c, s, grid, journal, loop.m, &loop.splitArrivals);
        profileArrivalsAtS4(c);
        // The flag is read beside the merged row's parts (one barrier for both).
        if (c.elide && c.tid == 32) s.shiftSeen = journal.base != nullptr ? __ldcg(&c.pa.shiftSeen[loop.m & 1]) : 0;
        if (c.elide) {  // the next merge's closest pair in the same round trip (no rows to rescan)
            loop.knownBest = mergedRowAndClosest(c.pa.aPart, c.pa.blockPart, c.pa.lazyPart, c.blocks, posA, st->a,
                                                 &s.aRow, &s.partsBest, &s.value);
            loop.closestKnown = true;
        } else {
            combinedTop(c.pa.aPart, c.blocks, &s.aRow);
        }
        if (!s.shiftSeen) break;
        loop.closestKnown = false;
        loop.groupKnown = false;  // block 0 records the shift in the group's state
        shiftedUpdatePhase(v, c, s, grid, st, maxDist, &journal, loop.m);
    }
}

/// The merged row's best and bound written by its owner (its runners-up are selected in the next
/// shape phase, as a pending row), and the loop's state for the next merge.
__device__ __forceinline__ void mergedRowPhase(const MhcaView& v, PersistentBlock& c, PersistentShared& s,
                                               MergeLoop& loop, const Step& st, int posA) {
    if (c.tid == 0) {
        // Stale rows become lazy: the row update appends nothing to the rescan list.
        s.rows = 0;
        // Without S3 the row's owner writes it: its selecting warps write its runners-up next.
        if (c.blk == (c.elide ? ownerBlock(st.a, c.workers) : 0)) {
            v.nearest.nn[st.a] = s.aRow.best.slot;
            v.nearest.nnKey[st.a] = s.aRow.best.slot < 0 ? kNoKey : s.aRow.best.key;
            v.nearest.nnBefore[st.a] = s.aRow.second;
            v.nearest.runCount[st.a] = 0;  // no runners-up yet: the bound of all its other partners
            v.nearest.runBound[st.a] = s.aRow.second;
            s.pending.add(st.a, c.pa.aPart);
        }
    }
    __syncthreads();
    loop.prevA = st.a;
    loop.prevANn = s.aRow.best.slot;
    loop.aCand = rowCandidate(s.aRow.best.key, posA, st.a, loop.prevANn);
    loop.prevRows = s.rows;
    loop.passed = 0;
    ++loop.m;
    ++loop.done;
    c.lap(persistent_profile::kRescans);
    if (c.blockTimed) c.pa.blockProfile[c.blk * kPhaseSlots + kPhaseSlots - 1] += 1ull;
    if (c.blockTimed && c.blk == c.specBlock)
        c.pa.profile[persistent_profile::kSpeculatorPhases + kPhaseSlots - 1] += 1ull;
    if (c.timed) c.pa.profile[persistent_profile::kMerges] += 1ull;
}

/// The launch's end: block 0 reports the merges made and stops the growth kernel; the profile's
/// shared sums are added to the global ones.
__device__ __forceinline__ void launchEndPhase(const MhcaView& v, const PersistentBlock& c,
                                               const PersistentProbeShared& probe, const MergeLoop& loop) {
    if (c.blk == 0 && c.tid == 0) {
        if (loop.prevRows > 0) *v.scratch.rescanCount = 0;  // every block read it before the last barrier
        c.pa.status[0] = loop.done;
        if (c.pa.growth.plans != nullptr) storeRelease(c.pa.growth.stop, 1);
    }
    if (c.profileOut != nullptr) {
        __syncthreads();
        if (c.tid < kPersistentProfileSlots) atomicAdd(&c.profileOut[c.tid], probe.sums[c.tid]);
        if (c.tid < kPhaseSlots)
            c.blockProfileOut[c.blk * kPhaseSlots + c.tid] += probe.sums[kPersistentProfileSlots + c.tid];
    }
}

}  // namespace clusterlens::cuda::mhca
