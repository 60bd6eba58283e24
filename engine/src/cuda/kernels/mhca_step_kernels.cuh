#pragma once
// Kernels of one MHCA merge step common to CMD and FMD (thesis section 2.5): the initial nearest
// neighbours of single points, the minimum retrieval with mhclust.c's bookkeeping of the chosen
// merge, and the new cluster's mean, scatter matrix and shape Σ'^-1.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_merge_device.cuh"

namespace clusterlens::cuda::mhca {

/// Every slot a single point (MhcaEngine::startFromPoints), one thread per slot: size 1, position and
/// id its index (the id only without `keepIds`: the caller uploaded them), birth -1, nmf 1, weight 0,
/// its mean the point (mu is d x n, x n x d) and, for CMD, itself as its member list.
__global__ void singlePointSlotsKernel(const __grid_constant__ MhcaConfig cfg,
                                       const __grid_constant__ ClusterView clusters, int keepIds) {
    const int n = cfg.n, d = cfg.d;
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        clusters.size[i] = 1;
        clusters.pos[i] = i;
        if (!keepIds) clusters.id[i] = i;
        clusters.birth[i] = -1;
        clusters.nmf[i] = 1.0;
        clusters.weight[i] = 0.0;
        for (int k = 0; k < d; ++k)
            clusters.mu[static_cast<size_t>(k) * n + i] = clusters.x[static_cast<size_t>(i) * d + k];
        if (!cfg.full) clusters.members[static_cast<size_t>(i) * cfg.memberCap] = i;
    }
}

/// Single points of the same group, every later one against every row (one thread per row, its point
/// in registers when MAXD > 0, candidate points in shared memory tiles of `tileRows` points), with the
/// Euclidean distance of two points (mhcaCpu: Σ (x_j - x_i)² in feature order, then sqrt).
/// kLargest: the group's largest distance (mhca's initial maxDistX) into groups[g].maxDist.
/// Otherwise: each row's best later partner by key maxDistX - d (first wins on ties) and the key of
/// the previous running best (mhca_agglomerate.cpp's RowBest). Dynamic shared memory:
/// tileRows * (d doubles + 1 int).
template <int MAXD, bool kLargest>
__global__ void nearestPointKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                   const __grid_constant__ NearestRowView nearest,
                                   const __grid_constant__ MergeLogView mergeLog, int rowBegin, int rowEnd,
                                   int tileRows) {
    extern __shared__ double s_tile[];
    const int d = cfg.d, n = cfg.n, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    int* s_group = reinterpret_cast<int*>(s_tile + static_cast<size_t>(tileRows) * d);
    const int blockFirst = rowBegin + static_cast<int>(blockIdx.x) * nt;
    const int i = blockFirst + tid;
    const bool active = i < rowEnd;
    const int gi = active ? clusters.group[i] : -1;
    const double maxDist = active ? mergeLog.groups[gi].maxDist : 0.0;
    const double* xi = clusters.x + static_cast<size_t>(active ? i : 0) * d;
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
            s_tile[t] = j < n ? clusters.x[static_cast<size_t>(j) * d + t % d] : 0.0;
        }
        for (int t = tid; t < tileRows; t += nt) s_group[t] = tile + t < n ? clusters.group[tile + t] : -2;
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
        atomicMaxNonNegative(&mergeLog.groups[gi].maxDist, sqrt(best.q));
    } else {
        nearest.nn[i] = best.slot;
        nearest.nnKey[i] = best.slot < 0 ? kNoKey : best.key;
        nearest.nnBefore[i] = best.before;
    }
}

