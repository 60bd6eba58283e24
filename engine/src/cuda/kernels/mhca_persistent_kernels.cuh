#pragma once
// The CMD merge loop as one persistent cooperative kernel (thesis section 2.4.2 and the kernel groups of
// 2.5, fused): the per-stage kernels of mhca_step/cmd_kernels.cuh spend most of a merge on launch gaps
// and on single-thread chains of dependent global loads, far above the merge's memory floor. Here a
// grid of at most one block per multiprocessor runs many merges, separated by grid barriers:
//
//   closest pair   every block reduces the block minima published before the last barrier, the merged
//                  row's new best and the rescanned rows' results (a few KB, no 44K-key scan)
//   plan + shape   every block plans the merge and shapes the merged cluster itself, in shared memory,
//                  from the unchanged global state (no barrier, no round trip), with 4 of its warps;
//                  one or two select the runner lists left pending, and the others stream the other
//                  clusters' metrics meanwhile (their side of each distance needs only the merged
//                  mean), which hides the shape's sequential chain; warps claim the streaming's
//                  chunks, so the team and the selectors join in once done
//   new distances  the merged cluster's side over the entries it owns; block minima    -> barrier S3
//                  (S3 is left out where it can be: see "Without S3" below)
//   commit         block 0 writes the plan, the shape and the key shift (nobody reads them before S4)
//   row update     each block over its entries: earlier rows offered the merged cluster, stale rows
//                  answered from their runners-up (mhca_runner_device.cuh) or marked for a rescan,
//                  the merged row's partial best and the range's best key for the next merge -> S4
//   rescans        only when rows were marked: each block against its entries, per row the last block
//                  to arrive reduces the row and selects its runners-up                 -> barrier
//
// The phases' functions are in mhca_persistent_phases.cuh.
//
// The last block owns no entries: it speculates (mhca_persistent_speculation.cuh). While merge m runs
// it shapes the pair likely to merge at m + 1, the factorisation in the shape phase and the inverse
// after S3 or, without S3, between its arrival at S4 and its wait there (its row update is empty);
// every block takes that shape at m + 1 when the plan merges exactly that pair (70 % of the merges of
// the cytometry-like benchmarks), skipping the chain. Most other merges take the cluster merge m
// made: the growth kernel beside this one (mhca_growth_kernel.cuh) shapes that cluster with its
// nearest partner by merge m's new distances, which the worker warps hand it, and a block whose plan
// names that pair takes its record (together 96 % of the merges at 44K).
//
// Without S3 (mhca_row_journal.cuh; a single-group run with speculation, the default):
// the barrier's purpose was to tell every block the merge's smallest new key, for the rare key shift.
// Each block updates its rows once its own new distances are done, as if nothing shifted, keeping a
// journal; a block that saw a negative key raises a flag, and after S4 the rows are put back and
// updated again with the shift (1-3 merges of a 4.4K-10K-point run). What S3 also ordered is ordered otherwise:
// block 0 commits the merge after its row update, once every block has counted itself past the shape
// phase (the last reads of a's and b's old state); a block writes its parts for the next merge only
// after that count is full too (the parts of this merge are read last in its shape phase); and a
// row's pending runner-up selection is made by the block that owns the row, before its update.
//
// Every row is rescanned once before the first merge of a single-group run (its runners-up), and
// the runners-up of the merged cluster and of the last pass's rows are selected by warps with time
// to spare in the next merge's shape phase.
//
// so a merge costs two grid barriers (three with rescans) plus the work, and the entries each block
// owns (chunks of blockDim.x dealt round-robin) stay fixed for the whole launch (the host compacts the
// list between launches). The arithmetic is the per-stage kernels' (shared __device__ functions), so
// merges stay those of mhcaCpu. A merge that
// switches to pure Mahalanobis distances (once per group) stops the kernel after its plan and shape
// are written; the host finishes that step with the per-stage kernels and starts a new launch.
// Memory: the cluster arrays of MhcaView plus O(blocks · rows per rescan pass) partials; a merge reads
// each live cluster's mean and metric once (and the later ones once per rescanned row): O(K·d²).

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

