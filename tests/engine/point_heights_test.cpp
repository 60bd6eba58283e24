#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

Linkage makeLinkage(std::size_t leaves, std::vector<Merge> merges) {
    Linkage linkage;
    linkage.leafCount = leaves;
    linkage.merges = std::move(merges);
    return linkage;
}

// Sum of the heights of the merges containing each leaf, by following parents upwards.
std::vector<double> pointHeightsBottomUp(const Linkage& linkage) {
    const std::size_t n = linkage.leafCount;
    std::vector<std::int64_t> parent(2 * n - 1, -1);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        parent[static_cast<std::size_t>(linkage.merges[i].a)] = static_cast<std::int64_t>(n + i);
        parent[static_cast<std::size_t>(linkage.merges[i].b)] = static_cast<std::int64_t>(n + i);
    }
    std::vector<double> heights(n, 0.0);
    for (std::size_t leaf = 0; leaf < n; ++leaf)
        for (std::int64_t c = parent[leaf]; c >= 0; c = parent[static_cast<std::size_t>(c)])
            heights[leaf] += linkage.merges[static_cast<std::size_t>(c) - n].height;
    return heights;
}

}  // namespace

TEST(PointHeights, SumsTheMergesAboveEachLeafOfAHandBuiltTree) {
    // ((0,1)@1, ((2,3)@2, 4)@3)@5: leaf 0 -> 1+5, leaf 2 -> 2+3+5, leaf 4 -> 3+5.
    const Linkage linkage =
        makeLinkage(5, {Merge{0, 1, 1.0, 2}, Merge{2, 3, 2.0, 2}, Merge{4, 6, 3.0, 3}, Merge{5, 7, 5.0, 5}});
    const std::vector<double> heights = pointHeights(linkage);
    const std::vector<double> expected = {6.0, 6.0, 10.0, 10.0, 8.0};
    EXPECT_EQ(heights, expected);
}

TEST(PointHeights, HandlesNonMonotonicHeights) {
    // A centroid-like inversion: the parent merge is lower than its child.
    const Linkage linkage = makeLinkage(3, {Merge{0, 1, 4.0, 2}, Merge{2, 3, 3.5, 3}});
    EXPECT_EQ(pointHeights(linkage), (std::vector<double>{7.5, 7.5, 3.5}));
}

TEST(PointHeights, MatchesABottomUpSumOnARealLinkage) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise;
    std::vector<double> x(500 * 3);
    for (double& v : x) v = noise(rng);
    const Linkage linkage = classicLinkageCpu(x.data(), 500, 3, LinkageMethod::Average);
    const std::vector<double> heights = pointHeights(linkage);
    const std::vector<double> expected = pointHeightsBottomUp(linkage);
    ASSERT_EQ(heights.size(), expected.size());
    for (std::size_t i = 0; i < heights.size(); ++i) EXPECT_NEAR(heights[i], expected[i], 1e-12 * expected[i]);
}

TEST(PointHeights, WalksAMillionLeafCaterpillarWithoutRecursion) {
    // Leaf i joins the cluster of leaves 0..i-1 at height 1: leaf 0 and 1 are under n-1 merges.
    const std::size_t n = 1000000;
    std::vector<Merge> merges;
    merges.reserve(n - 1);
    merges.push_back(Merge{0, 1, 1.0, 2});
    for (std::size_t i = 2; i < n; ++i)
        merges.push_back(Merge{static_cast<std::int64_t>(i), static_cast<std::int64_t>(n + i - 2), 1.0,
                               static_cast<std::int64_t>(i + 1)});
    const std::vector<double> heights = pointHeights(makeLinkage(n, std::move(merges)));
    ASSERT_EQ(heights.size(), n);
    EXPECT_EQ(heights[0], static_cast<double>(n - 1));
    EXPECT_EQ(heights[1], static_cast<double>(n - 1));
    EXPECT_EQ(heights[2], static_cast<double>(n - 2));
    EXPECT_EQ(heights[n - 1], 1.0);
}

TEST(PointHeights, RejectsAnInvalidTree) {
    EXPECT_THROW(pointHeights(makeLinkage(3, {Merge{0, 1, 1.0, 2}, Merge{0, 3, 2.0, 3}})), InvalidInput);
}
