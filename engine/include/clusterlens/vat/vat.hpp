#pragma once
// VAT order (Bezdek & Hathaway 2002; GPU form: seed vat-gpu-paper.txt) from an exact minimum spanning
// tree of the complete graph, without an N×N matrix, and the flat clusterings its largest cuts give.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "clusterlens/backend.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/job_control.hpp"
#include "clusterlens/vat/metric.hpp"

namespace clusterlens {

struct VatOptions {
    Metric metric = Metric::Euclidean;
    Backend backend = Backend::Auto;
    /// CPU: how the spanning tree and the farthest pair are found (MstIndex; Tree needs the euclidean or
    /// sqeuclidean metric). Every choice gives the same result bit for bit.
    MstIndex index = MstIndex::Auto;
    /// CUDA: write a line on the GPU engine's passes (rounds, scans, tile pairs, times) into
    /// VatResult::trace (the benchmark's stage report).
    bool trace = false;
};

/// A VAT ordering of n points. Position k holds point order[k]; cut[k] (k >= 1) is the weight of the
/// Prim edge that added that point, cut[0] = 0. edges[k] is that edge: edges[k].v = order[k+1], edges[k].u
/// its tree neighbour, edges[k].w = cut[k+1] — a minimum spanning tree, so singleLinkageFromMst(edges, n)
/// is the single-linkage dendrogram of the same run.
struct VatResult {
    std::size_t n = 0;
    std::size_t start = 0;
    Metric metric = Metric::Euclidean;
    std::vector<MstEdge> edges;
    std::vector<std::int64_t> order;
    std::vector<double> cut;
    std::string backend;  ///< backendDescription() of the backend that ran
    /// CPU: "tree" (kd-tree farthest pair and Borůvka), "tree+allpairs" (kd-tree farthest pair; equal
    /// distances left several minimal trees possible, so Prim ran over all pairs) or "allpairs"
    std::string index;
    std::vector<std::string> warnings;  ///< e.g. the GPU ran out of memory and the CPU ran instead
    double secondsTree = 0.0;           ///< farthest pair + spanning tree
    double secondsOrder = 0.0;          ///< Prim walk of the tree
    std::string trace;                  ///< with VatOptions::trace, when the GPU ran: its passes, one line
};

/// The VAT start point per DESIGN.md: the pair (i, j), i < j, of largest distance, ties broken by the
/// lexicographically smallest pair; returns (i, j). O(N² D) time, multithreaded; memory 8·(D+1)·N
/// bytes (a feature-major copy of the points in double, so the pair loop vectorises).
/// Throws InvalidInput (n < 2, d = 0, cosine with an all-zero row), NonFiniteInput, Cancelled.
std::pair<std::size_t, std::size_t> farthestPairCpu(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                    JobControl* control = nullptr);

/// Exact minimum spanning tree by Prim from `start` under any metric: edges in Prim order (smaller
/// distance first, then the smaller vertex). AllPairs: O(N² D) time, multithreaded; memory 8·(D+3)·N
/// bytes besides x (the fringe, with its points copied feature-major in double). Tree (MstIndex; Auto
/// picks it for euclidean/sqeuclidean as minimum_spanning_tree.hpp says): the same edges bit for
/// bit from Borůvka on a kd-tree, O(N log N · D)-ish on low-dimensional data, memory about
/// 4·N·(D + 12) bytes; where equal distances leave several minimal trees possible it runs AllPairs.
/// Throws InvalidInput (also for Tree with another metric), NonFiniteInput, Cancelled.
std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, Metric metric,
                                            JobControl* control = nullptr, std::size_t start = 0);
std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, Metric metric, MstIndex index,
                                            JobControl* control = nullptr, std::size_t start = 0);

/// minimumSpanningTreeCpu or minimumSpanningTreeCuda (metric form) by `backend` (Auto: CUDA when
/// usable; equal trees on distinct distances), with the GPU fault handling that Computed in
/// backend.hpp describes. Throws what the chosen implementation throws.
Computed<std::vector<MstEdge>> minimumSpanningTree(const float* x, std::size_t n, std::size_t d, Metric metric,
                                                   Backend backend, JobControl* control = nullptr,
                                                   std::size_t start = 0);

/// Walks any spanning tree of n vertices by Prim's rule from `start` (lightest frontier edge first,
/// ties: the smaller vertex): with distinct distances this is Prim's order on the complete graph.
/// Returns the result with edges/order/cut filled. O(N log N). Throws InvalidInput unless `tree` is a
/// spanning tree of n >= 1 vertices and start < n.
VatResult vatFromTree(const std::vector<MstEdge>& tree, std::size_t n, std::size_t start);

/// VAT of n points x d features (row-major): farthest pair, exact minimum spanning tree, Prim order.
/// CPU: O(N² D) time; CUDA: see minimumSpanningTreeCuda (metric form). Memory O(N·D) on either.
/// options.backend Auto runs on the CPU, with a warning in `warnings`, when the GPU runs out of memory
/// or loses its context (Computed in backend.hpp). Throws InvalidInput (n < 2, d = 0, bad metric input),
/// NonFiniteInput, OutOfDeviceMemory, CudaError, Cancelled.
VatResult computeVat(const float* x, std::size_t n, std::size_t d, const VatOptions& options,
                     JobControl* control = nullptr);

/// Rough wall time in seconds of computeVat on the CPU with `threads` threads, for warning a user
/// before a long run: the kd-tree Borůvka where MstIndex::Auto takes it (from this engine's runs on
/// cytometry-like data: 41 s of CPU at 200K x 14 and 674 s at 1M x 14, so ~ n^1.73, taken as linear
/// in d), else the all-pairs Prim (3.2e-10 s per pair and feature on one thread). Clustered data run
/// faster on the tree and uniform noise slower. O(1).
double cpuVatSecondsEstimate(std::size_t n, std::size_t d, Metric metric, std::size_t threads);

/// VAT of a user-supplied symmetric n×n dissimilarity matrix (row-major, zero diagonal; for small n).
/// Same start/tie rules. O(N²) time and no memory beyond the result. Throws InvalidInput when the matrix
/// is not square-symmetric with a zero diagonal or holds a negative value, NonFiniteInput.
VatResult computeVatFromDistances(const double* distances, std::size_t n, JobControl* control = nullptr);

/// Positions p (1 <= p < n) of the k-1 largest cuts, ascending by position (clusiVAT's cluster
/// boundaries: block b spans [boundary[b-1], boundary[b]) ). Equal cuts: the earlier position is
/// taken first. Throws InvalidInput unless 1 <= k <= n.
std::vector<std::size_t> largestCutPositions(const VatResult& vat, std::size_t k);

/// Labels 0..k-1 per point index from the k-1 largest cuts; label b = b-th block of the order. With
/// distinct weights this is single linkage cut into k clusters (scipy's fcluster maxclust=k).
std::vector<int> labelsFromLargestCuts(const VatResult& vat, std::size_t k);

}  // namespace clusterlens
