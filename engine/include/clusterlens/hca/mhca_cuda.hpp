#pragma once
// Mahalanobis-average hierarchical clustering (MHCA) on a CUDA device, with exactly the semantics of
// mhcaCpu (hca/mhca.hpp): the R package mhca's mhclust, FMD and CMD, every sub-threshold mode,
// normalize and apriori groups.

#include <cstddef>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// Clusters n points of dimension d (row-major doubles) by MHCA on CUDA device 0's current device.
///
/// The GPU design of the seed thesis (chapter 2: nearest-neighbour array, section 2.5 kernels) without
/// its limits: double precision, any d, FMD as well as CMD, ties resolved as mhcaCpu resolves them
/// (the pair first in mhclust's cluster order). The nearest neighbour of every cluster is kept on the
/// device and updated after each merge; the merged cluster's mean, scatter matrix and Σ'^-1 are
/// recomputed there (covariance from the members in mhclust's order while the cluster is small, by
/// the pairwise update of the scatter matrices when it is large; Cholesky and inverse in the
/// operation order of reference LAPACK, as mhcaCpu). The pairwise update rounds otherwise than the
/// CPU's member sums, so heights of merges with such large clusters (CMD: over min(256, 2^24 / N)
/// members, at least 2d + 2) can differ from mhcaCpu's in the 8th significant digit, and a near tie
/// can break the other way. CMD runs without any host synchronisation per merge; FMD copies one
/// small record per merge to plan the member passes.
///
/// Device memory: O(N·D + N·D²) — points, means, Σ'^-1, Σ'^-1/nmf and scatter matrix per cluster
/// slot (packed triangles) and 8 runner-up partners per slot, never a pairwise distance matrix
/// (1M x 39: 20 GB). Time per merge: O(K·D²) for CMD, O((N + K·|new|)·D²) for FMD, for K live
/// clusters; O(N²·D) for the initial nearest neighbours. CMD apriori groups below the threshold are
/// clustered concurrently, a block per group: O(k²·D) to start and O(k·D²) per merge for a group of
/// k points (1M x 20 in 1000 k-means groups: ~2 s on an H200).
///
/// @throws InvalidInput / NonFiniteInput as mhcaCpu (validateMhcaInput), OutOfDeviceMemory naming the
///         bytes needed, CudaError, Cancelled (checked about every thousand merges).
Linkage mhcaCuda(const double* x, std::size_t n, std::size_t d, const MhcaOptions& options,
                 JobControl* control = nullptr);

}  // namespace clusterlens