/// Up to pa.merges CMD merges (see the file comment). Launch cooperatively, at most one block per
/// multiprocessor. Dynamic shared memory: (pa.areaDoubles + packed) doubles. kProfiled: the instance
/// that fills args.profile; the other one compiles the timing out (with the registers capped at 168
/// per thread, live values the timing keeps would cost spills in the merge loop).
template <int MAXD, bool kProfiled>
__global__ void __launch_bounds__(kPersistentThreads, 1) cmdPersistentKernel(MhcaView v, PersistentArgs args) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ double s_dyn[];
    __shared__ RowTop s_warp[32];
    __shared__ double s_min[32];
    __shared__ int s_flag;
    __shared__ MergePlan s_plan;
    __shared__ ShapeResult s_shape;
    __shared__ Candidate s_best;
    __shared__ Candidate s_partsBest;  // without S3: the blocks' parts' first candidate (mergedRowAndClosest)
    __shared__ RowTop s_aRow;
    __shared__ double s_smallest;
    __shared__ double s_value;
    __shared__ int s_rows;
    __shared__ RowTop s_rowWarp[kRescanRowsPerPass * 32];
    __shared__ ShiftCache s_shifts;
    __shared__ PendingRows s_pending;
    __shared__ int s_claim;                      // the next chunk of the streaming (otherSideForms)
    __shared__ unsigned long long s_lazy;        // the order bits of the range's largest lazy bound
    __shared__ int s_heavy[2];                   // the profile's count of stale and lazy rows in the row update
    __shared__ int s_specHit;                    // this merge's shape comes from the speculation record
    __shared__ int s_growthHit;                  // ... from the growth kernel's record (mhca_growth_kernel.cuh)
    __shared__ int s_shiftSeen;                  // without S3: the rows must be updated again with a shift
    __shared__ Step s_specStep;                  // the speculating block: the pair it shapes for the next merge
    __shared__ unsigned long long s_phaseStart;  // the profile: the shape phase's start
    __shared__ unsigned long long s_streamEnd;   // and the last warp's end of its streaming
    // The profile sums in shared memory while the kernel runs (a global read-modify-write per phase
    // would add its latency to the phases it times), added to the global ones at the end.
    __shared__ unsigned long long s_profile[kPersistentProfileSlots + kPhaseSlots];
    const int tid = static_cast<int>(threadIdx.x), blk = static_cast<int>(blockIdx.x);
    const int blocks = static_cast<int>(gridDim.x);
    const int warps = static_cast<int>(blockDim.x >> 5);
    // The last block speculates (mhca_persistent_speculation.cuh) and owns no entries.
    const int specBlock = args.speculate && blocks >= 2 ? blocks - 1 : -1;
    const int workers = specBlock >= 0 ? blocks - 1 : blocks;
    const OwnedEntries own = ownedEntries(v.listLen, 0, warps, workers);
    // Without barrier S3 (mhca_row_journal.cuh): the rows update as soon as a block's new distances
    // are done. The rows a block's selecting warps write are then those it owns, which the identity
    // list makes cheap to tell.
    const bool elide = args.elideS3 && specBlock >= 0 && v.listIsIdentity;
    PersistentArgs pa = args;
    if (!kProfiled) {
        args.profile = nullptr;
        pa.profile = nullptr;
        pa.blockProfile = nullptr;
    }
    if (args.profile != nullptr) {
        if (tid < kPersistentProfileSlots + kPhaseSlots) s_profile[tid] = 0ull;
        pa.profile = s_profile;
        pa.blockProfile = s_profile + kPersistentProfileSlots - blk * kPhaseSlots;  // [blk * kPhaseSlots] is ours
        __syncthreads();
    }
    initTeamBarrier(kShapeTeamThreads);  // (every team of fewer threads than the block has this size)
    const ShapeArea area = shapeArea(s_dyn, v.cfg.d, pa.stageRows);
    double* metC = s_dyn + pa.areaDoubles;
    const bool timed = pa.profile != nullptr && blk == 0 && tid == 0;
    const bool blockTimed = pa.profile != nullptr && tid == 0;  // every block's phases, for their spread
    unsigned long long stamp = blockTimed ? globalNanoseconds() : 0ull;
    unsigned long long* stamps = args.profile != nullptr ? args.profile + kPersistentProfileSlots : nullptr;
    unsigned long long partStamp = 0ull;
    auto part = [&](int slot) {  // block 0's parts of a phase; the first starts with the phase
        if (!timed) return;
        const unsigned long long now = globalNanoseconds();
        pa.profile[slot] += now - (slot == persistent_profile::kRowGridMinimum ? stamp : partStamp);
        partStamp = now;
    };
    auto lap = [&](int slot) {
        if (!blockTimed) return;
        const unsigned long long now = globalNanoseconds();
        if (timed) pa.profile[slot] += now - stamp;
        if (slot < kPhaseSlots - 1) pa.blockProfile[blk * kPhaseSlots + slot] += now - stamp;
        if (blk == specBlock && slot < kPhaseSlots - 1)
            pa.profile[persistent_profile::kSpeculatorPhases + slot] += now - stamp;
        stamp = now;
    };
    if (pa.profile != nullptr) {  // the bare cost of a grid barrier, for the profile
        for (int k = 0; k < 32; ++k) grid.sync();
        if (timed) {
            pa.profile[persistent_profile::kBareBarriers] += 32ull;
            lap(persistent_profile::kBareBarrier);
        }
    }

    if (tid == 0) {
        s_lazy = 0ull;
        s_shiftSeen = 0;
    }
    // Records of an earlier launch name slots that compaction may have moved. The blocks wait for the
    // record of every merge: the first's is out already, "none".
    if (pa.spec != nullptr && blk == 0 && tid < 2) {
        const int first = *v.w.mergeCount;
        pa.spec[tid] = noSpecRecord(tid == (first & 1) ? first : -1);
    }
    __syncthreads();
    {  // the range's best candidate and lazy bound from the state the launch starts from
        RowTop top = noTop();
        for (int t = own.first; t < own.end; t += own.stride) {
            const int slot = listSlot(v, t);
            if (!v.s.alive[slot]) continue;
            const int nn = v.s.nn[slot];
            if (nn == kLazyRow) atomicMax(&s_lazy, keyOrderBits(v.s.nnKey[slot]));
            const Candidate c = rowCandidate(v.s.nnKey[slot], v.s.pos[slot], slot, nn);
            if (candidateBefore(c, top.best)) top.best = c;
        }
        top = blockTop(top, s_warp);
        if (tid == 0) {
            pa.blockPart[blk] = top;
            pa.lazyPart[blk] = keyFromOrderBits(s_lazy);
            if (blk == 0) pa.arrive[0] = pa.arrive[1] = 0u;  // count from the launch's first merge
        }
    }
    if (tid == 0) {
        s_pending.count = 0;
        s_growthHit = 0;
    }
    int m = *v.w.mergeCount;  // read by every block before the first barrier; written after S3 only
    int prevRows = pa.prologue ? *reinterpret_cast<volatile int*>(v.w.rescanCount) : 0, prevA = -1, prevANn = -1;
    Candidate aCand = noCandidate();
    grid.sync();
    if (blockTimed) stamp = globalNanoseconds();
    int done = 0, passed = 0;  // rows of the rescan list [0, prevRows) rescanned so far
    bool lazyChecked = false;  // this merge's closest candidate was checked against the lazy rows
    // Without S3: knownBest and s_value were reduced after S4 beside the merged row's parts; the group's
    // state is s_plan.gs, the last plan's (nothing but that merge's commit and a key shift changes it).
    bool closestKnown = false, groupKnown = false;
    Candidate knownBest = noCandidate();
    unsigned int splitArrivals = 0u;  // without S3: the blocks' arrivals at the split barrier S4 so far
    for (;;) {
        // The listed rows' rescans: the launch's prologue, the last merge's stale rows, or the lazy rows
        // forced below. The last pass leaves its selections to the next shape phase unless an earlier
        // pass of the same merge did (the pending list holds one pass and row a).
        const int from = passed;
        for (int first = passed; first < prevRows; first += kRescanRowsPerPass) {
            const int count = min(kRescanRowsPerPass, prevRows - first);
            const bool defer = first + count == prevRows && from == 0;
            rescanPass<MAXD>(v, pa, first, count, own, s_dyn, s_rowWarp, &s_shifts, defer, &s_pending, elide);
            lap(persistent_profile::kRescans);
            grid.sync();
            lap(persistent_profile::kRescanBarriers);
            if (elide && defer && tid == 0) {  // the owner selects a deferred row's runners-up
                for (int i = 0; i < count; ++i) {
                    const int r = v.w.rescanRows[first + i];
                    if (ownerBlock(r, workers) == blk) s_pending.add(r, pa.rowPart + i * blocks);
                }
            }
        }
        if (timed) pa.profile[persistent_profile::kRescannedRows] += static_cast<unsigned long long>(prevRows - passed);
        passed = prevRows;
        if (done == pa.merges) break;
        const RowTop* parts = pa.blockPart;
        Candidate bestNow = knownBest;
        if (!closestKnown) {
            closestCandidate(parts, blocks, pa.rowFinal, prevRows, aCand, &s_best, pa.lazyPart, &s_value);
            bestNow = s_best;
        }
        closestKnown = false;
        if (!lazyChecked) {
            // Lazy rows whose bound could reach the closest candidate are rescanned first (grid-uniform:
            // every block reduced the same parts). Their rescans can only raise the best, so once
            // per merge suffices.
            lazyChecked = true;
            const Candidate known = bestNow;
            if (s_value != kNoKey && lazyRowForced(s_value, known)) {
                for (int t = own.first; t < own.end; t += own.stride) {
                    const int o = listSlot(v, t);
                    if (v.s.alive[o] && v.s.nn[o] == kLazyRow && lazyRowForced(v.s.nnKey[o], known))
                        appendRescan(v, o);  // the row holding s_value, unless a prologue rescanned it
                }
                grid.sync();
                // With nothing appended there is no pass (no barrier) before block 0 resets the count,
                // so a slow block may read 0: the list only grows between resets.
                prevRows = max(prevRows, *reinterpret_cast<volatile int*>(v.w.rescanCount));
                continue;
            }
        }
        lazyChecked = false;
        // The speculating block's warp 0 picks the pair it shapes while its warp 1 plans (so that the
        // shape's chain starts one step earlier): the pair must be clear of this merge's, the closest
        // candidate and its partner, which it finds as the plan does.
        if (blk == specBlock && tid < 32) {
            Step merging{};
            merging.a = bestNow.slot;
            merging.b = bestNow.slot < 0 ? -1 : (bestNow.slot == prevA ? prevANn : __ldcg(&v.s.nn[bestNow.slot]));
            merging.merge = m;
            speculatedStep(v, parts, blocks, pa.rowFinal, prevRows, aCand, prevANn, merging, &s_specStep);
        }
        if (tid == (blk == specBlock ? 32 : 0)) {
            // All blocks read the last merge's rescan count before the barrier that ended its rescans.
            if (blk == 0 && prevRows > 0) *v.w.rescanCount = 0;
            const Candidate best = bestNow;
            const int nnBest = best.slot < 0 ? -1 : (best.slot == prevA ? prevANn : v.s.nn[best.slot]);
            const GroupState known = s_plan.gs;
            const int knownGroup = s_plan.st.group;
            s_plan = planMerge(v, best, nnBest, m, groupKnown ? &known : nullptr, knownGroup);
            if (blk == specBlock && pa.growth.plans != nullptr) publishPlan(&pa.growth.plans[m & 1], s_plan.st);
            s_specHit = 0;
            s_claim = 0;
            s_lazy = 0ull;
        }
        __syncthreads();
        const Step planned = s_plan.st;
        if (!planned.valid) break;
        groupKnown = elide && pa.oneGroup != 0;
        lap(persistent_profile::kClosestPairAndPlan);
        const int modeC = s_plan.mode;
        // The speculating block shapes its pair where the others shape this merge's (one call site).
        const Step& shapeStep = blk == specBlock ? s_specStep : s_plan.st;
        if (kProfiled && tid == 0) {
            s_phaseStart = globalNanoseconds();
            s_streamEnd = 0ull;
        }
        if (shapeStep.valid) mergedMean(v, shapeStep, area, tid, static_cast<int>(blockDim.x));
        __syncthreads();
        if (timed) pa.profile[persistent_profile::kMergedMean] += globalNanoseconds() - s_phaseStart;
        // The shape team factorises while the other warps stream the other clusters' metrics. The
        // speculating block streams nothing: its whole block is the team unless it selects rows.
        const int teamThreads = blk == specBlock && s_pending.count == 0 ? warps * 32 : kShapeTeamThreads;
        if (tid < teamThreads) {
            if (specBlock >= 0 && blk != specBlock && pa.spec != nullptr) {
                // The speculation record of this merge, once out (without S3 the speculating block
                // finishes it after its arrival at S4; the streaming goes on meanwhile).
                if (tid == 0) {
                    const unsigned long long awaitStart = kProfiled && blk == 0 ? globalNanoseconds() : 0ull;
                    s_specHit = takeSpecRecord(awaitSpecRecord(&pa.spec[m & 1], m), planned, &s_shape);
                    // Else the growth kernel's record, once its intent names this pair.
                    s_growthHit = !s_specHit && pa.growth.plans != nullptr &&
                                  growthIntended(&pa.growth.intents[m & 1], planned) &&
                                  takeSpecRecord(awaitSpecRecord(&pa.growth.records[m & 1], m), planned, &s_shape);
                    s_specHit = s_specHit || s_growthHit;
                    if (kProfiled && blk == 0)
                        pa.profile[persistent_profile::kBlockZeroRecordWait] += globalNanoseconds() - awaitStart;
                }
                ShapeTeam{tid, teamThreads, 1}.sync();
            }
            if (s_specHit) {
                loadSpecShape(v, s_growthHit ? pa.growth.payload : pa.specPayload, m, area, tid, kShapeTeamThreads);
                if (kProfiled && blk == 0) {  // the stores (after their loads) reached the barrier
                    ShapeTeam{tid, kShapeTeamThreads, 1}.sync();
                    if (tid == 0) pa.profile[persistent_profile::kRecordLoaded] += globalNanoseconds() - s_phaseStart;
                }
                if (timed) pa.profile[persistent_profile::kSpeculatedTaken] += 1ull;
                if (timed && s_growthHit) pa.profile[persistent_profile::kGrowthTaken] += 1ull;
            } else if (shapeStep.valid) {
                // The speculating block stops after the factorisation and finishes after barrier S3,
                // in its empty row update, so that neither barrier waits for its whole chain.
                mergedShapeBlock(v, shapeStep, area, &s_shape, &s_flag, &s_value, ShapeTeam{tid, teamThreads, 1}, true,
                                 timed ? pa.profile + persistent_profile::kShapeMemberSums : nullptr, blk == specBlock);
            }
        } else if (!planned.switchNow) {
            const int selectors = min(s_pending.count, kSelectorWarps);
            const int w = (tid - kShapeTeamThreads) >> 5;
            for (int k = w; k < s_pending.count && w < selectors; k += selectors)
                warpFinishRow(runnerRefs(v), s_pending.row[k], s_pending.parts[k], blocks, false);
            if (kProfiled && blk == 0 && tid == kShapeTeamThreads && selectors > 0) {
                pa.profile[persistent_profile::kSelectionDone] += globalNanoseconds() - s_phaseStart;
                pa.profile[persistent_profile::kSelections] += 1ull;
            }
        }
        // Every warp streams once its own part is done (the chunks are claimed, so the phase ends with
        // the last chunk, not with the last selection plus a fixed share).
        if (!planned.switchNow)
            otherSideForms<MAXD>(v, planned, modeC, area.newMu, &s_claim, pa.streamEvictFirst != 0, workers);
        if (kProfiled && (tid & 31) == 0) atomicMax(&s_streamEnd, globalNanoseconds());
        __syncthreads();
        if (tid == 0) s_pending.count = 0;
        if (timed && s_specHit) {
            pa.profile[persistent_profile::kShapeWhenSpeculated] += globalNanoseconds() - s_phaseStart;
            pa.profile[persistent_profile::kStreamingDone] += s_streamEnd - s_phaseStart;
        }
        if (kProfiled && blk == 1 && tid == 0 && s_specHit) {
            pa.profile[persistent_profile::kBlockOneShapeSpeculated] += globalNanoseconds() - s_phaseStart;
            pa.profile[persistent_profile::kBlockOneSpeculatedMerges] += 1ull;
        }
        lap(persistent_profile::kMergeShape);
        if (planned.switchNow) {
            grid.sync();  // every block planned from the state before this merge
            if (blk == 0) {
                if (tid == 0) {
                    commitMerge(v, s_plan, true);
                    pa.status[1] = 1;
                }
                writeMergedShape(v, planned, area, s_shape);
            }
            break;
        }

        const bool identityC = modeC == kModeIdentity || s_shape.identity || blk == specBlock;
        if (!identityC) stageMergedMetric(v, area, s_shape, modeC, metC);
        const MetricRef mC{identityC ? nullptr : metC, 1};
        const double maxDist = s_plan.gs.maxDist;  // the group's, unchanged by the plan
        // Without S3, block 0 commits the merge once every block is past the shape phase (the last
        // reads of a's and b's old state).
        if (elide && tid == 0) {
            __threadfence();
            atomicAdd(&pa.arrive[0], 1u);
        }
        unsigned long long nearest = kNoNearest;
        double smallest = newDistancesOfRange<MAXD>(v, planned, area.newMu, mC, maxDist, own,
                                                    pa.growth.plans != nullptr ? &nearest : nullptr);
        if (elide) {
            if (pa.growth.plans != nullptr && blk < workers) offerNearest(pa.growth, m, nearest);
            if (smallest < 0.0) pa.shiftSeen[m & 1] = 1;  // the rows update again after S4
        } else {
            smallest = blockMinValue(smallest, s_min);
            if (tid == 0) pa.minPart[blk] = smallest;
        }
        lap(persistent_profile::kNewDistances);
        if (!elide) grid.sync();  // S3
        lap(persistent_profile::kBarrierS3);
        if (blk == specBlock && !elide) {  // the speculated shape's second half, and its record
            if (s_specStep.valid)
                finishMergedShape(v, s_specStep, area, &s_shape, &s_flag, &s_value, ShapeTeam{tid, warps * 32, 1});
            publishSpecShape(v, pa.spec, pa.specPayload, area, s_shape, s_specStep, m + 1);
            if (pa.profile != nullptr && tid == 0 && s_specStep.valid)
                pa.profile[persistent_profile::kSpeculatedWritten] += 1ull;
        }

        if (pa.profile != nullptr && tid == 0) s_heavy[0] = s_heavy[1] = 0;
        if (!elide) smallestValue(pa.minPart, blocks, &s_smallest);
        part(persistent_profile::kRowGridMinimum);
        Step st = planned;
        const double shift = elide ? 0.0 : s_smallest;
        st.shifted = shift < 0.0 ? 1 : 0;
        st.shiftAmount = shift;
        st.maxBefore = maxDist;
        if (blk == 0 && !elide) {  // nobody reads what the merge changes before S4
            if (tid == 0) {
                commitMerge(v, s_plan, false);
                recordShift(v, s_smallest);
            }
            writeMergedShape(v, planned, area, s_shape);
        }
        const int posA = v.s.pos[st.a];
        part(persistent_profile::kRowCommit);
        // Without S3 the rows update as if no key shifted, journaled; a shift found after S4 puts them
        // back and updates them again (mhca_row_journal.cuh).
        RowJournal journal{elide ? pa.journal : nullptr, v.cfg.n, m};
        // Without S3 a block writes its parts once every block is past this merge's shape phase, where
        // the parts of the merge before are read last; loaded here, the count is rarely short then.
        const unsigned int arrivals = static_cast<unsigned int>(blocks) * static_cast<unsigned int>(done + 1);
        unsigned int arrived = elide && tid == 0 ? loadAcquire(&pa.arrive[0]) : arrivals;
        for (;;) {
            RowTop topA = noTop(), range = noTop();
            if (blk != specBlock) {  // (it owns no rows: its parts are the empty ones)
                rowUpdateOfRange(v, st, maxDist, posA, own, topA, range.best, &s_lazy,
                                 pa.profile != nullptr ? s_heavy : nullptr, journal);
                part(persistent_profile::kRowThreadZero);
                topA = blockTop(topA, s_warp);
                part(persistent_profile::kRowOtherRows);
                range = blockTop(range, s_warp);
            }
            if (tid == 0) {
                const unsigned long long waitStart = kProfiled && arrived < arrivals ? globalNanoseconds() : 0ull;
                arrived = waitForCount(&pa.arrive[0], arrivals, arrived);
                if (kProfiled && waitStart != 0ull && blk <= 1) {  // the wait of block 0 and of block 1
                    pa.profile[blk == 0 ? persistent_profile::kBlockZeroCountWait
                                        : persistent_profile::kBlockOneCountWait] += globalNanoseconds() - waitStart;
                    pa.profile[blk == 0 ? persistent_profile::kBlockZeroCountWaits
                                        : persistent_profile::kBlockOneCountWaits] += 1ull;
                }
                pa.aPart[blk] = topA;
                pa.blockPart[blk] = range;
                pa.lazyPart[blk] = keyFromOrderBits(s_lazy);
            }
            if (elide && blk == 0 && journal.base != nullptr) {  // after every block's shape phase
                const unsigned long long commitStart = kProfiled && tid == 0 ? globalNanoseconds() : 0ull;
                if (tid == 0) commitMerge(v, s_plan, false);
                __syncthreads();
                writeMergedShape(v, planned, area, s_shape);
                if (kProfiled && tid == 0)
                    pa.profile[persistent_profile::kBlockZeroCommit] += globalNanoseconds() - commitStart;
            }
            if (blockTimed && blk < kProfileStampSlots) {
                stamps[blk] = globalNanoseconds();
                stamps[kProfileStampSlots + blk] =
                    static_cast<unsigned long long>(s_heavy[0]) | (static_cast<unsigned long long>(s_heavy[1]) << 32);
            }
            lap(persistent_profile::kRowUpdate);
            if (elide) {
                // S4, split: the speculating block finishes its shape between its arrival and its wait.
                splitBarrierArrive(&pa.arrive[1]);
                if (blk == specBlock && journal.base != nullptr) {
                    const unsigned long long finishStart = kProfiled && tid == 0 ? globalNanoseconds() : 0ull;
                    if (s_specStep.valid)
                        finishMergedShape(v, s_specStep, area, &s_shape, &s_flag, &s_value,
                                          ShapeTeam{tid, warps * 32, 1});
                    publishSpecShape(v, pa.spec, pa.specPayload, area, s_shape, s_specStep, m + 1);
                    if (pa.profile != nullptr && tid == 0 && s_specStep.valid)
                        pa.profile[persistent_profile::kSpeculatedWritten] += 1ull;
                    if (kProfiled && tid == 0)
                        pa.profile[persistent_profile::kSpeculatorRecordRelease] += globalNanoseconds() - finishStart;
                }
                splitArrivals += static_cast<unsigned int>(blocks);
                splitBarrierWait(&pa.arrive[1], splitArrivals);
            } else {
                grid.sync();  // S4
            }
            lap(persistent_profile::kBarrierS4);
            if (pa.profile != nullptr && blk == 0 && tid < 32) {  // the arrivals' spread, by warp 0
                unsigned long long first = ~0ull, last = 0ull;
                int lastBlock = 0;
                for (int b = tid; b < min(blocks, kProfileStampSlots); b += 32) {
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
                // How many blocks had stale or lazy rows, and whether the last one did.
                unsigned long long staleBlocks = 0ull, lazyRows = 0ull;
                for (int b = tid; b < min(blocks, kProfileStampSlots); b += 32) {
                    const unsigned long long h = __ldcg(&stamps[kProfileStampSlots + b]);
                    staleBlocks += (h & 0xffffffffull) != 0ull ? 1ull : 0ull;
                    lazyRows += h >> 32;
                }
                for (int offset = 16; offset > 0; offset >>= 1) {
                    staleBlocks += __shfl_down_sync(0xffffffffu, staleBlocks, offset);
                    lazyRows += __shfl_down_sync(0xffffffffu, lazyRows, offset);
                }
                if (timed) {
                    const unsigned long long lastHeavy = __ldcg(&stamps[kProfileStampSlots + lastBlock]);
                    pa.profile[persistent_profile::kArrivalSpreadS4] += last - first;
                    pa.profile[persistent_profile::kBlockZeroLastAtS4] += lastBlock == 0 ? 1ull : 0ull;
                    pa.profile[persistent_profile::kBlocksWithPartnerRows] += staleBlocks;
                    pa.profile[persistent_profile::kLazyRows] += lazyRows;
                    pa.profile[persistent_profile::kLastBlockHadPartnerRows] +=
                        (lastHeavy & 0xffffffffull) != 0ull ? 1ull : 0ull;
                    pa.profile[persistent_profile::kLastBlockHadLazyRows] += (lastHeavy >> 32) != 0ull ? 1ull : 0ull;
                    if (specBlock >= 0 && specBlock < kProfileStampSlots) {  // the speculating block's arrival
                        pa.profile[persistent_profile::kSpeculatorLastAtS4] += lastBlock == specBlock ? 1ull : 0ull;
                        pa.profile[persistent_profile::kSpeculatorArrivalAfterFirst] +=
                            __ldcg(&stamps[specBlock]) - first;
                    }
                    stamp = globalNanoseconds();  // the scan is not the next phase's
                }
            }
            // The flag is read beside the merged row's parts (one barrier for both).
            if (elide && tid == 32) s_shiftSeen = journal.base != nullptr ? __ldcg(&pa.shiftSeen[m & 1]) : 0;
            if (elide) {  // the next merge's closest pair in the same round trip (no rows to rescan)
                knownBest = mergedRowAndClosest(pa.aPart, pa.blockPart, pa.lazyPart, blocks, posA, st.a, &s_aRow,
                                                &s_partsBest, &s_value);
                closestKnown = true;
            } else {
                combinedTop(pa.aPart, blocks, &s_aRow);
            }
            if (!s_shiftSeen) break;
            closestKnown = false;
            groupKnown = false;  // block 0 records the shift in the group's state
            // The merge shifted every key: its smallest new key, the rows as they were, the shift
            // recorded (block 0 committed the merge before S4), and the update once more.
            double low = smallestKeyOfRange(v, st, maxDist, own);
            low = blockMinValue(low, s_min);
            if (tid == 0) pa.minPart[blk] = low;
            grid.sync();
            smallestValue(pa.minPart, blocks, &s_smallest);
            restoreRange(v, st, own, journal);
            if (tid == 0) {
                if (blk == 0) {
                    recordShift(v, s_smallest);
                    pa.shiftSeen[m & 1] = 0;  // every block read it before the barrier above
                    pa.status[2] += 1;
                }
                s_lazy = 0ull;
            }
            st.shifted = 1;
            st.shiftAmount = s_smallest;
            journal.base = nullptr;
            __syncthreads();
        }

        if (tid == 0) {
            // Stale rows become lazy: the row update appends nothing to the rescan list.
            s_rows = 0;
            // Without S3 the row's owner writes it: its selecting warps write its runners-up next.
            if (blk == (elide ? ownerBlock(st.a, workers) : 0)) {
                v.s.nn[st.a] = s_aRow.best.slot;
                v.s.nnKey[st.a] = s_aRow.best.slot < 0 ? kNoKey : s_aRow.best.key;
                v.s.nnBefore[st.a] = s_aRow.second;
                v.s.runCount[st.a] = 0;  // no runners-up yet: the bound of all its other partners
                v.s.runBound[st.a] = s_aRow.second;
                s_pending.add(st.a, pa.aPart);
            }
        }
        __syncthreads();
        prevA = st.a;
        prevANn = s_aRow.best.slot;
        aCand = rowCandidate(s_aRow.best.key, posA, st.a, prevANn);
        prevRows = s_rows;
        passed = 0;
        ++m;
        ++done;
        lap(persistent_profile::kRescans);
        if (blockTimed) pa.blockProfile[blk * kPhaseSlots + kPhaseSlots - 1] += 1ull;
        if (blockTimed && blk == specBlock) pa.profile[persistent_profile::kSpeculatorPhases + kPhaseSlots - 1] += 1ull;
        if (timed) pa.profile[persistent_profile::kMerges] += 1ull;
    }
    if (blk == 0 && tid == 0) {
        if (prevRows > 0) *v.w.rescanCount = 0;  // every block read it before the last barrier
        pa.status[0] = done;
        if (pa.growth.plans != nullptr) storeRelease(pa.growth.stop, 1);
    }
    if (args.profile != nullptr) {
        __syncthreads();
        if (tid < kPersistentProfileSlots) atomicAdd(&args.profile[tid], s_profile[tid]);
        if (tid < kPhaseSlots) args.blockProfile[blk * kPhaseSlots + tid] += s_profile[kPersistentProfileSlots + tid];
    }
}

}  // namespace clusterlens::cuda::mhca
