#include "dendrogram/dendrogram_cut.hpp"

#include <algorithm>
#include <span>

#include "clusterlens/hca/linkage_cut.hpp"

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
    cut.populations = cut.k;
    return cut;
}

DendrogramCut cutIntoPopulations(const Linkage& linkage, const DendrogramLayout& layout, int populations,
                                 std::size_t minSize) {
    const PopulationCutPlan plan = planPopulationCut(linkage, std::span<const std::int32_t>(layout.cutOrder),
                                                     static_cast<std::size_t>(std::max(populations, 1)), minSize);
    DendrogramCut cut = cutIntoClusters(layout, static_cast<int>(plan.undone) + 1);
    cut.minSize = std::max<std::size_t>(minSize, 1);
    std::vector<std::int32_t> number(cut.roots.size(), -1);
    cut.populations = 0;
    bool anySmall = false;
    for (std::size_t id = 0; id < cut.roots.size(); ++id) {
        if (static_cast<std::size_t>(layout.size[static_cast<std::size_t>(cut.roots[id])]) >= cut.minSize)
            number[id] = cut.populations++;
        else
            anySmall = true;
    }
    if (!anySmall) return cut;
    cut.population = std::move(number);
    cut.populationLabels.resize(cut.labels.size());
    for (std::size_t leaf = 0; leaf < cut.labels.size(); ++leaf)
        cut.populationLabels[leaf] = cut.population[static_cast<std::size_t>(cut.labels[leaf])];
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
