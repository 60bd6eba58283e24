#pragma once
// Exact Euclidean minimum spanning tree and farthest pair on a kd-tree, for the CPU VAT and single
// linkage on low-dimensional data: points with equal coordinates are collapsed first, then Borůvka
// (1926) runs with one kd-tree search per point and round for the nearest point of another component
// (the single-tree form of the Borůvka EMST of March, Ram & Gray 2010, as in mlpack and hdbscan), and
// the farthest pair is a branch-and-bound search. Every distance is the bits of metricDistance()
// (KdTree sums the squared differences in feature order; sqrt for Euclidean), so every comparison is
// the comparison the all-pairs Prim makes. The Borůvka leaf scans screen pairs by their float squared
// distance (cpu::screenLeaf) and compute exact values only for pairs that may be within the limit;
// from 4 features on the leaves hold up to 96 points (200K x 14: 23.5 s with 32, 22.2 s with 96,
// 24.3 s with 256 on 2 cores), in 1 to 3 features 32.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/job_control.hpp"
#include "cpu/kd_tree.hpp"
#include "cpu/tree_mst_detail.hpp"
#include "cpu/vat_kernels.hpp"

namespace clusterlens::cpu {

/// The distinct points of n x d floats: equal coordinates (compared as floats, so -0 equals 0) form a
/// group whose smallest index stands for it. Every distance to a group member has the same bits.
struct DistinctPoints {
    std::size_t d = 0;
    std::vector<float> values;         ///< m x d, row-major: the coordinates of rep[g]
    std::vector<std::uint32_t> rep;    ///< m: the smallest point index of each group, ascending
    std::vector<std::uint32_t> group;  ///< n: the group of each point
    std::size_t size() const { return rep.size(); }
};

/// Groups equal points by sorting them lexicographically. O(n log n · d) time, memory 4·n·(d + 3) bytes.
DistinctPoints collapseDuplicates(const float* x, std::size_t n, std::size_t d);

/// The kd-tree searches over the distinct points; `squared` picks the sqeuclidean metric, otherwise
/// Euclidean. Build O(m log m · d); memory that of KdTree over the m distinct points.
class TreeMstSearch {
public:
    TreeMstSearch(const float* x, std::size_t n, std::size_t d, bool squared);

    /// The pair (i, j), i < j, of largest distance, ties to the lexicographically smallest pair: the
    /// result of farthestPairScan over all n points, bit for bit. Branch and bound: a point or node is
    /// skipped only where every distance it could give is certainly below the best so far. Worst case
    /// O(m² d), near O(m log m · d) on clustered data. Checks for a cancel per block of points.
    FarPair farthestPair(JobControl* control, double from, double to) const;

    /// A minimum spanning tree of all n points (n - 1 edges, in no particular order, duplicates joined
    /// to their group's first point at weight 0, `start` standing for its own group) when that tree is
    /// the one Prim's algorithm from `start` picks on the complete graph; std::nullopt when some Borůvka
    /// component has two distinct lightest outgoing edges of equal weight (then several spanning trees
    /// may be minimal and the caller runs the all-pairs Prim). Without such ties the minimum spanning
    /// tree of the distinct points is unique, so Prim's walk of it (vatFromTree) is Prim's order on the
    /// complete graph. O(m log m · d) per round on low-dimensional data, at most log2(m) rounds.
    std::optional<std::vector<MstEdge>> spanningTree(std::size_t start, JobControl* control, double from,
                                                     double to) const;

    std::size_t distinctCount() const { return m_points.size(); }

private:
    /// The spanning tree of the input points from one of the distinct points (edges u, v: groups).
    std::vector<MstEdge> onInputPoints(const std::vector<MstEdge>& distinctEdges, std::size_t start) const;
    /// Lowers `best` by every pair of the point at position p whose distance could reach it.
    void farthestFrom(std::size_t p, tree_mst::Scratch& scratch, FarPair& best) const;
    FarPair pairOf(double w, std::uint32_t a, std::uint32_t b) const;

    std::size_t m_n;
    std::size_t m_d;
    bool m_squared;
    DistinctPoints m_points;
    KdTree m_tree;
};

/// Whether the CPU runs the tree: Tree forces it (InvalidInput unless the metric is euclidean or
/// sqeuclidean), AllPairs never, Auto for those metrics as MstIndex says.
bool usesTreeMst(std::size_t n, std::size_t d, Metric metric, MstIndex index);

/// Edges of a spanning tree of n points in Prim order from `start` (primFromStart's result, bit for
/// bit): by `search` (if given) where its tree is unambiguous, by the all-pairs Prim otherwise.
/// `usedTree` (if given) says which ran. Progress from `from` to `to`.
std::vector<MstEdge> primOrderTree(const float* x, std::size_t n, std::size_t d, Metric metric,
                                   const TreeMstSearch* search, std::size_t start, JobControl* control, double from,
                                   double to, bool* usedTree = nullptr);

}  // namespace clusterlens::cpu