/// The best row of rows list[first], list[first + stride], .. in candidate order (key, then position:
/// BLAS idamax over mhca's packed keys): alive, with a partner, and neither the row nor its partner is
/// slot x or y (-1: none; the speculation leaves out the step's merged pair).
__device__ inline RowTop bestRow(const ClusterView& clusters, const NearestRowView& nearest,
                                 const VisitedListView& visited, int first, int stride, int x = -1, int y = -1) {
    RowTop top = noTop();
    for (int t = first; t < visited.length; t += stride) {
        const int slot = visited.list[t];
        // Every load of the row at once (one latency, not three): the arrays hold any slot.
        const bool alive = clusters.alive[slot] != 0;
        const int nn = nearest.nn[slot];
        Candidate c;
        c.key = nearest.nnKey[slot];
        c.pos = clusters.pos[slot];
        c.slot = slot;
        if (alive && nn >= 0 && slot != x && slot != y && nn != x && nn != y && candidateBefore(c, top.best))
            top.best = c;
    }
    return top;
}

/// Minimum retrieval (thesis 2.5.4) over the visited slots, grid-wide: each block reduces a
/// grid-stride share, the last block to finish reduces the block results in block order and decides
/// the merge (largest key, first position on ties: BLAS idamax over mhca's packed keys). Uses
/// partials[0 .. gridDim.x) and counters[0]. Nothing but an empty step while the loop is halted.
__global__ void closestPairKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                  const __grid_constant__ NearestRowView nearest,
                                  const __grid_constant__ MergeLogView mergeLog,
                                  const __grid_constant__ MergeScratchView scratch,
                                  const __grid_constant__ VisitedListView visited) {
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    if (*mergeLog.halt) {  // FMD: the loop waits for the host; this step is empty (every later kernel skips it)
        if (blockIdx.x == 0 && threadIdx.x == 0) mergeLog.step->valid = 0;
        return;
    }
    RowTop top = bestRow(clusters, nearest, visited, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                         static_cast<int>(gridDim.x * blockDim.x));
    top = blockTop(top, s_warp);
    if (!publishAndArrive(top, &scratch.partials[blockIdx.x], &scratch.counters[0], gridDim.x, &s_flag)) return;
    RowTop all = noTop();
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += static_cast<int>(blockDim.x))
        all = combineTop(all, loadTop(&scratch.partials[i]));
    all = blockTop(all, s_warp);
    if (threadIdx.x == 0) {
        scratch.counters[0] = 0;
        const int nnOfBest = all.best.slot >= 0 ? nearest.nn[all.best.slot] : -1;
        commitMerge(cfg, clusters, nearest, mergeLog, scratch, visited,
                    planMerge(cfg, clusters, mergeLog, all.best, nnOfBest, *mergeLog.mergeCount), true);
    }
}

/// Thesis 2.5.2 / 2.5.3 for the merged cluster of the step, by one block: member list (CMD), mean
/// (mhclust.c's size-weighted update), scatter matrix, covariance, Σ'^-1, Σ'^-1/nmf and the identity
/// flag into slot a. `g_work` replaces shared memory when the layout does not fit there.
__global__ void mergeShapeKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                 const __grid_constant__ MergeLogView mergeLog,
                                 const __grid_constant__ MergeScratchView scratch, ShapeLayout layout, double* g_work) {
    extern __shared__ double s_dyn[];
    __shared__ int s_flag;
    __shared__ Step s_step;
    __shared__ ShapeResult s_result;
    __shared__ double s_value;
    if (threadIdx.x == 0) s_step = *mergeLog.step;
    __syncthreads();
    const Step st = s_step;
    if (!st.valid) return;
    if (scratch.spec) {  // FMD: the shape computed ahead stands for exactly this merge of these slots
        const SpecShape spec = scratch.spec[st.merge & 1];
        if (spec.merge == st.merge && spec.a == st.a && spec.b == st.b) {
            const ShapeResult r{spec.nmf, spec.shaped, spec.identity};
            writeMergedShape(cfg, clusters, st, specArea(scratch, layout.p, st.merge), r);
            return;
        }
    }
    const ShapeArea area = shapeArea(g_work ? g_work : s_dyn, layout.p, layout.stageRows);
    mergedShapeBlock(cfg, clusters, st, area, &s_result, &s_flag, &s_value, wholeBlock(), false);
    __syncthreads();
    writeMergedShape(cfg, clusters, st, area, s_result);
}

