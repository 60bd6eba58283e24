// Point heights (MHCA GPU thesis, Definition 20) of a dendrogram in scipy's linkage convention.

#include "clusterlens/hca/point_heights.hpp"

#include <cstdint>

namespace clusterlens {

// Input: a linkage of n leaves (row i joins a < b into cluster n+i at height h_i), validated first.
// The height of leaf o is the sum of h_i over the merges on the path from o to the root. above[c] is
// the sum of the heights of the merges that created the strict ancestors of c. Every cluster id is
// larger than its children's, so one pass from the last row to the first reaches each parent before
// its children: row i sets above[a] = above[b] = above[n+i] + h_i. O(N) time and memory, no recursion.
std::vector<double> pointHeights(const Linkage& linkage) {
    linkage.validate("the linkage");
    const std::size_t n = linkage.leafCount;
    std::vector<double> above(2 * n - 1, 0.0);
    for (std::size_t i = n - 1; i-- > 0;) {
        const Merge& m = linkage.merges[i];
        const double total = above[n + i] + m.height;
        above[static_cast<std::size_t>(m.a)] = total;
        above[static_cast<std::size_t>(m.b)] = total;
    }
    above.resize(n);
    return above;
}

}  // namespace clusterlens
