#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "clusterlens/compare/agreement.hpp"
#include "clusterlens/compare/assignment.hpp"
#include "clusterlens/compare/correlation.hpp"
#include "clusterlens/errors.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

double bruteForceMinCost(const std::vector<double>& cost, std::size_t k) {
    std::vector<std::size_t> perm(k);
    std::iota(perm.begin(), perm.end(), 0);
    double best = std::numeric_limits<double>::infinity();
    do {
        double total = 0;
        for (std::size_t i = 0; i < k; ++i) total += cost[i * k + perm[i]];
        best = std::min(best, total);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return best;
}

bool isPermutation(const std::vector<std::int64_t>& a) {
    std::vector<std::int64_t> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<std::int64_t>(i)) return false;
    return true;
}

}  // namespace

TEST(Assignment, HungarianEqualsBruteForceOnRandomCostsUpToK8) {
    const auto seed = test::testSeed();
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 100.0);
    for (std::size_t k = 1; k <= 8; ++k) {
        for (int trial = 0; trial < 6; ++trial) {
            std::vector<double> cost(k * k);
            for (double& c : cost) c = uniform(rng);
            if (trial % 2)
                for (double& c : cost) c = std::round(c / 20.0);  // many ties
            const auto hungarian = hungarianAssignment(cost, k, k);
            const auto greedy = greedyAssignment(cost, k, k);
            ASSERT_TRUE(isPermutation(hungarian));
            ASSERT_TRUE(isPermutation(greedy));
            const double optimum = bruteForceMinCost(cost, k);
            EXPECT_NEAR(assignmentCost(cost, k, hungarian), optimum, 1e-9) << "k=" << k << " trial " << trial;
            EXPECT_GE(assignmentCost(cost, k, greedy), optimum - 1e-9) << "greedy beat the optimum";
        }
    }
}

TEST(Assignment, GreedyEqualsOptimumOnEasyCaseAndMatchesSeedExample) {
    // A diagonal-dominant matrix: the smallest entries form the optimal assignment.
    std::vector<double> easy = {1, 9, 9, 9, 2, 9, 9, 9, 3};
    EXPECT_EQ(greedyAssignment(easy, 3, 3), (std::vector<std::int64_t>{0, 1, 2}));
    // The 6x6 example of the seed blog: greedy (taking (3,3) before (3,6)) costs 167, not the optimum.
    std::vector<double> blog = {62, 31, 79, 6,   21, 37, 45, 27, 23, 66, 9,  17, 83, 59, 25, 38, 63,  25,
                                1,  37, 53, 100, 80, 51, 69, 72, 74, 32, 82, 31, 34, 95, 61, 64, 100, 82};
    const auto greedy = greedyAssignment(blog, 6, 6);
    EXPECT_DOUBLE_EQ(assignmentCost(blog, 6, greedy), 167.0);
    EXPECT_DOUBLE_EQ(assignmentCost(blog, 6, hungarianAssignment(blog, 6, 6)), bruteForceMinCost(blog, 6));
}

TEST(Assignment, RectangularTablesLeaveRowsUnmatched) {
    std::vector<double> cost = {5, 1, 9, 2, 8, 0};  // 3 rows x 2 cols
    const auto a = hungarianAssignment(cost, 3, 2);
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(std::count(a.begin(), a.end(), -1), 1);
    EXPECT_DOUBLE_EQ(assignmentCost(cost, 2, a), 5.0);  // rows 0 and 2: 5 + 0 is the cheapest pair of rows
}

TEST(Agreement, HandComputedAriAndNmi) {
    // Classic example: A = {0,0,0,1,1,1}, B = {0,0,1,1,2,2}; scikit-learn gives ARI 0.24242424..., NMI 0.51668...
    std::vector<std::int32_t> a = {0, 0, 0, 1, 1, 1}, b = {0, 0, 1, 1, 2, 2};
    const auto t = contingencyTable(a, b);
    EXPECT_NEAR(adjustedRandIndex(t), 0.24242424242424243, 1e-12);
    EXPECT_NEAR(normalizedMutualInformation(t), 0.5158037429793889, 1e-12);
    const auto same = contingencyTable(a, {5, 5, 5, 7, 7, 7});
    EXPECT_DOUBLE_EQ(adjustedRandIndex(same), 1.0);
    EXPECT_NEAR(normalizedMutualInformation(same), 1.0, 1e-12);
    EXPECT_THROW(contingencyTable(a, {1, 2}), InvalidInput);
}

TEST(Agreement, MatchingMaximisesF1AndReportsFMeasure) {
    std::vector<std::int32_t> a = {0, 0, 0, 1, 1, 1, 2, 2}, b = {7, 7, 7, 7, 3, 3, 3, -1};
    const auto t = contingencyTable(a, b);
    EXPECT_EQ(t.labelsB, (std::vector<std::int32_t>{-1, 3, 7}));
    const auto m = matchClusters(t, MatchingMethod::Hungarian);
    ASSERT_EQ(m.pairs.size(), 3u);
    // Optimal: 0<->7 (F1 = 6/7), 1<->3 (F1 = 4/6), 2<->-1 (F1 = 2/3).
    double total = 0;
    for (const auto& p : m.pairs) total += p.f1;
    EXPECT_NEAR(total, 6.0 / 7 + 4.0 / 6 + 2.0 / 3, 1e-12);
    EXPECT_NEAR(m.fMeasure, 3.0 / 8 * 6.0 / 7 + 3.0 / 8 * 4.0 / 6 + 2.0 / 8 * 2.0 / 3, 1e-12);
    EXPECT_LE(matchClusters(t, MatchingMethod::Greedy).totalF1, m.totalF1 + 1e-12);
}

TEST(Correlation, PearsonAndSpearmanWithTies) {
    std::vector<double> x = {1, 2, 3, 4, 5}, y = {2, 4, 6, 8, 10.5};
    EXPECT_NEAR(pearsonCorrelation(x, y), 0.9988681377244375, 1e-12);  // scipy.stats.pearsonr
    EXPECT_DOUBLE_EQ(spearmanCorrelation(x, y), 1.0);
    EXPECT_EQ(averageRanks({10, 20, 10, 30}), (std::vector<double>{1.5, 3, 1.5, 4}));
    // scipy.stats.spearmanr([1,2,2,3],[1,3,2,4]) = 0.9486832980505138
    EXPECT_NEAR(spearmanCorrelation({1, 2, 2, 3}, {1, 3, 2, 4}), 0.9486832980505138, 1e-12);
    EXPECT_TRUE(std::isnan(pearsonCorrelation({1, 1, 1}, {1, 2, 3})));
    EXPECT_THROW(pearsonCorrelation({1}, {1}), InvalidInput);
}
