#pragma once
// Kernels of one MHCA merge step common to CMD and FMD (thesis section 2.5): the initial nearest
// neighbours of single points, the minimum retrieval with mhclust.c's bookkeeping of the chosen
// merge, and the new cluster's mean, scatter matrix and shape Σ'^-1.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_linalg.cuh"

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
    double bestQ = 0.0, bestKey = kNoKey, before = kNoKey;
    int best = -1;
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
                if (q > bestQ) bestQ = q;
            } else if (best < 0 || q < bestQ) {
                // Only a smaller square can give a larger key (sqrt and the subtraction are monotone).
                const double key = dsub(maxDist, sqrt(q));
                if (best < 0 || better(key, bestKey)) {
                    before = best < 0 ? kNoKey : bestKey;
                    best = j;
                    bestKey = key;
                    bestQ = q;
                }
            }
        }
    }
    if (!active) return;
    if constexpr (kLargest) {
        atomicMaxNonNegative(&v.w.groups[gi].maxDist, sqrt(bestQ));
    } else {
        v.s.nn[i] = best;
        v.s.nnKey[i] = best < 0 ? kNoKey : bestKey;
        v.s.nnBefore[i] = before;
    }
}

/// Thread 0 of the last block: mhclust.c's bookkeeping of the merge of rows a = best.slot and
/// b = nn[a] (mhca_agglomerate.cpp's mergeStep / shapeOfUnion): the record (height maxDistX - key),
/// the weight and the count of clusters at the threshold, the distance mode of the new cluster, and
/// the switch to pure Mahalanobis distances once every cluster of the group reached the threshold
/// (then every live cluster of the group gets the new mode and the stamp of this step).
__device__ inline void decideMerge(const MhcaView& v, Candidate best) {
    Step st{};
    *v.w.rescanCount = 0;
    if (best.slot < 0) {
        st.valid = 0;
        *v.w.step = st;
        return;
    }
    const int a = best.slot, b = v.s.nn[a];
    const int g = v.s.group[a];
    GroupState gs = v.w.groups[g];
    const int sizeA = v.s.size[a], sizeB = v.s.size[b], sizeC = sizeA + sizeB;
    double weight = fmin(1.0, static_cast<double>(sizeC) / (static_cast<double>(v.cfg.nFull) * v.cfg.threshold));
    if (sizeC == 2) weight = 0.0;
    if (weight == 1.0) {
        const double w1 = v.s.weight[a], w2 = v.s.weight[b];
        if (w1 + w2 == 2.0) {
            --gs.fullCount;
        } else if (w1 < 1.0 && w2 < 1.0) {
            ++gs.fullCount;
        }
    }
    const bool subthreshold = gs.fullCount < gs.clusterCount - 1;
    int mode = (v.cfg.normalize || subthreshold) ? kModeScaled : kModeRaw;
    if (subthreshold && v.cfg.subthreshold == 2) mode = kModeIdentity;
    gs.clusterCount -= 1;
    st.switchNow = gs.fullCount == gs.clusterCount && !gs.switched;
    const int m = *v.w.mergeCount;
    if (st.switchNow) {
        gs.switched = 1;
        mode = v.cfg.postSwitchMode;
        for (int t = 0; t < v.listLen; ++t) {
            const int o = v.list[t];
            if (!v.s.alive[o] || v.s.group[o] != g) continue;
            v.s.mode[o] = static_cast<signed char>(mode);
            v.s.birth[o] = m;
        }
    }
    v.w.groups[g] = gs;

    const int idA = v.s.id[a], idB = v.s.id[b];
    v.w.outA[m] = min(idA, idB);
    v.w.outB[m] = max(idA, idB);
    v.w.outHeight[m] = dsub(gs.maxDist, best.key);
    v.w.outSize[m] = sizeC;
    v.w.outGroup[m] = g;
    *v.w.mergeCount = m + 1;

    v.s.size[a] = sizeC;
    v.s.id[a] = v.cfg.firstNewId + m;
    v.s.birth[a] = m;
    v.s.mode[a] = static_cast<signed char>(mode);
    v.s.weight[a] = weight;
    v.s.alive[b] = 0;
    v.s.nn[b] = -1;

    st.a = a;
    st.b = b;
    st.sizeA = sizeA;
    st.sizeB = sizeB;
    st.merge = m;
    st.group = g;
    st.valid = 1;
    if (v.cfg.full) {
        st.startA = v.s.start[a];
        st.startB = v.s.start[b];
    }
    st.weight = weight;
    *v.w.step = st;
}

