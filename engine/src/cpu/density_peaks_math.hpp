#pragma once
// Arithmetic of density-peaks clustering shared by the CPU reference and the CUDA kernels, written
// once as __host__ __device__ functions so that both decide distances, ties and the density order
// in the same way (Rodriguez & Laio 2014 definitions; see clusterlens/cluster/density_peaks.hpp).

#include <cmath>
#include <cstdint>
#include <limits>

#ifdef __CUDACC__
#define CL_DPC_HD __host__ __device__
#else
#define CL_DPC_HD
#endif

namespace clusterlens::dpc {

/// Exact squared distance of two float points given by accessors a(k), b(k): differences and
/// squares in double, summed from feature 0 to d-1 with separately rounded multiply and add. The CPU
/// (built with -ffp-contract=off) and the GPU (explicit round-to-nearest intrinsics) get the same
/// bits, so the CPU and GPU results agree exactly wherever they compare exact distances.
template <class A, class B>
CL_DPC_HD inline double exactSquaredDistance(const A& a, const B& b, int d) {
    double sum = 0.0;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
    for (int k = 0; k < d; ++k) {
        const double diff = static_cast<double>(a(k)) - static_cast<double>(b(k));
#ifdef __CUDA_ARCH__
        sum = __dadd_rn(sum, __dmul_rn(diff, diff));
#else
        sum += diff * diff;
#endif
    }
    return sum;
}

/// The strict total "higher density" order: j is higher than i iff rho_j > rho_i, or the densities
/// are equal and j < i.
CL_DPC_HD inline bool higherThan(double rhoJ, std::int64_t j, double rhoI, std::int64_t i) {
    return rhoJ > rhoI || (rhoJ == rhoI && j < i);
}

/// Candidate order of the nearest-higher search: smaller exact squared distance, then smaller index.
CL_DPC_HD inline bool candidateBefore(double e, std::int64_t j, double bestE, std::int64_t bestJ) {
    return e < bestE || (e == bestE && j < bestJ);
}

/// Relative bound on |f - e| / e, where f is the squared distance computed in float from the same
/// float inputs (differences rounded once, squares accumulated with d fused multiply-adds) and e the
/// exact value above: (d + 2)·2^-24 plus rounding of e itself, with one unit of slack.
CL_DPC_HD inline double floatDistanceTolerance(int d) {
    return static_cast<double>(d + 4) * 0x1.0p-24;
}

/// The cutoff test d_ij < dc as a test on squared distances: the smallest double t with
/// sqrt(t) >= dc, so that sqrt(e) < dc exactly when e < t (sqrt is correctly rounded and monotone).
inline double cutoffSquaredThreshold(double dc) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double t = dc * dc;
    while (std::sqrt(t) < dc) t = std::nextafter(t, kInf);
    while (t > 0.0 && std::sqrt(std::nextafter(t, 0.0)) >= dc) t = std::nextafter(t, 0.0);
    return t;
}

/// Histogram bin of e among `bins` equal bins over [lo, lo + bins / scale): floor((e - lo)·scale),
/// clamped. The bins only guide the exact selection, which re-counts every window exactly.
CL_DPC_HD inline int binOf(double e, double lo, double scale, int bins) {
    const double t = (e - lo) * scale;  // NaN when the window is too narrow for the scale: bin 0
    return !(t > 0.0) ? 0 : (t < static_cast<double>(bins) ? static_cast<int>(t) : bins - 1);
}

/// The 1-based rank of the p-th percentile among m values: round(p/100 · m) clamped to [1, m].
inline std::uint64_t percentileRank(double percent, std::uint64_t m) {
    const double r = percent / 100.0 * static_cast<double>(m);
    std::uint64_t k = r < 0.5 ? 0 : static_cast<std::uint64_t>(r + 0.5);
    if (k < 1) k = 1;
    if (k > m) k = m;
    return k;
}

}  // namespace clusterlens::dpc
