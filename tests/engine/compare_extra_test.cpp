// Comparing clusterings, beyond compare_test.cpp: greedy assignment equals the optimum on easy
// cases, rectangular cost matrices padded to square (wide and tall, exact and greedy), matching of
// rectangular contingency tables, invariance of the scores to relabelling, and point heights of
// the same tree written in another merge order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>

#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/compare/assignment.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/hca/point_heights.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

/// Minimum cost of matching min(rows, cols) pairs one-to-one: the square matrix padded with
/// zero-cost dummies, minimised over all permutations (k = max(rows, cols) <= 8).
double bruteForceRectangular(const std::vector<double>& cost, std::size_t rows, std::size_t cols) {
    const std::size_t k = std::max(rows, cols);
    std::vector<std::size_t> perm(k);
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    double best = std::numeric_limits<double>::infinity();
    do {
        double total = 0;
        for (std::size_t r = 0; r < rows; ++r)
            if (perm[r] < cols) total += cost[r * cols + perm[r]];
        best = std::min(best, total);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return best;
}

/// Rows matched to distinct columns, min(rows, cols) of them; the rest -1.
void expectValidPartialAssignment(const std::vector<std::int64_t>& a, std::size_t rows, std::size_t cols) {
    ASSERT_EQ(a.size(), rows);
    std::vector<int> used(cols, 0);
    std::size_t matched = 0;
    for (std::int64_t c : a) {
        if (c < 0) continue;
        ASSERT_LT(static_cast<std::size_t>(c), cols);
        EXPECT_EQ(used[static_cast<std::size_t>(c)]++, 0) << "column " << c << " used twice";
        ++matched;
    }
    EXPECT_EQ(matched, std::min(rows, cols));
}

Linkage makeLinkage(std::size_t leaves, std::vector<Merge> merges) {
    Linkage linkage;
    linkage.leafCount = leaves;
    linkage.merges = std::move(merges);
    return linkage;
}

}  // namespace

TEST(AssignmentExtra, GreedyEqualsOptimumWhenEveryRowHasItsOwnCheapColumn) {
    // A hidden permutation of cheap entries (< 1) among expensive ones (>= 10): the smallest
    // uncovered entry is always one of them, so greedy finds the optimum at any k.
    const auto seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> cheap(0.0, 1.0), dear(10.0, 20.0);
    for (std::size_t k : {1u, 2u, 5u, 20u, 120u}) {
        std::vector<std::size_t> hidden(k);
        std::iota(hidden.begin(), hidden.end(), std::size_t{0});
        std::shuffle(hidden.begin(), hidden.end(), rng);
        std::vector<double> cost(k * k);
        for (std::size_t r = 0; r < k; ++r)
            for (std::size_t c = 0; c < k; ++c) cost[r * k + c] = c == hidden[r] ? cheap(rng) : dear(rng);
        const auto greedy = greedyAssignment(cost, k, k);
        const auto hungarian = hungarianAssignment(cost, k, k);
        EXPECT_EQ(greedy, hungarian) << "k=" << k;
        for (std::size_t r = 0; r < k; ++r) EXPECT_EQ(greedy[r], static_cast<std::int64_t>(hidden[r]));
        EXPECT_DOUBLE_EQ(assignmentCost(cost, k, greedy), assignmentCost(cost, k, hungarian));
    }
}

TEST(AssignmentExtra, RectangularMatricesArePaddedWideAndTall) {
    const auto seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 50.0);
    const std::pair<std::size_t, std::size_t> shapes[] = {{1, 4}, {4, 1}, {2, 5}, {5, 2},
                                                          {3, 7}, {7, 3}, {6, 8}, {8, 6}};
    for (const auto& [rows, cols] : shapes) {
        for (int trial = 0; trial < 4; ++trial) {
            std::vector<double> cost(rows * cols);
            for (double& c : cost) c = uniform(rng);
            if (trial % 2)
                for (double& c : cost) c = std::round(c / 10.0);  // ties
            const auto hungarian = hungarianAssignment(cost, rows, cols);
            const auto greedy = greedyAssignment(cost, rows, cols);
            expectValidPartialAssignment(hungarian, rows, cols);
            expectValidPartialAssignment(greedy, rows, cols);
            const double optimum = bruteForceRectangular(cost, rows, cols);
            EXPECT_NEAR(assignmentCost(cost, cols, hungarian), optimum, 1e-9)
                << rows << "x" << cols << " trial " << trial;
            EXPECT_GE(assignmentCost(cost, cols, greedy), optimum - 1e-9);
        }
    }
}

