#pragma once
// Point heights of a hierarchical clustering (Definition 20 of the MHCA GPU thesis): the height of
// point o is the sum of the merge heights of all merges whose new cluster contains o, i.e. the
// length of the dendrogram path from leaf o to the root.

#include <vector>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens {

/// leafCount heights, index = leaf id. One top-down pass over the merges with an explicit parent
/// array (no recursion): O(N) time and memory. Validates the tree first (throws InvalidInput).
std::vector<double> pointHeights(const Linkage& linkage);

}  // namespace clusterlens
