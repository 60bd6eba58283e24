#pragma once
// Shared pieces of the GPU VAT engine (minimum spanning tree, farthest pair, viewport rendering):
// the tile geometry, the exact metric (the bits of metricDistance), and the rigorous bounds that
// relate the float "screening" values of the tiled passes to the exact double distances.
//
// Screening space. The tiled passes never decide anything in float: they only discard pairs that
// provably cannot matter and hand every other pair to the exact double metric. Each metric gets a
// screening value f (float) per pair and a reference value s (the exact double metric mapped
// monotonically, non-decreasing, into the same space) with lower(f) <= s <= upper(f):
//   euclidean, sqeuclidean: points centred (double mean) and scaled by 2^k, f = |a|^2 + |b|^2 - 2 a.b
//     (one fused multiply-add per feature), s = 4^k * (the double sum of metricDistance);
//     |f - s| <= kappa (|a|^2 + |b|^2) (Ge et al.'s tile layout, error analysis as for the
//     density-peaks passes, plus a relative margin that absorbs the double rounding of s);
//   cosine: rows normalised in double and rounded to float, the same dot form, s = 2 * metricDistance;
//     kappa also covers the rounding of the unit rows (|û - â| <= 2^-24) and the double quotient;
//   manhattan: points scaled by 2^k (not centred, so that every term keeps a relative error),
//     f = sum |a - b| in float, s = 2^k * metricDistance, |f - s| <= kappa * f.
// A tiny absolute term covers underflow. Every relative margin is >= 2^-28, far above the 2^-52 by
// which two doubles of equal metric value can differ in s, so a pair that ties the best exact value
// is never screened out.

#include <cuda_runtime.h>

#include <cfloat>
#include <climits>
#include <cmath>

#include "clusterlens/vat/metric.hpp"

namespace clusterlens::cuda {

constexpr int kVatTile = 128;                   ///< points per tile (a kd-tree leaf)
constexpr int kVatThreads = 256;                ///< threads per tiled block: 16 x 16, each 8 x 8 pairs
constexpr int kVatChunk = 32;                   ///< features per shared-memory stage
constexpr int kVatKnnPerThread = 4;             ///< nearest candidates each thread keeps per row in the k-NN pass
constexpr int kVatKnn = 16;                     ///< stored neighbour list length per point
constexpr float kVatPadCoordinate = 0x1.0p40f;  ///< screening coordinate of padding positions: far away

/// Floats of a ball centre in dynamic shared memory: d rounded up to whole 16-byte words. The compiler
/// reads a centre with vector loads of up to 16 bytes, so the last word must lie inside the allocation;
/// the kernels fill the padding with zeros.
__host__ __device__ constexpr int vatCentreSharedFloats(int d) {
    return (d + 3) / 4 * 4;
}

/// Offset inside a tile of micro-tile entry r (0..7) of thread coordinate t (0..15): two runs of
/// four, 64 apart, so that a warp's 16-byte shared loads are free of bank conflicts.
__host__ __device__ __forceinline__ int vatOffset(int t, int r) {
    return (r < 4 ? 0 : 64) + t * 4 + (r & 3);
}

/// How the screening values of one run relate to the exact metric (see the file comment).
struct VatScreen {
    Metric metric = Metric::Euclidean;
    int scaleExp = 0;    ///< screening coordinates = (x - mean) * 2^scaleExp (manhattan: x * 2^scaleExp)
    float kappa = 0.0f;  ///< relative bound factor (of |a|^2 + |b|^2, or of f for manhattan)
    float tiny = 0.0f;   ///< absolute bound for underflow

