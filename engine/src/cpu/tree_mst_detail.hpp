#pragma once
// Pieces shared by the kd-tree spanning tree and farthest pair (tree_mst.cpp, tree_farthest.cpp):
// the metric's weight of a squared distance, the pruning limits and a leaf scan.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/kd_tree.hpp"

namespace clusterlens::cpu::tree_mst {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
/// Points claimed at a time by a thread; a cancel is checked per block.
constexpr std::size_t kPointsPerBlock = 256;
/// Leaf positions per distance call (the squared distances stay in L1).
constexpr std::size_t kScanBlock = 64;
/// Relative slack of the pruning limits, far above the rounding of a computed distance (below
/// (d + 3)·2^-53) and of the limits themselves: a node is skipped only where no distance inside it can
/// equal the limit's weight.
constexpr double kSlack = 1e-9;

/// The metric's weight of an exact squared distance (sqrt for Euclidean, as metricDistance), and the
/// squared-distance limits that bound a weight from above or below.
struct Key {
    bool squared = false;

    double weight(double squaredDistance) const { return squared ? squaredDistance : std::sqrt(squaredDistance); }
    /// Every squared distance whose weight is <= w lies at or below this.
    double reach(double w) const {
        if (!(w < std::numeric_limits<double>::infinity())) return w;
        return (squared ? w : w * w) * (1.0 + kSlack);
    }
    /// Every squared distance whose weight is >= w (w >= 0) lies at or above this.
    double floor(double w) const { return (squared ? w : w * w) * (1.0 - kSlack); }
};

/// A node and a bound of the squared distance from the query to it.
struct NodeBound {
    std::size_t node = 0;
    double bound = 0.0;
};

/// Per-thread search state: the query as doubles (and as floats for the screen), the node stack and
/// a block of squared distances.
struct Scratch {
    explicit Scratch(std::size_t d) : q(d), qf(d) {}
    std::vector<double> q;
    std::vector<float> qf;
    std::vector<NodeBound> stack;
    double squared[kScanBlock];
};

/// Calls visit(position, exact squared distance from scratch.q) for every position of a leaf.
template <class Visit>
void scanLeaf(const KdTree& tree, Scratch& scratch, const KdTree::Node& leaf, Visit&& visit) {
    for (std::size_t b = leaf.begin; b < leaf.end; b += kScanBlock) {
        const std::size_t e = std::min<std::size_t>(leaf.end, b + kScanBlock);
        tree.distances(scratch.q.data(), b, e, scratch.squared);
        for (std::size_t p = b; p < e; ++p) visit(p, scratch.squared[p - b]);
    }
}

}  // namespace clusterlens::cpu::tree_mst
