#pragma once
// Where the clusters of a tree pass a minimum size: for MHCA (mhca.hpp), the size T·N from which a
// cluster's distance uses its full Mahalanobis shape instead of one shrunk towards the identity. The
// dendrogram view and its figure mark these heights on the height axis.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens {

/// A merge of the tree (scipy row) and the height it is drawn at.
struct ThresholdCrossing {
    std::size_t row = 0;    ///< merge row (the cluster made is node leafCount + row)
    double height = 0.0;    ///< see ThresholdCrossings
    std::int64_t size = 0;  ///< leaves of the cluster the merge made
};

struct ThresholdCrossings {
    std::size_t minSize = 0;
    /// Merges that make a cluster of at least minSize leaves from two children of fewer, ascending
    /// by row; `height` is the merge's own height. These clusters are disjoint, so there are at most
    /// leafCount / minSize of them.
    std::vector<ThresholdCrossing> crossings;
    /// The lowest height h at which every cluster of the cut at h has at least minSize leaves, the
    /// cut at h keeping the merges whose subtree maximum (scipy's maxdists, linkage_cut.hpp) is at
    /// most h: the maximum, over the merges that join a child of fewer than minSize leaves, of their
    /// subtree maxima. `row` is that merge (the later row on ties) and `size` its size. For monotonic
    /// heights it is the height of the last merge that absorbs a small cluster. Absent when minSize
    /// <= 1 (every single leaf is large enough).
    std::optional<ThresholdCrossing> allReached;
};

/// MHCA's minimum cluster size for its full Mahalanobis shape: ceil(threshold · n), the least size s
/// with s >= threshold · n as MHCA compares them (in double precision).
/// @throws InvalidInput when threshold is outside (0, 1] (naming --threshold) or n is 0.
std::size_t mhcaThresholdSize(double threshold, std::size_t n);

/// The merges at which clusters of `linkage` reach `minSize` leaves, and the height from which all
/// clusters have (see ThresholdCrossings). minSize 0 counts as 1.
/// Complexity: O(N) time, O(N) memory (the subtree maxima), plus Linkage::validate's O(N).
/// @throws InvalidInput for an invalid linkage or minSize above the number of leaves.
ThresholdCrossings thresholdCrossings(const Linkage& linkage, std::size_t minSize);

}  // namespace clusterlens
