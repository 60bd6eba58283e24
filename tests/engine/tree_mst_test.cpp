// The kd-tree spanning tree (MstIndex::Tree) against the all-pairs Prim (MstIndex::AllPairs): VAT start,
// order, cuts and edges, and single linkage, bit for bit, on random data of many shapes, on tied,
// gridded and duplicated points and on the clustering benchmark sets.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "clusterlens/errors.hpp"
#include "clusterlens/hca/classic_linkage.hpp"
#include "clusterlens/hca/minimum_spanning_tree.hpp"
#include "clusterlens/io/read_dataset.hpp"
#include "clusterlens/synthetic.hpp"
#include "clusterlens/vat/vat.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

VatResult vatWith(const std::vector<float>& x, std::size_t d, MstIndex index, Metric metric = Metric::Euclidean) {
    VatOptions options;
    options.backend = Backend::Cpu;
    options.index = index;
    options.metric = metric;
    return computeVat(x.data(), x.size() / d, d, options);
}

// Same start, order, cuts and edges, compared as values and bits (== on doubles also compares bits
// here: no NaN, and a -0 cut would differ from the reference's +0 only in a sign test).
void expectSameVat(const VatResult& tree, const VatResult& all, const std::string& what) {
    ASSERT_EQ(tree.start, all.start) << what;
    ASSERT_EQ(tree.order, all.order) << what;
    ASSERT_EQ(tree.edges.size(), all.edges.size()) << what;
    for (std::size_t k = 0; k < all.edges.size(); ++k) {
        ASSERT_EQ(tree.edges[k].u, all.edges[k].u) << what << " edge " << k;
        ASSERT_EQ(tree.edges[k].v, all.edges[k].v) << what << " edge " << k;
        ASSERT_EQ(tree.cut[k + 1], all.cut[k + 1]) << what << " cut " << k + 1;
        ASSERT_EQ(std::signbit(tree.edges[k].w), std::signbit(all.edges[k].w)) << what << " edge " << k;
    }
}

void expectSameLinkage(const Linkage& a, const Linkage& b, const std::string& what) {
    ASSERT_EQ(a.merges.size(), b.merges.size()) << what;
    for (std::size_t k = 0; k < a.merges.size(); ++k) {
        ASSERT_EQ(a.merges[k].a, b.merges[k].a) << what << " merge " << k;
        ASSERT_EQ(a.merges[k].b, b.merges[k].b) << what << " merge " << k;
        ASSERT_EQ(a.merges[k].height, b.merges[k].height) << what << " merge " << k;
        ASSERT_EQ(a.merges[k].size, b.merges[k].size) << what << " merge " << k;
    }
}

// VAT both ways and single linkage both ways; returns whether the tree ran without falling back.
bool expectParity(const std::vector<float>& x, std::size_t d, const std::string& what) {
    const std::size_t n = x.size() / d;
    const VatResult tree = vatWith(x, d, MstIndex::Tree);
    expectSameVat(tree, vatWith(x, d, MstIndex::AllPairs), what);
    expectSameVat(vatWith(x, d, MstIndex::Tree, Metric::SqEuclidean),
                  vatWith(x, d, MstIndex::AllPairs, Metric::SqEuclidean), what + " sqeuclidean");
    const std::vector<MstEdge> fromTree = minimumSpanningTreeCpu(x.data(), n, d, Metric::Euclidean, MstIndex::Tree);
    const std::vector<MstEdge> fromAll = minimumSpanningTreeCpu(x.data(), n, d, Metric::Euclidean, MstIndex::AllPairs);
    expectSameLinkage(singleLinkageFromMst(fromTree, n), singleLinkageFromMst(fromAll, n), what + " single linkage");
    EXPECT_NE(tree.index, "allpairs") << what;
    return tree.index == "tree";
}

std::vector<float> gaussian(std::size_t n, std::size_t d, std::mt19937_64& rng) {
    std::normal_distribution<float> normal;
    std::vector<float> x(n * d);
    for (float& v : x) v = normal(rng);
    return x;
}

}  // namespace

TEST(TreeMst, EqualsAllPairsOnRandomDataOfManyShapes) {
    std::mt19937_64 rng(test::testSeed());
    std::size_t runs = 0, onTree = 0;
    for (const std::size_t n : {2, 3, 4, 7, 33, 250, 1000, 3000})
        for (const std::size_t d : {1, 2, 3, 5, 14, 30}) {
            if (n * d > 40000) continue;  // keeps the all-pairs oracle quick
            ++runs;
            onTree += expectParity(gaussian(n, d, rng), d, std::to_string(n) + "x" + std::to_string(d)) ? 1 : 0;
        }
    // Random floats rarely tie: the tree itself (not its all-pairs fallback) must have run nearly always.
    EXPECT_GE(onTree * 10, runs * 9) << onTree << " of " << runs;
}

TEST(TreeMst, EqualsAllPairsOnGridsWithEqualDistancesEverywhere) {
    for (const std::size_t side : {2, 5, 23}) {
        std::vector<float> x;
        for (std::size_t i = 0; i < side; ++i)
            for (std::size_t j = 0; j < side; ++j) x.insert(x.end(), {float(i), float(j) * 2.0f});
        expectParity(x, 2, "grid " + std::to_string(side));
    }
    std::vector<float> line;
    for (int i = 0; i < 300; ++i) line.push_back(static_cast<float>(i % 7) * 0.5f);
    expectParity(line, 1, "repeated 1-d lattice");
    std::vector<float> cube;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) cube.insert(cube.end(), {float(i), float(j), float(k)});
    expectParity(cube, 3, "cube lattice");
}

