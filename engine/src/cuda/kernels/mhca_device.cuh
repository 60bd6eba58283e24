#pragma once
// __device__ helpers of the MHCA kernels: candidate order and block reductions over mhca's keys
// (maxDistX - d, larger is nearer), the shift log of those keys, the quadratic forms of the
// Mahalanobis distance and the update of a row by the merged cluster.
//
// Arithmetic that decides merges follows mhcaCpu operation by operation, with separately rounded
// products and sums (__dmul_rn / __dadd_rn never contract into FMA): the CMD quadratic form as
// mhca_clusters.cpp evaluates mhclust.c's dsymm + row sum, the keys as mhca_agglomerate.cpp replays
// them. CMD distances are then bit for bit the host's; FMD sums members in another order.

#include <cuda_runtime.h>
#include <math_constants.h>

#include <climits>

#include "cuda/mhca_types.cuh"

namespace clusterlens::cuda::mhca {

__device__ __forceinline__ double dmul(double a, double b) {
    return __dmul_rn(a, b);
}
__device__ __forceinline__ double dadd(double a, double b) {
    return __dadd_rn(a, b);
}
__device__ __forceinline__ double dsub(double a, double b) {
    return __dadd_rn(a, -b);
}

/// Packed lower-triangle index of the symmetric entry (i, k).
__host__ __device__ __forceinline__ int packedIndex(int i, int k) {
    return i >= k ? i * (i + 1) / 2 + k : k * (k + 1) / 2 + i;
}

/// Key of no partner (mhca_agglomerate.cpp's kNoKey).
constexpr double kNoKey = -__builtin_huge_val();

/// mhca_agglomerate.cpp's `better`: key a is a nearer pair than key b; NaN is worse than everything.
__device__ __forceinline__ bool better(double a, double b) {
    if (isnan(b)) return !isnan(a);
    return a > b;
}

__device__ __forceinline__ double betterKey(double a, double b) {
    return better(a, b) ? a : b;
}

/// The order of keys (no NaN) as unsigned integers, all above 1 (0 and 1 stay free for "none" and
/// NaN): integer maxima and comparisons of keys (the persistent kernel's lazy bounds, a runner
/// selection's order keys). keyFromOrderBits(0) is kNoKey.
__device__ __forceinline__ unsigned long long keyOrderBits(double key) {
    const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(key));
    return (bits >> 63) != 0ull ? ~bits : bits | (1ull << 63);
}
__device__ __forceinline__ double keyFromOrderBits(unsigned long long order) {
    if (order == 0ull) return kNoKey;
    return __longlong_as_double(static_cast<long long>((order >> 63) != 0ull ? order & ~(1ull << 63) : ~order));
}

__device__ __forceinline__ Candidate noCandidate() {
    Candidate c;
    c.key = kNoKey;
    c.pos = INT_MAX;
    c.slot = -1;
    return c;
}

__device__ __forceinline__ RowTop noTop() {
    RowTop t;
    t.best = noCandidate();
    t.second = kNoKey;
    return t;
}

/// Strict total order of candidates: real before none, numbers before NaN, larger key, then smaller
/// position — the first-wins scans of mhcaCpu, independent of the reduction tree.
__device__ __forceinline__ bool candidateBefore(const Candidate& x, const Candidate& y) {
    const int rx = x.slot < 0 ? 2 : (isnan(x.key) ? 1 : 0);
    const int ry = y.slot < 0 ? 2 : (isnan(y.key) ? 1 : 0);
    if (rx != ry) return rx < ry;
    if (rx == 0 && x.key != y.key) return x.key > y.key;
    return x.pos < y.pos;
}

/// Adds a candidate to a row's best and bound of the others.
__device__ __forceinline__ void offerTop(RowTop& t, const Candidate& c) {
    if (candidateBefore(c, t.best)) {
        if (t.best.slot >= 0) t.second = betterKey(t.second, t.best.key);
        t.best = c;
    } else if (c.slot >= 0) {
        t.second = betterKey(t.second, c.key);
    }
}

__device__ __forceinline__ RowTop combineTop(RowTop x, const RowTop& y) {
    x.second = betterKey(x.second, y.second);
    offerTop(x, y.best);
    return x;
}

__device__ __forceinline__ RowTop warpTop(RowTop t) {
#pragma unroll 1
    for (int offset = 16; offset > 0; offset >>= 1) {
        RowTop o;
        o.best.key = __shfl_down_sync(0xffffffffu, t.best.key, offset);
        o.best.pos = __shfl_down_sync(0xffffffffu, t.best.pos, offset);
        o.best.slot = __shfl_down_sync(0xffffffffu, t.best.slot, offset);
        o.second = __shfl_down_sync(0xffffffffu, t.second, offset);
        t = combineTop(t, o);
    }
    return t;
}

