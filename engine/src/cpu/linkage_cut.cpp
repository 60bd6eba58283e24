#include "clusterlens/hca/linkage_cut.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens {

namespace {

std::int64_t nodeSize(const Linkage& linkage, std::int64_t node) {
    const auto n = static_cast<std::int64_t>(linkage.leafCount);
    return node < n ? 1 : linkage.merges[static_cast<std::size_t>(node - n)].size;
}

}  // namespace

// Depth-first with an explicit stack (no recursion on deep, chained trees).
std::vector<std::int64_t> dendrogramLeafOrder(const Linkage& linkage) {
    const auto n = static_cast<std::int64_t>(linkage.leafCount);
    std::vector<std::int64_t> order;
    order.reserve(linkage.leafCount);
    std::vector<std::int64_t> stack{2 * n - 2};
    while (!stack.empty()) {
        const std::int64_t node = stack.back();
        stack.pop_back();
        if (node < n) {
            order.push_back(node);
            continue;
        }
        const Merge& m = linkage.merges[static_cast<std::size_t>(node - n)];
        stack.push_back(m.b);
        stack.push_back(m.a);
    }
    return order;
}

std::vector<double> linkageSubtreeMaxima(const Linkage& linkage) {
    const std::size_t n = linkage.leafCount;
    std::vector<double> subtreeMax(linkage.merges.size());
    const auto top = [&](std::int64_t node) {
        return node < static_cast<std::int64_t>(n) ? 0.0 : subtreeMax[static_cast<std::size_t>(node) - n];
    };
    // Children have smaller ids than their merge: one pass in row order sees them first.
    for (std::size_t i = 0; i < subtreeMax.size(); ++i) {
        const Merge& m = linkage.merges[i];
        subtreeMax[i] = std::max({m.height, top(m.a), top(m.b)});
    }
    return subtreeMax;
}

std::vector<std::int32_t> linkageCutOrder(const Linkage& linkage) {
    const std::size_t rows = linkage.merges.size();
    const std::vector<double> subtreeMax = linkageSubtreeMaxima(linkage);
    std::vector<std::int32_t> order(rows);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int32_t p, std::int32_t q) {
        const double hp = subtreeMax[static_cast<std::size_t>(p)], hq = subtreeMax[static_cast<std::size_t>(q)];
        return hp != hq ? hp > hq : p > q;
    });
    return order;
}

std::size_t defaultMinClusterSize(std::size_t n) {
    return std::clamp<std::size_t>(n / 100, 1, 20);
}

PopulationCutPlan planPopulationCut(const Linkage& linkage, std::span<const std::int32_t> cutOrder, std::size_t k,
                                    std::size_t minSize) {
    const std::size_t n = linkage.leafCount;
    if (cutOrder.size() + 1 != n || linkage.merges.size() + 1 != n)
        throw InvalidInput("population cut: the cut order has " + std::to_string(cutOrder.size()) +
                           " merges, the linkage of " + std::to_string(n) + " leaves needs " +
                           std::to_string(n == 0 ? 0 : n - 1));
    k = std::clamp<std::size_t>(k, 1, n);
    if (minSize <= 1) return {k - 1, k};
    const auto big = [&](std::int64_t node) {
        return nodeSize(linkage, node) >= static_cast<std::int64_t>(minSize) ? 1 : 0;
    };
    std::size_t populations = n >= minSize ? 1 : 0;
    PopulationCutPlan best{0, populations};
    for (std::size_t r = 0; r < cutOrder.size() && populations < k; ++r) {
        const auto row = static_cast<std::size_t>(cutOrder[r]);
        const Merge& m = linkage.merges[row];
        // Undoing a merge replaces one cluster by its two children.
        populations = populations - static_cast<std::size_t>(big(static_cast<std::int64_t>(n + row))) +
                      static_cast<std::size_t>(big(m.a) + big(m.b));
        if (populations > best.populations) best = {r + 1, populations};
    }
    return best;
}

LinkageCut cutLinkage(const Linkage& linkage, std::size_t k, std::size_t minSize) {
    linkage.validate("the linkage");
    const std::vector<std::int32_t> order = linkageCutOrder(linkage);
    const PopulationCutPlan plan = planPopulationCut(linkage, order, k, minSize);
    const auto n = static_cast<std::int64_t>(linkage.leafCount);
    std::vector<std::uint8_t> undone(linkage.merges.size(), 0);
    for (std::size_t r = 0; r < plan.undone; ++r) undone[static_cast<std::size_t>(order[r])] = 1;

    // The cluster root owning each node: parents before children (descending ids).
    std::vector<std::int64_t> owner(static_cast<std::size_t>(2 * n - 1), -1);
    owner.back() = undone.back() ? -1 : 2 * n - 2;
    for (std::int64_t node = 2 * n - 2; node >= n; --node) {
        const auto row = static_cast<std::size_t>(node - n);
        const Merge& m = linkage.merges[row];
        for (const std::int64_t child : {m.a, m.b}) {
            const bool childUndone = child >= n && undone[static_cast<std::size_t>(child - n)];
            owner[static_cast<std::size_t>(child)] =
                undone[row] ? (childUndone ? -1 : child) : owner[static_cast<std::size_t>(node)];
        }
    }

    LinkageCut cut;
    cut.labels.assign(linkage.leafCount, -1);
    std::int64_t previous = -1;
    std::int32_t label = -1;
    for (const std::int64_t leaf : dendrogramLeafOrder(linkage)) {
        const std::int64_t root = owner[static_cast<std::size_t>(leaf)];
        if (root != previous) {  // clusters cover contiguous runs of the leaf order
            previous = root;
            const std::int64_t size = nodeSize(linkage, root);
            if (size >= static_cast<std::int64_t>(std::max<std::size_t>(minSize, 1))) {
                label = static_cast<std::int32_t>(cut.populationSizes.size());
                cut.populationSizes.push_back(size);
            } else {
                label = -1;
                cut.smallSizes.push_back(size);
                cut.smallFirstLeaf.push_back(leaf);
            }
        }
        if (label < 0) cut.smallFirstLeaf.back() = std::min(cut.smallFirstLeaf.back(), leaf);
        cut.labels[static_cast<std::size_t>(leaf)] = label;
    }
    cut.populations = cut.populationSizes.size();
    return cut;
}

}  // namespace clusterlens
