#pragma once
// Kernels of one MHCA merge step common to CMD and FMD (thesis section 2.5): the initial nearest
// neighbours of single points, the minimum retrieval with mhclust.c's bookkeeping of the chosen
// merge, and the new cluster's mean, scatter matrix and shape Σ'^-1.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"

namespace clusterlens::cuda::mhca {

/// Single points of the same group, every later one against every row (one thread per row, its point
/// in registers when MAXD > 0, candidate points in shared memory tiles of `tileRows` points), with the
/// Euclidean distance of two points (mhcaCpu: Σ (x_j - x_i)² in feature order, then sqrt).
/// kLargest: the group's largest distance (mhca's initial maxDistX) into groups[g].maxDist.
/// Otherwise: each row's best later partner by key maxDistX - d (first wins on ties) and the key of
/// the previous running best (mhca_agglomerate.cpp's RowBest). Dynamic shared memory:
/// tileRows * (d doubles + 1 int).
template <int MAXD, bool kLargest>
__global__ void nearestPointKernel(MhcaView v, int rowBegin, int rowEnd, int tileRows) {
    extern __shared__ double s_tile[];
    const int d = v.cfg.d, n = v.cfg.n, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    int* s_group = reinterpret_cast<int*>(s_tile + static_cast<size_t>(tileRows) * d);
    const int blockFirst = rowBegin + static_cast<int>(blockIdx.x) * nt;
    const int i = blockFirst + tid;
    const bool active = i < rowEnd;
    const int gi = active ? v.s.group[i] : -1;
    const double maxDist = active ? v.w.groups[gi].maxDist : 0.0;
    const double* xi = v.x + static_cast<size_t>(active ? i : 0) * d;
    double xr[MAXD > 0 ? MAXD : 1];
    if constexpr (MAXD > 0) {
#pragma unroll
        for (int k = 0; k < MAXD; ++k) xr[k] = k < d ? xi[k] : 0.0;
    }
    PointBest best;
    for (int tile = blockFirst + 1; tile < n; tile += tileRows) {
        __syncthreads();
        for (int t = tid; t < tileRows * d; t += nt) {
            const int j = tile + t / d;
            s_tile[t] = j < n ? v.x[static_cast<size_t>(j) * d + t % d] : 0.0;
        }
        for (int t = tid; t < tileRows; t += nt) s_group[t] = tile + t < n ? v.s.group[tile + t] : -2;
        __syncthreads();
        if (!active) continue;
        const int count = min(tileRows, n - tile);
        for (int t = 0; t < count; ++t) {
            const int j = tile + t;
            if (j <= i || s_group[t] != gi) continue;
            const double* xj = s_tile + t * d;
            double q = 0.0;
            if constexpr (MAXD > 0) {
#pragma unroll
                for (int k = 0; k < MAXD; ++k) {
                    if (k < d) {
                        const double diff = dsub(xj[k], xr[k]);
                        q = dadd(q, dmul(diff, diff));
                    }
                }
            } else {
                for (int k = 0; k < d; ++k) {
                    const double diff = dsub(xj[k], xi[k]);
                    q = dadd(q, dmul(diff, diff));
                }
            }
            if constexpr (kLargest) {
                if (q > best.q) best.q = q;
            } else {
                best.offer(q, j, maxDist);
            }
        }
    }
    if (!active) return;
    if constexpr (kLargest) {
        atomicMaxNonNegative(&v.w.groups[gi].maxDist, sqrt(best.q));
    } else {
        v.s.nn[i] = best.slot;
        v.s.nnKey[i] = best.slot < 0 ? kNoKey : best.key;
        v.s.nnBefore[i] = best.before;
    }
}

/// Minimum retrieval (thesis 2.5.4) over the visited slots, grid-wide: each block reduces a
/// grid-stride share, the last block to finish reduces the block results in block order and decides
/// the merge (largest key, first position on ties: BLAS idamax over mhca's packed keys). Uses
/// partials[0 .. gridDim.x) and counters[0]. Nothing but an empty step while the loop is halted.
__global__ void closestPairKernel(MhcaView v) {
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    if (*v.w.halt) {  // FMD: the loop waits for the host; this step is empty (every later kernel skips it)
        if (blockIdx.x == 0 && threadIdx.x == 0) v.w.step->valid = 0;
        return;
    }
    RowTop top = noTop();
    for (int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); t < v.listLen;
         t += static_cast<int>(gridDim.x * blockDim.x)) {
        const int slot = v.list[t];
        // Every load of the row at once (one latency, not three): the arrays hold any slot.
        const bool alive = v.s.alive[slot] != 0;
        const int nn = v.s.nn[slot];
        Candidate c;
        c.key = v.s.nnKey[slot];
        c.pos = v.s.pos[slot];
        c.slot = slot;
        if (alive && nn >= 0 && candidateBefore(c, top.best)) top.best = c;
    }
    top = blockTop(top, s_warp);
    if (!publishAndArrive(top, &v.w.partials[blockIdx.x], &v.w.counters[0], gridDim.x, &s_flag)) return;
    RowTop all = noTop();
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += static_cast<int>(blockDim.x))
        all = combineTop(all, loadTop(&v.w.partials[i]));
    all = blockTop(all, s_warp);
    if (threadIdx.x == 0) {
        v.w.counters[0] = 0;
        const int nnOfBest = all.best.slot >= 0 ? v.s.nn[all.best.slot] : -1;
        commitMerge(v, planMerge(v, all.best, nnOfBest, *v.w.mergeCount), true);
    }
}

