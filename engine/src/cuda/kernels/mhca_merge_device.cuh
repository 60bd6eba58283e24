#pragma once
// __device__ parts of one MHCA merge step shared by the per-stage kernels (mhca_step_kernels.cuh) and
// the persistent CMD kernel (mhca_persistent_kernels.cuh): mhclust.c's bookkeeping of the chosen merge
// split into a read-only plan and its commit, and the merged cluster's mean, scatter matrix and shape
// Σ'^-1 (thesis 2.5.2 / 2.5.3) computed by one block into a work area and written to its slot apart.
// The split lets every block of a persistent grid plan and shape the merge redundantly, from the same
// global state, while only one block writes it back after a grid barrier.

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "cpu/mhca_rules.hpp"
#include "cuda/kernels/mhca_cluster_shape.cuh"
#include "cuda/kernels/mhca_device.cuh"
#include "cuda/kernels/mhca_linalg.cuh"

namespace clusterlens::cuda::mhca {

__device__ __forceinline__ unsigned long long globalNanoseconds() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/// Everything decided about one merge before anything is written.
struct MergePlan {
    Step st;
    GroupState gs;  ///< the group's state after the merge
    int mode;       ///< distance mode of the merged cluster
    int idLow;
    int idHigh;
    double height;
};

/// wf of the union of clusters of sizeC points (mhca_agglomerate.cpp's mergeStep; a pair weighs 0).
__device__ __forceinline__ double mergeWeight(const MhcaConfig& cfg, int sizeC) {
    return ::clusterlens::mhca::clusterWeight(sizeC, cfg.nFull, cfg.threshold);
}

/// mhclust.c's bookkeeping of the merge of rows a = best.slot and b = nnOfBest (mhca_agglomerate.cpp's
/// mergeStep / shapeOfUnion), reading only: the record (height maxDistX - key), the weight and the
/// count of clusters at the threshold, the distance mode of the new cluster, and whether every cluster
/// of the group reached the threshold now (the switch to pure Mahalanobis distances). `m` is the
/// merge index within the run. known (or null): the group's state, knownGroup's, when the caller
/// holds it (the persistent kernel's last plan of a single-group run: one dependent round trip less).
/// Single thread.
__device__ inline MergePlan planMerge(const MhcaConfig& cfg, const ClusterView& clusters, const MergeLogView& mergeLog,
                                      Candidate best, int nnOfBest, int m, const GroupState* known = nullptr,
                                      int knownGroup = -1) {
    MergePlan plan{};
    if (best.slot < 0) return plan;  // st.valid == 0
    const int a = best.slot, b = nnOfBest;
    const int g = known != nullptr ? knownGroup : clusters.group[a];
    GroupState gs = known != nullptr ? *known : mergeLog.groups[g];
    const int sizeA = clusters.size[a], sizeB = clusters.size[b], sizeC = sizeA + sizeB;
    const double w1 = clusters.weight[a], w2 = clusters.weight[b];
    const int idA = clusters.id[a], idB = clusters.id[b];
    const double weight = mergeWeight(cfg, sizeC);
    if (weight == 1.0) {
        if (w1 + w2 == 2.0) {
            --gs.fullCount;
        } else if (w1 < 1.0 && w2 < 1.0) {
            ++gs.fullCount;
        }
    }
    const bool subthreshold = gs.fullCount < gs.clusterCount - 1;
    int mode =
        distanceModeCode(::clusterlens::mhca::distanceModeFor(cfg.normalize != 0, subthreshold, cfg.subthreshold));
    gs.clusterCount -= 1;
    plan.st.switchNow = gs.fullCount == gs.clusterCount && !gs.switched;
    if (plan.st.switchNow) {
        gs.switched = 1;
        mode = cfg.postSwitchMode;
    }
    plan.gs = gs;
    plan.mode = mode;
    plan.idLow = min(idA, idB);
    plan.idHigh = max(idA, idB);
    plan.height = dsub(gs.maxDist, best.key);
    plan.st.a = a;
    plan.st.b = b;
    plan.st.sizeA = sizeA;
    plan.st.sizeB = sizeB;
    plan.st.merge = m;
    plan.st.group = g;
    plan.st.valid = 1;
    if (cfg.full) {
        plan.st.startA = clusters.start[a];
        plan.st.startB = clusters.start[b];
        plan.st.bMoved = plan.st.startB != plan.st.startA + sizeA;
    }
    plan.st.weight = weight;
    return plan;
}

/// Writes a plan (single thread): the merge record, the group state, slot a's bookkeeping, b's death,
/// on the switch every live cluster of the group's new mode and stamp; the step record last.
/// `resetRescans` empties the rescan list (the per-stage kernels; the persistent kernel keeps its own
/// timing of that reset).
__device__ inline void commitMerge(const MhcaConfig& cfg, const ClusterView& clusters, const NearestRowView& nearest,
                                   const MergeLogView& mergeLog, const MergeScratchView& scratch,
                                   const VisitedListView& visited, const MergePlan& plan, bool resetRescans) {
    const Step& st = plan.st;
    if (resetRescans) *scratch.rescanCount = 0;
    if (!st.valid) {
        *mergeLog.step = st;
        return;
    }
    const int a = st.a, b = st.b, g = st.group, m = st.merge;
    if (st.switchNow) {
        for (int t = 0; t < visited.length; ++t) {
            const int o = visited.list[t];
            if (!clusters.alive[o] || clusters.group[o] != g) continue;
            clusters.mode[o] = static_cast<signed char>(plan.mode);
            clusters.birth[o] = m;
        }
    }
    mergeLog.groups[g] = plan.gs;
    mergeLog.outA[m] = plan.idLow;
    mergeLog.outB[m] = plan.idHigh;
    mergeLog.outHeight[m] = plan.height;
    mergeLog.outSize[m] = st.sizeA + st.sizeB;
    mergeLog.outGroup[m] = g;
    *mergeLog.mergeCount = m + 1;
    clusters.size[a] = st.sizeA + st.sizeB;
    clusters.id[a] = cfg.firstNewId + m;
    clusters.birth[a] = m;
    clusters.mode[a] = static_cast<signed char>(plan.mode);
    clusters.weight[a] = st.weight;
    clusters.alive[b] = 0;
    nearest.nn[b] = -1;
    *mergeLog.step = st;
}

/// Work area of the merged shape (doubles): cov, factor, inverse (p*p each), muA, muB, means, column,
/// newMu (p each), scatter (packed), then the staged member rows (stageRows * p) when they fit.
struct ShapeLayout {
    int p;
    int stageRows;
    __host__ __device__ size_t doubles() const {
        return 3 * static_cast<size_t>(p) * p + 5 * static_cast<size_t>(p) + static_cast<size_t>(p) * (p + 1) / 2 +
               static_cast<size_t>(stageRows) * p;
    }
};

/// Pointers into a ShapeLayout area, and the block-uniform results of mergedShapeBlock.
struct ShapeArea {
    double* cov;
    double* factor;
    double* inverse;
    double* muA;
    double* muB;
    double* means;
    double* column;
    double* newMu;
    double* scatter;  ///< packed: the merged cluster's Σ (x - mean)(x - mean)ᵀ
    double* rows;
    int stageRows;
};

__device__ inline ShapeArea shapeArea(double* base, int p, int stageRows) {
    ShapeArea s;
    s.cov = base;
    s.factor = s.cov + p * p;
    s.inverse = s.factor + p * p;
    s.muA = s.inverse + p * p;
    s.muB = s.muA + p;
    s.means = s.muB + p;
    s.column = s.means + p;
    s.newMu = s.column + p;
    s.scatter = s.newMu + p;
    s.rows = s.scatter + p * (p + 1) / 2;
    s.stageRows = stageRows;
    return s;
}

/// Member k of the merged cluster in mhclust.c's order (first cluster's, then second's). CMD reads the
/// two lists as they were before the merge (the merged list is written by writeMergedShape). FMD reads
/// a's block of perm and b's members where the step's rotation put them (fmdRotateKernel's output), or
/// at startB in perm when b did not move or the step is a speculation, so the shape may run while
/// fmdPlaceKernel rewrites perm.
__device__ __forceinline__ int mergedMember(const MhcaConfig& cfg, const ClusterView& clusters, const Step& st, int k) {
    if (cfg.full) {
        if (k < st.sizeA) return clusters.perm[st.startA + k];
        return st.bMoved ? clusters.moved[st.startA + k] : clusters.perm[st.startB + (k - st.sizeA)];
    }
    const size_t cap = static_cast<size_t>(cfg.memberCap);
    return k < st.sizeA ? clusters.members[static_cast<size_t>(st.a) * cap + k]
                        : clusters.members[static_cast<size_t>(st.b) * cap + (k - st.sizeA)];
}

/// Scatter matrix Σ (x - mean)(x - mean)ᵀ and covariance (÷ (r - 1)) of the merged cluster: from its
/// members as mhca_linalg.cpp's sampleCovariance while it has at most memberCap members, otherwise
/// by the pairwise update of the two scatter matrices (Chan, Golub, LeVeque 1979). Into the area.
__device__ inline void mergedCovariance(const MhcaConfig& cfg, const ClusterView& clusters, const Step& st,
                                        const ShapeArea& s, const ShapeTeam& team) {
    const int p = cfg.d, n = cfg.n, sizeC = st.sizeA + st.sizeB;
    const int tid = team.tid, nt = team.nt;
    const double divisor = static_cast<double>(sizeC) - 1.0;
    double* cov = s.cov;
    if (sizeC <= cfg.memberCap) {
        const bool staged = sizeC <= s.stageRows;
        // The factorisation's three p x p matrices are free until the scatter is summed: they hold the
        // member indices while the rows are copied asynchronously, so the copy costs two round trips
        // of latency (indices, coordinates) instead of two per eight loads of a thread.
        int* memberSlots = reinterpret_cast<int*>(s.cov);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        const bool async = staged && sizeC <= 6 * p * p && __isShared(s.rows);
#else
        const bool async = false;
#endif
        if (async) {
            for (int k = tid; k < sizeC; k += 2 * nt) {
                const int first = mergedMember(cfg, clusters, st, k);
                const int second = k + nt < sizeC ? mergedMember(cfg, clusters, st, k + nt) : 0;
                memberSlots[k] = first;
                if (k + nt < sizeC) memberSlots[k + nt] = second;
            }
            team.sync();
            const int total = sizeC * p;
            for (int t = tid; t < total; t += nt) {
                const int k = t / p;
                __pipeline_memcpy_async(&s.rows[t], &clusters.x[static_cast<size_t>(memberSlots[k]) * p + (t - k * p)],
                                        sizeof(double));
            }
            __pipeline_commit();
            __pipeline_wait_prior(0);
        } else if (staged) {
            // Member indices, then coordinates: every load of a thread in flight before the first use.
            constexpr int kUnroll = 8;
            const int total = sizeC * p;
            for (int base = tid; base < total; base += kUnroll * nt) {
                int member[kUnroll];
                double value[kUnroll];
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) {
                    const int t = base + u * nt;
                    member[u] = t < total ? mergedMember(cfg, clusters, st, t / p) : 0;
                }
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) {
                    const int t = base + u * nt;
                    value[u] = t < total ? clusters.x[static_cast<size_t>(member[u]) * p + t % p] : 0.0;
                }
#pragma unroll
                for (int u = 0; u < kUnroll; ++u)
                    if (base + u * nt < total) s.rows[base + u * nt] = value[u];
            }
        }
        team.sync();  // the staged rows, and muA and muB
        auto value = [&](int k, int j) {
            return staged ? s.rows[k * p + j]
                          : clusters.x[static_cast<size_t>(mergedMember(cfg, clusters, st, k)) * p + j];
        };
        for (int j = tid; j < p; j += nt) {
            double sum = 0.0;
#pragma unroll 8
            for (int k = 0; k < sizeC; ++k) sum = dadd(sum, value(k, j));
            s.means[j] = sum / static_cast<double>(sizeC);
        }
        team.sync();
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (j < i) continue;
            const double meanI = s.means[i], meanJ = s.means[j];
            double sum = 0.0;
#pragma unroll 8
            for (int k = 0; k < sizeC; ++k) sum = dadd(sum, dmul(dsub(value(k, i), meanI), dsub(value(k, j), meanJ)));
            s.scatter[packedIndex(j, i)] = sum;
            cov[i * p + j] = cov[j * p + i] = sum / divisor;
        }
    } else {
        const double factor =
            static_cast<double>(st.sizeA) * static_cast<double>(st.sizeB) / static_cast<double>(sizeC);
        team.sync();  // muA and muB
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (j < i) continue;
            const size_t e = static_cast<size_t>(packedIndex(j, i)) * n;
            const double sum = clusters.scatter[e + st.a] + clusters.scatter[e + st.b] +
                               (s.muA[i] - s.muB[i]) * (s.muA[j] - s.muB[j]) * factor;
            s.scatter[packedIndex(j, i)] = sum;
            cov[i * p + j] = cov[j * p + i] = sum / divisor;
        }
    }
    team.sync();
}

