// The kd-tree index of density peaks against the all-pairs passes (--index none, the reference):
// dc, rho, delta, the nearest-higher links and the density order must agree bit for bit, ties
// included (lattices with pairs exactly at dc, duplicated points), in 1 to 30 features. Random tests
// print their seed.

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/synthetic.hpp"
#include "test_support.hpp"

using namespace clusterlens;

namespace {

struct Cloud {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<float> x;
};

// Uniform values on `levels` equally spaced levels per feature (levels = 0: continuous), then every
// point repeated with probability 1/8: equal distances, equal densities and duplicates.
Cloud tiedCloud(std::size_t n, std::size_t d, int levels, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Cloud c{0, d, {}};
    while (c.n < n) {
        std::vector<float> row(d);
        for (float& v : row)
            v = levels > 0 ? static_cast<float>(rng() % static_cast<std::uint64_t>(levels))
                           : static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 10.0);
        const std::size_t copies = rng() % 8 == 0 ? 2 : 1;
        for (std::size_t k = 0; k < copies && c.n < n; ++k, ++c.n) c.x.insert(c.x.end(), row.begin(), row.end());
    }
    return c;
}

void expectTreeEqualsAllPairs(const Cloud& c, DensityPeaksOptions options) {
    SCOPED_TRACE("n " + std::to_string(c.n) + ", d " + std::to_string(c.d));
    options.index = SpatialIndex::None;
    const DensityPeaksResult want = densityPeaksCpu(c.x.data(), c.n, c.d, options);
    options.index = SpatialIndex::Tree;
    const DensityPeaksResult got = densityPeaksCpu(c.x.data(), c.n, c.d, options);
    EXPECT_EQ(got.index, "tree");
    EXPECT_EQ(got.dc.value, want.dc.value);
    EXPECT_EQ(got.rho, want.rho);
    EXPECT_EQ(got.delta, want.delta);
    EXPECT_EQ(got.nearestHigher, want.nearestHigher);
    EXPECT_EQ(got.densityOrder, want.densityOrder);
}

}  // namespace

TEST(DensityPeaksTree, EqualsAllPairsOnTiedAndDuplicatedDataInOneToThirtyFeatures) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const std::size_t d : {1, 2, 5, 14, 30}) {
        for (const DensityKernel kernel : {DensityKernel::Cutoff, DensityKernel::Gaussian}) {
            DensityPeaksOptions o;
            o.kernel = kernel;
            o.dcPercent = 3.0;
            expectTreeEqualsAllPairs(tiedCloud(1200, d, 0, seed + d), o);
            // Few levels: equal distances everywhere (in one or two features enough that the percentile is not 0).
            expectTreeEqualsAllPairs(tiedCloud(1200, d, d <= 2 ? 100 : 4, seed + 100 + d), o);
        }
    }
}

TEST(DensityPeaksTree, EqualsAllPairsWithPairsExactlyAtDc) {
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    o.dc = 2.0;  // a lattice distance: d < dc must exclude it
    expectTreeEqualsAllPairs(tiedCloud(900, 2, 6, seed), o);
    expectTreeEqualsAllPairs(tiedCloud(900, 5, 3, seed + 1), o);
    o.dc = 1e-3;  // almost no neighbours: every point searches far for a higher one
    expectTreeEqualsAllPairs(tiedCloud(700, 3, 0, seed + 2), o);
    o.dc = 1e3;  // everything within dc
    expectTreeEqualsAllPairs(tiedCloud(500, 4, 0, seed + 3), o);
}

TEST(DensityPeaksTree, EqualsAllPairsOnCytometryLikeDataWithExactAndSampledDc) {
    SyntheticOptions s;
    s.n = 3000;
    s.d = 14;
    s.seed = test::testSeed();
    std::cout << "seed " << s.seed << "\n";
    const Dataset data = makeCytometryLike(s);
    const Cloud c{data.n, data.d, data.values};
    for (const DensityKernel kernel : {DensityKernel::Cutoff, DensityKernel::Gaussian}) {
        DensityPeaksOptions o;
        o.kernel = kernel;
        expectTreeEqualsAllPairs(c, o);
        o.exactPercentile = false;
        o.sampleSize = 20000;
        expectTreeEqualsAllPairs(c, o);
    }
}

TEST(DensityPeaksTree, AutoTakesTheTreeWhereTheGridDoesNotApply) {
    const Cloud c = tiedCloud(kTreeMinPoints, 5, 0, 7);
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    o.dc = 1.0;
    EXPECT_EQ(resolveSpatialIndex(c.n, c.d, o), SpatialIndex::Tree);
    EXPECT_EQ(resolveSpatialIndex(c.n - 1, c.d, o), SpatialIndex::None);
    EXPECT_EQ(resolveSpatialIndex(c.n, 2, o), SpatialIndex::Grid);
    EXPECT_EQ(resolveSpatialIndex(c.n, 40, o), SpatialIndex::None);
    EXPECT_EQ(densityPeaksCpu(c.x.data(), c.n, c.d, o).index, "tree");
    EXPECT_EQ(parseSpatialIndex("tree"), SpatialIndex::Tree);
}
