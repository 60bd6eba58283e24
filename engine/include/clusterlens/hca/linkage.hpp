#pragma once
// A hierarchical clustering result in scipy's linkage convention (written down once, here):
//   leaves are 0..n-1 in input order; merge row i (0-based) joins clusters a < b and creates
//   cluster n+i; `height` is the merge distance (NOT forced monotonic: MHCA heights can decrease);
//   `size` is the number of leaves of the new cluster. n-1 rows for n leaves.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clusterlens {

struct Merge {
    std::int64_t a = 0;   ///< smaller cluster id
    std::int64_t b = 0;   ///< larger cluster id
    double height = 0.0;  ///< merge distance
    std::int64_t size = 0;
};

struct Linkage {
    std::size_t leafCount = 0;
    std::vector<Merge> merges;  ///< leafCount - 1 rows

    /// Inversions: merges whose height is below the height of a cluster they join (MHCA and
    /// centroid/median linkage can produce them; a dendrogram draws them as links going down). The one
    /// count the CLI, the status bar, the dendrogram and its figure report; 0 exactly when the heights
    /// are monotonic in the tree, e.g. after fixNonMonotonic. O(n) time and memory.
    std::size_t inversionCount() const;
    /// Throws InvalidInput unless ids, order a < b, sizes and the row count form a valid tree.
    void validate(const std::string& source) const;
};

/// Reads "a,b,height,size" CSV (header required). Validates the tree. O(n).
Linkage readLinkageCsv(const std::string& path);
/// Writes "a,b,height,size" with full double precision (17 significant digits).
void writeLinkageCsv(const std::string& path, const Linkage& linkage);

}  // namespace clusterlens