/// The means of a and b into the area and the merged mean (mhclust.c's size-weighted update) into
/// area.newMu, by threads tid of nt; the caller's next barrier publishes them.
__device__ inline void mergedMean(const MhcaConfig& cfg, const ClusterView& clusters, const Step& st,
                                  const ShapeArea& s, int tid, int nt) {
    const int p = cfg.d, n = cfg.n;
    for (int k = tid; k < p; k += nt) {
        const double muA = clusters.mu[static_cast<size_t>(k) * n + st.a];
        const double muB = clusters.mu[static_cast<size_t>(k) * n + st.b];
        const double s1 = static_cast<double>(st.sizeA), s2 = static_cast<double>(st.sizeB);
        s.muA[k] = muA;
        s.muB[k] = muB;
        s.newMu[k] = dadd(dmul(s1, muA), dmul(s2, muB)) / dadd(s1, s2);
    }
}

/// The speculated shape of merge m (FMD): one of two alternating ShapeLayout{p, 0} areas.
__device__ inline ShapeArea specArea(const MergeScratchView& scratch, int p, int m) {
    return shapeArea(scratch.specArea + (m & 1) * ShapeLayout{p, 0}.doubles(), p, 0);
}

/// Block-uniform outcome of mergedShapeBlock.
struct ShapeResult {
    double nmf;
    int shaped;    ///< Σ'^-1 is in area.inverse
    int identity;  ///< mhca_clusters.cpp's setShape: Σ'^-1 == I exactly and nmf == 1
};