/// Minimum retrieval (thesis 2.5.4) over the visited slots, grid-wide: each block reduces a
/// grid-stride share, the last block to finish reduces the block results in block order and decides
/// the merge (largest key, first position on ties: BLAS idamax over mhca's packed keys). Uses
/// partials[0 .. gridDim.x) and counters[0].
__global__ void closestPairKernel(MhcaView v) {
    __shared__ RowTop s_warp[32];
    __shared__ int s_flag;
    RowTop top = noTop();
    for (int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); t < v.listLen;
         t += static_cast<int>(gridDim.x * blockDim.x)) {
        const int slot = v.list[t];
        if (!v.s.alive[slot] || v.s.nn[slot] < 0) continue;
        Candidate c;
        c.key = v.s.nnKey[slot];
        c.pos = v.s.pos[slot];
        c.slot = slot;
        if (candidateBefore(c, top.best)) top.best = c;
    }
    top = blockTop(top, s_warp);
    if (!publishAndArrive(top, &v.w.partials[blockIdx.x], &v.w.counters[0], gridDim.x, &s_flag)) return;
    RowTop all = noTop();
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += static_cast<int>(blockDim.x))
        all = combineTop(all, loadTop(&v.w.partials[i]));
    all = blockTop(all, s_warp);
    if (threadIdx.x == 0) {
        v.w.counters[0] = 0;
        decideMerge(v, all.best);
    }
}

/// Shared-memory layout of mergeShapeKernel (doubles): cov, factor, inverse (p*p each), muA, muB,
/// means, column (p each), then the staged member rows (stageRows * p) when they fit.
struct ShapeLayout {
    int p;
    int stageRows;
    __host__ __device__ size_t doubles() const {
        return 3 * static_cast<size_t>(p) * p + 4 * static_cast<size_t>(p) + static_cast<size_t>(stageRows) * p;
    }
};

/// The member list of the merged cluster in mhclust.c's order (first cluster's, then second's).
__device__ inline const int* mergedMembers(const MhcaView& v, const Step& st) {
    if (v.cfg.full) return v.s.perm + v.s.start[st.a];
    return v.s.members + static_cast<size_t>(st.a) * v.cfg.memberCap;
}

/// Scatter matrix Σ (x - mean)(x - mean)ᵀ and covariance (÷ (r - 1)) of the merged cluster: from its
/// members as mhca_linalg.cpp's sampleCovariance while it has at most memberCap members, otherwise
/// by the pairwise update of the two scatter matrices (Chan, Golub, LeVeque 1979).
__device__ inline void mergedCovariance(const MhcaView& v, const Step& st, double* cov, const double* muA,
                                        const double* muB, double* means, double* rows, int stageRows) {
    const int p = v.cfg.d, n = v.cfg.n, sizeC = st.sizeA + st.sizeB;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const double divisor = static_cast<double>(sizeC) - 1.0;
    if (sizeC <= v.cfg.memberCap) {
        const int* members = mergedMembers(v, st);
        const bool staged = sizeC <= stageRows;
        if (staged) {
            for (int t = tid; t < sizeC * p; t += nt) rows[t] = v.x[static_cast<size_t>(members[t / p]) * p + t % p];
            __syncthreads();
        }
        auto value = [&](int k, int j) {
            return staged ? rows[k * p + j] : v.x[static_cast<size_t>(members[k]) * p + j];
        };
        for (int j = tid; j < p; j += nt) {
            double sum = 0.0;
            for (int k = 0; k < sizeC; ++k) sum = dadd(sum, value(k, j));
            means[j] = sum / static_cast<double>(sizeC);
        }
        __syncthreads();
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (j < i) continue;
            double sum = 0.0;
            for (int k = 0; k < sizeC; ++k)
                sum = dadd(sum, dmul(dsub(value(k, i), means[i]), dsub(value(k, j), means[j])));
            v.s.scatter[static_cast<size_t>(packedIndex(j, i)) * n + st.a] = sum;
            cov[i * p + j] = cov[j * p + i] = sum / divisor;
        }
    } else {
        const double factor =
            static_cast<double>(st.sizeA) * static_cast<double>(st.sizeB) / static_cast<double>(sizeC);
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (j < i) continue;
            const size_t e = static_cast<size_t>(packedIndex(j, i)) * n;
            const double sum =
                v.s.scatter[e + st.a] + v.s.scatter[e + st.b] + (muA[i] - muB[i]) * (muA[j] - muB[j]) * factor;
            v.s.scatter[e + st.a] = sum;
            cov[i * p + j] = cov[j * p + i] = sum / divisor;
        }
    }
    __syncthreads();
}

