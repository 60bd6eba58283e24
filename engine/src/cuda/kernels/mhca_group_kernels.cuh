#pragma once
// The apriori group phase of CMD (mhclust.R with gIntra = TRUE: every group is clustered alone before
// the groups meet) with one block per group. The groups are independent, so a grid-wide merge loop
// would run their merges one after the other, each visiting every group's entries: 1M points in 1000
// k-means groups took more than 300 s that way. Here each block takes the next group (largest first),
// computes its points' maxDistX and nearest neighbours and runs all its merges with block barriers
// only, through the per-stage kernels' __device__ functions (planMerge, commitMerge, the merged shape,
// updateRowForMerge, keyOf), on a view whose list, step, merge records and shift log are the group's
// own. The host permutes the points so that each group's slots are contiguous: the group's cluster
// arrays (entry e of slot s at e·n + s) are then read coalesced.
//
// Only groups that stay below the threshold (size < threshold · nFull) run here: their clusters never
// reach it, so no step switches to pure Mahalanobis distances and fullCount stays 0.
// Rows keep runner-up partners (mhca_runner_device.cuh), so few stale rows need a rescan.
// Work per group of k points: O(k²·d) to start, then per merge O(k·d²) for the new distances and
// O(k·d²) per rescanned row. Memory: the MhcaView arrays; per group a Step, three counters and one
// partial result per warp.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"
#include "cuda/kernels/mhca_runner_device.cuh"
#include "cuda/mhca_launch.cuh"

namespace clusterlens::cuda::mhca {

/// Threads of a group block. The register-resident forms (d <= 40) need most of the registers: one
/// block of 256 threads per multiprocessor ran 1M x 20 in 1000 groups 3x faster than 512 threads with
/// spills or than the any-d forms at two blocks per multiprocessor (H200).
constexpr int kGroupThreads = kGroupWarps * 32;

/// The view of group g: its slice of the list, and the scratch of a run of its own (merge records at
/// the group's merge offset, ids from firstNewId + offset, its step, counters and shift log).
__device__ inline MhcaView groupView(const MhcaView& v, const GroupPhaseArgs& ga, int g) {
    MhcaView lv = v;
    const int first = ga.listStart[g], offset = first - g;  // a group of k points makes k - 1 merges
    lv.visited.list = v.visited.list + first;
    lv.visited.length = ga.listStart[g + 1] - first;
    lv.visited.isIdentity = 0;
    lv.cfg.firstNewId = v.cfg.firstNewId + offset;
    lv.mergeLog.step = ga.steps + g;
    lv.mergeLog.mergeCount = ga.mergeCounts + g;
    lv.mergeLog.outA = v.mergeLog.outA + offset;
    lv.mergeLog.outB = v.mergeLog.outB + offset;
    lv.mergeLog.outHeight = v.mergeLog.outHeight + offset;
    lv.mergeLog.outSize = v.mergeLog.outSize + offset;
    lv.mergeLog.outGroup = v.mergeLog.outGroup + offset;
    lv.scratch.rescanRows = v.scratch.rescanRows + first;
    lv.scratch.rescanCount = ga.rescanCounts + g;
    lv.scratch.newDist = v.scratch.newDist + first;
    lv.mergeLog.shiftCount = ga.shiftCounts + g;
    lv.mergeLog.shiftTime = v.mergeLog.shiftTime + offset;
    lv.mergeLog.shiftGroup = v.mergeLog.shiftGroup + offset;
    lv.mergeLog.shiftAmount = v.mergeLog.shiftAmount + offset;
    lv.mergeLog.shiftMaxBefore = v.mergeLog.shiftMaxBefore + offset;
    return lv;
}

/// Squared Euclidean distance of points i and j (nearestPointKernel's sum, in its order).
__device__ __forceinline__ double pointSquare(const double* x, int i, int j, int d) {
    const double* xi = x + static_cast<size_t>(i) * d;
    const double* xj = x + static_cast<size_t>(j) * d;
    double q = 0.0;
    for (int k = 0; k < d; ++k) {
        const double diff = dsub(xj[k], xi[k]);
        q = dadd(q, dmul(diff, diff));
    }
    return q;
}

/// The group's start as nearestPointKernel makes it: maxDistX, the largest distance of two of its
/// points, then each point's best later partner by key, first on ties, and the previous running best.
__device__ inline void startGroup(const MhcaView& lv, int g, double* s_min) {
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x), len = lv.visited.length,
              d = lv.cfg.d;
    double largest = 0.0;
    for (int t = tid; t < len; t += nt)
        for (int u = t + 1; u < len; ++u) {
            const double q = pointSquare(lv.clusters.x, lv.visited.list[t], lv.visited.list[u], d);
            if (q > largest) largest = q;
        }
    largest = -blockMinValue(-largest, s_min);  // sqrt is monotone: the root of the largest square
    if (tid == 0) lv.mergeLog.groups[g].maxDist = sqrt(largest);
    __syncthreads();
    const double maxDist = lv.mergeLog.groups[g].maxDist;
    for (int t = tid; t < len; t += nt) {
        const int i = lv.visited.list[t];
        PointBest best;
        for (int u = t + 1; u < len; ++u)
            best.offer(pointSquare(lv.clusters.x, i, lv.visited.list[u], d), lv.visited.list[u], maxDist);
        lv.nearest.nn[i] = best.slot;
        lv.nearest.nnKey[i] = best.slot < 0 ? kNoKey : best.key;
        lv.nearest.nnBefore[i] = best.before;
        lv.nearest.runCount[i] = 0;  // runners-up unknown: a stale row is rescanned, which lists them
        lv.nearest.runBound[i] = __longlong_as_double(0x7ff0000000000000LL);
    }
    __syncthreads();
}

