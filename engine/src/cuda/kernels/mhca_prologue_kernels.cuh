#pragma once
// The first rescan of every row when every cluster is still a single point: each row's best later
// partner, runners-up and bound (mhca_runner_device.cuh) from one tiled pass over the pairs, instead
// of the rescan passes (CMD: the persistent kernel's, 16 rows per pass, a grid barrier each, the list
// still N long: ~1.45 s of CMD 200K×14 on an H200; FMD: the point and member passes, 256 rows each).
//
// Single points carry the identity metric, and no key has shifted before the first merge. So a
// pair's key is dsub(maxDist, d) with d = (√q + √q)/2 (both sides give the same q) and r = μj − μr:
// CMD's centroidDistance takes q from quadraticForm's identity path, FMD's sums from
// quadraticFormFast's (fused multiply-adds), and FMD's (toS + h2 / 1) / 2 is the same average.
// The state written is the tightest a rescan allows: the row's kRowListLength best partners in
// candidateBefore order, and the best key of all the others as the bound. The rescans' block-wise
// selection gives the same best and a bound no tighter. Merges do not depend on which valid state a
// row holds (a runner-up only saves a rescan).
//
// Work: ~N²/2 pair distances of 3d flops and a square root each; shared memory: MAXD × tile doubles.

#include <climits>

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"

namespace clusterlens::cuda::mhca {

/// Rows per block, and candidates per staged tile.
constexpr int kPrologueTile = 128;

/// A row's state from its exact list (candidateBefore order, empty entries last) and the bound of its
/// other partners: warpFinishRow's stores.
__device__ __forceinline__ void writeSingletonRow(const ClusterView& clusters, const NearestRowView& nearest, int row,
                                                  const Candidate (&top)[kRowListLength], double bound) {
    const RunnerRefs ref = runnerRefs(clusters, nearest);
    int runners = 0;
#pragma unroll
    for (int k = 1; k < kRowListLength; ++k) {
        if (top[k].slot < 0) continue;
        const size_t e = static_cast<size_t>(row) * kRunners + static_cast<size_t>(k - 1);
        ref.key[e] = top[k].key;
        ref.slot[e] = top[k].slot;
        ref.pos[e] = top[k].pos;
        ref.birthOf[e] = ref.birth[top[k].slot];
        ++runners;
    }
    ref.count[row] = runners;
    ref.bound[row] = bound;
    ref.nn[row] = top[0].slot;
    ref.nnKey[row] = top[0].slot < 0 ? kNoKey : top[0].key;
    ref.nnBefore[row] = betterKey(top[1].slot < 0 ? kNoKey : top[1].key, bound);
}

/// One thread per entry of the visited list (its row), blocks of kPrologueTile; the candidates are
/// staged tile by tile, and a tile without any position after the block's first row is skipped (the
/// list runs in position order at the start, so about half the tiles are). onlyFlagged: only the rows
/// whose runCount is -1 (mhca_singleton_pairs_kernels.cuh), and a block without one returns at once.
template <int MAXD, bool kFused>
__global__ void __launch_bounds__(kPrologueTile)
    singletonRowsKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                        const __grid_constant__ NearestRowView nearest, const __grid_constant__ MergeLogView mergeLog,
                        const __grid_constant__ VisitedListView visited, int onlyFlagged) {
    __shared__ double s_mu[MAXD][kPrologueTile];
    __shared__ int s_slot[kPrologueTile];
    __shared__ int s_pos[kPrologueTile];
    __shared__ int s_group[kPrologueTile];
    __shared__ int s_firstRow, s_lastCandidate;
    const int n = cfg.n, d = cfg.d, tid = static_cast<int>(threadIdx.x);
    const int t = static_cast<int>(blockIdx.x) * kPrologueTile + tid;
    const int row = t < visited.length ? visited.list[t] : -1;
    const bool active = row >= 0 && clusters.alive[row] != 0 && (!onlyFlagged || nearest.runCount[row] < 0);
    if (onlyFlagged && __syncthreads_count(active) == 0) return;  // (block-uniform)
    double mu[MAXD];
    int posR = INT_MAX, groupR = -1;
    double maxDist = 0.0;
#pragma unroll
    for (int k = 0; k < MAXD; ++k) mu[k] = active && k < d ? clusters.mu[static_cast<size_t>(k) * n + row] : 0.0;
    if (active) {
        posR = clusters.pos[row];
        groupR = clusters.group[row];
        maxDist = mergeLog.groups[groupR].maxDist;
    }
    if (tid == 0) s_firstRow = INT_MAX;
    __syncthreads();
    if (active) atomicMin(&s_firstRow, posR);

    Candidate top[kRowListLength];
#pragma unroll
    for (int k = 0; k < kRowListLength; ++k) top[k] = noCandidate();
    double bound = kNoKey;
    for (int start = 0; start < visited.length; start += kPrologueTile) {
        __syncthreads();  // the last tile is read (and s_firstRow complete)
        if (tid == 0) s_lastCandidate = INT_MIN;
        __syncthreads();
        const int e = start + tid;
        int slot = e < visited.length ? visited.list[e] : -1;
        if (slot >= 0 && clusters.alive[slot] == 0) slot = -1;
        s_slot[tid] = slot;
        if (slot >= 0) {
            const int pos = clusters.pos[slot];
            s_pos[tid] = pos;
            s_group[tid] = clusters.group[slot];
#pragma unroll
            for (int k = 0; k < MAXD; ++k)
                if (k < d) s_mu[k][tid] = clusters.mu[static_cast<size_t>(k) * n + slot];
            atomicMax(&s_lastCandidate, pos);
        }
        __syncthreads();
        if (s_lastCandidate <= s_firstRow || !active) continue;  // block-uniform first test
        const int count = min(kPrologueTile, visited.length - start);
        for (int c = 0; c < count; ++c) {
            const int j = s_slot[c];
            if (j < 0 || s_pos[c] <= posR || s_group[c] != groupR) continue;
            double r[MAXD];
#pragma unroll
            for (int k = 0; k < MAXD; ++k) r[k] = k < d ? dsub(s_mu[k][c], mu[k]) : 0.0;
            const MetricRef identity{nullptr, 0};
            const double q = kFused ? quadraticFormFast<MAXD>(identity, r, d) : quadraticForm<MAXD>(identity, r, d);
            const double root = sqrt(q);
            Candidate cand;
            cand.key = dsub(maxDist, (root + root) / 2.0);
            cand.pos = s_pos[c];
            cand.slot = j;
            if (candidateBefore(cand, top[kRowListLength - 1])) {
#pragma unroll
                for (int k = 0; k < kRowListLength; ++k) {  // insertion: the list stays sorted
                    if (candidateBefore(cand, top[k])) {
                        const Candidate out = top[k];
                        top[k] = cand;
                        cand = out;
                    }
                }
            }
            if (cand.slot >= 0) bound = betterKey(bound, cand.key);  // the candidate or the one it pushed out
        }
    }
    if (active) writeSingletonRow(clusters, nearest, row, top, bound);
}

}  // namespace clusterlens::cuda::mhca