/// FMD speculation, first half (grid-wide, beside the step's later kernels): each block's best row
/// for the next merge other than this step's pair, into parts[blockIdx.x].
__global__ void fmdSpeculationScanKernel(const __grid_constant__ ClusterView clusters,
                                         const __grid_constant__ NearestRowView nearest,
                                         const __grid_constant__ MergeLogView mergeLog,
                                         const __grid_constant__ VisitedListView visited, RowTop* parts) {
    __shared__ RowTop s_warp[32];
    const Step st = *mergeLog.step;
    if (!st.valid) return;
    RowTop top = bestRow(clusters, nearest, visited, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                         static_cast<int>(gridDim.x * blockDim.x), st.a, st.b);
    top = blockTop(top, s_warp);
    if (threadIdx.x == 0) parts[blockIdx.x] = top;
}

/// FMD speculation, second half (one block, after the scan, before the next step's closest pair): the
/// shape of the pair likely to merge next — the best row c of the scan's parts[0 .. partCount), whose
/// partner d = nn[c] is neither a nor b — into the speculation of merge st.merge + 1 (two of them
/// alternate, so this step's shape kernel may still read its own). The rows are being updated
/// meanwhile, so the choice may be stale; but the shape of c ∪ d depends only on the two clusters'
/// members, which nothing changes before one of them merges, so mergeShapeKernel takes it exactly when
/// the next step merges c (row) and d. O(|c ∪ d|·d²).
__global__ void fmdSpeculativeShapeKernel(const __grid_constant__ MhcaConfig cfg,
                                          const __grid_constant__ ClusterView clusters,
                                          const __grid_constant__ NearestRowView nearest,
                                          const __grid_constant__ MergeLogView mergeLog,
                                          const __grid_constant__ MergeScratchView scratch, ShapeLayout layout,
                                          int stagedInShared, const RowTop* parts, int partCount) {
    extern __shared__ double s_dyn[];
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    __shared__ Step s_step;
    __shared__ ShapeResult s_result;
    __shared__ double s_value;
    const Step st = *mergeLog.step;
    if (!st.valid) return;  // a halted loop's empty step: the speculation stays for the merge to come
    RowTop top = noTop();
    for (int i = static_cast<int>(threadIdx.x); i < partCount; i += static_cast<int>(blockDim.x))
        top = combineTop(top, parts[i]);
    top = blockTop(top, s_warp);
    if (threadIdx.x == 0) {
        Step sp{};
        const int c = top.best.slot, d = c >= 0 ? nearest.nn[c] : -1;
        sp.valid = c >= 0 && d >= 0 && d != st.a && d != st.b && clusters.alive[d];
        if (sp.valid) {
            sp.a = c;
            sp.b = d;
            sp.sizeA = clusters.size[c];
            sp.sizeB = clusters.size[d];
            sp.startA = clusters.start[c];
            sp.startB = clusters.start[d];
            sp.bMoved = 0;
            sp.merge = st.merge + 1;
            sp.weight = mergeWeight(cfg, sp.sizeA + sp.sizeB);
        }
        s_step = sp;
    }
    __syncthreads();
    const Step sp = s_step;
    if (!sp.valid) return;
    const int p = layout.p;
    const ShapeArea out = specArea(scratch, p, sp.merge);
    const ShapeArea area = stagedInShared ? shapeArea(s_dyn, p, layout.stageRows) : out;
    mergedShapeBlock(cfg, clusters, sp, area, &s_result, &s_flag, &s_value, wholeBlock(), false);
    __syncthreads();
    if (stagedInShared) {
        for (int t = static_cast<int>(threadIdx.x); t < p * p; t += static_cast<int>(blockDim.x))
            out.inverse[t] = area.inverse[t];
        for (int t = static_cast<int>(threadIdx.x); t < p * (p + 1) / 2; t += static_cast<int>(blockDim.x))
            out.scatter[t] = area.scatter[t];
        for (int t = static_cast<int>(threadIdx.x); t < p; t += static_cast<int>(blockDim.x))
            out.newMu[t] = area.newMu[t];
    }
    if (threadIdx.x == 0) scratch.spec[sp.merge & 1] = specRecordOf(sp, s_result);
}