TEST(TreeMst, CollapsesDuplicatedPointsAndStillRunsTheTree) {
    std::mt19937_64 rng(test::testSeed() + 1);
    for (const std::size_t d : {1, 3, 14}) {
        const std::vector<float> distinct = gaussian(200, d, rng);
        std::vector<float> x;
        std::uniform_int_distribution<std::size_t> pick(0, 199);
        for (std::size_t i = 0; i < 1500; ++i) {
            const std::size_t p = pick(rng);
            x.insert(x.end(), distinct.begin() + static_cast<std::ptrdiff_t>(p * d),
                     distinct.begin() + static_cast<std::ptrdiff_t>((p + 1) * d));
        }
        // -0 and +0 are the same coordinate: a point with both signs is one group.
        x[0] = 0.0f;
        x[d] = -0.0f;
        for (std::size_t k = 1; k < d; ++k) x[d + k] = x[k];
        const bool tree = expectParity(x, d, "duplicates d=" + std::to_string(d));
        if (d > 1) {
            EXPECT_TRUE(tree) << "only zero-distance ties, which the collapse removes";
        }
    }
    expectParity(std::vector<float>(40, 1.5f), 2, "all points equal");
    expectParity({3.0f, 3.0f, 1.0f, 3.0f, 1.0f}, 1, "two values");
}

TEST(TreeMst, EqualsAllPairsOnCytometryLikeData) {
    SyntheticOptions options;
    options.n = 5000;
    options.d = 14;
    options.seed = 7;
    const Dataset data = makeCytometryLike(options);
    EXPECT_TRUE(expectParity(data.values, data.d, "cytometry-like 5000x14"));
}

TEST(TreeMst, AutoTakesTheTreeWherePointsOutnumberTheOrthants) {
    VatOptions options;
    options.backend = Backend::Cpu;
    const Dataset plane = readDataset(test::dataPath("benchmarks/sipu/s3.data.gz"));  // 5000 x 2
    EXPECT_EQ(computeVat(plane.values.data(), plane.n, plane.d, options).index, "tree");
    // classicLinkageCpu's single linkage takes the tree by itself here.
    const Linkage automatic = classicLinkageCpu(plane.values.data(), plane.n, plane.d, LinkageMethod::Single);
    expectSameLinkage(automatic,
                      singleLinkageFromMst(minimumSpanningTreeCpu(plane.values.data(), plane.n, plane.d,
                                                                  Metric::Euclidean, MstIndex::AllPairs),
                                           plane.n),
                      "classic single linkage");
    SyntheticOptions synthetic;
    synthetic.n = 5000;
    synthetic.d = 14;
    const Dataset cytometry = makeCytometryLike(synthetic);
    EXPECT_EQ(computeVat(cytometry.values.data(), cytometry.n, cytometry.d, options).index, "allpairs")
        << "5000 points in 14 dimensions: below 4 * 2^14";
}

TEST(TreeMst, EqualsAllPairsOnTheBenchmarkSets) {
    for (const char* name : {"sipu/s3", "sipu/a1", "sipu/aggregation", "fcps/hepta", "fcps/chainlink", "fcps/target",
                             "uci/yeast", "uci/wdbc", "uci/glass"}) {
        const Dataset data = readDataset(test::dataPath(std::string("benchmarks/") + name + ".data.gz"));
        expectParity(data.values, data.d, name);
    }
}

TEST(TreeMst, ParsesTheIndexAndRejectsTheTreeForOtherMetrics) {
    EXPECT_EQ(parseMstIndex("auto"), MstIndex::Auto);
    EXPECT_EQ(parseMstIndex("allpairs"), MstIndex::AllPairs);
    EXPECT_EQ(parseMstIndex("tree"), MstIndex::Tree);
    EXPECT_THROW(parseMstIndex("none"), InvalidInput);
    std::mt19937_64 rng(3);
    const std::vector<float> x = gaussian(50, 3, rng);
    EXPECT_THROW(vatWith(x, 3, MstIndex::Tree, Metric::Manhattan), InvalidInput);
    EXPECT_EQ(vatWith(x, 3, MstIndex::Auto, Metric::Manhattan).index, "allpairs");
    EXPECT_EQ(vatWith(x, 3, MstIndex::Auto).index, "allpairs") << "below kTreeMstMinPoints";
}

TEST(TreeMst, TheCpuTimeEstimateFollowsThePathTheCpuTakes) {
    // Measured on 2 cores (docs/benchmarks.md): 200K x 14 in 21.5 s and 1M x 14 in 344 s on the tree.
    const double at200k = cpuVatSecondsEstimate(200'000, 14, Metric::Euclidean, 2);
    const double at1m = cpuVatSecondsEstimate(1'000'000, 14, Metric::Euclidean, 2);
    EXPECT_GT(at200k, 21.5 / 2.0);
    EXPECT_LT(at200k, 21.5 * 2.0);
    EXPECT_GT(at1m, 344.0 / 2.0);
    EXPECT_LT(at1m, 344.0 * 2.0);
    // Other metrics run the all-pairs Prim: quadratic, far slower at this size.
    EXPECT_GT(cpuVatSecondsEstimate(200'000, 14, Metric::Manhattan, 2), 4.0 * at200k);
    EXPECT_LT(cpuVatSecondsEstimate(200'000, 14, Metric::Euclidean, 16), at200k);
}