/// The record of a speculated shape: the merge, its pair and the outcome (its matrices stored apart).
__device__ __forceinline__ SpecShape specRecordOf(const Step& sp, const ShapeResult& r) {
    SpecShape record;
    record.merge = sp.merge;
    record.a = sp.a;
    record.b = sp.b;
    record.shaped = r.shaped;
    record.identity = r.identity;
    record.pad = 0;
    record.nmf = r.nmf;
    return record;
}

/// The second half of mergedShapeBlock (after its factorisation, by the same team on the same area):
/// Σ'^-1, nmf and the identity test into the area and *out. Ends with the team's barrier.
/// `profile`: as mergedShapeBlock's, from `stamp` on.
__device__ inline void finishMergedShape(const MhcaConfig& cfg, const Step& st, const ShapeArea& s, ShapeResult* out,
                                         int* s_flag, double* s_value, const ShapeTeam& team,
                                         unsigned long long* profile = nullptr, unsigned long long stamp = 0ull) {
    const int p = cfg.d, tid = team.tid, nt = team.nt;
    auto lap = [&](int slot) {
        if (!profile) return;
        const unsigned long long now = globalNanoseconds();
        profile[slot] += now - stamp;
        stamp = now;
    };
    double nmf = 1.0;
    const bool shaped =
        st.sizeA + st.sizeB > 2 && shapedInMode(cfg.subthreshold, st.weight) &&
        clusterShapeInverse(cfg, s.cov, s.factor, s.inverse, s.column, s.means, nmf, s_flag, s_value, team);
    team.sync();  // every thread read *s_flag
    lap(1);
    if (tid == 0) *s_flag = shaped ? (nmf == 1.0) : 1;
    team.sync();
    if (shaped) {
        for (int t = tid; t < p * p; t += nt) {
            const int i = t / p, j = t % p;
            if (s.inverse[t] != (i == j ? 1.0 : 0.0)) *s_flag = 0;
        }
    }
    team.sync();
    if (tid == 0) {
        out->nmf = shaped ? nmf : 1.0;
        out->shaped = shaped ? 1 : 0;
        out->identity = *s_flag;
    }
    team.sync();
    lap(2);
}

