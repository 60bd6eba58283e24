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
// Each phase is a __forceinline__ function named for it: the launch's start, the rescans, the
// closest candidate and the plan in mhca_persistent_block.cuh, from the new distances on in
// mhca_persistent_rows.cuh; the passes over a block's entries they call are in
// mhca_persistent_phases.cuh.
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

#include "cuda/kernels/mhca_persistent_block.cuh"
#include "cuda/kernels/mhca_persistent_rows.cuh"

namespace clusterlens::cuda::mhca {

/// Up to pa.merges CMD merges (see the file comment). Launch cooperatively, at most one block per
/// multiprocessor. Dynamic shared memory: (pa.areaDoubles + packed) doubles. kProfiled: the instance
/// that fills args.profile; the other one compiles the timing out (with the registers capped at 168
/// per thread, live values the timing keeps would cost spills in the merge loop).
template <int MAXD, bool kProfiled>
__global__ void __launch_bounds__(kPersistentThreads, 1) cmdPersistentKernel(MhcaView v, PersistentArgs args) {
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    extern __shared__ double s_dyn[];
    __shared__ PersistentShared s;
    __shared__ PersistentProbeShared probe;
    PersistentBlock c = startBlock<kProfiled>(v, args, s_dyn, probe);
    timeBareBarriers(c, grid);
    MergeLoop loop = launchStartPhase(v, c, s, grid);
    for (;;) {
        rescanPhase<MAXD>(v, c, s, loop, grid);  // a grid barrier per pass
        if (loop.done == c.pa.merges) break;
        Candidate bestNow;
        if (closestCandidatePhase(v, c, s, loop, grid, &bestNow)) continue;  // lazy rows listed: rescan first
        planPhase(v, c, s, loop, bestNow);
        const Step planned = s.plan.st;
        if (!planned.valid) break;
        loop.groupKnown = c.elide && c.pa.oneGroup != 0;
        c.lap(persistent_profile::kClosestPairAndPlan);
        const int modeC = s.plan.mode;
        shapePhase<MAXD, kProfiled>(v, c, s, probe, loop.m, planned, modeC);
        if (planned.switchNow) {
            switchStepStop(v, c, s, grid, planned);
            break;
        }
        const double maxDist = newDistancesPhase<MAXD>(v, c, s, grid, loop.m, planned, modeC);  // S3
        int posA = 0;
        Step st = commitPhase(v, c, s, probe, planned, maxDist, &posA);
        rowUpdateThroughS4<kProfiled>(v, c, s, probe, grid, loop, &st, planned, maxDist, posA);  // S4
        mergedRowPhase(v, c, s, loop, st, posA);
    }
    launchEndPhase(v, c, probe, loop);
}

}  // namespace clusterlens::cuda::mhca