/// Row r's best partner, runners-up and bound from every thread's candidates (`top`): each warp's
/// best and the bound of its others into parts, then warp 0 selects as a rescan's last block does
/// (warpFinishRow over the warps' results). Every thread calls.
__device__ inline void finishGroupRow(const MhcaView& lv, int r, RowTop top, RowTop* parts) {
    top = warpTop(top);
    if ((threadIdx.x & 31u) == 0) parts[threadIdx.x >> 5] = top;
    __syncthreads();
    if (threadIdx.x < 32)
        warpFinishRow(runnerRefs(lv.clusters, lv.nearest), r, parts, static_cast<int>(blockDim.x >> 5), true);
    __syncthreads();
}

/// Row r against every later live cluster of the group (centroidRescanKernel's keys) with its
/// runners-up, its row staged in s_r (d + 2 * packed doubles).
template <int MAXD>
__device__ inline void rescanGroupRow(const MhcaView& lv, int g, int r, double* s_r, RowTop* parts) {
    const int n = lv.cfg.n, d = lv.cfg.d, packed = lv.cfg.packed;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const bool identityR = lv.clusters.identity[r] != 0;
    __syncthreads();  // s_r is free
    stageRow(lv.cfg, lv.clusters, r, identityR, s_r);
    __syncthreads();
    const int posR = lv.clusters.pos[r], birthR = lv.clusters.birth[r], modeR = lv.clusters.mode[r];
    RowTop top = noTop();
    for (int t = tid; t < lv.visited.length; t += nt) {
        const int j = lv.visited.list[t];
        if (!lv.clusters.alive[j] || lv.clusters.pos[j] <= posR) continue;
        const int birthJ = lv.clusters.birth[j];
        const int pairMode = birthR >= birthJ ? modeR : lv.clusters.mode[j];
        MetricRef mR;
        mR.m =
            (identityR || pairMode == kModeIdentity) ? nullptr : (pairMode == kModeScaled ? s_r + d + packed : s_r + d);
        mR.stride = 1;
        const double dist =
            newRowDistance<MAXD>(s_r, 1, mR, lv.clusters.mu + j, slotMetric(lv.cfg, lv.clusters, j, pairMode), n, d);
        Candidate cand;
        cand.key = keyOf(lv.mergeLog, dist, max(birthR, birthJ), g);
        cand.pos = lv.clusters.pos[j];
        cand.slot = j;
        offerTop(top, cand);
    }
    finishGroupRow(lv, r, top, parts);
}

/// Drops the dead slots from the group's list (warp 0, in place, order kept); returns the new length.
__device__ inline int compactGroupList(const MhcaView& lv, int* list, int len, int* s_len) {
    if (threadIdx.x < 32) {
        const unsigned lane = threadIdx.x;
        int kept = 0;
        for (int base = 0; base < len; base += 32) {
            const int t = base + static_cast<int>(lane);
            const int slot = t < len ? list[t] : -1;
            const bool keep = slot >= 0 && lv.clusters.alive[slot];
            const unsigned ballot = __ballot_sync(0xffffffffu, keep);
            if (keep) list[kept + __popc(ballot & ((1u << lane) - 1u))] = slot;
            kept += __popc(ballot);
        }
        if (lane == 0) *s_len = kept;
    }
    __syncthreads();
    return *s_len;
}