/// Thesis 2.5.2 / 2.5.3 for the merged cluster of the step, by the team, without writing global
/// memory: mean (mergedMean, unless meansReady: the caller ran it and a barrier since), scatter matrix,
/// covariance, Σ'^-1 and the identity test into the area; the outcome into *out (shared). Ends with the
/// team's barrier. With `factorOnly` it stops after the Cholesky factor (the area, *s_flag and
/// s.column hold the rest's input) and finishMergedShape completes it later. `profile` (thread 0 of
/// one block, or null): nanoseconds of member sums, factorisations and the rest added to
/// profile[0 .. 2].
__device__ inline void mergedShapeBlock(const MhcaConfig& cfg, const ClusterView& clusters, const Step& st,
                                        const ShapeArea& s, ShapeResult* out, int* s_flag, double* s_value,
                                        const ShapeTeam& team, bool meansReady, unsigned long long* profile = nullptr,
                                        bool factorOnly = false) {
    unsigned long long stamp = profile ? globalNanoseconds() : 0ull;
    if (!meansReady) mergedMean(cfg, clusters, st, s, team.tid, team.nt);
    mergedCovariance(cfg, clusters, st, s, team);  // its first barrier publishes muA and muB
    if (profile) {
        const unsigned long long now = globalNanoseconds();
        profile[0] += now - stamp;
        stamp = now;
    }
    if (st.sizeA + st.sizeB > 2 && shapedInMode(cfg.subthreshold, st.weight))
        clusterShapeFactor(cfg, st.weight, s.cov, s.factor, s.column, s_flag, team);
    if (!factorOnly) finishMergedShape(cfg, st, s, out, s_flag, s_value, team, profile, stamp);
}

