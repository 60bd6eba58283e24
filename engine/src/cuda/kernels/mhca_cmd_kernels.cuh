#pragma once
// Neighbour-array update (thesis section 2.5.5, without its Euclidean/Mahalanobis split: the identity
// flag of each cluster picks the cheap form per pair), with mhca's keys maxDistX - d. After a merge,
// the merged cluster's distances to every live cluster (CMD here, FMD from its member sums) may shift
// all keys (a new distance above maxDistX); then they give its own row's best, update the rows before
// it (mhca_agglomerate.cpp's updateAfterMerge) and mark the rows to rescan.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_runner_device.cuh"

namespace clusterlens::cuda::mhca {

/// CMD distance of two clusters given by slot (metrics of the pair's mode, means in global memory).
template <int MAXD>
__device__ __noinline__ double slotDistance(const MhcaConfig& cfg, const ClusterView& clusters, int p, int q,
                                            int mode) {
    const size_t n = static_cast<size_t>(cfg.n);
    return centroidDistance<MAXD>(clusters.mu + p, n, slotMetric(cfg, clusters, p, mode), clusters.mu + q, n,
                                  slotMetric(cfg, clusters, q, mode), cfg.d);
}

/// CMD, first half of the update: distances of the merged cluster (slot a, staged in shared memory)
/// to every visited live cluster of its group into newDist[list index], and the shift of all keys when
/// one of them exceeds maxDistX. On the switch to pure Mahalanobis (no new row: mhclust.c recomputes
/// every pair), the smallest key over all pairs of the group decides the shift instead, one thread
/// per row. Dynamic shared memory: (d + packed) doubles when staged. Uses partials[0 .. gridDim.x).
template <int MAXD>
__global__ void centroidNewDistancesKernel(const __grid_constant__ MhcaConfig cfg,
                                           const __grid_constant__ ClusterView clusters,
                                           const __grid_constant__ MergeLogView mergeLog,
                                           const __grid_constant__ MergeScratchView scratch,
                                           const __grid_constant__ VisitedListView visited) {
    extern __shared__ double s_c[];
    __shared__ double s_min[32];
    __shared__ int s_flag;
    __shared__ Step s_step;
    if (threadIdx.x == 0) s_step = *mergeLog.step;
    __syncthreads();
    const Step st = s_step;
    if (!st.valid) return;
    const int a = st.a, n = cfg.n, d = cfg.d;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const double maxDist = mergeLog.groups[st.group].maxDist;
    double smallest = 0.0;
    if (st.switchNow) {
        for (int t = static_cast<int>(blockIdx.x) * nt + tid; t < visited.length;
             t += static_cast<int>(gridDim.x) * nt) {
            const int o = visited.list[t];
            if (!clusters.alive[o] || clusters.group[o] != st.group) continue;
            const int posO = clusters.pos[o];
            for (int u = 0; u < visited.length; ++u) {
                const int j = visited.list[u];
                if (!clusters.alive[j] || clusters.group[j] != st.group || clusters.pos[j] <= posO) continue;
                const double key = dsub(maxDist, slotDistance<MAXD>(cfg, clusters, o, j, cfg.postSwitchMode));
                if (key < smallest) smallest = key;
            }
        }
        finishSmallest(mergeLog, scratch, smallest, s_min, &s_flag);
        return;
    }
    const int modeC = clusters.mode[a];
    const MetricRef mGlobal = slotMetric(cfg, clusters, a, modeC);
    const double* muC = clusters.mu + a;
    size_t muStride = static_cast<size_t>(n);
    MetricRef mC = mGlobal;
    if (cfg.stage) {
        double* metC = s_c + d;
        for (int k = tid; k < d; k += nt) s_c[k] = clusters.mu[static_cast<size_t>(k) * n + a];
        if (mGlobal.m)
            for (int e = tid; e < cfg.packed; e += nt) metC[e] = mGlobal.m[e * mGlobal.stride];
        __syncthreads();
        muC = s_c;
        muStride = 1;
        if (mGlobal.m) {
            mC.m = metC;
            mC.stride = 1;
        }
    }
    for (int t = static_cast<int>(blockIdx.x) * nt + tid; t < visited.length; t += static_cast<int>(gridDim.x) * nt) {
        const int o = visited.list[t];
        if (!clusters.alive[o] || o == a || clusters.group[o] != st.group) continue;
        const double dist =
            newRowDistance<MAXD>(muC, muStride, mC, clusters.mu + o, slotMetric(cfg, clusters, o, modeC), n, d);
        scratch.newDist[t] = dist;
        const double key = dsub(maxDist, dist);
        if (key < smallest) smallest = key;
    }
    finishSmallest(mergeLog, scratch, smallest, s_min, &s_flag);
}

/// Second half (CMD and FMD): shifts the stored keys when the step shifted (rows whose bound now equals
/// their best are rescanned), turns newDist into keys, gives row a its best later partner and offers a
/// to the earlier rows; marks rescans. On the switch every live row of the group, a included, is
/// marked. Uses partials[0 .. gridDim.x) and counters[0].
template <bool runners>
__global__ void newRowUpdateKernel(const __grid_constant__ ClusterView clusters,
                                   const __grid_constant__ NearestRowView nearest,
                                   const __grid_constant__ MergeLogView mergeLog,
                                   const __grid_constant__ MergeScratchView scratch,
                                   const __grid_constant__ VisitedListView visited) {
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    __shared__ Step s_step;
    if (threadIdx.x == 0) s_step = *mergeLog.step;
    __syncthreads();
    const Step st = s_step;
    if (!st.valid) return;
    const int a = st.a, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    if (st.switchNow) {
        for (int t = static_cast<int>(blockIdx.x) * nt + tid; t < visited.length;
             t += static_cast<int>(gridDim.x) * nt) {
            const int o = visited.list[t];
            if (clusters.alive[o] && clusters.group[o] == st.group) appendRescan(scratch, o);
        }
        return;
    }
    const double maxDist = mergeLog.groups[st.group].maxDist;
    const int posA = clusters.pos[a];
    RowTop top = noTop();
    for (int t = static_cast<int>(blockIdx.x) * nt + tid; t < visited.length; t += static_cast<int>(gridDim.x) * nt) {
        const int o = visited.list[t];
        if (!clusters.alive[o] || o == a || clusters.group[o] != st.group) continue;
        if (updateRowForMerge<runners>(clusters, nearest, st, o, scratch.newDist[t], maxDist, posA, top))
            appendRescan(scratch, o);
    }
    top = blockTop(top, s_warp);
    if (!publishAndArrive(top, &scratch.partials[blockIdx.x], &scratch.counters[0], gridDim.x, &s_flag)) return;
    RowTop all = noTop();
    for (int i = tid; i < static_cast<int>(gridDim.x); i += nt) all = combineTop(all, loadTop(&scratch.partials[i]));
    all = blockTop(all, s_warp);
    if (tid == 0) {
        scratch.counters[0] = 0;
        nearest.nn[a] = all.best.slot;
        nearest.nnKey[a] = all.best.slot < 0 ? kNoKey : all.best.key;
        nearest.nnBefore[a] = all.second;
        if (runners) {  // no runners-up: the bound of all its other partners
            nearest.runCount[a] = 0;
            nearest.runBound[a] = all.second;
        }
    }
}

/// What a row rescan computes.
enum RescanMode : int { kRescanKeys = 0, kRescanLargest = 1 };

/// Rows of the rescan list against every later live cluster of their group (mhca_agglomerate.cpp's
/// nearestOfRow: the best key, first on ties, keys replayed from the distance and the younger
/// cluster's stamp; distance mode of the younger cluster), or their largest distance into the group's
/// maxDistX (the start of the apriori top level). Work items (row, chunk of the list) are spread over
/// a fixed grid; the last chunk of a row to finish reduces the row's partials in chunk order.
/// Dynamic shared memory: (d + 2 * packed) doubles when staged. Uses counters[1 + row].
template <int MAXD>
__global__ void centroidRescanKernel(const __grid_constant__ MhcaConfig cfg,
                                     const __grid_constant__ ClusterView clusters,
                                     const __grid_constant__ NearestRowView nearest,
                                     const __grid_constant__ MergeLogView mergeLog,
                                     const __grid_constant__ MergeScratchView scratch,
                                     const __grid_constant__ VisitedListView visited, int targetItems, int mode) {
    extern __shared__ double s_r[];
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    const int rows = *scratch.rescanCount;
    if (rows == 0) return;
    const int n = cfg.n, d = cfg.d, packed = cfg.packed, listLen = visited.length;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int cpr = chunksPerRow(rows, listLen, targetItems);
    const int chunk = (listLen + cpr - 1) / cpr;
    for (int item = static_cast<int>(blockIdx.x); item < rows * cpr; item += static_cast<int>(gridDim.x)) {
        const int rowIdx = item / cpr, c = item % cpr;
        const int r = scratch.rescanRows[rowIdx];
        const bool identityR = clusters.identity[r] != 0;
        const double* muRow = clusters.mu + r;
        const double* rawRow = clusters.metric + r;
        const double* scaledRow = clusters.scaled + r;
        size_t stride = static_cast<size_t>(n);
        if (cfg.stage) {
            __syncthreads();
            stageRow(cfg, clusters, r, identityR, s_r);
            __syncthreads();
            muRow = s_r;
            rawRow = s_r + d;
            scaledRow = s_r + d + packed;
            stride = 1;
        }
        const int posR = clusters.pos[r], groupR = clusters.group[r], birthR = clusters.birth[r],
                  modeR = clusters.mode[r];
        RowTop top = noTop();
        double largest = 0.0;
        const int end = min(listLen, (c + 1) * chunk);
        for (int t = c * chunk + tid; t < end; t += nt) {
            const int j = visited.list[t];
            if (!clusters.alive[j] || clusters.group[j] != groupR || clusters.pos[j] <= posR) continue;
            const int birthJ = clusters.birth[j];
            const int pairMode = birthR >= birthJ ? modeR : clusters.mode[j];
            MetricRef mR;
            mR.m = (identityR || pairMode == kModeIdentity) ? nullptr : (pairMode == kModeScaled ? scaledRow : rawRow);
            mR.stride = stride;
            const double dist =
                newRowDistance<MAXD>(muRow, stride, mR, clusters.mu + j, slotMetric(cfg, clusters, j, pairMode), n, d);
            if (mode == kRescanLargest) {
                if (dist > largest) largest = dist;
                continue;
            }
            Candidate cand;
            cand.key = keyOf(mergeLog, dist, max(birthR, birthJ), groupR);
            cand.pos = clusters.pos[j];
            cand.slot = j;
            offerTop(top, cand);
        }
        if (mode == kRescanLargest) {
            atomicMaxNonNegative(&mergeLog.groups[groupR].maxDist, largest);
            continue;
        }
        top = blockTop(top, s_warp);
        if (publishAndArrive(top, &scratch.partials[item], &scratch.counters[1 + rowIdx], static_cast<unsigned>(cpr),
                             &s_flag)) {
            RowTop row = noTop();
            for (int i = tid; i < cpr; i += nt) row = combineTop(row, loadTop(&scratch.partials[rowIdx * cpr + i]));
            row = blockTop(row, s_warp);
            if (tid == 0) {
                scratch.counters[1 + rowIdx] = 0;
                nearest.nn[r] = row.best.slot;
                nearest.nnKey[r] = row.best.slot < 0 ? kNoKey : row.best.key;
                nearest.nnBefore[r] = row.second;
            }
        }
    }
}

}  // namespace clusterlens::cuda::mhca
