#pragma once
// Exact Euclidean minimum spanning tree of the complete graph on the GPU, without an N×N matrix.

#include <cstddef>
#include <vector>

#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// Exact Euclidean minimum spanning tree on n points x d features (row-major) in Prim order from
/// `start`: the Euclidean case of minimumSpanningTreeCuda(x, n, d, Metric, ...) in
/// clusterlens/vat/vat_cuda.hpp (Borůvka 1926 rounds on cached k-nearest-neighbour lists, with pruned
/// tiled scans of only the points whose nearest point of another component is not yet certain).
/// Decisions use the exact double distances (cpu's squaredEuclidean, summed in feature order) with
/// ties broken by (w, min(u,v), max(u,v)), and the weights equal minimumSpanningTreeCpu's bit for bit;
/// on data with distinct distances the result equals minimumSpanningTreeCpu's edge for edge:
/// edges[k].v is the vertex at Prim/VAT position k+1, edges[k].u its tree neighbour, edges[k].w the cut.
/// Device memory O(N·D): at most about 13·N·D + 200·N bytes. Time: one pruned k-NN pass plus scans,
/// O(N² D) in the worst case (about 0.4 all-pairs passes on 1M x 14 cytometry-like data). n = 1 gives
/// no edges.
/// Throws InvalidInput (n = 0, d = 0 or > 8192, start >= n, n >= 2^30, no CUDA device), NonFiniteInput,
/// OutOfDeviceMemory, CudaError, Cancelled (checked between kernel launches of at most ~50 ms).
std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d,
                                             JobControl* control = nullptr, std::size_t start = 0);

}  // namespace clusterlens