TEST(AssignmentExtra, EmptyAndSingleEntryMatrices) {
    EXPECT_TRUE(hungarianAssignment({}, 0, 0).empty());
    EXPECT_EQ(hungarianAssignment({3.5}, 1, 1), (std::vector<std::int64_t>{0}));
    EXPECT_EQ(greedyAssignment({3.5}, 1, 1), (std::vector<std::int64_t>{0}));
    // One row, several columns: the cheapest column; one column, several rows: the cheapest row.
    EXPECT_EQ(hungarianAssignment({4, 1, 3}, 1, 3), (std::vector<std::int64_t>{1}));
    EXPECT_EQ(greedyAssignment({4, 1, 3}, 3, 1), (std::vector<std::int64_t>{-1, 0, -1}));
}

TEST(AgreementExtra, RectangularTablesMatchTheSmallerSideAndOmitTheRest) {
    // A has 4 clusters, B merges them pairwise into 2: only two pairs can be matched.
    const std::vector<std::int32_t> a = {0, 0, 0, 1, 1, 2, 2, 2, 2, 3};
    const std::vector<std::int32_t> b = {5, 5, 5, 5, 5, 9, 9, 9, 9, 9};
    const auto table = contingencyTable(a, b);
    for (MatchingMethod method : {MatchingMethod::Hungarian, MatchingMethod::Greedy}) {
        const auto m = matchClusters(table, method);
        ASSERT_EQ(m.pairs.size(), 2u);
        std::map<std::int32_t, std::int32_t> pairs;
        for (const auto& p : m.pairs) pairs[p.a] = p.b;
        // F1(0,5) = 6/8 beats F1(1,5) = 4/7; F1(2,9) = 8/9 beats F1(3,9) = 2/6.
        EXPECT_EQ(pairs, (std::map<std::int32_t, std::int32_t>{{0, 5}, {2, 9}}));
        EXPECT_NEAR(m.totalF1, 6.0 / 8 + 8.0 / 9, 1e-12);
        EXPECT_NEAR(m.fMeasure, 3.0 / 10 * 6.0 / 8 + 4.0 / 10 * 8.0 / 9, 1e-12);
    }
}

TEST(AgreementExtra, ScoresAndMatchingFollowARelabellingOfB) {
    const auto seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int32_t> cluster(0, 5);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    std::vector<std::int32_t> a(400), b(400), renamed(400);
    const std::int32_t names[] = {-1, 40, 7, 12, 3, 99};  // any integers, noise included
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = cluster(rng);
        b[i] = coin(rng) < 0.2 ? cluster(rng) : a[i];
        renamed[i] = names[b[i]];
    }
    const auto original = contingencyTable(a, b), relabelled = contingencyTable(a, renamed);
    EXPECT_NEAR(adjustedRandIndex(original), adjustedRandIndex(relabelled), 1e-12);
    EXPECT_NEAR(normalizedMutualInformation(original), normalizedMutualInformation(relabelled), 1e-12);
    for (MatchingMethod method : {MatchingMethod::Hungarian, MatchingMethod::Greedy}) {
        const auto m1 = matchClusters(original, method), m2 = matchClusters(relabelled, method);
        EXPECT_NEAR(m1.fMeasure, m2.fMeasure, 1e-12);
        std::map<std::int32_t, std::int32_t> p1, p2;
        for (const auto& p : m1.pairs) p1[p.a] = names[p.b];
        for (const auto& p : m2.pairs) p2[p.a] = p.b;
        EXPECT_EQ(p1, p2);
        // 80 % of the points keep their cluster: every cluster is matched to itself.
        for (const auto& [from, to] : p1) EXPECT_EQ(to, names[from]);
    }
}

TEST(PointHeightsExtra, SameTreeInAnotherMergeOrderHasTheSameHeights) {
    // ((0,1)@1, (2,3)@2)@3, and the same tree with its two lower merges in the other order (the
    // root then joins the same clusters under swapped ids).
    const Linkage first = makeLinkage(4, {Merge{0, 1, 1, 2}, Merge{2, 3, 2, 2}, Merge{4, 5, 3, 4}});
    const Linkage second = makeLinkage(4, {Merge{2, 3, 2, 2}, Merge{0, 1, 1, 2}, Merge{4, 5, 3, 4}});
    const std::vector<double> h1 = pointHeights(first), h2 = pointHeights(second);
    EXPECT_EQ(h1, (std::vector<double>{4, 4, 5, 5}));
    EXPECT_EQ(h1, h2);
    EXPECT_DOUBLE_EQ(pearsonCorrelation(h1, h2), 1.0);
    EXPECT_DOUBLE_EQ(spearmanCorrelation(h1, h2), 1.0);
}
