#pragma once
// Exact Euclidean minimum spanning tree of the complete graph on n points, by Prim's algorithm
// without a stored distance matrix, and the single-linkage dendrogram built from it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens {

/// One tree edge: vertex v joined the tree through its nearest tree vertex u at distance w.
struct MstEdge {
    std::int64_t u = 0;
    std::int64_t v = 0;
    double w = 0.0;
};

/// How the CPU finds an exact Euclidean (or sqeuclidean) minimum spanning tree for VAT and single
/// linkage. AllPairs: Prim over all pairs, O(N² D). Tree: Borůvka on a kd-tree over the distinct points,
/// O(N log N · D)-ish on low-dimensional data, falling back to AllPairs where equal distances leave
/// several minimal trees possible. Auto: Tree when d <= kTreeMstMaxDimension and n >= kTreeMstMinPoints
/// and n >= 4·2^d (at d = 14 from 65 536 points).
/// Every choice gives the same edges, order and bits.
enum class MstIndex { Auto, AllPairs, Tree };
constexpr std::size_t kTreeMstMinPoints = 4096;
constexpr std::size_t kTreeMstMaxDimension = 32;

/// Parses "auto" | "allpairs" | "tree"; throws InvalidInput naming --index otherwise.
MstIndex parseMstIndex(const std::string& text);

/// Prim's algorithm on n points x d features (row-major), Euclidean distance accumulated in double
/// (float input: MstIndex::Auto, see there, with the same result).
/// Returns n-1 edges in the order Prim adds the vertices: start, edges[0].v, edges[1].v, ... is the
/// Prim (VAT) order and edges[k].w the cut that added position k+1. Among equal candidate distances
/// the smaller vertex index is taken; u is the earliest added tree vertex at the minimal distance.
/// Time O(N^2 D), multithreaded; memory O(N·D) besides the input (the fringe's points copied
/// feature-major in double, 8·(D+3)·N bytes). n = 1 gives no edges.
/// Throws InvalidInput (n = 0, d = 0, start >= n), NonFiniteInput, Cancelled.
std::vector<MstEdge> minimumSpanningTreeCpu(const float* x, std::size_t n, std::size_t d, JobControl* control = nullptr,
                                            std::size_t start = 0);
std::vector<MstEdge> minimumSpanningTreeCpu(const double* x, std::size_t n, std::size_t d,
                                            JobControl* control = nullptr, std::size_t start = 0);

/// Single-linkage dendrogram of n leaves from the n-1 edges of a spanning tree: edges are sorted by
/// weight (stable, so the given order breaks ties; Prim order from start 0 reproduces scipy) and
/// joined with a union-find that labels clusters in scipy's convention. O(N log N).
/// Throws InvalidInput unless the edges form a spanning tree of n >= 2 vertices.
Linkage singleLinkageFromMst(std::vector<MstEdge> edges, std::size_t n);

}  // namespace clusterlens