/// Reduction over the block (every thread calls; blockDim.x a multiple of 32); valid in thread 0.
__device__ __forceinline__ RowTop blockTop(RowTop t, RowTop* s_warp) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    const int warp = static_cast<int>(threadIdx.x >> 5);
    t = warpTop(t);
    __syncthreads();
    if (lane == 0) s_warp[warp] = t;
    __syncthreads();
    if (warp == 0) {
        const int warps = static_cast<int>((blockDim.x + 31u) >> 5);
        t = lane < warps ? s_warp[lane] : noTop();
        t = warpTop(t);
    }
    return t;
}

/// Smallest value over the block (NaN ignored, as `v < smallest` comparisons do); valid in thread 0.
__device__ __forceinline__ double blockMinValue(double value, double* s_warp) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    const int warp = static_cast<int>(threadIdx.x >> 5);
#pragma unroll 1
    for (int offset = 16; offset > 0; offset >>= 1) {
        const double o = __shfl_down_sync(0xffffffffu, value, offset);
        if (o < value) value = o;
    }
    __syncthreads();
    if (lane == 0) s_warp[warp] = value;
    __syncthreads();
    if (warp == 0) {
        const int warps = static_cast<int>((blockDim.x + 31u) >> 5);
        value = lane < warps ? s_warp[lane] : 0.0;
#pragma unroll 1
        for (int offset = 16; offset > 0; offset >>= 1) {
            const double o = __shfl_down_sync(0xffffffffu, value, offset);
            if (o < value) value = o;
        }
    }
    return value;
}

/// Reads a result another block wrote (bypasses the non-coherent L1).
/// A candidate another block wrote, from L2 (this block's L1 may hold an older copy).
__device__ __forceinline__ Candidate loadCandidate(const Candidate* p) {
    Candidate c;
    c.key = __ldcg(&p->key);
    c.pos = __ldcg(&p->pos);
    c.slot = __ldcg(&p->slot);
    return c;
}

__device__ __forceinline__ RowTop loadTop(const RowTop* p) {
    RowTop t;
    t.best = loadCandidate(&p->best);
    t.second = __ldcg(&p->second);
    return t;
}

/// Thread 0 publishes `value` at `slot` and counts the arrival; true in every thread of the block
/// that arrives as number `expected` (the last one), which may then read all published values.
__device__ __forceinline__ bool publishAndArrive(const RowTop& value, RowTop* slot, unsigned int* counter,
                                                 unsigned int expected, int* s_flag) {
    if (threadIdx.x == 0) {
        *slot = value;
        __threadfence();
        *s_flag = atomicAdd(counter, 1u) == expected - 1u;
    }
    __syncthreads();
    return *s_flag != 0;
}

/// Largest of non-negative doubles (their bit patterns order as unsigned integers).
__device__ __forceinline__ void atomicMaxNonNegative(double* target, double value) {
    if (!(value > 0.0)) return;
    atomicMax(reinterpret_cast<unsigned long long*>(target),
              static_cast<unsigned long long>(__double_as_longlong(value)));
}

__device__ __forceinline__ void atomicMinDouble(double* target, double value) {
    unsigned long long* address = reinterpret_cast<unsigned long long*>(target);
    unsigned long long old = *address;
    while (value < __longlong_as_double(static_cast<long long>(old))) {
        const unsigned long long assumed = old;
        old = atomicCAS(address, assumed, static_cast<unsigned long long>(__double_as_longlong(value)));
        if (old == assumed) break;
    }
}

/// mhca's stored key of a distance d computed when the younger cluster was born (`stamp`), in group g:
/// maxDistX of that time minus d, then minus every later shift of the group, each rounded
/// (mhca_agglomerate.cpp's keyOf).
__device__ inline double keyOf(const MergeLogView& mergeLog, double d, int stamp, int g) {
    const int count = *mergeLog.shiftCount;
    int lo = 0, hi = count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (mergeLog.shiftTime[mid] < stamp) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    int k = lo;
    while (k < count && mergeLog.shiftGroup[k] != g) ++k;
    if (k == count) return dsub(mergeLog.groups[g].maxDist, d);
    double key = dsub(mergeLog.shiftMaxBefore[k], d);
    for (; k < count; ++k)
        if (mergeLog.shiftGroup[k] == g) key = dsub(key, mergeLog.shiftAmount[k]);
    return key;
}

