#pragma once
// Kernels of the full-member distance (FMD, thesis definition 8, which the thesis program does not
// implement). Members of every cluster are contiguous in `perm`, in mhclust.c's member order; a merge
// moves the second cluster's block right after the first one. The distances of a row cluster s to all
// live clusters j need Σ_{x∈j} m(x, s) (a pass over all points, summed per cluster segment) and
// Σ_{x∈s} m(x, j) (the row's members against every cluster); O((N + K·|s|)·d²) per row.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_runner_device.cuh"

namespace clusterlens::cuda::mhca {

constexpr int kTile = 256;         ///< points per tile of the point pass (= its block size)
constexpr int kMemberBlock = 128;  ///< clusters per block of the member pass

/// Moves the block of b's members to the position right after a's: [a][X][b] -> [a][b][X] (X the
/// clusters between, shifted by |b|), through `temp` (n ints, absolute positions).
__global__ void fmdRotateKernel(const __grid_constant__ ClusterView clusters,
                                const __grid_constant__ MergeLogView mergeLog, int* temp) {
    const Step st = *mergeLog.step;
    if (!st.valid) return;
    const int endA = st.startA + st.sizeA, endB = st.startB + st.sizeB;
    if (st.startB == endA) return;
    for (int p = endA + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); p < endB;
         p += static_cast<int>(gridDim.x * blockDim.x)) {
        const int dst = p < st.startB ? p + st.sizeB : endA + (p - st.startB);
        temp[dst] = clusters.perm[p];
    }
}

/// Second half of the move (perm from temp), the new owner a of b's points and the shifted starts.
__global__ void fmdPlaceKernel(const __grid_constant__ ClusterView clusters,
                               const __grid_constant__ MergeLogView mergeLog,
                               const __grid_constant__ VisitedListView visited, const int* temp) {
    const Step st = *mergeLog.step;
    if (!st.valid) return;
    const int endA = st.startA + st.sizeA, endB = st.startB + st.sizeB;
    const bool moved = st.startB != endA;
    for (int p = endA + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); p < endB;
         p += static_cast<int>(gridDim.x * blockDim.x)) {
        const int point = moved ? temp[p] : clusters.perm[p];
        if (moved) clusters.perm[p] = point;
        if (p < endA + st.sizeB) clusters.pointSlot[point] = st.a;
    }
    if (!moved) return;
    // Start positions of the clusters that were between a and b (no kernel reads starts before the
    // next one).
    for (int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); t < visited.length;
         t += static_cast<int>(gridDim.x * blockDim.x)) {
        const int slot = visited.list[t];
        if (!clusters.alive[slot]) continue;
        const int start = clusters.start[slot];
        if (start >= endA && start < st.startB) clusters.start[slot] = start + st.sizeB;
    }
}

/// Rows of the batch to evaluate (FmdBatch's rule); block-uniform.
__device__ __forceinline__ int batchRows(const MergeLogView& mergeLog, const FmdBatch& f) {
    if (f.gated && (!mergeLog.step->valid || mergeLog.step->switchNow)) return 0;
    if (f.rowLimit == nullptr) return f.rowCount;
    return min(f.rowCount, *f.rowLimit);
}

/// Stages the mean and both metrics of `slot` into shared memory (mu: d, raw and scaled: packed).
__device__ inline void stageCluster(const MhcaConfig& cfg, const ClusterView& clusters, int slot, double* mu,
                                    double* raw, double* scaled) {
    const int n = cfg.n, tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int k = tid; k < cfg.d; k += nt) mu[k] = clusters.mu[static_cast<size_t>(k) * n + slot];
    if (!clusters.identity[slot]) {
        for (int e = tid; e < cfg.packed; e += nt) {
            raw[e] = clusters.metric[static_cast<size_t>(e) * n + slot];
            scaled[e] = clusters.scaled[static_cast<size_t>(e) * n + slot];
        }
    }
}

/// m(x, cluster) = sqrt(q) for the point x (global row) and a cluster whose mean is `mu` (stride).
template <int MAXD>
__device__ __forceinline__ double pointDistance(const double* x, const double* mu, size_t muStride, MetricRef m,
                                                int d) {
    if constexpr (MAXD > 0) {
        double r[MAXD];
#pragma unroll
        for (int k = 0; k < MAXD; ++k) r[k] = k < d ? x[k] - mu[k * muStride] : 0.0;
        return sqrt(quadraticFormFast<MAXD>(m, r, d));
    } else {
        return sqrt(quadraticFormAny(m, x, 1, mu, muStride, d));
    }
}

