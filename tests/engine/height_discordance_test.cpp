// Point-height disagreement of two trees (issue "evidence for every peak and every cut"): the rank
// difference is 0 for every point two trees place alike, whatever their height scales, and the most
// discordant cells of two trees that differ only inside one cluster are that cluster's cells.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "clusterlens/compare/height_discordance.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"

using namespace clusterlens;

namespace {

/// Builds a linkage merge by merge in scipy's convention.
struct TreeBuilder {
    std::size_t leaves;
    std::vector<Merge> merges;

    std::int64_t join(std::int64_t a, std::int64_t b, double height, std::int64_t size) {
        merges.push_back(Merge{std::min(a, b), std::max(a, b), height, size});
        return static_cast<std::int64_t>(leaves + merges.size() - 1);
    }
    /// A caterpillar: leaves[0] and leaves[1] join at heights[0], then each next leaf joins at the next height.
    std::int64_t chain(const std::vector<std::int64_t>& order, const std::vector<double>& heights) {
        std::int64_t cluster = join(order[0], order[1], heights[0], 2);
        for (std::size_t k = 2; k < order.size(); ++k)
            cluster = join(order[k], cluster, heights[k - 1], static_cast<std::int64_t>(k + 1));
        return cluster;
    }
    Linkage linkage() const {
        Linkage l{leaves, merges};
        l.validate("test tree");
        return l;
    }
};

/// Three clusters of four points, {0..3}, {4..7}, {8..11}, each a caterpillar; the middle one joins
/// its points in `middleOrder`. The other two clusters and the top merges are the same in every call.
Linkage threeClusters(const std::vector<std::int64_t>& middleOrder, double scale = 1.0) {
    TreeBuilder t{12, {}};
    const std::int64_t first = t.chain({0, 1, 2, 3}, {0.5 * scale, 1.5 * scale, 2.5 * scale});
    const std::int64_t middle = t.chain(middleOrder, {1.0 * scale, 2.0 * scale, 3.0 * scale});
    const std::int64_t last = t.chain({8, 9, 10, 11}, {1.25 * scale, 2.25 * scale, 3.25 * scale});
    const std::int64_t lower = t.join(first, middle, 10.0 * scale, 8);
    t.join(lower, last, 20.0 * scale, 12);
    return t.linkage();
}

}  // namespace

TEST(HeightDiscordance, TreesThatPlaceEveryPointAlikeDifferByNothingWhateverTheirScale) {
    const std::vector<double> a = pointHeights(threeClusters({4, 5, 6, 7}));
    const std::vector<double> b = pointHeights(threeClusters({4, 5, 6, 7}, 7.5));
    const std::vector<double> difference = heightRankDifference(a, b);
    EXPECT_EQ(difference, std::vector<double>(12, 0.0));
    EXPECT_TRUE(mostDiscordant(difference, 5).empty());
}

TEST(HeightDiscordance, TheMostDiscordantCellsOfTreesDifferingInOneClusterAreThatClustersCells) {
    // The middle cluster's points join in reverse order in B: their heights swap among themselves, so
    // every other point keeps its height and its rank.
    const std::vector<double> a = pointHeights(threeClusters({4, 5, 6, 7}));
    const std::vector<double> b = pointHeights(threeClusters({7, 6, 5, 4}));
    const std::vector<double> difference = heightRankDifference(a, b);
    for (std::size_t i = 0; i < 12; ++i) {
        if (i >= 4 && i < 8)
            EXPECT_NE(difference[i], 0.0) << "point " << i;
        else
            EXPECT_EQ(difference[i], 0.0) << "point " << i;
    }
    std::vector<std::size_t> top = mostDiscordant(difference, 4);
    std::sort(top.begin(), top.end());
    EXPECT_EQ(top, (std::vector<std::size_t>{4, 5, 6, 7}));
    EXPECT_EQ(mostDiscordant(difference, 100).size(), 4u) << "points placed alike are never listed";
    // Point 4 joins first in A (highest point height of its cluster) and last in B: it moves furthest.
    EXPECT_EQ(mostDiscordant(difference, 1), (std::vector<std::size_t>{4}));
    EXPECT_GT(difference[4], 0.0) << "positive: the point sits relatively higher in A";
}

TEST(HeightDiscordance, RanksAreAveragedOverTiesAndEqualMagnitudesKeepIndexOrder) {
    EXPECT_EQ(heightRankDifference({1.0, 2.0, 3.0}, {3.0, 2.0, 1.0}), (std::vector<double>{-2.0, 0.0, 2.0}));
    EXPECT_EQ(heightRankDifference({5.0, 5.0, 1.0}, {1.0, 2.0, 3.0}), (std::vector<double>{1.5, 0.5, -2.0}));
    EXPECT_EQ(mostDiscordant({-2.0, 0.0, 2.0}, 2), (std::vector<std::size_t>{0, 2}));
    EXPECT_EQ(mostDiscordant({1.5, 0.5, -2.0}, 2), (std::vector<std::size_t>{2, 0}));
    EXPECT_TRUE(mostDiscordant({}, 3).empty());
    EXPECT_THROW(heightRankDifference({1.0, 2.0}, {1.0}), InvalidInput);
}