/// mhca_agglomerate.cpp's recordShift for the step's group when `smallest` (the smallest new key) is
/// negative: logged, maxDistX raised; the step remembers it for the keys of its new distances.
__device__ inline void recordShift(const MergeLogView& mergeLog, double smallest) {
    if (!(smallest < 0.0)) return;
    Step& st = *mergeLog.step;
    GroupState& gs = mergeLog.groups[st.group];
    const int k = *mergeLog.shiftCount;
    mergeLog.shiftTime[k] = st.merge;
    mergeLog.shiftGroup[k] = st.group;
    mergeLog.shiftAmount[k] = smallest;
    mergeLog.shiftMaxBefore[k] = gs.maxDist;
    *mergeLog.shiftCount = k + 1;
    st.shifted = 1;
    st.shiftAmount = smallest;
    st.maxBefore = gs.maxDist;
    gs.maxDist = dsub(gs.maxDist, smallest);
}

/// The metric of one side of a distance: m == nullptr is the identity.
struct MetricRef {
    const double* m;
    size_t stride;
};

/// Global loads issued where they stand. The compiler sinks a plain load below every branch that
/// does not need it (and the short-circuit tests of a pass are such branches), so each test of an
/// entry waited for its own round trip. Volatile keeps the load in place; it orders nothing else, so
/// only data that no thread writes during the pass may be read this way.
__device__ __forceinline__ int loadNow(const int* p) {
    int r;
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %1; ld.global.s32 %0, [g]; }" : "=r"(r) : "l"(p));
    return r;
}
__device__ __forceinline__ double loadNow(const double* p) {
    double r;
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %1; ld.global.f64 %0, [g]; }" : "=d"(r) : "l"(p));
    return r;
}
__device__ __forceinline__ int loadNow(const unsigned char* p) {
    unsigned short r;
    asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %1; ld.global.u8 %0, [g]; }" : "=h"(r) : "l"(p));
    return r;
}
__device__ __forceinline__ int loadNow(const signed char* p) {
    return loadNow(reinterpret_cast<const unsigned char*>(p));
}

/// Values other blocks (or the kernel beside, mhca_growth_kernel.cuh) publish. An acquiring load sees
/// what the writer wrote before its releasing store or fenced atomic; spin on these, never on a plain
/// or __ldcg load, which the compiler may hoist out of the loop.
__device__ __forceinline__ unsigned int loadAcquire(const unsigned int* p) {
    unsigned int value;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(p) : "memory");
    return value;
}
__device__ __forceinline__ int loadAcquire(const int* p) {
    int value;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(p) : "memory");
    return value;
}
/// A value whose own content tells whether it is the awaited one (it orders nothing else).
__device__ __forceinline__ unsigned long long loadRelaxed(const unsigned long long* p) {
    unsigned long long value;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(p) : "memory");
    return value;
}
__device__ __forceinline__ void storeRelease(int* p, int value) {
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(value) : "memory");
}

/// The list entry's cluster state that decides whether a pass visits it, loaded together (a slot
/// index is always in range, so the loads need not wait for one another's tests).
struct EntryState {
    bool alive;
    bool identity;
    int group;
};

__device__ __forceinline__ EntryState entryState(const ClusterView& clusters, int slot) {
    return EntryState{loadNow(clusters.alive + slot) != 0, loadNow(clusters.identity + slot) != 0,
                      loadNow(clusters.group + slot)};
}

/// slotMetric with the slot's identity flag already read.
__device__ __forceinline__ MetricRef slotMetric(const MhcaConfig& cfg, const ClusterView& clusters, int slot, int mode,
                                                bool identity) {
    MetricRef r;
    if (mode == kModeIdentity || identity) {
        r.m = nullptr;
        r.stride = 0;
    } else {
        r.m = (mode == kModeScaled ? clusters.scaled : clusters.metric) + slot;
        r.stride = static_cast<size_t>(cfg.n);
    }
    return r;
}

__device__ __forceinline__ MetricRef slotMetric(const MhcaConfig& cfg, const ClusterView& clusters, int slot,
                                                int mode) {
    MetricRef r;
    if (mode == kModeIdentity || clusters.identity[slot]) {
        r.m = nullptr;
        r.stride = 0;
    } else {
        r.m = (mode == kModeScaled ? clusters.scaled : clusters.metric) + slot;
        r.stride = static_cast<size_t>(cfg.n);
    }
    return r;
}