/// sum + Σ m(x, j) over `count` staged points (d apart), added in point order. The metric of j stays
/// in global memory (too large for registers); each entry is loaded once for POINTS points instead of
/// once per point, which bounded the member pass, and each point's form repeats quadraticFormFast's
/// operations in its order, so the sums are bitwise those of pointDistance for every POINTS.
template <int MAXD, int POINTS>
__device__ __forceinline__ double memberSum(const double* pts, int count, const double* mu, size_t muStride,
                                            MetricRef m, int d, double sum) {
    for (int base = 0; base < count; base += POINTS) {
        double r[POINTS][MAXD];
#pragma unroll
        for (int k = 0; k < MAXD; ++k) {
            const double muK = k < d ? mu[k * muStride] : 0.0;
#pragma unroll
            for (int p = 0; p < POINTS; ++p)  // a group's missing points repeat the last one, unsummed
                r[p][k] = k < d ? pts[min(base + p, count - 1) * d + k] - muK : 0.0;
        }
        double q[POINTS];
#pragma unroll
        for (int p = 0; p < POINTS; ++p) q[p] = 0.0;
        if (m.m == nullptr) {
#pragma unroll
            for (int j = 0; j < MAXD; ++j)
                if (j < d) {
#pragma unroll
                    for (int p = 0; p < POINTS; ++p) q[p] = fma(r[p][j], r[p][j], q[p]);
                }
        } else {
#pragma unroll
            for (int i = 0; i < MAXD; ++i) {
                if (i < d) {
                    double s[POINTS];
#pragma unroll
                    for (int p = 0; p < POINTS; ++p) s[p] = 0.0;
#pragma unroll
                    for (int k = 0; k < i; ++k) {
                        const double mik = m.m[packedIndex(i, k) * m.stride];
#pragma unroll
                        for (int p = 0; p < POINTS; ++p) s[p] = fma(mik, r[p][k], s[p]);
                    }
                    const double mii = m.m[packedIndex(i, i) * m.stride];
#pragma unroll
                    for (int p = 0; p < POINTS; ++p) q[p] = fma(r[p][i], fma(mii, r[p][i], 2.0 * s[p]), q[p]);
                }
            }
        }
#pragma unroll
        for (int p = 0; p < POINTS; ++p)
            if (base + p < count) sum = dadd(sum, sqrt(q[p]));
    }
    return sum;
}

