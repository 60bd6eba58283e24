#include "dendrogram/dendrogram_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "clusterlens/errors.hpp"

namespace clusterlens::views {

namespace {

constexpr std::size_t kMaxLeaves = std::size_t{1} << 30;  // node ids and ranks fit int32
constexpr std::size_t kCancelStride = 1 << 16;

void layoutPoll(JobControl* control, std::size_t step, std::size_t total, double from, double to) {
    if (!control || step % kCancelStride != 0) return;
    control->checkCancelled();
    control->setProgress(from + (to - from) * static_cast<double>(step) / static_cast<double>(total));
}

// Depth-first leaf order, first child before the second. The stack holds at most one pending
// second child per level, so a chain of 10^6 merges needs 10^6 entries of heap memory, not frames.
std::vector<std::int32_t> leafOrder(const DendrogramLayout& layout, JobControl* control) {
    std::vector<std::int32_t> order;
    order.reserve(layout.leafCount);
    std::vector<std::int32_t> stack{layout.root()};
    std::size_t visited = 0;
    while (!stack.empty()) {
        const std::int32_t node = stack.back();
        stack.pop_back();
        layoutPoll(control, ++visited, layout.nodeCount(), 0.0, 0.3);
        if (layout.isLeaf(node)) {
            order.push_back(node);
            continue;
        }
        stack.push_back(layout.right[layout.row(node)]);
        stack.push_back(layout.left[layout.row(node)]);
    }
    return order;
}

}  // namespace

bool DendrogramLayout::isInverted(std::int32_t node) const {
    if (isLeaf(node)) return false;
    const std::size_t r = row(node);
    return height[static_cast<std::size_t>(node)] <
           std::max(height[static_cast<std::size_t>(left[r])], height[static_cast<std::size_t>(right[r])]);
}

DendrogramLayout buildDendrogramLayout(const Linkage& linkage, JobControl* control) {
    if (linkage.leafCount < 2)
        throw InvalidInput("a dendrogram needs at least 2 leaves, the linkage has " +
                           std::to_string(linkage.leafCount));
    if (linkage.leafCount > kMaxLeaves)
        throw InvalidInput("the linkage has " + std::to_string(linkage.leafCount) +
                           " leaves; the dendrogram view shows at most " + std::to_string(kMaxLeaves));
    linkage.validate("the linkage");
    const std::size_t n = linkage.leafCount;
    DendrogramLayout layout;
    layout.leafCount = n;
    layout.left.resize(n - 1);
    layout.right.resize(n - 1);
    layout.height.assign(2 * n - 1, 0.0);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const Merge& m = linkage.merges[i];
        if (!std::isfinite(m.height))
            throw InvalidInput("merge " + std::to_string(i) + " of the linkage has a non-finite height");
        layout.left[i] = static_cast<std::int32_t>(m.a);
        layout.right[i] = static_cast<std::int32_t>(m.b);
        layout.height[n + i] = m.height;
    }
    layout.order = leafOrder(layout, control);

    layout.x.resize(2 * n - 1);
    layout.first.resize(2 * n - 1);
    layout.size.resize(2 * n - 1);
    layout.parent.assign(2 * n - 1, -1);
    for (std::size_t r = 0; r < n; ++r) {
        const auto leaf = static_cast<std::size_t>(layout.order[r]);
        layout.first[leaf] = static_cast<std::int32_t>(r);
        layout.size[leaf] = 1;
        layout.x[leaf] = static_cast<double>(r) + 0.5;
    }
    layout.subtreeMax.resize(n - 1);
    layout.inversionsBelow.resize(n - 1);
    std::vector<double> positive;
    positive.reserve(n - 1);
    double maxHeight = -std::numeric_limits<double>::infinity();
    // Children always have smaller ids than their merge, so one pass in row order sees them first.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        layoutPoll(control, i + 1, n, 0.3, 0.6);
        const auto node = static_cast<std::int32_t>(n + i);
        const auto a = static_cast<std::size_t>(layout.left[i]), b = static_cast<std::size_t>(layout.right[i]);
        layout.first[n + i] = std::min(layout.first[a], layout.first[b]);
        layout.size[n + i] = layout.size[a] + layout.size[b];
        layout.x[n + i] = 0.5 * (layout.x[a] + layout.x[b]);
        layout.parent[a] = layout.parent[b] = node;
        const double h = layout.height[n + i];
        layout.subtreeMax[i] = std::max({h, layout.subtreeTop(layout.left[i]), layout.subtreeTop(layout.right[i])});
        const bool inverted = layout.isInverted(node);
        const auto below = [&](std::size_t child) { return child < n ? 0 : layout.inversionsBelow[child - n]; };
        layout.inversionsBelow[i] = below(a) + below(b) + (inverted ? 1 : 0);
        layout.inversionCount += inverted ? 1 : 0;
        if (h > 0.0) positive.push_back(h);
        maxHeight = std::max(maxHeight, h);
    }
    if (!positive.empty()) {
        const auto low = positive.begin() + static_cast<std::ptrdiff_t>(positive.size() / 100);
        std::nth_element(positive.begin(), low, positive.end());
        layout.lowPositiveHeight = *low;
    }
    layout.maxMergeHeight = maxHeight;

    if (control) {
        control->checkCancelled();
        control->setProgress(0.7);
    }
    layout.cutOrder.resize(n - 1);
    std::iota(layout.cutOrder.begin(), layout.cutOrder.end(), 0);
    std::sort(layout.cutOrder.begin(), layout.cutOrder.end(), [&](std::int32_t p, std::int32_t q) {
        const double hp = layout.subtreeMax[static_cast<std::size_t>(p)];
        const double hq = layout.subtreeMax[static_cast<std::size_t>(q)];
        return hp != hq ? hp > hq : p > q;
    });
    layout.cutRank.resize(n - 1);
    for (std::size_t k = 0; k + 1 < n; ++k)
        layout.cutRank[static_cast<std::size_t>(layout.cutOrder[k])] = static_cast<std::int32_t>(k);
    if (control) control->setProgress(1.0);
    return layout;
}

std::vector<std::int64_t> subtreeLeaves(const DendrogramLayout& layout, std::int32_t node) {
    const auto begin = layout.order.begin() + layout.first[static_cast<std::size_t>(node)];
    std::vector<std::int64_t> leaves(begin, begin + layout.size[static_cast<std::size_t>(node)]);
    std::sort(leaves.begin(), leaves.end());
    return leaves;
}

}  // namespace clusterlens::views
