#pragma once
// The drawable form of a linkage (scipy convention, clusterlens/hca/linkage.hpp): a leaf order
// without crossings, the x position and leaf range of every node, parents, inversions and the order
// in which cuts undo merges. Built once per linkage (as a job for large trees), then immutable and
// shared by the widget, the figure, the cuts and the exports.
//
// Node ids are scipy's: leaves 0..n-1, merge row i creates node n+i. x is in leaf units: the leaf at
// rank r of the order sits at r + 0.5, a merge at the midpoint of its two children, so a subtree
// always covers the contiguous ranks [first, first + size).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/job_control.hpp"

namespace clusterlens::views {

struct DendrogramLayout {
    std::size_t leafCount = 0;
    std::vector<std::int32_t> left;    ///< n-1: first child of node n+i (drawn on the left)
    std::vector<std::int32_t> right;   ///< n-1: second child of node n+i
    std::vector<std::int32_t> order;   ///< n: leaf id at each rank, left to right
    std::vector<double> height;        ///< 2n-1: merge height, 0 for leaves
    std::vector<double> x;             ///< 2n-1: horizontal position in leaf units
    std::vector<std::int32_t> first;   ///< 2n-1: rank of the subtree's leftmost leaf
    std::vector<std::int32_t> size;    ///< 2n-1: leaves in the subtree
    std::vector<std::int32_t> parent;  ///< 2n-1: parent node, -1 for the root
    /// n-1: highest merge in the subtree of node n+i (scipy's "maxdists"): with non-monotonic
    /// heights the subtree may hold merges above its own root.
    std::vector<double> subtreeMax;
    /// n-1: inverted merges inside the subtree of node n+i, itself included.
    std::vector<std::int32_t> inversionsBelow;
    /// n-1 merge rows in the order cuts undo them: descending subtreeMax, ties by descending row.
    /// Every prefix is closed under taking parents, so a cut into k clusters undoes cutOrder[0..k-2].
    std::vector<std::int32_t> cutOrder;
    std::vector<std::int32_t> cutRank;  ///< n-1: position of each merge row in cutOrder
    /// Merges drawn below one of their children (the link goes down): MHCA, centroid and median
    /// linkages produce them.
    std::size_t inversionCount = 0;
    double maxMergeHeight = 0.0;
    /// The 1st percentile of the positive merge heights (the smallest one for trees of fewer than
    /// 100 merges); 1 when there is none. A logarithmic axis starts just below it: the lowest
    /// merges of a large tree (near-duplicate points) can span many decades that would otherwise
    /// take most of the axis.
    double lowPositiveHeight = 1.0;

    std::size_t nodeCount() const { return leafCount == 0 ? 0 : 2 * leafCount - 1; }
    std::int32_t root() const { return static_cast<std::int32_t>(nodeCount()) - 1; }
    bool isLeaf(std::int32_t node) const { return static_cast<std::size_t>(node) < leafCount; }
    /// Merge row of an internal node.
    std::size_t row(std::int32_t node) const { return static_cast<std::size_t>(node) - leafCount; }
    /// True when the merge of `node` lies below one of its children.
    bool isInverted(std::int32_t node) const;
    /// Highest merge in the subtree of `node` (0 for a leaf).
    double subtreeTop(std::int32_t node) const { return isLeaf(node) ? 0.0 : subtreeMax[row(node)]; }
};

/// Builds the layout of a valid linkage (Linkage::validate). Leaf order: depth-first, first child
/// before the second, walked with an explicit stack (trees of 10^6 leaves are chains as often as
/// balanced). O(N log N) time (the cut order is a sort), about 80 bytes per leaf.
/// Throws InvalidInput for fewer than 2 leaves, more than 2^30 leaves or non-finite heights;
/// Cancelled when `control` is cancelled.
DendrogramLayout buildDendrogramLayout(const Linkage& linkage, JobControl* control = nullptr);

/// Leaf ids of the subtree of `node`, ascending (the form AnalysisSession selections take).
std::vector<std::int64_t> subtreeLeaves(const DendrogramLayout& layout, std::int32_t node);

}  // namespace clusterlens::views