/// Σ_{x∈j} m(x, s) for every cluster j and every row s of the batch (rows blockIdx.y, + gridDim.y, ..):
/// one tile of 256 consecutive perm positions per block; each cluster segment inside the tile is summed
/// in position order by the thread at its start, segments crossing the tile border leave a partial sum
/// (fmdMemberPassKernel completes them). Dynamic shared memory: (d + 2 * packed) doubles.
template <int MAXD>
__global__ void fmdPointPassKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                   const __grid_constant__ MergeLogView mergeLog, FmdBatch f) {
    extern __shared__ double s_m[];
    __shared__ double s_val[kTile];
    __shared__ int s_label[kTile];
    __shared__ unsigned s_end[kTile / 32];
    const int n = cfg.n, d = cfg.d, tid = static_cast<int>(threadIdx.x);
    const int tile = static_cast<int>(blockIdx.x), rows = batchRows(mergeLog, f);
    for (int rowIdx = static_cast<int>(blockIdx.y); rowIdx < rows; rowIdx += static_cast<int>(gridDim.y)) {
        const int s = f.rows[rowIdx];
        const double* muS = clusters.mu + s;
        const double* rawS = clusters.metric + s;
        const double* scaledS = clusters.scaled + s;
        size_t stride = static_cast<size_t>(n);
        __syncthreads();  // the previous row's staged cluster and segment sums are no longer read
        if (cfg.stage) {
            stageCluster(cfg, clusters, s, s_m, s_m + d, s_m + d + cfg.packed);
            __syncthreads();
            muS = s_m;
            rawS = s_m + d;
            scaledS = rawS + cfg.packed;
            stride = 1;
        }
        const bool identityS = clusters.identity[s] != 0;
        const int groupS = clusters.group[s], birthS = clusters.birth[s], modeS = clusters.mode[s];
        const int posS = f.laterOnly ? clusters.pos[s] : -1;
        const int p = tile * kTile + tid;
        double val = 0.0;
        int label = -1;
        if (p < n) {
            const int point = clusters.perm[p];
            label = clusters.pointSlot[point];
            if (posS >= 0 && clusters.pos[label] <= posS) label = -1;  // an earlier cluster: not the row's partner
            if (label >= 0 && label != s && clusters.group[label] == groupS) {
                const int pairMode = birthS >= clusters.birth[label] ? modeS : clusters.mode[label];
                MetricRef m;
                m.m = (identityS || pairMode == kModeIdentity) ? nullptr : (pairMode == kModeScaled ? scaledS : rawS);
                m.stride = stride;
                val = pointDistance<MAXD>(clusters.x + static_cast<size_t>(point) * d, muS, stride, m, d);
            }
        }
        s_val[tid] = val;
        s_label[tid] = label;
        __syncthreads();
        // Segment ends as a bit mask, so that the thread at a segment's start knows its length and its
        // serial sum (position order, the host's) streams the values without a test per entry.
        const unsigned ends = __ballot_sync(0xffffffffu, tid == kTile - 1 || s_label[tid + 1] != label);
        if ((tid & 31) == 0) s_end[tid >> 5] = ends;
        __syncthreads();
        if (label < 0 || label == s || (tid > 0 && s_label[tid - 1] == label) || clusters.group[label] != groupS)
            continue;
        int word = tid >> 5;
        unsigned bits = s_end[word] & (0xffffffffu << (tid & 31));
        while (bits == 0u) bits = s_end[++word];
        const int end = word * 32 + __ffs(static_cast<int>(bits));  // one past the segment's last entry
        double sum = 0.0;
#pragma unroll 8
        for (int k = tid; k < end; ++k) sum = dadd(sum, s_val[k]);
        const int segStart = clusters.start[label], segEnd = segStart + clusters.size[label], tileLo = tile * kTile;
        if (segStart >= tileLo && segEnd <= tileLo + kTile) {
            f.h1[static_cast<size_t>(rowIdx) * n + label] = sum;
        } else {
            f.tileParts[(static_cast<size_t>(rowIdx) * f.tiles + tile) * 2 + (segStart < tileLo ? 0 : 1)] = sum;
        }
    }
}

/// Σ_{x∈j} m(x, s) from the point pass: h1, or for a cluster j whose members span several tiles the
/// tile partials added in tile order (the consumers of the sums combine them, so the member pass does
/// not wait for the point pass).
__device__ __forceinline__ double pointSum(const MhcaConfig& cfg, const ClusterView& clusters, const FmdBatch& f,
                                           int rowIdx, int j) {
    const int first = clusters.start[j] / kTile, last = (clusters.start[j] + clusters.size[j] - 1) / kTile;
    if (first == last) return f.h1[static_cast<size_t>(rowIdx) * cfg.n + j];
    const double* parts = f.tileParts + static_cast<size_t>(rowIdx) * f.tiles * 2;
    double sum = parts[first * 2 + 1];
    for (int tile = first + 1; tile <= last; ++tile) sum = dadd(sum, parts[tile * 2]);
    return sum;
}

