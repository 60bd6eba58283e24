#pragma once
// Exact Euclidean minimum spanning tree of the complete graph on the GPU, without an N×N matrix.

#include <cstddef>
#include <vector>

#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// Borůvka's algorithm (Borůvka 1926; Sollin's parallel form) on n points x d features (row-major):
/// each round a tiled all-pairs kernel finds, for every point, its nearest point in another
/// component, and the host reduces these to one minimum edge per component (ties: smallest
/// (w, min(u,v), max(u,v))) and joins them; O(log N) rounds. Candidates are screened with float32
/// squared distances and every one within the float rounding bound of the running minimum is
/// re-evaluated in double, so the chosen edges are those of the exact double distances
/// (cpu's squaredEuclidean, summed in feature order) and the weights equal minimumSpanningTreeCpu's
/// bit for bit. The tree is then walked by Prim's rule from `start` (smaller weight first, then the
/// smaller vertex), so on data with distinct distances the result equals minimumSpanningTreeCpu's
/// edge for edge: edges[k].v is the vertex at Prim/VAT position k+1, edges[k].u its tree neighbour.
/// Device memory O(N·D): 4·N·ceil(D/4)·4 bytes for the points plus 16·N bytes. Time O(N² D) per round.
/// Throws InvalidInput (n = 0, d = 0 or > 8192, start >= n, n >= 2^31), NonFiniteInput, OutOfDeviceMemory,
/// CudaError, Cancelled (checked between kernel launches of at most ~50 ms).
std::vector<MstEdge> minimumSpanningTreeCuda(const float* x, std::size_t n, std::size_t d,
                                             JobControl* control = nullptr, std::size_t start = 0);

} // namespace clusterlens
