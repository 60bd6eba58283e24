// Where the clusters of a tree reach a minimum size (MHCA's T·N), on hand-built trees and against a
// brute-force recomputation on random non-monotonic trees.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/threshold_crossings.hpp"
#include "test_support.hpp"

namespace clusterlens {
namespace {

// Two groups of three: row 0: 0+1 (1) -> 6; row 1: 3+4 (1.5) -> 7; row 2: 2+6 (2) -> 8;
// row 3: 5+7 (3) -> 9; row 4: 8+9 (10) -> 10.
Linkage twoTriples() {
    Linkage l;
    l.leafCount = 6;
    l.merges = {{0, 1, 1.0, 2}, {3, 4, 1.5, 2}, {2, 6, 2.0, 3}, {5, 7, 3.0, 3}, {8, 9, 10.0, 6}};
    return l;
}

TEST(ThresholdCrossings, EachGroupReachingTheSizeIsACrossingAndTheLastOneIsWhereAllHave) {
    const ThresholdCrossings at3 = thresholdCrossings(twoTriples(), 3);
    ASSERT_EQ(at3.crossings.size(), 2u);
    EXPECT_EQ(at3.crossings[0].row, 2u);
    EXPECT_EQ(at3.crossings[0].height, 2.0);
    EXPECT_EQ(at3.crossings[0].size, 3);
    EXPECT_EQ(at3.crossings[1].row, 3u);
    EXPECT_EQ(at3.crossings[1].height, 3.0);
    ASSERT_TRUE(at3.allReached);
    EXPECT_EQ(at3.allReached->row, 3u);
    EXPECT_EQ(at3.allReached->height, 3.0);
    // Four leaves: only the root joins two clusters of three into one large enough.
    const ThresholdCrossings at4 = thresholdCrossings(twoTriples(), 4);
    ASSERT_EQ(at4.crossings.size(), 1u);
    EXPECT_EQ(at4.crossings[0].row, 4u);
    EXPECT_EQ(at4.crossings[0].size, 6);
    ASSERT_TRUE(at4.allReached);
    EXPECT_EQ(at4.allReached->height, 10.0);
}

TEST(ThresholdCrossings, AbsorbingSmallClustersIsNoCrossingButDelaysAllReached) {
    // A chain: 0+1 (1), +2 (2), +3 (3), +4 (4).
    Linkage chain;
    chain.leafCount = 5;
    chain.merges = {{0, 1, 1.0, 2}, {2, 5, 2.0, 3}, {3, 6, 3.0, 4}, {4, 7, 4.0, 5}};
    const ThresholdCrossings result = thresholdCrossings(chain, 3);
    ASSERT_EQ(result.crossings.size(), 1u);
    EXPECT_EQ(result.crossings[0].row, 1u);
    ASSERT_TRUE(result.allReached);
    EXPECT_EQ(result.allReached->row, 3u);
    EXPECT_EQ(result.allReached->height, 4.0);
    EXPECT_EQ(result.allReached->size, 5);
}

TEST(ThresholdCrossings, AllReachedIsTheSubtreeMaximumWithInversions) {
    // row 0: 0+1 (5) -> 5; row 1: 2+5 (3, inverted) -> 6 reaches 3; row 2: 3+4 (1) -> 7;
    // row 3: 6+7 (2, inverted) -> 8 absorbs {3,4}. Its subtree holds the merge at 5.
    Linkage tree;
    tree.leafCount = 5;
    tree.merges = {{0, 1, 5.0, 2}, {2, 5, 3.0, 3}, {3, 4, 1.0, 2}, {6, 7, 2.0, 5}};
    const ThresholdCrossings result = thresholdCrossings(tree, 3);
    ASSERT_EQ(result.crossings.size(), 1u);
    EXPECT_EQ(result.crossings[0].row, 1u);
    EXPECT_EQ(result.crossings[0].height, 3.0);  // its own height, where its link is drawn
    ASSERT_TRUE(result.allReached);
    EXPECT_EQ(result.allReached->row, 3u);
    EXPECT_EQ(result.allReached->height, 5.0);
}

TEST(ThresholdCrossings, SizeOneNeedsNoMergeAndTooLargeAreRefused) {
    const ThresholdCrossings one = thresholdCrossings(twoTriples(), 1);
    EXPECT_TRUE(one.crossings.empty());
    EXPECT_FALSE(one.allReached);
    EXPECT_FALSE(thresholdCrossings(twoTriples(), 0).allReached);
    EXPECT_EQ(thresholdCrossings(twoTriples(), 6).crossings.size(), 1u);
    EXPECT_THROW(thresholdCrossings(twoTriples(), 7), InvalidInput);
    Linkage broken = twoTriples();
    broken.merges[4].size = 5;
    EXPECT_THROW(thresholdCrossings(broken, 3), InvalidInput);
}

TEST(ThresholdCrossings, MhcaThresholdSizeIsTheLeastSizeMhcaCountsAsReached) {
    EXPECT_EQ(mhcaThresholdSize(0.5, 6052), 3026u);
    EXPECT_EQ(mhcaThresholdSize(0.5, 6053), 3027u);
    EXPECT_EQ(mhcaThresholdSize(1.0, 10), 10u);
    EXPECT_EQ(mhcaThresholdSize(0.001, 10), 1u);
    for (const double t : {0.1, 0.3, 0.35, 0.7, 0.9}) {
        for (std::size_t n = 1; n <= 200; ++n) {
            const std::size_t m = mhcaThresholdSize(t, n);
            EXPECT_GE(static_cast<double>(m), t * static_cast<double>(n)) << t << " " << n;
            EXPECT_LT(static_cast<double>(m - 1), t * static_cast<double>(n)) << t << " " << n;
        }
    }
    EXPECT_THROW(mhcaThresholdSize(0.0, 10), InvalidInput);
    EXPECT_THROW(mhcaThresholdSize(1.5, 10), InvalidInput);
    EXPECT_THROW(mhcaThresholdSize(0.5, 0), InvalidInput);
}

// A random tree: random pairs of live clusters merged at random (non-monotonic) heights.
Linkage randomTree(std::size_t n, std::mt19937_64& random) {
    Linkage tree;
    tree.leafCount = n;
    std::vector<std::int64_t> live(n), size(2 * n - 1, 1);
    std::iota(live.begin(), live.end(), 0);
    std::uniform_real_distribution<double> height(0.0, 10.0);
    for (std::size_t row = 0; row + 1 < n; ++row) {
        std::shuffle(live.begin(), live.end(), random);
        const std::int64_t a = std::min(live[0], live[1]), b = std::max(live[0], live[1]);
        const auto node = static_cast<std::int64_t>(n + row);
        size[static_cast<std::size_t>(node)] = size[static_cast<std::size_t>(a)] + size[static_cast<std::size_t>(b)];
        tree.merges.push_back({a, b, height(random), size[static_cast<std::size_t>(node)]});
        live.erase(live.begin(), live.begin() + 2);
        live.push_back(node);
    }
    return tree;
}

// The smallest cluster of the cut at h (merges whose highest merge below them is <= h kept).
std::int64_t smallestClusterAt(const Linkage& tree, const std::vector<double>& top, double h) {
    const std::size_t n = tree.leafCount;
    std::vector<std::int64_t> owner(2 * n - 1);
    std::iota(owner.begin(), owner.end(), 0);
    std::vector<std::int64_t> size(2 * n - 1, 1);
    for (std::size_t row = tree.merges.size(); row-- > 0;) size[n + row] = tree.merges[row].size;
    // Top down: a kept merge's children belong to the cluster their parent belongs to.
    for (std::size_t row = tree.merges.size(); row-- > 0;) {
        if (top[row] > h) continue;
        for (const std::int64_t child : {tree.merges[row].a, tree.merges[row].b})
            owner[static_cast<std::size_t>(child)] = owner[n + row];
    }
    std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
    for (std::size_t node = 0; node < 2 * n - 1; ++node) {
        const bool root = node + 1 == 2 * n - 1;
        const bool kept = node < n || top[node - n] <= h;
        const bool parentKept = !root && owner[node] != static_cast<std::int64_t>(node);
        if (kept && !parentKept) smallest = std::min(smallest, size[node]);
    }
    return smallest;
}

TEST(ThresholdCrossings, EqualsBruteForceOnRandomNonMonotonicTrees) {
    std::mt19937_64 random(test::testSeed());
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t n = 2 + random() % 60;
        const Linkage tree = randomTree(n, random);
        const std::size_t minSize = 1 + random() % n;
        std::vector<double> top(n - 1);
        std::vector<std::int64_t> sizes(2 * n - 1, 1);
        std::vector<ThresholdCrossing> expected;
        for (std::size_t row = 0; row + 1 < n; ++row) {
            const Merge& m = tree.merges[row];
            const auto topOf = [&](std::int64_t c) { return c < std::int64_t(n) ? 0.0 : top[std::size_t(c) - n]; };
            top[row] = std::max({m.height, topOf(m.a), topOf(m.b)});
            sizes[n + row] = m.size;
            const auto lo = static_cast<std::int64_t>(minSize);
            if (sizes[std::size_t(m.a)] < lo && sizes[std::size_t(m.b)] < lo && m.size >= lo)
                expected.push_back({row, m.height, m.size});
        }
        const ThresholdCrossings got = thresholdCrossings(tree, minSize);
        ASSERT_EQ(got.crossings.size(), expected.size()) << "trial " << trial;
        for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got.crossings[i].row, expected[i].row);
        if (minSize == 1) {
            EXPECT_FALSE(got.allReached);
            continue;
        }
        // The lowest of the candidate heights (the subtree maxima) at which no cluster is small.
        std::vector<double> heights(top);
        std::sort(heights.begin(), heights.end());
        double lowest = -1.0;
        for (const double h : heights)
            if (smallestClusterAt(tree, top, h) >= static_cast<std::int64_t>(minSize)) {
                lowest = h;
                break;
            }
        ASSERT_TRUE(got.allReached) << "trial " << trial;
        EXPECT_EQ(got.allReached->height, lowest) << "trial " << trial << ", n " << n << ", m " << minSize;
    }
}

}  // namespace
}  // namespace clusterlens