/// Σ_{x∈s} m(x, j): block (list block, member chunk, rows blockIdx.z, + gridDim.z, ..); one thread per
/// cluster j of the list, the chunk's member points staged in shared memory; blocks without a partner
/// of the row skip it. Independent of fmdPointPassKernel (the two may run side by side).
/// Dynamic shared memory: f.stage * d doubles. POINTS: member points per load of j's metric (d ≤ 16).
/// (Its views by value and the batch as the __grid_constant__ parameter keep its registers at d ≤ 8.)
template <int MAXD, int POINTS>
__global__ void fmdMemberPassKernel(MhcaConfig cfg, ClusterView clusters, MergeLogView mergeLog,
                                    VisitedListView visited, const __grid_constant__ FmdBatch f) {
    extern __shared__ double s_pts[];
    const int n = cfg.n, d = cfg.d, listLen = visited.length;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int c = static_cast<int>(blockIdx.y), rows = batchRows(mergeLog, f);
    const int t = static_cast<int>(blockIdx.x) * kMemberBlock + tid;
    const int j = t < listLen ? visited.list[t] : -1;
    for (int rowIdx = static_cast<int>(blockIdx.z); rowIdx < rows; rowIdx += static_cast<int>(gridDim.z)) {
        const int s = f.rows[rowIdx];
        const int sizeS = clusters.size[s], startS = clusters.start[s];
        const int per = (sizeS + f.chunks - 1) / f.chunks;
        const int lo = c * per, hi = min(sizeS, lo + per);
        const bool active = j >= 0 && clusters.alive[j] && j != s && clusters.group[j] == clusters.group[s] &&
                            (!f.laterOnly || clusters.pos[j] > clusters.pos[s]);
        if (!__syncthreads_or(active)) continue;  // nothing of this block is read for the row
        MetricRef m{nullptr, 0};
        if (active) {
            const int pairMode = clusters.birth[s] >= clusters.birth[j] ? clusters.mode[s] : clusters.mode[j];
            m = slotMetric(cfg, clusters, j, pairMode);
        }
        double sum = 0.0;
        for (int base = lo; base < hi; base += f.stage) {
            const int count = min(f.stage, hi - base);
            __syncthreads();
            for (int e = tid; e < count * d; e += nt)
                s_pts[e] = clusters.x[static_cast<size_t>(clusters.perm[startS + base + e / d]) * d + e % d];
            __syncthreads();
            if (!active) continue;
            if constexpr (MAXD > 0) {
                sum = memberSum<MAXD, POINTS>(s_pts, count, clusters.mu + j, static_cast<size_t>(n), m, d, sum);
            } else {
                for (int i = 0; i < count; ++i)
                    sum = dadd(sum, pointDistance<0>(s_pts + i * d, clusters.mu + j, static_cast<size_t>(n), m, d));
            }
        }
        if (t < listLen) f.h2[(static_cast<size_t>(rowIdx) * f.chunks + c) * listLen + t] = sum;
    }
}

/// d(s, j) from the two sums (mhcaCpu's clusterDistance: the two means, then their average).
__device__ __forceinline__ double memberDistance(const MhcaConfig& cfg, const ClusterView& clusters,
                                                 const VisitedListView& visited, const FmdBatch& f, int rowIdx, int t,
                                                 int j, double sizeS) {
    double h2 = 0.0;
    for (int k = 0; k < f.chunks; ++k) h2 += f.h2[(static_cast<size_t>(rowIdx) * f.chunks + k) * visited.length + t];
    const double toS = pointSum(cfg, clusters, f, rowIdx, j) / static_cast<double>(clusters.size[j]);
    return (toS + h2 / sizeS) / 2.0;
}

/// The merged cluster's row (batch of one row, a): its distances into newDist and the shift of all
/// keys when one exceeds maxDistX (as centroidNewDistancesKernel; nothing on the switch, where the
/// host runs the all-pairs pass). Uses partials[0 .. gridDim.x) and counters[0].
__global__ void fmdNewDistancesKernel(const __grid_constant__ MhcaConfig cfg,
                                      const __grid_constant__ ClusterView clusters,
                                      const __grid_constant__ MergeLogView mergeLog,
                                      const __grid_constant__ MergeScratchView scratch,
                                      const __grid_constant__ VisitedListView visited, FmdBatch f) {
    __shared__ double s_min[32];
    __shared__ int s_flag;
    const Step st = *mergeLog.step;
    if (!st.valid || st.switchNow) return;
    const int a = st.a;
    const double maxDist = mergeLog.groups[st.group].maxDist;
    const double sizeA = static_cast<double>(clusters.size[a]);
    double smallest = 0.0;
    for (int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); t < visited.length;
         t += static_cast<int>(gridDim.x * blockDim.x)) {
        const int j = visited.list[t];
        if (!clusters.alive[j] || j == a || clusters.group[j] != st.group) continue;
        const double dist = memberDistance(cfg, clusters, visited, f, 0, t, j, sizeA);
        scratch.newDist[t] = dist;
        const double key = dsub(maxDist, dist);
        if (key < smallest) smallest = key;
    }
    finishSmallest(mergeLog, scratch, smallest, s_min, &s_flag);
}