/// Writes the initial clusters of a run that starts from clusters into their slots (one block per
/// cluster): position, id, distance mode, shape, mean, FMD start or CMD member list; they form group 0.
__global__ void scatterClustersKernel(const __grid_constant__ MhcaConfig cfg,
                                      const __grid_constant__ ClusterView clusters,
                                      const __grid_constant__ NearestRowView nearest, ClusterUpload u) {
    const int n = cfg.n, d = cfg.d, packed = cfg.packed;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int t = static_cast<int>(blockIdx.x); t < u.count; t += static_cast<int>(gridDim.x)) {
        const int slot = u.slot[t], shape = u.shapeIndex[t];
        if (tid == 0) {
            clusters.pos[slot] = u.pos[t];
            clusters.id[slot] = u.id[t];
            clusters.group[slot] = 0;
            clusters.birth[slot] = -1;
            clusters.mode[slot] = u.mode[t];
            clusters.identity[slot] = static_cast<signed char>(shape < 0);
            clusters.nmf[slot] = u.nmf[t];
            clusters.weight[slot] = u.weight[t];
            clusters.alive[slot] = 1;
            nearest.nn[slot] = -1;
            nearest.nnKey[slot] = kNoKey;
            nearest.nnBefore[slot] = kNoKey;
            if (cfg.full) clusters.start[slot] = u.start[t];
        }
        for (int k = tid; k < d; k += nt)
            clusters.mu[static_cast<size_t>(k) * n + slot] = u.mu[static_cast<size_t>(t) * d + k];
        if (shape >= 0) {
            for (int e = tid; e < packed; e += nt) {
                clusters.metric[static_cast<size_t>(e) * n + slot] = u.metric[static_cast<size_t>(shape) * packed + e];
                clusters.scaled[static_cast<size_t>(e) * n + slot] = u.scaled[static_cast<size_t>(shape) * packed + e];
            }
        }
        const int first = u.memberOffset[t], count = u.memberOffset[t + 1] - first;
        if (!cfg.full && count <= cfg.memberCap)
            for (int i = tid; i < count; i += nt)
                clusters.members[static_cast<size_t>(slot) * cfg.memberCap + i] = u.memberRows[first + i];
    }
}

/// The sizes and packed scatter matrices of `count` slots, between the slot arrays and a compact
/// buffer (slot t's entries from t · packed): gathered into it (toCompact) or written from it. One
/// block per slot.
__global__ void slotShapesKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                 const int* __restrict__ slots, int count, int* __restrict__ sizes,
                                 double* __restrict__ scatter, bool toCompact) {
    const int packed = cfg.packed, n = cfg.n;
    for (int t = static_cast<int>(blockIdx.x); t < count; t += static_cast<int>(gridDim.x)) {
        const int slot = slots[t];
        if (threadIdx.x == 0) {
            if (toCompact)
                sizes[t] = clusters.size[slot];
            else
                clusters.size[slot] = sizes[t];
        }
        for (int e = static_cast<int>(threadIdx.x); e < packed; e += static_cast<int>(blockDim.x)) {
            double& inSlot = clusters.scatter[static_cast<size_t>(e) * n + slot];
            double& compact = scatter[static_cast<size_t>(t) * packed + e];
            if (toCompact)
                compact = inSlot;
            else
                inSlot = compact;
        }
    }
}

}  // namespace clusterlens::cuda::mhca