/// rᵀ M r as mhca_clusters.cpp's quadraticForm: y_j = M_jj r_j + Σ_{k≠j, ascending} M_jk r_k, then
/// Σ_j y_j r_j; the identity gives Σ r_j². MAXD > 0: r and y held in registers. The packed triangle
/// is streamed once in row order: entry (i, k), k < i, adds term k to y_i and term i to y_k, and both
/// arrive in ascending order of their index, so every y_j gets the host's sums in the host's order.
template <int MAXD>
__device__ __forceinline__ double quadraticForm(MetricRef m, const double (&r)[MAXD], int d) {
    double q = 0.0;
    if (m.m == nullptr) {
#pragma unroll
        for (int j = 0; j < MAXD; ++j)
            if (j < d) q = dadd(q, dmul(r[j], r[j]));
        return q;
    }
    double y[MAXD];
#pragma unroll
    for (int j = 0; j < MAXD; ++j) y[j] = j < d ? dmul(m.m[packedIndex(j, j) * m.stride], r[j]) : 0.0;
#pragma unroll
    for (int i = 1; i < MAXD; ++i) {
        if (i < d) {
#pragma unroll
            for (int k = 0; k < i; ++k) {
                const double mik = m.m[packedIndex(i, k) * m.stride];
                y[i] = dadd(y[i], dmul(mik, r[k]));
                y[k] = dadd(y[k], dmul(mik, r[i]));
            }
        }
    }
#pragma unroll
    for (int j = 0; j < MAXD; ++j)
        if (j < d) q = dadd(q, dmul(y[j], r[j]));
    return q;
}

/// rᵀ M r with fused multiply-adds and the symmetry of M (Σ_i r_i (M_ii r_i + 2 Σ_{k<i} M_ik r_k)):
/// a third of the operations of quadraticForm, for the FMD member sums, whose order of summation
/// differs from the host's anyway.
template <int MAXD>
__device__ __forceinline__ double quadraticFormFast(MetricRef m, const double (&r)[MAXD], int d) {
    double q = 0.0;
    if (m.m == nullptr) {
#pragma unroll
        for (int j = 0; j < MAXD; ++j)
            if (j < d) q = fma(r[j], r[j], q);
        return q;
    }
#pragma unroll
    for (int i = 0; i < MAXD; ++i) {
        if (i < d) {
            double s = 0.0;
#pragma unroll
            for (int k = 0; k < i; ++k) s = fma(m.m[packedIndex(i, k) * m.stride], r[k], s);
            q = fma(r[i], fma(m.m[packedIndex(i, i) * m.stride], r[i], 2.0 * s), q);
        }
    }
    return q;
}

/// The same form for any d, with r_k = a[k·sa] - b[k·sb] recomputed where needed (no array).
__device__ __forceinline__ double quadraticFormAny(MetricRef m, const double* a, size_t sa, const double* b, size_t sb,
                                                   int d) {
    double q = 0.0;
    if (m.m == nullptr) {
        for (int j = 0; j < d; ++j) {
            const double rj = dsub(a[j * sa], b[j * sb]);
            q = dadd(q, dmul(rj, rj));
        }
        return q;
    }
    for (int j = 0; j < d; ++j) {
        const double rj = dsub(a[j * sa], b[j * sb]);
        double y = dmul(m.m[packedIndex(j, j) * m.stride], rj);
        for (int k = 0; k < d; ++k)
            if (k != j) y = dadd(y, dmul(m.m[packedIndex(j, k) * m.stride], dsub(a[k * sa], b[k * sb])));
        q = dadd(q, dmul(y, rj));
    }
    return q;
}

/// CMD distance of clusters P and Q (DESIGN.md: ½(m(μQ, P) + m(μP, Q))), each given by its mean (with
/// stride) and metric; bit for bit mhcaCpu's clusterDistance for the centroid variant. The form of
/// μP - μQ equals that of μQ - μP exactly, so one difference vector serves both sides.
template <int MAXD>
__device__ __forceinline__ double centroidDistance(const double* muP, size_t sp, MetricRef mp, const double* muQ,
                                                   size_t sq, MetricRef mq, int d) {
    double qp, qq;
    if constexpr (MAXD > 0) {
        double r[MAXD];
#pragma unroll
        for (int k = 0; k < MAXD; ++k) r[k] = k < d ? dsub(muQ[k * sq], muP[k * sp]) : 0.0;
        qp = quadraticForm<MAXD>(mp, r, d);
        qq = quadraticForm<MAXD>(mq, r, d);
    } else {
        qp = quadraticFormAny(mp, muQ, sq, muP, sp, d);
        qq = quadraticFormAny(mq, muP, sp, muQ, sq, d);
    }
    return (sqrt(qp) + sqrt(qq)) / 2.0;
}