/// mhca_linalg.cpp's clusterShape (determinant from the Cholesky factor) by the whole block: Σ'^-1
/// into `inverse` and nmf returned; false means the identity (and nmf 1). `cov` is overwritten.
__device__ inline bool clusterShapeBlock(const MhcaView& v, double weight, double* cov, double* factor, double* inverse,
                                         double* column, double& nmf, int* s_flag) {
    const int p = v.cfg.d, sub = v.cfg.subthreshold;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    const bool shaped = sub == 0 || sub == 1 || weight == 1.0;
    if (!shaped) return false;
    double mf = 1.0;
    if (sub != 1 && weight < 1.0) {  // with weight 1 mhcaCpu computes mf too but never uses it
        for (int t = tid; t < p * p; t += nt) factor[t] = cov[t];
        __syncthreads();
        if (choleskyBlock(factor, p, s_flag)) mf = shapePower(diagonalProduct(factor, p), p, false);
        __syncthreads();
    }
    if (weight < 1.0) {
        const double shrink = dmul(1.0 - weight, mf);
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            cov[t] = dadd(dmul(weight, cov[t]), dmul(shrink, i == j ? 1.0 : 0.0));
        }
        __syncthreads();
    }
    if (!choleskyBlock(cov, p, s_flag)) return false;
    nmf = shapePower(diagonalProduct(cov, p), p, true);
    inverseFromCholeskyBlock(cov, inverse, column, p);
    return true;
}

/// Thesis 2.5.2 / 2.5.3 for the merged cluster of the step, by one block: member list (CMD), mean
/// (mhclust.c's size-weighted update), scatter matrix, covariance, Σ'^-1, Σ'^-1/nmf and the identity
/// flag into slot a. `g_work` replaces shared memory when the layout does not fit there.
__global__ void mergeShapeKernel(MhcaView v, ShapeLayout layout, double* g_work) {
    extern __shared__ double s_dyn[];
    __shared__ int s_flag;
    __shared__ Step s_step;
    if (threadIdx.x == 0) s_step = *v.w.step;
    __syncthreads();
    const Step st = s_step;
    if (!st.valid) return;
    const int p = v.cfg.d, n = v.cfg.n, a = st.a, b = st.b, sizeC = st.sizeA + st.sizeB;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    double* base = g_work ? g_work : s_dyn;
    double* cov = base;
    double* factor = cov + p * p;
    double* inverse = factor + p * p;
    double* muA = inverse + p * p;
    double* muB = muA + p;
    double* means = muB + p;
    double* column = means + p;
    double* rows = column + p;

    for (int k = tid; k < p; k += nt) {
        muA[k] = v.s.mu[static_cast<size_t>(k) * n + a];
        muB[k] = v.s.mu[static_cast<size_t>(k) * n + b];
    }
    if (!v.cfg.full && sizeC <= v.cfg.memberCap) {
        int* target = v.s.members + static_cast<size_t>(a) * v.cfg.memberCap + st.sizeA;
        const int* source = v.s.members + static_cast<size_t>(b) * v.cfg.memberCap;
        for (int t = tid; t < st.sizeB; t += nt) target[t] = source[t];
    }
    __syncthreads();
    mergedCovariance(v, st, cov, muA, muB, means, rows, layout.stageRows);

    double nmf = 1.0;
    bool shaped = false;
    if (sizeC > 2) shaped = clusterShapeBlock(v, st.weight, cov, factor, inverse, column, nmf, &s_flag);

    // mhca_clusters.cpp's setShape: Σ'^-1, Σ'^-1 / nmf entry by entry, identity test.
    if (tid == 0) s_flag = shaped ? (nmf == 1.0) : 1;
    __syncthreads();
    if (shaped) {
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (inverse[t] != (i == j ? 1.0 : 0.0)) s_flag = 0;
            if (j > i) continue;
            const size_t e = static_cast<size_t>(packedIndex(i, j)) * n + a;
            v.s.metric[e] = inverse[t];
            v.s.scaled[e] = inverse[t] / nmf;
        }
    }
    for (int k = tid; k < p; k += nt) {
        const double s1 = static_cast<double>(st.sizeA), s2 = static_cast<double>(st.sizeB);
        v.s.mu[static_cast<size_t>(k) * n + a] = dadd(dmul(s1, muA[k]), dmul(s2, muB[k])) / dadd(s1, s2);
    }
    __syncthreads();
    if (tid == 0) {
        v.s.nmf[a] = shaped ? nmf : 1.0;
        v.s.identity[a] = static_cast<signed char>(s_flag);
    }
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
