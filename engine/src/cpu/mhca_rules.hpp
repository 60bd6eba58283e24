#pragma once
// mhclust's rules that the CPU reference and the CUDA kernels both apply, written once as
// __host__ __device__ functions (as density_peaks_math.hpp does for DPC): a cluster's weight factor wf,
// when a cluster counts as at the threshold, what the sub-threshold mode makes of a cluster's shape
// (Σ' = wf·Σ + (1 - wf)·mf·I, or the identity) and the distance mode of the distances a merge computes.
// Products and sums are rounded separately on both sides (the CPU builds with -ffp-contract=off, the
// device uses round-to-nearest intrinsics), so both get the same bits.

#include "clusterlens/hca/mhca.hpp"

#ifdef __CUDACC__
#define CL_MHCA_HD __host__ __device__
#else
#define CL_MHCA_HD
#endif

namespace clusterlens::mhca {

/// a·b rounded once (never contracted into a fused multiply-add).
CL_MHCA_HD inline double roundedProduct(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

/// a + b rounded once.
CL_MHCA_HD inline double roundedSum(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

/// wf of a cluster of `size` points (mhclust.c, definition 10 of the seed thesis): its share of the
/// threshold size threshold · nFull, at most 1; a cluster of two points or fewer weighs 0 (mhclust.c
/// gives a pair the identity covariance). size >= 1, nFull >= 1, threshold in (0, 1].
CL_MHCA_HD inline double clusterWeight(long long size, long long nFull, double threshold) {
    if (size <= 2) return 0.0;
    const double share = static_cast<double>(size) / (static_cast<double>(nFull) * threshold);
    return share < 1.0 ? share : 1.0;
}

/// Whether a cluster of `size` points has reached the threshold size threshold · nFull.
CL_MHCA_HD inline bool reachesThreshold(long long size, long long nFull, double threshold) {
    return static_cast<double>(size) >= threshold * static_cast<double>(nFull);
}

/// Whether a cluster of weight wf gets a shape from its covariance in sub-threshold mode `mode`: always
/// with mahal and mahal0, at the threshold (wf = 1) with euclid and euclidMahal. Otherwise its Σ'^-1
/// is the identity and nmf 1.
CL_MHCA_HD inline bool shapedInMode(SubthresholdMode mode, double wf) {
    return mode == SubthresholdMode::Mahal || mode == SubthresholdMode::Mahal0 || wf == 1.0;
}

/// Whether the shrinkage target's scale mf is det(Σ)^(1/d) (every mode but mahal0, whose mf is 1).
CL_MHCA_HD inline bool scaledShrinkage(SubthresholdMode mode) {
    return mode != SubthresholdMode::Mahal0;
}

/// (1 - wf)·mf, the weight of the identity in Σ' = wf·Σ + (1 - wf)·mf·I.
CL_MHCA_HD inline double shrinkScale(double wf, double mf) {
    return roundedProduct(1.0 - wf, mf);
}

/// One entry of Σ': wf·sigma + scale·delta, sigma the covariance's entry, scale = shrinkScale(wf, mf)
/// and delta the identity's entry (1 on the diagonal, else 0).
CL_MHCA_HD inline double shrunkEntry(double wf, double sigma, double scale, double delta) {
    return roundedSum(roundedProduct(wf, sigma), roundedProduct(scale, delta));
}

/// How a cluster's distances are computed (mhca's computeMahalDistMat arguments): `normalized` divides
/// Σ'^-1 by nmf (unit determinant); `identity` replaces Σ'^-1 by I.
struct DistanceMode {
    bool normalized = false;
    bool identity = false;
};

/// The mode of distances computed while `belowThreshold` (mhclust.c: fewer than all clusters but one
/// at the threshold; mhclust.R's top level: some cluster below it): normalised with `normalize` or
/// below the threshold, and the identity below it with euclid.
CL_MHCA_HD inline DistanceMode distanceModeFor(bool normalize, bool belowThreshold, SubthresholdMode mode) {
    return DistanceMode{normalize || belowThreshold, belowThreshold && mode == SubthresholdMode::Euclid};
}

}  // namespace clusterlens::mhca

#undef CL_MHCA_HD
