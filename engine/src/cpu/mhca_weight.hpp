#pragma once
// mhclust's weight factor wf of a cluster as a __host__ __device__ function: the CUDA kernels' merged
// clusters and the CUDA apriori top level's groups take it from here; the CPU reference
// (mhca_agglomerate.cpp's shapeOfUnion, mhca_runs.cpp's makeGroupCluster) writes the same formula.

#ifdef __CUDACC__
#define CL_MHCA_HD __host__ __device__
#else
#define CL_MHCA_HD
#endif

namespace clusterlens::mhca {

/// wf of a cluster of `size` points (mhclust.c, definition 10 of the seed thesis): its share of the
/// threshold size threshold · nFull, at most 1; a cluster of two points or fewer weighs 0 (mhclust.c
/// gives a pair the identity covariance). size >= 1, nFull >= 1, threshold in (0, 1].
CL_MHCA_HD inline double clusterWeight(long long size, long long nFull, double threshold) {
    if (size <= 2) return 0.0;
    const double share = static_cast<double>(size) / (static_cast<double>(nFull) * threshold);
    return share < 1.0 ? share : 1.0;
}

}  // namespace clusterlens::mhca

#undef CL_MHCA_HD