/// Thesis 2.5.2 / 2.5.3 for the merged cluster of the step, by one block: member list (CMD), mean
/// (mhclust.c's size-weighted update), scatter matrix, covariance, Σ'^-1, Σ'^-1/nmf and the identity
/// flag into slot a. `g_work` replaces shared memory when the layout does not fit there.
__global__ void mergeShapeKernel(MhcaView v, ShapeLayout layout, double* g_work) {
    extern __shared__ double s_dyn[];
    __shared__ int s_flag;
    __shared__ Step s_step;
    __shared__ ShapeResult s_result;
    __shared__ double s_value;
    if (threadIdx.x == 0) s_step = *v.w.step;
    __syncthreads();
    const Step st = s_step;
    if (!st.valid) return;
    const ShapeArea area = shapeArea(g_work ? g_work : s_dyn, layout.p, layout.stageRows);
    mergedShapeBlock(v, st, area, &s_result, &s_flag, &s_value, wholeBlock(), false);
    __syncthreads();
    writeMergedShape(v, st, area, s_result);
}

/// Writes the initial clusters of a run that starts from clusters into their slots (one block per
/// cluster): position, id, distance mode, shape, mean, FMD start or CMD member list; they form group 0.
__global__ void scatterClustersKernel(MhcaView v, ClusterUpload u) {
    const int n = v.cfg.n, d = v.cfg.d, packed = v.cfg.packed;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int t = static_cast<int>(blockIdx.x); t < u.count; t += static_cast<int>(gridDim.x)) {
        const int slot = u.slot[t], shape = u.shapeIndex[t];
        if (tid == 0) {
            v.s.pos[slot] = u.pos[t];
            v.s.id[slot] = u.id[t];
            v.s.group[slot] = 0;
            v.s.birth[slot] = -1;
            v.s.mode[slot] = u.mode[t];
            v.s.identity[slot] = static_cast<signed char>(shape < 0);
            v.s.nmf[slot] = u.nmf[t];
            v.s.weight[slot] = u.weight[t];
            v.s.alive[slot] = 1;
            v.s.nn[slot] = -1;
            v.s.nnKey[slot] = kNoKey;
            v.s.nnBefore[slot] = kNoKey;
            if (v.cfg.full) v.s.start[slot] = u.start[t];
        }
        for (int k = tid; k < d; k += nt)
            v.s.mu[static_cast<size_t>(k) * n + slot] = u.mu[static_cast<size_t>(t) * d + k];
        if (shape >= 0) {
            for (int e = tid; e < packed; e += nt) {
                v.s.metric[static_cast<size_t>(e) * n + slot] = u.metric[static_cast<size_t>(shape) * packed + e];
                v.s.scaled[static_cast<size_t>(e) * n + slot] = u.scaled[static_cast<size_t>(shape) * packed + e];
            }
        }
        const int first = u.memberOffset[t], count = u.memberOffset[t + 1] - first;
        if (!v.cfg.full && count <= v.cfg.memberCap)
            for (int i = tid; i < count; i += nt)
                v.s.members[static_cast<size_t>(slot) * v.cfg.memberCap + i] = u.memberRows[first + i];
    }
}

}  // namespace clusterlens::cuda::mhca
