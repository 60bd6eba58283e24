#include "clusterlens/hca/threshold_crossings.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage_cut.hpp"

namespace clusterlens {

std::size_t mhcaThresholdSize(double threshold, std::size_t n) {
    if (!(threshold > 0.0 && threshold <= 1.0))
        throw InvalidInput("--threshold must be in (0, 1] (a fraction of the number of points), got " +
                           std::to_string(threshold));
    if (n == 0) throw InvalidInput("--threshold: no points to take a fraction of");
    // The same product MHCA compares a cluster's size with (size >= threshold * n).
    return static_cast<std::size_t>(std::ceil(threshold * static_cast<double>(n)));
}

ThresholdCrossings thresholdCrossings(const Linkage& linkage, std::size_t minSize) {
    linkage.validate("threshold crossings");
    const std::size_t n = linkage.leafCount;
    if (minSize > n)
        throw InvalidInput("threshold crossings: minimum size " + std::to_string(minSize) + " exceeds the " +
                           std::to_string(n) + " leaves of the tree");
    ThresholdCrossings result;
    result.minSize = std::max<std::size_t>(minSize, 1);
    const auto least = static_cast<std::int64_t>(result.minSize);
    const std::vector<double> subtreeMax = linkageSubtreeMaxima(linkage);
    const auto sizeOf = [&](std::int64_t node) {
        return node < static_cast<std::int64_t>(n) ? std::int64_t{1}
                                                   : linkage.merges[static_cast<std::size_t>(node) - n].size;
    };
    for (std::size_t row = 0; row < linkage.merges.size(); ++row) {
        const Merge& merge = linkage.merges[row];
        const bool smallA = sizeOf(merge.a) < least, smallB = sizeOf(merge.b) < least;
        if (!smallA && !smallB) continue;
        if (smallA && smallB && merge.size >= least) result.crossings.push_back({row, merge.height, merge.size});
        if (!result.allReached || subtreeMax[row] >= result.allReached->height)
            result.allReached = ThresholdCrossing{row, subtreeMax[row], merge.size};
    }
    return result;
}

}  // namespace clusterlens
