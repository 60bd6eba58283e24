#pragma once
// Classic linkages on the GPU without a distance matrix: single (minimum spanning tree), ward and
// centroid (clusters as centroid + size). Same results as classicLinkageCpu on tie-free data.

#include <cstddef>

#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// Hierarchical clustering of n points x d features (row-major, float) on the current CUDA device,
/// in scipy's linkage convention (see linkage.hpp), Euclidean distance.
///   Single:   minimumSpanningTreeCuda + singleLinkageFromMst (rows sorted by height).
///   Ward:     nearest-neighbour chain (Müllner 2011) over clusters kept as (centroid, size) in
///             double; d(A,B) = sqrt(2|A||B|/(|A|+|B|))·‖μA−μB‖, scipy's ward on Euclidean input;
///             rows sorted by height (stable) and labelled as scipy does.
///   Centroid: generic algorithm with a nearest-neighbour array whose stale entries are lower
///             bounds rescanned on demand (Müllner 2011); d(A,B) = ‖μA−μB‖; rows in merge order
///             (heights may decrease).
/// Each nearest-neighbour query scans the active clusters on the whole GPU (one persistent
/// cooperative kernel, grid-wide barriers between phases). Device memory O(N·D): 8·N·D bytes of
/// centroids (16·N·D for ward, whose cluster ids are not reused) plus about 30·N bytes; time
/// O(N² D), no N×N matrix.
/// Heights agree with classicLinkageCpu to ~1e-12 relative (centroids instead of Lance–Williams
/// updates of a matrix); the merge sequence is the same when no two candidate distances tie.
/// Throws InvalidInput (n < 2, d = 0, n >= 2^31, d too large for shared memory, and for the other
/// methods: "not available on the GPU; use --backend cpu"), NonFiniteInput, OutOfDeviceMemory,
/// CudaError, Cancelled (checked between kernel launches of ~30 ms).
Linkage classicLinkageCuda(const float* x, std::size_t n, std::size_t d, LinkageMethod method,
                           JobControl* control = nullptr);

}  // namespace clusterlens
