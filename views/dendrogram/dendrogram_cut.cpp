#include "dendrogram/dendrogram_cut.hpp"

#include <algorithm>

namespace clusterlens::views {

DendrogramCut cutIntoClusters(const DendrogramLayout& layout, int k) {
    const auto n = static_cast<int>(layout.leafCount);
    DendrogramCut cut;
    cut.k = std::clamp(k, 1, n);
    const auto removed = static_cast<std::size_t>(cut.k - 1);
    const auto maxOf = [&](std::size_t position) {
        return layout.subtreeMax[static_cast<std::size_t>(layout.cutOrder[position])];
    };
    cut.upper = removed == 0 ? std::numeric_limits<double>::infinity() : maxOf(removed - 1);
    cut.lower = removed == layout.cutOrder.size() ? 0.0 : maxOf(removed);

    // Roots: the root itself, or every child of an undone merge that is not undone itself.
    if (removed == 0) {
        cut.roots.push_back(layout.root());
    } else {
        cut.roots.reserve(static_cast<std::size_t>(cut.k));
        for (std::size_t position = 0; position < removed; ++position) {
            const std::size_t row = static_cast<std::size_t>(layout.cutOrder[position]);
            for (const std::int32_t child : {layout.left[row], layout.right[row]})
                if (!cut.isAbove(layout, child)) cut.roots.push_back(child);
        }
    }
    std::sort(cut.roots.begin(), cut.roots.end(), [&](std::int32_t p, std::int32_t q) {
        return layout.first[static_cast<std::size_t>(p)] < layout.first[static_cast<std::size_t>(q)];
    });
    cut.labels.assign(layout.leafCount, 0);
    for (std::size_t id = 0; id < cut.roots.size(); ++id) {
        const auto node = static_cast<std::size_t>(cut.roots[id]);
        const auto begin = static_cast<std::size_t>(layout.first[node]);
        const auto end = begin + static_cast<std::size_t>(layout.size[node]);
        for (std::size_t rank = begin; rank < end; ++rank)
            cut.labels[static_cast<std::size_t>(layout.order[rank])] = static_cast<std::int32_t>(id);
    }
    return cut;
}

int clustersAtHeight(const DendrogramLayout& layout, double t) {
    // cutOrder is sorted by descending subtree maximum: count the prefix above t.
    const auto above = std::partition_point(layout.cutOrder.begin(), layout.cutOrder.end(), [&](std::int32_t row) {
        return layout.subtreeMax[static_cast<std::size_t>(row)] > t;
    });
    return 1 + static_cast<int>(above - layout.cutOrder.begin());
}

}  // namespace clusterlens::views