/// The distance of the new row's cluster to cluster o, kept out of line so that the logic around it
/// does not raise the kernel's register count beyond the form's own needs.
template <int MAXD>
__device__ __noinline__ double newRowDistance(const double* muC, size_t muStride, MetricRef mC, const double* muO,
                                              MetricRef mO, int n, int d) {
    return centroidDistance<MAXD>(muC, muStride, mC, muO, static_cast<size_t>(n), mO, d);
}

/// Row r's mean, Σ'^-1 and Σ'^-1/nmf (the matrices unless the row is the identity) into s_r
/// (d + 2 * packed doubles) by the block; the caller's barriers fence it.
__device__ inline void stageRow(const MhcaConfig& cfg, const ClusterView& clusters, int r, bool identity, double* s_r) {
    const int n = cfg.n, d = cfg.d, packed = cfg.packed;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int k = tid; k < d; k += nt) s_r[k] = clusters.mu[static_cast<size_t>(k) * n + r];
    if (identity) return;
    for (int e = tid; e < packed; e += nt) {
        s_r[d + e] = clusters.metric[static_cast<size_t>(e) * n + r];
        s_r[d + packed + e] = clusters.scaled[static_cast<size_t>(e) * n + r];
    }
}

/// A point's running best over its later points in slot order (nearestPointKernel, the group
/// kernel's start): the best key, first on ties, and the key of the previous running best
/// (mhca_agglomerate.cpp's RowBest). `q` is the best square, or the largest one in a kLargest pass.
struct PointBest {
    double q = 0.0;
    double key = kNoKey;
    double before = kNoKey;
    int slot = -1;
    __device__ __forceinline__ void offer(double square, int j, double maxDist) {
        // Only a smaller square can give a larger key (sqrt and the subtraction are monotone).
        if (slot >= 0 && !(square < q)) return;
        const double k = dsub(maxDist, sqrt(square));
        if (slot < 0 || better(k, key)) {
            before = slot < 0 ? kNoKey : key;
            slot = j;
            key = k;
            q = square;
        }
    }
};

/// Appends a row to the rescan list (order irrelevant: each row's result is deterministic).
__device__ __forceinline__ void appendRescan(const MergeScratchView& scratch, int slot) {
    const int k = atomicAdd(scratch.rescanCount, 1);
    scratch.rescanRows[k] = slot;
}

/// Last block of a grid: the smallest of the blocks' values (partials[i].second) decides the shift.
__device__ inline void finishSmallest(const MergeLogView& mergeLog, const MergeScratchView& scratch, double smallest,
                                      double* s_min, int* s_flag) {
    const double blockSmallest = blockMinValue(smallest, s_min);
    RowTop mine = noTop();
    mine.second = blockSmallest;
    if (!publishAndArrive(mine, &scratch.partials[blockIdx.x], &scratch.counters[0], gridDim.x, s_flag)) return;
    double all = 0.0;
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += static_cast<int>(blockDim.x)) {
        const double p = __ldcg(&scratch.partials[i].second);
        if (p < all) all = p;
    }
    all = blockMinValue(all, s_min);
    if (threadIdx.x == 0) {
        scratch.counters[0] = 0;
        recordShift(mergeLog, all);
    }
}

/// The arrays the out-of-line runner functions touch, passed by value: a reference to the whole
/// MhcaView would make the kernel keep a copy of it on its stack.
struct RunnerRefs {
    double* key;
    int* slot;
    int* pos;
    int* birthOf;
    int* count;
    double* bound;
    const unsigned char* alive;
    const int* birth;
    int* nn;
    double* nnKey;
    double* nnBefore;
};

__device__ __forceinline__ RunnerRefs runnerRefs(const ClusterView& clusters, const NearestRowView& nearest) {
    return RunnerRefs{nearest.runKey,   nearest.runSlot,  nearest.runPos,  nearest.runBirth,
                      nearest.runCount, nearest.runBound, clusters.alive,  clusters.birth,
                      nearest.nn,       nearest.nnKey,    nearest.nnBefore};
}

/// Chunks of the visited list per rescanned row: enough work items to fill the device, chunks of at
/// least 256 entries. Host and device agree on it (partial buffer sizing).
__host__ __device__ inline int chunksPerRow(int rows, int listLen, int targetItems) {
    if (rows <= 0) return 1;
    const int maxChunks = (listLen + 255) / 256 > 1 ? (listLen + 255) / 256 : 1;
    if (rows >= targetItems) return 1;
    const int wanted = (targetItems + rows - 1) / rows;
    return wanted < maxChunks ? wanted : maxChunks;
}

}  // namespace clusterlens::cuda::mhca