/// Writes the merged shape of mergedShapeBlock into slot a (the whole block): member list (CMD, while
/// it fits), mean, scatter, Σ'^-1 and Σ'^-1 / nmf entry by entry, nmf and the identity flag.
__device__ inline void writeMergedShape(const MhcaConfig& cfg, const ClusterView& clusters, const Step& st,
                                        const ShapeArea& s, const ShapeResult& r) {
    const int p = cfg.d, n = cfg.n, a = st.a;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    if (!cfg.full && st.sizeA + st.sizeB <= cfg.memberCap) {
        int* target = clusters.members + static_cast<size_t>(a) * cfg.memberCap + st.sizeA;
        const int* source = clusters.members + static_cast<size_t>(st.b) * cfg.memberCap;
        for (int t = tid; t < st.sizeB; t += nt) target[t] = source[t];
    }
    for (int t = tid; t < p * p; t += nt) {
        const int i = t / p, j = t % p;
        if (j > i) continue;
        const size_t e = static_cast<size_t>(packedIndex(i, j)) * n + a;
        clusters.scatter[e] = s.scatter[packedIndex(i, j)];
        if (r.shaped) {
            clusters.metric[e] = s.inverse[t];
            clusters.scaled[e] = s.inverse[t] / r.nmf;
        }
    }
    for (int k = tid; k < p; k += nt) clusters.mu[static_cast<size_t>(k) * n + a] = s.newMu[k];
    if (tid == 0) {
        clusters.nmf[a] = r.nmf;
        clusters.identity[a] = static_cast<signed char>(r.identity);
    }
}

}  // namespace clusterlens::cuda::mhca
