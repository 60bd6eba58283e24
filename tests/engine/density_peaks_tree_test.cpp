// The kd-tree index of density peaks against the all-pairs passes (--index none, the reference):
// dc, rho, delta, the nearest-higher links and the density order must agree bit for bit, ties
// included (lattices with pairs exactly at dc, duplicated points), in 1 to 30 features, with the
// leaves chosen by d and with small ones. Random tests print their seed.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <random>
#include <thread>
#include <vector>

#include "clusterlens/cluster/density_peaks.hpp"
#include "clusterlens/job_control.hpp"
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
    // The leaves chosen by d, and a deep tree of small leaves whose bounds decide most nodes.
    for (const std::size_t leafSize : {std::size_t{0}, std::size_t{8}}) {
        SCOPED_TRACE("leaf size " + std::to_string(leafSize));
        options.treeLeafSize = leafSize;
        const DensityPeaksResult got = densityPeaksCpu(c.x.data(), c.n, c.d, options);
        EXPECT_EQ(got.index, "tree");
        EXPECT_EQ(got.dc.value, want.dc.value);
        EXPECT_EQ(got.rho, want.rho);
        EXPECT_EQ(got.delta, want.delta);
        EXPECT_EQ(got.nearestHigher, want.nearestHigher);
        EXPECT_EQ(got.densityOrder, want.densityOrder);
    }
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

TEST(DensityPeaksTree, EqualsAllPairsWhereNodesAreCountedWholeAndOneLeafHoldsManyEqualPoints) {
    // 600 copies of one point form a single leaf far above the leaf size, which the range counts
    // enter at every position; around it, clusters small enough against dc that nodes after a query
    // are counted whole while the nodes around it are opened.
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    std::mt19937_64 rng(seed);
    Cloud c{0, 6, {}};
    const auto add = [&c](const std::vector<float>& row) {
        c.x.insert(c.x.end(), row.begin(), row.end());
        ++c.n;
    };
    for (int k = 0; k < 600; ++k) add({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f});
    std::normal_distribution<float> noise(0.0f, 0.05f);
    for (int cluster = 0; cluster < 8; ++cluster)
        for (int k = 0; k < 150; ++k) {
            std::vector<float> row(c.d);
            for (std::size_t f = 0; f < c.d; ++f) row[f] = static_cast<float>(cluster % 3) + noise(rng);
            add(row);
        }
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    for (const double dc : {0.5, 1.5, 4.0}) {
        o.dc = dc;
        expectTreeEqualsAllPairs(c, o);
    }
    o.dc.reset();
    o.dcPercent = 30.0;  // the exact percentile among many equal pair distances
    expectTreeEqualsAllPairs(c, o);
}

TEST(DensityPeaksTree, EqualsAllPairsWhereFloatDistancesOverflowOrVanish) {
    // The leaf scans screen pairs by their float squared distance: at 1e19 it overflows to inf, at
    // 1e-25 it is 0 or subnormal. Neither may decide a pair the exact value decides otherwise.
    const std::uint64_t seed = test::testSeed();
    std::cout << "seed " << seed << "\n";
    for (const float scale : {1e19f, 1e-25f}) {
        Cloud c = tiedCloud(800, 6, 0, seed + (scale > 1.0f ? 1 : 2));
        for (float& v : c.x) v *= scale;
        DensityPeaksOptions o;
        o.kernel = DensityKernel::Cutoff;
        expectTreeEqualsAllPairs(c, o);
    }
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

TEST(DensityPeaksTree, ProgressNeverGoesBackFromOneExactDcPassToTheNext) {
    // The exact dc takes two or more window passes (at this size); each used to report 0 to 20 % again.
    // The all-pairs passes get their share of the progress from the same place.
    SyntheticOptions s;
    s.n = 30000;
    s.d = 14;
    const Dataset data = makeCytometryLike(s);
    DensityPeaksOptions o;
    o.kernel = DensityKernel::Cutoff;
    o.index = SpatialIndex::Tree;
    JobControl control;
    std::atomic<bool> done{false};
    double last = 0.0, fall = 0.0;
    std::size_t samples = 0;
    std::thread watcher([&] {
        while (!done.load()) {
            const double now = control.progress();
            fall = std::max(fall, last - now);
            last = now;
            ++samples;
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    });
    const DensityPeaksResult r = densityPeaksCpu(data.values.data(), data.n, data.d, o, &control);
    done = true;
    watcher.join();
    EXPECT_GE(r.dc.passes, 2);
    EXPECT_GT(samples, 20u);
    // Threads report the tasks they finish without ordering their reports, so the progress may step
    // back by a task or two (1/469 of a pass each here); a pass starting over fell by 0.1 to 0.2.
    EXPECT_LT(fall, 0.01);
}
