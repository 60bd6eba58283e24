// Cuts of a linkage with a minimum cluster size, and the per-cluster medians of clustermaps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <random>
#include <vector>

#include "clusterlens/cluster/cluster_medians.hpp"
#include "clusterlens/errors.hpp"
#include "clusterlens/hca/mhca.hpp"
#include "clusterlens/hca/linkage_cut.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/transforms.hpp"
#include "test_support.hpp"

namespace clusterlens {
namespace {

// 6 leaves: {0,1,2} and {3,4} are populations, leaf 5 an outlier joining last (at the top).
//   row 0: 0+1 (h1) -> 6;  row 1: 6+2 (h2) -> 7;  row 2: 3+4 (h1.5) -> 8;
//   row 3: 7+8 (h5) -> 9;  row 4: 5+9 (h9) -> 10
Linkage outlierOnTop() {
    Linkage l;
    l.leafCount = 6;
    l.merges = {{0, 1, 1.0, 2}, {2, 6, 2.0, 3}, {3, 4, 1.5, 2}, {7, 8, 5.0, 5}, {5, 9, 9.0, 6}};
    return l;
}

TEST(LinkageCut, CutOrderUndoesTheHighestSubtreesFirst) {
    EXPECT_EQ(linkageCutOrder(outlierOnTop()), (std::vector<std::int32_t>{4, 3, 1, 2, 0}));
}

TEST(LinkageCut, EveryClusterOfEveryCutIsContiguousInTheLeafOrder) {
    EXPECT_EQ(dendrogramLeafOrder(outlierOnTop()), (std::vector<std::int64_t>{5, 2, 0, 1, 3, 4}));  // a before b
    // An MHCA tree of 300 random points in 3-D (inversions included): cuts into 2..30 clusters.
    std::mt19937_64 random(test::testSeed());
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> x(300 * 3);
    for (double& v : x) v = noise(random);
    const Linkage tree = mhcaCpu(x.data(), 300, 3, MhcaOptions{});
    const std::vector<std::int64_t> order = dendrogramLeafOrder(tree);
    std::vector<std::int64_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int64_t> all(300);
    std::iota(all.begin(), all.end(), 0);
    ASSERT_EQ(sorted, all) << "not a permutation";
    for (std::size_t k = 2; k <= 30; ++k) {
        const LinkageCut cut = cutLinkage(tree, k, 1);
        std::vector<std::int32_t> seen;  // labels in leaf order, each run once
        for (const std::int64_t leaf : order) {
            const std::int32_t label = cut.labels[static_cast<std::size_t>(leaf)];
            if (seen.empty() || seen.back() != label) {
                EXPECT_EQ(std::count(seen.begin(), seen.end(), label), 0) << "cluster " << label << " of k = " << k;
                seen.push_back(label);
            }
        }
        EXPECT_EQ(seen.size(), k);
    }
}

TEST(LinkageCut, PlainCutGivesTheOutlierAsACluster) {
    const LinkageCut cut = cutLinkage(outlierOnTop(), 2, 1);
    EXPECT_EQ(cut.populations, 2u);
    // Leaf order: 5, then 0 1 2, then 3 4 (a before b).
    EXPECT_EQ(cut.labels, (std::vector<std::int32_t>{1, 1, 1, 1, 1, 0}));
    EXPECT_EQ(cut.populationSizes, (std::vector<std::int64_t>{1, 5}));
    EXPECT_TRUE(cut.smallSizes.empty());
}

TEST(LinkageCut, MinimumSizeListsTheOutlierApartAndFindsTwoPopulations) {
    const Linkage l = outlierOnTop();
    const PopulationCutPlan plan = planPopulationCut(l, linkageCutOrder(l), 2, 2);
    EXPECT_EQ(plan.undone, 2u);
    EXPECT_EQ(plan.populations, 2u);
    const LinkageCut cut = cutLinkage(l, 2, 2);
    EXPECT_EQ(cut.populations, 2u);
    EXPECT_EQ(cut.labels, (std::vector<std::int32_t>{0, 0, 0, 1, 1, -1}));
    EXPECT_EQ(cut.populationSizes, (std::vector<std::int64_t>{3, 2}));
    EXPECT_EQ(cut.smallSizes, (std::vector<std::int64_t>{1}));
    EXPECT_EQ(cut.smallFirstLeaf, (std::vector<std::int64_t>{5}));
}

TEST(LinkageCut, UnreachableCountGivesTheMostPopulationsAtTheFirstCut) {
    const Linkage l = outlierOnTop();
    // Only {0,1,2} has 3 points: one population at most, reached by undoing the outlier's merge.
    const PopulationCutPlan plan = planPopulationCut(l, linkageCutOrder(l), 4, 3);
    EXPECT_EQ(plan.populations, 1u);
    EXPECT_EQ(plan.undone, 0u);
    const LinkageCut cut = cutLinkage(l, 4, 3);
    EXPECT_EQ(cut.populations, 1u);
    EXPECT_TRUE(cut.smallSizes.empty());
}

TEST(LinkageCut, WrongCutOrderLengthIsRefused) {
    const std::vector<std::int32_t> order{0, 1};
    EXPECT_THROW(planPopulationCut(outlierOnTop(), order, 2, 2), InvalidInput);
}

TEST(LinkageCut, DefaultMinimumSizeIsOnePercentBetweenOneAndTwenty) {
    EXPECT_EQ(defaultMinClusterSize(50), 1u);
    EXPECT_EQ(defaultMinClusterSize(150), 1u);
    EXPECT_EQ(defaultMinClusterSize(1500), 15u);
    EXPECT_EQ(defaultMinClusterSize(6052), 20u);
    EXPECT_EQ(defaultMinClusterSize(1'000'000), 20u);
}

// The bundled demo (6052 FACSAria events) as the GUI's demo analyses it: arcsinh with cofactor 150
// on its 12 columns, MHCA with the default options (full, threshold 0.5, mahal). One test for both
// cuts: the MHCA run is most of its time (over a minute under the sanitizers).
TEST(LinkageCut, DemoCutIntoFivePlainHasOutliersAtTheTopWithTheDefaultMinimumSizeFivePopulations) {
    const Dataset raw = readDataset(std::string(CLUSTERLENS_SOURCE_DIR) + "/resources/demo/aria_facs_6052.csv");
    const Dataset data = asinhTransform(raw, 150.0);
    const std::vector<double> values = data.valuesAsDouble();
    const Linkage linkage = mhcaCpu(values.data(), data.n, data.d, MhcaOptions{});

    const LinkageCut plain = cutLinkage(linkage, 5, 1);
    EXPECT_EQ(plain.populations, 5u);
    // Left to right in the tree, as the dendrogram shows them.
    EXPECT_EQ(plain.populationSizes, (std::vector<std::int64_t>{1, 135, 5911, 1, 4}));

    const std::size_t m = defaultMinClusterSize(linkage.leafCount);
    EXPECT_EQ(m, 20u);
    const LinkageCut cut = cutLinkage(linkage, 5, m);
    ASSERT_EQ(cut.populations, 5u);
    for (const std::int64_t size : cut.populationSizes) EXPECT_GE(size, static_cast<std::int64_t>(m));
    // The outliers of the plain cut are listed apart as small clusters.
    ASSERT_FALSE(cut.smallSizes.empty());
    for (const std::int64_t size : cut.smallSizes) EXPECT_LT(size, static_cast<std::int64_t>(m));
    std::int64_t total = 0;
    for (const std::int64_t size : cut.populationSizes) total += size;
    for (const std::int64_t size : cut.smallSizes) total += size;
    EXPECT_EQ(total, 6052);
    std::size_t outliers = 0;
    for (const std::int32_t label : cut.labels) outliers += label < 0 ? 1 : 0;
    EXPECT_EQ(static_cast<std::int64_t>(outliers),
              total - std::accumulate(cut.populationSizes.begin(), cut.populationSizes.end(), std::int64_t{0}));
    std::string sizes;
    for (const std::int64_t size : cut.populationSizes) sizes += std::to_string(size) + " ";
    std::string small;
    for (const std::int64_t size : cut.smallSizes) small += std::to_string(size) + " ";
    std::printf("demo k=5 min %zu: populations %s; small %s\n", m, sizes.c_str(), small.c_str());
}

TEST(ClusterMedians, EqualNumpysMedianOfEachClusterOnRandomData) {
    const std::uint64_t seed = test::testSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Dataset data;
    data.n = 301;
    data.d = 3;
    data.values.resize(data.n * data.d);
    std::normal_distribution<float> normal(0.0f, 4.0f);
    for (float& v : data.values) v = std::round(normal(rng));  // many ties
    std::vector<std::int32_t> labels(data.n);
    std::uniform_int_distribution<int> pick(-1, 4);
    for (auto& label : labels) label = pick(rng);
    const std::vector<std::size_t> columns{2, 0};
    const ClusterMedians medians = clusterMedians(data, columns, labels, 6);
    ASSERT_EQ(medians.values.size(), 12u);
    for (std::size_t c = 0; c < 6; ++c)
        for (std::size_t j = 0; j < columns.size(); ++j) {
            std::vector<double> members;
            for (std::size_t i = 0; i < data.n; ++i)
                if (labels[i] == static_cast<std::int32_t>(c)) members.push_back(data.at(i, columns[j]));
            ASSERT_EQ(medians.sizes[c], static_cast<std::int64_t>(members.size()));
            if (members.empty()) {
                EXPECT_TRUE(std::isnan(medians.at(c, j)));  // cluster 5 has no points
                continue;
            }
            std::sort(members.begin(), members.end());
            const std::size_t m = members.size();
            const double expected = m % 2 ? members[m / 2] : 0.5 * (members[m / 2 - 1] + members[m / 2]);
            EXPECT_DOUBLE_EQ(medians.at(c, j), expected) << "cluster " << c << " column " << j;
        }
}

TEST(ClusterMedians, EvenCountAveragesTheMiddlePair) {
    Dataset data;
    data.n = 4;
    data.d = 1;
    data.values = {10.0f, 1.0f, 4.0f, 2.0f};
    const std::vector<std::size_t> columns{0};
    const std::vector<std::int32_t> labels{0, 0, 0, 0};
    EXPECT_DOUBLE_EQ(clusterMedians(data, columns, labels, 1).at(0, 0), 3.0);
}

TEST(ClusterMedians, BadShapesAreRefused) {
    Dataset data;
    data.n = 2;
    data.d = 1;
    data.values = {1.0f, 2.0f};
    const std::vector<std::size_t> columns{1};
    const std::vector<std::int32_t> labels{0, 0};
    EXPECT_THROW(clusterMedians(data, columns, labels, 1), InvalidInput);
    const std::vector<std::size_t> first{0};
    const std::vector<std::int32_t> shortLabels{0};
    EXPECT_THROW(clusterMedians(data, first, shortLabels, 1), InvalidInput);
}

TEST(ScalePerColumn, ZScoreAndMinMaxScaleEachMarkerOverTheClusters) {
    const double nan = std::nan("");
    // 3 clusters x 2 markers; marker 1 is constant except a missing cluster.
    const std::vector<double> m{1.0, 7.0, 2.0, nan, 3.0, 7.0};
    const auto z = scalePerColumn(m, 3, 2, MarkerScaling::ZScore);
    const double sd = std::sqrt(2.0 / 3.0);
    EXPECT_DOUBLE_EQ(z[0], -1.0 / sd);
    EXPECT_DOUBLE_EQ(z[2], 0.0);
    EXPECT_DOUBLE_EQ(z[4], 1.0 / sd);
    EXPECT_DOUBLE_EQ(z[1], 0.0);
    EXPECT_TRUE(std::isnan(z[3]));
    const auto mm = scalePerColumn(m, 3, 2, MarkerScaling::MinMax);
    EXPECT_DOUBLE_EQ(mm[0], 0.0);
    EXPECT_DOUBLE_EQ(mm[2], 0.5);
    EXPECT_DOUBLE_EQ(mm[4], 1.0);
    EXPECT_DOUBLE_EQ(mm[5], 0.5);
}

}  // namespace
}  // namespace clusterlens
