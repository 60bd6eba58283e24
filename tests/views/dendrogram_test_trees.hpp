#pragma once
// Known linkages for the dendrogram tests (scipy convention, hca/linkage.hpp).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "clusterlens/hca/linkage.hpp"

namespace clusterlens::test {

struct TreeRow {
    std::int64_t a, b;
    double height;
};

/// A linkage from merge rows in creation order (sizes are derived).
inline Linkage makeLinkage(std::size_t n, const std::vector<TreeRow>& rows) {
    Linkage linkage;
    linkage.leafCount = n;
    std::vector<std::int64_t> size(2 * n - 1, 1);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TreeRow& r = rows[i];
        size[n + i] = size[static_cast<std::size_t>(r.a)] + size[static_cast<std::size_t>(r.b)];
        linkage.merges.push_back({std::min(r.a, r.b), std::max(r.a, r.b), r.height, size[n + i]});
    }
    return linkage;
}

/// 4 groups of 8 leaves (leaf i in group i / 8), each a chain merged at 0.1 .. 0.7; groups 0+1
/// merge at 10 (row 28), 2+3 at 12 (row 29), everything at 20 (row 30). Group g's root is row 7g+6.
inline Linkage fourGroups() {
    std::vector<TreeRow> rows;
    std::vector<std::int64_t> roots;
    const std::int64_t n = 32;
    for (std::int64_t g = 0; g < 4; ++g) {
        std::int64_t top = 8 * g;
        for (std::int64_t j = 1; j < 8; ++j) {
            rows.push_back({top, 8 * g + j, 0.1 * static_cast<double>(j)});
            top = n + static_cast<std::int64_t>(rows.size()) - 1;
        }
        roots.push_back(top);
    }
    rows.push_back({roots[0], roots[1], 10.0});
    rows.push_back({roots[2], roots[3], 12.0});
    rows.push_back({n + 28, n + 29, 20.0});
    return makeLinkage(32, rows);
}

/// A chain of n leaves: leaf i+1 joins the cluster of leaves 0..i at height i + 1.
inline Linkage chainTree(std::size_t n) {
    std::vector<TreeRow> rows;
    rows.reserve(n - 1);
    rows.push_back({0, 1, 1.0});
    for (std::size_t i = 2; i < n; ++i)
        rows.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(n + i - 2), static_cast<double>(i)});
    return makeLinkage(n, rows);
}

}  // namespace clusterlens::test