/// All merges of group g (mhca_agglomerate.cpp's run on the group alone) by the block. The step and
/// the new distances follow the per-stage kernels: closestPairKernel, mergeShapeKernel,
/// centroidNewDistancesKernel, newRowUpdateKernel, centroidRescanKernel.
template <int MAXD>
__device__ inline void clusterGroup(MhcaView lv, int g, const GroupPhaseArgs& ga, double* s_dyn) {
    __shared__ RowTop s_warp[32];
    __shared__ double s_min[32];
    __shared__ int s_flag;
    __shared__ int s_len;
    __shared__ double s_value;
    __shared__ Step s_step;
    __shared__ ShapeResult s_shape;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int n = lv.cfg.n, d = lv.cfg.d, packed = lv.cfg.packed;
    const ShapeArea area = shapeArea(s_dyn, d, ga.stageRows);
    int* list = const_cast<int*>(lv.visited.list);
    const int merges = lv.visited.length - 1;
    startGroup(lv, g, s_min);
    for (int m = 0; m < merges; ++m) {
        RowTop top = noTop();
        for (int t = tid; t < lv.visited.length; t += nt) {
            const int slot = list[t];
            if (!lv.clusters.alive[slot] || lv.nearest.nn[slot] < 0) continue;
            const Candidate c{lv.nearest.nnKey[slot], lv.clusters.pos[slot], slot};
            if (candidateBefore(c, top.best)) top.best = c;
        }
        top = blockTop(top, s_warp);
        if (tid == 0) {
            MergePlan plan = planMerge(lv.cfg, lv.clusters, lv.mergeLog, top.best,
                                       top.best.slot >= 0 ? lv.nearest.nn[top.best.slot] : -1, m);
            if (plan.st.valid && plan.st.switchNow) {  // the host admits no group that reaches the threshold
                atomicExch(ga.failed, 1);
                plan.st.valid = 0;
            }
            commitMerge(lv.cfg, lv.clusters, lv.nearest, lv.mergeLog, lv.scratch, lv.visited, plan, true);
            s_step = plan.st;
        }
        __syncthreads();
        if (!s_step.valid) break;  // no finite pair left: the host reports the missing merges
        const Step planned = s_step;
        mergedShapeBlock(lv.cfg, lv.clusters, planned, area, &s_shape, &s_flag, &s_value, wholeBlock(), false);
        writeMergedShape(lv.cfg, lv.clusters, planned, area, s_shape);
        __syncthreads();  // the shape area is free; slot a's new values are visible to the block

        const int a = planned.a, modeC = lv.clusters.mode[a];
        const MetricRef mGlobal = slotMetric(lv.cfg, lv.clusters, a, modeC);
        double* s_c = s_dyn;
        for (int k = tid; k < d; k += nt) s_c[k] = lv.clusters.mu[static_cast<size_t>(k) * n + a];
        if (mGlobal.m)
            for (int e = tid; e < packed; e += nt) s_c[d + e] = mGlobal.m[e * mGlobal.stride];
        __syncthreads();
        const MetricRef mC{mGlobal.m ? s_c + d : nullptr, 1};
        const double maxDist = lv.mergeLog.groups[g].maxDist;
        double smallest = 0.0;
        for (int t = tid; t < lv.visited.length; t += nt) {
            const int o = list[t];
            if (!lv.clusters.alive[o] || o == a) continue;
            const double dist =
                newRowDistance<MAXD>(s_c, 1, mC, lv.clusters.mu + o, slotMetric(lv.cfg, lv.clusters, o, modeC), n, d);
            lv.scratch.newDist[t] = dist;
            const double key = dsub(maxDist, dist);
            if (key < smallest) smallest = key;
        }
        smallest = blockMinValue(smallest, s_min);
        if (tid == 0) {
            recordShift(lv.mergeLog, smallest);
            s_step = *lv.mergeLog.step;
        }
        __syncthreads();

        const Step st = s_step;
        const double maxDistNow = lv.mergeLog.groups[g].maxDist;
        const int posA = lv.clusters.pos[a];
        RowTop topA = noTop();
        for (int t = tid; t < lv.visited.length; t += nt) {
            const int o = list[t];
            if (!lv.clusters.alive[o] || o == a) continue;
            if (updateRowForMerge<true>(lv.clusters, lv.nearest, st, o, lv.scratch.newDist[t], maxDistNow, posA, topA))
                appendRescan(lv.scratch, o);
        }
        RowTop* parts = ga.rowParts + static_cast<size_t>(g) * kGroupWarps;
        finishGroupRow(lv, a, topA, parts);
        const int rows = *reinterpret_cast<volatile int*>(lv.scratch.rescanCount);
        for (int i = 0; i < rows; ++i) rescanGroupRow<MAXD>(lv, g, lv.scratch.rescanRows[i], s_dyn, parts);
        const int live = merges - m;  // clusters left
        if (lv.visited.length >= 64 && live <= lv.visited.length / 2)
            lv.visited.length = compactGroupList(lv, list, lv.visited.length, &s_len);
        __syncthreads();  // every thread read the rescan count and the list before the next commit
    }
}

/// The group phase: each block takes groups order[*next ...] until none is left. Dynamic shared memory:
/// ga.areaDoubles doubles (the shape area, reused for the staged rows).
template <int MAXD>
__global__ void __launch_bounds__(kGroupThreads) cmdGroupKernel(MhcaView v, GroupPhaseArgs ga) {
    extern __shared__ double s_dyn[];
    __shared__ int s_group;
    for (;;) {
        if (threadIdx.x == 0) {
            const int k = atomicAdd(ga.next, 1);
            s_group = k < ga.groups ? ga.order[k] : -1;
        }
        __syncthreads();
        const int g = s_group;
        if (g < 0) return;
        const unsigned long long start = ga.nanoseconds != nullptr ? globalNanoseconds() : 0ull;
        clusterGroup<MAXD>(groupView(v, ga, g), g, ga, s_dyn);
        if (ga.nanoseconds != nullptr && threadIdx.x == 0) ga.nanoseconds[g] = globalNanoseconds() - start;
        __syncthreads();  // s_group is read by every thread before it changes
    }
}

}  // namespace clusterlens::cuda::mhca
