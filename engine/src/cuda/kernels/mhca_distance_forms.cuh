#pragma once
// The CMD distance forms of the persistent kernel (mhca_persistent_kernels.cuh), each out of line so
// that the logic around its calls does not raise the kernel's register count (capped at 168 per
// thread by kPersistentThreads; every live value of the merge loop beyond it costs spills). Every
// form gives the value of centroidDistance / quadraticForm (mhca_device.cuh) bit for bit, so merges
// stay those of mhcaCpu.
//
// The streamed forms read a metric that lies in global memory for every live cluster (the shape
// phase's other side of the new distances; the rescan passes): ~K·d²/2 doubles per merge, which
// exceed the L2 cache from ~60K clusters at d = 14.

#include <cuda_runtime.h>

#include "cuda/kernels/mhca_device.cuh"

namespace clusterlens::cuda::mhca {

/// One side of a CMD distance (centroidDistance's form of r = μo - μc with the metric m), out of line so
/// that the logic around it does not raise the kernel's register count.
template <int MAXD>
__device__ __noinline__ double sideForm(const double* muC, const double* muO, int n, MetricRef m, int d) {
    double r[MAXD];
#pragma unroll
    for (int k = 0; k < MAXD; ++k) r[k] = k < d ? dsub(muO[static_cast<size_t>(k) * n], muC[k]) : 0.0;
    return quadraticForm<MAXD>(m, r, d);
}

/// sideForm for exactly D dimensions (the same operations: sideForm skips the rows beyond d).
template <int D>
__device__ __noinline__ double sideFormExact(const double* muC, const double* muO, int n, MetricRef m) {
    double r[D];
#pragma unroll
    for (int k = 0; k < D; ++k) r[k] = dsub(muO[static_cast<size_t>(k) * n], muC[k]);
    return quadraticForm<D>(m, r, D);
}

/// sideForm for dimension d in the instance for MAXD: the exact-dimension function for each d in
/// (MAXD / 2, MAXD], one test per d.
template <int MAXD, int D = MAXD>
__device__ __forceinline__ double sideFormOf(const double* muC, const double* muO, int n, MetricRef m, int d) {
    if (d == D) return sideFormExact<D>(muC, muO, n, m);
    if constexpr (D > MAXD / 2 + 1) {
        return sideFormOf<MAXD, D - 1>(muC, muO, n, m, d);
    } else {
        return sideForm<MAXD>(muC, muO, n, m, d);
    }
}

/// rᵀ M r for a metric in global memory, the value of quadraticForm (same operations, same order), but
/// every address of the MAXD triangle is valid (rows beyond d read entry 0 and add exact zeros: r_k = 0
/// there) and no branch separates the loads, so a lane's loads can be in flight together; with the
/// branches, ~d dependent rounds of loads per cluster bounded the streaming. Only in out-of-line
/// functions: inlined, the extra live values cost spills. kEvictFirst: the loads are marked
/// evict-first (while the streamed metrics exceed the L2 cache they would only push out what the
/// other phases reuse).
template <int MAXD, bool kEvictFirst>
__device__ __forceinline__ double streamedForm(MetricRef m, const double (&r)[MAXD], int d) {
    if (m.m == nullptr) return quadraticForm<MAXD>(m, r, d);
    auto load = [&](int e) {
        const double* p = m.m + static_cast<size_t>(e) * m.stride;
        if constexpr (kEvictFirst) {
            return __ldcs(p);
        } else {
            return *p;
        }
    };
    double y[MAXD];
#pragma unroll
    for (int j = 0; j < MAXD; ++j) {
        const double mjj = load(j < d ? packedIndex(j, j) : 0);
        y[j] = dmul(j < d ? mjj : 0.0, r[j]);
    }
#pragma unroll
    for (int i = 1; i < MAXD; ++i) {
#pragma unroll
        for (int k = 0; k < i; ++k) {
            const double loaded = load(i < d ? packedIndex(i, k) : 0);
            const double mik = i < d ? loaded : 0.0;
            y[i] = dadd(y[i], dmul(mik, r[k]));
            y[k] = dadd(y[k], dmul(mik, r[i]));
        }
    }
    double q = 0.0;
#pragma unroll
    for (int j = 0; j < MAXD; ++j) q = dadd(q, dmul(y[j], r[j]));
    return q;
}

/// r = μo - μc (μo in global memory, stride n) with valid addresses only and no branch.
template <int MAXD>
__device__ __forceinline__ void streamedDifference(const double* muC, const double* muO, int n, int d,
                                                   double (&r)[MAXD]) {
#pragma unroll
    for (int k = 0; k < MAXD; ++k) {
        const int kk = k < d ? k : 0;
        const double o = muO[static_cast<size_t>(kk) * n];
        r[k] = k < d ? dsub(o, muC[kk]) : 0.0;
    }
}

/// sideForm with streamedForm: the shape phase's streaming of the other clusters' side.
template <int MAXD, bool kEvictFirst>
__device__ __noinline__ double streamedSideForm(const double* muC, const double* muO, int n, MetricRef m, int d) {
    double r[MAXD];
    streamedDifference<MAXD>(muC, muO, n, d, r);
    return streamedForm<MAXD, kEvictFirst>(m, r, d);
}

/// streamedSideForm for exactly D dimensions: the same operations in the same order, less those of the
/// rows beyond d in the instance for MAXD (they add exact zeros: y_k + (+0) differs from y_k only in a
/// zero's sign, which the sum q, never -0, absorbs), so the same value bit for bit. At d = 14 it has a
/// third of the loads fewer, no selects and less than half the instructions: the streaming warps
/// issue every instruction of it per cluster.
template <int D, bool kEvictFirst>
__device__ __noinline__ double streamedSideFormExact(const double* muC, const double* muO, int n, MetricRef m) {
    double r[D];
    streamedDifference<D>(muC, muO, n, D, r);
    return streamedForm<D, kEvictFirst>(m, r, D);
}

/// The other side's streamed form for dimension d in the instance for MAXD: while the metrics fit in
/// L2 (not evictFirst) the exact-dimension function for each d in (MAXD / 2, MAXD] (the dimensions the
/// instance serves; one test per d). Beyond L2 the streaming is bound by the memory's bandwidth, and
/// there the padded form streamed faster (H200, CMD 200K×14: 11.9 against 12.3 s).
template <int MAXD, int D = MAXD>
__device__ __forceinline__ double streamedSide(bool evictFirst, const double* muC, const double* muO, int n,
                                               MetricRef m, int d) {
    if (evictFirst) return streamedSideForm<MAXD, true>(muC, muO, n, m, d);
    if (d == D) return streamedSideFormExact<D, false>(muC, muO, n, m);
    if constexpr (D > MAXD / 2 + 1) {
        return streamedSide<MAXD, D - 1>(false, muC, muO, n, m, d);
    } else {
        return streamedSideForm<MAXD, false>(muC, muO, n, m, d);
    }
}

/// stagedDistance (centroidDistance's value: the staged row's side, then o's) with o's side by
/// streamedForm, for the rescan passes, which read every later cluster's metric.
template <int MAXD, bool kEvictFirst>
__device__ __noinline__ double stagedDistanceStreamed(const double* muC, MetricRef mC, const double* muO, MetricRef mO,
                                                      int n, int d) {
    double r[MAXD];
    streamedDifference<MAXD>(muC, muO, n, d, r);
    const double qC = quadraticForm<MAXD>(mC, r, d);
    const double qO = streamedForm<MAXD, kEvictFirst>(mO, r, d);
    return (sqrt(qC) + sqrt(qO)) / 2.0;
}

}  // namespace clusterlens::cuda::mhca
