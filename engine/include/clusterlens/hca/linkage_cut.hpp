#pragma once
// Flat clusterings cut from a linkage (scipy convention, linkage.hpp), shared by the CLI and the
// dendrogram view so that both give the same clusters with the same ids.
//
// A cut into c clusters undoes the c-1 merges first in the cut order: descending subtree maximum
// (scipy's "maxdists"), ties by descending row. Every prefix of that order is closed under taking
// parents, so for monotonic heights this is the horizontal cut (scipy's fcluster 'maxclust'); with
// inversions it is fcluster's 'distance' criterion on the subtree maxima.
//
// Minimum cluster size. Non-monotonic trees (MHCA above all) often keep single events or tiny
// groups of outliers up to the top of the tree, so a plain cut into k clusters gives a few real
// populations and k-1 outliers. A population cut asks for k clusters of at least m points each:
// it undoes merges in the same order until k clusters have at least m points, and reports the
// smaller clusters as "small" (outliers), apart from the populations.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens {

/// The leaf ids from left to right as the dendrogram draws them: depth-first from the root, the first
/// child (a) before the second (b). Every cluster of the tree is a contiguous run of it. `linkage` must
/// be valid (Linkage::validate). O(N) time and memory.
std::vector<std::int64_t> dendrogramLeafOrder(const Linkage& linkage);

/// Per merge row, the largest height in its subtree (scipy's maxdists): its own height where heights
/// are monotonic. `linkage` must be valid (Linkage::validate). O(N) time and memory.
std::vector<double> linkageSubtreeMaxima(const Linkage& linkage);

/// Merge rows in the order cuts undo them (see above). `linkage` must be valid
/// (Linkage::validate). O(N log N) time, O(N) memory.
std::vector<std::int32_t> linkageCutOrder(const Linkage& linkage);

/// The default minimum cluster size for N points: 1 % of N, at least 1 and at most 20 events.
/// 20 events is about the least a median or a histogram of a population says anything about, and
/// the outliers that non-monotonic trees keep at the top are single events or a handful; 1 % keeps
/// the minimum below every real cluster of a small table (iris' 50-flower classes at N = 150).
std::size_t defaultMinClusterSize(std::size_t n);

/// How far a population cut goes.
struct PopulationCutPlan {
    std::size_t undone = 0;       ///< merges undone (cutOrder[0..undone)): undone + 1 clusters in all
    std::size_t populations = 0;  ///< clusters of at least minSize points; k unless the tree has fewer
};

/// The fewest merges (a prefix of `cutOrder`) to undo so that at least `k` clusters have
/// `minSize` or more points. When no prefix reaches k, the first prefix with the most such
/// clusters. minSize <= 1 gives the plain cut into k clusters (undone = k-1). k is clamped to
/// 1..N. `cutOrder` must be linkageCutOrder(linkage) (or an equal order, such as the dendrogram
/// view's). O(N) time and memory. Throws InvalidInput when cutOrder's length is not N-1.
PopulationCutPlan planPopulationCut(const Linkage& linkage, std::span<const std::int32_t> cutOrder, std::size_t k,
                                    std::size_t minSize);

/// A flat clustering of the leaves.
struct LinkageCut {
    /// N labels by leaf id: populations are 0..populations-1 from left to right in the
    /// dendrogram's leaf order (depth-first, first child a before b); leaves of small clusters -1.
    std::vector<std::int32_t> labels;
    std::size_t populations = 0;
    std::vector<std::int64_t> populationSizes;  ///< by label
    /// Small clusters (fewer than minSize points) from left to right: their sizes and the
    /// smallest leaf id of each (a name a user can find the cluster by).
    std::vector<std::int64_t> smallSizes;
    std::vector<std::int64_t> smallFirstLeaf;
};

/// Cuts `linkage` as planPopulationCut plans it and labels the leaves. O(N log N) (the cut order)
/// + O(N). Throws InvalidInput for an invalid linkage.
LinkageCut cutLinkage(const Linkage& linkage, std::size_t k, std::size_t minSize);

}  // namespace clusterlens