    __host__ __device__ bool l1() const { return metric == Metric::Manhattan; }
};

/// The screening bounds of one run for d features.
inline VatScreen makeVatScreen(Metric metric, int scaleExp, int d) {
    VatScreen s;
    s.metric = metric;
    s.scaleExp = scaleExp;
    const double u = 0x1.0p-24;
    double kappa = 0.0;
    if (metric == Metric::Manhattan) {
        // d rounded differences and d-1 rounded additions (relative), the bound arithmetic itself.
        kappa = 2.0 * (d + 8) * u + 0x1.0p-28;
    } else {
        // Centring (4), d fused multiply-adds (d), norms (1), the bound coefficients and their
        // sum (5), f (1): (d + 11) u; twice that for safety, as the density-peaks passes do.
        kappa = 2.0 * (d + 16) * u + 0x1.0p-28;
        // Unit rows rounded to float move each chord by <= 2·2^-24 (|s| <= 4: 8.1 u relative to
        // |a|^2 + |b|^2 = 2 gives 4.1 u); the double quotient of metricDistance (d + 8) 2^-53.
        if (metric == Metric::Cosine) kappa += 4.1 * u + (d + 8) * 0x1.0p-52;
    }
    s.kappa = static_cast<float>(kappa * (1.0 + 0x1.0p-20));
    s.tiny = static_cast<float>((3.0 * d + 16.0) * 0x1.0p-149 + 0x1.0p-140);
    return s;
}

/// An upper bound, in screening units, of s for every pair whose exact metric value is <= t
/// (+inf for t = +inf). The caller rounds it up to float.
__host__ __device__ inline double vatScreenAbove(const VatScreen& s, double t) {
    if (!(t < INFINITY)) return INFINITY;
    const double grow = 1.0 + 0x1.0p-40;
    switch (s.metric) {
        case Metric::Euclidean:
            return ldexp(t * t * grow, 2 * s.scaleExp);
        case Metric::SqEuclidean:
            return ldexp(t * grow, 2 * s.scaleExp);
        case Metric::Cosine:
            return 2.0 * t * grow + 0x1.0p-60;
        case Metric::Manhattan:
            return ldexp(t * grow, s.scaleExp);
    }
    return INFINITY;
}

/// A lower bound of the exact metric value of every pair whose s is >= r (r in screening units).
__host__ __device__ inline double vatMetricBelow(const VatScreen& s, double r) {
    if (!(r > 0.0)) return s.metric == Metric::Cosine ? -1.0 : 0.0;
    if (!(r < INFINITY)) return INFINITY;
    const double shrink = 1.0 - 0x1.0p-40;
    switch (s.metric) {
        case Metric::Euclidean:
            return sqrt(ldexp(r, -2 * s.scaleExp)) * shrink;
        case Metric::SqEuclidean:
            return ldexp(r, -2 * s.scaleExp) * shrink;
        case Metric::Cosine:
            return 0.5 * r * shrink - 0x1.0p-60;
        case Metric::Manhattan:
            return ldexp(r, -s.scaleExp) * shrink;
    }
    return 0.0;
}

/// The exact metric of two rows of d floats: metricDistance's operations in its order with explicit
/// round-to-nearest intrinsics (no contraction into fused multiply-adds), so the bits are the CPU's.
template <Metric M>
__device__ inline double vatExactDistance(const float* __restrict__ a, const float* __restrict__ b, int d) {
    if constexpr (M == Metric::Cosine) {
        double dot = 0.0, na = 0.0, nb = 0.0;
        for (int k = 0; k < d; ++k) {
            const double ak = static_cast<double>(a[k]);
            const double bk = static_cast<double>(b[k]);
            dot = __dadd_rn(dot, __dmul_rn(ak, bk));
            na = __dadd_rn(na, __dmul_rn(ak, ak));
            nb = __dadd_rn(nb, __dmul_rn(bk, bk));
        }
        return __dsub_rn(1.0, __ddiv_rn(dot, __dmul_rn(__dsqrt_rn(na), __dsqrt_rn(nb))));
    } else {
        double sum = 0.0;
        for (int k = 0; k < d; ++k) {
            const double diff = __dsub_rn(static_cast<double>(a[k]), static_cast<double>(b[k]));
            if constexpr (M == Metric::Manhattan) {
                sum = __dadd_rn(sum, fabs(diff));
            } else {
                sum = __dadd_rn(sum, __dmul_rn(diff, diff));
            }
        }
        if constexpr (M == Metric::Euclidean) return __dsqrt_rn(sum);
        return sum;
    }
}

/// Runtime metric form for the rare call sites outside templated kernels.
__device__ inline double vatExactDistance(Metric metric, const float* a, const float* b, int d) {
    switch (metric) {
        case Metric::SqEuclidean:
            return vatExactDistance<Metric::SqEuclidean>(a, b, d);
        case Metric::Manhattan:
            return vatExactDistance<Metric::Manhattan>(a, b, d);
        case Metric::Cosine:
            return vatExactDistance<Metric::Cosine>(a, b, d);
        case Metric::Euclidean:
            break;
    }
    return vatExactDistance<Metric::Euclidean>(a, b, d);
}

/// The per-row coefficients of the dot-form bounds: lower = fma(-2, g, lo_a + lo_b),
/// upper = fma(-2, g, hi_a + hi_b) for a pair of squared norms n_a, n_b and dot product g.
__device__ __forceinline__ float vatLowCoefficient(const VatScreen& s, float norm) {
    return fmaf(-s.kappa, norm, norm) - s.tiny;
}
__device__ __forceinline__ float vatHighCoefficient(const VatScreen& s, float norm) {
    return fmaf(s.kappa, norm, norm) + s.tiny;
}

/// Candidate order of a nearest-neighbour search from one point: smaller exact value, then the
/// smaller original index (for a fixed point this is the edge order (w, min(u,v), max(u,v))).
__host__ __device__ __forceinline__ bool vatNearerThan(double w, int q, double bestW, int bestQ) {
    return w < bestW || (w == bestW && q < bestQ);
}

/// Candidate order of the farthest-pair search from one point: larger exact value, then the
/// smaller original index (for a fixed point this is the lexicographically smaller pair).
__host__ __device__ __forceinline__ bool vatFartherThan(double w, int q, double bestW, int bestQ) {
    return w > bestW || (w == bestW && q < bestQ);
}

/// The device view of one prepared point set (VatSpace on the host).
struct VatSpaceView {
    const float* tiles;   ///< tileCount x dPad x 128 screening coordinates (padding: kVatPadCoordinate)
    const float* norms;   ///< per position: squared norm of the screening row (dot forms); 0 for manhattan
    const int* perm;      ///< per position: original index, -1 for padding
    const float* points;  ///< n x d original values, row-major (exact distances)
    int n;
    int d;
    int dPad;
    int tileCount;
    VatScreen screen;
};

/// Balls of `count` tiles: centre[k * count + b] is feature k of ball b's centre.
struct VatBallsView {
    const float* centre;
    const float* radius;
    int count;
};

/// Per-block work of a tiled pass: block b takes unit blockUnit[b] (a row tile or a row group), whose
/// column tiles are list[offsets[unit] - base .. offsets[unit + 1] - base).
struct VatWork {
    const int* blockUnit;
    const int* list;
    const long long* offsets;
    long long base;
};

constexpr unsigned long long kVatNoEdge = ~0ull;

/// Order-preserving map of doubles to unsigned 64-bit integers (for atomicMin).
__host__ __device__ inline unsigned long long vatOrderedBits(double w) {
#ifdef __CUDA_ARCH__
    const auto b = static_cast<unsigned long long>(__double_as_longlong(w));
#else
    unsigned long long b = 0;
    static_assert(sizeof(b) == sizeof(w));
    __builtin_memcpy(&b, &w, sizeof b);
#endif
    return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}

__host__ __device__ inline double vatFromOrderedBits(unsigned long long b) {
    if (b == kVatNoEdge) return INFINITY;
    const unsigned long long raw = (b >> 63) ? (b & 0x7fffffffffffffffull) : ~b;
#ifdef __CUDA_ARCH__
    return __longlong_as_double(static_cast<long long>(raw));
#else
    double w = 0.0;
    __builtin_memcpy(&w, &raw, sizeof w);
    return w;
#endif
}

/// Device state of the rounds; per position unless said otherwise ("label": indexed by the position
/// that labels a component).
struct VatForest {
    int positions;
    int skip;             ///< label of the component left out of this round (-1: none)
    int* comp;            ///< component label, -1 for padding
    const int* perm;      ///< original index, -1 for padding
    const float* points;  ///< n x d original values (the exact weight of a list entry)
    int d;
    Metric metric;
    const int* knnPos;       ///< positions x kVatKnn, sorted by (exact value, original index)
    const double* knnBound;  ///< every point off the list is at least this far
    int* cachePos;           ///< certified nearest other-component position, -1 none
    double* cacheW;
    double* lb;
    double* candW;  ///< this round's candidate edge, +inf none
    int* candPos;
    unsigned char* candCert;
    unsigned long long* compUpper;  ///< label: lightest candidate edge (ordered bits)
    unsigned long long* compBest;   ///< label: lightest certified edge
    unsigned long long* compKey;    ///< label: min (lo << 32 | hi) of the original indices among those
    int* compOther;                 ///< label: component of the chosen edge's other end
    double* compW;                  ///< label: the chosen edge's exact weight
    unsigned int* error;            ///< invariant violations (bit flags), 0 normally
};

/// out[0..count) = value (each translation unit instantiates its own types).
template <class T>
__global__ void vatFillKernel(T* __restrict__ out, size_t count, T value) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < count) out[i] = value;
}

}  // namespace clusterlens::cuda