/// The shift decided by an all-pairs pass (the smallest key accumulated in *extreme).
__global__ void applyShiftKernel(const __grid_constant__ MergeLogView mergeLog,
                                 const __grid_constant__ MergeScratchView scratch) {
    if (threadIdx.x == 0 && blockIdx.x == 0) recordShift(mergeLog, *scratch.extreme);
}

/// What a batch of FMD rows computes against every later live cluster of its group.
enum FmdRowMode : int { kFmdKeys = 0, kFmdSmallestKey = 1, kFmdLargest = 2 };

/// Rows of the batch: best key (first on ties) over later partners, its runners-up and the bound of
/// the others (mhca_agglomerate.cpp's nearestOfRow), or the smallest key maxDistX - d into *extreme (the switch),
/// or the largest distance into the group's maxDistX (apriori top level). Work items (row, list chunk);
/// the last chunk of a row reduces it. Uses counters[1 + row]. With f.haltOnRest, a valid step whose
/// rows this batch cannot finish (the switch, or rows past it) halts the merge loop: the step is kept
/// in haltStep for the host, and closestPairKernel makes the steps queued after it empty.
__global__ void fmdFinalizeKernel(const __grid_constant__ MhcaConfig cfg, const __grid_constant__ ClusterView clusters,
                                  const __grid_constant__ NearestRowView nearest,
                                  const __grid_constant__ MergeLogView mergeLog,
                                  const __grid_constant__ MergeScratchView scratch,
                                  const __grid_constant__ VisitedListView visited, FmdBatch f, int targetItems,
                                  int mode) {
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    const int listLen = visited.length, rows = batchRows(mergeLog, f);
    if (f.haltOnRest && blockIdx.x == 0 && threadIdx.x == 0) {
        const Step st = *mergeLog.step;
        if (st.valid && (st.switchNow || *f.rowLimit > f.rowCount)) {
            *mergeLog.haltStep = st;
            *mergeLog.halt = 1;
        }
    }
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const int cpr = chunksPerRow(rows, listLen, targetItems);
    const int chunk = (listLen + cpr - 1) / cpr;
    for (int item = static_cast<int>(blockIdx.x); item < rows * cpr; item += static_cast<int>(gridDim.x)) {
        const int rowIdx = item / cpr, c = item % cpr;
        const int s = f.rows[rowIdx];
        const int posS = clusters.pos[s], groupS = clusters.group[s], birthS = clusters.birth[s];
        const double sizeS = static_cast<double>(clusters.size[s]);
        const double maxDist = mergeLog.groups[groupS].maxDist;
        RowTop top = noTop();
        double extreme = 0.0;
        const int end = min(listLen, (c + 1) * chunk);
        for (int t = c * chunk + tid; t < end; t += nt) {
            const int j = visited.list[t];
            if (!clusters.alive[j] || clusters.group[j] != groupS || clusters.pos[j] <= posS) continue;
            const double dist = memberDistance(cfg, clusters, visited, f, rowIdx, t, j, sizeS);
            if (mode == kFmdLargest) {
                if (dist > extreme) extreme = dist;
            } else if (mode == kFmdSmallestKey) {
                const double key = dsub(maxDist, dist);
                if (key < extreme) extreme = key;
            } else {
                Candidate cand;
                cand.key = keyOf(mergeLog, dist, max(birthS, clusters.birth[j]), groupS);
                cand.pos = clusters.pos[j];
                cand.slot = j;
                offerTop(top, cand);
            }
        }
        if (mode == kFmdLargest) {
            atomicMaxNonNegative(&mergeLog.groups[groupS].maxDist, extreme);
            continue;
        }
        if (mode == kFmdSmallestKey) {
            if (extreme < 0.0) atomicMinDouble(scratch.extreme, extreme);
            continue;
        }
        top = blockTop(top, s_warp);
        if (publishAndArrive(top, &scratch.partials[item], &scratch.counters[1 + rowIdx], static_cast<unsigned>(cpr),
                             &s_flag)) {
            // The row's best and runners-up from the chunks' bests.
            if (tid < 32) warpFinishRow(runnerRefs(clusters, nearest), s, scratch.partials + rowIdx * cpr, cpr, true);
            if (tid == 0) scratch.counters[1 + rowIdx] = 0;
        }
        __syncthreads();
    }
}

}  // namespace clusterlens::cuda::mhca
